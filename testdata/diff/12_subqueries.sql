-- Subqueries over user tables: uncorrelated scalar, IN, EXISTS, ANY/ALL
-- subqueries run first and are folded into the outer query; derived tables
-- in FROM; a scalar subquery with more than one row is 21000.

-- name: q001_scalar_avg
SELECT count(*) FROM lineitem WHERE l_quantity > (SELECT avg(l_quantity) FROM lineitem);

-- name: q002_scalar_in_select_list
SELECT id, (SELECT max(i) FROM obs) AS m, i - (SELECT min(i) FROM obs) AS d FROM obs WHERE id <= 5;

-- name: q003_scalar_empty_is_null
SELECT id, (SELECT i FROM obs WHERE id = 1000) FROM obs WHERE id < 3;

-- name: q004_scalar_name
SELECT (SELECT count(*) FROM obs), (SELECT max(l_shipdate) FROM lineitem);

-- name: q005_in_subquery
SELECT l_orderkey, l_linenumber FROM lineitem
 WHERE l_orderkey IN (SELECT l_orderkey FROM lineitem WHERE l_quantity > 49 AND l_discount = 0.1);

-- name: q006_not_in_subquery
SELECT id FROM obs WHERE id NOT IN (SELECT s FROM obs WHERE s IS NOT NULL);

-- name: q007_not_in_with_null
SELECT count(*) FROM obs WHERE id NOT IN (SELECT s FROM obs);

-- name: q008_in_empty
SELECT count(*) FROM obs WHERE id IN (SELECT id FROM obs WHERE id > 1000);

-- name: q009_exists
SELECT count(*) FROM obs WHERE EXISTS (SELECT 1 FROM lineitem WHERE l_shipmode = 'AIR');

-- name: q010_not_exists
SELECT count(*) FROM obs WHERE NOT EXISTS (SELECT 1 FROM lineitem WHERE l_quantity > 1000);

-- name: q011_any_all
SELECT id FROM obs WHERE i > ALL (SELECT i FROM obs WHERE grp = 'a' AND i IS NOT NULL) OR s = ANY (SELECT s FROM obs WHERE id < 4);

-- name: q012_scalar_text_compare
SELECT count(*) FROM lineitem WHERE l_shipmode = (SELECT min(l_shipmode) FROM lineitem);

-- name: q013_derived_table
SELECT count(*), sum(q) FROM (SELECT l_orderkey, l_quantity AS q FROM lineitem WHERE l_linenumber = 1) t WHERE q > 10;

-- name: q014_derived_group
SELECT grp, n FROM (SELECT grp, count(*) AS n FROM obs GROUP BY grp) g WHERE n > 1;

-- name: e101_scalar_more_than_one_row
-- error 21000
SELECT (SELECT id FROM obs);

-- name: e102_subquery_two_columns
-- error 42601
SELECT id FROM obs WHERE id = (SELECT id, s FROM obs);

-- name: e103_derived_without_alias
-- error 42601
SELECT * FROM (SELECT 1);
