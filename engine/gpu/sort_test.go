package gpu_test

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/cpu"
	"github.com/gpusql/gpusql/engine/gpu"
	"github.com/gpusql/gpusql/loader"
	"github.com/gpusql/gpusql/query"
)

// writeSortCSV writes rows made to trouble a sort: few distinct values
// (ties), NULLs, -0, NaN and infinities, 64-bit extremes, long strings
// that share prefixes, empty strings, a column with one value.
func writeSortCSV(t *testing.T, path string, n int, rng *rand.Rand) {
	var b strings.Builder
	pick := func(s ...string) string { return s[rng.Intn(len(s))] }
	null := func(s string) string {
		if rng.Intn(9) == 0 {
			return ""
		}
		return s
	}
	prefix := strings.Repeat("shared-prefix/", 5)
	for i := 0; i < n; i++ {
		f := fmt.Sprintf("%g", rng.NormFloat64()*10)
		if rng.Intn(4) == 0 {
			f = pick("NaN", "-0", "0", "Infinity", "-Infinity", "1", "-1", "1e300", "-1e-300")
		}
		big := fmt.Sprint(rng.Int63() - rng.Int63())
		if rng.Intn(50) == 0 {
			big = pick("-9223372036854775808", "9223372036854775807", "0", "-1")
		}
		v := prefix + fmt.Sprint(rng.Intn(200))
		switch rng.Intn(8) {
		case 0:
			v = prefix
		case 1:
			v = `""`
		case 2:
			v = prefix[:rng.Intn(len(prefix))]
		}
		fmt.Fprintf(&b, "%d,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", i,
			null(fmt.Sprint(rng.Intn(6))),
			null(f),
			null(fmt.Sprintf("%g", float32(rng.NormFloat64()))),
			null(fmt.Sprintf("%d.%02d", rng.Intn(2000)-1000, rng.Intn(100))),
			null(pick("t", "f")),
			null(fmt.Sprintf("%d-%02d-%02d", 1960+rng.Intn(80), rng.Intn(12)+1, rng.Intn(28)+1)),
			null(fmt.Sprintf("2001-02-%02d %02d:%02d:%02d.%d", rng.Intn(3)+1, rng.Intn(24), rng.Intn(60), rng.Intn(60), rng.Intn(10))),
			null(pick("a", "ab", "b", "ba", "abc", "A", "z")),
			null(v),
			null(fmt.Sprintf("w%d", rng.Intn(30))),
			"7",
			big,
			null(fmt.Sprint(rng.Intn(3)*1000000+rng.Intn(3))))
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

const sortCols = `(id bigint, g integer, f double precision, r real, d numeric(12,2), b boolean, dt date, ts timestamp,
 c char(3), v varchar(90), w text, k integer, big bigint, m integer)`

var sortQueries = []string{
	`SELECT id, g FROM s ORDER BY g`,
	`SELECT id, g FROM s ORDER BY g DESC`,
	`SELECT id, g FROM s ORDER BY g NULLS FIRST`,
	`SELECT id, g FROM s ORDER BY g DESC NULLS LAST`,
	`SELECT id, f FROM s ORDER BY f`,
	`SELECT id, f FROM s ORDER BY f DESC`,
	`SELECT id, f FROM s ORDER BY f NULLS FIRST LIMIT 300`,
	`SELECT id, r FROM s ORDER BY r DESC`,
	`SELECT id, d FROM s ORDER BY d DESC, g`,
	`SELECT id, d * d * d * 1000000 FROM s ORDER BY 2`,
	`SELECT id, -d FROM s ORDER BY 2 DESC NULLS LAST LIMIT 100 OFFSET 7`,
	`SELECT id, b FROM s ORDER BY b, g DESC`,
	`SELECT id, dt, ts FROM s ORDER BY dt DESC, ts`,
	`SELECT id, ts FROM s ORDER BY ts NULLS FIRST LIMIT 40`,
	`SELECT id, c, v FROM s ORDER BY v, c DESC`,
	`SELECT id, v FROM s ORDER BY v DESC NULLS LAST LIMIT 77`,
	`SELECT id, c FROM s ORDER BY c`,
	`SELECT id, w FROM s ORDER BY w DESC LIMIT 50`,
	`SELECT id, k FROM s ORDER BY k`,
	`SELECT id, k FROM s ORDER BY k DESC LIMIT 10 OFFSET 5`,
	`SELECT id, big FROM s ORDER BY big`,
	`SELECT id, big FROM s ORDER BY big DESC LIMIT 25`,
	`SELECT id, m FROM s ORDER BY m DESC, id`,
	`SELECT id FROM s WHERE id < 0 ORDER BY f`,
	`SELECT id, g FROM s ORDER BY g LIMIT 0`,
	`SELECT id, g FROM s ORDER BY g OFFSET 100000000`,
	`SELECT id, g FROM s ORDER BY g LIMIT 10 OFFSET 100000000`,
	`SELECT id, g, f FROM s WHERE g > 3 ORDER BY f DESC, g LIMIT 10`,
	`SELECT id, g, f FROM s WHERE v LIKE 'shared%' ORDER BY g, f, d, v`,
	`SELECT g, f, d, v, c, b FROM s ORDER BY g DESC, f, d DESC NULLS LAST, v, c, b`,
	`SELECT id, f FROM s ORDER BY id % 10, f DESC`,
	`SELECT id FROM s ORDER BY g, w`,
	`SELECT id, 100 / g FROM s ORDER BY id LIMIT 5`,
	`SELECT id, 100 / g FROM s WHERE g <> 0 ORDER BY 2, id DESC LIMIT 5`,
	`SELECT id, f * 2 FROM s WHERE f > 0 ORDER BY 2 DESC LIMIT 12`,
	// several plain-column keys and a small window: the candidates by
	// the first key, then every key over them (topByFirstKey)
	`SELECT id, g, d FROM s ORDER BY d DESC, g, id LIMIT 10`,
	`SELECT id, k, g FROM s ORDER BY k, g DESC LIMIT 20 OFFSET 3`,
	`SELECT id, m FROM s ORDER BY m DESC, id LIMIT 15`,
	`SELECT id, b, g FROM s ORDER BY b DESC NULLS LAST, g LIMIT 5`,
	`SELECT id, f, g FROM s ORDER BY f NULLS FIRST, g DESC LIMIT 30`,
	`SELECT dt, ts, id FROM s ORDER BY dt DESC, ts, id LIMIT 25`,
	`SELECT big, g FROM s ORDER BY big, g LIMIT 7`,
}

func sortSessions(t *testing.T, dir string, tables map[string]string) (engine.Session, engine.Session) {
	var ddl []string
	for name, file := range tables {
		ddl = append(ddl, "CREATE TABLE "+name+" "+sortCols+" FROM CSV '"+file+"'")
	}
	return twinSessions(t, openDev(t), dir, ddl...)
}

// TestSortMatchesCPU runs ORDER BY queries on the device sort and on the
// CPU backend and requires the same rows in the same order (ties in row
// order) and the same errors, at several table sizes (one tile of the
// radix kernels is 16,384 rows).
func TestSortMatchesCPU(t *testing.T) {
	openDev(t)
	dir := t.TempDir()
	sizes := []int{0, 1, 3, 16384, 40000, 150_000}
	if testing.Short() {
		sizes = []int{0, 1, 3, 20000}
	}
	rng := rand.New(rand.NewSource(11))
	tables := map[string]string{}
	for _, n := range sizes {
		f := fmt.Sprintf("s%d.csv", n)
		writeSortCSV(t, filepath.Join(dir, f), n, rng)
		tables[fmt.Sprintf("s%d", n)] = f
	}
	cs, gs := sortSessions(t, dir, tables)
	for _, n := range sizes {
		for _, q := range sortQueries {
			q = strings.Replace(q, "FROM s ", fmt.Sprintf("FROM s%d ", n), 1)
			if err := compareQuery(t, cs, gs, q, twinOpts{}); err != nil {
				t.Errorf("%s: refused on the GPU: %v", q, err)
			}
		}
	}
}

// TestSortLineitem times ORDER BY on a lineitem table of
// GPUSQL_SORT_ROWS rows (skipped when unset): a top 10 over every row and
// a full sort of a filtered subset, each checked against the CPU backend
// when GPUSQL_SORT_CPU is set.
func TestSortLineitem(t *testing.T) {
	dev := openDev(t)
	rows := 0
	fmt.Sscan(os.Getenv("GPUSQL_SORT_ROWS"), &rows)
	if rows == 0 {
		t.Skip("GPUSQL_SORT_ROWS is not set")
	}
	dir := t.TempDir()
	if err := loader.WriteLineitemFile(filepath.Join(dir, "li.csv"), rows, 1, 16); err != nil {
		t.Fatal(err)
	}
	var cols []string
	for _, col := range loader.LineitemColumns() {
		cols = append(cols, col.Name+" "+col.Type.String())
	}
	create := fmt.Sprintf("CREATE TABLE lineitem (%s) FROM CSV 'li.csv'", strings.Join(cols, ", "))
	mk := func(b engine.Backend) engine.Session {
		srv, err := query.NewServer(query.Options{FileRoot: dir, DataDir: t.TempDir(), Backend: b})
		if err != nil {
			t.Fatal(err)
		}
		s, err := srv.NewSession(engine.SessionParams{User: "t", Database: "t"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := runSQL(t, s, create); err != nil {
			t.Fatal(err)
		}
		return s
	}
	gs := mk(gpu.New(dev, loader.NewGPU(dev, loader.GPUConfig{})))
	qs := []string{
		`SELECT l_orderkey, l_linenumber, l_extendedprice FROM lineitem ORDER BY l_extendedprice DESC LIMIT 10`,
		`SELECT l_orderkey, l_linenumber, l_shipdate, l_extendedprice FROM lineitem WHERE l_shipdate >= date '1995-01-01' AND l_shipdate < date '1995-01-08' ORDER BY l_orderkey, l_linenumber`,
		`SELECT l_orderkey, l_linenumber FROM lineitem WHERE l_quantity < 3 ORDER BY l_orderkey DESC, l_linenumber`,
	}
	res := map[string][]string{}
	for _, q := range qs {
		var times []time.Duration
		for i := 0; i < 6; i++ {
			start := time.Now()
			got, err := runSQL(t, gs, q)
			if err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			times = append(times, time.Since(start))
			res[q] = got
		}
		sorted := append([]time.Duration(nil), times[1:]...)
		for i := range sorted {
			for j := i + 1; j < len(sorted); j++ {
				if sorted[j] < sorted[i] {
					sorted[i], sorted[j] = sorted[j], sorted[i]
				}
			}
		}
		t.Logf("%d rows: %s: %d result rows; first run %v, then median %v (min %v, max %v)", rows, q, len(res[q]),
			times[0], sorted[len(sorted)/2], sorted[0], sorted[len(sorted)-1])
	}
	if os.Getenv("GPUSQL_SORT_CPU") == "" {
		return
	}
	cs := mk(cpu.New(loader.NewCPU(loader.Config{}), 0))
	for _, q := range qs {
		start := time.Now()
		want, err := runSQL(t, cs, q)
		if err != nil {
			t.Fatalf("cpu: %s: %v", q, err)
		}
		t.Logf("cpu backend: %v", time.Since(start))
		if strings.Join(want, "\n") != strings.Join(res[q], "\n") {
			t.Errorf("%s: cuda and cpu differ (%d and %d rows)", q, len(res[q]), len(want))
		}
	}
}
