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
)

// writeWideNumCSV writes wn: numeric(38,2), numeric(38,0) and numeric(20,6)
// columns whose values have at most 18 digits at their scale (what the
// GPU backend stores, as int64s), with the largest of them, zero, the
// smallest steps, duplicates and NULLs.
func writeWideNumCSV(t *testing.T, path string, n int, rng *rand.Rand) {
	nasty := []int64{999999999999999999, -999999999999999999, 0, 1, -1, 100000000000000000, 123456789012345678}
	pool := make([]int64, 40)
	for i := range pool {
		pool[i] = rng.Int63n(2e18) - 1e18
	}
	mant := func() int64 {
		switch r := rng.Intn(10); {
		case r == 0:
			return nasty[rng.Intn(len(nasty))]
		case r < 4:
			return pool[rng.Intn(len(pool))]
		default:
			return rng.Int63n(2e18) - 1e18
		}
	}
	val := func(scale int) string {
		if rng.Intn(15) == 0 {
			return ""
		}
		return engine.DecFromScaled(mant(), scale).String()
	}
	groups := []string{"a", "b", "c", "", "é"}
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "%d,%s,%s,%s,%s\n", i, val(2), val(0), val(6), groups[rng.Intn(len(groups))])
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// wideQueries read numeric(p,s) columns with p > 18: rows, filters,
// aggregates, grouping, sorting, joins and casts.
var wideQueries = []string{
	`SELECT id, a, b, c FROM wn ORDER BY id`,
	`SELECT count(*), count(a), sum(a), sum(b), sum(c), min(a), max(a), min(b), max(b), min(c), max(c), avg(a), avg(c) FROM wn`,
	`SELECT g, sum(a), min(b), max(c), count(*), avg(b) FROM wn GROUP BY g`,
	`SELECT a, count(*), sum(c) FROM wn GROUP BY a ORDER BY a LIMIT 30`,
	`SELECT id, a + c, a - b, -a, a * 2, b / 7, c::numeric(38,2), a::numeric(38,0), c::numeric(19,3) FROM wn WHERE a > 0 ORDER BY id`,
	`SELECT id FROM wn WHERE a BETWEEN -100000000 AND 100000000 OR b = 999999999999999999 OR c < -999999999999 ORDER BY id`,
	`SELECT id, a FROM wn ORDER BY a DESC NULLS LAST, id LIMIT 25`,
	`SELECT id, b FROM wn ORDER BY b, id LIMIT 25`,
	`SELECT x.id, y.id FROM wn x JOIN wn y ON x.a = y.a WHERE x.id < y.id AND x.id < 300`,
	`SELECT count(DISTINCT a), count(DISTINCT b) FROM wn`,
	`SELECT id, coalesce(a, b), CASE WHEN c > 0 THEN c ELSE 0 END FROM wn WHERE id % 7 = 0 ORDER BY id`,
}

// TestWideNumericMatchesCPU compares wideQueries on the device with the
// CPU backend at 1, 3,000 and 20,000 rows, the device's pool poisoned
// before each query.
func TestWideNumericMatchesCPU(t *testing.T) {
	skipCPUHalfUnderRace(t)
	sizedTwins{
		sizes:   []int{1, 3000, 20000},
		write:   csvWriter("wn.csv", 41, writeWideNumCSV),
		ddl:     `CREATE TABLE wn (id bigint, a numeric(38,2), b numeric(38,0), c numeric(20,6), g text) FROM CSV 'wn.csv'`,
		queries: wideQueries,
		opts:    twinOpts{sameMessage: true, ordered: orderedByIDOrLimited},
	}.run(t)
}

// TestWideNumericRefusedOnGPU: a value past 18 digits in a numeric(38,s)
// column, which the CPU backend holds, is refused by the GPU backend
// with 0A000 naming the column, at load and at INSERT, and the table
// stays as it was.
func TestWideNumericRefusedOnGPU(t *testing.T) {
	dir := t.TempDir()
	wide := "12345678901234567890123456789012.34"
	if err := os.WriteFile(filepath.Join(dir, "wx.csv"), []byte("1,"+wide+"\n2,0.5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ok.csv"), []byte("1,9999999999999999.99\n2,-0.01\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ddl := `CREATE TABLE wx (id bigint, amount numeric(38,2)) FROM CSV 'wx.csv'`
	host := loader.NewCPU(loader.Config{})
	cs := newSession(t, dir, cpu.New(host, 1), ddl)
	if rows, err := runSQL(t, cs, `SELECT amount FROM wx ORDER BY id`); err != nil || fmt.Sprint(rows) != "["+wide+" 0.50]" {
		t.Fatalf("cpu: %v %v", rows, err)
	}
	dev := openDev(t)
	gs := newSession(t, dir, gpu.New(dev, gpu.HostLoader{Dev: dev, Host: host}),
		`CREATE TABLE ok (id bigint, amount numeric(38,2)) FROM CSV 'ok.csv'`)
	poisonPool(t, dev)
	_, err := runSQL(t, gs, ddl)
	if engine.Code(err) != engine.CodeFeatureNotSupported || !strings.Contains(fmt.Sprint(err), `column "amount"`) ||
		!strings.Contains(fmt.Sprint(err), wide) {
		t.Errorf("gpu load of a value past 18 digits: %v, want 0A000 naming column amount and the value", err)
	}
	if _, err := runSQL(t, gs, `INSERT INTO ok VALUES (3, `+wide+`)`); engine.Code(err) != engine.CodeFeatureNotSupported {
		t.Errorf("gpu insert of a value past 18 digits: %v, want 0A000", err)
	}
	if rows, err := runSQL(t, gs, `SELECT id, amount, amount * 10 FROM ok ORDER BY id`); err != nil ||
		fmt.Sprint(rows) != "[1|9999999999999999.99|99999999999999999.90 2|-0.01|-0.10]" {
		t.Errorf("gpu table after the refused insert: %v %v", rows, err)
	}
}
