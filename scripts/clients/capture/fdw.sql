-- postgres_fdw actions for the introspection capture, run in a second
-- database of the capture server; the "remote" is the capture database
-- itself, reached over TCP with an application_name per action.
CREATE EXTENSION postgres_fdw;
CREATE SERVER cap_import FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host :'host', port :'port', dbname 'postgres', application_name 'cap_fdw_import');
CREATE USER MAPPING FOR CURRENT_USER SERVER cap_import OPTIONS (user 'postgres');
CREATE SCHEMA imp;
IMPORT FOREIGN SCHEMA public FROM SERVER cap_import INTO imp;
CREATE SERVER cap_where FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host :'host', port :'port', dbname 'postgres', application_name 'cap_fdw_where');
CREATE USER MAPPING FOR CURRENT_USER SERVER cap_where OPTIONS (user 'postgres');
CREATE SCHEMA w;
IMPORT FOREIGN SCHEMA public FROM SERVER cap_where INTO w;
EXPLAIN VERBOSE SELECT l_orderkey, l_shipmode FROM w.lineitem WHERE l_shipdate >= DATE '1995-01-01' AND l_quantity > 10;
SELECT l_orderkey, l_shipmode FROM w.lineitem WHERE l_shipdate >= DATE '1995-01-01' AND l_quantity > 10;
CREATE SERVER cap_agg FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host :'host', port :'port', dbname 'postgres', application_name 'cap_fdw_aggregate');
CREATE USER MAPPING FOR CURRENT_USER SERVER cap_agg OPTIONS (user 'postgres');
CREATE SCHEMA a;
IMPORT FOREIGN SCHEMA public FROM SERVER cap_agg INTO a;
EXPLAIN VERBOSE SELECT l_returnflag, l_linestatus, count(*), sum(l_quantity), avg(l_extendedprice) FROM a.lineitem WHERE l_shipdate <= DATE '1998-09-02' GROUP BY l_returnflag, l_linestatus ORDER BY 1, 2;
SELECT l_returnflag, l_linestatus, count(*), sum(l_quantity), avg(l_extendedprice) FROM a.lineitem WHERE l_shipdate <= DATE '1998-09-02' GROUP BY l_returnflag, l_linestatus ORDER BY 1, 2;
