-- quote_literal/quote_nullable of any type (their text forms), format()
-- over non-string arguments, with many conversions and with a format that
-- varies by row, and numerics whose scale passes 1000 as text: run on
-- every backend, the GPU included (docs/gpu.md, "The long tail").

-- name: s901_quote_literal_of_other_types
-- ordered
SELECT id, quote_literal(i), quote_nullable(big), quote_literal(n), quote_nullable(ts), quote_literal(r), quote_nullable(d2), quote_nullable(s)
FROM obs ORDER BY id;

-- name: s902_quote_nullable_of_intervals_dates_quotients
-- ordered
SELECT id, quote_nullable(ts - timestamp '2020-01-01 00:00:00'), quote_literal(ts::date), quote_nullable(n / 7), quote_literal(code)
FROM obs ORDER BY id;

-- name: s903_format_of_other_types
-- ordered
SELECT id, format('%s|%s|%L|%s|%L|%s', i, n, big, ts, d2, ts - timestamp '2021-06-30 12:00:00') FROM obs ORDER BY id;

-- name: s904_format_more_than_eight_conversions
-- ordered
SELECT id, format('%s,%s,%s,%s,%s,%s,%s,%L,%s,%s,%3$s', id, s, i, big, r, d, n, grp, note, ts) FROM obs ORDER BY id;

-- name: s905_format_varies_by_row
-- ordered
SELECT id, format(CASE WHEN id % 3 = 0 THEN '%s-%s' WHEN id % 3 = 1 THEN '%2$L %1$I %%' ELSE grp || '%1$s' END, coalesce(note, 'n'), grp)
FROM obs ORDER BY id;

-- name: s906_format_of_lineitem_columns
SELECT l_shipmode, format('%s/%L/%s', l_shipmode, l_discount, l_shipdate), count(*) FROM lineitem GROUP BY 1, 2;

-- name: s907_quote_literal_in_filter
SELECT count(*) FROM lineitem WHERE quote_literal(l_quantity) LIKE '''1%' OR format('%s', l_partkey) LIKE '%7';

-- name: c901_numeric_scale_past_1000_as_text
-- ordered
SELECT id, ((s * 1e-300::float8)::numeric * (s * 1e-300::float8)::numeric * (i * 1e-300::float8)::numeric * (3e-300::float8)::numeric)::text
FROM obs WHERE id <= 12 ORDER BY id;

-- name: c902_quotient_products_as_text
-- ordered
SELECT id, ((n / 7) * (s * 1e-300::float8)::numeric * (1e-300::float8)::numeric)::text, quote_literal((n / 7) * (s * 1e-300::float8)::numeric) FROM obs ORDER BY id;

-- name: e901_format_too_few_arguments
-- error 22023
SELECT format('%s %s', grp) FROM obs;

-- name: e902_format_unrecognized_conversion
-- error 22023
SELECT format('%s %z', grp, note) FROM obs;

-- name: e903_format_null_identifier
-- error 22004
SELECT format('%I', note) FROM obs;

-- name: e904_format_from_a_column
-- error 22023
SELECT format(note, grp) FROM obs;
