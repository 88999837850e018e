-- client: psycopg2 2.9.5 (dt dec pq3 ext lo64) (Debian python3-psycopg2)
-- action: cursor
-- captured: scripts/clients/capture.sh, from the log (log_statement=all) of postgres (PostgreSQL) 15.20 (Debian 15.20-0+deb12u1)
--   serving the lineitem table of scripts/clients/capture/schema.sql; OIDs in
--   the statements are that server's, not gpusql's.

-- statement 1 (simple query)
BEGIN;

-- statement 2 (simple query)
DECLARE "big" CURSOR WITHOUT HOLD FOR SELECT l_orderkey FROM lineitem ORDER BY l_orderkey;

-- statement 3 (simple query)
FETCH FORWARD 2 FROM "big";

-- statement 4 (simple query)
FETCH FORWARD 2 FROM "big";

-- statement 5 (simple query)
FETCH FORWARD 2 FROM "big";

-- statement 6 (simple query)
CLOSE "big";

-- statement 7 (simple query)
COMMIT;

