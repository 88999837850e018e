package cpu

import (
	"math/rand"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// TestGroupIndexDirectMatchesHash assigns the same batches of integer
// keys (NULLs, keys inside and outside the direct range, runs of equal
// keys) to a hashed index and to one indexing a range by value: the group
// ids, given in order of first appearance, must be the same.
func TestGroupIndexDirectMatchesHash(t *testing.T) {
	rng := rand.New(rand.NewSource(9))
	for trial := 0; trial < 50; trial++ {
		hashed, direct := newGroupIndex(), newGroupIndex()
		lo := int64(rng.Intn(100) - 50)
		if !direct.setDirect(lo, lo+int64(rng.Intn(200)), 1000) {
			t.Fatal("setDirect refused a small range")
		}
		var hk, dk []*engine.Vec
		hk = append(hk, engine.NewVec(engine.Int64, 0))
		dk = append(dk, engine.NewVec(engine.Int64, 0))
		for b := 0; b < 5; b++ {
			n := rng.Intn(500)
			v := engine.NewVec(engine.Int64, n)
			for i := range v.I {
				switch {
				case i > 0 && rng.Intn(3) == 0:
					v.I[i] = v.I[i-1]
					if v.IsNull(i - 1) {
						v.SetNull(i)
					}
				case rng.Intn(20) == 0:
					v.SetNull(i)
				case rng.Intn(5) == 0:
					v.I[i] = int64(rng.Uint64()) // far outside
				default:
					v.I[i] = lo + int64(rng.Intn(400)-100)
				}
			}
			keys := []*engine.Vec{v}
			hids, dids := make([]int32, n), make([]int32, n)
			hashed.assign(hk, keys, 0, n, hids, func(row int) int32 {
				hk[0].AppendRow(v, row)
				return int32(hk[0].N - 1)
			})
			direct.assign(dk, keys, 0, n, dids, func(row int) int32 {
				dk[0].AppendRow(v, row)
				return int32(dk[0].N - 1)
			})
			for i := range hids {
				if hids[i] != dids[i] {
					t.Fatalf("trial %d batch %d row %d (key %d, null %v): group %d, want %d", trial, b, i, v.I[i], v.IsNull(i), dids[i], hids[i])
				}
			}
		}
		if hk[0].N != dk[0].N {
			t.Fatalf("trial %d: %d groups, want %d", trial, dk[0].N, hk[0].N)
		}
	}
}
