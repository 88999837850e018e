SELECT extract(year FROM l_shipdate) AS y, extract(month FROM l_shipdate) AS m, count(*) AS n, sum(l_extendedprice) AS price
FROM lineitem
GROUP BY 1, 2
ORDER BY 1, 2;
