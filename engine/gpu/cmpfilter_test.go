package gpu

import (
	"testing"

	"github.com/gpusql/gpusql/cuda"
	"github.com/gpusql/gpusql/engine"
)

// TestCmpTermsShapes binds filters over a table of every integer-like
// type and checks which ones cmpTerms takes: comparisons of an integer,
// date, timestamp or time column with a constant of its kind, either side,
// under AND; nothing with OR, NOT, a cast, a numeric, a float, a string, a
// NULL constant, two columns, or more than eight terms.
func TestCmpTermsShapes(t *testing.T) {
	rec, exec := recordingSession(t, "", `CREATE TABLE ct (a smallint, b integer, c bigint, d date, ts timestamp, tm time, n numeric(12,2), f double precision, s text)`)
	types := []engine.Type{engine.Int16, engine.Int32, engine.Int64, engine.Date, engine.Timestamp, {Kind: engine.KindTime},
		engine.NumericType(12, 2), engine.Float64, engine.Text}
	cols := make([]*Column, len(types))
	for i, ty := range types {
		cols[i] = &Column{Type: ty, Data: &cuda.Buffer{}}
	}
	cases := []struct {
		where string
		terms int // 0: refused
	}{
		{`c = 1000004`, 1},
		{`1000004 = c`, 1},
		{`a < 5 AND b >= -7 AND c <> 3`, 3},
		{`5 > a`, 1},
		{`d >= date '1994-01-01' AND d < date '1995-01-01'`, 2},
		{`ts > timestamp '2000-01-01 10:00:00'`, 1},
		{`tm <= time '12:00'`, 1},
		{`b = 9000000000`, 1},
		{`a = 1 OR b = 2`, 0},
		{`NOT (a = 1)`, 0},
		{`n = 1.5`, 0},
		{`f < 2`, 0},
		{`s = 'x'`, 0},
		{`a = NULL`, 0},
		{`a = b`, 0},
		{`d < timestamp '2000-01-01'`, 0},
		{`a = 1 AND b = 1 AND c = 1 AND a < 2 AND b < 2 AND c < 2 AND a > 0 AND b > 0`, 8},
		{`a = 1 AND b = 1 AND c = 1 AND a < 2 AND b < 2 AND c < 2 AND a > 0 AND b > 0 AND c > 0`, 0},
	}
	for _, tc := range cases {
		rec.plan = nil
		q := "SELECT a FROM ct WHERE " + tc.where
		if err := exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if rec.plan == nil || rec.plan.Filter == nil {
			if tc.terms != 0 {
				t.Errorf("%s: no filter in the plan", q)
			}
			continue
		}
		terms, ok := cmpTerms(rec.plan.Filter, cols)
		if ok != (tc.terms > 0) || len(terms) != tc.terms {
			t.Errorf("%s (%s): %d terms, ok %v; want %d", q, rec.plan.Filter, len(terms), ok, tc.terms)
		}
	}
	// the constant and the operator, mirrored when the constant is first
	rec.plan = nil
	if err := exec(`SELECT a FROM ct WHERE 7 < c`); err != nil {
		t.Fatal(err)
	}
	terms, ok := cmpTerms(rec.plan.Filter, cols)
	if !ok || len(terms) != 1 || terms[0].Op != cmpOps[engine.OpGt] || terms[0].K != 7 || terms[0].Width != 8 {
		t.Errorf("7 < c: %+v", terms)
	}
}
