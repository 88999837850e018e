package cpu

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// TestNumExprSumsMatchEval: sums and averages of numeric arithmetic
// computed in int64 (numprog.go) keep the same per-group sums, counts and
// errors as eval's Dec arithmetic, over batches of ordinary values,
// negative values, NULLs, values of another scale, values past 64 bits
// and products that overflow int64 (the batches that must fall back).
func TestNumExprSumsMatchEval(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	num := engine.NumericType(15, 2)
	a, b, c := ref(0, num), ref(1, num), ref(2, num)
	dec := func(s string) *engine.Const {
		v, ok := engine.ParseDecLiteral(s)
		if !ok {
			t.Fatal(s)
		}
		return &engine.Const{T: engine.Numeric, D: v}
	}
	nt := engine.Numeric
	mul := func(x, y engine.Expr) engine.Expr { return call(engine.OpMul, nt, x, y) }
	add := func(x, y engine.Expr) engine.Expr { return call(engine.OpAdd, nt, x, y) }
	sub := func(x, y engine.Expr) engine.Expr { return call(engine.OpSub, nt, x, y) }
	exprs := []engine.Expr{
		mul(a, b),
		mul(a, sub(dec("1"), b)),
		mul(mul(a, sub(dec("1"), b)), add(dec("1"), c)),
		add(a, dec("0.001")),
		sub(dec("-7.5"), a),
		add(a, b),
		sub(mul(a, b), c),
		mul(a, dec("92233720368547758.07")),
		mul(mul(a, b), mul(b, c)),
	}
	// batch kinds: 0 ordinary, 1 with NULLs, 2 a row of scale 3, 3 a
	// value past 64 bits, 4 large values whose products overflow int64,
	// 5 a row whose products lie in [2^63, 2^64)
	batch := func(kind, n int) *engine.Batch {
		in := &engine.Batch{N: n}
		for k := 0; k < 3; k++ {
			v := engine.NewVec(num, n)
			for i := range v.D {
				x := rng.Int63n(2_000_001) - 1_000_000
				if kind == 4 {
					x = rng.Int63() - math.MaxInt64/2
				}
				v.D[i] = engine.DecFromScaled(x, 2)
			}
			switch kind {
			case 1:
				v.SetNull(rng.Intn(n))
			case 2:
				v.D[rng.Intn(n)] = engine.DecFromScaled(12345, 3)
			case 3:
				v.D[rng.Intn(n)] = engine.Dec{Hi: 1, Lo: 5, Scale: 2}
			case 5:
				v.D[0] = engine.DecFromScaled([]int64{4294967296, 2147483649, -3037000500}[k], 2)
			}
			in.Cols = append(in.Cols, v)
		}
		key := engine.NewVec(engine.Int32, n)
		for i := range key.I {
			key.I[i] = int64(rng.Intn(5))
		}
		in.Cols = append(in.Cols, key)
		return in
	}
	ctx := context.Background()
	fast := 0
	for ei, e := range exprs {
		for _, grouped := range []bool{false, true} {
			for _, fn := range []engine.AggFunc{engine.AggSum, engine.AggAvg} {
				p := &engine.Plan{Aggregate: true, Aggs: []engine.AggCall{{Func: fn, Arg: e, T: engine.Numeric}}}
				if grouped {
					p.GroupBy = []engine.Expr{ref(3, engine.Int32)}
				}
				want, got := newAggregator(p), newAggregator(p)
				if got.states[0].num == nil {
					t.Fatalf("%s: not compiled", e)
				}
				want.states[0].num = nil
				for bi, kind := range []int{0, 5, 1, 2, 3, 0, 5, 1, 2, 3, 4} { // 4 last: its sums may overflow
					in := batch(kind, 1+rng.Intn(300))
					errW := want.consume(ctx, in)
					errG := got.consume(ctx, in)
					if fmt.Sprint(errW) != fmt.Sprint(errG) {
						t.Fatalf("expr %d (%s) batch %d: error %v, eval's %v", ei, e, bi, errG, errW)
					}
					if errW != nil {
						break
					}
					if v, _ := got.states[0].num.eval(func(r *engine.ColRef) (*engine.Vec, error) { return in.Cols[r.Idx], nil }, nil, in.N); !v.failed {
						fast++
					}
				}
				ws, gs := want.states[0], got.states[0]
				if want.ng != got.ng || fmt.Sprint(ws.count) != fmt.Sprint(gs.count) || fmt.Sprint(ws.sumD) != fmt.Sprint(gs.sumD) {
					t.Fatalf("expr %d (%s) grouped %v: sums %v counts %v, eval's %v %v", ei, e, grouped, gs.sumD, gs.count, ws.sumD, ws.count)
				}
			}
		}
	}
	if fast == 0 {
		t.Fatal("no batch took the int64 path")
	}
	// not compiled: a bare column, an integer expression, a division
	for _, e := range []engine.Expr{a, call(engine.OpAdd, engine.Int32, i4(1), i4(2)), call(engine.OpDiv, nt, a, b)} {
		if compileNumExpr(e) != nil {
			t.Errorf("%s compiled", e)
		}
	}
}
