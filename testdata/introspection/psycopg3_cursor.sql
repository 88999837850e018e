-- client: psycopg 3.1.7 (Debian python3-psycopg)
-- action: cursor
-- captured: scripts/clients/capture.sh, from the log (log_statement=all) of postgres (PostgreSQL) 15.20 (Debian 15.20-0+deb12u1)
--   serving the lineitem table of scripts/clients/capture/schema.sql; OIDs in
--   the statements are that server's, not gpusql's.

-- statement 1 (extended protocol: execute <unnamed>)
BEGIN;

-- statement 2 (extended protocol: execute <unnamed>)
DECLARE "big" CURSOR FOR SELECT l_orderkey FROM lineitem ORDER BY l_orderkey;

-- statement 3 (extended protocol: execute <unnamed>)
FETCH FORWARD 2 FROM "big";

-- statement 4 (extended protocol: execute <unnamed>)
FETCH FORWARD 2 FROM "big";

-- statement 5 (extended protocol: execute <unnamed>)
CLOSE "big";

-- statement 6 (extended protocol: execute <unnamed>)
COMMIT;

