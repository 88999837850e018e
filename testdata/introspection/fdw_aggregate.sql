-- client: postgres_fdw of postgres (PostgreSQL) 15.20 (Debian 15.20-0+deb12u1) (what the remote server receives)
-- action: aggregate
-- captured: scripts/clients/capture.sh, from the log (log_statement=all) of postgres (PostgreSQL) 15.20 (Debian 15.20-0+deb12u1)
--   serving the lineitem table of scripts/clients/capture/schema.sql; OIDs in
--   the statements are that server's, not gpusql's.

-- statement 1 (simple query)
SET search_path = pg_catalog;

-- statement 2 (simple query)
SET timezone = 'GMT';

-- statement 3 (simple query)
SET datestyle = ISO;

-- statement 4 (simple query)
SET intervalstyle = postgres;

-- statement 5 (simple query)
SET extra_float_digits = 3;

-- statement 6 (simple query)
START TRANSACTION ISOLATION LEVEL REPEATABLE READ;

-- statement 7 (simple query)
SELECT 1 FROM pg_catalog.pg_namespace WHERE nspname = 'public';

-- statement 8 (simple query)
SELECT relname,   attname,   format_type(atttypid, atttypmod),   attnotnull,   pg_get_expr(adbin, adrelid),   attgenerated,   collname,   collnsp.nspname FROM pg_class c   JOIN pg_namespace n ON     relnamespace = n.oid   LEFT JOIN pg_attribute a ON     attrelid = c.oid AND attnum > 0       AND NOT attisdropped   LEFT JOIN pg_attrdef ad ON     adrelid = c.oid AND adnum = attnum   LEFT JOIN pg_collation coll ON     coll.oid = attcollation   LEFT JOIN pg_namespace collnsp ON     collnsp.oid = collnamespace WHERE c.relkind IN ('r','v','f','m','p')   AND n.nspname = 'public' AND NOT c.relispartition  ORDER BY c.relname, a.attnum;

-- statement 9 (simple query)
COMMIT TRANSACTION;

-- statement 10 (simple query)
START TRANSACTION ISOLATION LEVEL REPEATABLE READ;

-- statement 11 (extended protocol: execute <unnamed>)
DECLARE c1 CURSOR FOR
SELECT l_returnflag, l_linestatus, count(*), sum(l_quantity), avg(l_extendedprice) FROM public.lineitem WHERE ((l_shipdate <= '1998-09-02')) GROUP BY 1, 2 ORDER BY l_returnflag ASC NULLS LAST, l_linestatus ASC NULLS LAST;

-- statement 12 (simple query)
FETCH 100 FROM c1;

-- statement 13 (simple query)
CLOSE c1;

-- statement 14 (simple query)
COMMIT TRANSACTION;

