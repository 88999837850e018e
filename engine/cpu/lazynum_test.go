package cpu

import (
	"context"
	"fmt"
	"math/rand"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// TestLazyNumericMatchesEager: aggregations whose narrow numeric columns
// are scanned as their stored mantissas (scanBufs.scanLazy) and added up
// from them (bare sums and avgs, int64 arithmetic, conditional sums with
// a stored-domain condition) give the same results, display scales,
// NULLs and errors as the same plans scanned eagerly into Dec vectors:
// global and grouped, on one and two workers, with no filter, a
// stored-domain filter, a filter evaluated on vectors and one that
// passes no row, over columns with NULLs, two scales, values whose
// products overflow int64, and a group whose only inputs are ELSE 0.
func TestLazyNumericMatchesEager(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	n := 3*batchRows + 123
	n152, n124, n180 := engine.NumericType(15, 2), engine.NumericType(12, 4), engine.NumericType(18, 0)
	types := []engine.Type{n152, n152, n124, engine.Int32, engine.Int32, n180}
	cols := make([]*engine.Column, len(types))
	for c, ty := range types {
		cols[c] = engine.NewColumn(ty, n, 0, c == 1 || c == 2)
	}
	for i := 0; i < n; i++ {
		key := int64(rng.Intn(5))
		cols[3].I32[i] = int32(key)
		cols[4].I32[i] = int32(rng.Intn(100))
		cols[0].I64[i] = rng.Int63n(200001) - 100000
		if key == 4 {
			cols[0].I64[i] = 1 // 0.01: never >= 0.05
		}
		cols[1].I64[i] = rng.Int63n(2001) - 1000
		cols[2].I64[i] = rng.Int63n(20001) - 10000
		cols[5].I64[i] = 900_000_000_000_000_000 - rng.Int63n(1000)
		if rng.Intn(5) == 0 {
			cols[1].SetNull(i)
		}
		if rng.Intn(7) == 0 {
			cols[2].SetNull(i)
		}
	}
	h := engine.NewHostTable(cols, int64(n))
	c0, c1, c2, key, c4, c5 := ref(0, n152), ref(1, n152), ref(2, n124), ref(3, engine.Int32), ref(4, engine.Int32), ref(5, n180)
	dec := func(s string) *engine.Const {
		v, ok := engine.ParseDecLiteral(s)
		if !ok {
			t.Fatal(s)
		}
		return &engine.Const{T: engine.Numeric, D: v}
	}
	num := engine.Numeric
	toNum := func(e engine.Expr) engine.Expr { return call(engine.OpCast, num, e) }
	bt := engine.Bool
	cs := func(cond, then, els engine.Expr) engine.Expr {
		return &engine.Case{Conds: []engine.Expr{cond}, Results: []engine.Expr{then}, Else: els, T: num}
	}
	conds := []engine.Expr{
		call(engine.OpGe, bt, c0, dec("0.05")),
		call(engine.OpLt, bt, c1, dec("-0.5")),     // NULLs
		call(engine.OpLe, bt, c0, dec("0.125")),    // a scale above the column's
		call(engine.OpGt, bt, c4, i4(50)),          // an integer column
		call(engine.OpLt, bt, c0, c2),              // not in the stored domain
		call(engine.OpEq, bt, c2, dec("0.0100")),   // the other scale
		call(engine.OpNe, bt, c1, dec("12345678")), // no stored value
	}
	var aggs []engine.AggCall
	aggs = append(aggs,
		agg(engine.AggSum, c0, num), agg(engine.AggAvg, c1, num), agg(engine.AggSum, c2, num),
		agg(engine.AggCount, c1, engine.Int64), agg(engine.AggCountStar, nil, engine.Int64),
		agg(engine.AggSum, call(engine.OpMul, num, c0, c2), num),
		agg(engine.AggSum, call(engine.OpMul, num, c0, call(engine.OpSub, num, dec("1"), c1)), num), // NULLs
		agg(engine.AggSum, call(engine.OpMul, num, c5, c5), num),                                    // past int64
		agg(engine.AggAvg, call(engine.OpAdd, num, c5, c0), num),
		agg(engine.AggMax, c0, n152),
	)
	for _, cond := range conds {
		for _, br := range [][2]engine.Expr{
			{toNum(c0), dec("0")},
			{toNum(c0), dec("0.000")}, // a constant above the column's scale
			{toNum(c1), &engine.Const{T: num, Null: true}},
			{dec("-1.5"), toNum(c0)},
			{toNum(c0), toNum(c2)}, // two scales
			{toNum(c2), dec("7")},
			{dec("99999999999999999999999999999999999"), toNum(c0)}, // overflows
		} {
			e := cs(cond, br[0], br[1])
			aggs = append(aggs, agg(engine.AggSum, e, num), agg(engine.AggAvg, e, num), agg(engine.AggCount, e, engine.Int64))
		}
	}
	filters := []engine.Expr{
		nil,
		call(engine.OpGe, bt, c4, i4(10)),  // stored-domain
		call(engine.OpLt, bt, c2, c0),      // on vectors
		call(engine.OpLt, bt, c4, i4(-10)), // no row
	}
	ctx := context.Background()
	str := func(b *engine.Batch) string {
		s := ""
		for _, v := range b.Cols {
			s += fmt.Sprint(v.I, v.D, v.Null, ";")
		}
		return s
	}
	lazyRuns := 0
	for _, filter := range filters {
		for _, grouped := range []bool{false, true} {
			// one aggregate at a time, so that an error of one does
			// not hide the others
			for ai, a := range aggs {
				p := &engine.Plan{Aggregate: true, Filter: filter, Aggs: []engine.AggCall{a}}
				if grouped {
					p.GroupBy = []engine.Expr{key}
				}
				for _, workers := range []int{1, 2} {
					var res [2]string
					for k, eager := range []bool{true, false} {
						r := &execRun{p: p, host: h, rows: n, eager: eager}
						r.used = usedColumns(len(cols), append([]engine.Expr{p.Filter}, exprsOf(p)...)...)
						if p.Filter != nil {
							r.filterCols = usedColumns(len(cols), p.Filter)
							r.restCols = usedColumns(len(cols), exprsOf(p)...)
							r.stored = compileStoredFilter(p.Filter, h)
						}
						if !eager && r.lazyColumns(newAggregator(p)) != nil {
							lazyRuns++
						}
						out, err := r.aggregate(ctx, workers)
						if err != nil {
							res[k] = "error " + err.Error()
						} else {
							res[k] = str(out)
						}
					}
					if res[0] != res[1] {
						t.Fatalf("filter %v grouped %v agg %d (%v) workers %d: lazy %s, eager %s", filter, grouped, ai, a.Arg, workers, res[1], res[0])
					}
				}
			}
		}
	}
	if lazyRuns == 0 {
		t.Fatal("no plan scanned a column lazily")
	}
	// a group whose only inputs are ELSE 0 shows 0, at scale 0
	p := &engine.Plan{Aggregate: true, GroupBy: []engine.Expr{key}, Aggs: []engine.AggCall{agg(engine.AggSum, cs(conds[0], toNum(c0), dec("0")), num)}}
	r := &execRun{p: p, host: h, rows: n, used: usedColumns(len(cols), exprsOf(p)...)}
	out, err := r.aggregate(ctx, 2)
	if err != nil {
		t.Fatal(err)
	}
	for g := 0; g < out.N; g++ {
		d := out.Cols[1].D[g]
		if out.Cols[0].I[g] == 4 && (d.Scale != 0 || d.Sign() != 0) {
			t.Fatalf("group 4: %v, want 0 at scale 0", d)
		}
		if out.Cols[0].I[g] != 4 && d.Scale != 2 {
			t.Fatalf("group %d: scale %d, want 2", out.Cols[0].I[g], d.Scale)
		}
	}
}
