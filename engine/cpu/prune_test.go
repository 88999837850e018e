package cpu

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// TestZoneFilterAgrees: filters over a table with zone maps give the
// rows of the same table without them (nothing skipped), for comparisons
// either way round, ranges, IN lists with NULLs, IS [NOT] NULL, AND and
// OR, and constants inside, between and outside the zones; and a
// clustered column's point and range filters do skip batches.
func TestZoneFilterAgrees(t *testing.T) {
	zoned := zonedTable(t, 30000, 4)
	plain := &engine.HostTable{Cols: zoned.Cols, N: zoned.N} // no zone maps
	i4t, num, dt, bo := engine.Int32, engine.NumericType(10, 2), engine.Date, engine.Bool
	id, k, n, d := ref(0, i4t), ref(1, i4t), ref(2, num), ref(4, dt)
	dec := func(s string) *engine.Const {
		v, ok := engine.ParseDecLiteral(s)
		if !ok {
			t.Fatal(s)
		}
		return &engine.Const{T: engine.Numeric, D: v}
	}
	date := func(v int64) *engine.Const { return &engine.Const{T: engine.Date, I: v} }
	null := &engine.Const{T: engine.Int32, Null: true}
	and := func(a, b engine.Expr) engine.Expr { return call(engine.OpAnd, bo, a, b) }
	or := func(a, b engine.Expr) engine.Expr { return call(engine.OpOr, bo, a, b) }
	cmp := func(op engine.Op, a, b engine.Expr) engine.Expr { return call(op, bo, a, b) }
	filters := []engine.Expr{
		cmp(engine.OpEq, id, i4(12345)),
		cmp(engine.OpEq, i4(4097), id),
		cmp(engine.OpEq, id, i4(0)),
		cmp(engine.OpEq, id, i4(30001)),
		cmp(engine.OpLt, id, i4(4097)),
		cmp(engine.OpLe, id, i4(4096)),
		cmp(engine.OpGt, id, i4(29990)),
		cmp(engine.OpGe, i4(100), id),
		and(cmp(engine.OpGe, id, i4(8000)), cmp(engine.OpLe, id, i4(8200))),
		or(cmp(engine.OpLt, id, i4(10)), cmp(engine.OpGt, id, i4(29995))),
		call(engine.OpIn, bo, id, i4(5), null, i4(20000), i4(99999)),
		call(engine.OpIn, bo, id, null),
		cmp(engine.OpEq, k, i4(-25)),
		cmp(engine.OpGt, k, i4(23)),
		call(engine.OpIsNull, bo, k),
		call(engine.OpIsNotNull, bo, n),
		cmp(engine.OpLt, n, dec("-99.5")),
		cmp(engine.OpEq, n, dec("12.250")),
		cmp(engine.OpGe, n, dec("99.75")),
		cmp(engine.OpEq, d, date(9010)),
		and(cmp(engine.OpGe, d, date(9020)), cmp(engine.OpLt, d, date(9021))),
		and(cmp(engine.OpEq, id, i4(777)), cmp(engine.OpEq, k, i4(3))),
		or(cmp(engine.OpEq, id, i4(777)), call(engine.OpIsNull, bo, k)),
	}
	for fi, f := range filters {
		p := &engine.Plan{Table: "z", Filter: f, Limit: -1, Visible: 5,
			Project: []engine.Expr{id, k, n, ref(3, engine.Text), d}}
		p.Data = plain
		want := runWorkers(t, p, 2)
		p.Data = zoned
		got := runWorkers(t, p, 2)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("filter %d (%s): %d rows with zone maps, %d without", fi, f, len(got), len(want))
		}
	}
	// The clustered id: a point filter reads one batch, a range the
	// batches it covers.
	for _, c := range []struct {
		f    engine.Expr
		want int
	}{
		{cmp(engine.OpEq, id, i4(12345)), 1},
		{cmp(engine.OpEq, id, i4(0)), 0},
		{and(cmp(engine.OpGe, id, i4(5000)), cmp(engine.OpLe, id, i4(5200))), 1},
		{and(cmp(engine.OpGe, id, i4(8000)), cmp(engine.OpLe, id, i4(8200))), 2}, // rows 7999-8199 straddle 8192
		{cmp(engine.OpLe, id, i4(4097)), 2},
		{call(engine.OpIn, bo, id, i4(5), null, i4(20000)), 2},
	} {
		tst := zoneFilter(c.f, zoned)
		if tst == nil {
			t.Errorf("%s: no zone test", c.f)
			continue
		}
		if got := len(liveMorsels(int(zoned.N), tst)); got != c.want {
			t.Errorf("%s: reads %d batches, want %d", c.f, got, c.want)
		}
	}
	if zoneFilter(cmp(engine.OpEq, id, i4(5)), plain) != nil {
		t.Errorf("a table without zone maps has a zone test")
	}
}

// TestZoneFilterKeepsErrors: a block is skipped only where evaluating the
// filter there could raise no error: the right side of an AND that may
// fail is guarded only by a left side that is false (not NULL).
func TestZoneFilterKeepsErrors(t *testing.T) {
	zoned := zonedTable(t, 20000, 5)
	i4t, bo := engine.Int32, engine.Bool
	id, k := ref(0, i4t), ref(1, i4t)
	div := call(engine.OpGt, bo, call(engine.OpDiv, i4t, i4(1), call(engine.OpSub, i4t, id, i4(15000))), i4(0)) // fails at id 15000
	cases := []struct {
		f    engine.Expr
		skip bool
	}{
		{call(engine.OpAnd, bo, call(engine.OpLt, bo, id, i4(100)), div), true},  // id < 100 is false, never NULL, where skipped
		{call(engine.OpAnd, bo, div, call(engine.OpLt, bo, id, i4(100))), false}, // the division runs first, on every row
		{call(engine.OpAnd, bo, call(engine.OpLt, bo, k, i4(-100)), div), false}, // k has NULLs: the division runs there
		{call(engine.OpOr, bo, call(engine.OpLt, bo, id, i4(100)), div), false},  // no test for the division
		{call(engine.OpAnd, bo, call(engine.OpLt, bo, id, i4(100)), call(engine.OpLt, bo, k, i4(0))), true},
	}
	for _, c := range cases {
		tst := zoneFilter(c.f, zoned)
		skips := tst != nil && len(liveMorsels(int(zoned.N), tst)) < int((zoned.N+batchRows-1)/batchRows)
		if skips != c.skip {
			t.Errorf("%s: skips %v, want %v", c.f, skips, c.skip)
		}
		p := &engine.Plan{Table: "z", Data: zoned, Filter: c.f, Limit: -1, Visible: 1, Project: []engine.Expr{id}}
		plain := *p
		plain.Data = &engine.HostTable{Cols: zoned.Cols, N: zoned.N}
		_, errZ := runErr(p)
		_, errP := runErr(&plain)
		if fmt.Sprint(errZ) != fmt.Sprint(errP) {
			t.Errorf("%s: error %v with zone maps, %v without", c.f, errZ, errP)
		}
	}
}
