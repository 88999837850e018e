#!/usr/bin/env bash
# Runs on the device machine (docs/performance.md, "ClickBench"):
# ClickBench's 43 queries over ROWS rows of hits made by hitsgen, on DuckDB
# with every core, then on gpusql's GPU backend, over the same file on the
# same host, with scripts/clickbench.sh (per query the hot times, the
# speedups over DuckDB, the hot sums and the geometric mean).
#
#   scripts/clickbench-device.sh [ROWS [BIN]]
#
# ROWS: rows of hits (default 50000000); BIN: the directory holding
# hitsgen, gpusql-tpch and duckbench, gzipped or not (default .devbin).
# The device has no Go: build them here and carry BIN:
#
#   CGO_ENABLED=0 go build -ldflags='-s -w' -o .devbin/hitsgen ./tools/hitsgen
#   CGO_ENABLED=0 go build -ldflags='-s -w' -o .devbin/gpusql-tpch ./cmd/gpusql-tpch
#   (cd tools/duckbench && go build -ldflags='-s -w' -o ../../.devbin/duckbench .)
#   gzip -9 .devbin/*
#   run(command: "bash scripts/clickbench-device.sh 50000000 .devbin", carry: [".devbin"])
#
# The file goes to /tmp/hits-ROWS/hits.csv (about 700 bytes a row: 35 GB
# at 50 M rows) and is kept while the machine is: STEP=gen only makes it
# (hitsgen with every core; run it alone first at 50 M rows, so that the
# benchmark's call has the 10 minutes to itself), STEP=run only runs the
# queries on a file made earlier. gpusql holds text at the width of the
# widest value: hitsgen's rows take about 1.6 KB each there, 78 GB of GPU
# memory at 50 M rows (needs_h200; 10 M rows fit an H100).
# Also: DEVICE (default cuda; cuda,cpu times the CPU backend too), COMPARE
# (cpu: every query's rows on the GPU compared with the CPU backend's,
# which holds a second copy in host memory; default on up to 10 M rows),
# RUNS, WARMUP, ONLY, DUCKDB=0, THREADS. Logs and JSON lines go to $OUT
# (default /tmp: gpusql.log, duckdb.log).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
rows=${1:-${ROWS:-50000000}}
bin=${2:-${BIN:-.devbin}}
step=${STEP:-all}
for f in "$bin"/*.gz; do [ -e "$f" ] && gunzip -f "$f"; done
chmod +x "$bin"/* 2>/dev/null
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | sed 's/^/device: /'
dir=/tmp/hits-$rows
if [ "$step" != run ] && [ ! -f "$dir/hits.csv" ]; then
	mkdir -p "$dir"
	t0=$(date +%s)
	# made under another name, so that a file cut short is never reused
	"$bin/hitsgen" -rows "$rows" -workers "$(nproc)" -o "$dir/hits.csv.part" || exit 1
	mv "$dir/hits.csv.part" "$dir/hits.csv"
	echo "hitsgen $rows rows: $(($(date +%s) - t0)) s, $(du -sh "$dir/hits.csv" | cut -f1)"
fi
[ "$step" = gen ] && exit 0
[ -f "$dir/hits.csv" ] || { echo "clickbench-device.sh: no $dir/hits.csv (STEP=gen makes it)" >&2; exit 1; }
compare=cpu
[ "$rows" -gt 10000000 ] && compare=
BIN=$bin ROWS=$rows DIR=$dir DEVICE=${DEVICE:-cuda} COMPARE=${COMPARE-$compare} OUT=${OUT:-/tmp} \
	exec scripts/clickbench.sh
