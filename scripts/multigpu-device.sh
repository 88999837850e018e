#!/usr/bin/env bash
# Runs on a device machine with several GPUs (docs/performance.md,
# "Several GPUs"): STEP=check runs the differential corpus over split
# tables (TestDeviceSplitCorpus) and TPC-H SF 1 on every GPU against the
# answers; STEP=bench times TPC-H at SF (default 10) on one GPU and on
# every GPU, one after the other on the same host; STEP=scan does so for
# lineitem alone (the load, Q1 and Q6) at SF (default 30). Carry .devbin holding
# cmd_gpusql.test, gpusql-tpch and tpchgen (xz-compressed or not).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bin=$root/.devbin
for f in "$bin"/*.xz; do [ -e "$f" ] && xz -d -f "$f"; done
chmod +x "$bin"/* 2>/dev/null
nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader | sed 's/^/device: /'
nvidia-smi topo -m 2>/dev/null | head -4
echo "host: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB; $(date -u +%F)"
gen() { # gen SF: TPC-H files in /tmp/tpch-sfSF
	local d=/tmp/tpch-sf$1
	if [ ! -f "$d/.complete" ]; then
		"$bin/tpchgen" -q -sf "$1" -dir "$d" -workers "$(nproc)" || exit 1
		touch "$d/.complete"
	fi
	cat "$d"/*.csv >/dev/null
}
case "${STEP:-check}" in
check)
	(cd cmd/gpusql && "$bin/cmd_gpusql.test" -test.run 'TestDeviceSplitCorpus' -test.v -test.timeout 500s 2>&1 |
		grep -E '^(--- |ok|FAIL|PASS)|corpus, |differs|refused' | head -60)
	gen 1
	"$bin/gpusql-tpch" -data /tmp/tpch-sf1 -sf 1 -device cuda -runs 1 -check testdata/tpch/answers/sf1 2>&1 | grep -v '^{' | tail -30
	;;
bench)
	# COMPARE=cpu checks every answer against the CPU backend;
	# REDIST=1 adds a run that redistributes every join tree it can
	sf=${SF:-10}
	gen "$sf"
	cmp=()
	[ -n "${COMPARE:-}" ] && cmp=(-compare "$COMPARE")
	for g in 0 "${GPUS:-0,1}"; do
		echo "== GPUs $g"
		"$bin/gpusql-tpch" -data "/tmp/tpch-sf$sf" -sf "$sf" -device cuda -gpus "$g" -runs "${RUNS:-3}" -warmup 1 "${cmp[@]}" 2>&1 | grep -v '^{'
	done
	if [ -n "${REDIST:-}" ]; then
		echo "== GPUs ${GPUS:-0,1}, every join tree redistributed"
		"$bin/gpusql-tpch" -data "/tmp/tpch-sf$sf" -sf "$sf" -device cuda -gpus "${GPUS:-0,1}" -redistribute -runs "${RUNS:-3}" -warmup 1 "${cmp[@]}" 2>&1 | grep -v '^{'
	fi
	;;
scan)
	# lineitem alone at SF (default 30): the load, and the scans and
	# aggregates (Q1, Q6) that run on every GPU at once; the load both
	# mapped (the default) and with pread
	sf=${SF:-30}
	gen "$sf"
	for g in 0 "${GPUS:-0,1}"; do
		for rd in mapped pread; do
			echo "== GPUs $g, files $rd"
			flag=()
			[ "$rd" = pread ] && flag=(-pread)
			"$bin/gpusql-tpch" -data "/tmp/tpch-sf$sf" -sf "$sf" -device cuda -gpus "$g" -tables lineitem -only "${ONLY:-q01,q06}" \
				"${flag[@]}" -runs "${RUNS:-5}" -warmup 2 2>&1 | grep -v '^{'
		done
	done
	;;
esac
