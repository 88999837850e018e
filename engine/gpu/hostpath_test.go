package gpu_test

import (
	"fmt"
	"math/rand"
	"path/filepath"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/cpu"
	"github.com/gpusql/gpusql/engine/gpu"
	"github.com/gpusql/gpusql/loader"
)

// hostPathQueries project, over a window's output, columns passed
// through beside a numeric quotient whose scale varies by row: the
// device pipeline gives up on packing the quotient (errHostPath) and the
// host path reads the pipeline's input again, so that input must still
// be whole. An earlier version had handed its columns to the abandoned
// output, and the host path read freed memory: TPC-H-window w05 failed
// with CUDA_ERROR_ILLEGAL_ADDRESS at SF 1 and SF 10. These queries did
// not reproduce that failure at 4 M rows on an H200 (the freed buffers
// happened not to be read before the refusal below); they check that the
// answer is the CPU backend's or 0A000 (the quotient has more than 18
// digits, which no device intermediate holds), and that the device still
// answers afterwards.
var hostPathQueries = []string{
	`SELECT sum(x), max(s), max(r), count(*) FROM (SELECT id AS s, n / 7 AS x, row_number() OVER (ORDER BY id) AS r FROM wt) q`,
	// TPC-H-window w05's shape, which failed so at SF 1
	`SELECT sum(x), max(dr), sum(mv) FROM (SELECT n / nullif(sum(n) OVER (PARTITION BY p), 0) AS x,
	        dense_rank() OVER (PARTITION BY h ORDER BY d) AS dr,
	        count(*) OVER (PARTITION BY o ORDER BY id ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING) AS mv FROM wt) q`,
	`SELECT max(s), min(x) FROM (SELECT id AS s, o * 1.5 AS x, dense_rank() OVER (ORDER BY o) AS d FROM wt) q`,
}

// TestHostPathKeepsInput runs hostPathQueries on the device at 4 M rows
// (columns past the pool's small sizes, freed for real) against the CPU
// backend: equal rows or 0A000, never another error.
func TestHostPathKeepsInput(t *testing.T) {
	if testing.Short() {
		t.Skip("4 M rows")
	}
	dev := openDev(t)
	host := loader.NewCPU(loader.Config{})
	dir := t.TempDir()
	writeWindowCSV(t, filepath.Join(dir, "wt.csv"), 4_000_000, rand.New(rand.NewSource(11)))
	cs := newSession(t, dir, cpu.New(host, 4), windowDDL)
	gs := newSession(t, dir, gpu.New(dev, gpu.HostLoader{Dev: dev, Host: host}), windowDDL)
	for _, q := range hostPathQueries {
		want, werr := runSQL(t, cs, q)
		if werr != nil {
			t.Fatalf("cpu: %s: %v", q, werr)
		}
		got, gerr := runSQL(t, gs, q)
		switch {
		case engine.Code(gerr) == engine.CodeFeatureNotSupported:
			t.Logf("refused on the GPU: %s: %v", q, gerr)
		case gerr != nil:
			t.Errorf("%s: gpu error %v", q, gerr)
		case fmt.Sprint(want) != fmt.Sprint(got):
			t.Errorf("%s\n%s", q, rowDiff(want, got))
		}
		// the device still works after it
		if _, err := runSQL(t, gs, `SELECT count(*), sum(id) FROM wt`); err != nil {
			t.Fatalf("after %s: %v", q, err)
		}
	}
}
