-- Set-returning functions (generate_series, unnest, regexp_matches,
-- regexp_split_to_table, string_to_table) in the select list, zipped
-- with the longest result winning, and in FROM, over constants or over
-- the columns of an earlier FROM item (LATERAL). Arrays are text in
-- gpusql, so text[] results are cast to text or subscripted here.

-- name: sf001_regexp_matches_global
SELECT id, regexp_matches(note, '[a-z]+', 'g')::text AS m FROM obs;

-- name: sf002_regexp_matches_first_and_groups
SELECT id, regexp_matches(note, '([a-z])([0-9]*)')::text AS first, (regexp_matches(note, '(x)|(e)', 'gi'))[2] AS e
  FROM obs;

-- name: sf003_regexp_matches_no_match_nulls
SELECT id, regexp_matches(note, 'zzz', 'g')::text, regexp_matches(grp, NULL)::text FROM obs;

-- name: sf004_split_to_table_words
SELECT l_orderkey, l_linenumber, regexp_split_to_table(l_comment, '\s+') AS w FROM lineitem WHERE l_orderkey < 300;

-- name: sf005_split_empty_matches
SELECT id, regexp_split_to_table(note, 'x*') AS a, regexp_split_to_table(note, '') AS b FROM obs;

-- name: sf006_split_to_array
SELECT id, regexp_split_to_array(note, '\s*')::text AS a, regexp_split_to_array(note, 'E', 'i')::text AS b,
       regexp_split_to_array(grp, '^')::text AS c
  FROM obs;

-- name: sf007_zip_longest_padded
SELECT id, generate_series(1, 3) AS a, generate_series(1, id % 5) AS b, id * 2 AS c FROM obs WHERE id < 12;

-- name: sf008_series_over_columns
SELECT id, i, generate_series(i, i + 2) AS up, generate_series(s, s - 4, -2) AS down FROM obs;

-- name: sf009_series_bigint_and_nulls
SELECT id, generate_series(id::bigint, 3, 1) AS g, generate_series(1, NULL::int) AS z FROM obs WHERE id < 5;

-- name: sf010_srf_over_aggregate
SELECT grp, count(*) AS n, generate_series(1, count(*)::int) AS k FROM obs GROUP BY grp;

-- name: sf011_srf_distinct_order_limit
-- ordered
SELECT DISTINCT regexp_split_to_table(l_shipinstruct, ' ') AS w FROM lineitem ORDER BY w LIMIT 5;

-- name: sf012_srf_order_by_hidden
-- ordered
SELECT generate_series(1, 2) AS g, id FROM obs WHERE id < 6 ORDER BY i DESC NULLS LAST, id, g;

-- name: sf013_lateral_regexp_matches
SELECT o.id, m.x::text AS x FROM obs o, LATERAL regexp_matches(o.note, '([a-z])', 'g') AS m(x);

-- name: sf014_implicit_lateral_series
SELECT o.id, g FROM obs o, generate_series(1, o.s % 4) g WHERE g > 1;

-- name: sf015_lateral_split_group
-- ordered
SELECT w, count(*) AS n FROM lineitem, regexp_split_to_table(l_comment, ' ') w
 GROUP BY w ORDER BY n DESC, w LIMIT 10;

-- name: sf016_from_constant_args
SELECT x::text AS x FROM regexp_matches('a1b22c333', '(\w)(\d+)', 'g') AS m(x);

-- name: sf017_from_split_and_string_to_table
SELECT * FROM regexp_split_to_table('a1b22c', '\d+') AS t(v);

-- name: sf018_string_to_table
SELECT id, string_to_table(note, ' ') AS w, string_to_table(grp, NULL) AS ch FROM obs;

-- name: sf019_string_to_table_null_string
SELECT v, v IS NULL AS isnull FROM string_to_table('a,b,,c,', ',', '') AS t(v);

-- name: sf020_unnest_text_array
SELECT id, unnest(string_to_array(note, ' ')) AS w FROM obs;

-- name: sf021_series_time_constants
SELECT id, generate_series(timestamp '2024-02-28', timestamp '2024-03-01', interval '1 day') AS d FROM obs WHERE id < 4;

-- name: sf022_srf_in_expression
SELECT id, upper((regexp_matches(note, '[a-z]', 'g'))[1]) AS u, generate_series(1, 2) * 10 AS t FROM obs WHERE id < 10;

-- name: sf023_lateral_join_and_filter
SELECT a.id, a.s, w FROM ja a JOIN jd ON jd.region = a.k, regexp_split_to_table(a.s, '') w WHERE w <> 'a';

-- name: e_sf001_srf_in_where
-- error 0A000
SELECT id FROM obs WHERE generate_series(1, 2) > 1;

-- name: e_sf002_srf_in_case
-- error 0A000
SELECT CASE WHEN id > 1 THEN generate_series(1, 2) END FROM obs;

-- name: e_sf003_split_global_flag
-- error 22023
SELECT regexp_split_to_table('abc', 'b', 'g');

-- name: e_sf004_series_step_zero
-- error 22023
SELECT generate_series(1, id, 0) FROM obs;

-- name: e_sf005_srf_in_aggregate
-- error 0A000
SELECT sum(generate_series(1, id)) FROM obs;

-- name: e_sf006_bad_flag
-- error 22023
SELECT regexp_matches(note, 'a', 'z') FROM obs;
