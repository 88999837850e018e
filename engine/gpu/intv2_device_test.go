package gpu_test

import (
	"math/rand"
	"path/filepath"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/gpu"
)

// TestIntv2MatchCPU runs gpu.Intv2Queries (justify_*, date_trunc of an
// interval, age, timestamptz differences, random(), numeric host steps
// of several scales, numeric to float) on a CPU-backed and a GPU-backed
// server over the same CSV, each in its session zone: results and
// errors must be equal, none refused.
func TestIntv2MatchCPU(t *testing.T) {
	dev := openDev(t)
	dir := t.TempDir()
	gpu.WriteMathTimeCSV(t, filepath.Join(dir, "mt.csv"), 50_000, rand.New(rand.NewSource(12)))
	cs, gs := twinSessions(t, dev, dir, gpu.MathTimeDDL)
	for _, tc := range gpu.Intv2Queries {
		for _, s := range []engine.Session{cs, gs} {
			if _, err := runSQL(t, s, `SET TIME ZONE '`+tc.Zone+`'`); err != nil {
				t.Fatal(err)
			}
		}
		if err := compareQuery(t, cs, gs, tc.SQL, twinOpts{ordered: orderedUpper}); err != nil {
			t.Errorf("%s: refused on the GPU: %v", tc.SQL, err)
		}
	}
}
