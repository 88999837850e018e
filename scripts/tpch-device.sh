#!/usr/bin/env bash
# Runs on the device machine (docs/performance.md, "TPC-H"): TPC-H at scale
# factor SF (default 10) on gpusql's GPU backend, its answers compared with
# the CPU backend's (COMPARE=0 skips that), and on DuckDB, over the same
# files on the same host, one after the other. Carry .devbin holding
# tpchgen, gpusql-tpch and duckbench (gzipped or not):
#
#   (cd tools/tpchgen && CGO_ENABLED=0 go build -ldflags='-s -w' -o ../../.devbin/tpchgen .)
#   CGO_ENABLED=0 go build -ldflags='-s -w' -o .devbin/gpusql-tpch ./cmd/gpusql-tpch
#   (cd tools/duckbench && go build -ldflags='-s -w' -o ../../.devbin/duckbench .)
#   gzip -9 .devbin/*
#   run(command: "bash scripts/tpch-device.sh", carry: [".devbin"])
#
# Logs and JSON lines go to $OUT (gpusql.log, duckdb.log).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
sf=${SF:-10}
out=${OUT:-/tmp}
bin=.devbin
for f in "$bin"/*.gz; do [ -e "$f" ] && gunzip -f "$f"; done
chmod +x "$bin"/* 2>/dev/null
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | sed 's/^/device: /'
echo "host: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB; $(date -u +%F)"
dir=/tmp/tpch-sf$sf
if [ ! -f "$dir/.complete" ]; then
	t0=$(date +%s)
	"$bin/tpchgen" -q -sf "$sf" -dir "$dir" || exit 1
	touch "$dir/.complete"
	echo "tpchgen SF $sf: $(($(date +%s) - t0)) s, $(du -sh "$dir" | cut -f1)"
fi
cat "$dir"/*.csv >/dev/null # into the page cache
cmp=()
if [ "${COMPARE:-1}" = 1 ]; then cmp=(-compare cpu); fi
"$bin/gpusql-tpch" -data "$dir" -sf "$sf" -device cuda -runs "${RUNS:-5}" "${cmp[@]}" ${ONLY:+-only "$ONLY"} >"$out/gpusql.log" 2>&1
echo "gpusql-tpch exit $?"
grep -v '^{' "$out/gpusql.log"
if [ "${DUCKDB:-1}" = 1 ]; then
	"$bin/duckbench" -schema testdata/tpch/schema.sql -data "$dir" -sf "$sf" -threads "$(nproc)" -runs 3 testdata/tpch/queries >"$out/duckdb.log" 2>&1
	echo "duckbench exit $?"
	grep -v '^{' "$out/duckdb.log"
fi
