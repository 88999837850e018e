-- Numerics declared past 18 digits: numeric(p,s) with 19 <= p <= 38
-- (see README.md). The nw entries read wn and wn2, whose values have at
-- most 18 significant digits at their scale (the GPU backend runs them);
-- the nx entries read wx, which holds the largest magnitudes of each
-- scale and only the CPU backend loads. Results whose mantissa passes
-- 128 bits are 22003 in gpusql, where PostgreSQL's numeric has no limit
-- (the gpusql-error entries).

-- name: nw001_select_all
SELECT * FROM wn;

-- name: nw002_order_by_a
-- ordered
SELECT id, a, b FROM wn ORDER BY a NULLS FIRST, id;

-- name: nw003_order_by_b_desc
-- ordered
SELECT id, b, c FROM wn ORDER BY b DESC, id;

-- name: nw004_order_by_c_limit
-- ordered
SELECT id, c FROM wn ORDER BY c, id LIMIT 4;

-- name: nw005_aggregates
SELECT sum(a), sum(b), sum(c), sum(d), min(a), max(a), min(b), max(b), min(c), max(c), min(d), max(d),
  count(a), count(*) FROM wn;

-- name: nw006_avg
SELECT avg(a), avg(b), avg(c), avg(d) FROM wn;

-- name: nw007_group_by_text
SELECT g, sum(a), count(*), max(b), min(c), avg(d) FROM wn GROUP BY g;

-- name: nw008_group_by_wide
SELECT a, count(*), sum(d) FROM wn GROUP BY a;

-- name: nw009_where
SELECT id FROM wn WHERE a > 1e15 OR b = 1 OR c BETWEEN -4 AND -3 OR d = 42;

-- name: nw010_where_literal_18_digits
SELECT id FROM wn WHERE b = 999999999999999999 OR a = -9999999999999999.99;

-- name: nw011_arithmetic
SELECT id, a + d, a - 1, -a, abs(b), c * 2, d * d, a / 7, c / 3, b * b, a * c FROM wn;

-- name: nw012_arithmetic_mixed
SELECT id, a + id, b - id * 2, c + 0.5, d::numeric + a FROM wn WHERE id IN (4, 6, 7, 9, 10);

-- name: nw013_casts_out
SELECT id, a::numeric(38,0), a::text, c::numeric(38,2), d::numeric(10,2), b::numeric, round(c, 3), trunc(a) FROM wn WHERE id IN (4, 6, 7, 9);

-- name: nw014_casts_in
SELECT '99999999999999999999999999999999999999'::numeric(38,0), '999999999999999999999999999999999999.994'::numeric(38,2),
  '-99999999999999999999999999999999999.99'::numeric(38,2),
  '0.99999999999999999999999999999999999999'::numeric(38,38),
  '0.005'::numeric(38,2), '-0.005'::numeric(38,2),
  12345678901234567::bigint::numeric(38,10), 1.5::float8::numeric(38,5),
  '1e30'::numeric(31,0), '  42.5  '::numeric(19,1);

-- name: nw015_cast_to_integer
SELECT id, b::bigint, a::int, d::float8, c::float8 FROM wn WHERE id IN (4, 6, 7, 9);

-- name: nw016_overflow_literal
-- error 22003
SELECT '1e36'::numeric(38,2);

-- name: nw017_overflow_39_digits
-- error 22003
SELECT '100000000000000000000000000000000000000'::numeric(38,0);

-- name: nw018_overflow_rounding
-- error 22003
SELECT '-999999999999999999999999999999999999.995'::numeric(38,2);

-- name: nw019_overflow_scale_38
-- error 22003
SELECT 1::numeric(38,38);

-- name: nw020_overflow_column_cast
-- error 22003
SELECT c::numeric(20,13) FROM wn;

-- name: nw021_join
SELECT wn.id, wn2.id, wn.a FROM wn JOIN wn2 ON wn.a = wn2.a;

-- name: nw022_join_mixed_precision
SELECT wn.id, wn2.id, wn.d, wn2.k FROM wn JOIN wn2 ON wn.d = wn2.k;

-- name: nw023_left_join
SELECT wn2.id, wn.id, wn2.a FROM wn2 LEFT JOIN wn ON wn.a = wn2.a AND wn.id < 5;

-- name: nw024_distinct
SELECT DISTINCT a FROM wn;

-- name: nw025_count_distinct
SELECT count(DISTINCT a), count(DISTINCT b), sum(DISTINCT a) FROM wn;

-- name: nw026_union
SELECT a FROM wn UNION SELECT a FROM wn2;

-- name: nw027_case_coalesce
SELECT id, coalesce(a, 0), CASE WHEN b > 0 THEN b ELSE -b END, greatest(a, c), least(d, 0) FROM wn;

-- name: nw028_window
-- ordered
SELECT id, a, sum(d) OVER (ORDER BY id), max(b) OVER (PARTITION BY g), rank() OVER (ORDER BY c) FROM wn ORDER BY id;

-- name: nw029_having
SELECT g, count(*) FROM wn GROUP BY g HAVING max(b) > 1e15;

-- name: nw030_temp_table_insert
-- session
CREATE TEMP TABLE t (id integer, x numeric(38,4), y numeric(19,0));
INSERT INTO t VALUES (1, 99999999999999.9999, 999999999999999999), (2, NULL, -9999999999999999), (3, -0.00005, 0);
INSERT INTO t SELECT id + 10, a, d FROM wn WHERE id IN (4, 6, 7, 9);
SELECT * FROM t ORDER BY id;
SELECT sum(x), sum(y), min(x), max(y) FROM t;

-- name: nw031_create_table_as
-- session
-- (pg_table_is_visible: PostgreSQL may still show nw030's temporary t
-- of a session that has just closed)
CREATE TEMP TABLE t AS SELECT id, a, b * 2 AS b2, c FROM wn WHERE id <> 1 AND id <> 2 AND id <> 5;
SELECT * FROM t ORDER BY id;
SELECT a.attname::text, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
  WHERE c.relname = 't' AND pg_table_is_visible(c.oid) AND a.attnum > 0 ORDER BY a.attnum;

-- name: nw032_insert_overflow
-- session
-- error 22003
CREATE TEMP TABLE t (x numeric(38,2));
INSERT INTO t VALUES (1e36);

-- name: nw033_insert_select_overflow
-- session
-- error 22003
CREATE TEMP TABLE t (x numeric(20,5));
INSERT INTO t SELECT a FROM wn;

-- name: nw034_column_types
SELECT a.attname::text, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
  WHERE c.relname = 'wn' AND a.attnum > 0 ORDER BY a.attnum;

-- name: nw035_precision_limit
-- error 22023
SELECT 1::numeric(1001,0);

-- name: nx001_select_all
SELECT * FROM wx;

-- name: nx002_order_by_a
-- ordered
SELECT id, a, b FROM wx ORDER BY a NULLS FIRST, id;

-- name: nx003_order_by_b_desc_limit
-- ordered
SELECT id, b, c FROM wx ORDER BY b DESC, id LIMIT 5;

-- name: nx004_aggregates
SELECT sum(a), sum(c), min(a), max(a), min(b), max(b), min(c), max(c), count(b), count(*) FROM wx;

-- name: nx005_avg
SELECT avg(a), avg(c), avg(b) FILTER (WHERE id <> 5) FROM wx;

-- name: nx006_group_by
SELECT g, sum(a), count(*), max(b), min(c) FROM wx GROUP BY g;

-- name: nx007_group_by_wide
SELECT b, count(*), sum(c) FROM wx GROUP BY b;

-- name: nx008_where
SELECT id FROM wx WHERE a > 1e30 OR b = 1000000000000000000000000000001 OR c < -1e27
  OR a = 1234567890123456789.02;

-- name: nx009_arithmetic
SELECT id, a + 1, a - 1.5, -a, abs(b), c * 2, a / 7, b / 3, b - 1 FROM wx WHERE id NOT IN (2, 5);

-- name: nx010_casts
SELECT id, a::numeric(38,0), a::text, c::numeric(38,2), b::numeric, round(c, 3), trunc(a), a::float8 FROM wx WHERE id <> 3;

-- name: nx011_cast_overflow
-- error 22003
SELECT a::numeric(30,2) FROM wx;

-- name: nx012_join
SELECT x.id, y.id, x.a FROM wx x JOIN wx y ON x.a = y.a;

-- name: nx013_join_18_digit_neighbours
SELECT x.id, y.id FROM wx x JOIN wx y ON x.a < y.a AND y.a - x.a < 1 WHERE x.id IN (9, 10);

-- name: nx014_distinct_union
SELECT a FROM wx UNION SELECT a FROM wn;

-- name: nx015_count_distinct
SELECT count(DISTINCT a), count(DISTINCT b), count(DISTINCT c) FROM wx;

-- name: nx016_window
-- ordered
SELECT id, b, max(a) OVER (PARTITION BY g), rank() OVER (ORDER BY b DESC) FROM wx ORDER BY id;

-- name: nx017_create_table_as
-- session
CREATE TEMP TABLE t AS SELECT id, a, b FROM wx WHERE id IN (1, 2, 9, 10);
INSERT INTO t SELECT id + 100, a, b FROM wx WHERE id IN (5, 8);
SELECT * FROM t ORDER BY id;
SELECT sum(a), max(b) FROM t;

-- name: nx018_sum_past_38_digits
-- gpusql-error 22003
SELECT sum(x.b) FROM wx x CROSS JOIN wx y WHERE x.id = 1;

-- name: nx019_product_past_38_digits
-- gpusql-error 22003
SELECT b * b FROM wx WHERE id = 1;

-- name: nx020_mixed_scales_past_128_bits
-- gpusql-error 22003
-- a at c's scale of 10 needs 44 digits
SELECT a - c FROM wx WHERE id = 1;
