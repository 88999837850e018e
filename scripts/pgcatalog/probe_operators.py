#!/usr/bin/python3
"""Lists the PostgreSQL 15 built-in operators that gpusql implements, for
gen.py's pg_operator rows (psql's \\do).

Every pg_catalog operator of PostgreSQL 15 whose operand types gpusql has
is applied once in gpusql to NULL operands of those types; an operator is
implemented when gpusql binds the expression and its result has the
operator's result type. The OIDs go to operators.txt beside this script,
one "oid left op right" a line:

    PG="host=/tmp/pg port=5432 dbname=postgres" GPUSQL="host=127.0.0.1 port=5433 dbname=postgres" \\
        scripts/pgcatalog/probe_operators.py

Needs Debian's python3-psycopg (psycopg 3)."""
import os
import psycopg

pg = psycopg.connect(os.environ["PG"], autocommit=True)
gp = psycopg.connect(os.environ["GPUSQL"], autocommit=True)
# Operand types gpusql has (no pseudo-types: an operator on anyarray is
# listed only through a concrete array type's).
TYPES = {16: 'boolean', 20: 'bigint', 21: 'smallint', 23: 'integer', 25: 'text', 700: 'real',
         701: 'double precision', 1700: 'numeric', 1042: 'character', 1043: 'character varying', 1082: 'date',
         1083: 'time', 1114: 'timestamp', 1184: 'timestamptz', 1186: 'interval'}

rows = pg.execute("""select o.oid, o.oprname, o.oprkind, o.oprleft::int, o.oprright::int, o.oprresult::int
  from pg_operator o where o.oprnamespace = 'pg_catalog'::regnamespace order by o.oid""").fetchall()
found = []
for oid, name, kind, left, right, result in rows:
    if (kind == 'b' and left not in TYPES) or right not in TYPES:
        continue
    if kind == 'b':
        sql = f'SELECT NULL::{TYPES[left]} {name} NULL::{TYPES[right]}'
    else:
        sql = f'SELECT {name} NULL::{TYPES[right]}'
    try:
        cur = gp.execute(sql)
    except psycopg.Error:
        continue
    if cur.description[0].type_code != result:
        continue
    found.append(f'{oid} {TYPES.get(left, "NONE")} {name} {TYPES[right]}')
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'operators.txt')
with open(out, 'w') as f:
    f.write(''.join(line + '\n' for line in found))
print(len(found), 'operators')
