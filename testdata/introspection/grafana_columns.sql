-- client: Grafana (PostgreSQL data source)
-- action: columns (the columns of table lineitem)
-- source: not captured (Grafana cannot run here). Taken from Grafana's public
--   source, github.com/grafana/grafana,
--   public/app/plugins/datasource/grafana-postgresql-datasource/postgresMetaQuery.ts
--   (the SQL query builder's metadata queries); Grafana's backend sends them
--   through lib/pq without parameters (simple queries).

-- statement 1 (simple query)
SELECT quote_ident(column_name) AS "column", data_type AS "type"
    FROM information_schema.columns
    WHERE
      CASE WHEN array_length(parse_ident('lineitem'),1) = 2
        THEN quote_ident(table_schema) = (parse_ident('lineitem'))[1]
          AND quote_ident(table_name) = (parse_ident('lineitem'))[2]
        ELSE quote_ident(table_name) = 'lineitem'
          AND quote_ident(table_schema) IN (
          SELECT
            CASE WHEN trim(s[i]) = '"$user"' THEN user ELSE trim(s[i]) END
          FROM
            generate_series(
              array_lower(string_to_array(current_setting('search_path'),','),1),
              array_upper(string_to_array(current_setting('search_path'),','),1)
            ) as i,
            string_to_array(current_setting('search_path'),',') s
          )
      END;
