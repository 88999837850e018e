-- client: node-postgres 8.11.3, node v20.20.2
-- action: query
-- captured: scripts/clients/capture.sh, from the log (log_statement=all) of postgres (PostgreSQL) 15.20 (Debian 15.20-0+deb12u1)
--   serving the lineitem table of scripts/clients/capture/schema.sql; OIDs in
--   the statements are that server's, not gpusql's.

-- statement 1 (extended protocol: execute <unnamed>)
-- parameters: $1 = '1', $2 = 'AIR'
SELECT l_orderkey, l_shipmode FROM lineitem WHERE l_orderkey > $1 AND l_shipmode = $2;

