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

-- name: g950_sum_avg_interval_plain
SELECT sum(ts - timestamp '2020-01-01 00:00:00'), avg(ts - timestamp '2020-01-01 00:00:00'), count(ts - timestamp '2020-01-01 00:00:00') FROM obs;

-- name: g951_sum_avg_interval_grouped
-- ordered
SELECT grp, sum(ts - timestamp '2021-06-30 12:00:00'), avg(ts - timestamp '2021-06-30 12:00:00'), avg(timestamp '2000-01-01 00:00:00' - ts) FROM obs GROUP BY grp ORDER BY grp NULLS LAST;

-- name: g952_avg_interval_months_cascade
-- ordered
SELECT id % 7 AS k, sum(CASE WHEN id % 3 = 0 THEN interval '1 mon 2 days' WHEN id % 3 = 1 THEN interval '-2 mons 7 hours' ELSE interval '1 year 3 mons 4 days 00:00:00.000001' END),
  avg(CASE WHEN id % 3 = 0 THEN interval '1 mon 2 days' WHEN id % 3 = 1 THEN interval '-2 mons 7 hours' ELSE interval '1 year 3 mons 4 days 00:00:00.000001' END)
FROM obs GROUP BY 1 ORDER BY 1;

-- name: g953_avg_interval_fraction_rounding
-- ordered
SELECT id % 9 AS k, avg((ts - timestamp '2019-03-01 00:00:00') + interval '7 mons 13 days'), avg(interval '1 mon' + (ts - ts)), sum((ts - ts) + interval '1 day')
FROM obs GROUP BY 1 ORDER BY 1;

-- name: g954_sum_avg_interval_all_null_and_empty
SELECT sum(ts - ts), avg(ts - ts) FROM obs WHERE ts IS NULL;

-- name: g955_sum_avg_interval_no_rows
SELECT sum(ts - ts), avg(ts - ts), count(*) FROM obs WHERE id < 0;

-- name: g956_sum_interval_having_order
-- ordered
SELECT grp, sum(ts - timestamp '2020-01-01 00:00:00') AS s FROM obs GROUP BY grp
HAVING avg(ts - timestamp '2020-01-01 00:00:00') > interval '-100 days' ORDER BY sum(ts - timestamp '2020-01-01 00:00:00') DESC NULLS LAST, grp;

-- name: g957_sum_avg_interval_lineitem
-- ordered
SELECT l_returnflag, l_linestatus, sum(l_receiptdate::timestamp - l_shipdate::timestamp), avg(l_receiptdate::timestamp - l_shipdate::timestamp),
  avg(l_commitdate::timestamp - timestamp '1995-06-17 06:00:00'), count(*)
FROM lineitem GROUP BY 1, 2 ORDER BY 1, 2;

-- name: g958_avg_interval_in_expressions
-- ordered
SELECT flag, avg(ts - timestamp '2020-01-01 00:00:00') + interval '1 day', timestamp '2020-01-01 00:00:00' + avg(ts - timestamp '2020-01-01 00:00:00'),
  sum(ts - timestamp '2020-01-01 00:00:00') - avg(ts - timestamp '2020-01-01 00:00:00')
FROM obs GROUP BY flag ORDER BY flag NULLS FIRST;

-- name: g959_sum_interval_days_overflow
-- error 22008
SELECT sum(interval '2000000000 days' + (ts - ts)) FROM obs;

-- name: g960_sum_interval_months_overflow
-- error 22008
SELECT grp, sum(interval '100000000 years' + (ts - ts)) FROM obs GROUP BY grp;

-- name: g961_avg_interval_micros_overflow
-- error 22008
SELECT avg(interval '2000000000 hours' + (ts - ts)) FROM obs;

-- name: g962_sum_interval_negative_fields
-- ordered
SELECT id % 4 AS k, sum(timestamp '1999-12-31 23:59:59.999999' - ts), avg(-(ts - timestamp '2020-02-29 00:00:00')) FROM obs GROUP BY 1 ORDER BY 1;
