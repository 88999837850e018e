-- Deciles of price over the whole table: one partition of every row.
SELECT b, count(*), min(l_extendedprice), max(l_extendedprice)
FROM (SELECT l_extendedprice, ntile(10) OVER (ORDER BY l_extendedprice) AS b FROM lineitem) x
GROUP BY b ORDER BY b;
