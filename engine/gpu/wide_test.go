package gpu_test

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/cpu"
	"github.com/gpusql/gpusql/engine/gpu"
	"github.com/gpusql/gpusql/loader"
)

// writeWideCSV writes table tw's columns (gpu.WideDDL): ids, integers
// hitting every CASE branch and none, numerics and doubles at their
// extremes, strings with quotes and multibyte text, NULLs everywhere.
func writeWideCSV(t *testing.T, path string, n int, rng *rand.Rand) {
	as := []string{"1.50", "-1.50", "0.00", "2.00", "", "99999999.99", "-99999999.99", "0.01"}
	fs := []string{"1.5", "-0.1", "0", "", "1e200", "-1e-300", "3.25", "NaN", "-0"}
	ss := []string{"abc", `"a""b"`, "日本語", "", "x y", `a\b`, "é"}
	vs := []string{"ab", "é", "日本", "", "xyz12", "Q"}
	pick := func(s []string) string { return s[rng.Intn(len(s))] }
	var b strings.Builder
	for i := 0; i < n; i++ {
		c := fmt.Sprint(rng.Intn(1100) - 50)
		if rng.Intn(20) == 0 {
			c = ""
		}
		fmt.Fprintf(&b, "%d,%s,%s,%s,%s,%s\n", i, c, pick(as), pick(fs), pick(ss), pick(vs))
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestWideMatchesCPU compares gpu.WideQueries (programs of up to ~3,400
// registers and instructions: past the thread's own register file and
// the shared instruction list) on the device with the CPU backend at 1,
// 5,000 and 70,000 rows, the pool poisoned before each query.
func TestWideMatchesCPU(t *testing.T) {
	skipCPUHalfUnderRace(t)
	host := loader.NewCPU(loader.Config{})
	mk := func(dir string, b engine.Backend) engine.Session {
		return newSession(t, dir, b, gpu.WideDDL+` FROM CSV 'tw.csv'`)
	}
	type result struct {
		rows []string
		err  error
	}
	queries := gpu.WideQueries()
	sizes := []int{1, 5000, 70000}
	dirs := make([]string, len(sizes))
	want := make([][]result, len(sizes))
	for si, n := range sizes {
		dirs[si] = t.TempDir()
		writeWideCSV(t, filepath.Join(dirs[si], "tw.csv"), n, rand.New(rand.NewSource(int64(n)+11)))
		c1 := mk(dirs[si], cpu.New(host, 4))
		for _, q := range queries {
			r, err := runSQL(t, c1, q)
			if err != nil {
				t.Errorf("%d rows: %.60s: %v", n, q, err)
			}
			want[si] = append(want[si], result{r, err})
		}
	}
	dev := openDev(t)
	for si, n := range sizes {
		gs := mk(dirs[si], gpu.New(dev, gpu.HostLoader{Dev: dev, Host: host}))
		for k, q := range queries {
			poisonPool(t, dev)
			w := want[si][k]
			got, gerr := runSQL(t, gs, q)
			if engine.Code(w.err) != engine.Code(gerr) {
				t.Errorf("%d rows: %.60s\n cpu error %v\n gpu error %v", n, q, w.err, gerr)
				continue
			}
			wr := append([]string(nil), w.rows...)
			sort.Strings(wr)
			sort.Strings(got)
			if len(wr) != len(got) {
				t.Errorf("%d rows: %.60s: %d rows on the CPU, %d on the GPU", n, q, len(wr), len(got))
				continue
			}
			for r := range wr {
				if wr[r] != got[r] {
					t.Errorf("%d rows: %.60s\n row %d\n cpu %.300q\n gpu %.300q", n, q, r, wr[r], got[r])
					break
				}
			}
		}
	}
}
