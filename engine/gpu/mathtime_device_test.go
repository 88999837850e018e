package gpu_test

import (
	"math/rand"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/cpu"
	"github.com/gpusql/gpusql/engine/gpu"
	"github.com/gpusql/gpusql/loader"
)

// TestMathTimeMatchCPU runs gpu.MathTimeQueries on a CPU-backed and a
// GPU-backed server over the same CSV, each in its session zone: results
// and errors must be equal, or the GPU must refuse with 0A000 (counted;
// an error for a query marked OnGPU).
func TestMathTimeMatchCPU(t *testing.T) {
	dev := openDev(t)
	dir := t.TempDir()
	gpu.WriteMathTimeCSV(t, filepath.Join(dir, "mt.csv"), 50_000, rand.New(rand.NewSource(11)))
	host := loader.NewCPU(loader.Config{})
	mk := func(b engine.Backend) engine.Session {
		return newSession(t, dir, b, gpu.MathTimeDDL)
	}
	cs := mk(cpu.New(host, 0))
	gs := mk(gpu.New(dev, gpu.HostLoader{Dev: dev, Host: host}))
	refused := 0
	for _, tc := range gpu.MathTimeQueries {
		for _, s := range []engine.Session{cs, gs} {
			if _, err := runSQL(t, s, `SET TIME ZONE '`+tc.Zone+`'`); err != nil {
				t.Fatal(err)
			}
		}
		want, werr := runSQL(t, cs, tc.SQL)
		got, gerr := runSQL(t, gs, tc.SQL)
		if gerr != nil && engine.Code(gerr) == engine.CodeFeatureNotSupported && engine.Code(werr) != engine.CodeFeatureNotSupported {
			refused++
			if tc.OnGPU {
				t.Errorf("%s: refused on the GPU: %v", tc.SQL, gerr)
			}
			continue
		}
		if engine.Code(werr) != engine.Code(gerr) {
			t.Errorf("%s\n cpu error %v\n gpu error %v", tc.SQL, werr, gerr)
			continue
		}
		if !strings.Contains(strings.ToUpper(tc.SQL), "ORDER BY") {
			sort.Strings(want)
			sort.Strings(got)
		}
		if d := rowDiff(want, got); d != "" {
			t.Errorf("%s\n %s", tc.SQL, d)
		}
	}
	t.Logf("%d of %d queries ran on the GPU and matched; %d refused with 0A000", len(gpu.MathTimeQueries)-refused, len(gpu.MathTimeQueries), refused)
}
