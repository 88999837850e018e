"""Log in to a server with psycopg2 or psycopg 3 and print current_user,
or, when the login fails, "error", the SQLSTATE the driver reports (or
"-" where libpq gives none for a failed connection) and the message.

Usage: /usr/bin/python3 login.py psycopg2|psycopg3 DSN
"""
import sys


def main():
    driver, dsn = sys.argv[1], sys.argv[2]
    if driver == "psycopg2":
        import psycopg2 as db

        def code(e):
            return e.pgcode
    else:
        import psycopg as db

        def code(e):
            return e.sqlstate
    try:
        conn = db.connect(dsn)
    except db.OperationalError as e:
        print("error", code(e) or "-", " ".join(str(e).split()))
        return
    with conn:
        cur = conn.cursor()
        cur.execute("SELECT current_user")
        print(cur.fetchone()[0])
    conn.close()


main()
