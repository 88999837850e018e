-- Whole-partition and moving aggregates, dense_rank by date.
SELECT sum(share), max(dr), sum(mv)
FROM (SELECT l_extendedprice / sum(l_extendedprice) OVER (PARTITION BY l_returnflag, l_linestatus) AS share,
             dense_rank() OVER (PARTITION BY l_shipmode ORDER BY l_shipdate) AS dr,
             count(*) OVER (PARTITION BY l_partkey ORDER BY l_orderkey ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING) AS mv
      FROM lineitem) x;
