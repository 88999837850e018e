-- Math functions over integers, numeric and double precision (PostgreSQL
-- 15's signatures, result types, scales and errors). Prefix m.

-- name: m001_rounding_types
SELECT floor(5), ceil(5), ceiling(-5), round(5), trunc(5), floor(-2.5), ceil(-2.5), round(-2.5), trunc(-2.5),
  floor(2.5::float8), ceil(-0.5::float8), round(2.5::float8), round(3.5::float8), round(-0.5::float8), trunc(-2.7::float8),
  floor('1.5'), floor(7::smallint), ceil(7::bigint), floor(2.5::real), round(1.23456::numeric(8,5)), trunc(123.456::numeric(9,3));

-- name: m002_round_trunc_digits
SELECT round(1234.5678, 2), round(1234.5678, -2), round(1234.5678, 6), round(-1.5, 0), round(5, 2), trunc(1234.5678, 2),
  trunc(1234.5678, -2), trunc(-1234.5678, 1), trunc(1.2, 5), trunc(7, -1), round(0.5, 0), round(-0.0001, 3), trunc(-0.5);

-- name: m003_rounding_columns
-- ordered
SELECT id, floor(i), ceil(big), round(s), trunc(i), floor(n), ceil(n), round(n), trunc(n), round(n, 1), trunc(n, 1),
  round(n, -1), floor(r), ceil(r), round(r), trunc(r), floor(d), ceil(d), round(d), trunc(d)
FROM obs ORDER BY id;

-- name: m004_abs_sign
-- ordered
SELECT id, abs(s), abs(i), abs(big), abs(r), abs(d), abs(n), sign(s), sign(i), sign(big), sign(r), sign(d), sign(n), sign(n - n)
FROM obs ORDER BY id;

-- name: m005_sign_literals
SELECT sign(-3), sign(0), sign(2.5), sign(-0.0::float8), sign(-7.25::numeric(6,2)), sign('-1'), abs(-7::smallint), abs(-2.50);

-- name: m006_mod
-- ordered
SELECT id, mod(i, 7), mod(big, 1000), mod(s, -13), mod(i, s), mod(n, 7), mod(n, 0.25), mod(-7, 3), mod(7, -3), mod(s, 3::bigint),
  mod(10.5, 3), mod(-10.5, 3)
FROM obs WHERE s IS NULL OR s <> 0 ORDER BY id;

-- name: m007_mod_by_zero
-- error 22012
SELECT mod(i, 0) FROM obs;

-- name: m008_mod_numeric_by_zero
-- error 22012
SELECT mod(n, 0.0) FROM obs;

-- name: m009_mod_float_does_not_exist
-- error 42883
SELECT mod(1.5::float8, 2);

-- name: m010_sqrt_exp_ln_float
SELECT sqrt(2), sqrt(16), sqrt(0.0::float8), sqrt(1e-300::float8), exp(1), exp(0), exp(-1), exp(10.5::float8), exp(-700::float8),
  ln(2), ln(10::float8), ln(1), ln(1e-300::float8), log(1000::float8), log10(2::float8), log10(1e15::float8), log(0.001::float8),
  cbrt(27), cbrt(-8), cbrt(2), cbrt(1e-9::float8), pi(), power(2, 10), power(2, 0.5), power(-2, 3), power(-8, 1.0::float8),
  power(1.5::float8, -2), pow(10, -3), power(0, 0), power(9.0::float8, 0.5);

-- name: m011_float_math_columns
-- ordered
SELECT id, sqrt(abs(d)), exp(d / 1000), ln(abs(d) + 1), log(abs(r) + 0.5), log10(abs(i) + 1), cbrt(d), power(abs(d), 0.5),
  power(r, 2), power(1.001::float8, s), power(d, 3)
FROM obs ORDER BY id;

-- name: m012_numeric_sqrt_exp_ln
SELECT sqrt(2.0), sqrt(2.00000000000000000000), sqrt(16::numeric), sqrt(0.0001), sqrt(123456789.123::numeric), sqrt(0::numeric),
  exp(1.0), exp(0.5), exp(-2.5), exp(10.0), exp(0::numeric), exp(1.000000000000000000001),
  ln(2.0), ln(10.0), ln(1.0), ln(0.001), ln(123456.789), log(100.0), log10(2.0), log(0.0001), log10(1000000::numeric);

-- name: m013_numeric_log_base_power
SELECT log(2.0, 64.0), log(2, 1024), log(10, 2.0), log(0.5, 8), log(3.0, 81.00000), power(2.0, 10), power(2, 3.0), power(1.5, 2),
  power(2.0, -2), power(10.0, 0.5), power(-2.0, 3), power(-2.0, 4.0), power(0.0, 0), power(0.0, 5), power(1.0001, 1000),
  power(4.0, 0.25), power(2.5, -3.5), power(1.1, 1.1);

-- name: m014_numeric_math_columns
-- ordered
SELECT id, sqrt(abs(n)), exp(n / 1000), ln(abs(n) + 1), log(abs(n) + 1), power(n, 2), power(abs(n) + 1, 0.5), floor(n / 7), ceil(n / 7),
  trunc(n / 7, 3), round(n / 7, 4)
FROM obs ORDER BY id;

-- name: m015_sqrt_negative_float
-- error 2201F
SELECT sqrt(-1::float8);

-- name: m016_sqrt_negative_numeric
-- error 2201F
SELECT sqrt(n) FROM obs;

-- name: m017_ln_zero
-- error 2201E
SELECT ln(0::float8);

-- name: m018_ln_zero_numeric
-- error 2201E
SELECT ln(0.0);

-- name: m019_log_negative
-- error 2201E
SELECT log10(i) FROM obs;

-- name: m020_log_base_one
-- error 22012
SELECT log(1.0, 5.0);

-- name: m021_power_zero_negative
-- error 2201F
SELECT power(0::float8, -1);

-- name: m022_power_negative_fraction
-- error 2201F
SELECT power(-8::float8, 0.5);

-- name: m023_power_negative_fraction_numeric
-- error 2201F
SELECT power(-8.0, 0.5);

-- name: m024_exp_overflow
-- error 22003
SELECT exp(1000::float8);

-- name: m025_exp_underflow
-- error 22003
SELECT exp(-1000::float8);

-- name: m026_power_overflow
-- error 22003
SELECT power(10::float8, 400);

-- name: m027_nulls
SELECT floor(NULL::numeric), ceil(NULL::float8), round(NULL::numeric, 2), trunc(NULL::float8), sign(NULL::int), sqrt(NULL),
  exp(NULL::numeric), ln(NULL::float8), log(NULL::numeric, 2), power(NULL, 2), power(2.0, NULL), mod(NULL, 3), mod(5, NULL::int),
  width_bucket(NULL, 0, 10, 5), width_bucket(5, 0, NULL, 5), greatest(NULL::int, NULL), least(NULL::int, 2), abs(NULL::int);

-- name: m028_nan_and_infinity
SELECT floor('NaN'::float8), ceil('Infinity'::float8), round('-Infinity'::float8), sqrt('Infinity'::float8), exp('-Infinity'::float8),
  exp('NaN'::float8), ln('Infinity'::float8), power('NaN'::float8, 0), power(1, 'NaN'::float8), power('Infinity'::float8, -1),
  power(0.5::float8, 'Infinity'::float8), sign('NaN'::float8), abs('-Infinity'::float8);

-- name: m029_width_bucket
SELECT width_bucket(5.35, 0.024, 10.06, 5), width_bucket(-1, 0, 10, 5), width_bucket(10, 0, 10, 5), width_bucket(9.99, 0, 10, 5),
  width_bucket(5, 10, 0, 4), width_bucket(11, 10, 0, 4), width_bucket(0, 10, 0, 4), width_bucket(2.5::float8, 0, 10, 3),
  width_bucket(0.1::float8, 0, 0.3, 3), width_bucket('Infinity'::float8, 0, 10, 3), width_bucket(7, 0, 10, 2147483646);

-- name: m030_width_bucket_columns
-- ordered
SELECT id, width_bucket(d, -1200, 1200, 8), width_bucket(n, -1000, 1000, 10), width_bucket(i, 1000000, -1000000, 7),
  width_bucket(r, 0, 1024, 4), width_bucket(s, -1000, 1000, 3)
FROM obs ORDER BY id;

-- name: m031_width_bucket_zero_count
-- error 2201G
SELECT width_bucket(5, 0, 10, 0);

-- name: m032_width_bucket_equal_bounds
-- error 2201G
SELECT width_bucket(5.0, 1, 1, 3);

-- name: m033_width_bucket_infinite_bound
-- error 2201G
SELECT width_bucket(5::float8, 0, 'Infinity', 3);

-- name: m034_greatest_least
-- ordered
SELECT id, greatest(s, i), least(s, i), greatest(i, big, s), least(r, d), greatest(n, 0), least(n, s, 100.5), greatest(d, d2),
  greatest(grp, note), least(grp, 'beta'), greatest(ts, timestamp '2010-01-01'), least(1, 2.5, id)
FROM obs ORDER BY id;

-- name: m035_greatest_least_literals
SELECT greatest(1, 2, 3), least(1, 2, 3), greatest(1.5, 2), least('b', 'a', NULL), greatest(NULL, 3, NULL), least(3::smallint, 2::smallint),
  greatest('NaN'::float8, 1), least('NaN'::float8, 1), greatest(date '2020-01-01', date '2021-06-01'), greatest(1.10, 1.1);

-- name: m036_greatest_mismatch
-- error 42804
SELECT greatest(1, 'a'::text);

-- name: m037_random
SELECT count(*), sum(CASE WHEN r >= 0 AND r < 1 THEN 1 END) FROM (SELECT random() AS r FROM lineitem) v;

-- name: m038_random_differs_per_row
SELECT count(DISTINCT random()) > 100 FROM lineitem;

-- name: m039_math_in_where_and_group
-- ordered
SELECT floor(d / 500) AS b, count(*), sum(n), round(avg(d)::numeric, 3) FROM obs WHERE sqrt(abs(i)) > 100 OR i IS NULL
GROUP BY floor(d / 500) ORDER BY 1 NULLS LAST;

-- name: m040_grafana_epoch_buckets
-- ordered
SELECT floor(extract(epoch FROM ts) / 300) * 300 AS time, count(*) FROM obs WHERE ts IS NOT NULL GROUP BY 1 ORDER BY 1 LIMIT 10;

-- name: m041_round_integer_is_double
SELECT round(i), round(big), round(s) FROM obs WHERE id = 1;

-- name: m042_numeric_exp_big
SELECT exp(50.0), exp(-50.0), power(10.0, 20), power(2.0, 60), sqrt(1e30::numeric), ln(1e30::numeric);

-- name: m043_to_char_numbers
SELECT to_char(0, '999'), to_char(0.5, '999.99'), to_char(5, 'FM9.99'), to_char(-12.5, '999.99'), to_char(12345.678, '9G999D99'),
  to_char(-0.1, 'FM990.00'), to_char(1234567, '999,999'), to_char(3.14159::float8, '9.999'), to_char(-5, 'S999'), to_char(5, '999MI'),
  to_char(-5, '999PR'), to_char(1.5, '0000.0'), to_char(2.5::float8, '9'), to_char(0.0, 'FM9.99'), to_char(0.0, '999.99'),
  to_char(-0.5, '999.99'), to_char(0.5, '990.99'), to_char(0.5, 'FM999.99'), to_char(0, 'FM999'), to_char(7, '9,999'),
  to_char(1234.5, 'FM9,999.90'), to_char(-7, 'FM9,999'), to_char(123, '00000'), to_char(-123, '00000'), to_char(5, 'S999'),
  to_char(-5, 'FMS999'), to_char(5, 'FM999MI'), to_char(5.55, '9.9'), to_char(1e20::float8, '999'), to_char(123.456::float4, '999.999'),
  to_char(12, '999 "units"'), to_char(-1234.567, 'FM999,999,990.00'), to_char(1e6::bigint, '9,999,999'), to_char(NULL::numeric, '999');

-- name: m044_to_char_number_columns
-- ordered
SELECT id, to_char(n, 'FM999,990.000'), to_char(n, 'S9999.9'), to_char(d, '99999.99'), to_char(i, '9,999,999MI'), to_char(big, '999,999,999,999,999'),
  to_char(r, 'FM9990.0000'), to_char(s, '000PR')
FROM obs ORDER BY id;

-- name: m045_to_number
SELECT to_number('12,454.8-', '99G999D9S'), to_number('1,234.56', '9,999.99'), to_number('  42', '999'), to_number('<15>', '999PR'),
  to_number('3.14159', '9.99'), to_number('-7', 'S9'), to_number('12.5', '99.999'), to_number(NULL, '99');
