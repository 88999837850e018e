#!/usr/bin/env bash
# Stop a server started by scripts/pg-start.sh.
#
#   scripts/pg-stop.sh [-d DIR] [--rm]
#
#   -d DIR  the server dir given to pg-start.sh; default /tmp/gpusql-pg
#   --rm    also delete DIR
set -euo pipefail

dir=/tmp/gpusql-pg
rm=0
while [ $# -gt 0 ]; do
	case "$1" in
	-d) dir="$2"; shift 2 ;;
	--rm) rm=1; shift ;;
	-h|--help) sed -n '2,7p' "$0"; exit 0 ;;
	*) echo "pg-stop.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done

bin="${GPUSQL_PG_BINDIR:-/usr/lib/postgresql/15/bin}"
as_pg=()
if [ "$(id -u)" -eq 0 ]; then
	as_pg=(runuser -u postgres --)
fi
if [ -f "$dir/data/postmaster.pid" ]; then
	"${as_pg[@]}" "$bin/pg_ctl" -D "$dir/data" -m fast -w stop
else
	echo "pg-stop.sh: no server running in $dir"
fi
if [ "$rm" -eq 1 ]; then
	rm -rf "$dir"
fi
