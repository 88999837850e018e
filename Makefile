# gpusql: build, run and test entry points. `make help` lists them.

SHELL := /bin/bash
export PATH := /usr/local/go/bin:$(PATH)

GO        ?= go
BIN       := bin/gpusql
DATA_DIR  ?= ./gpusql-data
# Packages also tested under the race detector by `make test`.
RACE_PKGS ?= . ./engine/... ./loader/... ./query/... ./wire/...
TEST_TIMEOUT ?= 30m
FUZZTIME  ?= 30s
NVCC      ?= nvcc
NVCCFLAGS ?= -O3

# make clickbench: rows of the generated hits, gpusql backends to time,
# and a real hits file to use instead (scripts/clickbench.sh has the rest).
ROWS      ?= 1000000
DEVICE    ?= cpu
HITS      ?=

.PHONY: all help build run test vet test-race test-go bench fuzz ptx gpu-test clickbench bench-peer clean

all: build

help:
	@echo "make build   build $(BIN)"
	@echo "make run     build, create the demo table if none exists, start the server (data dir $(DATA_DIR))"
	@echo "make test    go vet, go test -race on core packages, go test ./... (incl. the PostgreSQL differential test)"
	@echo "make bench   run the benchmarks"
	@echo "make fuzz    run each fuzz target (CSV reader, wire decoder, parser, queries) for FUZZTIME=$(FUZZTIME)"
	@echo "make ptx     compile cuda/*.cu to PTX (needs nvcc)"
	@echo "make gpu-test build GPU test binaries into .devbin/ for the device machine (docs/gpu.md)"
	@echo "make clickbench  ClickBench's 43 queries on gpusql (DEVICE=$(DEVICE)) and DuckDB over hits of ROWS=$(ROWS)"
	@echo "            generated rows, or HITS=/path/hits.tsv (docs/performance.md, \"ClickBench\")"
	@echo "make bench-peer  the peer query shapes (testdata/bench/peer) on gpusql (DEVICE=$(DEVICE)) and DuckDB"
	@echo "            over a generated lineitem of PEER_ROWS=$(PEER_ROWS) rows (docs/performance.md, \"Beside DuckDB\")"
	@echo "make clean   remove build outputs"

build:
	$(GO) build -o $(BIN) ./cmd/gpusql

run: build
	@mkdir -p $(DATA_DIR)
	$(BIN) --data-dir $(DATA_DIR) --demo

# Every step runs even when an earlier one fails, so one run reports all
# problems; the exit status is non-zero if any failed. The full go test run
# is last, so its summary ends the output.
test:
	@rc=0; \
	echo "== go vet ./..."; \
	$(GO) vet ./... || rc=1; \
	echo "== go test -race $(RACE_PKGS)"; \
	$(GO) test -race -count=1 -timeout $(TEST_TIMEOUT) $(RACE_PKGS) || rc=1; \
	echo "== go test ./..."; \
	$(GO) test -count=1 -timeout $(TEST_TIMEOUT) ./... || rc=1; \
	exit $$rc

vet:
	$(GO) vet ./...

test-race:
	$(GO) test -race -count=1 -timeout $(TEST_TIMEOUT) $(RACE_PKGS)

test-go:
	$(GO) test -count=1 -timeout $(TEST_TIMEOUT) ./...

# Benchmarks of every package that has some.
bench:
	@pkgs=$$(grep -rl --include='*_test.go' --exclude-dir=.git --exclude-dir=testdata '^func Benchmark' . \
		| xargs -r -n1 dirname | sort -u); \
	if [ -z "$$pkgs" ]; then echo "make bench: no benchmarks found"; exit 0; fi; \
	echo "$(GO) test -run '^$$' -bench . -benchmem" $$pkgs; \
	$(GO) test -run '^$$' -bench . -benchmem $$pkgs

fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzLoad$$' -fuzztime $(FUZZTIME) ./loader
	$(GO) test -run '^$$' -fuzz '^FuzzDecode$$' -fuzztime $(FUZZTIME) ./wire
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./query/parse
	$(GO) test -run '^$$' -fuzz '^FuzzQuery$$' -fuzztime $(FUZZTIME) ./query

# Each cuda/X.cu becomes cuda/X.ptx and cuda/X.sass.gz (both committed,
# embedded by the cuda package): compute_80 PTX, which the driver JIT-
# compiles for any GPU from the A100 on, and a gzipped fatbin of machine
# code (SASS) for SASS_ARCHS, which the driver loads without compiling
# (docs/gpu.md, "Shipped machine code"). The PTX's first line and the
# fatbin's gzip comment record the source's SHA-256; cuda/ptx_test.go
# and cuda/sass_test.go check them, so CI catches a .cu edited without
# `make ptx` and needs no nvcc. PTX_SRCS=cuda/X.cu builds one.
PTX_ARCH  ?= compute_80
PTX_SRCS  ?= cuda/*.cu
SASS_ARCHS ?= 80 86 89 90
ptx:
	@command -v $(NVCC) >/dev/null 2>&1 || { \
		echo "make ptx: nvcc (the CUDA toolkit) is needed to build cuda/*.cu into PTX, and it is not in PATH" >&2; \
		exit 1; }
	@shopt -s nullglob; srcs=($(PTX_SRCS)); \
	if [ $${#srcs[@]} -eq 0 ]; then echo "make ptx: nothing to build (no cuda/*.cu)"; exit 0; fi; \
	for f in "$${srcs[@]}"; do \
		out=$${f%.cu}.ptx; \
		echo "$(NVCC) -ptx -arch=$(PTX_ARCH) $(NVCCFLAGS) -lineinfo -o $$out $$f"; \
		$(NVCC) -ptx -arch=$(PTX_ARCH) $(NVCCFLAGS) -lineinfo -o "$$out.tmp" "$$f" || { rm -f "$$out.tmp"; exit 1; }; \
		{ echo "// gpusql-source-sha256: $$(sha256sum "$$f" | cut -d' ' -f1)"; cat "$$out.tmp"; } > "$$out" && rm -f "$$out.tmp" || exit 1; \
		gen=""; for a in $(SASS_ARCHS); do gen="$$gen -gencode arch=compute_$$a,code=sm_$$a"; done; \
		fb=$${f%.cu}.fatbin.tmp; \
		echo "$(NVCC) -fatbin$$gen $(NVCCFLAGS) -o $$fb $$f"; \
		$(NVCC) -fatbin $$gen $(NVCCFLAGS) -o "$$fb" "$$f" || { rm -f "$$fb"; exit 1; }; \
		$(GO) run ./cuda/sasspack -src "$$f" -fatbin "$$fb" -out "$${f%.cu}.sass.gz" && rm -f "$$fb" || exit 1; \
	done

# Builds the test binary of every package whose code or tests use the cuda
# package into .devbin/ (with a manifest of package dirs), to be run on the
# device machine by scripts/gpu-test.sh; see docs/gpu.md.
GPU_PKGS ?= $$($(GO) list -f '{{.ImportPath}} {{join .Imports " "}} {{join .TestImports " "}} {{join .XTestImports " "}}' ./... \
	| awk '{ for (i = 1; i <= NF; i++) if ($$i == "github.com/gpusql/gpusql/cuda") { print $$1; next } }')
gpu-test:
	@set -e; rm -rf .devbin; mkdir -p .devbin; : > .devbin/tests.txt; \
	mod=$$($(GO) list -m); \
	for p in $(GPU_PKGS); do \
		[ -n "$$(ls $$($(GO) list -f '{{.Dir}}' $$p)/*_test.go 2>/dev/null)" ] || continue; \
		rel=$${p#$$mod}; rel=$${rel#/}; name=$$(echo "$${rel:-gpusql}" | tr / _).test; \
		echo "$(GO) test -c -o .devbin/$$name ./$$rel"; \
		CGO_ENABLED=0 $(GO) test -c -ldflags='-s -w' -o .devbin/$$name ./$$rel; \
		echo "$$name $$rel" >> .devbin/tests.txt; \
	done; \
	du -ch .devbin/*.test | tail -1; \
	echo; echo "Run them on the device machine with the run tool:"; \
	echo '  run(command: "bash scripts/gpu-test.sh", carry: [".devbin"], timeout_s: 300)'

# ClickBench (docs/performance.md): builds tools/hitsgen, cmd/gpusql-tpch
# and tools/duckbench (cgo: needs gcc) into bin/, generates ROWS rows of
# hits into /tmp/gpusql-clickbench-ROWS (kept for the next run) unless
# HITS names a file, and runs the 43 queries on DuckDB and on each backend
# of DEVICE (cpu, cuda, or cuda,cpu). Also: RUNS, WARMUP, THREADS (DuckDB's),
# DUCKDB=0, COMPARE=cpu, ONLY=q08,q09, DIR, OUT (scripts/clickbench.sh).
clickbench:
	@mkdir -p bin
	$(GO) build -o bin/hitsgen ./tools/hitsgen
	$(GO) build -o bin/gpusql-tpch ./cmd/gpusql-tpch
	cd tools/duckbench && $(GO) build -o ../../bin/duckbench .
	BIN=bin ROWS=$(ROWS) DEVICE=$(DEVICE) HITS=$(HITS) scripts/clickbench.sh

# The peer benchmark (docs/performance.md, "Beside DuckDB"): builds
# cmd/gpusql-tpch and tools/duckbench (cgo: needs gcc) into bin/,
# generates PEER_ROWS rows of loader.WriteLineitem's lineitem into
# /tmp/gpusql-peer-PEER_ROWS (kept for the next run), and runs the query
# shapes of testdata/bench/peer on DuckDB and on each backend of DEVICE,
# printing both times and the speedup. Also: RUNS, WARMUP, THREADS
# (DuckDB's), DUCKDB=0, ONLY=05_group,07_top10, DIR, OUT (scripts/peer.sh).
PEER_ROWS ?= 6000000
bench-peer:
	@mkdir -p bin
	$(GO) build -o bin/gpusql-tpch ./cmd/gpusql-tpch
	cd tools/duckbench && $(GO) build -o ../../bin/duckbench .
	BIN=bin ROWS=$(PEER_ROWS) DEVICE=$(DEVICE) scripts/peer.sh

# Removes build outputs only; the data dir ($(DATA_DIR)) is kept.
clean:
	rm -rf bin .devbin
