#!/usr/bin/env bash
# ClickBench's 43 queries (testdata/clickbench) on DuckDB and on gpusql's
# backends over the same hits file, one after the other: per query the
# hot (fastest) time of each, gpusql's speedups over DuckDB, the hot sums
# and the geometric mean (docs/performance.md, "ClickBench"). `make
# clickbench` builds the tools into bin/ and runs this;
# scripts/clickbench-device.sh runs it on the device machine.
#
# Environment (all optional):
#   BIN      directory of hitsgen, gpusql-tpch and duckbench (default bin)
#   ROWS     rows of the generated hits (default 1000000)
#   DIR      where hits.csv is generated (default /tmp/gpusql-clickbench-ROWS);
#            an existing DIR/hits.csv of ROWS rows is reused
#   HITS     a hits file to use instead (ClickBench's hits.tsv or hits.csv:
#            .tsv is read as PostgreSQL's text format, anything else as CSV)
#   DEVICE   gpusql backends to time, comma-separated (default cpu; cuda,cpu)
#   COMPARE  a backend to run each query on once more and compare (cpu)
#   THREADS  DuckDB's threads (default: the CPU count)
#   RUNS     timed runs of each query (default 3), after WARMUP (default 1)
#   DUCKDB   0 skips DuckDB
#   OUT      where the logs go (default DIR, or HITS's directory)
#
# With generated data of a size that testdata/clickbench/answers has
# (100000, 1000000), every engine's rows are checked against PostgreSQL's.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bin=${BIN:-bin}
rows=${ROWS:-1000000}
device=${DEVICE:-cpu}
runs=${RUNS:-3}
warmup=${WARMUP:-1}
threads=${THREADS:-$(nproc)}
cb=testdata/clickbench

check=()
if [ -n "${HITS:-}" ]; then
	data=$(cd "$(dirname "$HITS")" && pwd)
	file=$(basename "$HITS")
	[ -f "$data/$file" ] || { echo "clickbench.sh: $HITS: no such file" >&2; exit 1; }
	rows=$file # the JSON lines' label
else
	data=${DIR:-/tmp/gpusql-clickbench-$rows}
	file=hits.csv
	if [ ! -f "$data/$file" ]; then
		mkdir -p "$data"
		# made under another name, so that a file cut short is never reused
		"$bin/hitsgen" -rows "$rows" -o "$data/$file.part" || exit 1
		mv "$data/$file.part" "$data/$file"
	fi
	# the order keys also let -compare accept other rows of a tie
	check=(-keys "$cb/keys.txt")
	if [ -d "$cb/answers/rows$rows" ]; then
		check+=(-check "$cb/answers/rows$rows")
	fi
fi
case "$file" in
*.tsv) gfmt=(-format text); dfmt=(-format text) ;;
*) gfmt=(-format csv -delim ,); dfmt=(-delim ,) ;;
esac
out=${OUT:-$data}
mkdir -p "$out"
echo "host: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB; $(date -u +%F); hits: $data/$file ($(du -h "$data/$file" | cut -f1))"
cat "$data/$file" >/dev/null # into the page cache

duck=()
if [ "${DUCKDB:-1}" = 1 ]; then
	"$bin/duckbench" -schema "$cb/schema.sql" -load "hits=$data/$file" "${dfmt[@]}" -sf "$rows" \
		-threads "$threads" -runs "$runs" -warmup "$warmup" "${check[@]}" "$cb/queries" >"$out/duckdb.log"
	echo "duckbench exit $? ($out/duckdb.log)"
	grep -v '^{' "$out/duckdb.log"
	duck=(-duckdb "$out/duckdb.log")
fi
cmp=()
if [ -n "${COMPARE:-}" ]; then cmp=(-compare "$COMPARE"); fi
"$bin/gpusql-tpch" -data "$data" -sf "$rows" -schema "$cb/schema.sql" -tables "hits=$file" "${gfmt[@]}" \
	-queries "$cb/queries" -device "$device" -runs "$runs" -warmup "$warmup" "${check[@]}" "${cmp[@]}" "${duck[@]}" \
	${ONLY:+-only "$ONLY"} >"$out/gpusql.log" 2>&1
echo "gpusql-tpch exit $? ($out/gpusql.log)"
grep -v '^{' "$out/gpusql.log"
