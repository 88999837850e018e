-- Basics: SELECT without FROM, literals, column references, aliases.
-- Tables: lineitem (20000 rows), obs (40 rows); see README.md.

-- name: b001_select_1
SELECT 1;

-- name: b002_literals
SELECT 1, -7, 2147483648, 1.5, -0.001, 1e3, 'abc', '', NULL, true, false;

-- name: b003_expr_no_from
SELECT 1.5 * 2, 'a' || 'b', 7 / 2, 2 + 3 * 4;

-- name: b004_named_literals
SELECT 1 AS one, 'x' AS "Quoted Name", 2.50 two, NULL AS nothing;

-- name: b005_all_obs_columns
-- ordered
SELECT id, s, i, big, r, d, d2, ts, n, grp, code, note, flag FROM obs ORDER BY id;

-- name: b006_star_obs
SELECT * FROM obs;

-- name: b007_star_lineitem_all_rows
SELECT * FROM lineitem;

-- name: b008_lineitem_page
-- ordered
SELECT l_orderkey, l_linenumber, l_quantity, l_extendedprice, l_discount, l_tax,
       l_returnflag, l_linestatus, l_shipdate, l_commitdate, l_receiptdate,
       l_shipinstruct, l_shipmode, l_comment, l_urgent
  FROM lineitem
 ORDER BY l_orderkey, l_linenumber
 LIMIT 50 OFFSET 100;

-- name: b009_aliases_and_qualified
SELECT obs.id AS ident, big AS "Big Value", n x, obs.grp FROM obs;

-- name: b010_count_rows
SELECT count(*) FROM lineitem;

-- name: b011_case_insensitive_keywords
select L_ORDERKEY, l_LineNumber from LINEITEM where l_orderkey < 5;

-- name: b012_constant_columns_per_row
SELECT id, 1 AS one, 'k' AS k, NULL AS z FROM obs;

-- name: b013_huge_numeric_literals
-- gpusql-error 22P02
-- gpusql's numerics hold 38 digits (docs/sql.md); a 50-digit literal is refused.
SELECT 1e300, 12345678901234567890123456789012345678901234567890, 1e-40;
