#!/usr/bin/python3
"""psycopg2 or psycopg 3 against a server: parameters of each type, a
server-side (named) cursor, COPY out and in. Prints what the driver hands
back (Python reprs), so the output can be compared between gpusql and
PostgreSQL. Usage: psycopg_client.py psycopg2|psycopg3 DSN params|cursor|copy|copy_binary|extras|pipeline"""
import datetime
import decimal
import io
import sys

driver, dsn, part = sys.argv[1], sys.argv[2], sys.argv[3]
if driver == 'psycopg2':
    import psycopg2 as db
else:
    import psycopg as db
conn = db.connect(dsn)
D = decimal.Decimal


def error_code(e):
    return getattr(e, 'pgcode', None) or getattr(getattr(e, 'diag', None), 'sqlstate', None)


def query(label, sql, params=None):
    cur = conn.cursor()
    try:
        cur.execute(sql, params)
        rows = cur.fetchall()
        print(label, [d[0] for d in cur.description])
        for r in rows:
            print('  ', repr(tuple(r)))
    except db.Error as e:
        print(label, 'ERROR', error_code(e), str(e).splitlines()[0])
        conn.rollback()
    cur.close()


def part_params():
    # Parameters, one type at a time (psycopg2 interpolates them into the SQL
    # text; psycopg 3 sends them separately, typed by the Python type).
    query('int', 'SELECT %s::integer + 1 AS v', (41,))
    query('bigint', 'SELECT %s::bigint * 2 AS v', (2 ** 40,))
    query('float', 'SELECT %s::double precision / 4 AS v', (1.5,))
    query('numeric', 'SELECT %s::numeric(15,2) + 0.25 AS v', (D('10.50'),))
    query('text', 'SELECT upper(%s) AS v', ('gpu',))
    query('bool', 'SELECT NOT %s AS v', (True,))
    query('date', 'SELECT %s::date + 1 AS v', (datetime.date(1996, 2, 28),))
    query('timestamp', 'SELECT %s::timestamp AS v', (datetime.datetime(2024, 1, 2, 3, 4, 5),))
    query('null', 'SELECT %s::integer IS NULL AS v', (None,))
    query('where', 'SELECT l_orderkey, l_linenumber, l_quantity, l_shipdate, l_shipmode FROM lineitem '
          'WHERE l_orderkey < %s AND l_shipdate >= %s AND l_shipmode = %s AND l_quantity > %s '
          'ORDER BY l_orderkey, l_linenumber',
          (300, datetime.date(1995, 1, 1), 'AIR', D('20.5')))
    query('aggregate', 'SELECT l_returnflag, count(*), sum(l_quantity), min(l_shipdate) FROM lineitem '
          'WHERE l_discount >= %s GROUP BY l_returnflag ORDER BY 1', (D('0.05'),))
    conn.commit()

def part_cursor():
    # A server-side cursor, fetched itersize rows at a time.
    cur = conn.cursor(name='big')
    cur.itersize = 700
    cur.execute('SELECT l_orderkey, l_linenumber, l_extendedprice FROM lineitem WHERE l_quantity > %s ORDER BY 1, 2',
                (D('10'),))
    n, total, first, last = 0, D(0), None, None
    for row in cur:
        n += 1
        total += row[2]
        first = first or row
        last = row
    print('named cursor', n, total, repr(first), repr(last))
    cur.close()
    cur = conn.cursor(name='few')
    cur.execute('SELECT l_orderkey, l_comment FROM lineitem ORDER BY l_orderkey, l_linenumber')
    print('fetchmany', [tuple(r) for r in cur.fetchmany(3)])
    print('fetchone', tuple(cur.fetchone()))
    cur.close()
    conn.commit()

def part_copy():
    # COPY out and in (psycopg2's copy_expert, psycopg 3's cursor.copy).
    out_sql = ('COPY (SELECT l_orderkey, l_linenumber, l_quantity, l_shipdate, l_shipmode, l_comment FROM lineitem '
               'WHERE l_orderkey <= 20 ORDER BY 1, 2) TO STDOUT WITH (FORMAT csv, HEADER true)')
    table = 'copy_in_' + driver
    in_sql = 'COPY %s FROM STDIN WITH (FORMAT csv, HEADER true)' % table
    cur = conn.cursor()
    cur.execute('CREATE TABLE %s (l_orderkey bigint, l_linenumber integer, l_quantity numeric(15,2), '
                'l_shipdate date, l_shipmode char(10), l_comment varchar(44))' % table)
    conn.commit()
    if driver == 'psycopg2':
        buf = io.StringIO()
        cur.copy_expert(out_sql, buf)
        data = buf.getvalue()
        cur.copy_expert(in_sql, io.StringIO(data))
    else:
        chunks = []
        with cur.copy(out_sql) as cp:
            for chunk in cp:
                chunks.append(bytes(chunk))
        data = b''.join(chunks).decode()
        with cur.copy(in_sql) as cp:
            cp.write(data)
    conn.commit()
    print('copy out', len(data.splitlines()), 'lines')
    print(data)
    query('copy in', 'SELECT count(*), sum(l_quantity), max(l_comment) FROM %s' % table)
def part_extras():
    # What drivers do past their first query: a scrollable named cursor,
    # an error's position, savepoints around a COPY with autocommit off,
    # array and timestamptz parameters, typed COPY rows (psycopg 3).
    cur = conn.cursor(name='scroller', scrollable=True)
    cur.execute('SELECT l_orderkey, l_linenumber FROM lineitem WHERE l_orderkey < 40 ORDER BY 1, 2')
    print('scroll fetchmany', [tuple(r) for r in cur.fetchmany(5)])
    cur.scroll(-2)
    print('scroll -2', tuple(cur.fetchone()))
    cur.scroll(0, mode='absolute')
    print('scroll absolute 0', tuple(cur.fetchone()))
    cur.scroll(3)
    print('scroll 3', tuple(cur.fetchone()))
    cur.close()
    conn.commit()

    cur = conn.cursor()
    try:
        cur.execute('SELECT l_orderkey, nosuch FROM lineitem')
    except db.Error as e:
        print('error', error_code(e), 'position', e.diag.statement_position)
    conn.rollback()

    table = 'extras_' + driver
    cur.execute('CREATE TABLE %s (a integer, b text)' % table)
    conn.commit()
    data = '1,one\n2,two\n\\.\n'
    def copy_in():
        sql = 'COPY %s FROM STDIN WITH (FORMAT csv)' % table
        if driver == 'psycopg2':
            cur.copy_expert(sql, io.StringIO(data))
        else:
            with cur.copy(sql) as cp:
                cp.write(data)
    def count(label):
        cur.execute('SELECT count(*), sum(a) FROM %s' % table)
        print(label, tuple(cur.fetchone()))
    copy_in()
    cur.execute('SAVEPOINT s1')
    copy_in()
    count('in savepoint')
    cur.execute('ROLLBACK TO SAVEPOINT s1')
    count('after rollback to')
    try:
        cur.execute('SELECT 1/0')
    except db.Error as e:
        print('error', error_code(e))
    try:
        cur.execute('SELECT 1')
    except db.Error as e:
        print('failed block', error_code(e))
    cur.execute('ROLLBACK TO SAVEPOINT s1')
    count('recovered')
    conn.commit()
    count('committed')
    copy_in()
    conn.rollback()
    count('rolled back')
    conn.rollback()
    cur.execute('SET TRANSACTION ISOLATION LEVEL SERIALIZABLE')
    # (SHOW transaction_isolation differs by design: gpusql gives, and
    # says, read committed.)
    print('isolation set')
    try:
        cur.execute('SET TRANSACTION ISOLATION LEVEL READ COMMITTED')
    except db.Error as e:
        print('late SET TRANSACTION', error_code(e))
    conn.rollback()

    query('array', 'SELECT l_orderkey, l_linenumber FROM lineitem WHERE l_orderkey = ANY(%s) ORDER BY 1, 2', ([3, 5, 7],))
    query('text array', 'SELECT count(*) FROM lineitem WHERE l_shipmode = ANY(%s)', (['AIR', 'MAIL'],))
    # An aware datetime: a timestamptz parameter (psycopg 3), a
    # '...'::timestamptz literal (psycopg2).
    tz = datetime.timezone(datetime.timedelta(hours=2))
    query('timestamptz', 'SELECT %s::timestamp AS v', (datetime.datetime(2024, 1, 2, 3, 4, 5, tzinfo=tz),))
    query('timestamptz where', 'SELECT count(*) FROM lineitem WHERE l_shipdate < %s',
          (datetime.datetime(1995, 1, 1, 1, 0, 0, tzinfo=tz),))
    if driver == 'psycopg3':
        with cur.copy('COPY (SELECT l_orderkey, l_shipdate, l_quantity FROM lineitem WHERE l_orderkey <= 3 '
                      'ORDER BY l_orderkey, l_linenumber) TO STDOUT') as cp:
            cp.set_types(['int4', 'date', 'numeric'])
            print('copy rows', [tuple(r) for r in cp.rows()])
    conn.commit()


def part_copy_binary():
    # Binary COPY in (write_row with set_types) and out (rows), psycopg 3's.
    if driver != 'psycopg3':
        print('binary copy: psycopg 3 only')
        return
    cur = conn.cursor()
    cur.execute('CREATE TABLE copy_bin (i integer, s smallint, b bigint, r real, d double precision, '
                'n numeric(12,3), day date, ts timestamp, tz timestamptz, tm time, flag boolean, '
                'v varchar(10), c char(4), t text)')
    types = ['int4', 'int2', 'int8', 'float4', 'float8', 'numeric', 'date', 'timestamp', 'timestamptz',
             'time', 'bool', 'varchar', 'bpchar', 'text']
    utc = datetime.timezone.utc
    rows = [
        (1, 2, 2 ** 40, 1.5, 2.25, D('123.456'), datetime.date(2024, 2, 29),
         datetime.datetime(2024, 1, 2, 3, 4, 5, 678901), datetime.datetime(2024, 1, 2, 3, 4, 5, tzinfo=utc),
         datetime.time(23, 59, 59, 999999), True, 'héllo', 'ab', 'tab\there\nnewline \\ back'),
        (None,) * 14,
        (-2 ** 31, -2 ** 15, -2 ** 63, float('inf'), float('-inf'), D('-0.0015'), datetime.date(1, 1, 1),
         datetime.datetime(1970, 1, 1), datetime.datetime(1969, 12, 31, 23, 59, 59, 999999, tzinfo=utc),
         datetime.time(0), False, '', 'abcd', ''),
    ]
    # psycopg has no binary dumper for bpchar: char(4) is sent as text.
    dump_types = [t if t != 'bpchar' else 'text' for t in types]
    with cur.copy('COPY copy_bin FROM STDIN (FORMAT binary)') as cp:
        cp.set_types(dump_types)
        for r in rows:
            cp.write_row(r)
    print('copy in', cur.rowcount)
    conn.commit()
    with cur.copy('COPY (SELECT * FROM copy_bin ORDER BY i) TO STDOUT (FORMAT binary)') as cp:
        cp.set_types(types)
        for r in cp.rows():
            print('  ', repr(tuple(r)))
    with cur.copy("COPY (SELECT i, n * 2, day + 1, interval '1 day 02:00:00' FROM copy_bin ORDER BY i) "
                  'TO STDOUT (FORMAT binary)') as cp:
        cp.set_types(['int4', 'numeric', 'date', 'interval'])
        print('computed', [tuple(r) for r in cp.rows()])
    try:
        with cur.copy('COPY copy_bin FROM STDIN (FORMAT binary)') as cp:
            cp.set_types(dump_types)
            cp.write_row((1, 1, 1, 1.0, 1.0, D('1'), None, None, None, None, None, 'far too long text', None, None))
    except db.Error as e:
        print('too long', error_code(e), str(e).splitlines()[0])
        conn.rollback()
    query('count', 'SELECT count(*) FROM copy_bin')
    conn.commit()


def part_pipeline():
    # psycopg 3's pipeline mode: statements sent without waiting, results
    # read after a sync; an error inside a pipeline skips what follows it
    # there, and the connection goes on.
    if driver != 'psycopg3':
        print('pipeline: psycopg 3 only')
        return
    print('supported', db.Pipeline.is_supported())
    with conn.pipeline() as p:
        c1 = conn.execute('SELECT count(*) FROM lineitem WHERE l_orderkey < %s', (100,))
        c2 = conn.execute('SELECT l_shipmode, count(*) FROM lineitem GROUP BY 1 ORDER BY 1')
        c3 = conn.execute('SELECT %s::integer * 2, %s::text', (21, 'x'))
        p.sync()
        print('first', c1.fetchall())
        print('second', c2.fetchall())
        print('third', c3.fetchall())
    cur = conn.cursor()
    with conn.pipeline():
        cur.executemany('SELECT %s::bigint + 1', [(i,) for i in range(5)], returning=True)
        out = []
        while True:
            out.extend(cur.fetchall())
            if not cur.nextset():
                break
        print('executemany', out)
    conn.commit()
    try:
        with conn.pipeline():
            conn.execute('SELECT 1 / 0')
            conn.execute('SELECT count(*) FROM lineitem')
    except db.Error as e:
        print('error', error_code(e), str(e).splitlines()[0])
        conn.rollback()
    print('after', conn.execute('SELECT 42').fetchall())
    conn.commit()


{'copy_binary': part_copy_binary, 'params': part_params, 'cursor': part_cursor, 'copy': part_copy, 'extras': part_extras,
 'pipeline': part_pipeline}[part]()
conn.close()
