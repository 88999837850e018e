package gpu

import (
	"fmt"
	"math/rand"
	"os"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// MathTimeQueries are the math and time functions over a table with
// NULLs, zeros, negatives, ties and DST instants, each in a session
// zone. Those with a kernel must match the CPU backend (errors too); the
// rest must be refused with 0A000.
var MathTimeQueries = []struct {
	Zone  string // the session's TimeZone
	SQL   string
	OnGPU bool // compiles to a register program today
}{
	{"UTC", `SELECT id, greatest(i, j), least(i, j, 0), greatest(f, g), least(f, g), greatest(n, -n), least(n, 0.5::numeric(10,3)) FROM mt ORDER BY id`, true},
	// numerics of different scales: the result shows the chosen value at
	// its own scale
	{"UTC", `SELECT id, greatest(n, m), least(n, 0.5, m), greatest(m, n, 1), least(m * 2, n / 3) FROM mt ORDER BY id`, true},
	{"UTC", `SELECT id, greatest(d, date '2000-01-01'), least(ts, timestamp '2010-06-01 12:00'), greatest(s, 'm'), least(s, 'b', s) FROM mt ORDER BY id`, true},
	{"Europe/Berlin", `SELECT id, greatest(tz, timestamptz '2024-03-31 01:30+00'), least(tz, tz) FROM mt ORDER BY id`, true},
	{"UTC", `SELECT greatest(i, j) % 7, count(*), sum(least(n, n + 1)) FROM mt GROUP BY 1 ORDER BY 1`, true},
	{"UTC", `SELECT id, sign(n), sign(m - n), sign(n * 0), sign(f), sign(g - g) FROM mt ORDER BY id`, true},
	{"Europe/Berlin", `SELECT count(*) FROM mt WHERE tz >= timestamptz '2024-03-31 00:00+00' AND tz < timestamptz '2024-10-28 00:00+00'`, true},
	{"Europe/Berlin", `SELECT id, tz, tz = tz, tz < timestamptz '2020-01-01 00:00+00' FROM mt WHERE tz IS NOT NULL ORDER BY tz, id`, true},
	{"UTC", `SELECT id, floor(f), ceil(f), trunc(f), round(f), abs(f), sqrt(abs(f)), floor(-f), ceil(g * 10) FROM mt ORDER BY id`, true},
	{"UTC", `SELECT id, floor(n), ceil(n), trunc(n), trunc(n, 1), trunc(n, -2), trunc(m, 4), floor(n / 7), ceil(m * 3), round(n, 1) FROM mt ORDER BY id`, true},
	{"UTC", `SELECT floor(n / 100), ceil(f / 50), count(*) FROM mt GROUP BY 1, 2 ORDER BY 1, 2`, true},
	{"UTC", `SELECT id, sqrt(f) FROM mt WHERE f IS NOT NULL ORDER BY id`, true}, // 2201F at the first negative row, on both
	{"UTC", `SELECT id, date_trunc('week', ts), date_trunc('month', ts), date_trunc('year', d), date_trunc('hour', ts), date_trunc('quarter', ts),
		date_trunc('decade', ts), date_trunc('century', d), date_trunc('millennium', ts), date_trunc('second', tz), date_trunc('milliseconds', tz) FROM mt ORDER BY id`, true},
	{"UTC", `SELECT id, date_trunc('day', tz), date_trunc('month', tz), extract(hour FROM tz), extract(epoch FROM tz), extract(dow FROM tz),
		tz AT TIME ZONE 'UTC', ts AT TIME ZONE 'UTC', tz::date, tz::timestamp, ts::timestamptz, d::timestamptz FROM mt ORDER BY id`, true},
	{"+05:30", `SELECT id, date_trunc('day', tz), extract(minute FROM tz), extract(epoch FROM tz), tz::date, tz AT TIME ZONE '-03:30', ts AT TIME ZONE '+02' FROM mt ORDER BY id`, true},
	{"UTC", `SELECT date_trunc('week', tz AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS week, count(*) FROM mt GROUP BY 1 ORDER BY 1`, true},
	{"UTC", `SELECT floor(extract(epoch FROM tz) / 300) * 300 AS t, count(*) FROM mt WHERE tz BETWEEN '2024-01-01T00:00:00Z'::timestamptz AND '2025-01-01T00:00:00Z'::timestamptz GROUP BY 1 ORDER BY 1`, true},
	{"UTC", `SELECT date_trunc('month', ts) AS __timestamp, s, count(*) FROM mt GROUP BY 1, 2 ORDER BY 1, 2 LIMIT 100`, true},
	{"UTC", `SELECT id, exp(f / 1000), ln(abs(f) + 1), log(abs(f) + 1), power(abs(f), 0.5) FROM mt ORDER BY id`, true},
	{"UTC", `SELECT id, mod(i, 7), width_bucket(f, -100, 100, 8), width_bucket(n, -100, 100, 8) FROM mt ORDER BY id`, false},
	{"UTC", `SELECT id, sqrt(abs(n)), exp(n / 1000) FROM mt ORDER BY id`, false},
	{"Europe/Berlin", `SELECT id, date_trunc('month', tz), date_trunc('week', tz), date_trunc('hour', tz), date_trunc('minute', tz), extract(hour FROM tz),
		extract(day FROM tz), extract(epoch FROM tz), tz::date, tz::timestamp, ts::timestamptz, d::timestamptz FROM mt ORDER BY id`, true},
	{"America/New_York", `SELECT id, tz AT TIME ZONE 'Europe/Berlin', ts AT TIME ZONE 'America/New_York', (ts AT TIME ZONE 'Australia/Lord_Howe') AT TIME ZONE 'Asia/Kolkata',
		date_trunc('day', tz, 'Europe/Berlin') FROM mt ORDER BY id`, true},
	{"Europe/Berlin", `SELECT date_trunc('day', tz) AS day, count(*), min(tz), max(ts AT TIME ZONE 'Europe/Berlin') FROM mt GROUP BY 1 ORDER BY 1`, true},
	{"UTC", `SELECT id, tz AT TIME ZONE s FROM mt WHERE s IN ('UTC', 'EST') ORDER BY id`, false},
	{"Europe/Moscow", `SELECT id, tz AT TIME ZONE 'MSK' FROM mt ORDER BY id`, false},
	{"UTC", `SELECT id, date_part('epoch', ts), date_trunc('day', ts - tz::timestamp) FROM mt ORDER BY id`, false},
}

// WriteMathTimeCSV writes mt's rows: about a tenth of each column NULL,
// small integers (ties), zeros, and timestamptz instants around the
// 2024 DST changes in Europe.
func WriteMathTimeCSV(t *testing.T, path string, n int, rng *rand.Rand) {
	var b strings.Builder
	letters := []string{"a", "b", "m", "z", "", "mm"}
	for k := 0; k < n; k++ {
		null := func(s string) string {
			if rng.Intn(10) == 0 {
				return ""
			}
			return s
		}
		dst := []string{"2024-03-31 00:59:59+00", "2024-03-31 01:00:00+00", "2024-10-27 00:30:00+00", "2024-10-27 01:30:00+00"}
		tz := dst[rng.Intn(len(dst))]
		if rng.Intn(2) == 0 {
			tz = fmt.Sprintf("20%02d-%02d-%02d %02d:%02d:%02d.%06d+%02d", rng.Intn(40), rng.Intn(12)+1, rng.Intn(28)+1,
				rng.Intn(24), rng.Intn(60), rng.Intn(60), rng.Intn(1000000), rng.Intn(12))
		}
		fmt.Fprintf(&b, "%d,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", k,
			null(fmt.Sprint(rng.Intn(21)-10)),
			null(fmt.Sprint(rng.Intn(2000001)-1000000)),
			null(fmt.Sprintf("%g", rng.NormFloat64()*100)),
			null(fmt.Sprintf("%d.%d", rng.Intn(5)-2, rng.Intn(10))),
			null(fmt.Sprintf("%d.%03d", rng.Intn(2001)-1000, rng.Intn(1000))),
			null(fmt.Sprintf("%d.%02d", rng.Intn(21)-10, rng.Intn(100))),
			null(fmt.Sprintf("19%02d-%02d-%02d", rng.Intn(100), rng.Intn(12)+1, rng.Intn(28)+1)),
			null(fmt.Sprintf("20%02d-%02d-%02d %02d:%02d:%02d", rng.Intn(30), rng.Intn(12)+1, rng.Intn(28)+1, rng.Intn(24), rng.Intn(60), rng.Intn(60))),
			null(tz),
			null(letters[rng.Intn(len(letters))]))
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

const MathTimeDDL = `CREATE TABLE mt (id bigint, i integer, j integer, f double precision, g double precision, n numeric(10,3), m numeric(6,2), d date, ts timestamp, tz timestamptz, s text) FROM CSV 'mt.csv'`

// TestMathTimeCompiles binds the queries on the CPU backend and compiles
// their expressions to register programs (no device needed): those with
// kernels compile, the others fail with 0A000, never otherwise.
func TestMathTimeCompiles(t *testing.T) {
	dir := t.TempDir()
	rec, exec := recordingSession(t, dir, strings.Split(MathTimeDDL, " FROM CSV")[0])
	cols := []*Column{{Type: engine.Int64}, {Type: engine.Int32}, {Type: engine.Int32}, {Type: engine.Float64}, {Type: engine.Float64},
		{Type: engine.NumericType(10, 3)}, {Type: engine.NumericType(6, 2)}, {Type: engine.Date}, {Type: engine.Timestamp},
		{Type: engine.TimestampTZ}, {Type: engine.Text, Width: 8}}
	for _, tc := range MathTimeQueries {
		rec.plan = nil
		if err := exec(`SET TIME ZONE '` + tc.Zone + `'`); err != nil {
			t.Fatal(err)
		}
		rec.plan = nil
		if err := exec(tc.SQL); err != nil { // the table is empty: no row raises an error
			t.Fatalf("%s: %v", tc.SQL, err)
		}
		p := rec.plan
		if p == nil {
			t.Fatalf("%s: no plan ran", tc.SQL)
		}
		exprs := append([]engine.Expr{}, p.Project...)
		exprs = append(exprs, p.GroupBy...)
		if p.Filter != nil {
			exprs = append(exprs, p.Filter)
		}
		for _, ag := range p.Aggs {
			if ag.Arg != nil {
				exprs = append(exprs, ag.Arg)
			}
		}
		c := &compiler{p: newProgram(), cols: cols}
		_, err := c.compileOutputs(exprs, 0)
		switch {
		case tc.OnGPU && err != nil:
			t.Errorf("%s: %v", tc.SQL, err)
		case !tc.OnGPU && engine.Code(err) != engine.CodeFeatureNotSupported:
			t.Errorf("%s: want 0A000, got %v", tc.SQL, err)
		}
	}
}
