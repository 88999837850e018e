-- client: DBeaver 24.2 (PostgreSQL driver, through pgJDBC)
-- action: tables (expand schema public in the navigator: its tables and
--   views, then the columns of all of them at once)
-- source: not captured (DBeaver cannot run here). Taken from DBeaver's
--   public source, github.com/dbeaver/dbeaver (commit 2428359b, October
--   2024), plugins/org.jkiss.dbeaver.ext.postgresql, PostgreSchema.TableCache
--   (prepareLookupStatement for a PostgreSQL 10 or later server, and
--   prepareChildrenStatement for the whole schema, with sequences
--   supported). $1 is the OID of schema public (2200 in both servers).

-- statement 1 (extended protocol: pgJDBC prepared statement)
-- parameters: $1 = '2200'
SELECT c.oid,c.*,d.description,pg_catalog.pg_get_expr(c.relpartbound, c.oid) as partition_expr,  pg_catalog.pg_get_partkeydef(c.oid) as partition_key 
FROM pg_catalog.pg_class c
LEFT OUTER JOIN pg_catalog.pg_description d ON d.objoid=c.oid AND d.objsubid=0 AND d.classoid='pg_class'::regclass
WHERE c.relnamespace=$1 AND c.relkind not in ('i','I','c');

-- statement 2 (extended protocol: pgJDBC prepared statement)
-- parameters: $1 = '2200'
SELECT c.relname,a.*,pg_catalog.pg_get_expr(ad.adbin, ad.adrelid, true) as def_value,dsc.description,dep.objid
FROM pg_catalog.pg_attribute a
INNER JOIN pg_catalog.pg_class c ON (a.attrelid=c.oid)
LEFT OUTER JOIN pg_catalog.pg_attrdef ad ON (a.attrelid=ad.adrelid AND a.attnum = ad.adnum)
LEFT OUTER JOIN pg_catalog.pg_description dsc ON (c.oid=dsc.objoid AND a.attnum = dsc.objsubid)
LEFT OUTER JOIN pg_depend dep on dep.refobjid = a.attrelid AND dep.deptype = 'i' and dep.refobjsubid = a.attnum and dep.classid = dep.refclassid
WHERE NOT a.attisdropped AND c.relkind not in ('i','I','c') AND c.relnamespace=$1
ORDER BY a.attnum;
