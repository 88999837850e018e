-- Set operations of single-table queries: each side runs on the backend,
-- the rows are combined on the host, then ORDER BY / LIMIT.

-- name: u001_union_all
SELECT id, i FROM obs WHERE id < 4 UNION ALL SELECT id, i FROM obs WHERE id > 38;

-- name: u002_union_distinct
SELECT grp FROM obs UNION SELECT l_shipmode FROM lineitem;

-- name: u003_union_order_limit
-- ordered
SELECT l_shipmode AS m FROM lineitem UNION SELECT grp FROM obs ORDER BY m NULLS FIRST LIMIT 5;

-- name: u004_union_types
SELECT s FROM obs WHERE id < 3 UNION ALL SELECT big FROM obs WHERE id < 3 UNION ALL SELECT i FROM obs WHERE id < 3;

-- name: u010_union_numeric
SELECT n FROM obs WHERE id < 6 UNION SELECT 1.250 UNION SELECT n * 2 FROM obs WHERE id < 3;

-- name: u005_intersect
SELECT l_linenumber FROM lineitem INTERSECT SELECT id FROM obs;

-- name: u006_except
SELECT id FROM obs EXCEPT SELECT l_linenumber FROM lineitem;

-- name: u007_intersect_all_except_all
SELECT grp FROM obs INTERSECT ALL SELECT grp FROM obs WHERE id > 20 EXCEPT ALL SELECT 'a';

-- name: u008_union_aggregates
-- ordered
SELECT 'lineitem' AS t, count(*) FROM lineitem UNION ALL SELECT 'obs', count(*) FROM obs ORDER BY 1;

-- name: u009_precedence
SELECT 1 UNION SELECT 2 INTERSECT SELECT 3;

-- name: e111_union_column_count
-- error 42601
SELECT id FROM obs UNION SELECT id, s FROM obs;

-- name: e112_union_types
-- error 42804
SELECT id FROM obs UNION SELECT grp FROM obs;
