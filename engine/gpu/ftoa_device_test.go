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

// matchCPU runs each query on both backends over the tables that setup
// creates and compares rows (sorted unless the query has ORDER BY) and
// error codes; it returns the queries the GPU refused with 0A000.
func matchCPU(t *testing.T, dir string, setup []string, queries []string) []string {
	t.Helper()
	cs, gs := twinSessions(t, openDev(t), dir, setup...)
	return compareSessions(t, cs, gs, queries, twinOpts{sameMessage: true, ordered: ordered})
}

// TestFloatTextMatchesCPU casts random and edge bit patterns of double
// precision and real to text on the device (putFloat in query.cu) and
// compares them with the CPU backend (engine.AppendFloat), also inside
// a 13-argument concat() (s102 of the corpus: register reuse).
func TestFloatTextMatchesCPU(t *testing.T) {
	n := 100000
	if testing.Short() {
		n = 2000
	}
	pats := gpu.FloatPatterns(n, 2)
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
		fmt.Fprintf(&b, "%d,%s,%s,s%d,%t\n", i, x, y, i%13, i%3 == 0)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "ft.csv"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d doubles, %d reals", len(f64), len(f32))
	setup := []string{`CREATE TABLE ft (id bigint, f double precision, r real, s text, b boolean) FROM CSV 'ft.csv'`}
	queries := []string{
		`SELECT id, f::text, r::text, (-f)::text, (-r)::text FROM ft`,
		`SELECT id, (r * 2)::text, (f / 3)::text FROM ft WHERE abs(r) < 1e30 AND abs(f) < 1e300 AND (abs(f) > 1e-300 OR f = 0)`,
		`SELECT id, f::real::text FROM ft WHERE abs(f) < 1e38 AND (abs(f) > 1e-37 OR f = 0)`,
		`SELECT id, f::real::text FROM ft`, // 22003 on both
		`SELECT id, concat(s, '/', id, '/', b, '/', f, '/', r, '/', s, '/', id, '/', f) FROM ft`,
		`SELECT id, f::varchar(8), length(f::text), f::text || r::text FROM ft WHERE r > 0`,
		`SELECT count(*) FROM ft WHERE f::text LIKE '%e+%' OR r::text = '0.00024414062'`,
		`SELECT id, f::text FROM ft ORDER BY id LIMIT 1000`,
	}
	if r := matchCPU(t, dir, setup, queries); len(r) > 0 {
		t.Errorf("%d queries refused", len(r))
	}
}

// TestIntervalsMatchCPU compares timestamp ± interval, timestamp -
// timestamp and interval arithmetic (results shown as intervals too)
// with the CPU backend over month ends, leap days, negative and mixed
// intervals, and the range errors.
func TestIntervalsMatchCPU(t *testing.T) {
	stamps := []string{"1970-01-01 00:00:00", "2024-01-31 10:00:00", "2024-02-29 23:59:59.999999", "0001-01-01 00:00:00.5",
		"1999-12-31 12:30:00.12", "2000-03-31 01:02:03", "1900-02-28 00:00:00", "9999-12-31 23:59:59.999999", "1969-12-31 23:59:59.999999", ""}
	dates := []string{"1970-01-01", "2024-01-31", "2024-02-29", "0001-01-01", "9999-12-31", "1995-03-31", "1600-02-29", ""}
	rng := rand.New(rand.NewSource(5))
	var b strings.Builder
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&b, "%d,%s,%s\n", i, stamps[rng.Intn(len(stamps))], dates[rng.Intn(len(dates))])
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "it.csv"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	setup := []string{`CREATE TABLE it (id bigint, ts timestamp, d date) FROM CSV 'it.csv'`}
	queries := []string{
		`SELECT id, ts + interval '1 month', ts - interval '1 year 2 mons 3 days 04:05:06', d + interval '1 day',
		        d - interval '90 day', ts + interval '-1 mon', interval '1 day' + ts, d + interval '13 months -2 days 01:00'
		   FROM it`,
		`SELECT id, ts - timestamp '2000-01-01 00:00:00', d - ts, (ts - d) + interval '1 hour', -(ts - d),
		        (ts - d) - interval '1 mon 1 day', interval '1 day' - (d - ts) FROM it`,
		`SELECT id, ts + interval '1 day' FROM it ORDER BY id`,
		`SELECT count(*) FROM it WHERE ts + interval '1 month' > timestamp '2000-01-01 00:00:00' AND d - interval '3 day' < ts`,
		`SELECT id, ts + interval '300000 years' FROM it`,
		`SELECT id, d + interval '-1 month' FROM it WHERE d IS NOT NULL`,
		`SELECT id, CASE WHEN id % 2 = 0 THEN ts + interval '1 month' ELSE ts - interval '1 month' END FROM it`,
	}
	// interval sort keys and DISTINCT over intervals may be refused
	mayRefuse := map[string]bool{
		`SELECT id, ts - d FROM it ORDER BY 2, id`: true,
		`SELECT DISTINCT ts - d FROM it`:           true,
	}
	queries = append(queries, `SELECT id, ts - d, d + interval '1 mon' FROM it ORDER BY id DESC LIMIT 100`,
		`SELECT id, ts - d FROM it ORDER BY 2, id`, `SELECT DISTINCT ts - d FROM it`)
	for _, q := range matchCPU(t, dir, setup, queries) {
		if !mayRefuse[q] {
			t.Errorf("refused: %s", q)
		}
	}
}
