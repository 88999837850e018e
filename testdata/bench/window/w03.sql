-- row_number and lag within each order.
SELECT max(rn), sum(l_quantity - prev)
FROM (SELECT l_quantity, row_number() OVER w AS rn, lag(l_quantity) OVER w AS prev
      FROM lineitem WINDOW w AS (PARTITION BY l_orderkey ORDER BY l_linenumber)) x;
