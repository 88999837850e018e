-- Catalog functions, reg* casts and correlated subqueries over user
-- columns: the GPU backend runs them as host steps (docs/gpu.md "Host
-- steps"), the CPU backend as any other function.

-- name: x001_format_type_over_column
-- ordered
SELECT id, format_type(23 + id % 3, NULL), format_type(CASE WHEN id % 4 = 0 THEN 1043 WHEN id % 4 = 1 THEN 16 ELSE 1700 END, NULL)
  FROM obs ORDER BY id;

-- name: x002_pg_size_pretty_bigint_column
-- ordered
SELECT id, big, pg_size_pretty(big), pg_size_pretty(big * 1024), pg_size_pretty(i::bigint) FROM obs ORDER BY id;

-- name: x003_pg_size_pretty_group_by
SELECT pg_size_pretty(l_partkey * 100000), count(*) FROM lineitem GROUP BY 1;

-- name: x004_has_table_privilege_over_column
-- ordered
SELECT id, has_table_privilege(CASE WHEN id % 2 = 0 THEN 'obs' ELSE 'lineitem' END, 'SELECT') FROM obs ORDER BY id;

-- name: x005_to_regclass_text_column
-- ordered
SELECT id, to_regclass(CASE WHEN id % 3 = 0 THEN 'obs' WHEN id % 3 = 1 THEN 'pg_class' WHEN id % 5 = 2 THEN 'no_such' END) IS NULL
  FROM obs ORDER BY id;

-- name: x006_regclass_cast_guarded
-- ordered
SELECT id, CASE WHEN id % 2 = 0 THEN (CASE WHEN id % 4 = 0 THEN 'obs' ELSE 'pg_type' END)::regclass::text ELSE 'no' END
  FROM obs ORDER BY id;

-- name: x007_regclass_cast_unknown_relation
-- error 42P01
SELECT id, (CASE WHEN id = 7 THEN 'no_such_table' ELSE 'obs' END)::regclass FROM obs;

-- name: x008_pg_get_userbyid_unknown_oids
-- ordered
SELECT id, pg_get_userbyid(99990 + id)::text FROM obs WHERE id < 20 ORDER BY id;

-- name: x009_correlated_pg_class_per_row
-- ordered
SELECT id, (SELECT relname::text FROM pg_class c WHERE c.relname = CASE WHEN obs.id % 2 = 0 THEN 'obs' ELSE 'lineitem' END) FROM obs ORDER BY id;

-- name: x010_host_function_in_where_and_aggregate
SELECT count(*), max(pg_size_pretty(big)), count(DISTINCT format_type(23 + id % 3, NULL)) FROM obs
  WHERE format_type(23 + id % 2, NULL) = 'integer';
