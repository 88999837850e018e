-- client: psycopg2 2.9.5 (dt dec pq3 ext lo64) (Debian python3-psycopg2)
-- action: query
-- captured: scripts/clients/capture.sh, from the log (log_statement=all) of postgres (PostgreSQL) 15.20 (Debian 15.20-0+deb12u1)
--   serving the lineitem table of scripts/clients/capture/schema.sql; OIDs in
--   the statements are that server's, not gpusql's.

-- statement 1 (simple query)
BEGIN;

-- statement 2 (simple query)
SELECT l_orderkey, l_shipmode FROM lineitem WHERE l_orderkey > 1 AND l_shipmode = 'AIR' AND l_shipdate < '1998-01-01';

-- statement 3 (simple query)
COMMIT;

