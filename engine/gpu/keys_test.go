package gpu_test

import (
	"fmt"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/gpu"
)

// TestFloatToNumericMatchesCPU casts random and hard bit patterns of
// double precision and real to numeric on the device (f2dDecimal in
// query.cu) and compares values and errors with the CPU backend
// (engine.DecFromFloat: 15 or 6 significant digits, then the typmod).
func TestFloatToNumericMatchesCPU(t *testing.T) {
	n := 50000
	if testing.Short() {
		n = 2000
	}
	pats := append(gpu.FloatPatterns(n, 4), gpu.F2DPatterns()...)
	var f64, f32 []string
	for _, p := range pats {
		if p[0] == 64 {
			f64 = append(f64, string(engine.AppendFloat(nil, math.Float64frombits(p[1]), 64)))
		} else {
			f32 = append(f32, string(engine.AppendFloat(nil, float64(math.Float32frombits(uint32(p[1]))), 32)))
		}
	}
	var b strings.Builder
	for i := 0; i < max(len(f64), len(f32)); i++ {
		x, y := "", ""
		if i < len(f64) {
			x = f64[i]
		}
		if i < len(f32) {
			y = f32[i]
		}
		fmt.Fprintf(&b, "%d,%s,%s\n", i, x, y)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "fn.csv"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d doubles, %d reals", len(f64), len(f32))
	setup := []string{`CREATE TABLE fn (id bigint, f double precision, r real) FROM CSV 'fn.csv'`}
	queries := []string{
		`SELECT id, CASE WHEN abs(f) < 1e30 THEN f::numeric END, CASE WHEN abs(r) < 1e30 THEN r::numeric END FROM fn ORDER BY id`,
		`SELECT id, CASE WHEN abs(f) < 1e8 THEN f::numeric(20,6) END, CASE WHEN abs(f) < 1e8 THEN f::numeric(38,30) END,
		        CASE WHEN abs(r) < 1e5 THEN r::numeric(12,4) END, CASE WHEN abs(f) < 1e15 THEN f::numeric(15,0) END FROM fn ORDER BY id`,
		`SELECT id, CASE WHEN abs(f) < 1e20 THEN f::numeric + 1 END, CASE WHEN abs(f) < 1e20 THEN f::numeric(30,5)::text END FROM fn ORDER BY id`,
		`SELECT count(*) FROM fn WHERE CASE WHEN abs(f) < 1e20 THEN f::numeric(30,5) > 0.5 END`,
		`SELECT sum(CASE WHEN abs(f) < 1e10 THEN f::numeric(24,4) END) FROM fn`,
		// errors: NaN, Infinity, overflow, field overflow; the first the CPU meets
		`SELECT f::numeric FROM fn`,
		`SELECT r::numeric FROM fn`,
		`SELECT f::numeric(10,2) FROM fn WHERE abs(f) < 1e30`,
		`SELECT f::numeric FROM fn WHERE f > 1e38 AND f < 1e300`,
		`SELECT f::numeric FROM fn WHERE f = 'Infinity'::float8 OR f = '-Infinity'::float8`,
	}
	if refused := matchCPU(t, dir, setup, queries); len(refused) > 0 {
		t.Errorf("refused: %q", refused)
	}
}

// TestIntervalKeysMatchCPU compares intervals (PostgreSQL's span order:
// 30-day months, 24-hour days) in comparisons, BETWEEN, IN, IS DISTINCT
// FROM and ORDER BY keys with the CPU backend; equal spans ('1 mon' and
// '30 days') are equal and keep row order when sorted.
func TestIntervalKeysMatchCPU(t *testing.T) {
	rng := rand.New(rand.NewSource(9))
	var b strings.Builder
	for i := 0; i < 20000; i++ {
		ts := func() string {
			if rng.Intn(15) == 0 {
				return ""
			}
			d := rng.Intn(90)
			if rng.Intn(4) == 0 {
				d = rng.Intn(3000000) - 700000
			}
			us := []string{"00:00:00", "12:00:00", "23:59:59.999999", "00:00:00.000001", fmt.Sprintf("%02d:%02d:%02d", rng.Intn(24), rng.Intn(60), rng.Intn(60))}[rng.Intn(5)]
			return fmt.Sprintf("%s %s", string(engine.AppendDate(nil, int32(d))), us)
		}
		fmt.Fprintf(&b, "%d,%s,%s\n", i, ts(), ts())
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "iv.csv"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	setup := []string{`CREATE TABLE iv (id bigint, a timestamp, b timestamp) FROM CSV 'iv.csv'`}
	queries := []string{
		`SELECT id, a - b > interval '1 mon', a - b = interval '30 days', a - b <= interval '1 mon', a - b <> interval '-12:00',
		        (a - b) + interval '1 mon' = (a - b) + interval '30 days', a - b < interval '1 year' FROM iv ORDER BY id`,
		`SELECT count(*) FROM iv WHERE a - b BETWEEN interval '-1 mon' AND interval '1 mon 12:00'`,
		`SELECT count(*) FROM iv WHERE a - b IN (interval '0', interval '1 mon', interval '12:00', interval '1 day -12:00')`,
		`SELECT count(*) FROM iv WHERE (a - b) IS DISTINCT FROM interval '1 mon'`,
		`SELECT id, a - b FROM iv WHERE a - b > interval '1 mon 1 day' ORDER BY id`,
		`SELECT id, a - b FROM iv ORDER BY a - b, id`,
		`SELECT id, a - b FROM iv ORDER BY a - b DESC NULLS LAST LIMIT 50`,
		`SELECT id, (a - b) + interval '1 mon' FROM iv ORDER BY 2 NULLS FIRST`,
		`SELECT id FROM iv ORDER BY (a - b) - interval '2 mons', id DESC LIMIT 20`,
	}
	if refused := matchCPU(t, dir, setup, queries); len(refused) > 0 {
		t.Errorf("refused: %q", refused)
	}
}

// TestFirstErrorMatchesCPU: when several rows fail with different
// errors, the device reports the one the CPU backend reports (the first
// batch of 4096 rows in table order, then the first failing operator,
// then the lowest row), not whichever thread raised first.
func TestFirstErrorMatchesCPU(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 30000; i++ {
		div, big, num := 1, 1, "1.5"
		switch i {
		case 300, 9000, 21000: // zero divisors
			div = 0
		case 200, 5000, 25000: // smallint overflows
			big = 100000
		case 4000, 12000, 29999: // numeric overflow and numeric zero
			num = "0"
		}
		if i%4096 == 4095 {
			div = 0
		}
		fmt.Fprintf(&b, "%d,%d,%d,%s,%d\n", i, div, big, num, i%7)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "fe.csv"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	setup := []string{`CREATE TABLE fe (id bigint, z integer, s integer, m numeric(12,2), k integer) FROM CSV 'fe.csv'`}
	queries := []string{
		`SELECT id / z, (s * 1)::smallint FROM fe`,
		`SELECT (s * 1)::smallint, id / z FROM fe`,
		`SELECT id / z FROM fe WHERE id > 1000`,
		`SELECT (s * 1)::smallint FROM fe WHERE id > 4100`,
		`SELECT 99999999999999999999999999999999999 * 10000 / m, id / z FROM fe`,
		`SELECT id / m, (s * 1)::smallint FROM fe WHERE id > 3000`,
		`SELECT CASE WHEN k = 3 THEN id / z ELSE (s * 1)::smallint END FROM fe`,
		`SELECT sum(id / z), sum((s * 1)::smallint) FROM fe`,
		`SELECT k, sum((s * 1)::smallint) FROM fe WHERE id / z > 0 GROUP BY k`,
		`SELECT id / z, (s * 1)::smallint FROM fe ORDER BY id DESC LIMIT 3`,
		`SELECT count(*) FROM fe WHERE id / z > 0 OR (s * 1)::smallint > 0`,
		`SELECT id FROM fe WHERE (s * 1)::smallint > 0 AND id / z > 1 ORDER BY id`,
	}
	if refused := matchCPU(t, dir, setup, queries); len(refused) > 0 {
		t.Errorf("refused: %q", refused)
	}
}
