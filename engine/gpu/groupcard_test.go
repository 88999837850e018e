package gpu_test

import (
	"bufio"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/cpu"
	"github.com/gpusql/gpusql/engine/gpu"
	"github.com/gpusql/gpusql/loader"
)

// TestGroupByCardinalityMatchesCPU runs GROUP BY at 1, 10^3 and 10^6
// groups (10^7 with GPUSQL_TEST_GROUPS_10M=1: 20 M rows), over one key and
// several keys of mixed types (bigint, integer, text) with NULLs, with
// counts, exact sums, min/max, avg, COUNT(DISTINCT) and ORDER BY count
// DESC LIMIT, on the GPU and CPU backends: the rows must be equal (as
// sorted multisets, or in order under a total ORDER BY). A query the GPU
// refuses (0A000) fails the test: ClickBench needs all of them there.
func TestGroupByCardinalityMatchesCPU(t *testing.T) {
	dev := openDev(t)
	sizes := []int{1, 1_000, 1_000_000}
	if os.Getenv("GPUSQL_TEST_GROUPS_10M") != "" {
		sizes = append(sizes, 10_000_000)
	}
	host := loader.NewCPU(loader.Config{})
	for _, g := range sizes {
		t.Run(strconv.Itoa(g), func(t *testing.T) {
			dir := t.TempDir()
			writeGroupCSV(t, filepath.Join(dir, "g.csv"), g)
			gs := newSession(t, dir, gpu.New(dev, gpu.HostLoader{Dev: dev, Host: host}), groupDDL)
			cs := newSession(t, dir, cpu.New(host, 0), groupDDL)
			compareGroupQueries(t, cs, gs)
		})
	}
}

const groupDDL = `CREATE TABLE g (id bigint, k1 bigint, k2 integer, k3 text, kt text, v integer, p numeric(12,2)) FROM CSV 'g.csv'`

// groupQueries: one key of each type, several keys, COUNT(DISTINCT), top k.
var groupQueries = []string{
	`SELECT k1, count(*), count(v), sum(v), min(v), max(v), sum(p) FROM g GROUP BY k1`,
	`SELECT kt, count(*), sum(v), avg(v), min(p) FROM g GROUP BY kt`,
	`SELECT k2, k3, count(*), sum(p), min(k1), max(kt) FROM g GROUP BY k2, k3`,
	`SELECT k1, kt, k2, count(*), sum(v) FROM g GROUP BY k1, kt, k2`,
	`SELECT k3, count(DISTINCT k1), count(DISTINCT kt), count(*) FROM g GROUP BY k3`,
	`SELECT k2, count(DISTINCT v) FROM g GROUP BY k2`,
	`SELECT k2, k3, count(*) AS c FROM g GROUP BY k2, k3 ORDER BY c DESC, k2, k3 LIMIT 10`,
	`SELECT kt, sum(v) AS s FROM g WHERE v IS NOT NULL GROUP BY kt ORDER BY s DESC NULLS LAST, kt LIMIT 10`,
	`SELECT count(*), sum(c), max(c) FROM (SELECT k1, kt, count(*) AS c FROM g GROUP BY k1, kt) q`,
}

// writeGroupCSV writes 2·groups rows (at least 100,000) whose group g is
// random in [0, groups): k1 = g (NULL for some g), k2 = g/7 and k3 one of
// seven words (g%7; NULL for some g), so that (k2, k3) tells the groups
// apart as k1 and kt do; kt = 't'||g (NULL for others); v and p values
// with NULLs.
func writeGroupCSV(t *testing.T, path string, groups int) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	rng := rand.New(rand.NewSource(int64(groups)))
	words := []string{"alpha", "beta", "gamma", "delta", "épsilon", "zeta", "eta"}
	n := max(2*groups, 100_000)
	var b []byte
	for i := 0; i < n; i++ {
		g := rng.Intn(groups)
		b = strconv.AppendInt(b[:0], int64(i), 10)
		b = append(b, ',')
		if g%19 != 7 {
			b = strconv.AppendInt(b, int64(g), 10)
		}
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(g/7), 10)
		b = append(b, ',')
		if g%23 != 1 {
			b = append(b, words[g%7]...)
		}
		b = append(b, ',')
		if g%17 != 3 {
			b = append(b, 't')
			b = strconv.AppendInt(b, int64(g), 10)
		}
		b = append(b, ',')
		if rng.Intn(9) != 0 {
			b = strconv.AppendInt(b, int64(rng.Intn(2001)-1000), 10)
		}
		b = append(b, ',')
		if rng.Intn(11) != 0 {
			b = fmt.Appendf(b, "%d.%02d", rng.Intn(200000)-100000, rng.Intn(100))
		}
		b = append(b, '\n')
		w.Write(b)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// compareGroupQueries runs groupQueries on both sessions.
func compareGroupQueries(t *testing.T, cs, gs engine.Session) {
	t.Helper()
	for _, q := range groupQueries {
		want, werr := runSQL(t, cs, q)
		if werr != nil {
			t.Fatalf("%s: cpu: %v", q, werr)
		}
		got, gerr := runSQL(t, gs, q)
		if gerr != nil {
			t.Errorf("%s: gpu: %v", q, gerr)
			continue
		}
		if !strings.Contains(q, "ORDER BY") {
			sort.Strings(want)
			sort.Strings(got)
		}
		if len(want) != len(got) {
			t.Errorf("%s: cpu %d rows, gpu %d", q, len(want), len(got))
			continue
		}
		if d := rowDiff(want, got); d != "" {
			t.Errorf("%s: %s", q, d)
		}
	}
}
