package gpu_test

import (
	"fmt"
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

// TestCallStepsMatchCPU runs gpu.CallStepQueries (calls the kernels
// refuse, run as host steps, and date_part's kernel) on the device and on
// the CPU backend at 1, 5,000 and 70,000 rows of NaN, infinities, -0,
// subnormals, NULLs and DST instants, the device's pool poisoned before
// each query: no 0A000, the same rows, and the same errors (SQLSTATE and
// message). EXPLAIN names the steps.
func TestCallStepsMatchCPU(t *testing.T) {
	dev := openDev(t)
	host := loader.NewCPU(loader.Config{})
	for _, n := range []int{1, 5000, 70000} {
		dir := t.TempDir()
		gpu.WriteCallStepCSV(t, filepath.Join(dir, "cs.csv"), n, rand.New(rand.NewSource(int64(n)+7)))
		cs := newSession(t, dir, cpu.New(host, 1), gpu.CallStepDDL)
		gs := newSession(t, dir, gpu.New(dev, gpu.HostLoader{Dev: dev, Host: host}), gpu.CallStepDDL)
		for _, tc := range gpu.CallStepQueries {
			for _, s := range []engine.Session{cs, gs} {
				if _, err := runSQL(t, s, `SET TIME ZONE '`+tc.Zone+`'`); err != nil {
					t.Fatal(err)
				}
			}
			want, werr := runSQL(t, cs, tc.SQL)
			poisonPool(t, dev)
			got, gerr := runSQL(t, gs, tc.SQL)
			if engine.Code(gerr) == engine.CodeFeatureNotSupported {
				t.Errorf("%d rows: %s: refused on the GPU: %v", n, tc.SQL, gerr)
				continue
			}
			if fmt.Sprint(werr) != fmt.Sprint(gerr) || engine.Code(werr) != engine.Code(gerr) {
				t.Errorf("%d rows: %s\n cpu error %v\n gpu error %v", n, tc.SQL, werr, gerr)
				continue
			}
			if werr != nil && !tc.Err && n > 1 {
				t.Errorf("%d rows: %s: %v", n, tc.SQL, werr)
			}
			if !strings.Contains(tc.SQL, "ORDER BY") {
				sort.Strings(want)
				sort.Strings(got)
			}
			if d := rowDiff(want, got); d != "" {
				t.Errorf("%d rows: %s\n %s", n, tc.SQL, d)
			}
		}
		if n != 5000 {
			continue
		}
		rows, err := runSQL(t, gs, `EXPLAIN SELECT exp(f), date_part('year', ts), to_char(ts, 'YYYY') FROM cs`)
		if err != nil {
			t.Fatal(err)
		}
		var steps []string
		for _, l := range rows {
			if strings.HasPrefix(l, "Host Step") {
				steps = append(steps, l)
			}
		}
		if fmt.Sprint(steps) != "[Host Step: to_char(#4(ts))]" {
			t.Errorf("EXPLAIN's steps: %q", steps)
		}
	}
}

// TestHostAggsMatchCPU runs gpu.HostAggQueries (percentiles, mode,
// statistics and DISTINCT forms the kernels refuse: the device computes
// keys and arguments, the host aggregates) on the device and on the CPU
// backend at 1, 5,000 and 70,000 rows, the pool poisoned before each
// query: no 0A000, the same rows and errors.
func TestHostAggsMatchCPU(t *testing.T) {
	dev := openDev(t)
	host := loader.NewCPU(loader.Config{})
	for _, n := range []int{1, 5000, 70000} {
		dir := t.TempDir()
		gpu.WriteCallStepCSV(t, filepath.Join(dir, "cs.csv"), n, rand.New(rand.NewSource(int64(n)+9)))
		cs := newSession(t, dir, cpu.New(host, 1), gpu.CallStepDDL)
		gs := newSession(t, dir, gpu.New(dev, gpu.HostLoader{Dev: dev, Host: host}), gpu.CallStepDDL)
		for _, q := range gpu.HostAggQueries {
			want, werr := runSQL(t, cs, q)
			poisonPool(t, dev)
			got, gerr := runSQL(t, gs, q)
			if engine.Code(gerr) == engine.CodeFeatureNotSupported {
				t.Errorf("%d rows: %s: refused on the GPU: %v", n, q, gerr)
				continue
			}
			if fmt.Sprint(werr) != fmt.Sprint(gerr) {
				t.Errorf("%d rows: %s\n cpu error %v\n gpu error %v", n, q, werr, gerr)
				continue
			}
			if d := rowDiff(want, got); d != "" {
				t.Errorf("%d rows: %s\n %s", n, q, d)
			}
		}
	}
}
