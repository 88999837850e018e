-- CASE WHEN ... THEN ... ELSE ... END.

-- name: k001_case_searched
-- ordered
SELECT id,
       CASE WHEN s < 0 THEN 'neg' WHEN s = 0 THEN 'zero' WHEN s > 0 THEN 'pos' ELSE 'null' END AS sign,
       CASE WHEN flag THEN 1 ELSE 0 END,
       CASE WHEN n > 100 THEN n END
  FROM obs ORDER BY id;

-- name: k002_case_type_unification
-- ordered
SELECT id, CASE WHEN id < 10 THEN 1 ELSE 1.5 END, CASE WHEN id < 10 THEN i ELSE big END,
       CASE WHEN id < 10 THEN s ELSE d END, CASE WHEN flag THEN grp ELSE note END,
       CASE WHEN id > 100 THEN 1 END
  FROM obs ORDER BY id;

-- name: k003_case_in_aggregate
SELECT sum(CASE WHEN l_urgent THEN 1 ELSE 0 END), sum(CASE WHEN l_shipmode IN ('AIR', 'REG AIR') THEN l_quantity ELSE 0 END),
       count(CASE WHEN l_discount > 0.05 THEN 1 END)
  FROM lineitem;

-- name: k004_case_group
SELECT CASE WHEN l_quantity < 10 THEN 'small' WHEN l_quantity < 30 THEN 'medium' ELSE 'large' END AS size,
       count(*), sum(l_extendedprice)
  FROM lineitem GROUP BY 1;

-- name: k005_case_null_conditions
-- ordered
SELECT id, CASE WHEN flag THEN 'yes' WHEN NOT flag THEN 'no' ELSE 'unknown' END,
       CASE WHEN NULL THEN 1 ELSE 2 END
  FROM obs ORDER BY id;

-- name: k006_case_guards_division
SELECT l_linenumber, sum(CASE WHEN l_linenumber = 1 THEN NULL ELSE l_quantity / (l_linenumber - 1) END)
  FROM lineitem GROUP BY l_linenumber;
