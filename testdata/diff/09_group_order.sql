-- GROUP BY (expression, alias, position), HAVING, ORDER BY (ASC/DESC,
-- NULLS FIRST/LAST, by expression, alias, position), LIMIT/OFFSET.

-- name: o001_group_columns
SELECT l_returnflag, l_linestatus, count(*), sum(l_quantity), avg(l_discount) FROM lineitem
 GROUP BY l_returnflag, l_linestatus;

-- name: o002_group_expression
SELECT extract(year FROM l_shipdate), count(*), sum(l_quantity) FROM lineitem GROUP BY extract(year FROM l_shipdate);

-- name: o003_group_alias_order_alias
-- ordered
SELECT extract(year FROM l_shipdate) AS yr, count(*) AS n FROM lineitem GROUP BY yr ORDER BY yr;

-- name: o004_group_position_nulls_first
-- ordered
SELECT l_shipmode, count(*) FROM lineitem GROUP BY 1 ORDER BY 1 NULLS FIRST;

-- name: o005_group_with_null_key
SELECT grp, count(*), sum(d), min(id) FROM obs GROUP BY grp;

-- name: o006_having_count
-- ordered
SELECT l_orderkey, count(*) FROM lineitem GROUP BY l_orderkey HAVING count(*) >= 7 ORDER BY l_orderkey;

-- name: o007_having_sum_and_key
SELECT l_shipmode, sum(l_quantity) FROM lineitem GROUP BY l_shipmode
 HAVING sum(l_quantity) > 10000 AND l_shipmode <> 'AIR';

-- name: o008_group_boolean
SELECT l_urgent, count(*), avg(l_discount) FROM lineitem GROUP BY l_urgent;

-- name: o009_group_two_positions
SELECT l_receiptdate - l_commitdate > 0 AS late, l_returnflag, count(*) FROM lineitem GROUP BY 1, 2;

-- name: o010_many_groups
SELECT l_orderkey, sum(l_extendedprice), min(l_shipdate), max(l_comment), count(*) FROM lineitem GROUP BY l_orderkey;

-- name: o011_group_key_not_selected
SELECT count(*) FROM lineitem GROUP BY l_shipmode;

-- name: o012_group_computed_key_order_desc_limit
-- ordered
SELECT extract(year FROM l_shipdate) * 100 + extract(month FROM l_shipdate) AS ym, count(*)
  FROM lineitem GROUP BY 1 ORDER BY 1 DESC LIMIT 12;

-- name: o013_group_char_and_float
SELECT code, d2, count(*) FROM obs GROUP BY code, d2;

-- name: o014_having_without_group
SELECT count(*) FROM obs HAVING count(*) > 100;

-- name: o015_having_avg
-- ordered
SELECT l_linenumber, avg(l_quantity) AS q FROM lineitem GROUP BY l_linenumber HAVING avg(l_quantity) > 25
 ORDER BY q DESC;

-- name: o016_order_desc_nulls_last
-- ordered
SELECT id, s FROM obs ORDER BY s DESC NULLS LAST, id;

-- name: o017_order_nulls_first
-- ordered
SELECT id, grp FROM obs ORDER BY grp NULLS FIRST, id DESC;

-- name: o018_order_default_nulls
-- ordered
SELECT id, n FROM obs ORDER BY n DESC, id;

-- name: o019_order_asc_default_nulls
-- ordered
SELECT id, n FROM obs ORDER BY n ASC, id;

-- name: o020_order_expression
-- ordered
SELECT id, d FROM obs ORDER BY d * -1, id;

-- name: o021_order_alias
-- ordered
SELECT id, big / 1000 AS kb FROM obs ORDER BY kb DESC, id;

-- name: o022_order_position
-- ordered
SELECT note, id FROM obs ORDER BY 1, 2 DESC;

-- name: o023_order_text_bytes
-- ordered
SELECT grp, id FROM obs ORDER BY grp, id;

-- name: o024_limit_offset
-- ordered
SELECT l_orderkey, l_linenumber, l_extendedprice FROM lineitem
 ORDER BY l_extendedprice DESC, l_orderkey, l_linenumber LIMIT 10 OFFSET 5;

-- name: o025_top_groups
-- ordered
SELECT l_shipmode, count(*) AS c FROM lineitem GROUP BY l_shipmode ORDER BY c DESC, l_shipmode LIMIT 3;

-- name: o026_offset_past_end
SELECT id FROM obs ORDER BY id OFFSET 1000;

-- name: o027_limit_zero
SELECT id FROM obs ORDER BY id LIMIT 0;

-- name: o028_order_by_unselected
-- ordered
SELECT id FROM obs ORDER BY ts DESC NULLS LAST, id;

-- name: o029_order_dates
-- ordered
SELECT l_orderkey, l_linenumber, l_shipdate FROM lineitem ORDER BY l_shipdate DESC, l_orderkey, l_linenumber LIMIT 20;

-- name: o030_order_float_bool_char
-- ordered
SELECT id, d2, flag, code FROM obs ORDER BY d2, flag DESC, code NULLS FIRST, id;

-- name: o031_order_multibyte_text
-- ordered
SELECT l_comment, l_orderkey, l_linenumber FROM lineitem WHERE l_orderkey < 2000
 ORDER BY l_comment DESC NULLS LAST, l_orderkey, l_linenumber LIMIT 40;

-- name: o032_order_aggregate_expression
-- ordered
SELECT l_returnflag, sum(l_quantity) FROM lineitem GROUP BY l_returnflag ORDER BY sum(l_quantity) DESC;

-- name: o033_limit_offset_no_order_single_row
SELECT count(*) FROM lineitem LIMIT 5 OFFSET 0;

-- name: o034_order_numeric_timestamp
-- ordered
SELECT id, n, ts FROM obs ORDER BY n NULLS FIRST, ts, id;
