-- A running total per supplier (the default frame: a segmented prefix sum).
SELECT count(*), sum(rt)
FROM (SELECT sum(l_quantity) OVER (PARTITION BY l_suppkey ORDER BY l_shipdate) AS rt FROM lineitem) x;
