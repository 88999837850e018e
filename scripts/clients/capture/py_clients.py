#!/usr/bin/python3
"""Client actions for the introspection capture: each action connects with
its own application_name (cap_<client>_<action>) so the server log can be
split by action. Usage: py_clients.py HOST PORT"""
import io
import sys

host, port = sys.argv[1], int(sys.argv[2])


def psycopg2_actions():
    import psycopg2
    dsn = 'host=%s port=%d user=postgres dbname=postgres application_name=' % (host, port)
    c = psycopg2.connect(dsn + 'cap_psycopg2_connect')
    c.close()
    c = psycopg2.connect(dsn + 'cap_psycopg2_query')
    cur = c.cursor()
    cur.execute('SELECT l_orderkey, l_shipmode FROM lineitem WHERE l_orderkey > %s AND l_shipmode = %s AND l_shipdate < %s',
                (1, 'AIR', '1998-01-01'))
    cur.fetchall()
    c.commit()
    c.close()
    c = psycopg2.connect(dsn + 'cap_psycopg2_cursor')
    cur = c.cursor(name='big')
    cur.itersize = 2
    cur.execute('SELECT l_orderkey FROM lineitem ORDER BY l_orderkey')
    for _ in cur:
        pass
    cur.close()
    c.commit()
    c.close()
    c = psycopg2.connect(dsn + 'cap_psycopg2_copy')
    cur = c.cursor()
    out = io.StringIO()
    cur.copy_expert('COPY lineitem TO STDOUT WITH (FORMAT csv)', out)
    c.commit()
    c.close()


def psycopg3_actions():
    import psycopg
    dsn = 'host=%s port=%d user=postgres dbname=postgres application_name=' % (host, port)
    c = psycopg.connect(dsn + 'cap_psycopg3_connect')
    c.close()
    c = psycopg.connect(dsn + 'cap_psycopg3_query')
    c.execute('SELECT l_orderkey, l_shipmode FROM lineitem WHERE l_orderkey > %s AND l_shipmode = %s AND l_shipdate < %s',
              (1, 'AIR', '1998-01-01')).fetchall()
    c.commit()
    c.close()
    c = psycopg.connect(dsn + 'cap_psycopg3_cursor')
    with c.cursor(name='big') as cur:
        cur.itersize = 2
        cur.execute('SELECT l_orderkey FROM lineitem ORDER BY l_orderkey')
        for _ in cur:
            pass
    c.commit()
    c.close()
    c = psycopg.connect(dsn + 'cap_psycopg3_copy')
    with c.cursor() as cur:
        with cur.copy('COPY lineitem TO STDOUT WITH (FORMAT csv)') as cp:
            for _ in cp:
                pass
    c.commit()
    c.close()


def sqlalchemy_actions():
    import sqlalchemy
    url = 'postgresql+psycopg2://postgres@%s:%d/postgres?application_name=' % (host, port)
    e = sqlalchemy.create_engine(url + 'cap_sqlalchemy_connect')
    with e.connect():
        pass
    e.dispose()
    e = sqlalchemy.create_engine(url + 'cap_sqlalchemy_tables')
    sqlalchemy.inspect(e).get_table_names()
    e.dispose()
    e = sqlalchemy.create_engine(url + 'cap_sqlalchemy_columns')
    sqlalchemy.inspect(e).get_columns('lineitem')
    e.dispose()


psycopg2_actions()
psycopg3_actions()
sqlalchemy_actions()
