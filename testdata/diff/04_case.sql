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

-- name: k007_conditional_sums_numeric
-- ELSE 0.000 raises the sums' scale (k010 has groups whose rows all take
-- ELSE 0).
SELECT l_linenumber,
       sum(CASE WHEN l_quantity > 10 THEN l_extendedprice ELSE 0 END),
       sum(CASE WHEN l_discount >= 0.05 THEN l_extendedprice ELSE 0.000 END),
       sum(CASE WHEN l_discount < 0.03 THEN l_tax END),
       avg(CASE WHEN l_returnflag = 'R' THEN l_quantity ELSE -1.5 END),
       count(CASE WHEN l_discount > 0.05 THEN l_tax END),
       sum(CASE WHEN l_shipmode <> 'AIR' THEN 1 ELSE 0 END)
  FROM lineitem GROUP BY l_linenumber;

-- name: k008_conditional_sums_integers
SELECT grp,
       sum(CASE WHEN i > 0 THEN big ELSE 0 END),
       sum(CASE WHEN s < 0 THEN s END),
       avg(CASE WHEN flag THEN i ELSE NULL END),
       sum(CASE WHEN n >= 0 THEN 9223372036854775807 ELSE i END),
       count(CASE WHEN id <= 20 THEN note END),
       sum(CASE WHEN id > 100 THEN i ELSE NULL END)
  FROM obs GROUP BY grp;

-- name: k009_conditional_sums_global_empty
SELECT sum(CASE WHEN l_quantity > 0 THEN l_extendedprice ELSE 0 END),
       count(CASE WHEN l_quantity > 0 THEN 1 END),
       avg(CASE WHEN l_quantity > 0 THEN l_quantity END)
  FROM lineitem WHERE l_orderkey < 0;

-- name: k010_conditional_sum_scale_per_group
-- A group whose rows all take ELSE 0 sums to 0 at scale 0, the others at
-- the column's scale: each group keeps its own display scale, also over
-- tables split into parts (the parts' partial sums merged) and through a
-- derived table.
SELECT l_linenumber,
       sum(CASE WHEN l_linenumber = 1 THEN l_extendedprice ELSE 0 END),
       sum(CASE WHEN l_linenumber > 5 THEN l_discount ELSE 0 END),
       sum(CASE WHEN l_linenumber > 9 THEN l_tax ELSE 0 END)
  FROM lineitem GROUP BY l_linenumber;

-- name: k011_mixed_scales_through_derived_tables
-- ordered
-- An intermediate table's unconstrained numeric column keeps each value's
-- scale: a WITH query, a derived table and a sum over them.
WITH x AS (
  SELECT l_linenumber AS n, sum(CASE WHEN l_linenumber <= 2 THEN l_extendedprice ELSE 0 END) AS s
    FROM lineitem GROUP BY l_linenumber)
SELECT n, s, s + 0, sum(s) OVER (), (SELECT sum(s) FROM x WHERE n > 2) FROM x ORDER BY n;

-- name: k012_mixed_scales_values_and_union
-- ordered
SELECT g, s, sum(s) OVER (PARTITION BY g) FROM (
  SELECT * FROM (VALUES (1, 0::numeric), (2, 1.50), (2, 2), (3, 1.000)) v(g, s)
  UNION ALL SELECT 4, 0.5
) u ORDER BY g, s;

