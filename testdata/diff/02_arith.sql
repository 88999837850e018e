-- Arithmetic: integer, numeric and float rules, mixed types.

-- name: a001_int_literal_ops
SELECT 7 + 2, 7 - 2, 7 * 2, 7 / 2, -7 / 2, 7 / -2, -(3), 2 - 3 - 4, 2 * 3 / 4, -2 * -3, 10 - -3;

-- name: a002_precedence
SELECT 2 + 3 * 4, (2 + 3) * 4, 100 / 10 / 5, 100 / (10 / 5), 1 - 2 + 3;

-- name: a003_int_columns
-- ordered
SELECT id, s + 1, s - i, s * 2, s + s, i / 7, i * 3, big / 1000, big * 2, i + big, big - s, -s, -big
  FROM obs ORDER BY id;

-- name: a004_numeric_literal_ops
SELECT 1.5 + 2.25, 1.5 - 2.25, 1.5 * 2.25, 1.50 * 2, 0.1 + 0.2, 1.000 - 1;

-- name: a005_numeric_division_scale
SELECT 10.0 / 4, 1 / 3.0, 2.0 / 3, 1.0 / 7, 100 / 7.0, 1.00 / 8, 123456.789 / 0.001, 0.001 / 3, 7 / 7.0;

-- name: a006_numeric_columns
-- ordered
SELECT l_orderkey, l_linenumber, l_quantity + 1, l_extendedprice - l_quantity, l_extendedprice * l_discount,
       l_extendedprice * (1 - l_discount) * (1 + l_tax), l_extendedprice / l_quantity, l_quantity / 3,
       l_discount * 100, -l_tax
  FROM lineitem ORDER BY l_orderkey, l_linenumber LIMIT 300;

-- name: a007_numeric_obs
-- ordered
SELECT id, n, n + 1, n * n, n / 7, n * 2.5, -n, n - 0.0005, n / 1.5, n + s FROM obs ORDER BY id;

-- name: a008_float_literal_ops
SELECT 1.5::float8 * 2, 0.1::float8 + 0.2::float8, 1::float8 / 3, 2.5::real * 2,
       1::real / 3, 1e-7::float8, 123456789012345678::float8, 0.000001::float8, 1e16::float8, 1e15::float8;

-- name: a009_float_columns
-- ordered
SELECT id, r, d, d2, r + d, r * 2, d / 4, d2 * 3, d2 / 7, r / 3, -d2, d2 + 1 FROM obs ORDER BY id;

-- name: a010_numeric_times_float
-- ordered
SELECT id, n * d, n + r, d - n, n * 1.5::float8, i * d2, 0.5 * d FROM obs ORDER BY id;

-- name: a011_int_times_numeric
-- ordered
SELECT id, i * 1.5, s + 0.25, big * 0.01, i / 2.0, 3 * n, big + n FROM obs ORDER BY id;

-- name: a012_lineitem_mixed_float
SELECT l_orderkey, l_linenumber, l_extendedprice * 1.5::float8, l_quantity::float8 / 7
  FROM lineitem WHERE l_orderkey BETWEEN 100 AND 200;

-- name: a013_int_truncation_columns
SELECT l_orderkey, l_linenumber, l_orderkey / l_linenumber, l_linenumber / 2, -l_orderkey / 3
  FROM lineitem WHERE l_orderkey < 500;

-- name: a014_huge_float_from_numeric_literal
-- 1e300 is a numeric literal (far beyond 38 digits) before the cast.
SELECT 1e300::float8 * 10, 1e300::float8;

-- The minus of the smallest integer and bigint literals belongs to the
-- literal (PostgreSQL's grammar folds it), so they keep the narrow type.

-- name: ar_min_int4_literal
SELECT -2147483648 AS a, -(2147483648) AS b, - 2147483648 AS c, -2147483648 + 1 AS d;

-- name: ar_min_int8_literal
SELECT -9223372036854775808 AS a, -9223372036854775808 + 1 AS b;

-- name: ar_past_min_literals
SELECT -2147483649 AS a, -9223372036854775809 AS b, 2147483648 AS c;

-- name: ar_min_int4_overflow
-- error 22003
SELECT -2147483648 - 1;

-- name: ar_min_int8_overflow
-- error 22003
SELECT -9223372036854775808 - 1;

-- name: ar_min_int4_column
SELECT CAST(-2147483648 AS integer) = -2147483648 AS a;
