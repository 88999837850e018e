SELECT l_shipmode, count(*) AS n, sum(l_quantity) AS qty
FROM lineitem
WHERE l_comment LIKE '%furiously%'
GROUP BY l_shipmode
ORDER BY l_shipmode;
