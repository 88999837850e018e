-- pgbench's custom script for cmd/gpusql's TestClients/pgbench: read-only
-- queries over the loaded lineitem table, with pgbench's variables as
-- parameters (in -M extended and -M prepared) or inlined (-M simple).
\set k random(1, 20000)
\set m random(1, 7)
SELECT count(*), sum(l_quantity) FROM lineitem WHERE l_orderkey <= :k;
SELECT l_orderkey, l_linenumber, l_shipmode FROM lineitem WHERE l_orderkey = :k ORDER BY l_linenumber;
SELECT l_returnflag, count(*) FROM lineitem WHERE l_linenumber = :m GROUP BY l_returnflag ORDER BY 1;
