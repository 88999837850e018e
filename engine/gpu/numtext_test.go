package gpu

import (
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// TestScaleBound binds casts to text of numerics whose scale varies by
// row and checks the scale bound the text slot is sized from (numtext.go)
// and that the cast compiles: quotients 1000, floats to numeric 340,
// products the sum of their factors', CASE and coalesce the largest of
// their branches'.
func TestScaleBound(t *testing.T) {
	rec, exec := recordingSession(t, "", `CREATE TABLE nb (a numeric(10,2), c integer, d double precision)`)
	cols := []*Column{{Type: engine.NumericType(10, 2)}, {Type: engine.Int32}, {Type: engine.Float64}}
	cases := []struct {
		expr  string
		bound int
	}{
		{`a / c`, 1000},
		{`d::numeric`, f2dMaxScale},
		{`(a / c) * (a / c)`, 2000},
		{`d::numeric * d::numeric * d::numeric * d::numeric`, 4 * f2dMaxScale},
		{`(a / c) * a`, 1002},
		{`a / c + d::numeric`, 1000},
		{`CASE WHEN c > 0 THEN a / c * (a / c) ELSE a END`, 2000},
		{`coalesce(d::numeric * a, a / c)`, 1000},
		{`(a / c) % a`, 1000},
		{`-(d::numeric * d::numeric)`, 2 * f2dMaxScale},
	}
	for _, tc := range cases {
		rec.plan = nil
		if err := exec(`SELECT (` + tc.expr + `)::text FROM nb`); err != nil {
			t.Fatalf("%s: %v", tc.expr, err)
		}
		c := &compiler{p: newProgram(), cols: cols}
		v, err := c.compile(rec.plan.Project[0].(*engine.Call).Args[0], 0)
		if err != nil {
			t.Fatalf("%s: %v", tc.expr, err)
		}
		if v.scaleReg == 0 {
			t.Fatalf("%s: no per-row scale", tc.expr)
		}
		if got := c.p.scaleBound(v.scaleReg); got != tc.bound {
			t.Errorf("%s: bound %d, want %d", tc.expr, got, tc.bound)
		}
		if _, err := c.compileOutputs(rec.plan.Project, 0); err != nil {
			t.Errorf("%s as text: %v", tc.expr, err)
		}
	}
}
