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
