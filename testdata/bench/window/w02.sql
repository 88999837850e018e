-- Top 3 lines per supplier by price, with rank().
SELECT count(*), sum(l_extendedprice)
FROM (SELECT l_extendedprice, rank() OVER (PARTITION BY l_suppkey ORDER BY l_extendedprice DESC) AS r FROM lineitem) x
WHERE r <= 3;
