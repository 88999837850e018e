package eval

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// TestKeysEqualMatchesAppendKey checks, on rows drawn from small domains
// so that many are equal, that KeysEqual agrees with comparing AppendKey's
// bytes, and that equal rows hash alike.
func TestKeysEqualMatchesAppendKey(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const n = 3000
	ints := engine.NewVec(engine.Type{Kind: engine.KindInt64}, n)
	floats := engine.NewVec(engine.Type{Kind: engine.KindFloat64}, n)
	strs := engine.NewVec(engine.Type{Kind: engine.KindText}, n)
	decs := engine.NewVec(engine.Type{Kind: engine.KindNumeric}, n)
	ivs := engine.NewVec(engine.Type{Kind: engine.KindInterval}, n)
	fvals := []float64{0, math.Copysign(0, -1), math.NaN(), -math.NaN(), 1.5, math.Inf(1)}
	svals := [][]byte{nil, []byte(""), []byte("a"), []byte("ab"), []byte("a\x00")}
	dvals := []engine.Dec{engine.DecFromScaled(150, 2), engine.DecFromScaled(15, 1), engine.DecFromScaled(-150, 2),
		engine.DecFromScaled(-15, 1), engine.DecFromInt(0), engine.DecFromScaled(0, 3), engine.DecFromScaled(1, 2)}
	vvals := []engine.IntervalVal{{Months: 1}, {Days: 30}, {Days: 1}, {Micros: 86_400_000_000}, {}}
	for _, v := range []*engine.Vec{ints, floats, strs, decs, ivs} {
		v.Null = make([]bool, n)
	}
	for i := 0; i < n; i++ {
		ints.I[i] = int64(r.IntN(3)) - 1
		floats.F[i] = fvals[r.IntN(len(fvals))]
		strs.S[i] = svals[r.IntN(len(svals))]
		decs.D[i] = dvals[r.IntN(len(dvals))]
		ivs.V[i] = vvals[r.IntN(len(vvals))]
		for _, v := range []*engine.Vec{ints, floats, strs, decs, ivs} {
			v.Null[i] = r.IntN(6) == 0
		}
	}
	seed := NewKeySeed()
	for _, keys := range [][]*engine.Vec{{ints}, {floats}, {strs}, {decs}, {ivs}, {ints, strs, decs}, {floats, ivs, ints}} {
		h := HashKeys(nil, seed, keys, 0, n)
		h2 := HashKeys(nil, seed, keys, 100, 50)
		for i := range h2 {
			if h2[i] != h[100+i] {
				t.Fatalf("hash of row %d depends on the range hashed", 100+i)
			}
		}
		eqs := 0
		for trial := 0; trial < 20000; trial++ {
			i, j := r.IntN(n), r.IntN(n)
			var a, b []byte
			for _, k := range keys {
				a = AppendKey(a, k, i)
				b = AppendKey(b, k, j)
			}
			want := bytes.Equal(a, b)
			if got := KeysEqual(keys, i, keys, j); got != want {
				t.Fatalf("keys %d: rows %d and %d: KeysEqual %v, AppendKey bytes equal %v", len(keys), i, j, got, want)
			}
			if want {
				eqs++
				if h[i] != h[j] {
					t.Fatalf("keys %d: equal rows %d and %d hash differently", len(keys), i, j)
				}
			}
		}
		if eqs == 0 {
			t.Fatalf("keys %d: no equal pair drawn", len(keys))
		}
	}
}
