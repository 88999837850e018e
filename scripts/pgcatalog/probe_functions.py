#!/usr/bin/python3
"""Lists the PostgreSQL 15 built-in functions that gpusql implements, for
gen.py's pg_proc rows (psql's \\df, IDE completion).

Every pg_catalog function, aggregate and window function of PostgreSQL 15
whose argument types gpusql has is called once in gpusql with NULL (or
'day' for text) arguments; an overload is implemented when gpusql binds
the call, whatever error the values then give. The OIDs go to
functions.txt beside this script, one "oid name(argument types)" a line:

    PG="host=/tmp/pg port=5432 dbname=postgres" GPUSQL="host=127.0.0.1 port=5433 dbname=postgres" \\
        scripts/pgcatalog/probe_functions.py

Needs Debian's python3-psycopg (psycopg 3)."""
import os
import psycopg

pg = psycopg.connect(os.environ["PG"], autocommit=True)
gp = psycopg.connect(os.environ["GPUSQL"], autocommit=True)
# Argument types gpusql has, and the type each is called with.
TYPES = {16: 'boolean', 20: 'bigint', 21: 'smallint', 23: 'integer', 25: 'text', 700: 'real',
         701: 'double precision', 1700: 'numeric', 1042: 'character', 1043: 'character varying', 1082: 'date',
         1083: 'time', 1114: 'timestamp', 1184: 'timestamptz', 1186: 'interval', 19: 'name', 26: 'oid',
         2276: 'integer', 2283: 'integer', 5077: 'integer', 2277: 'integer[]', 5078: 'integer[]',
         1009: 'text[]', 1007: 'integer[]', 1016: 'bigint[]', 18: '"char"'}
# Errors that mean gpusql does not have the function or this overload.
MISSING = {'42883', '0A000', '42601', '42P01', 'XX000', '42725'}

rows = pg.execute("""select p.oid, p.proname, p.prokind, p.proargtypes::oid[]::int[], coalesce(a.aggkind, ''),
    coalesce(a.aggnumdirectargs, 0), p.proretset, pg_get_function_identity_arguments(p.oid)
  from pg_proc p left join pg_aggregate a on a.aggfnoid = p.oid
  where p.pronamespace = 'pg_catalog'::regnamespace and p.prokind in ('f', 'a', 'w') order by p.oid""").fetchall()
found = []
for oid, name, kind, args, aggkind, ndirect, retset, ident in rows:
    if any(t not in TYPES for t in args) or name.startswith('_') or name.endswith(('_in', '_out', 'recv', 'send')):
        continue
    val = lambda t: "'day'::text" if t == 25 else 'NULL::' + TYPES[t]
    vals = ', '.join(val(t) for t in args)
    if kind == 'w':
        sql = f'SELECT {name}({vals}) OVER () FROM (SELECT 1) s'
    elif kind == 'a' and aggkind in ('o', 'h'):
        direct = ', '.join(val(t) for t in args[:ndirect])
        order = ', '.join(f'x{i}' for i in range(len(args) - ndirect))
        cols = ', '.join(f'NULL::{TYPES[t]} AS x{i}' for i, t in enumerate(args[ndirect:]))
        sql = f'SELECT {name}({direct}) WITHIN GROUP (ORDER BY {order}) FROM (SELECT {cols}) s'
    elif kind == 'a':
        cols = ', '.join(f'NULL::{TYPES[t]} AS x{i}' for i, t in enumerate(args))
        refs = ', '.join(f'x{i}' for i in range(len(args)))
        sql = f'SELECT {name}({refs}) FROM (SELECT {cols}) s' if args else f'SELECT {name}(*) FROM (SELECT 1) s'
    elif retset:
        sql = f'SELECT * FROM {name}({vals}) s LIMIT 0'
    else:
        sql = f'SELECT {name}({vals})'
    try:
        gp.execute(sql)
    except psycopg.Error as e:
        if e.diag.sqlstate in MISSING:
            continue
    found.append(f'{oid} {name}({ident})')
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'functions.txt')
with open(out, 'w') as f:
    f.write(''.join(line + '\n' for line in found))
print(len(found), 'functions')
