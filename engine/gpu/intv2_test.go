package gpu

import (
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// Intv2Queries are the queries of intv2.go's kernels (justify_*,
// date_trunc of an interval, age, timestamptz and time differences,
// random()) and of numeric host steps of several scales, over
// MathTimeDDL's table (NULLs, negatives, DST instants, leap days), each
// in a session zone. All compile to register programs; on the device
// (TestIntv2MatchCPU) they must match the CPU backend, errors included.
var Intv2Queries = []struct {
	Zone string
	SQL  string
}{
	{"UTC", `SELECT id, justify_days(ts - timestamp '2000-02-29 12:00'), justify_hours(ts - timestamp '2000-02-29 12:00'),
		justify_interval(ts - timestamp '2000-02-29 12:00'), justify_interval(timestamp '2000-02-29 12:00' - ts) FROM mt ORDER BY id`},
	{"UTC", `SELECT id, justify_days(CASE WHEN i > 0 THEN interval '35 days' ELSE interval '-1 mon 29 days 23:00:00' END),
		justify_hours(CASE WHEN i > 0 THEN interval '50 hours' ELSE interval '-1 day 1 hour' END),
		justify_interval(CASE WHEN j > 0 THEN interval '1 mon -29 days -23:00:00' ELSE interval '6 mons -3 days 50:00:00' END) FROM mt ORDER BY id`},
	{"UTC", `SELECT id, date_trunc('hour', ts - timestamp '2000-01-01'), date_trunc('day', timestamp '2000-01-01' - ts),
		date_trunc('month', ts - d::timestamp), date_trunc('year', (ts - timestamp '1900-01-01') + interval '1234 years 11 mons'),
		date_trunc('quarter', interval '-5 mons 3 days' - (ts - timestamp '2010-01-01')), date_trunc('millennium', ts - timestamp '4000-01-01'),
		date_trunc('milliseconds', ts - tz::timestamp), date_trunc('second', ts - tz::timestamp), date_trunc('minute', ts - tz::timestamp),
		date_trunc('decade', ts - timestamp '1066-10-14'), date_trunc('century', ts - timestamp '1066-10-14') FROM mt ORDER BY id`},
	{"UTC", `SELECT id, age(ts, timestamp '2000-02-29 12:00'), age(timestamp '2000-02-29 12:00', ts), age(d, date '1999-12-31'),
		age(ts, d::timestamp), age(ts, ts) FROM mt ORDER BY id`},
	{"Europe/Berlin", `SELECT id, age(tz, timestamptz '2024-01-31 23:00+00'), age(timestamptz '2024-03-31 01:30+00', tz), age(tz, ts::timestamptz) FROM mt ORDER BY id`},
	{"America/New_York", `SELECT id, age(tz, timestamptz '2024-11-03 05:30+00'), tz - timestamptz '2024-03-10 06:59:59+00', timestamptz '2000-01-01 00:00+00' - tz FROM mt ORDER BY id`},
	{"UTC", `SELECT id, tz - ts::timestamptz, ts::timestamptz - tz, tz - d FROM mt ORDER BY id`},
	{"UTC", `SELECT age(ts, timestamp '2000-01-01') AS a, count(*) FROM mt GROUP BY 1 ORDER BY 1`},
	{"UTC", `SELECT count(*) FROM mt WHERE age(ts, d::timestamp) > interval '30 years' OR justify_hours(ts - d::timestamp) < interval '-1000 days'`},
	{"UTC", `SELECT count(*), sum(CASE WHEN r >= 0 AND r < 1 THEN 1 END) FROM (SELECT random() AS r FROM mt) v`},
	{"UTC", `SELECT count(DISTINCT random()) > 100, count(*) FROM mt`},
	{"UTC", `SELECT count(*) FROM mt WHERE random() < 2 AND random() >= 0`},
	// numeric host steps whose results have several scales (exp over
	// these values has results past 18 digits at the largest scale,
	// still refused: m014)
	{"UTC", `SELECT id, ln(abs(m) + 1), extract(epoch FROM ts - timestamp '2000-01-01') FROM mt ORDER BY id`},
	{"UTC", `SELECT id, extract(epoch FROM age(ts, d::timestamp)), extract(day FROM justify_hours(ts - d::timestamp)) FROM mt ORDER BY id`},
	// numeric to float of 18 digits
	{"UTC", `SELECT id, (n * 1000000000000)::float8, (n * 1000000000000)::real, (m / 3)::float8, (n * 123456789.123456)::float8 FROM mt ORDER BY id`},
}

// TestIntv2Compiles binds Intv2Queries on the CPU backend and compiles
// their expressions to register programs (no device needed), host
// steps aside: none is refused.
func TestIntv2Compiles(t *testing.T) {
	dir := t.TempDir()
	rec, exec := recordingSession(t, dir, strings.Split(MathTimeDDL, " FROM CSV")[0])
	cols := []*Column{{Type: engine.Int64}, {Type: engine.Int32}, {Type: engine.Int32}, {Type: engine.Float64}, {Type: engine.Float64},
		{Type: engine.NumericType(10, 3)}, {Type: engine.NumericType(6, 2)}, {Type: engine.Date}, {Type: engine.Timestamp},
		{Type: engine.TimestampTZ}, {Type: engine.Text, Width: 8}}
	for _, tc := range Intv2Queries {
		if err := exec(`SET TIME ZONE '` + tc.Zone + `'`); err != nil {
			t.Fatal(err)
		}
		rec.plan = nil
		if err := exec(tc.SQL); err != nil {
			t.Fatalf("%s: %v", tc.SQL, err)
		}
		if rec.plan == nil {
			t.Fatalf("%s: no plan ran", tc.SQL)
		}
		plans := []*engine.Plan{rec.plan}
		if q, ok := rec.plan.Input.(*engine.Plan); ok && q != nil {
			plans = append(plans, q) // the subquery's
		}
		for _, p := range plans {
			checkPlanCompiles(t, tc.SQL, p, cols)
		}
	}
}

// checkPlanCompiles runs p's host steps as Explain does and compiles its
// device expressions.
func checkPlanCompiles(t *testing.T, sql string, p *engine.Plan, cols []*Column) {
	t.Helper()
	if p.Input != nil {
		if _, ok := p.Input.(*engine.Plan); ok {
			cols = nil // over the subquery's columns
			for _, pr := range p.Input.(*engine.Plan).Project {
				cols = append(cols, &Column{Type: pr.Type(), Width: 8})
			}
		}
	}
	{
		s := &stepper{cols: cols}
		s.step = func(h *engine.HostFunc, guard engine.Expr) (engine.Expr, error) {
			ref := &engine.ColRef{Idx: len(s.cols), Name: h.Name, T: h.T}
			s.cols = append(s.cols[:len(s.cols):len(s.cols)], &Column{Type: h.T})
			return ref, nil
		}
		q, err := s.rewrite(p)
		if err != nil {
			t.Errorf("%s: %v", sql, err)
			return
		}
		if len(deviceExprs(q)) == 0 {
			t.Errorf("%s: no device expressions", sql)
		}
		for _, e := range deviceExprs(q) {
			c := &compiler{p: newProgram(), cols: s.cols, intvOK: true}
			if _, err := c.compile(e, 0); err != nil {
				t.Errorf("%s: %s: %v", sql, e, err)
			}
		}
	}
}
