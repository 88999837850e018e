-- WHERE: comparisons on every type, AND/OR/NOT with NULLs, BETWEEN, IN,
-- LIKE/ILIKE, IS [NOT] NULL, boolean columns.

-- name: w001_cmp_integer
SELECT count(*) FROM lineitem WHERE l_orderkey > 1000 AND l_linenumber <= 2;

-- name: w002_cmp_numeric
SELECT count(*), sum(l_quantity) FROM lineitem WHERE l_quantity >= 25.5 AND l_discount <> 0.05;

-- name: w003_cmp_numeric_int_literal
SELECT count(*) FROM lineitem WHERE l_quantity = 24 OR l_tax = 0;

-- name: w004_cmp_floats
SELECT id, d, r, d2 FROM obs WHERE d > 100.5 OR r <= 0.5 OR d2 = 0.1 OR d2 < -1;

-- name: w005_cmp_dates
SELECT count(*) FROM lineitem
 WHERE l_shipdate < date '1993-01-01' OR l_shipdate = '1995-03-15' OR l_shipdate > l_receiptdate - 2;

-- name: w006_cmp_text
SELECT l_shipmode, count(*) FROM lineitem WHERE l_shipmode < 'M' OR l_shipmode = 'TRUCK' GROUP BY l_shipmode;

-- name: w007_cmp_text_obs
SELECT id, grp, note FROM obs WHERE grp >= 'b' OR note > 'naïve' OR grp = '';

-- name: w008_cmp_char
SELECT id, code FROM obs WHERE code = 'ab' OR code = 'x   ' OR code < 'ab' OR code > 'ÄÅ';

-- name: w009_cmp_char_lineitem
SELECT l_returnflag, l_linestatus, count(*) FROM lineitem WHERE l_returnflag = 'R' OR l_linestatus <> 'F'
 GROUP BY l_returnflag, l_linestatus;

-- name: w010_cmp_bool
SELECT id, flag FROM obs WHERE flag = true OR flag <> true;

-- name: w011_cmp_timestamp
SELECT id, ts FROM obs WHERE ts > timestamp '2010-01-01 00:00:00' AND ts <= '2020-06-01 12:00:00';

-- name: w012_cmp_small_big
SELECT id, s, i, big FROM obs WHERE big > 0 AND (s < -500 OR big > i) OR s = 27;

-- name: w013_three_valued_logic
-- ordered
SELECT id, s > 0 AND flag, s > 0 OR flag, NOT flag, NOT (s > 0), flag AND NULL, flag OR NULL
  FROM obs ORDER BY id;

-- name: w014_where_or_null
SELECT id FROM obs WHERE flag OR s > 500;

-- name: w015_where_not_null_excluded
SELECT id FROM obs WHERE NOT flag;

-- name: w016_between
SELECT count(*) FROM lineitem WHERE l_discount BETWEEN 0.05 AND 0.07 AND l_shipdate BETWEEN '1994-01-01' AND '1994-12-31';

-- name: w017_not_between
SELECT id, s FROM obs WHERE s NOT BETWEEN -100 AND 500;

-- name: w018_in_list
SELECT l_shipmode, l_linenumber, count(*) FROM lineitem
 WHERE l_shipmode IN ('AIR', 'RAIL') AND l_linenumber IN (1, 3, 5) GROUP BY l_shipmode, l_linenumber;

-- name: w019_in_list_with_null
-- ordered
SELECT id, s IN (27, NULL), s NOT IN (27, NULL), grp IN ('alpha', NULL), id IN (1, 2, 3) FROM obs ORDER BY id;

-- name: w020_not_in
SELECT l_shipmode, count(*) FROM lineitem WHERE l_shipmode NOT IN ('AIR', 'SHIP') GROUP BY l_shipmode;

-- name: w021_in_numeric_date
SELECT count(*) FROM lineitem WHERE l_discount IN (0.01, 0.02) OR l_shipdate IN ('1995-03-15', '1996-01-01');

-- name: w022_like_percent
SELECT count(*) FROM lineitem WHERE l_comment LIKE '%café%';

-- name: w023_like_underscore
SELECT l_shipmode, count(*) FROM lineitem WHERE l_shipmode LIKE '_AI_' OR l_shipmode LIKE 'R%' GROUP BY l_shipmode;

-- name: w024_not_like
SELECT count(*) FROM lineitem WHERE l_comment NOT LIKE '%a%';

-- name: w025_ilike
SELECT l_shipinstruct, count(*) FROM lineitem WHERE l_shipinstruct ILIKE 'deliver%' GROUP BY l_shipinstruct;

-- name: w026_like_escapes
SELECT count(*) FROM lineitem WHERE l_comment LIKE '%100\%%' OR l_comment LIKE '%under\_score%';

-- name: w027_like_multibyte_obs
SELECT id, note FROM obs WHERE note LIKE '%é' OR note ILIKE '%CAFÉ%' OR note LIKE '日本__テ%' OR note NOT ILIKE '%a%';

-- name: w028_like_char_column
SELECT id, code, code LIKE 'ab', code LIKE 'ab%', code LIKE 'x' FROM obs;

-- name: w029_is_null
SELECT count(*), count(l_comment), count(l_shipmode) FROM lineitem WHERE l_comment IS NULL;

-- name: w030_is_not_null
SELECT count(*) FROM lineitem WHERE l_discount IS NOT NULL AND l_commitdate IS NULL;

-- name: w031_is_null_expressions
-- ordered
SELECT id, (s + i) IS NULL, grp IS NOT NULL, flag IS NULL, n * 2 IS NOT NULL FROM obs ORDER BY id;

-- name: w032_boolean_columns
SELECT id FROM obs WHERE flag;

-- name: w033_boolean_lineitem
SELECT count(*) FROM lineitem WHERE l_urgent AND l_quantity > 40;

-- name: w034_boolean_not_lineitem
SELECT count(*) FROM lineitem WHERE NOT l_urgent OR l_urgent IS NULL;

-- name: w035_empty_string_vs_null
SELECT count(*), count(l_comment) FROM lineitem WHERE l_comment = '' OR l_shipinstruct = '';

-- name: w036_and_guards_division
-- The left operand decides the row first: no division by zero.
SELECT count(*), sum(l_quantity / (l_linenumber - 1)) FROM lineitem
 WHERE l_linenumber - 1 <> 0 AND l_quantity / (l_linenumber - 1) > 10;
