-- Joins of the co-partitioned lineitem and orders, and orders_r (range
-- partitions on o_orderdate). See 01_aggregates.sql for the format.

-- name: s101_join_count
-- remote:  INNER JOIN public.
SELECT count(*), sum(l_quantity) FROM lineitem JOIN orders ON l_orderkey = o_orderkey;

-- name: s102_join_group_by_key_pushed
-- remote: Relations: Aggregate on ((public.orders_p0 orders) INNER JOIN (public.lineitem_p0 lineitem))
-- ordered
SELECT o_orderkey, o_orderdate, sum(l_extendedprice) FROM orders JOIN lineitem ON l_orderkey = o_orderkey
GROUP BY o_orderkey, o_orderdate ORDER BY 3 DESC, 1 LIMIT 10;

-- name: s103_join_filter
-- ordered
SELECT o_orderpriority, count(*) FROM orders JOIN lineitem ON l_orderkey = o_orderkey
WHERE l_commitdate < l_receiptdate AND o_orderdate >= DATE '1993-07-01' AND o_orderdate < DATE '1993-10-01'
GROUP BY o_orderpriority ORDER BY 1;

-- name: s104_left_join_no_lines
SELECT count(*) FROM orders LEFT JOIN lineitem ON l_orderkey = o_orderkey WHERE l_orderkey IS NULL;

-- name: s105_q3_like
-- ordered
SELECT l_orderkey, sum(l_extendedprice * (1 - l_discount)) AS revenue, o_orderdate
FROM orders JOIN lineitem ON l_orderkey = o_orderkey
WHERE o_orderdate < DATE '1995-03-15' AND l_shipdate > DATE '1995-03-15'
GROUP BY l_orderkey, o_orderdate ORDER BY revenue DESC, o_orderdate, l_orderkey LIMIT 10;

-- name: s106_join_status
-- ordered
SELECT o_orderstatus, count(DISTINCT o_orderkey), count(*) FROM orders JOIN lineitem ON l_orderkey = o_orderkey GROUP BY 1 ORDER BY 1;

-- name: s107_semi_join
SELECT count(*) FROM orders WHERE EXISTS (SELECT 1 FROM lineitem WHERE l_orderkey = o_orderkey AND l_quantity > 49);

-- name: s108_anti_join
SELECT count(*) FROM orders WHERE NOT EXISTS (SELECT 1 FROM lineitem WHERE l_orderkey = o_orderkey);

-- name: s109_nulls
SELECT count(*), count(o_orderstatus), count(o_totalprice), count(o_comment), sum(o_totalprice) FROM orders;

-- name: s110_range_pruned
-- remote: orders_r_p0
-- ordered
SELECT o_orderpriority, count(*) FROM orders_r WHERE o_orderdate < DATE '1993-01-01' GROUP BY 1 ORDER BY 1;

-- name: s111_range_group_by_key_pushed
-- remote: GROUP BY 1
-- ordered
SELECT o_orderdate, count(*), sum(o_totalprice) FROM orders_r GROUP BY o_orderdate ORDER BY 2 DESC, 1 LIMIT 10;

-- name: s112_range_vs_hash
SELECT (SELECT count(*) FROM orders_r WHERE o_totalprice > 200000), (SELECT count(*) FROM orders WHERE o_totalprice > 200000);

-- name: s113_join_range_to_hash
SELECT count(*), sum(l_quantity) FROM orders_r JOIN lineitem ON l_orderkey = o_orderkey WHERE o_orderdate BETWEEN DATE '1995-01-01' AND DATE '1995-12-31';

-- name: s114_distinct_rows
-- ordered
SELECT DISTINCT o_orderpriority FROM orders ORDER BY 1;

-- name: s115_union
-- ordered
SELECT 'o' AS t, count(*) FROM orders UNION ALL SELECT 'l', count(*) FROM lineitem ORDER BY 1;
