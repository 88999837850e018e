package cpu

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"slices"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/eval"
)

// storedTestTable is a table of every storage the stored-domain filter
// reads, with NULLs, boundary values and negative numerics.
func storedTestTable(rng *rand.Rand, n int) *engine.HostTable {
	num := engine.NumericType(15, 2)
	types := []engine.Type{engine.Int16, engine.Int32, engine.Int64, engine.Date, num, engine.Timestamp, engine.Int32, num}
	h := &engine.HostTable{N: int64(n)}
	for c, t := range types {
		nullable := c < 6 // the last two have no NULLs
		col := engine.NewColumn(t, n, 0, nullable)
		for i := 0; i < n; i++ {
			var v int64
			switch rng.Intn(10) {
			case 0: // a boundary
				v = []int64{math.MinInt64, math.MaxInt64, 0, -1, 1, math.MinInt32, math.MaxInt32, math.MinInt16, math.MaxInt16}[rng.Intn(9)]
			default:
				v = rng.Int63n(4001) - 2000
			}
			switch {
			case col.I16 != nil:
				col.I16[i] = int16(v)
			case col.I32 != nil:
				col.I32[i] = int32(v)
			default:
				col.I64[i] = v
			}
			if nullable && rng.Intn(7) == 0 {
				col.SetNull(i)
			}
		}
		h.Cols = append(h.Cols, col)
	}
	return h
}

// TestStoredFilterMatchesSelect: a filter compiled to the stored domain
// selects exactly eval.Select's rows, for every comparison either way
// round, constants at and past the types' boundaries, numerics of other
// scales, NULL constants, dates cast to timestamps (whose product wraps
// for dates far out) and conjunctions of them; and shapes it does not
// know are left to eval.
func TestStoredFilterMatchesSelect(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	const rows = 3000
	h := storedTestTable(rng, rows)
	bo := engine.Bool
	num := engine.NumericType(15, 2)
	cols := []*engine.ColRef{ref(0, engine.Int16), ref(1, engine.Int32), ref(2, engine.Int64), ref(3, engine.Date),
		ref(4, num), ref(5, engine.Timestamp), ref(6, engine.Int32), ref(7, num)}
	dec := func(s string) *engine.Const {
		v, ok := engine.ParseDecLiteral(s)
		if !ok {
			t.Fatal(s)
		}
		return &engine.Const{T: engine.Numeric, D: v}
	}
	ints := []int64{math.MinInt64, math.MinInt64 + 1, math.MinInt32, math.MinInt16 - 1, -2000, -1, 0, 1, 7, 1999, 2000, 2001,
		math.MaxInt16, math.MaxInt16 + 1, math.MaxInt32, math.MaxInt64 - 1, math.MaxInt64}
	decs := []string{"0", "-0.01", "0.005", "-0.005", "3.14159", "-12.5", "12.50", "-20", "20.001", "19.999",
		"92233720368547758.07", "92233720368547758.08", "-92233720368547758.08", "-92233720368547758.09",
		"99999999999999999999999.5", "-99999999999999999999999.5"}
	consts := func(c *engine.ColRef) []*engine.Const {
		var out []*engine.Const
		switch c.T.Kind {
		case engine.KindNumeric:
			for _, s := range decs {
				out = append(out, dec(s))
			}
			out = append(out, &engine.Const{T: engine.Numeric, Null: true})
		default:
			kt := c.T
			if kt.Kind != engine.KindDate && kt.Kind != engine.KindTimestamp {
				kt = engine.Int64
			}
			for _, v := range ints {
				out = append(out, &engine.Const{T: kt, I: v})
			}
			out = append(out, &engine.Const{T: kt, Null: true})
		}
		return out
	}
	ops := []engine.Op{engine.OpEq, engine.OpNe, engine.OpLt, engine.OpLe, engine.OpGt, engine.OpGe}
	var preds []engine.Expr
	for _, c := range cols {
		for _, k := range consts(c) {
			for _, op := range ops {
				preds = append(preds, call(op, bo, c, k), call(op, bo, k, c))
			}
		}
	}
	// dates cast to timestamps, against timestamps near the wrap and in range
	castD := call(engine.OpCast, engine.Timestamp, cols[3])
	for _, v := range []int64{0, -1, 86_400_000_000, 1999 * 86_400_000_000, -2000*86_400_000_000 + 1, math.MaxInt64, math.MinInt64} {
		for _, op := range ops {
			k := &engine.Const{T: engine.Timestamp, I: v}
			preds = append(preds, call(op, bo, castD, k), call(op, bo, k, castD))
		}
	}
	compiled := 0
	check := func(p engine.Expr, wantCompiled bool) {
		t.Helper()
		f := compileStoredFilter(p, h)
		if (f != nil) != wantCompiled {
			t.Fatalf("%s: compiled %v, want %v", p, f != nil, wantCompiled)
		}
		if f == nil {
			return
		}
		compiled++
		for _, span := range [][2]int{{0, rows}, {1000, 1500}, {2999, 1}} {
			lo, n := span[0], span[1]
			in := &engine.Batch{N: n, Cols: make([]*engine.Vec, len(h.Cols))}
			for c, col := range h.Cols {
				in.Cols[c] = scanRows(col, lo, n, nil, nil)
			}
			want, err := eval.Select(context.Background(), p, in)
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			got := f.run(lo, n, nil)
			if !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
				t.Fatalf("%s over [%d,%d): %d rows, eval %d (first %v vs %v)", p, lo, lo+n, len(got), len(want), selHead(got), selHead(want))
			}
		}
	}
	for _, p := range preds {
		check(p, true)
	}
	// conjunctions of random ones
	for i := 0; i < 300; i++ {
		var p engine.Expr = preds[rng.Intn(len(preds))]
		for j := rng.Intn(3); j >= 0; j-- {
			p = call(engine.OpAnd, bo, p, preds[rng.Intn(len(preds))])
		}
		check(p, true)
	}
	// not compiled: an integer column against a numeric, OR, an
	// expression of a column, a comparison of two columns
	for _, p := range []engine.Expr{
		call(engine.OpLt, bo, cols[1], dec("2.5")),
		call(engine.OpOr, bo, call(engine.OpLt, bo, cols[1], i4(3)), call(engine.OpGt, bo, cols[1], i4(9))),
		call(engine.OpLt, bo, call(engine.OpAdd, engine.Int32, cols[1], i4(1)), i4(3)),
		call(engine.OpLt, bo, cols[1], cols[6]),
		call(engine.OpAnd, bo, call(engine.OpLt, bo, cols[1], i4(3)), call(engine.OpLt, bo, cols[1], cols[6])),
	} {
		check(p, false)
	}
	if compiled == 0 {
		t.Fatal("nothing compiled")
	}
}

func selHead(s []int32) string {
	return fmt.Sprint(s[:min(len(s), 8)])
}
