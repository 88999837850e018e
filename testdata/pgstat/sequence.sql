-- Statements whose effect on pg_stat_user_tables the tests know exactly:
-- query/tablestats_test.go checks gpusql's counts after them, and
-- cmd/gpusql's TestPgStatUserTablesVsPostgres runs them on PostgreSQL 15
-- and gpusql and compares. One statement a line, each its own Query
-- message; lines starting with -- are comments.
CREATE TABLE t (a int, b text)
INSERT INTO t VALUES (1, 'x'), (2, 'y'), (3, 'z')
SELECT count(*) FROM t
SELECT * FROM t WHERE a > 1
-- rolled back: the rows count in n_tup_ins, not in n_mod_since_analyze
BEGIN
INSERT INTO t VALUES (4, 'w'), (5, 'v')
ROLLBACK
-- a TRUNCATE discards its block's counts of the rows inserted before it
BEGIN
INSERT INTO t VALUES (6, 'u')
TRUNCATE t
INSERT INTO t VALUES (7, 'q')
COMMIT
SELECT * FROM t t1 JOIN t t2 ON t1.a = t2.a
CREATE TABLE e (a int)
SELECT * FROM e
CREATE TABLE c AS SELECT * FROM t
SELECT * FROM t ORDER BY a LIMIT 1
-- a rename keeps the counts
ALTER TABLE c RENAME TO c2
SELECT * FROM c2
-- EXPLAIN without ANALYZE runs nothing
EXPLAIN SELECT * FROM c2
-- a rolled-back block forgets the rows it inserted after a TRUNCATE
BEGIN
INSERT INTO t VALUES (8, 'p')
TRUNCATE t
INSERT INTO t VALUES (9, 'o'), (10, 'n')
ROLLBACK
-- rows inserted and rolled back to a savepoint count in n_tup_ins
BEGIN
INSERT INTO e VALUES (1)
SAVEPOINT a
INSERT INTO e VALUES (2), (3)
ROLLBACK TO SAVEPOINT a
SELECT count(*) FROM e
-- as do those a rolled-back savepoint inserted before its TRUNCATE, not after
SAVEPOINT b
INSERT INTO e VALUES (4)
TRUNCATE e
INSERT INTO e VALUES (5), (6)
ROLLBACK TO SAVEPOINT b
COMMIT
