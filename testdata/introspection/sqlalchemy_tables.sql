-- client: SQLAlchemy 1.4.46 (Debian python3-sqlalchemy) with psycopg2
-- action: tables
-- captured: scripts/clients/capture.sh, from the log (log_statement=all) of postgres (PostgreSQL) 15.20 (Debian 15.20-0+deb12u1)
--   serving the lineitem table of scripts/clients/capture/schema.sql; OIDs in
--   the statements are that server's, not gpusql's.

-- statement 1 (simple query)
BEGIN;

-- statement 2 (simple query)
SELECT t.oid, typarray
FROM pg_type t JOIN pg_namespace ns
    ON typnamespace = ns.oid
WHERE typname = 'hstore';

-- statement 3 (simple query)
ROLLBACK;

-- statement 4 (simple query)
BEGIN;

-- statement 5 (simple query)
select pg_catalog.version();

-- statement 6 (simple query)
select current_schema();

-- statement 7 (simple query)
show transaction isolation level;

-- statement 8 (simple query)
show standard_conforming_strings;

-- statement 9 (simple query)
ROLLBACK;

-- statement 10 (simple query)
BEGIN;

-- statement 11 (simple query)
SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind in ('r', 'p');

-- statement 12 (simple query)
ROLLBACK;

