-- client: psql (PostgreSQL) 15.20 (Debian 15.20-0+deb12u1)
-- action: dn
-- captured: scripts/clients/capture.sh, from the log (log_statement=all) of postgres (PostgreSQL) 15.20 (Debian 15.20-0+deb12u1)
--   serving the lineitem table of scripts/clients/capture/schema.sql; OIDs in
--   the statements are that server's, not gpusql's.

-- statement 1 (simple query)
SELECT n.nspname AS "Name",
  pg_catalog.pg_get_userbyid(n.nspowner) AS "Owner"
FROM pg_catalog.pg_namespace n
WHERE n.nspname !~ '^pg_' AND n.nspname <> 'information_schema'
ORDER BY 1;

