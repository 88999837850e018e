-- string_agg(value, delimiter [ORDER BY ...]): values joined in the
-- ORDER BY's order (input order is not compared: without ORDER BY the
-- entries here are over one value per group, or sorted by DISTINCT).

-- name: g101_string_agg_order
-- ordered
SELECT grp, string_agg(note, ', ' ORDER BY id) FROM obs GROUP BY grp ORDER BY grp NULLS FIRST;

-- name: g102_string_agg_order_desc_nulls
-- ordered
SELECT grp, string_agg(code, '|' ORDER BY s DESC NULLS LAST, id) FROM obs GROUP BY grp ORDER BY grp NULLS FIRST;

-- name: g103_string_agg_distinct
SELECT l_returnflag, string_agg(DISTINCT l_shipmode, ',') FROM lineitem GROUP BY l_returnflag;

-- name: g104_string_agg_distinct_order_desc
SELECT l_linestatus, string_agg(DISTINCT l_shipinstruct, ';' ORDER BY l_shipinstruct DESC) FROM lineitem GROUP BY l_linestatus;

-- name: g105_string_agg_char_loses_padding
SELECT string_agg(code, '' ORDER BY id) FROM obs WHERE id < 12;

-- name: g106_string_agg_empty_and_null
SELECT string_agg(note, ',' ORDER BY id) FROM obs WHERE id < 0;

-- name: g107_string_agg_per_row_delimiter
SELECT string_agg(grp, note ORDER BY id) FROM obs WHERE id < 15;

-- name: g108_string_agg_large_group
SELECT l_shipmode, length(string_agg(l_comment, '#' ORDER BY l_orderkey, l_linenumber)), substring(string_agg(l_comment, '#' ORDER BY l_orderkey, l_linenumber) FROM 20000 FOR 300) FROM lineitem GROUP BY l_shipmode;

-- name: g109_string_agg_with_other_aggregates
-- ordered
SELECT l_returnflag, count(*), string_agg(DISTINCT l_linestatus, '') FROM lineitem WHERE l_orderkey < 500 GROUP BY l_returnflag ORDER BY 1;

-- name: g110_string_agg_one_value
SELECT string_agg(grp, ',') FROM obs WHERE id = 3;

-- name: g111_string_agg_cast_argument
SELECT string_agg(i::text, '+' ORDER BY i NULLS FIRST, id) FROM obs WHERE id < 10;

-- name: e111_string_agg_integer
-- error 42883
SELECT string_agg(i, ',') FROM obs;

-- name: e112_string_agg_one_argument
-- error 42883
SELECT string_agg(grp) FROM obs;

-- name: e113_string_agg_distinct_order_not_argument
-- error 42P10
SELECT string_agg(DISTINCT grp, ',' ORDER BY id) FROM obs;

-- name: e114_string_agg_nested
-- error 42803
SELECT string_agg(string_agg(grp, ','), ',') FROM obs;
