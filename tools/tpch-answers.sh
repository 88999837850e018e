#!/usr/bin/env bash
# Regenerate the TPC-H reference answers testdata/tpch/answers/sfSF/qNN.out
# with PostgreSQL 15: generate the tables with tools/tpchgen, load them into
# a throwaway cluster (scripts/pg-start.sh, C locale, UTF8), run every
# testdata/tpch/queries/qNN.sql with
#
#   psql -X -q -A -t -F '|' -v ON_ERROR_STOP=1
#
# and stop and delete the cluster. testdata/tpch/README.md describes the
# output format.
#
#   tools/tpch-answers.sh [-sf SF] [-data DIR] [-p PORT] [-o DIR]
#
#   -sf SF     scale factor; default 0.01
#   -data DIR  load the tables from DIR/<table>.csv instead of generating
#              them (tpchgen's output at the same SF)
#   -p PORT    port of the throwaway cluster on 127.0.0.1; default 54339
#   -o DIR     where the answers go; default testdata/tpch/answers/sfSF
set -euo pipefail
export PATH="/usr/local/go/bin:$PATH"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

sf=0.01
data=
port=54339
out=
while [ $# -gt 0 ]; do
	case "$1" in
	-sf) sf="$2"; shift 2 ;;
	-data) data="$2"; shift 2 ;;
	-p) port="$2"; shift 2 ;;
	-o) out="$2"; shift 2 ;;
	-h|--help) sed -n '2,19p' "$0"; exit 0 ;;
	*) echo "tpch-answers.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done
out="${out:-$root/testdata/tpch/answers/sf$sf}"

bin="${GPUSQL_PG_BINDIR:-/usr/lib/postgresql/15/bin}"
psql="$bin/psql"
[ -x "$psql" ] || psql=psql

# The cluster gets a directory of its own directly under the temp dir:
# as root, pg-start.sh hands it to the postgres user, who must reach it.
pgdir="$(mktemp -d "${TMPDIR:-/tmp}/tpch-pg.XXXXXX")"
gendir=
cleanup() {
	"$root/scripts/pg-stop.sh" -d "$pgdir" --rm >/dev/null 2>&1 || true
	[ -z "$gendir" ] || rm -rf "$gendir"
}
trap cleanup EXIT

if [ -z "$data" ]; then
	gendir="$(mktemp -d "${TMPDIR:-/tmp}/tpch-data.XXXXXX")"
	data="$gendir"
	echo "== tpchgen -sf $sf"
	(cd "$root/tools/tpchgen" && go run . -q -sf "$sf" -dir "$data")
fi
data="$(cd "$data" && pwd)"

echo "== PostgreSQL 15 on port $port"
"$root/scripts/pg-start.sh" -d "$pgdir" -p "$port" >/dev/null
# ISO dates and the C locale whoever runs this; the cluster is C/UTF8.
export PGOPTIONS="-c datestyle=ISO,MDY -c lc_messages=C"
export PGCLIENTENCODING=UTF8
pg=("$psql" -X -q -h 127.0.0.1 -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1)

echo "== load $data"
{
	cat "$root/testdata/tpch/schema.sql"
	for t in region nation part supplier partsupp customer orders lineitem; do
		echo "\\copy $t from '$data/$t.csv' with (format csv, delimiter '|')"
	done
	# Indexes only make PostgreSQL's plans for the correlated subqueries
	# (Q2, Q17, Q20, Q21) fast; they change no answer.
	echo "create index on lineitem (l_partkey, l_suppkey);"
	echo "create index on lineitem (l_orderkey);"
	echo "create index on partsupp (ps_partkey);"
	echo "create index on orders (o_orderkey);"
	echo "analyze;"
} | "${pg[@]}" -f -

mkdir -p "$out"
rm -f "$out"/q*.out
for q in "$root"/testdata/tpch/queries/q*.sql; do
	name="$(basename "$q" .sql)"
	start=$(date +%s%N)
	"${pg[@]}" -A -t -F '|' -f "$q" -o "$out/$name.out"
	ms=$(( ($(date +%s%N) - start) / 1000000 ))
	printf '%s %6d ms %5d rows\n' "$name" "$ms" "$(wc -l <"$out/$name.out")"
done
echo "== answers in $out"
