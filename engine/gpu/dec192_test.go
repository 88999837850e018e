package gpu

import (
	"math"
	"math/rand"
	"testing"
)

// dec192's fast path (a sum that fits in 128 bits) must give what the
// math/big path gives, at the edges of 64, 127 and 128 bits too.
func TestDec192(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	edges := []uint64{0, 1, math.MaxInt64, 1 << 63, math.MaxUint64, math.MaxUint64 - 1}
	var accs []qAcc
	for _, s0 := range edges {
		for _, s1 := range edges {
			for _, s2 := range edges {
				accs = append(accs, qAcc{S0: s0, S1: s1, S2: s2})
			}
		}
	}
	for i := 0; i < 20000; i++ {
		x := rng.Int63() - rng.Int63()
		// sign-extended sums of every size, and random 192-bit words
		accs = append(accs, qAcc{S0: uint64(x), S1: uint64(x >> 63), S2: uint64(x >> 63)},
			qAcc{S0: rng.Uint64(), S1: rng.Uint64(), S2: uint64(int64(rng.Uint64()) >> 63)},
			qAcc{S0: rng.Uint64(), S1: rng.Uint64(), S2: rng.Uint64()})
	}
	for _, a := range accs {
		want, wok := decOf(sum192(a), 3)
		got, gok := dec192(a, 3)
		if wok != gok || wok && want != got {
			t.Fatalf("%x %x %x: got %v %v, want %v %v", a.S2, a.S1, a.S0, got, gok, want, wok)
		}
	}
}
