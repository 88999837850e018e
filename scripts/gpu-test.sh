#!/usr/bin/env bash
# Runs on the device machine (see docs/gpu.md): every test binary that
# `make gpu-test` put in .devbin/, each from its package's directory, with
# -test.v; logs go to $OUT (when set) and a summary ends the output.
#
#   bash scripts/gpu-test.sh                 # all tests
#   bash scripts/gpu-test.sh -test.run Copy  # extra flags go to every binary
#   GPU_BENCH=1 bash scripts/gpu-test.sh     # also run benchmarks (-test.bench .)
#   GPU_ONLY="cuda loader" bash scripts/gpu-test.sh  # only these package dirs
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
manifest=.devbin/tests.txt
if [ ! -s "$manifest" ]; then
	echo "gpu-test.sh: no $manifest: run 'make gpu-test' here first and carry .devbin" >&2
	exit 2
fi
logdir=${OUT:-$root/.devbin/logs}
mkdir -p "$logdir"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | sed 's/^/device: /'
extra=("$@")
if [ "${GPU_BENCH:-0}" = 1 ]; then
	extra+=(-test.bench . -test.benchtime "${GPU_BENCHTIME:-5x}")
fi
rc=0
summary=()
while read -r bin dir; do
	[ -n "$bin" ] || continue
	if [ -n "${GPU_ONLY:-}" ] && [[ " $GPU_ONLY " != *" $dir "* ]]; then continue; fi
	log=$logdir/${bin%.test}.log
	echo "=== $dir ($bin)"
	start=$(date +%s%N)
	(cd "$dir" && "$root/.devbin/$bin" -test.v -test.count=1 -test.timeout "${GPU_TEST_TIMEOUT:-8m}" "${extra[@]}") >"$log" 2>&1
	st=$?
	ms=$((($(date +%s%N) - start) / 1000000))
	pass=$(grep -c -- '^--- PASS' "$log"); fail=$(grep -c -- '^--- FAIL' "$log"); skip=$(grep -c -- '^--- SKIP' "$log")
	grep -E -- '^(--- FAIL|--- SKIP|panic|FAIL|ok|Benchmark)|^\s+\S+_test\.go:[0-9]+:' "$log" | head -60
	[ $st -eq 0 ] || rc=1
	summary+=("$(printf '%-28s exit %-3s pass %-4s fail %-4s skip %-4s %s ms' "$dir" "$st" "$pass" "$fail" "$skip" "$ms")")
done <"$manifest"
echo
echo "== summary (full logs in $logdir)"
printf '%s\n' "${summary[@]}"
exit $rc
