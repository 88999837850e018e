#!/usr/bin/env bash
# The peer benchmark (docs/performance.md, "Beside DuckDB"): the query
# shapes of testdata/bench/peer over a lineitem-like table, on gpusql and
# on DuckDB over the same file in one run. Per query it prints the hot
# (fastest) time of each engine and gpusql's speedup over DuckDB (DuckDB's
# time / gpusql's: below 1, gpusql is the slower), and checks gpusql's rows
# against DuckDB's. `make bench-peer` builds the tools into bin/ and runs
# this.
#
# Environment (all optional):
#   BIN      directory of gpusql-tpch and duckbench (default bin)
#   ROWS     rows of the generated lineitem (default 6000000)
#   DIR      where lineitem.csv is generated (default /tmp/gpusql-peer-ROWS);
#            an existing DIR/lineitem.csv is reused
#   DEVICE   gpusql backends to time, comma-separated (default cpu; cuda on the device)
#   THREADS  DuckDB's threads (default: the CPU count)
#   RUNS     timed runs of each query (default 3), after WARMUP (default 1)
#   DUCKDB   0 skips DuckDB (and the check of the rows)
#   ONLY     comma-separated query names
#   OUT      where the logs go (default DIR)
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bin=${BIN:-bin}
rows=${ROWS:-6000000}
device=${DEVICE:-cpu}
runs=${RUNS:-3}
warmup=${WARMUP:-1}
threads=${THREADS:-$(nproc)}
peer=testdata/bench/peer
data=${DIR:-/tmp/gpusql-peer-$rows}
out=${OUT:-$data}
mkdir -p "$data" "$out"
"$bin/gpusql-tpch" -data "$data" -gen-lineitem "$rows" || exit 1
echo "host: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB; $(date -u +%F); commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
echo "data: $data/lineitem.csv ($rows rows, $(du -h "$data/lineitem.csv" | cut -f1))"
cat "$data/lineitem.csv" >/dev/null # into the page cache

only=()
if [ -n "${ONLY:-}" ]; then
	only=(-only "$ONLY")
	qs=()
	for q in ${ONLY//,/ }; do qs+=("$peer/queries/$q.sql"); done
else
	qs=("$peer/queries")
fi
duck=()
check=()
if [ "${DUCKDB:-1}" = 1 ]; then
	rm -rf "$out/duckdb-rows"
	mkdir -p "$out/duckdb-rows"
	"$bin/duckbench" -schema "$peer/schema.sql" -load "lineitem=$data/lineitem.csv" -delim , -sf "$rows" \
		-threads "$threads" -runs "$runs" -warmup "$warmup" -out "$out/duckdb-rows" "${qs[@]}" >"$out/duckdb.log" 2>"$out/duckdb.err"
	echo "duckbench exit $? ($out/duckdb.log): $(grep -h 'loaded' "$out/duckdb.err")"
	duck=(-duckdb "$out/duckdb.log")
	check=(-check "$out/duckdb-rows")
fi
"$bin/gpusql-tpch" -data "$data" -sf "$rows" -schema "$peer/schema.sql" -tables lineitem -delim , \
	-queries "$peer/queries" -device "$device" -runs "$runs" -warmup "$warmup" "${check[@]}" "${duck[@]}" \
	"${only[@]}" >"$out/gpusql.log" 2>&1
rc=$?
echo "gpusql-tpch exit $rc ($out/gpusql.log)"
grep -v '^{' "$out/gpusql.log"
exit $rc
