#!/usr/bin/env bash
# Regenerate the ClickBench reference answers testdata/clickbench/answers/rowsN/qNN.out
# with PostgreSQL 15: generate hits with tools/hitsgen, load it into a
# throwaway cluster (scripts/pg-start.sh, C locale, UTF8), run every
# testdata/clickbench/queries/qNN.sql with
#
#   psql -X -q -A -t -F '|' -v ON_ERROR_STOP=1
#
# and stop and delete the cluster. testdata/clickbench/README.md describes
# the output and how other engines' rows are compared with it.
#
#   tools/clickbench-answers.sh [-rows N] [-data FILE] [-format csv|text] [-p PORT] [-o DIR]
#
#   -rows N      rows of hits; default 100000
#   -data FILE   load FILE instead of generating it (hitsgen's output, or
#                ClickBench's hits.csv / hits.tsv with -format)
#   -format F    csv (default) or text (PostgreSQL's text format, hits.tsv)
#   -p PORT      port of the throwaway cluster on 127.0.0.1; default 54341
#   -o DIR       where the answers go; default testdata/clickbench/answers/rowsN
#
# A query that fails in PostgreSQL (none should) leaves its error in the
# .out file and makes the script exit 1 at the end.
set -euo pipefail
export PATH="/usr/local/go/bin:$PATH"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

rows=100000
data=
format=csv
port=54341
out=
while [ $# -gt 0 ]; do
	case "$1" in
	-rows) rows="$2"; shift 2 ;;
	-data) data="$2"; shift 2 ;;
	-format) format="$2"; shift 2 ;;
	-p) port="$2"; shift 2 ;;
	-o) out="$2"; shift 2 ;;
	-h|--help) sed -n '2,21p' "$0"; exit 0 ;;
	*) echo "clickbench-answers.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done
out="${out:-$root/testdata/clickbench/answers/rows$rows}"

bin="${GPUSQL_PG_BINDIR:-/usr/lib/postgresql/15/bin}"
psql="$bin/psql"
[ -x "$psql" ] || psql=psql

pgdir="$(mktemp -d "${TMPDIR:-/tmp}/clickbench-pg.XXXXXX")"
gendir=
cleanup() {
	"$root/scripts/pg-stop.sh" -d "$pgdir" --rm >/dev/null 2>&1 || true
	[ -z "$gendir" ] || rm -rf "$gendir"
}
trap cleanup EXIT

if [ -z "$data" ]; then
	gendir="$(mktemp -d "${TMPDIR:-/tmp}/clickbench-data.XXXXXX")"
	ext=csv
	[ "$format" = text ] && ext=tsv
	data="$gendir/hits.$ext"
	echo "== hitsgen -rows $rows"
	(cd "$root" && go run ./tools/hitsgen -rows "$rows" -format "${ext}" -o "$data")
fi
data="$(cd "$(dirname "$data")" && pwd)/$(basename "$data")"

echo "== PostgreSQL 15 on port $port"
"$root/scripts/pg-start.sh" -d "$pgdir" -p "$port" >/dev/null
export PGOPTIONS="-c datestyle=ISO,MDY -c lc_messages=C -c work_mem=256MB"
export PGCLIENTENCODING=UTF8
pg=("$psql" -X -q -h 127.0.0.1 -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1)

echo "== load $data"
{
	cat "$root/testdata/clickbench/schema.sql"
	if [ "$format" = text ]; then
		echo "\\copy hits from '$data'"
	else
		echo "\\copy hits from '$data' with (format csv)"
	fi
	echo "analyze;"
} | "${pg[@]}" -f -

mkdir -p "$out"
rm -f "$out"/q*.out
failed=0
for q in "$root"/testdata/clickbench/queries/q*.sql; do
	name="$(basename "$q" .sql)"
	start=$(date +%s%N)
	if ! "${pg[@]}" -A -t -F '|' -f "$q" -o "$out/$name.out" 2>"$out/$name.err"; then
		cat "$out/$name.err" >>"$out/$name.out"
		failed=1
	fi
	rm -f "$out/$name.err"
	ms=$(( ($(date +%s%N) - start) / 1000000 ))
	printf '%s %6d ms %5d rows\n' "$name" "$ms" "$(wc -l <"$out/$name.out")"
done
echo "== answers in $out"
exit $failed
