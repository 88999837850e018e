package cpu

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// TestCaseSumMatchesGeneral: sum, avg and count of `CASE WHEN cond THEN a
// ELSE b END` added up directly (casesum.go) keep the same per-group
// sums, counts, results and errors as the general path (the CASE's
// result vector from eval.EvalCaseInto, then update), over integer,
// bigint and numeric branches that are columns, constants or NULL,
// conditions with NULLs (comparisons of a column with a constant by each
// operator, at the column's scale and others, and other conditions) and
// one that fails (division by zero),
// batches with NULLs, negative values, another scale, sums that
// overflow bigint or numeric (at one scale and across scales), empty
// batches and no batch at all.
func TestCaseSumMatchesGeneral(t *testing.T) {
	rng := rand.New(rand.NewSource(42))
	num := engine.NumericType(15, 2)
	// columns: 0 int4, 1 int8, 2 numeric(15,2), 3 int4 condition
	// column, 4 group key, 5 numeric(15,2)
	i4c, i8c, nc, cc, nc2 := ref(0, engine.Int32), ref(1, engine.Int64), ref(2, num), ref(3, engine.Int32), ref(5, num)
	dec := func(s string) *engine.Const {
		v, ok := engine.ParseDecLiteral(s)
		if !ok {
			t.Fatal(s)
		}
		return &engine.Const{T: engine.Numeric, D: v}
	}
	i8 := func(v int64) *engine.Const { return &engine.Const{T: engine.Int64, I: v} }
	null := func(ty engine.Type) *engine.Const { return &engine.Const{T: ty, Null: true} }
	toNum := func(e engine.Expr) engine.Expr { return call(engine.OpCast, engine.Numeric, e) }
	bt := engine.Bool
	conds := []engine.Expr{
		call(engine.OpGe, bt, cc, i4(0)),                                          // compared with a constant; NULLs
		call(engine.OpLt, bt, i4c, cc),                                            // general Eval
		call(engine.OpGe, bt, nc, dec("0.05")),                                    // numeric with a constant
		call(engine.OpGt, bt, call(engine.OpDiv, engine.Int32, i4(1), cc), i4(0)), // fails where cc is 0
		&engine.Const{T: bt, I: 1},
		call(engine.OpEq, bt, cc, i4(1)),
		call(engine.OpNe, bt, cc, i4(1)),
		call(engine.OpLe, bt, cc, i4(0)),
		call(engine.OpLt, bt, cc, i4(2)),
		call(engine.OpGe, bt, nc, dec("92233720368547758.08")), // 2^63 at scale 2
		call(engine.OpLt, bt, nc, dec("-0.5")),
		call(engine.OpLe, bt, nc, dec("0.125")), // a scale above the column's
		call(engine.OpGt, bt, i8c, i8(-3)),
		call(engine.OpEq, bt, nc, dec("0.1")),
		call(engine.OpNe, bt, nc, dec("0")),
	}
	type arms struct {
		t          engine.Type
		then, els  engine.Expr
		sumT, avgT engine.Type
	}
	shapes := []arms{
		{engine.Int32, i4c, i4(0), engine.Int64, engine.Numeric},
		{engine.Int32, i4(1), i4(0), engine.Int64, engine.Numeric},
		{engine.Int32, i4c, null(engine.Int32), engine.Int64, engine.Numeric},
		{engine.Int32, i4(math.MaxInt64 / 3), i4c, engine.Int64, engine.Numeric}, // overflows bigint
		{engine.Int32, null(engine.Int32), i4(-7), engine.Int64, engine.Numeric},
		{engine.Int64, i8c, i8(0), engine.Numeric, engine.Numeric},
		{engine.Int64, i8(math.MinInt64), i8c, engine.Numeric, engine.Numeric},
		{engine.Numeric, toNum(nc), dec("0"), engine.Numeric, engine.Numeric},
		{engine.Numeric, toNum(nc), dec("0.000"), engine.Numeric, engine.Numeric},
		{engine.Numeric, toNum(nc), null(engine.Numeric), engine.Numeric, engine.Numeric},
		{engine.Numeric, toNum(nc), toNum(nc2), engine.Numeric, engine.Numeric},
		{engine.Numeric, dec("-1.5"), toNum(nc2), engine.Numeric, engine.Numeric},
		{num, nc, null(num), engine.Numeric, engine.Numeric},
	}
	// batch kinds: 0 ordinary, 1 NULLs, 2 values of scale 3, 3 values
	// near the limits (sums overflow), 4 empty
	batch := func(kind, n int) *engine.Batch {
		if kind == 4 {
			n = 0
		}
		in := &engine.Batch{N: n}
		for c, ty := range []engine.Type{engine.Int32, engine.Int64, num, engine.Int32, engine.Int32, num} {
			v := engine.NewVec(ty, n)
			for i := 0; i < n; i++ {
				x := rng.Int63n(2001) - 1000
				switch {
				case c == 4:
					x = int64(rng.Intn(4))
				case c == 3:
					x = rng.Int63n(7) - 2
				case kind == 3 && c != 0:
					x = math.MaxInt64 - rng.Int63n(1000)
					if rng.Intn(2) == 0 {
						x = math.MinInt64 + rng.Int63n(1000)
					}
				case kind == 3:
					x = math.MaxInt32 - rng.Int63n(10)
				}
				if ty.Kind == engine.KindNumeric {
					v.D[i] = engine.DecFromScaled(x, 2)
					if kind == 2 && rng.Intn(3) == 0 {
						v.D[i] = engine.DecFromScaled(x, 3)
					}
					if kind == 3 {
						v.D[i] = engine.Dec{Hi: math.MaxInt64 - rng.Int63n(4), Lo: rng.Uint64(), Scale: 2}
					}
				} else {
					v.I[i] = x
				}
				if kind == 1 && c != 4 && rng.Intn(4) == 0 {
					v.SetNull(i)
				}
			}
			in.Cols = append(in.Cols, v)
		}
		return in
	}
	ctx := context.Background()
	str := func(b *engine.Batch) string {
		s := ""
		for _, v := range b.Cols {
			s += fmt.Sprint(v.I, v.D, v.Null, ";")
		}
		return s
	}
	for ci, cond := range conds {
		for si, sh := range shapes {
			e := &engine.Case{Conds: []engine.Expr{cond}, Results: []engine.Expr{sh.then}, Else: sh.els, T: sh.t}
			for _, grouped := range []bool{false, true} {
				for _, fn := range []engine.AggFunc{engine.AggSum, engine.AggAvg, engine.AggCount} {
					rt := map[engine.AggFunc]engine.Type{engine.AggSum: sh.sumT, engine.AggAvg: sh.avgT, engine.AggCount: engine.Int64}[fn]
					p := &engine.Plan{Aggregate: true, Aggs: []engine.AggCall{{Func: fn, Arg: e, T: rt}}}
					if grouped {
						p.GroupBy = []engine.Expr{ref(4, engine.Int32)}
					}
					want, got := newAggregator(p), newAggregator(p)
					if got.states[0].csum == nil {
						t.Fatalf("cond %d shape %d %v: not compiled", ci, si, fn)
					}
					want.states[0].csum = nil
					kinds := [][]int{
						{0, 1, 4, 2, 0, 1, 3},
						{0, 1, 4, 0, 3}, // overflow at the sums' first scale
						nil,             // no input at all
					}[rng.Intn(3)]
					what := fmt.Sprintf("cond %d shape %d %v grouped %v", ci, si, fn, grouped)
					for bi, kind := range kinds {
						in := batch(kind, 1+rng.Intn(300))
						errW := want.consume(ctx, in)
						errG := got.consume(ctx, in)
						if fmt.Sprint(errW) != fmt.Sprint(errG) {
							t.Fatalf("%s batch %d: error %v, the general path's %v", what, bi, errG, errW)
						}
						if errW != nil {
							break
						}
					}
					ws, gs := want.states[0], got.states[0]
					if want.ng != got.ng || fmt.Sprint(ws.count, ws.sumI, ws.sumD) != fmt.Sprint(gs.count, gs.sumI, gs.sumD) {
						t.Fatalf("%s: %v %v %v, the general path's %v %v %v", what, gs.count, gs.sumI, gs.sumD, ws.count, ws.sumI, ws.sumD)
					}
					rw, errW := want.result()
					rg, errG := got.result()
					if fmt.Sprint(errW) != fmt.Sprint(errG) || errW == nil && str(rw) != str(rg) {
						t.Fatalf("%s: result %v (%v), the general path's %v (%v)", what, str(rg), errG, str(rw), errW)
					}
				}
			}
		}
	}
	// not compiled: two conditions, a computed branch, DISTINCT, min, a
	// nil ELSE (the binder never leaves one)
	c2 := &engine.Case{Conds: []engine.Expr{conds[0], conds[1]}, Results: []engine.Expr{i4c, i4c}, Else: i4(0), T: engine.Int32}
	computed := &engine.Case{Conds: conds[:1], Results: []engine.Expr{call(engine.OpAdd, engine.Int32, i4c, i4(1))}, T: engine.Int32}
	simple := &engine.Case{Conds: conds[:1], Results: []engine.Expr{i4c}, Else: null(engine.Int32), T: engine.Int32}
	noElse := &engine.Case{Conds: conds[:1], Results: []engine.Expr{i4c}, T: engine.Int32}
	for _, c := range []engine.AggCall{
		{Func: engine.AggSum, Arg: c2, T: engine.Int64},
		{Func: engine.AggSum, Arg: computed, T: engine.Int64},
		{Func: engine.AggSum, Arg: simple, T: engine.Int64, Distinct: true},
		{Func: engine.AggMin, Arg: simple, T: engine.Int32},
		{Func: engine.AggSum, Arg: noElse, T: engine.Int64},
	} {
		if compileCaseSum(c, sumKindOf(c)) != nil {
			t.Errorf("%v compiled", c)
		}
	}
}
