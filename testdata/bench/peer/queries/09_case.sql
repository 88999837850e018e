SELECT l_shipmode,
    sum(CASE WHEN l_discount >= 0.05 THEN l_extendedprice ELSE 0 END) AS discounted,
    sum(CASE WHEN l_returnflag = 'R' THEN 1 ELSE 0 END) AS returned
FROM lineitem
GROUP BY l_shipmode
ORDER BY l_shipmode;
