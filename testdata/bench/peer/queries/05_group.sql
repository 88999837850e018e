SELECT l_orderkey, sum(l_quantity) AS qty, count(*) AS n
FROM lineitem
GROUP BY l_orderkey
HAVING sum(l_quantity) > 250
ORDER BY qty DESC, l_orderkey
LIMIT 10;
