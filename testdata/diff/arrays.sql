-- Arrays in their text form over user columns: string_to_array,
-- array_length/array_upper/array_lower, subscripts, = ANY, || of arrays
-- and array_to_string. gpusql's arrays are text, so array results are
-- shown through ::text, array_to_string or a subscript.
-- Tables: lineitem (20000 rows), obs (40 rows); see README.md.

-- name: y001_string_to_array_words
-- ordered
SELECT l_orderkey, l_linenumber, array_to_string(string_to_array(l_comment, ' '), '|') AS words,
       array_length(string_to_array(l_comment, ' '), 1) AS n
FROM lineitem ORDER BY l_orderkey, l_linenumber;

-- name: y002_string_to_array_text_form
-- ordered
SELECT id, string_to_array(grp, NULL)::text AS chars, string_to_array(note, ',')::text AS parts,
       string_to_array(note, '')::text AS whole, string_to_array(note, ' ')::text AS words
FROM obs ORDER BY id;

-- name: y003_string_to_array_quoting
-- ordered
SELECT l_orderkey, l_linenumber, string_to_array(l_comment, ',')::text AS a
FROM lineitem WHERE l_orderkey < 2000 ORDER BY l_orderkey, l_linenumber;

-- name: y004_subscripts
-- ordered
SELECT l_orderkey, l_linenumber, CAST((string_to_array(l_comment, ' '))[1] AS text) AS first,
       upper((string_to_array(l_comment, ' '))[2]) AS second, CAST((string_to_array(l_comment, ' '))[0] AS text) AS zero,
       (string_to_array(l_comment, ' '))[3] = 'the' AS third_is_the
FROM lineitem WHERE l_orderkey < 3000 ORDER BY l_orderkey, l_linenumber;

-- name: y005_any_of_words
SELECT count(*) FROM lineitem WHERE 'the' = ANY (string_to_array(l_comment, ' '));

-- name: y006_column_any_constant_array
SELECT l_shipmode, count(*) FROM lineitem WHERE l_shipmode = ANY (string_to_array('AIR,MAIL,SHIP', ',')) GROUP BY l_shipmode;

-- name: y007_upper_lower_bounds
-- ordered
SELECT id, array_upper(string_to_array(note, ' '), 1) AS up, array_lower(string_to_array(note, ' '), 1) AS low,
       array_length(string_to_array(grp, NULL), 1) AS chars, array_length(string_to_array(note, ' '), 2) AS dim2
FROM obs ORDER BY id;

-- name: y008_group_by_word_count
SELECT array_length(string_to_array(l_shipinstruct, ' '), 1) AS n, count(*) FROM lineitem GROUP BY 1;

-- name: y009_array_cat
-- ordered
SELECT id, (string_to_array(grp, NULL) || ARRAY(SELECT 'z w'::text))::text AS a,
       (ARRAY(SELECT 'q'::text) || string_to_array(note, ' '))::text AS b
FROM obs ORDER BY id;

-- name: arr_remove
SELECT array_remove('{a,b,a,NULL}'::text[], 'a')::text AS r1, array_remove(array_remove('{check_option=local,x=1}'::text[], 'check_option=local'), 'check_option=cascaded')::text AS r2, array_remove(NULL::text[], 'a') IS NULL AS r3, array_remove('{a,NULL}'::text[], NULL)::text AS r4, array_remove('{"x y",z}'::text[], 'z')::text AS r5;
