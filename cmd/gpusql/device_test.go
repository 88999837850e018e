package main

// Tests that need a GPU: they run on the device machine (make gpu-test)
// and skip elsewhere. They compare the CUDA backend with the CPU backend
// through the whole stack (wire, sessions, binder, loader, executor).

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gpusql/gpusql/cuda"
	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/loader"
)

func requireGPU(t *testing.T) {
	t.Helper()
	dev, err := cuda.Open(0)
	if err != nil {
		t.Skipf("no usable GPU: %v", err)
	}
	dev.Close()
}

// loadBoth loads the differential test's tables into a server as
// loadGpusql does, and returns each statement's command tag.
func loadTables(t *testing.T, c *diffClient) map[string]string {
	t.Helper()
	tags := map[string]string{}
	for _, tb := range diffTables {
		stmts := []string{fmt.Sprintf("CREATE TABLE %s (%s) FROM CSV '%s' WITH (FORMAT csv, HEADER true)", tb.Name, tb.Columns, tb.File)}
		if tb.ViaCopy {
			stmts = []string{fmt.Sprintf("CREATE TABLE %s (%s)", tb.Name, tb.Columns),
				fmt.Sprintf("COPY %s FROM '%s' WITH (FORMAT csv, HEADER true)", tb.Name, tb.File)}
		}
		for _, sql := range stmts {
			o := c.run(sql)
			if o.Err != nil && tb.GPURefuses && o.errCode() == engine.CodeFeatureNotSupported &&
				strings.Contains(pgErrText(o.Err), "more than 18 digits") {
				// numerics past 18 digits, which the GPU backend does
				// not hold: refused, never stored narrowed
				if c.refused == nil {
					c.refused = map[string]bool{}
				}
				c.refused[tb.Name] = true
				t.Logf("%s: table %s refused: %s", c.name, tb.Name, firstLineOfErr(o.Err))
				break
			}
			if o.Err != nil {
				t.Fatalf("%s: %s: %s", c.name, diffFirstLine(sql), pgErrText(o.Err))
			}
			tags[sql[:strings.IndexByte(sql, '(')]] = o.Results[0].CommandTag.String()
		}
	}
	return tags
}

// TestDeviceCorpus runs every query of the differential corpus on the CPU
// and CUDA backends over the same data. Results must be identical; a query
// the GPU backend does not support must fail with 0A000 (never silently
// run elsewhere), and those are listed.
func TestDeviceCorpus(t *testing.T) {
	requireGPU(t)
	qs, dir := corpusAndData(t)
	cpuC := &diffClient{name: "cpu", connect: startGpusqlOn(t, dir, "cpu").connect}
	// one GPU, on a host with several too (TestDeviceSplitCorpus runs
	// the corpus over all of them)
	gpuC := &diffClient{name: "cuda", connect: startGpusqlWith(t, dir, func(o *options) { o.device, o.devices = "cuda", []int{0} }).connect}
	defer cpuC.close()
	defer gpuC.close()
	cpuTags, gpuTags := loadTables(t, cpuC), loadTables(t, gpuC)
	for k, v := range cpuTags {
		if _, ok := gpuTags[k]; !ok && readsTable(k, gpuC.refused) != "" {
			continue
		}
		if gpuTags[k] != v {
			t.Errorf("load %s: cuda tag %q, cpu %q", k, gpuTags[k], v)
		}
	}
	for _, tb := range diffTables {
		if tb.GPURefuses && !gpuC.refused[tb.Name] {
			t.Errorf("table %s, with numerics past 18 digits, loaded on the GPU", tb.Name)
		}
	}
	if o := gpuC.run("SHOW gpusql.device"); o.Err != nil || !strings.HasPrefix(string(o.Results[0].Rows[0][0]), "cuda") {
		t.Fatalf("the cuda server is not on the GPU: %v", o)
	}
	same, unsupported, _ := compareCorpus(t, qs, cpuC, gpuC)
	t.Logf("corpus on the GPU: %d queries: %d identical to the CPU backend, %d refused with 0A000, %d different",
		len(qs), len(same), len(unsupported), len(qs)-len(same)-len(unsupported))
	for _, u := range unsupported {
		t.Logf("  not on the GPU yet: %s", u)
	}
}

// corpusAndData reads the differential corpus and writes its tables'
// files into a new directory.
func corpusAndData(t *testing.T) ([]*diffQuery, string) {
	t.Helper()
	qs, err := loadDiffCorpus(diffCorpusDir)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := writeDiffData(dir); err != nil {
		t.Fatal(err)
	}
	return qs, dir
}

// compareCorpus runs every query on want's server and got's, and sorts
// them into identical, refused by got with 0A000 (where want is not), and
// different (each reported as an error).
func compareCorpus(t *testing.T, qs []*diffQuery, wantC, gotC *diffClient) (same, unsupported, differ []string) {
	t.Helper()
	for _, q := range qs {
		if tb := readsTable(q.SQL, gotC.refused); tb != "" {
			unsupported = append(unsupported, q.Name+" (reads "+tb+", which "+gotC.name+" refused to load)")
			continue
		}
		var want, got *diffOutcome
		if q.Session {
			// on connections of their own, as TestDiff runs them: the
			// entry's temporary tables end with them
			c, g := &diffClient{name: wantC.name, connect: wantC.connect}, &diffClient{name: gotC.name, connect: gotC.connect}
			want, got = c.run(q.SQL), g.run(q.SQL)
			c.close()
			g.close()
		} else {
			want, got = wantC.run(q.SQL), gotC.run(q.SQL)
			if diffSetsSession(q.SQL) {
				// an entry's SET TimeZone (or BEGIN) is its own, as in
				// TestDiff: when got refused the statement after a SET in
				// one message, the block's SET was undone there and kept
				// on want's server
				diffResetSession(wantC, gotC)
			}
		}
		switch {
		case got.Err != nil && got.errCode() == engine.CodeFeatureNotSupported && want.errCode() != engine.CodeFeatureNotSupported:
			unsupported = append(unsupported, q.Name+" ("+firstLineOfErr(got.Err)+")")
		default:
			if d := diffCompare(q, want, got); d != nil {
				differ = append(differ, q.Name)
				t.Errorf("%s:%d %s: %s differs from %s\n%s\n  %s", q.File, q.Line, q.Name, gotC.name, wantC.name, q.SQL, strings.Join(d, "\n  "))
			} else {
				same = append(same, q.Name)
			}
		}
	}
	sort.Strings(unsupported)
	return same, unsupported, differ
}

// readsTable is the first of tables that sql names, or "".
func readsTable(sql string, tables map[string]bool) string {
	for _, w := range strings.FieldsFunc(strings.ToLower(sql), func(r rune) bool {
		return !(r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	}) {
		if tables[w] {
			return w
		}
	}
	return ""
}

func firstLineOfErr(err error) string {
	s := pgErrText(err)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

// TestDeviceSession is a client session against a --device cuda server, as
// a person would run it in psql: a load, queries, the device, the tables
// and their memory, EXPLAIN ANALYZE's server time, DROP TABLE returning
// memory. GPUSQL_SESSION_ROWS sets the table size (default 10 M rows).
func TestDeviceSession(t *testing.T) {
	requireGPU(t)
	rows := 10_000_000
	if v := os.Getenv("GPUSQL_SESSION_ROWS"); v != "" {
		fmt.Sscan(v, &rows)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "lineitem.csv")
	if err := loader.WriteLineitemFile(path, rows, 1, 16); err != nil {
		t.Fatal(err)
	}
	c := &diffClient{name: "cuda", connect: startGpusqlOn(t, dir, "cuda").connect}
	defer c.close()
	var cols []string
	for _, col := range loader.LineitemColumns() {
		cols = append(cols, col.Name+" "+col.Type.String())
	}
	q6 := `SELECT sum(l_extendedprice * l_discount) AS revenue FROM lineitem
 WHERE l_shipdate >= date '1994-01-01' AND l_shipdate < date '1994-01-01' + interval '1 year'
   AND l_discount BETWEEN 0.06 - 0.01 AND 0.06 + 0.01 AND l_quantity < 24`
	q1 := `SELECT l_returnflag, l_linestatus, sum(l_quantity) AS sum_qty, sum(l_extendedprice) AS sum_base_price,
 sum(l_extendedprice * (1 - l_discount)) AS sum_disc_price, sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) AS sum_charge,
 avg(l_quantity) AS avg_qty, avg(l_extendedprice) AS avg_price, avg(l_discount) AS avg_disc, count(*) AS count_order
 FROM lineitem WHERE l_shipdate <= date '1998-12-01' - interval '90 day'
 GROUP BY l_returnflag, l_linestatus ORDER BY l_returnflag, l_linestatus`
	stmts := []string{
		"SHOW gpusql.device",
		"SELECT version()",
		fmt.Sprintf("CREATE TABLE lineitem (%s) FROM CSV 'lineitem.csv'", strings.Join(cols, ", ")),
		"SELECT table_name, rows, device_size, backend FROM gpusql_tables",
		"SELECT count(*) FROM lineitem",
		q6, q1,
		"EXPLAIN ANALYZE " + q6,
		"EXPLAIN ANALYZE " + q1,
		"EXPLAIN ANALYZE " + q6,
		"EXPLAIN ANALYZE " + q1,
		"EXPLAIN ANALYZE " + q6,
		"EXPLAIN ANALYZE " + q1,
		"EXPLAIN ANALYZE " + q6,
		"EXPLAIN ANALYZE " + q1,
		"EXPLAIN ANALYZE " + q6,
		"EXPLAIN ANALYZE " + q1,
		"SELECT l_shipmode, count(*) FROM lineitem WHERE l_shipdate >= date '1995-01-01' GROUP BY l_shipmode ORDER BY 2 DESC",
		"DROP TABLE lineitem",
		"SELECT count(*) FROM gpusql_tables",
	}
	gpuRows := map[string]string{}
	for _, sql := range stmts {
		start := time.Now()
		o := c.run(sql)
		el := time.Since(start)
		if (sql == q6 || sql == q1) && o.Err == nil {
			gpuRows[sql] = fmt.Sprint(o.Results[0].Rows)
		}
		var b strings.Builder
		fmt.Fprintf(&b, "gpusql=> %s\n", strings.Join(strings.Fields(sql), " "))
		if o.Err != nil {
			t.Errorf("%s: %s", diffFirstLine(sql), pgErrText(o.Err))
			continue
		}
		for _, r := range o.Results {
			for _, row := range r.Rows {
				b.WriteString("  " + diffFormatRow(row) + "\n")
			}
			fmt.Fprintf(&b, "  %s  (client round trip %v)", r.CommandTag, el.Round(time.Microsecond))
		}
		t.Log(b.String())
	}
	if os.Getenv("GPUSQL_SESSION_CPU") == "" {
		return
	}
	// the same table and queries on the CPU backend: identical results
	cpuC := &diffClient{name: "cpu", connect: startGpusqlOn(t, dir, "cpu").connect}
	defer cpuC.close()
	if o := cpuC.run(stmts[2]); o.Err != nil {
		t.Fatalf("cpu load: %s", pgErrText(o.Err))
	}
	for _, sql := range []string{q6, q1} {
		o := cpuC.run(sql)
		if o.Err != nil {
			t.Errorf("cpu: %s", pgErrText(o.Err))
			continue
		}
		if got, want := gpuRows[sql], fmt.Sprint(o.Results[0].Rows); got != want {
			t.Errorf("%s\n cuda %s\n cpu  %s", diffFirstLine(sql), got, want)
		} else {
			t.Logf("%s: cuda and cpu agree at %d rows", diffFirstLine(sql), rows)
		}
	}
}
