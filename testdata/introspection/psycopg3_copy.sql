-- client: psycopg 3.1.7 (Debian python3-psycopg)
-- action: copy
-- captured: scripts/clients/capture.sh, from the log (log_statement=all) of postgres (PostgreSQL) 15.20 (Debian 15.20-0+deb12u1)
--   serving the lineitem table of scripts/clients/capture/schema.sql; OIDs in
--   the statements are that server's, not gpusql's.

-- statement 1 (extended protocol: execute <unnamed>)
BEGIN;

-- statement 2 (simple query)
COPY lineitem TO STDOUT WITH (FORMAT csv);

-- statement 3 (extended protocol: execute <unnamed>)
COMMIT;

