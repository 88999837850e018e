-- client: Metabase (PostgreSQL driver, through pgJDBC)
-- action: connect (test connection, read the server's time zone)
-- source: not captured (Metabase cannot run here). Taken from Metabase's
--   public source, github.com/metabase/metabase: the sql-jdbc driver's
--   connection test runs SELECT 1; src/metabase/driver/postgres.clj
--   (driver/db-default-timezone) prepares "show timezone;". pgJDBC itself
--   sends no SQL when it connects (jdbc_connect captured nothing).

-- statement 1 (extended protocol: pgJDBC prepared statement)
SELECT 1;

-- statement 2 (extended protocol: pgJDBC prepared statement)
show timezone;
