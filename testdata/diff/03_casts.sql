-- Casts: CAST(x AS t) and x::t.

-- name: c001_cast_literals
SELECT CAST('42' AS integer), '42'::bigint, CAST(3.7 AS integer), (-3.5)::int, 2.5::int, 2.5::float8::int,
       3.5::float8::int, '12.345'::numeric(5,2), CAST(1.005 AS numeric(4,2)), 1::float8, '1.5'::float8;

-- name: c002_cast_literals_text
SELECT 42::text, 'abcdef'::varchar(3), '2020-02-29'::date, 'true'::boolean, 'f'::boolean, 'yes'::boolean,
       CAST('t' AS boolean), 1.50::text, (-0.5)::text, true::text;

-- name: c003_cast_columns_numbers
-- ordered
SELECT id, CAST(n AS integer), n::bigint, CAST(d AS numeric(12,3)), d::integer, r::float8, big::numeric,
       s::float8, id::numeric(6,1) AS idn, n::float8, i::bigint, s::integer, big::float8
  FROM obs ORDER BY id;

-- name: c004_cast_columns_text
-- ordered
SELECT id, i::text, flag::text, code::text, note::varchar(5), CAST(grp AS varchar(3)), ts::date, ts::text,
       n::text, d::text, code::varchar(2), CAST(id AS text) || '!'
  FROM obs ORDER BY id;

-- name: c005_cast_text_to_numbers
SELECT '  12  '::int, '-0'::int, '1e2'::float8, '0.1'::real, '007'::bigint, ' 3.14159 '::numeric(6,4),
       '-1.5'::numeric, '+8'::smallint;

-- name: c006_cast_lineitem
SELECT l_orderkey, l_linenumber, l_quantity::integer, l_extendedprice::bigint, l_discount::float8,
       l_shipdate::text, l_returnflag::text, l_urgent::text, CAST(l_extendedprice AS numeric(14,4)),
       CAST(l_extendedprice AS numeric(8,0)), l_linenumber::numeric(5,2)
  FROM lineitem WHERE l_orderkey < 200;

-- name: c007_cast_in_where
SELECT count(*) FROM lineitem WHERE l_quantity::integer = 24 OR CAST(l_shipdate AS text) LIKE '1995-03-%';

-- name: c008_cast_string_to_date_and_bool
SELECT CAST('1999-12-31' AS date), '2000-01-01'::date - 1, CAST('false' AS boolean) OR true,
       'on'::boolean, '0'::boolean;

-- name: c009_float_to_numeric
-- ordered
-- d2 holds 6.02e+23 and -1.7976931348623156e+300. gpusql's numerics hold
-- 38 digits (docs/sql.md), so the second is cast only in gpusql's own
-- tests (testdata/sql/limits.test), where it must fail with 22003.
SELECT id, d2, CASE WHEN abs(d2) < 1e30 THEN d2::numeric END, d::numeric, r::numeric FROM obs ORDER BY id;

-- name: c010_float_to_numeric_huge
-- ordered
-- gpusql-error 22003
-- The unguarded form of c009: PostgreSQL's numeric holds -1.7976931348623156e+300
-- exactly. gpusql documents a 38-digit numeric (docs/sql.md) and fails with 22003;
-- this entry records that difference from PostgreSQL.
SELECT id, d2, d2::numeric FROM obs ORDER BY id;
