-- What drivers and tools send past their first query (issue 18).

-- name: cl001_pg_get_keywords
SELECT word, catcode::text AS catcode, barelabel, catdesc, baredesc FROM pg_get_keywords();

-- name: cl002_pg_get_keywords_reserved
-- ordered
SELECT word FROM pg_catalog.pg_get_keywords() WHERE catcode <> 'U' AND NOT barelabel ORDER BY word;

-- name: cl003_any_array_literal_numeric
SELECT 1.5 = ANY ('{1.50,2}') AS m, 3 = ANY ('{1,2}') AS n, 3 = ANY ('{1,NULL}') AS u;

-- name: cl004_any_array_literal_ints
-- ordered
SELECT id FROM obs WHERE id = ANY ('{1,3,05,NULL}') ORDER BY id;

-- name: cl005_all_array_literal
SELECT count(*) FROM obs WHERE id <> ALL ('{1,2,3}');

-- name: cl006_any_empty_array
SELECT count(*) FROM obs WHERE id = ANY ('{}');

-- name: cl007_any_array_float
SELECT count(*) FROM obs WHERE d = ANY ('{0.125,1.50,-2}');

-- name: cl008_any_array_bad_element
-- error 22P02
SELECT count(*) FROM obs WHERE id = ANY ('{1,x}');
