-- client: DBeaver 24.2 (PostgreSQL driver, through pgJDBC)
-- action: columns (open table lineitem: its columns, constraints and
--   indexes)
-- source: not captured (DBeaver cannot run here). Taken from DBeaver's
--   public source, github.com/dbeaver/dbeaver (commit 2428359b, October
--   2024), plugins/org.jkiss.dbeaver.ext.postgresql, PostgreSchema:
--   TableCache.prepareChildrenStatement for one table, ConstraintCache and
--   IndexCache for one table (PostgreSQL server: constraint expressions,
--   expression indexes and relation sizes supported). $1 is lineitem's
--   OID (16384 when captured; the replay substitutes each server's).

-- statement 1 (extended protocol: pgJDBC prepared statement)
-- parameters: $1 = '16384'
SELECT c.relname,a.*,pg_catalog.pg_get_expr(ad.adbin, ad.adrelid, true) as def_value,dsc.description,dep.objid
FROM pg_catalog.pg_attribute a
INNER JOIN pg_catalog.pg_class c ON (a.attrelid=c.oid)
LEFT OUTER JOIN pg_catalog.pg_attrdef ad ON (a.attrelid=ad.adrelid AND a.attnum = ad.adnum)
LEFT OUTER JOIN pg_catalog.pg_description dsc ON (c.oid=dsc.objoid AND a.attnum = dsc.objsubid)
LEFT OUTER JOIN pg_depend dep on dep.refobjid = a.attrelid AND dep.deptype = 'i' and dep.refobjsubid = a.attnum and dep.classid = dep.refclassid
WHERE NOT a.attisdropped AND c.relkind not in ('i','I','c') AND c.oid=$1
ORDER BY a.attnum;

-- statement 2 (extended protocol: pgJDBC prepared statement)
-- parameters: $1 = '16384'
SELECT c.oid,c.*,t.relname as tabrelname,rt.relnamespace as refnamespace,d.description, case when c.contype='c' then "substring"(pg_get_constraintdef(c.oid), 7) else null end consrc_copy
FROM pg_catalog.pg_constraint c
INNER JOIN pg_catalog.pg_class t ON t.oid=c.conrelid
LEFT OUTER JOIN pg_catalog.pg_class rt ON rt.oid=c.confrelid
LEFT OUTER JOIN pg_catalog.pg_description d ON d.objoid=c.oid AND d.objsubid=0 AND d.classoid='pg_constraint'::regclass
WHERE c.conrelid=$1
ORDER BY c.oid;

-- statement 3 (extended protocol: pgJDBC prepared statement)
-- parameters: $1 = '16384'
SELECT i.*,i.indkey as keys,c.relname,c.relnamespace,c.relam,c.reltablespace,tc.relname as tabrelname,dsc.description,pg_catalog.pg_get_expr(i.indpred, i.indrelid) as pred_expr,pg_catalog.pg_get_expr(i.indexprs, i.indrelid, true) as expr,pg_catalog.pg_relation_size(i.indexrelid) as index_rel_size,pg_catalog.pg_stat_get_numscans(i.indexrelid) as index_num_scans
FROM pg_catalog.pg_index i
INNER JOIN pg_catalog.pg_class c ON c.oid=i.indexrelid
INNER JOIN pg_catalog.pg_class tc ON tc.oid=i.indrelid
LEFT OUTER JOIN pg_catalog.pg_description dsc ON i.indexrelid=dsc.objoid
WHERE  i.indrelid=$1 ORDER BY c.relname;
