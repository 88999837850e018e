-- sum and avg over DISTINCT values: the device finds the distinct
-- (group, value) pairs, the host adds them up as the CPU backend does
-- (docs/gpu.md, "Aggregates").

-- name: g980_sum_avg_distinct_lineitem
SELECT sum(DISTINCT l_quantity), avg(DISTINCT l_quantity), sum(DISTINCT l_discount), avg(DISTINCT l_tax),
       sum(DISTINCT l_linenumber), avg(DISTINCT l_linenumber), sum(DISTINCT l_orderkey)
  FROM lineitem;

-- name: g981_sum_avg_distinct_grouped
-- ordered
SELECT l_returnflag, l_linestatus, sum(DISTINCT l_quantity), avg(DISTINCT l_extendedprice), count(DISTINCT l_quantity), sum(l_quantity)
  FROM lineitem GROUP BY 1, 2 ORDER BY 1, 2;

-- name: g982_sum_avg_distinct_obs
SELECT sum(DISTINCT s), avg(DISTINCT i), sum(DISTINCT big), avg(DISTINCT n), sum(DISTINCT n), avg(DISTINCT s) FROM obs;

-- name: g983_sum_avg_distinct_empty
SELECT sum(DISTINCT l_quantity), avg(DISTINCT l_quantity), count(DISTINCT l_quantity) FROM lineitem WHERE l_quantity < 0;

-- name: g984_sum_distinct_expressions
-- ordered
SELECT l_linenumber % 3, sum(DISTINCT l_quantity * 2), avg(DISTINCT l_discount + l_tax)
  FROM lineitem WHERE l_shipdate < date '1996-01-01' GROUP BY 1 HAVING sum(DISTINCT l_quantity) > 10 ORDER BY 1;

-- Aggregations whose aggregates all read DISTINCT values of one
-- expression run as two plain GROUP BYs (query/optimize_distinct.go):
-- the distinct (keys, x) pairs, then the keys.

-- name: g985_split_count_distinct_grouped
-- ordered
SELECT l_shipmode, count(DISTINCT l_partkey), min(l_partkey), max(DISTINCT l_partkey), sum(DISTINCT l_partkey), avg(DISTINCT l_partkey)
  FROM lineitem GROUP BY l_shipmode ORDER BY 1;

-- name: g986_split_count_distinct_topn
-- ordered
SELECT l_linenumber, l_returnflag, count(DISTINCT l_orderkey) AS u FROM lineitem
  GROUP BY 1, 2 HAVING count(DISTINCT l_orderkey) > 100 ORDER BY u DESC, 1, 2 LIMIT 5;

-- name: g987_split_null_keys_and_values
-- ordered
SELECT grp, count(DISTINCT note), min(note), max(note), count(*) FILTER (WHERE false) IS NULL FROM obs GROUP BY grp ORDER BY 1 NULLS FIRST;

-- name: g988_split_text_global
SELECT count(DISTINCT grp), count(DISTINCT code), count(DISTINCT ts) FROM obs;

-- name: g989_split_same_x_global
SELECT count(DISTINCT l_comment), min(l_comment), max(l_comment) FROM lineitem WHERE l_quantity > 30;

-- name: g990_split_empty
-- ordered
SELECT l_returnflag, count(DISTINCT l_partkey), sum(DISTINCT l_partkey) FROM lineitem WHERE l_quantity < 0 GROUP BY 1 ORDER BY 1;

-- name: g991_split_empty_global
SELECT count(DISTINCT l_partkey), sum(DISTINCT l_partkey), avg(DISTINCT l_partkey), min(l_partkey) FROM lineitem WHERE l_quantity < 0;

-- name: g992_split_expression_keys
-- ordered
SELECT l_orderkey % 7 AS m, extract(year from l_shipdate) AS y, count(DISTINCT l_partkey % 100)
  FROM lineitem GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2 LIMIT 10;

-- name: g993_split_in_derived_table_and_join
-- ordered
SELECT a.l_shipmode, a.u, b.n FROM
  (SELECT l_shipmode, count(DISTINCT l_orderkey) AS u FROM lineitem GROUP BY 1) a
  JOIN (SELECT l_shipmode, count(*) AS n FROM lineitem GROUP BY 1) b ON a.l_shipmode = b.l_shipmode
  ORDER BY 1;

-- name: g994_split_over_join
-- ordered
SELECT ja.g, count(DISTINCT jb.s) FROM ja JOIN jb ON ja.k = jb.k GROUP BY ja.g ORDER BY 1 NULLS LAST;

-- avg over integers and numerics of a GROUP BY runs as a sum and a count,
-- divided above the aggregation (query/optimize_avg.go).

-- name: g995_avg_split_types_nulls
-- ordered
SELECT grp, avg(s), avg(i), avg(big), avg(n), avg(n) FILTER (WHERE flag), count(*) FROM obs GROUP BY grp ORDER BY 1 NULLS FIRST;

-- name: g996_avg_split_all_null_group
-- ordered
SELECT l_linenumber, avg(CASE WHEN l_linenumber > 3 THEN l_quantity END), avg(l_quantity) FROM lineitem GROUP BY 1 ORDER BY 1;

-- name: g997_avg_split_having_order
-- ordered
SELECT l_partkey % 50 AS p, avg(l_extendedprice) AS a, avg(l_orderkey) FROM lineitem
  GROUP BY 1 HAVING avg(l_quantity) > 25 ORDER BY a DESC, p LIMIT 7;

-- name: g998_avg_split_in_expression
-- ordered
SELECT l_returnflag, round(avg(l_discount) * 100, 3), avg(l_tax) + avg(l_discount), sum(l_quantity) / avg(l_quantity)
  FROM lineitem GROUP BY 1 ORDER BY 1;

-- name: g999_avg_distinct_split
-- ordered
SELECT l_shipmode, avg(DISTINCT l_quantity), count(DISTINCT l_quantity) FROM lineitem GROUP BY 1 ORDER BY 1;

-- DISTINCT aggregates beside plain ones: partial counts, sums, min and
-- max per (keys, x) pair, combined above (query/optimize_distinct.go).

-- name: g1000_split_mixed_clickbench_q09
-- ordered
SELECT l_shipmode, sum(l_linenumber), count(*) AS c, avg(l_quantity), count(DISTINCT l_partkey)
  FROM lineitem GROUP BY l_shipmode ORDER BY c DESC, 1 LIMIT 10;

-- name: g1001_split_mixed_min_text
-- ordered
SELECT l_returnflag, min(l_comment), max(l_shipinstruct), count(*) AS c, count(DISTINCT l_orderkey), sum(l_orderkey), sum(l_partkey)
  FROM lineitem WHERE l_comment LIKE '%e%' GROUP BY 1 ORDER BY c DESC, 1;

-- name: g1002_split_mixed_nulls
-- ordered
SELECT grp, count(*), count(n), sum(s), sum(big), sum(n), avg(i), count(DISTINCT code), min(ts), max(flag::int)
  FROM obs GROUP BY grp ORDER BY 1 NULLS FIRST;

-- name: g1003_split_mixed_having_count
-- ordered
SELECT l_linenumber, count(DISTINCT l_suppkey_mod) FROM (SELECT l_linenumber, l_partkey % 13 AS l_suppkey_mod FROM lineitem) s
  GROUP BY 1 HAVING count(*) > 100 ORDER BY 1;

-- name: g1004_split_mixed_empty
SELECT l_returnflag, count(*), count(DISTINCT l_partkey), sum(l_linenumber) FROM lineitem WHERE l_quantity < 0 GROUP BY 1;

-- name: g1005_split_global_mixed_unchanged
SELECT count(*), count(DISTINCT l_partkey), sum(l_linenumber) FROM lineitem WHERE l_quantity < 0;

-- sum(y + c) as sum(y) + c * count(y), each aggregate once
-- (query/optimize_sum.go): ClickBench's q29 shape.

-- name: g1006_sum_plus_constants
SELECT sum(s), sum(s + 1), sum(s - 2), sum(3 + s), sum(s + 1048576), sum(s - 1048576), sum(i + 1), count(*) FROM obs;

-- name: g1007_sum_plus_constants_grouped_nulls
-- ordered
SELECT grp, sum(s + 7), sum(s) + 1, sum(s + 7) - sum(s), sum(id + 0) FROM obs GROUP BY grp ORDER BY 1 NULLS FIRST;

-- name: g1008_sum_plus_constants_empty
SELECT sum(s + 1), sum(s - 1), sum(s) FROM obs WHERE id < 0;

-- name: g1009_sum_plus_constants_big_constant_unchanged
SELECT sum(s + 2000000), sum(l_linenumber + 5) FROM obs, (SELECT 1 AS l_linenumber) x;
