package eval

import (
	"context"
	"math"
	"math/rand"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// randDec returns a numeric of mixed sizes: small, near the int64 limits,
// and wider than int64, at a few scales, of either sign.
func randDec(rng *rand.Rand) engine.Dec {
	scale := int32(rng.Intn(4))
	switch rng.Intn(6) {
	case 0:
		return engine.DecFromScaled(int64(rng.Intn(2000)-1000), int(scale))
	case 1:
		return engine.DecFromScaled(math.MaxInt64-int64(rng.Intn(3)), int(scale))
	case 2:
		return engine.DecFromScaled(math.MinInt64+int64(rng.Intn(3)), int(scale))
	case 3:
		return engine.DecFromScaled(int64(rng.Uint64()>>uint(rng.Intn(64))), int(scale))
	case 4:
		d := engine.DecFromScaled(-int64(rng.Uint64()>>uint(1+rng.Intn(63))), int(scale))
		return d
	}
	// wider than int64
	return engine.Dec{Hi: int64(rng.Intn(5) - 2), Lo: rng.Uint64(), Scale: scale}
}

// TestDecOpMatchesEngine checks the int64 fast path of numeric +, - and *
// against engine.DecAdd, DecSub and DecMul: the same value and scale, and
// overflow exactly where they overflow.
func TestDecOpMatchesEngine(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	ops := []engine.Op{engine.OpAdd, engine.OpSub, engine.OpMul}
	for trial := 0; trial < 200000; trial++ {
		x, y := randDec(rng), randDec(rng)
		if trial%3 == 0 {
			y.Scale = x.Scale
		}
		for _, op := range ops {
			var want engine.Dec
			var wok bool
			switch op {
			case engine.OpAdd:
				want, wok = engine.DecAdd(x, y)
			case engine.OpSub:
				want, wok = engine.DecSub(x, y)
			default:
				want, wok = engine.DecMul(x, y)
			}
			got, gok := decOp(op, x, y)
			if gok != wok || wok && got != want {
				t.Fatalf("%v %v %v: got %v (%v), want %v (%v)", x, op, y, got, gok, want, wok)
			}
		}
	}
}

// TestDecArithConstMatchesBroadcast evaluates numeric arithmetic with a
// constant operand (not broadcast) and with the constant broadcast into a
// vector (arith's general loop), on random values with NULLs.
func TestDecArithConstMatchesBroadcast(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	for trial := 0; trial < 300; trial++ {
		n := rng.Intn(200)
		v := engine.NewVec(engine.Numeric, n)
		for i := range v.D {
			v.D[i] = randDec(rng)
			if trial%2 == 0 && rng.Intn(5) == 0 {
				v.SetNull(i)
				v.D[i] = engine.Dec{}
			}
		}
		c := &engine.Const{T: engine.Numeric, D: randDec(rng)}
		in := &engine.Batch{N: n, Cols: []*engine.Vec{v}}
		x := col(0, engine.Numeric)
		for _, op := range []engine.Op{engine.OpAdd, engine.OpSub, engine.OpMul} {
			for _, e := range []*engine.Call{call(op, engine.Numeric, x, c), call(op, engine.Numeric, c, x)} {
				got, gerr := Eval(context.Background(), e, in)
				bc := Broadcast(c, n)
				var want *engine.Vec
				var werr error
				if _, isConst := e.Args[0].(*engine.Const); isConst {
					want, werr = arith(op, engine.Numeric, bc, v, n)
				} else {
					want, werr = arith(op, engine.Numeric, v, bc, n)
				}
				if (gerr != nil) != (werr != nil) {
					t.Fatalf("%s: error %v, want %v", e, gerr, werr)
				}
				if werr != nil {
					if engine.Code(gerr) != engine.Code(werr) {
						t.Fatalf("%s: error %v, want %v", e, gerr, werr)
					}
					continue
				}
				for i := 0; i < n; i++ {
					if got.IsNull(i) != want.IsNull(i) || !want.IsNull(i) && got.D[i] != want.D[i] {
						t.Fatalf("%s row %d: got %v, want %v", e, i, got.D[i], want.D[i])
					}
				}
			}
		}
	}
}

// TestDecArithVectorsMatchArith compares numeric +, - and * of two
// vectors of mixed scales (the fast loop) with arith's general loop.
func TestDecArithVectorsMatchArith(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	for trial := 0; trial < 300; trial++ {
		n := rng.Intn(200)
		a, b := engine.NewVec(engine.Numeric, n), engine.NewVec(engine.Numeric, n)
		for i := 0; i < n; i++ {
			a.D[i], b.D[i] = randDec(rng), randDec(rng)
			if trial%2 == 0 && rng.Intn(5) == 0 {
				a.SetNull(i)
				a.D[i] = engine.Dec{}
			}
		}
		for _, op := range []engine.Op{engine.OpAdd, engine.OpSub, engine.OpMul} {
			got, gerr := decArith(op, engine.Numeric, a, b, nil, nil, n)
			want, werr := arith(op, engine.Numeric, a, b, n)
			if (gerr != nil) != (werr != nil) {
				t.Fatalf("op %v: error %v, want %v", op, gerr, werr)
			}
			if werr != nil {
				continue
			}
			for i := 0; i < n; i++ {
				if got.IsNull(i) != want.IsNull(i) || !want.IsNull(i) && got.D[i] != want.D[i] {
					t.Fatalf("op %v row %d: got %v, want %v", op, i, got.D[i], want.D[i])
				}
			}
		}
	}
}

// TestCastDateTimestampMatchesSlot compares Cast's date-to-timestamp loop
// with the per-row conversion it stands for, NULLs and extreme dates
// included.
func TestCastDateTimestampMatchesSlot(t *testing.T) {
	rng := rand.New(rand.NewSource(13))
	n := 1000
	v := engine.NewVec(engine.Date, n)
	for i := range v.I {
		switch rng.Intn(6) {
		case 0:
			v.SetNull(i)
		case 1:
			v.I[i] = int64(rng.Intn(2_000_000) - 1_000_000)
		default:
			v.I[i] = int64(rng.Intn(20000) - 10000)
		}
	}
	got, err := Cast(v, engine.Timestamp)
	if err != nil {
		t.Fatal(err)
	}
	want := engine.NewVec(engine.Timestamp, n)
	for i := 0; i < n; i++ {
		if v.IsNull(i) {
			want.SetNull(i)
			continue
		}
		if err := convertSlot(want, i, v, i, engine.UTCZone); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < n; i++ {
		if got.IsNull(i) != want.IsNull(i) || got.I[i] != want.I[i] {
			t.Fatalf("row %d (date %d): got %d (null %v), want %d (null %v)", i, v.I[i], got.I[i], got.IsNull(i), want.I[i], want.IsNull(i))
		}
	}
}
