package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/cuda"
)

// The differential corpus over tables split into parts (engine/multi):
// every file is cut into three byte ranges loaded at once, and each query
// runs over the parts and merges them, or gathers them. The answers must
// be those of one CPU backend, with nothing refused.

// startSplit starts a server whose tables are split into n parts on
// device, splitting even the corpus' small files.
func startSplit(t *testing.T, dir, device string, devices []int, n int) *gpusqlServer {
	return startSplitWith(t, dir, device, devices, n, false)
}

// startSplitWith is startSplit, redistributing the tables of every join
// tree that can be split that way where redistribute is set.
func startSplitWith(t *testing.T, dir, device string, devices []int, n int, redistribute bool) *gpusqlServer {
	return startGpusqlWith(t, dir, func(o *options) {
		o.device, o.devices, o.partitions, o.splitMinBytes, o.redistribute = device, devices, n, 1, redistribute
	})
}

func TestSplitCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("the corpus twice: not in -short")
	}
	qs, dir := corpusAndData(t)
	one := &diffClient{name: "cpu", connect: startGpusqlOn(t, dir, "cpu").connect}
	split := &diffClient{name: "cpu in 3 parts", connect: startSplit(t, dir, "cpu", nil, 3).connect}
	defer one.close()
	defer split.close()
	oneTags, splitTags := loadTables(t, one), loadTables(t, split)
	for k, v := range oneTags {
		if splitTags[k] != v {
			t.Errorf("load %s: split tag %q, one part %q", k, splitTags[k], v)
		}
	}
	checkSplit(t, split, 3)
	checkRoutes(t, split)
	same, unsupported, _ := compareCorpus(t, qs, one, split)
	for _, u := range unsupported {
		t.Errorf("refused over parts: %s", u)
	}
	t.Logf("corpus over 3 parts: %d queries, %d identical", len(qs), len(same))

	// Again with every join tree that can be redistributed by key so,
	// where the small tables would otherwise be broadcast.
	hashed := &diffClient{name: "cpu in 3 parts, joins redistributed", connect: startSplitWith(t, dir, "cpu", nil, 3, true).connect}
	defer hashed.close()
	loadTables(t, hashed)
	o := hashed.run("EXPLAIN SELECT ja.g, count(*) FROM ja JOIN jb ON ja.k = jb.k GROUP BY ja.g")
	if o.Err != nil || !strings.Contains(fmt.Sprintf("%q", o.Results[0].Rows), "redistributed by key") {
		t.Errorf("--redistribute-joins always: the join is not redistributed: %v", o.Err)
	}
	same, unsupported, _ = compareCorpus(t, qs, one, hashed)
	for _, u := range unsupported {
		t.Errorf("refused over parts, joins redistributed: %s", u)
	}
	t.Logf("corpus over 3 parts, joins redistributed: %d queries, %d identical", len(qs), len(same))
}

// checkSplit checks that the server's tables are really in n parts, each
// holding rows, where the file was large enough to split.
func checkSplit(t *testing.T, c *diffClient, n int) {
	t.Helper()
	o := c.run("SELECT table_name, placement FROM gpusql_tables WHERE rows >= 100 ORDER BY table_name")
	if o.Err != nil {
		t.Fatal(o.Err)
	}
	if len(o.Results[0].Rows) == 0 {
		t.Fatal("no table of 100 rows or more to check")
	}
	for _, r := range o.Results[0].Rows {
		p := string(r[1])
		if got := strings.Count(p, ";") + 1; got != n || strings.Contains(p, ": 0 rows") {
			t.Errorf("table %s: placement %q, want %d parts each with rows", r[0], p, n)
		}
	}
}

// TestDeviceSplitCorpus is TestDeviceCorpus over tables split into parts:
// two on one GPU, and one on each GPU where the host has several. The
// answers must be the CPU backend's; what the GPU refuses is listed.
func TestDeviceSplitCorpus(t *testing.T) {
	requireGPU(t)
	qs, dir := corpusAndData(t)
	cpuSrv := startGpusqlOn(t, dir, "cpu")
	loader := &diffClient{name: "cpu", connect: cpuSrv.connect}
	loadTables(t, loader)
	loader.close()
	n, err := cuda.Count()
	if err != nil {
		t.Fatal(err)
	}
	runs := []struct {
		name    string
		devices []int
		parts   int
		redist  bool
	}{{"gpu0 in 2 parts", []int{0}, 2, false}, {"gpu0 in 2 parts, joins redistributed", []int{0}, 2, true}}
	if n > 1 {
		runs = append(runs, struct {
			name    string
			devices []int
			parts   int
			redist  bool
		}{fmt.Sprintf("%d GPUs", n), nil, 1, false}, struct {
			name    string
			devices []int
			parts   int
			redist  bool
		}{fmt.Sprintf("%d GPUs, joins redistributed", n), nil, 1, true})
	}
	for _, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			// a fresh CPU session for each run, in the settings the
			// corpus starts from
			cpuC := &diffClient{name: "cpu", connect: cpuSrv.connect}
			defer cpuC.close()
			c := &diffClient{name: "cuda, " + r.name, connect: startSplitWith(t, dir, "cuda", r.devices, r.parts, r.redist).connect}
			defer c.close()
			loadTables(t, c)
			want := r.parts
			if r.devices == nil {
				want = n
			}
			checkSplit(t, c, want)
			same, unsupported, differ := compareCorpus(t, qs, cpuC, c)
			t.Logf("corpus, %s: %d queries: %d identical to the CPU backend, %d refused with 0A000, %d different",
				r.name, len(qs), len(same), len(unsupported), len(differ))
		})
	}
}

// checkRoutes checks that plans take the routes they should: an
// aggregate over a join runs on every part with the smaller side
// broadcast, a window gathers the table.
func checkRoutes(t *testing.T, c *diffClient) {
	t.Helper()
	for sql, want := range map[string]string{
		"SELECT count(*), sum(l_quantity) FROM lineitem WHERE l_quantity > 10":                                                                    "parts aggregate their rows at once",
		"SELECT ja.g, count(*) FROM ja JOIN jb ON ja.k = jb.k GROUP BY ja.g":                                                                      "each part reads the other tables whole",
		"SELECT ja.id FROM ja WHERE EXISTS (SELECT 1 FROM jc WHERE jc.k = ja.k) ORDER BY ja.id LIMIT 3":                                           "parts filter and sort their rows at once",
		"SELECT id, row_number() OVER (ORDER BY id) FROM obs":                                                                                     "gathered on",
		"SELECT x.k, x.n, y.m FROM (SELECT k, count(*) AS n FROM ja GROUP BY k) x JOIN (SELECT k, max(w) AS m FROM jb GROUP BY k) y ON x.k = y.k": "redistributed by key (ja by k, jb by k",
		"SELECT ja.k, count(DISTINCT jb.w) FROM ja JOIN jb ON ja.k = jb.k GROUP BY ja.k ORDER BY 2 DESC, 1 LIMIT 2":                               "every group is on one part",
	} {
		o := c.run("EXPLAIN " + sql)
		if o.Err != nil {
			t.Fatalf("EXPLAIN %s: %v", sql, o.Err)
		}
		var text []string
		for _, r := range o.Results[0].Rows {
			text = append(text, string(r[0]))
		}
		if !strings.Contains(strings.Join(text, "\n"), want) {
			t.Errorf("EXPLAIN %s: want %q in\n%s", sql, want, strings.Join(text, "\n"))
		}
	}
}
