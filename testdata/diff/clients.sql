-- What drivers and tools send past their first query (issue 18).

-- name: cl001_pg_get_keywords
SELECT word, catcode::text AS catcode, barelabel, catdesc, baredesc FROM pg_get_keywords();

-- name: cl002_pg_get_keywords_reserved
-- ordered
SELECT word FROM pg_catalog.pg_get_keywords() WHERE catcode <> 'U' AND NOT barelabel ORDER BY word;

-- name: cl003_any_array_literal_numeric
SELECT 1.5 = ANY ('{1.50,2}') AS m, 3 = ANY ('{1,2}') AS n, 3 = ANY ('{1,NULL}') AS u;

-- name: cl004_any_array_literal_ints
-- ordered
SELECT id FROM obs WHERE id = ANY ('{1,3,05,NULL}') ORDER BY id;

-- name: cl005_all_array_literal
SELECT count(*) FROM obs WHERE id <> ALL ('{1,2,3}');

-- name: cl006_any_empty_array
SELECT count(*) FROM obs WHERE id = ANY ('{}');

-- name: cl007_any_array_float
SELECT count(*) FROM obs WHERE d = ANY ('{0.125,1.50,-2}');

-- name: cl008_any_array_bad_element
-- error 22P02
SELECT count(*) FROM obs WHERE id = ANY ('{1,x}');

-- Set-returning functions in a select list (pgJDBC's getPrimaryKeys and
-- getIndexInfo, psqlODBC's SQLForeignKeys), field selection, and the
-- other expressions those catalog queries use.

-- name: cl009_srf_select_constant
SELECT generate_series(1, 3) AS i, 'a' AS b;

-- name: cl010_srf_select_per_row
-- ordered
SELECT id, generate_series(id, 3) AS g FROM obs WHERE id <= 3 ORDER BY id, g;

-- name: cl011_srf_select_lockstep
-- ordered
SELECT generate_series(1, 2) AS x, generate_series(1, 3) AS y ORDER BY y;

-- name: cl012_srf_expandarray_fields
-- ordered
SELECT (information_schema._pg_expandarray('{5,7}'::int2[])).n, (information_schema._pg_expandarray('{5,7}'::int2[])).x ORDER BY 1;

-- name: cl013_srf_expandarray_record
-- ordered
SELECT r.k, (r.keys).x, (r.keys).n FROM (SELECT 1 AS k, information_schema._pg_expandarray('{5,6,7}'::int2[]) AS keys) r WHERE (r.keys).x > 5 ORDER BY 3 DESC;

-- name: cl014_srf_unnest_select
SELECT unnest('{a,NULL,c}'::text[]) AS u;

-- name: cl015_srf_order_limit
-- ordered
SELECT id, generate_series(1, id) AS g FROM obs WHERE id BETWEEN 2 AND 4 ORDER BY g DESC, id LIMIT 2;

-- name: cl016_bitwise_ints
SELECT 12 & 10, 12 | 3, 1 << 4, 256 >> 2, 5::smallint & 4::smallint, id & 6 AS m FROM obs WHERE id < 4;

-- name: cl017_trim_direction
SELECT trim(both 'x' from 'xxaxx'), trim(leading 'x' from 'xxaxx'), trim(trailing from '  a  ') || '|';

-- name: cl018_regproc_name_compare
SELECT count(*) FROM pg_type WHERE typinput = 'pg_catalog.array_in'::regproc AND typname = '_int4';

-- name: cl019_max_index_keys
SELECT setting, context FROM pg_settings WHERE name = 'max_index_keys';

-- name: cl020_bitwise_left_to_right
SELECT 1 & 2 | 4 AS a, 4 | (1 & 2) AS b, 1 << 2 & 7 AS c, 2 | 1 = 3 AS d;

-- name: cl021_bitwise_mixed_refused
-- gpusql-error 0A000
SELECT 4 | 1 & 2;

-- name: cl022_expandarray_padded
-- ordered
SELECT generate_series(1, 4) AS g, (information_schema._pg_expandarray('{5,7}'::int2[])).x,
       (information_schema._pg_expandarray('{5,7}'::int2[])).n ORDER BY g;

-- name: cl023_expandarray_distinct_limit
-- ordered
SELECT DISTINCT (information_schema._pg_expandarray('{5,5,7,3}'::int2[])).x AS x ORDER BY x DESC LIMIT 2;

-- name: cl024_expandarray_null_elements
SELECT (information_schema._pg_expandarray('{5,NULL,-7}'::int2[])).x, (information_schema._pg_expandarray('{5,NULL,-7}'::int2[])).n,
       (information_schema._pg_expandarray(NULL::int2[])).n AS none;

-- name: cl025_expandarray_per_row
-- ordered
SELECT id, (information_schema._pg_expandarray(('{' || id || ',' || (id * 2) || '}')::int2[])).x AS x
  FROM obs WHERE id <= 3 ORDER BY id, x OFFSET 1;

-- name: cl026_expandarray_record_reads
-- ordered
SELECT (k).n, (k).x * 2 AS x2 FROM (SELECT information_schema._pg_expandarray('{4,8}'::int2[]) AS k) q ORDER BY 1 DESC;

-- name: cl027_expandarray_grouped
-- ordered
SELECT grp, count(*) AS c, (information_schema._pg_expandarray('{1,2}'::int2[])).n FROM obs GROUP BY grp ORDER BY grp, 3;

-- name: cl028_expandarray_bad_field
-- error 42703
SELECT (information_schema._pg_expandarray('{1}'::int2[])).y;

-- name: cl029_unnest_field
-- error 42809
SELECT (unnest('{a}'::text[])).x;

-- name: cl030_generate_series_int_types
SELECT generate_series(1::int2, 3) AS a, generate_series(1, 2::bigint) AS b, generate_series('2', 3) AS c;

-- LIMIT and OFFSET as postgres_fdw pushes them down: with casts.
-- name: cl031_limit_offset_casts
-- ordered
SELECT id FROM obs ORDER BY id LIMIT 3::bigint OFFSET 1::bigint;

-- name: cl032_limit_cast_forms
-- ordered
SELECT id FROM obs ORDER BY id DESC LIMIT CAST(2 AS integer) OFFSET (1);

-- name: cl033_limit_string_cast
-- ordered
SELECT id FROM obs ORDER BY id LIMIT '2'::bigint;

-- name: cl034_pg_get_functiondef
SELECT pg_get_functiondef('lower(text)'::regprocedure), pg_get_functiondef('now'::regproc);

-- name: cl035_functiondef_aggregate
-- error 42809
SELECT pg_get_functiondef('max(integer)'::regprocedure);

-- name: cl036_regprocedure_overload
-- ordered
SELECT proname::text, proargtypes::text FROM pg_proc WHERE oid IN ('generate_series(int, int)'::regprocedure, 'generate_series(bigint, bigint)'::regprocedure) ORDER BY 2;
