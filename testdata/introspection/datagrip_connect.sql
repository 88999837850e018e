-- client: DataGrip 2025.2.3 (PostgreSQL driver, through pgJDBC)
-- action: connect (the statements DataGrip sends on each of its two
--   connections before its introspection)
-- source: not captured (DataGrip cannot run here, and its introspector is
--   not open source). Taken from a PostgreSQL server log of DataGrip
--   2025.2.3 connecting, published in the issue tracker of
--   datafusion-contrib/datafusion-postgres (issue 165, "Jetbrains datagrip
--   startup queries", September 2025); the SETs, which every client's
--   settings tests cover, left out, and each statement once. The
--   introspection queries that follow in that log (pg_catalog reads with
--   DataGrip's own SQL) could not be retrieved and are not here.

-- statement 1 (extended protocol: pgJDBC Statement)
select version();

-- statement 2 (extended protocol: pgJDBC Statement)
select current_database() as a, current_schemas(false) as b;

-- statement 3 (extended protocol: pgJDBC Statement)
SHOW TRANSACTION ISOLATION LEVEL;

-- statement 4 (extended protocol: pgJDBC Statement)
select current_database(), current_schema(), current_user;
