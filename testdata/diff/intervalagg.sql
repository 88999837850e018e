-- sum/avg over intervals (field-by-field sums; avg divides them as
-- PostgreSQL's interval_div does), and the text PostgreSQL quotes or
-- formats: quote_literal/quote_nullable of booleans say 'true'/'false'
-- (a cast to text), format() writes a value's output form (t/f, char(n)
-- with its padding). Run on every backend, the GPU included.

-- name: s950_quote_literal_of_booleans
-- ordered
SELECT id, quote_literal(flag), quote_nullable(flag), quote_literal(id > 20), quote_nullable(NOT flag) FROM obs ORDER BY id;

-- name: s951_format_of_booleans
-- ordered
SELECT id, format('%s|%L|%s', flag, flag, id % 2 = 0) FROM obs ORDER BY id;

-- name: s952_format_of_char_keeps_padding
-- ordered
SELECT id, format('[%s]%L', code, code), format('%1$s|%1$L', grp::char(3)), quote_literal(code), quote_nullable(code::char(6)) FROM obs ORDER BY id;

-- name: s953_format_of_char_columns
SELECT format('%s%s|%L', l_returnflag, l_linestatus, l_returnflag::char(3)), count(*) FROM lineitem GROUP BY 1;

-- name: s954_quote_and_format_constants
SELECT quote_literal(true), quote_nullable(false), quote_nullable(NULL::boolean), format('%s|%L|%L', true, false, NULL::boolean),
  format('%s|%L', 'ab'::char(4), 'ab'::char(4)), quote_literal('ab'::char(4)), format('%I', 'ab'::char(4));
