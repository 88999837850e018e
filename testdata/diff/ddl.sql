-- Writes: CREATE TABLE ... AS, SELECT ... INTO, INSERT, views, TRUNCATE,
-- ALTER TABLE ... RENAME and temporary tables. Every entry runs on a
-- connection of its own (-- session) and writes only temporary tables
-- and views, which end with it (see README.md).

-- name: wr001_ctas_aggregate
-- session
CREATE TEMP TABLE flags AS
  SELECT l_returnflag, l_linestatus, count(*) AS n, sum(l_quantity) AS qty, min(l_shipdate) AS first
    FROM lineitem GROUP BY l_returnflag, l_linestatus;
SELECT * FROM flags ORDER BY 1, 2;
SELECT a.attname::text, format_type(a.atttypid, a.atttypmod), a.attnotnull
  FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
  WHERE c.relname = 'flags' AND a.attnum > 0 ORDER BY a.attnum;

-- name: wr002_ctas_column_list_and_types
-- session
CREATE TEMP TABLE t (a, b) AS
  SELECT id, s, 'lit' AS c, NULL AS d, n, code, note, ts::date AS day, r * 2 AS r2, flag
    FROM obs WHERE id <= 10;
SELECT * FROM t ORDER BY a;
SELECT a.attname::text, format_type(a.atttypid, a.atttypmod)
  FROM pg_attribute a WHERE a.attrelid = 't'::regclass AND a.attnum > 0 ORDER BY a.attnum;

-- name: wr003_ctas_with_no_data
-- session
CREATE TEMP TABLE empty AS SELECT l_orderkey, l_comment FROM lineitem WITH NO DATA;
SELECT count(*) FROM empty;
INSERT INTO empty SELECT l_orderkey, l_comment FROM lineitem WHERE l_orderkey < 40;
SELECT count(*), count(l_comment), sum(l_orderkey) FROM empty;

-- name: wr004_select_into
-- session
SELECT l_shipmode, count(*) AS n INTO TEMP TABLE modes FROM lineitem GROUP BY l_shipmode;
SELECT * FROM modes ORDER BY l_shipmode NULLS FIRST;

-- name: wr005_ctas_if_not_exists
-- session
CREATE TEMP TABLE x AS SELECT 1 AS a;
CREATE TEMP TABLE IF NOT EXISTS x AS SELECT 2 AS a;
SELECT * FROM x;

-- name: wr006_ctas_exists
-- error 42P07
-- session
CREATE TEMP TABLE x AS SELECT 1 AS a;
CREATE TEMP TABLE x AS SELECT 2 AS a;

-- name: wr007_ctas_duplicate_column
-- error 42701
-- session
CREATE TEMP TABLE x AS SELECT 1, 2;

-- name: wr008_ctas_too_many_names
-- error 42601
-- session
CREATE TEMP TABLE x (a, b, c) AS SELECT 1, 2;

-- name: wr009_ctas_failing_query
-- error 22012
-- session
CREATE TEMP TABLE x AS SELECT id / (id - id) FROM obs;

-- name: wr010_ctas_from_join
-- session
CREATE TEMP TABLE j AS
  SELECT ja.id, ja.s, jb.kn, jc.name FROM ja JOIN jb ON ja.k = jb.k LEFT JOIN jc ON jc.k = ja.k;
SELECT * FROM j ORDER BY id, kn NULLS FIRST, name NULLS FIRST;

-- name: wr011_insert_values
-- session
CREATE TEMP TABLE t (i int, s varchar(5), n numeric(6,2), d date, b boolean, c char(3));
INSERT INTO t VALUES (1, 'a', 1.005, '2024-02-29', true, 'x'), (2, DEFAULT, '2.5', DEFAULT, 'f', NULL);
INSERT INTO t (c, i) VALUES ('yz', 3.5), ('  ', '4');
INSERT INTO t VALUES (5);
INSERT INTO t (s) VALUES ('abc  '), ('abcde   ');
SELECT i, s, length(s), n, d, b, c, c || '|' FROM t ORDER BY i NULLS LAST, s;

-- name: wr012_insert_default_values
-- session
CREATE TEMP TABLE t (i int, s text);
INSERT INTO t DEFAULT VALUES;
INSERT INTO t DEFAULT VALUES;
SELECT count(*), count(i), count(s) FROM t;

-- name: wr013_insert_select
-- session
CREATE TEMP TABLE t (k bigint, qty numeric(12,2), mode varchar(10), shipped date);
INSERT INTO t SELECT l_orderkey, l_quantity, l_shipmode, l_shipdate FROM lineitem WHERE l_orderkey % 100 = 7;
INSERT INTO t (k, mode) SELECT id, grp FROM obs WHERE grp IS NOT NULL;
INSERT INTO t SELECT * FROM t WHERE k < 1000;
SELECT count(*), count(qty), sum(qty), count(DISTINCT mode), min(shipped), max(k) FROM t;

-- name: wr014_insert_assignment_casts
-- session
CREATE TEMP TABLE t (a smallint, b bigint, c real, d double precision, e numeric(8,3), f text, g timestamp, h date);
INSERT INTO t SELECT s, i, d, r, d, d, ts, ts FROM obs;
INSERT INTO t (f) SELECT flag FROM obs;
INSERT INTO t (f, e) VALUES (1.5, 2), (DATE '2024-01-01', 7 / 2);
SELECT * FROM t ORDER BY a NULLS LAST, f NULLS LAST;

-- name: wr014b_insert_rounding
-- session
CREATE TEMP TABLE t (i int, s smallint, n numeric(4,1));
INSERT INTO t VALUES (2.5, 3.5, 0.05), (-2.5, -0.5, -0.05), (1.4999, 2.5::float8, 999.94);
SELECT * FROM t ORDER BY i;

-- name: wr015_insert_too_long
-- error 22001
-- session
CREATE TEMP TABLE t (s varchar(3));
INSERT INTO t VALUES ('abcd');

-- name: wr016_insert_too_long_select
-- error 22001
-- session
CREATE TEMP TABLE t (s char(2));
INSERT INTO t SELECT l_shipmode FROM lineitem;

-- name: wr017_insert_number_too_long_for_varchar
-- error 22001
-- session
CREATE TEMP TABLE t (s varchar(2));
INSERT INTO t VALUES (123);

-- name: wr018_insert_out_of_range
-- error 22003
-- session
CREATE TEMP TABLE t (s smallint);
INSERT INTO t SELECT i FROM obs;

-- name: wr019_insert_numeric_overflow
-- error 22003
-- session
CREATE TEMP TABLE t (n numeric(3,1));
INSERT INTO t VALUES (99.96);

-- name: wr020_insert_not_null
-- error 23502
-- session
CREATE TEMP TABLE t (a int NOT NULL, b text);
INSERT INTO t (b) VALUES ('x');

-- name: wr021_insert_not_null_select
-- error 23502
-- session
CREATE TEMP TABLE t (a int NOT NULL, b text);
INSERT INTO t SELECT s, grp FROM obs;

-- name: wr022_insert_wrong_type
-- error 42804
-- session
CREATE TEMP TABLE t (a int);
INSERT INTO t SELECT grp FROM obs;

-- name: wr023_insert_bool_to_int
-- error 42804
-- session
CREATE TEMP TABLE t (a int);
INSERT INTO t VALUES (true);

-- name: wr024_insert_bad_literal
-- error 22P02
-- session
CREATE TEMP TABLE t (a int);
INSERT INTO t VALUES ('x');

-- name: wr025_insert_too_many_expressions
-- error 42601
-- session
CREATE TEMP TABLE t (a int);
INSERT INTO t VALUES (1, 2);

-- name: wr026_insert_too_many_columns
-- error 42601
-- session
CREATE TEMP TABLE t (a int, b int);
INSERT INTO t (a, b) SELECT 1;

-- name: wr027_insert_unknown_column
-- error 42703
-- session
CREATE TEMP TABLE t (a int);
INSERT INTO t (b) VALUES (1);

-- name: wr028_insert_duplicate_column
-- error 42701
-- session
CREATE TEMP TABLE t (a int);
INSERT INTO t (a, a) VALUES (1, 2);

-- name: wr029_insert_no_table
-- error 42P01
-- session
INSERT INTO no_such_table VALUES (1);

-- name: wr030_failed_insert_changes_nothing
-- session
CREATE TEMP TABLE t (a smallint);
INSERT INTO t VALUES (1), (2);
SELECT count(*), sum(a) FROM t;

-- name: wr031_values_rows_typed_alone
-- session
CREATE TEMP TABLE t (a numeric(5,2), b text);
INSERT INTO t VALUES (1, 'x'), (2.5, 'y'), ('3.25', 'z'), (NULL, NULL);
SELECT * FROM t ORDER BY a NULLS FIRST;

-- name: wr032_view
-- session
CREATE TEMP VIEW busy AS
  SELECT l_shipmode, count(*) AS n FROM lineitem WHERE l_quantity > 25 GROUP BY l_shipmode;
SELECT * FROM busy ORDER BY n DESC, l_shipmode NULLS FIRST;
SELECT b.l_shipmode, b.n, count(*) FROM busy b JOIN lineitem l ON l.l_shipmode = b.l_shipmode GROUP BY 1, 2 ORDER BY 1;

-- name: wr033_view_column_names
-- session
CREATE TEMP VIEW v (key, label) AS SELECT id, grp, note FROM obs;
SELECT key, label, note FROM v WHERE key < 5 ORDER BY key;
SELECT a.attname::text FROM pg_attribute a WHERE a.attrelid = 'v'::regclass ORDER BY a.attnum;

-- name: wr034_view_sees_inserts
-- session
CREATE TEMP TABLE t (a int);
CREATE TEMP VIEW v AS SELECT count(*) AS n, sum(a) AS s FROM t;
SELECT * FROM v;
INSERT INTO t VALUES (1), (2), (3);
SELECT * FROM v;
TRUNCATE t;
SELECT * FROM v;

-- name: wr035_view_of_view
-- session
CREATE TEMP VIEW v1 AS SELECT id, s FROM ja WHERE k IS NOT NULL;
CREATE TEMP VIEW v2 AS SELECT v1.id, v1.s, jb.w FROM v1 JOIN jb ON jb.id = v1.id;
SELECT * FROM v2 ORDER BY id;

-- name: wr036_view_hides_outer_cte
-- session
CREATE TEMP VIEW v AS SELECT count(*) AS n FROM ja;
WITH ja AS (SELECT 1 AS id) SELECT n, (SELECT count(*) FROM ja) FROM v;

-- name: wr037_view_catalogs
-- session
CREATE TEMP VIEW v AS SELECT id, k FROM ja;
SELECT c.relkind::text, c.relpersistence::text, (SELECT count(*) FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0)
  FROM pg_class c WHERE c.relname = 'v' AND pg_table_is_visible(c.oid);
SELECT viewname::text FROM pg_views WHERE viewname = 'v';
SELECT table_name::text, table_type::text FROM information_schema.tables WHERE table_name = 'v';
SELECT table_name::text, check_option::text FROM information_schema.views WHERE table_name = 'v';

-- name: wr038_replace_view
-- session
CREATE TEMP VIEW v AS SELECT id FROM ja;
CREATE OR REPLACE TEMP VIEW v AS SELECT id, s FROM ja WHERE id > 5;
SELECT * FROM v ORDER BY id;

-- name: wr039_replace_view_drops_column
-- error 42P16
-- session
CREATE TEMP VIEW v AS SELECT id, s FROM ja;
CREATE OR REPLACE TEMP VIEW v AS SELECT id FROM ja;

-- name: wr040_replace_view_renames_column
-- error 42P16
-- session
CREATE TEMP VIEW v AS SELECT id FROM ja;
CREATE OR REPLACE TEMP VIEW v AS SELECT k FROM ja;

-- name: wr041_replace_view_retypes_column
-- error 42P16
-- session
CREATE TEMP VIEW v AS SELECT id FROM ja;
CREATE OR REPLACE TEMP VIEW v AS SELECT id::bigint AS id FROM ja;

-- name: wr042_drop_table_with_view
-- error 2BP01
-- session
CREATE TEMP TABLE t AS SELECT 1 AS a;
CREATE TEMP VIEW v AS SELECT a FROM t;
DROP TABLE t;

-- name: wr043_drop_cascade
-- session
CREATE TEMP TABLE t AS SELECT 1 AS a;
CREATE TEMP VIEW v AS SELECT a FROM t;
CREATE TEMP VIEW w AS SELECT a FROM v;
DROP TABLE t CASCADE;
SELECT count(*) FROM pg_class WHERE relname IN ('t', 'v', 'w');

-- name: wr044_drop_view_of_table
-- error 42809
-- session
CREATE TEMP TABLE t AS SELECT 1 AS a;
DROP VIEW t;

-- name: wr045_drop_table_of_view
-- error 42809
-- session
CREATE TEMP VIEW v AS SELECT 1 AS a;
DROP TABLE v;

-- name: wr046_drop_view_if_exists
-- session
DROP VIEW IF EXISTS no_such_view;
CREATE TEMP VIEW v AS SELECT 1 AS a;
DROP VIEW IF EXISTS v, no_such_view;
SELECT count(*) FROM pg_class WHERE relname = 'v' AND pg_table_is_visible(oid);

-- name: wr047_view_insert
-- PostgreSQL inserts through a simple view; gpusql refuses
-- gpusql-error 0A000
-- session
CREATE TEMP TABLE t AS SELECT 1 AS a;
CREATE TEMP VIEW v AS SELECT a FROM t;
INSERT INTO v VALUES (2);

-- name: wr048_truncate
-- session
CREATE TEMP TABLE t AS SELECT * FROM obs;
CREATE TEMP TABLE u AS SELECT * FROM ja;
TRUNCATE t, u;
SELECT (SELECT count(*) FROM t), (SELECT count(*) FROM u);
INSERT INTO t (id) VALUES (1);
SELECT id FROM t;

-- name: wr049_truncate_view
-- error 42809
-- session
CREATE TEMP VIEW v AS SELECT 1 AS a;
TRUNCATE v;

-- name: wr050_rename_table
-- session
CREATE TEMP TABLE t AS SELECT id, grp FROM obs WHERE id < 4;
CREATE TEMP VIEW v AS SELECT count(*) AS n FROM t;
ALTER TABLE t RENAME TO u;
SELECT * FROM v;
DROP VIEW v;
ALTER TABLE u RENAME COLUMN grp TO g;
SELECT id, g FROM u ORDER BY id;

-- name: wr050b_rename_column_a_view_reads
-- PostgreSQL renames it (views read columns by number); gpusql keeps a
-- view's query as text and refuses
-- gpusql-error 0A000
-- session
CREATE TEMP TABLE t AS SELECT id, grp FROM obs WHERE id < 4;
CREATE TEMP VIEW v AS SELECT count(*) AS n FROM t;
ALTER TABLE t RENAME COLUMN grp TO g;

-- name: wr051_renamed_table_gone
-- error 42P01
-- session
CREATE TEMP TABLE t AS SELECT 1 AS a;
ALTER TABLE t RENAME TO u;
SELECT * FROM t;

-- name: wr052_rename_column_exists
-- error 42701
-- session
CREATE TEMP TABLE t AS SELECT 1 AS a, 2 AS b;
ALTER TABLE t RENAME COLUMN a TO b;

-- name: wr053_rename_if_exists
-- session
ALTER TABLE IF EXISTS no_such_table RENAME TO other;
SELECT 1;

-- name: wr054_temp_table_hides_table
-- session
CREATE TEMP TABLE jd (region int);
INSERT INTO jd VALUES (42);
SELECT * FROM jd;
SELECT count(*) FROM public.jd;
DROP TABLE jd;
SELECT count(*) FROM jd;

-- name: wr055_temp_table_catalogs
-- session
CREATE TEMP TABLE t (a int NOT NULL, b varchar(7));
SELECT c.relkind::text, c.relpersistence::text, n.nspname LIKE 'pg_temp%', pg_table_is_visible(c.oid)
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relname = 't' AND pg_table_is_visible(c.oid);
SELECT table_type::text, table_schema LIKE 'pg_temp%' FROM information_schema.tables WHERE table_name = 't';
SELECT column_name::text, data_type::text, character_maximum_length, is_nullable::text FROM information_schema.columns
  WHERE table_name = 't' ORDER BY ordinal_position;

-- name: wr056_view_of_temp_table_is_temp
-- session
CREATE TEMP TABLE t AS SELECT 1 AS a;
CREATE VIEW v AS SELECT a FROM t;
SELECT c.relpersistence::text FROM pg_class c WHERE c.relname = 'v' AND pg_table_is_visible(c.oid);

-- name: wr056b_pg_temp_qualified_names
-- session
CREATE TABLE pg_temp.q AS SELECT 1 AS a;
INSERT INTO pg_temp.q VALUES (2);
CREATE VIEW pg_temp.qv AS SELECT a * 10 AS b FROM q;
SELECT c.relname::text, c.relkind::text, c.relpersistence::text, n.nspname LIKE 'pg_temp%'
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relname IN ('q', 'qv') ORDER BY 1;
SELECT a, b FROM pg_temp.q JOIN qv ON b = a * 10 ORDER BY a;
TRUNCATE pg_temp.q;
SELECT count(*) FROM q;
DROP VIEW pg_temp.qv;
DROP TABLE pg_temp.q;

-- name: wr056c_temp_table_in_public
-- error 42P16
-- session
CREATE TEMP TABLE public.q (a int);

-- name: wr056d_database_qualified_names
-- dbt's names: database.schema.relation, the current database only
-- session
CREATE TEMP TABLE m AS (SELECT l_orderkey, l_quantity FROM "postgres"."public"."lineitem" WHERE l_orderkey < 10);
INSERT INTO postgres.pg_temp.m SELECT l_orderkey, l_quantity FROM postgres.public.lineitem WHERE l_orderkey BETWEEN 10 AND 20;
SELECT count(*), sum(l_quantity) FROM postgres.pg_temp.m x JOIN postgres.public.lineitem y USING (l_orderkey, l_quantity);

-- name: wr056e_other_database
-- error 0A000
SELECT count(*) FROM elsewhere.public.lineitem;

-- name: wr057_update
-- PostgreSQL updates; gpusql refuses UPDATE, DELETE and MERGE
-- gpusql-error 0A000
-- session
CREATE TEMP TABLE t AS SELECT 1 AS a;
UPDATE t SET a = 2;

-- name: wr058_delete
-- gpusql-error 0A000
-- session
CREATE TEMP TABLE t AS SELECT 1 AS a;
DELETE FROM t WHERE a = 1;
