-- FULL JOIN of derived tables (joins run on the host over materialised
-- inputs), postgres_fdw's LIKE operators (~~ !~~ ~~* !~~*), || with
-- ARRAY(SELECT ...), and a quoted "user" column.

-- name: j001_full_join_derived
SELECT x.grp, x.n, y.m FROM (SELECT grp, count(*) AS n FROM obs WHERE id < 20 GROUP BY grp) x FULL JOIN (SELECT grp, max(id) AS m FROM obs WHERE id > 15 GROUP BY grp) y ON x.grp = y.grp;

-- name: j002_full_outer_join_nonequi
-- error 0A000
SELECT a.id, b.id FROM (SELECT id FROM obs WHERE id < 5) a FULL OUTER JOIN (SELECT id FROM obs WHERE id > 36) b ON a.id * 10 = b.id OR a.id + 37 = b.id;

-- name: j004_full_join_equality_and_more
SELECT a.id, b.id FROM (SELECT id FROM obs WHERE id < 8) a FULL JOIN (SELECT id FROM obs WHERE id > 3 AND id < 12) b ON a.id = b.id AND b.id % 2 = 0;

-- name: j003_full_join_aggregate
SELECT count(*), count(x.l_linenumber), count(y.id) FROM (SELECT DISTINCT l_linenumber FROM lineitem) x FULL JOIN (SELECT id FROM obs) y ON x.l_linenumber = y.id;

-- name: w101_like_operator
SELECT count(*) FROM lineitem WHERE l_shipmode ~~ 'A%' OR l_comment ~~ '%_\%%';

-- name: w102_not_like_operators
SELECT count(*) FROM lineitem WHERE l_shipmode !~~ 'A%' AND l_comment !~~* '%ZüRICH%' AND l_returnflag ~~* 'r';

-- name: s101_array_cat
SELECT array_to_string(NULL::text[] || ARRAY(SELECT grp FROM obs WHERE id < 4 ORDER BY id), ',') AS a, array_to_string('{x}' || ARRAY(SELECT note FROM obs WHERE id < 3 ORDER BY id), '|', '?') AS b;

-- name: b101_quoted_user_column
SELECT "user", upper("user") FROM (SELECT grp AS "user" FROM obs WHERE id < 4) s;

-- name: s102_concat_function_skips_nulls
SELECT id, concat(grp, '/', i, '/', flag, '/', code, '/', n, '/', ts, '/', d) FROM obs;

-- name: s103_concat_one_argument
SELECT concat(l_shipmode), concat(NULL::text), pg_catalog.concat(l_linenumber, l_returnflag) FROM lineitem WHERE l_orderkey < 40;

-- name: e115_concat_no_arguments
-- error 42883
SELECT concat();
