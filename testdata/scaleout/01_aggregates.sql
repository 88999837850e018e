-- Scale-out queries (cmd/gpusql/scaleout_test.go): each runs on the
-- PostgreSQL coordinator over three gpusql nodes and on one gpusql node
-- holding everything; the answers must be the same. "-- remote: TEXT"
-- lines need TEXT in the coordinator's EXPLAIN VERBOSE. Format:
-- testdata/diff/README.md. lineitem and orders are hash-partitioned on
-- the order key (co-partitioned); orders_r is orders range-partitioned
-- on o_orderdate.

-- name: s001_count
SELECT count(*) FROM lineitem;

-- name: s002_sums
SELECT count(*), sum(l_quantity), sum(l_extendedprice), min(l_shipdate), max(l_receiptdate) FROM lineitem;

-- name: s003_group_by_key_pushed
-- remote: Relations: Aggregate on
-- remote: GROUP BY 1
-- ordered
SELECT l_orderkey, count(*), sum(l_quantity), max(l_linenumber) FROM lineitem GROUP BY l_orderkey ORDER BY 3 DESC, 1 LIMIT 50;

-- name: s004_group_by_key_having
-- remote: HAVING
-- ordered
SELECT l_orderkey, sum(l_extendedprice) FROM lineitem GROUP BY l_orderkey HAVING count(*) >= 7 ORDER BY 2 DESC, 1 LIMIT 20;

-- name: s005_filter_pushed
-- remote: WHERE ((l_quantity > 48::numeric)) AND ((l_shipmode = 'AIR'))
-- ordered
SELECT l_orderkey, l_linenumber, l_quantity, l_shipmode FROM lineitem WHERE l_quantity > 48 AND l_shipmode = 'AIR' ORDER BY 1, 2;

-- name: s006_q1
SELECT l_returnflag, l_linestatus, sum(l_quantity) AS sum_qty, sum(l_extendedprice) AS sum_base_price,
       sum(l_extendedprice * (1 - l_discount)) AS sum_disc_price,
       sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) AS sum_charge,
       count(*) AS count_order
FROM lineitem WHERE l_shipdate <= DATE '1998-09-02'
GROUP BY l_returnflag, l_linestatus ORDER BY l_returnflag, l_linestatus;

-- name: s007_q6
SELECT sum(l_extendedprice * l_discount) AS revenue FROM lineitem
WHERE l_shipdate >= DATE '1994-01-01' AND l_shipdate < DATE '1995-01-01'
  AND l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 24;

-- name: s008_avg
SELECT l_shipmode, avg(l_quantity), avg(l_discount), count(*) FROM lineitem GROUP BY l_shipmode ORDER BY 1;

-- name: s009_count_distinct
SELECT count(DISTINCT l_suppkey), count(DISTINCT l_orderkey) FROM lineitem;

-- name: s010_count_distinct_grouped
-- ordered
SELECT l_shipmode, count(DISTINCT l_partkey) FROM lineitem GROUP BY l_shipmode ORDER BY 1;

-- name: s011_count_distinct_by_key_pushed
-- remote: count(DISTINCT l_suppkey)
-- ordered
SELECT l_orderkey, count(DISTINCT l_suppkey) FROM lineitem GROUP BY l_orderkey ORDER BY 2 DESC, 1 LIMIT 10;

-- name: s012_top_n
-- ordered
SELECT l_orderkey, l_linenumber, l_extendedprice FROM lineitem ORDER BY l_extendedprice DESC, l_orderkey, l_linenumber LIMIT 10;

-- name: s013_top_n_filtered
-- ordered
SELECT l_orderkey, l_linenumber, l_shipdate FROM lineitem WHERE l_shipmode = 'RAIL' ORDER BY l_shipdate, l_orderkey, l_linenumber LIMIT 15;

-- name: s014_key_lookup_pruned
-- remote: WHERE ((l_orderkey = 4242))
-- ordered
SELECT l_orderkey, l_linenumber, l_quantity FROM lineitem WHERE l_orderkey = 4242 ORDER BY 2;

-- name: s015_key_in_list
-- ordered
SELECT l_orderkey, count(*) FROM lineitem WHERE l_orderkey IN (1, 2, 3, 100, 1000, 5000) GROUP BY 1 ORDER BY 1;

-- name: s016_key_range
SELECT count(*), sum(l_quantity) FROM lineitem WHERE l_orderkey BETWEEN 1000 AND 2000;

-- name: s017_like
-- remote: ~~
SELECT count(*) FROM lineitem WHERE l_comment LIKE '%furiously%';

-- name: s018_case_expr
SELECT sum(CASE WHEN l_shipmode IN ('MAIL', 'SHIP') THEN 1 ELSE 0 END), sum(CASE WHEN l_returnflag = 'R' THEN l_quantity END) FROM lineitem;

-- name: s019_group_by_two
-- ordered
SELECT l_returnflag, l_shipinstruct, count(*), min(l_discount), max(l_tax) FROM lineitem GROUP BY 1, 2 ORDER BY 1, 2;

-- name: s020_group_by_date_trunc
-- ordered
SELECT extract(year FROM l_shipdate) AS y, count(*), sum(l_quantity) FROM lineitem GROUP BY 1 ORDER BY 1;
