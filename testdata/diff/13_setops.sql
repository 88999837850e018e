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

-- name: dt001_values_in_from
-- ordered
SELECT * FROM (VALUES (1, 'a'), (2, 'b'), (3, NULL)) AS v ORDER BY 1;

-- name: dt002_values_column_aliases_join
-- ordered
SELECT o.id, v.label FROM obs o JOIN (VALUES (1, 'one'), (2, 'two'), (5, 'five')) AS v(k, label) ON v.k = o.id ORDER BY o.id;

-- name: dt003_derived_table_column_aliases
-- ordered
SELECT t.x, t."Y" FROM (SELECT id, grp FROM obs WHERE id < 5) t (x, "Y") ORDER BY t.x;

-- name: dt004_derived_table_fewer_aliases
-- ordered
SELECT * FROM (SELECT id, s FROM obs WHERE id < 4) AS t(k) ORDER BY k;

-- name: dt005_derived_table_too_many_aliases
-- error 42P10
SELECT * FROM (SELECT 1, 2) AS t(a, b, c);

-- name: dt006_values_in_subquery
SELECT count(*) FROM obs WHERE id IN (VALUES (1), (3), (NULL));

-- name: dt007_union_with_bare_null
-- ordered
SELECT 1 AS x UNION ALL SELECT NULL UNION ALL SELECT 3 ORDER BY 1;

-- name: dt008_values_lists_differ
-- error 42601
SELECT * FROM (VALUES (1, 2), (3)) v;
