SELECT l_orderkey, l_linenumber, l_quantity, l_extendedprice, l_shipdate, l_comment
FROM lineitem
WHERE l_orderkey = 1000004
ORDER BY l_linenumber;
