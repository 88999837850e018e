# gpusql: build, run and test entry points. `make help` lists them.

SHELL := /bin/bash
export PATH := /usr/local/go/bin:$(PATH)

GO        ?= go
BIN       := bin/gpusql
DATA_DIR  ?= ./gpusql-data
# Packages also tested under the race detector by `make test`.
RACE_PKGS ?= ./engine/... ./loader/... ./query/... ./wire/...
TEST_TIMEOUT ?= 20m
FUZZTIME  ?= 30s
NVCC      ?= nvcc
NVCCFLAGS ?= -O3

.PHONY: all help build run test vet test-race test-go bench fuzz ptx clean

all: build

help:
	@echo "make build   build $(BIN)"
	@echo "make run     build, create the demo table if none exists, start the server (data dir $(DATA_DIR))"
	@echo "make test    go vet, go test -race on core packages, go test ./... (incl. the PostgreSQL differential test)"
	@echo "make bench   run the benchmarks"
	@echo "make fuzz    run each fuzz target for FUZZTIME=$(FUZZTIME)"
	@echo "make ptx     compile cuda/*.cu to PTX (needs nvcc)"
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

# Placeholder until the CUDA kernels land: each cuda/X.cu becomes cuda/X.ptx.
ptx:
	@command -v $(NVCC) >/dev/null 2>&1 || { \
		echo "make ptx: nvcc (the CUDA toolkit) is needed to build cuda/*.cu into PTX, and it is not in PATH" >&2; \
		exit 1; }
	@shopt -s nullglob; srcs=(cuda/*.cu); \
	if [ $${#srcs[@]} -eq 0 ]; then echo "make ptx: nothing to build (no cuda/*.cu)"; exit 0; fi; \
	for f in "$${srcs[@]}"; do \
		echo "$(NVCC) -ptx $(NVCCFLAGS) -o $${f%.cu}.ptx $$f"; \
		$(NVCC) -ptx $(NVCCFLAGS) -o "$${f%.cu}.ptx" "$$f" || exit 1; \
	done

# Removes build outputs only; the data dir ($(DATA_DIR)) is kept.
clean:
	rm -rf bin
	rm -f cuda/*.ptx
