-- client: Grafana (PostgreSQL data source)
-- action: connect (server version and TimescaleDB detection)
-- source: not captured (Grafana cannot run here). Taken from Grafana's public
--   source, github.com/grafana/grafana,
--   public/app/plugins/datasource/grafana-postgresql-datasource/postgresMetaQuery.ts
--   (the SQL query builder's metadata queries); Grafana's backend sends them
--   through lib/pq without parameters (simple queries).

-- statement 1 (simple query)
SELECT current_setting('server_version_num')::int/100 as version;

-- statement 2 (simple query)
SELECT extversion FROM pg_extension WHERE extname = 'timescaledb';
