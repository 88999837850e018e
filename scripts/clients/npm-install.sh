#!/usr/bin/env bash
# Installs node-postgres and postgres.js for cmd/gpusql's client tests, and
# DuckDB (@duckdb/node-api, which brings its prebuilt library as an npm
# package) for query's TestParquetWriteDuckDB, into
# testdata/clients/node/node_modules with `npm ci` (the versions of
# package-lock.json), unless the installed tree already matches the lock
# file (npm writes node_modules/.package-lock.json; same content, nothing
# to do). Called by .ci/run.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../testdata/clients/node"
if ! command -v npm >/dev/null 2>&1; then
	echo "npm-install.sh: npm not found" >&2
	exit 1
fi
if [ -f node_modules/.package-lock.json ] && [ -f node_modules/pg/package.json ] && [ -f node_modules/postgres/package.json ] &&
	[ -f node_modules/@duckdb/node-api/package.json ] &&
	[ node_modules/.package-lock.json -nt package-lock.json ]; then
	exit 0
fi
echo "== npm ci in testdata/clients/node"
for attempt in 1 2 3; do
	if npm ci --no-audit --no-fund --loglevel=error; then
		exit 0
	fi
	[ "$attempt" -eq 3 ] || sleep 10
done
echo "npm-install.sh: npm ci failed" >&2
exit 1
