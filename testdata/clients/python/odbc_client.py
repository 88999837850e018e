"""psqlODBC (Debian's odbc-postgresql) through pyodbc against a server:
the ODBC catalog functions, the ODBC escapes, a parameterised query with
autocommit off, and 100,000 rows fetched with UseDeclareFetch=1 (as
Tableau does). Prints what the driver hands back so the output can be
compared between gpusql and PostgreSQL.

Usage: python3 odbc_client.py DRIVER_SO PORT catalog|escapes|fetch
"""
import sys

import pyodbc


def connect(driver, port, **extra):
    # A DSN-less connection string naming the driver's shared object.
    s = (f"Driver={driver};Server=127.0.0.1;Port={port};Database=postgres;"
         "Uid=postgres;Pwd=unused;SSLMode=disable")
    for k, v in extra.items():
        s += f";{k}={v}"
    return pyodbc.connect(s, autocommit=True, timeout=10)


def show(label, cur):
    """Prints a result set: its column names, then its rows."""
    print("==", label)
    print("#", " | ".join(d[0] for d in cur.description))
    for r in cur.fetchall():
        print(" | ".join(repr(v) for v in r))


def catalog(driver, port):
    c = connect(driver, port)
    cur = c.cursor()
    # SQLTables, SQLColumns; then the keys and indexes of a table that has
    # none, which must be empty results rather than errors.
    show("SQLTables", cur.tables(table="lineitem"))
    show("SQLTables TABLE", cur.tables(schema="public", tableType="TABLE"))
    show("SQLColumns", cur.columns(table="lineitem"))
    show("SQLColumns pattern", cur.columns(table="lineitem", column="l_ship%"))
    show("SQLPrimaryKeys", cur.primaryKeys("lineitem"))
    show("SQLForeignKeys fk", cur.foreignKeys(foreignTable="lineitem"))
    show("SQLForeignKeys pk", cur.foreignKeys(table="lineitem"))
    show("SQLStatistics", cur.statistics("lineitem"))
    show("SQLStatistics unique", cur.statistics("lineitem", unique=True))
    show("SQLGetTypeInfo", cur.getTypeInfo())
    show("SQLGetTypeInfo VARCHAR", cur.getTypeInfo(pyodbc.SQL_VARCHAR))
    show("SQLSpecialColumns", cur.rowIdColumns("lineitem"))


def escapes(driver, port):
    c = connect(driver, port)
    cur = c.cursor()
    # The driver rewrites the escapes before sending the statement.
    show("fn CURDATE", cur.execute("SELECT {fn CURDATE()} = current_date AS today"))
    show("fn UCASE", cur.execute("SELECT {fn UCASE('gpu')} AS u, {fn LENGTH('abc')} AS n"))
    show("d and ts", cur.execute("SELECT {d '1996-02-28'} + 1 AS d, {ts '2024-01-02 03:04:05'} AS ts"))
    show("d in WHERE", cur.execute(
        "SELECT count(*) FROM lineitem WHERE l_shipdate >= {d '1995-01-01'} AND l_shipdate < {d '1995-02-01'}"))
    # A parameterised query with autocommit off: psqlODBC wraps each
    # statement in BEGIN and a SAVEPOINT and names a server-side plan.
    t = connect(driver, port)
    t.autocommit = False
    tc = t.cursor()
    q = ("SELECT l_orderkey, l_linenumber, l_quantity, l_shipdate, l_shipmode FROM lineitem"
         " WHERE l_orderkey < ? AND l_shipmode = ? ORDER BY l_orderkey, l_linenumber")
    for limit, mode in ((40, "AIR"), (60, "MAIL"), (40, "AIR")):
        show(f"autocommit off, {limit} {mode}", tc.execute(q, limit, mode))
    show("autocommit off, a date parameter",
         tc.execute("SELECT count(*) FROM lineitem WHERE l_shipdate >= ?", "1995-01-01"))
    t.commit()
    # An error inside the transaction, then a rollback, then a query.
    try:
        tc.execute("SELECT no_such_column FROM lineitem")
        print("no error")
    except pyodbc.Error as e:
        print("error", e.args[0])
    t.rollback()
    show("after rollback", tc.execute("SELECT count(*) FROM lineitem WHERE l_orderkey < ?", 100))
    t.commit()


def fetch(driver, port):
    # UseDeclareFetch=1: the driver DECLAREs a cursor WITH HOLD and FETCHes
    # Fetch rows at a time; 100,000 rows is 100 fetches.
    c = connect(driver, port, UseDeclareFetch=1, Fetch=1000)
    c.autocommit = False
    cur = c.cursor()
    cur.execute("SELECT g, l_orderkey, l_linenumber, l_shipdate, l_quantity FROM lineitem,"
                " generate_series(1, 5) AS g WHERE l_orderkey > ? ORDER BY g, l_orderkey, l_linenumber", 0)
    n, keys, qty, last = 0, 0, 0, None
    while True:
        rows = cur.fetchmany(4096)
        if not rows:
            break
        for r in rows:
            n += 1
            keys += r[0] * r[1] + r[2]
            qty += r[4]
            last = r
    print("rows", n, "keys", keys, "quantity", qty)
    print("last", tuple(last) if last else None)
    c.commit()
    # The same with autocommit on.
    c.autocommit = True
    cur.execute("SELECT count(*), min(l_shipdate), max(l_shipdate) FROM lineitem")
    print("after", tuple(cur.fetchone()))


if __name__ == "__main__":
    {"catalog": catalog, "escapes": escapes, "fetch": fetch}[sys.argv[3]](sys.argv[1], sys.argv[2])
