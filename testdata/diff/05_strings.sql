-- String functions: length, upper, lower, substring, ||.

-- name: s001_length_upper_lower
-- ordered
SELECT id, note, length(note), upper(note), lower(note), length(code), length(grp), upper(code), lower(grp)
  FROM obs ORDER BY id;

-- name: s002_substring_forms
SELECT l_orderkey, l_linenumber, substring(l_comment from 2 for 5), substring(l_comment, 1, 3),
       substring(l_comment from 3), substring(l_comment, 0, 3), substring(l_comment, -1, 4), substring(l_comment, 50, 5)
  FROM lineitem WHERE l_orderkey < 400;

-- name: s003_concat
-- ordered
SELECT id, grp || '-' || note, code || 'x', grp || NULL, 'id:' || id, note || code, grp || ''
  FROM obs ORDER BY id;

-- name: s004_upper_in_where
SELECT count(*) FROM lineitem WHERE upper(l_shipinstruct) = 'DELIVER IN PERSON';

-- name: s005_string_literals
SELECT length('héllo'), upper('straße'), lower('ÀÉÎ'), substring('hello world' from 7), 'it''s',
       length(''), '' || 'x', upper('abc') || lower('DEF'), length('日本語');

-- name: s006_length_lineitem
SELECT length(l_comment) AS len, count(*) FROM lineitem GROUP BY length(l_comment);

-- name: s007_upper_lower_multibyte_lineitem
SELECT l_orderkey, l_linenumber, upper(l_comment), lower(l_comment)
  FROM lineitem WHERE l_orderkey BETWEEN 1000 AND 1150;

-- name: s008_string_functions_in_group
SELECT substring(l_shipmode from 1 for 1) AS initial, count(*) FROM lineitem GROUP BY 1;

-- name: s009_concat_columns_lineitem
SELECT l_orderkey, l_linenumber, l_returnflag || l_linestatus, l_shipmode || ':' || l_shipinstruct
  FROM lineitem WHERE l_orderkey < 300;

-- name: s010_null_arguments
SELECT length(NULL::text), upper(NULL), substring(NULL::text from 1 for 2), substring('abc', NULL, 1),
       'x' || NULL::text, NULL::text LIKE 'a%';

-- name: s020_replace_trim_columns
-- ordered
SELECT id, replace(note, 'a', 'AA'), replace(note, note, '<' || grp || '>'), replace(grp, '', 'x'),
       replace(note, code, NULL), replace(code || code, code, 'é'),
       trim(note), btrim(note, 'ae'), ltrim(note, grp), rtrim(note, 'x y'), ltrim('  ' || grp), rtrim(grp || '  ')
  FROM obs ORDER BY id;

-- name: s021_replace_trim_lineitem
SELECT l_orderkey, l_linenumber, replace(l_comment, 'the', '-'), replace(l_comment, ' ', ''),
       btrim(l_comment, 'abcdefgh '), rtrim(l_shipmode), ltrim(l_comment, l_shipmode)
  FROM lineitem WHERE l_orderkey < 300;

-- name: s022_trim_in_where_group
SELECT rtrim(l_shipinstruct, 'NOSE') AS k, count(*) FROM lineitem
  WHERE replace(l_shipmode, 'AIR', 'air') LIKE '%air%' GROUP BY k;
