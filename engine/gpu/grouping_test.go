package gpu_test

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/cpu"
	"github.com/gpusql/gpusql/engine/gpu"
	"github.com/gpusql/gpusql/loader"
	"github.com/gpusql/gpusql/query"
)

// writeGroupingCSV writes ga's columns: id, a small integer key k with
// NULLs, a numeric(12,2), doubles that are multiples of 1/8 and others
// that are not, reals, booleans and a text group, all with NULLs, plus
// extremes (smallint's and bigint's ends for the bit aggregates).
func writeGroupingCSV(t *testing.T, path string, n int, rng *rand.Rand) {
	maybe := func(s string) string {
		if rng.Intn(9) == 0 {
			return ""
		}
		return s
	}
	groups := []string{"a", "b", "c", "", "dd"}
	var b strings.Builder
	for i := 0; i < n; i++ {
		d := fmt.Sprint(float64(rng.Intn(20000)-10000) / 8)
		if rng.Intn(4) == 0 {
			d = fmt.Sprint(rng.NormFloat64() * 1e3)
		}
		big := fmt.Sprint(rng.Int63n(1<<40) - 1<<39)
		if rng.Intn(100) == 0 {
			big = []string{"9223372036854775807", "-9223372036854775808"}[rng.Intn(2)]
		}
		s := fmt.Sprint(rng.Intn(65536) - 32768)
		fmt.Fprintf(&b, "%s,%s,%s,%s,%s,%s,%s,%s\n", big, maybe(fmt.Sprint(rng.Intn(7)-2)),
			maybe(fmt.Sprintf("%d.%02d", rng.Intn(200000)-100000, rng.Intn(100))), maybe(d),
			maybe(fmt.Sprint(float32(rng.Intn(4000)-2000)/4)), maybe([]string{"t", "f"}[rng.Intn(2)]),
			maybe(groups[rng.Intn(len(groups))]), maybe(s))
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestGroupingAggsMatchCPU compares GroupingQueries on the device with
// the CPU backend at 1, 5,000 and 70,000 rows, the device's pool
// poisoned before each query. The CPU backend is checked with 1 and 8
// workers first, so the statistics' order independence is tested where
// no GPU exists too.
func TestGroupingAggsMatchCPU(t *testing.T) {
	skipCPUHalfUnderRace(t)
	host := loader.NewCPU(loader.Config{})
	mk := func(dir string, b engine.Backend) engine.Session {
		srv, err := query.NewServer(query.Options{FileRoot: dir, DataDir: t.TempDir(), Backend: b})
		if err != nil {
			t.Fatal(err)
		}
		s, err := srv.NewSession(engine.SessionParams{User: "t", Database: "t"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := runSQL(t, s, `CREATE TABLE ga (id bigint, k integer, n numeric(12,2), d double precision, r real, b boolean, g text, s smallint) FROM CSV 'ga.csv'`); err != nil {
			t.Fatal(err)
		}
		return s
	}
	type result struct {
		rows []string
		err  error
	}
	sizes := []int{1, 5000, 70000}
	dirs := make([]string, len(sizes))
	want := make([][]result, len(sizes))
	for si, n := range sizes {
		dirs[si] = t.TempDir()
		writeGroupingCSV(t, filepath.Join(dirs[si], "ga.csv"), n, rand.New(rand.NewSource(int64(n)+41)))
		c1, c8 := mk(dirs[si], cpu.New(host, 1)), mk(dirs[si], cpu.New(host, 8))
		for _, q := range gpu.GroupingQueries {
			r1, e1 := runSQL(t, c1, q)
			r8, e8 := runSQL(t, c8, q)
			if e1 != nil {
				t.Errorf("%d rows: %s: %v", n, q, e1)
			}
			if fmt.Sprint(e1) != fmt.Sprint(e8) || fmt.Sprint(sorted(r1)) != fmt.Sprint(sorted(r8)) {
				t.Errorf("%d rows: the CPU backend with 1 and 8 workers differ: %s\n%q\n%q", n, q, sorted(r1), sorted(r8))
			}
			want[si] = append(want[si], result{r1, e1})
		}
	}
	dev := openDev(t)
	for si, n := range sizes {
		gs := mk(dirs[si], gpu.New(dev, gpu.HostLoader{Dev: dev, Host: host}))
		for k, q := range gpu.GroupingQueries {
			poisonPool(t, dev)
			w := want[si][k]
			got, gerr := runSQL(t, gs, q)
			if fmt.Sprint(w.err) != fmt.Sprint(gerr) || engine.Code(w.err) != engine.Code(gerr) {
				t.Errorf("%d rows: %s\n cpu error %v\n gpu error %v", n, q, w.err, gerr)
				continue
			}
			wr, gr := w.rows, got
			if !ordered(q) {
				wr, gr = sorted(wr), sorted(gr)
			}
			if fmt.Sprint(wr) != fmt.Sprint(gr) {
				t.Errorf("%d rows: %s\n cpu %q\n gpu %q", n, q, wr, gr)
			}
		}
	}
}
