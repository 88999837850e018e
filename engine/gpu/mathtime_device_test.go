package gpu_test

import (
	"math/rand"
	"path/filepath"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/gpu"
)

// TestMathTimeMatchCPU runs gpu.MathTimeQueries on a CPU-backed and a
// GPU-backed server over the same CSV, each in its session zone: results
// and errors must be equal, or the GPU must refuse with 0A000 (counted;
// an error for a query marked OnGPU).
func TestMathTimeMatchCPU(t *testing.T) {
	dev := openDev(t)
	dir := t.TempDir()
	gpu.WriteMathTimeCSV(t, filepath.Join(dir, "mt.csv"), 50_000, rand.New(rand.NewSource(11)))
	cs, gs := twinSessions(t, dev, dir, gpu.MathTimeDDL)
	refused := 0
	for _, tc := range gpu.MathTimeQueries {
		for _, s := range []engine.Session{cs, gs} {
			if _, err := runSQL(t, s, `SET TIME ZONE '`+tc.Zone+`'`); err != nil {
				t.Fatal(err)
			}
		}
		if err := compareQuery(t, cs, gs, tc.SQL, twinOpts{ordered: orderedUpper}); err != nil {
			refused++
			if tc.OnGPU {
				t.Errorf("%s: refused on the GPU: %v", tc.SQL, err)
			}
		}
	}
	t.Logf("%d of %d queries ran on the GPU and matched; %d refused with 0A000", len(gpu.MathTimeQueries)-refused, len(gpu.MathTimeQueries), refused)
}
