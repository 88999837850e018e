-- WITH RECURSIVE (query/recursive.go): number series, hierarchy walks
-- over emp (a loaded table: the recursive term joins it), UNION against
-- UNION ALL, recursions that add nothing, strings that grow per level,
-- several WITH queries of which one is recursive, and PostgreSQL's
-- errors for ill-formed recursive queries.

-- name: rc001_series
-- ordered
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 10)
SELECT n FROM t ORDER BY n;

-- name: rc002_series_sum
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 1000)
SELECT count(*), sum(n), min(n), max(n) FROM t;

-- name: rc003_series_bigint_two_columns
-- ordered
WITH RECURSIVE t(i, f) AS (
  SELECT 1, 1::bigint
  UNION ALL
  SELECT i + 1, f * (i + 1) FROM t WHERE i < 20)
SELECT i, f FROM t ORDER BY i;

-- name: rc004_fibonacci
-- ordered
WITH RECURSIVE fib(k, a, b) AS (
  SELECT 1, 0::numeric, 1::numeric
  UNION ALL
  SELECT k + 1, b, a + b FROM fib WHERE k < 60)
SELECT k, a FROM fib ORDER BY k;

-- name: rc005_union_dedupes
-- ordered
WITH RECURSIVE t(n) AS (SELECT 1 UNION SELECT n % 5 + 1 FROM t)
SELECT n FROM t ORDER BY n;

-- name: rc006_union_dedupes_first_term
WITH RECURSIVE t(n) AS (SELECT 1 UNION SELECT 1 UNION SELECT 2 UNION SELECT (n * 2) % 7 FROM t)
SELECT n FROM t;

-- name: rc007_union_all_keeps_duplicates
WITH RECURSIVE t(n, lvl) AS (
  SELECT 1, 0 UNION ALL SELECT 1, 0 UNION ALL SELECT 2, 0
  UNION ALL
  SELECT n, lvl + 1 FROM t WHERE lvl < 3)
SELECT n, lvl, count(*) FROM t GROUP BY n, lvl;

-- name: rc008_union_nulls_are_equal
WITH RECURSIVE t(a, b) AS (
  SELECT 1, NULL::text
  UNION
  SELECT (a + 1) % 3, NULL FROM t)
SELECT a, b FROM t;

-- name: rc009_zero_rows_recursive_term
WITH RECURSIVE t(n) AS (SELECT 5 UNION ALL SELECT n + 1 FROM t WHERE n < 0)
SELECT n FROM t;

-- name: rc010_zero_rows_at_all
WITH RECURSIVE t(n) AS (SELECT 1 WHERE false UNION ALL SELECT n + 1 FROM t WHERE n < 10)
SELECT count(*) FROM t;

-- name: rc011_empty_table_start
WITH RECURSIVE t(k) AS (SELECT k FROM jempty UNION ALL SELECT k + 1 FROM t)
SELECT count(*), max(k) FROM t;

-- name: rc012_strings_grow
-- ordered
WITH RECURSIVE t(lvl, s) AS (
  SELECT 0, 'x'
  UNION ALL
  SELECT lvl + 1, s || substr('abababababab', 1, 2 * lvl) || '|' FROM t WHERE lvl < 6)
SELECT lvl, s, length(s) FROM t ORDER BY lvl;

-- name: rc013_strings_multibyte
-- ordered
WITH RECURSIVE t(s) AS (SELECT 'Zü'::text UNION ALL SELECT s || '北' FROM t WHERE length(s) < 6)
SELECT s, length(s) FROM t ORDER BY length(s);

-- name: rc014_tree_walk_from_root
-- ordered
WITH RECURSIVE sub(id, name, depth, path) AS (
  SELECT id, name, 0, name FROM emp WHERE id = 1
  UNION ALL
  SELECT e.id, e.name, s.depth + 1, s.path || '/' || e.name
  FROM emp e JOIN sub s ON e.mgr = s.id)
SELECT id, name, depth, path FROM sub ORDER BY path;

-- name: rc015_tree_walk_all_roots
-- ordered
WITH RECURSIVE sub(root, id, depth) AS (
  SELECT id, id, 0 FROM emp WHERE mgr IS NULL
  UNION ALL
  SELECT s.root, e.id, s.depth + 1 FROM sub s, emp e WHERE e.mgr = s.id)
SELECT root, count(*) AS n, max(depth) AS deepest FROM sub GROUP BY root ORDER BY root;

-- name: rc016_chain_up_to_root
-- ordered
WITH RECURSIVE up(id, mgr, name, hops) AS (
  SELECT id, mgr, name, 0 FROM emp WHERE name = 'Ida'
  UNION ALL
  SELECT e.id, e.mgr, e.name, u.hops + 1 FROM emp e JOIN up u ON e.id = u.mgr)
SELECT hops, name FROM up ORDER BY hops;

-- name: rc017_cycle_stopped_by_union
WITH RECURSIVE c(id) AS (
  SELECT 20
  UNION
  SELECT e.mgr FROM emp e JOIN c ON e.id = c.id)
SELECT id FROM c;

-- name: rc018_cycle_stopped_by_depth
WITH RECURSIVE c(id, depth) AS (
  SELECT 20, 0
  UNION ALL
  SELECT e.mgr, c.depth + 1 FROM c JOIN emp e ON e.id = c.id WHERE c.depth < 7)
SELECT id, count(*) FROM c GROUP BY id;

-- name: rc019_salary_rollup_over_subtree
-- ordered
WITH RECURSIVE sub(top, id) AS (
  SELECT id, id FROM emp WHERE id < 20
  UNION ALL
  SELECT s.top, e.id FROM sub s JOIN emp e ON e.mgr = s.id)
SELECT s.top, count(*) AS people, sum(e.salary) AS payroll
FROM sub s JOIN emp e ON e.id = s.id
GROUP BY s.top ORDER BY s.top;

-- name: rc020_recursive_left_of_left_join
WITH RECURSIVE t(id, mname) AS (
  SELECT id, name FROM emp WHERE id = 2
  UNION ALL
  SELECT e.id, m.name FROM t LEFT JOIN emp m ON m.id = t.id + 100 JOIN emp e ON e.mgr = t.id)
SELECT id, mname FROM t;

-- name: rc021_numbers_join_other_table
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 12)
SELECT t.n, jc.name FROM t LEFT JOIN jc ON jc.k = t.n;

-- name: rc022_several_ctes_one_recursive
-- ordered
WITH RECURSIVE
  lim AS (SELECT 4 AS top),
  t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t, lim WHERE n < lim.top),
  sq AS (SELECT n, n * n AS sq FROM t)
SELECT n, sq FROM sq ORDER BY n;

-- name: rc023_forward_reference
-- ordered
WITH RECURSIVE a AS (SELECT n * 10 AS m FROM b), b(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM b WHERE n < 3)
SELECT m FROM a ORDER BY m;

-- name: rc024_read_twice
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 5)
SELECT a.n, b.n FROM t a JOIN t b ON b.n = a.n + 1;

-- name: rc025_derived_table_in_recursive_term
-- ordered
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM (SELECT n FROM t) x WHERE n < 4)
SELECT n FROM t ORDER BY n;

-- name: rc026_group_by_and_window_in_recursive_term
-- ordered
WITH RECURSIVE t(n, k) AS (
  SELECT 1, 1::bigint
  UNION ALL
  SELECT n + 1, row_number() OVER (ORDER BY n) FROM t WHERE n < 4 GROUP BY n)
SELECT n, k FROM t ORDER BY n;

-- name: rc027_distinct_in_recursive_term
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT 1 UNION ALL SELECT DISTINCT n + 1 FROM t WHERE n < 4)
SELECT n, count(*) FROM t GROUP BY n;

-- name: rc028_column_names_and_types
WITH RECURSIVE t AS (SELECT 1 AS a, 'x'::varchar(5) AS b, 2.5 AS c UNION ALL SELECT a + 1, b, c * 2 FROM t WHERE a < 3)
SELECT * FROM t;

-- name: rc029_numeric_typmod_kept
WITH RECURSIVE t(n) AS (SELECT 1.25::numeric(6,2) UNION ALL SELECT (n * 2)::numeric(6,2) FROM t WHERE n < 100)
SELECT n FROM t;

-- name: rc030_wider_first_term
WITH RECURSIVE t(n) AS (SELECT 1::bigint UNION ALL SELECT (n + 1)::int FROM t WHERE n < 4)
SELECT n FROM t;

-- name: rc031_null_in_recursive_term
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT NULL FROM t WHERE n IS NOT NULL)
SELECT n FROM t;

-- name: rc032_dates
-- ordered
WITH RECURSIVE d(day) AS (SELECT date '2024-02-26' UNION ALL SELECT day + 1 FROM d WHERE day < date '2024-03-02')
SELECT day, extract(dow FROM day) FROM d ORDER BY day;

-- name: rc033_in_subquery
SELECT name FROM emp WHERE id IN (
  WITH RECURSIVE sub(id) AS (SELECT 2 UNION ALL SELECT e.id FROM emp e JOIN sub s ON e.mgr = s.id)
  SELECT id FROM sub);

-- name: rc034_fewer_column_names
WITH RECURSIVE t(a) AS (SELECT 1, 2 AS b UNION ALL SELECT a + 1, b * 2 FROM t WHERE a < 3)
SELECT a, b FROM t;

-- name: rc035_non_recursive_in_recursive_list
WITH RECURSIVE x AS (SELECT 1 AS a UNION ALL SELECT 2) SELECT a FROM x;

-- name: rc036_booleans
WITH RECURSIVE t(n, even) AS (SELECT 0, true UNION ALL SELECT n + 1, NOT even FROM t WHERE n < 5)
SELECT n, even FROM t;

-- name: rc037_cross_join_growth
WITH RECURSIVE t(n, lvl) AS (
  SELECT 1, 0
  UNION ALL
  SELECT t.n * 2 + g.g, lvl + 1 FROM t, generate_series(0, 1) AS g(g) WHERE lvl < 10)
SELECT lvl, count(*), min(n), max(n) FROM t GROUP BY lvl;

-- name: e_rc01_type_mismatch
-- error 42804
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1.5 FROM t WHERE n < 3) SELECT * FROM t;

-- name: e_rc02_type_widened_bigint
-- error 42804
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n::bigint + 1 FROM t WHERE n < 3) SELECT * FROM t;

-- name: e_rc03_typmod_lost
-- error 42804
WITH RECURSIVE t(n) AS (SELECT 1::numeric(10,2) UNION ALL SELECT n + 1 FROM t WHERE n < 3) SELECT * FROM t;

-- name: e_rc04_varchar_length_lost
-- error 42804
WITH RECURSIVE t(s) AS (SELECT 'a'::varchar(3) UNION ALL SELECT s || 'a' FROM t WHERE length(s) < 3) SELECT * FROM t;

-- name: e_rc05_null_first_term
-- error 42804
WITH RECURSIVE t(n) AS (SELECT NULL UNION ALL SELECT 1 FROM t WHERE n IS NULL) SELECT * FROM t;

-- name: e_rc06_no_union
-- error 42P19
WITH RECURSIVE t(n) AS (SELECT n FROM t) SELECT * FROM t;

-- name: e_rc07_intersect
-- error 42P19
WITH RECURSIVE t(n) AS (SELECT 1 INTERSECT SELECT n FROM t) SELECT * FROM t;

-- name: e_rc08_in_non_recursive_term
-- error 42P19
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 3 UNION ALL SELECT 5) SELECT * FROM t;

-- name: e_rc09_in_subquery
-- error 42P19
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < (SELECT max(n) FROM t)) SELECT * FROM t;

-- name: e_rc10_in_exists
-- error 42P19
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT id FROM emp WHERE EXISTS (SELECT 1 FROM t WHERE t.n = emp.mgr)) SELECT * FROM t;

-- name: e_rc11_outer_join_nullable_side
-- error 42P19
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT t.n + 1 FROM emp LEFT JOIN t ON emp.id = t.n) SELECT * FROM t;

-- name: e_rc12_full_join
-- error 42P19
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT t.n + 1 FROM t FULL JOIN emp ON emp.id = t.n) SELECT * FROM t;

-- name: e_rc13_twice
-- error 42P19
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT a.n + 1 FROM t a, t b) SELECT * FROM t;

-- name: e_rc14_aggregate
-- error 42P19
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT count(*) FROM t) SELECT * FROM t;

-- name: e_rc15_order_by
-- error 0A000
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 3 ORDER BY 1) SELECT * FROM t;

-- name: e_rc16_limit
-- error 0A000
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 3 LIMIT 1) SELECT * FROM t;

-- name: e_rc17_too_many_column_names
-- error 42P10
WITH RECURSIVE t(n, m) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 3) SELECT * FROM t;

-- name: e_rc18_mutual_recursion
-- error 0A000
WITH RECURSIVE a(n) AS (SELECT 1 UNION ALL SELECT n FROM b), b(n) AS (SELECT 1 UNION ALL SELECT n FROM a) SELECT * FROM a;

-- name: e_rc19_union_types_unmatched
-- error 42804
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT date '2024-01-01' FROM t) SELECT * FROM t;

-- name: e_rc20_except
-- error 42P19
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL (SELECT 2 EXCEPT SELECT n FROM t)) SELECT * FROM t;

-- name: rc038_parenthesised_step_order_limit
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL (SELECT n + 1 FROM t WHERE n < 5 ORDER BY 1 LIMIT 1))
SELECT n FROM t;

-- name: rc039_view_over_recursive
-- session
CREATE TEMP VIEW chain AS
  WITH RECURSIVE up(id, mgr, hops) AS (
    SELECT id, mgr, 0 FROM emp WHERE id = 9
    UNION ALL
    SELECT e.id, e.mgr, up.hops + 1 FROM emp e JOIN up ON e.id = up.mgr)
  SELECT id, hops FROM up;
SELECT id, hops FROM chain ORDER BY hops;

-- name: rc040_cte_outer_join_recursive_left
WITH RECURSIVE t(id, depth) AS (
  SELECT 1, 0
  UNION
  SELECT coalesce(e.id, t.id), t.depth + 1 FROM t LEFT JOIN emp e ON e.mgr = t.id WHERE t.depth < 4)
SELECT id, depth FROM t;

-- name: e_rc21_select_list_subquery
-- error 42P19
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT (SELECT max(n) + 1 FROM t) FROM emp) SELECT * FROM t;

-- name: e_rc22_right_join_preserved_side
-- error 42P19
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT t.n + 1 FROM t RIGHT JOIN emp ON emp.id = t.n) SELECT * FROM t;

-- name: rc041_right_join_recursive_right
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT t.n + 1 FROM emp RIGHT JOIN t ON emp.id = t.n + 1 WHERE t.n < 6)
SELECT n FROM t;
