-- client: Metabase (PostgreSQL driver, through pgJDBC)
-- action: tables (sync: list schemas, table privileges, list tables)
-- source: not captured (Metabase cannot run here). Rendered by hand from
--   Metabase's public source, github.com/metabase/metabase,
--   src/metabase/driver/postgres.clj: the honeysql of get-tables-sql (with
--   the schema filter for "public"; honeysql sends string values as
--   parameters) and the text of current-user-table-privileges. The list of
--   syncable schemas comes from pgJDBC's DatabaseMetaData.getSchemas, whose
--   query is jdbc_getschemas.sql.

-- statement 1 (extended protocol: pgJDBC prepared statement)
with table_privileges as (
 select
   NULL as role,
   t.schemaname as schema,
   t.objectname as table,
   pg_catalog.has_any_column_privilege(current_user, '"' || replace(t.schemaname, '"', '""') || '"' || '.' || '"' || replace(t.objectname, '"', '""') || '"',  'update') as update,
   pg_catalog.has_any_column_privilege(current_user, '"' || replace(t.schemaname, '"', '""') || '"' || '.' || '"' || replace(t.objectname, '"', '""') || '"',  'select') as select,
   pg_catalog.has_any_column_privilege(current_user, '"' || replace(t.schemaname, '"', '""') || '"' || '.' || '"' || replace(t.objectname, '"', '""') || '"',  'insert') as insert,
   pg_catalog.has_table_privilege(     current_user, '"' || replace(t.schemaname, '"', '""') || '"' || '.' || '"' || replace(t.objectname, '"', '""') || '"',  'delete') as delete
 from (
   select schemaname, tablename as objectname from pg_catalog.pg_tables
   union
   select schemaname, viewname as objectname from pg_catalog.pg_views
   union
   select schemaname, matviewname as objectname from pg_catalog.pg_matviews
 ) t
 where t.schemaname !~ '^pg_'
   and t.schemaname <> 'information_schema'
   and pg_catalog.has_schema_privilege(current_user, t.schemaname, 'usage')
)
select t.*
from table_privileges t;

-- statement 2 (extended protocol: pgJDBC prepared statement)
-- parameters: $1 = '^pg_', $2 = 'information_schema', $3 = 'public'
SELECT n.nspname AS schema, c.relname AS name, CASE c.relkind WHEN 'r' THEN 'TABLE' WHEN 'p' THEN 'PARTITIONED TABLE' WHEN 'v' THEN 'VIEW' WHEN 'f' THEN 'FOREIGN TABLE' WHEN 'm' THEN 'MATERIALIZED VIEW' ELSE NULL END AS type, d.description AS description, stat.n_live_tup AS estimated_row_count FROM pg_catalog.pg_class AS c INNER JOIN pg_catalog.pg_namespace AS n ON c.relnamespace = n.oid LEFT JOIN pg_catalog.pg_description AS d ON (c.oid = d.objoid) AND (d.objsubid = 0) AND (d.classoid = 'pg_class'::regclass) LEFT JOIN pg_stat_user_tables AS stat ON (n.nspname = stat.schemaname) AND (c.relname = stat.relname) WHERE (c.relnamespace = n.oid) AND (n.nspname !~ $1) AND (n.nspname <> $2) AND c.relkind in ('r', 'p', 'v', 'f', 'm') AND (n.nspname IN ($3)) ORDER BY type ASC, schema ASC, name ASC;
