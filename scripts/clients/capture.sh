#!/usr/bin/env bash
# Captures the SQL that real clients send, into testdata/introspection/.
#
# Starts a private PostgreSQL 15 (log_statement=all) on 127.0.0.1:$PORT,
# creates the lineitem table of gpusql's demo (capture/schema.sql), runs
# each client action with its own application_name (psql commands, pgJDBC,
# psycopg2, psycopg 3, SQLAlchemy, node-postgres, postgres_fdw, Tableau's
# metadata calls through pgJDBC), and splits
# the server log into one file per client and action (extract_log.py).
# Needs what .ci/run installs, and npm ci in testdata/clients/node.
# Run as root (PostgreSQL then runs as the postgres user) or as any user.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
repo=$PWD
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
PORT=${PORT:-55432}
H=127.0.0.1
out=$repo/testdata/introspection
work=$(mktemp -d /tmp/gpusql-capture-XXXXXX)
as=()
if [ "$(id -u)" -eq 0 ]; then
	chown postgres "$work"
	as=(runuser -u postgres --)
fi
"${as[@]}" "$PGBIN/initdb" -D "$work/data" -U postgres --auth=trust --encoding=UTF8 --locale=C --no-sync >"$work/initdb.log"
"${as[@]}" "$PGBIN/pg_ctl" -D "$work/data" -l "$work/pg.log" -w -o \
	"-p $PORT -k $work -c listen_addresses=$H -c log_statement=all -c log_line_prefix='%c|%a|' -c fsync=off" start >/dev/null
trap '"${as[@]}" "$PGBIN/pg_ctl" -D "$work/data" -m immediate stop >/dev/null; rm -rf "$work"' EXIT

psql=(psql -X -q -v ON_ERROR_STOP=1 -h $H -p "$PORT" -U postgres)
"${psql[@]}" -f scripts/clients/capture/schema.sql
for a in 'dt:\dt' 'd_table:\d lineitem' 'dplus_table:\d+ lineitem' 'l:\l' 'dn:\dn'; do
	PGAPPNAME=cap_psql_${a%%:*} "${psql[@]}" -c "${a#*:}" >/dev/null
done
/usr/bin/python3 scripts/clients/capture/py_clients.py $H "$PORT"
java -cp /usr/share/java/postgresql.jar scripts/clients/capture/Capture.java $H "$PORT"
NODE_PATH=$repo/testdata/clients/node/node_modules node scripts/clients/capture/node_clients.js $H "$PORT"
"${psql[@]}" -c "CREATE DATABASE fdwlocal"
"${psql[@]}" -d fdwlocal -v host=$H -v port="$PORT" -f scripts/clients/capture/fdw.sql >"$work/fdw.out"

pgver=$("$PGBIN/postgres" --version)
version() {
	case $1 in
	psql) psql --version ;;
	jdbc) echo "pgJDBC $(unzip -p /usr/share/java/postgresql.jar META-INF/MANIFEST.MF | sed -n 's/^Implementation-Version: //p' | tr -d '\r') (Debian libpostgresql-jdbc-java), $(java -version 2>&1 | head -1)" ;;
	psycopg2) /usr/bin/python3 -c 'import psycopg2; print("psycopg2", psycopg2.__version__, "(Debian python3-psycopg2)")' ;;
	psycopg3) /usr/bin/python3 -c 'import psycopg; print("psycopg", psycopg.__version__, "(Debian python3-psycopg)")' ;;
	sqlalchemy) /usr/bin/python3 -c 'import sqlalchemy; print("SQLAlchemy", sqlalchemy.__version__, "(Debian python3-sqlalchemy) with psycopg2")' ;;
	node) echo "node-postgres $(node -p "require('$repo/testdata/clients/node/node_modules/pg/package.json').version"), node $(node --version)" ;;
	fdw) echo "postgres_fdw of $pgver (what the remote server receives)" ;;
	tableau) echo "Tableau's PostgreSQL connector (through pgJDBC), as pgJDBC $(unzip -p /usr/share/java/postgresql.jar META-INF/MANIFEST.MF | sed -n 's/^Implementation-Version: //p' | tr -d '\r') makes the DatabaseMetaData calls of Tableau's JDBC metadata enumeration (Capture.java says which)" ;;
	esac
}
for app in $(grep -o '|cap_[a-z0-9_]*|' "$work/pg.log" | tr -d '|' | sort -u); do
	name=${app#cap_}
	client=${name%%_*}
	{
		echo "-- client: $(version "$client")"
		echo "-- action: ${name#*_}"
		echo "-- captured: scripts/clients/capture.sh, from the log (log_statement=all) of $pgver"
		echo "--   serving the lineitem table of scripts/clients/capture/schema.sql; OIDs in"
		echo "--   the statements are that server's, not gpusql's."
		echo
		/usr/bin/python3 scripts/clients/extract_log.py "$work/pg.log" "$app"
	} >"$out/$name.sql"
	echo "wrote testdata/introspection/$name.sql"
done
cp "$work/fdw.out" "$out/fdw_explain.out"
