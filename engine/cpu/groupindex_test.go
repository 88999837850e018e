package cpu

import (
	"math"
	"math/rand"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/eval"
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

// TestGroupIndexSmallMatchesHash assigns the same batches to an index
// that groups small keys within each batch first (assignSmall) and to one
// that only hashes: the group ids and the groups' key rows must be the
// same, for integer, numeric and short string keys alone and together,
// with NULLs, numerics of two scales (1.0 and 1.00 are one group),
// numerics past 64 bits, strings past 7 bytes, empty strings and NUL bytes, and
// batches too wide or too distinct for the table.
func TestGroupIndexSmallMatchesHash(t *testing.T) {
	rng := rand.New(rand.NewSource(12))
	strs := [][]byte{[]byte(""), []byte("A"), []byte("N"), []byte("R"), []byte("\x01\x00"), []byte("\x00"), []byte("\x01"),
		[]byte("ABCDEFG"), []byte("ABCDEFGH"), []byte("\xff\xff")}
	mk := func(t engine.Type, n, kind int) *engine.Vec {
		v := engine.NewVec(t, n)
		for i := 0; i < n; i++ {
			if kind&1 != 0 && rng.Intn(15) == 0 {
				v.SetNull(i)
				continue
			}
			switch engine.PhysOf(t.Kind) {
			case engine.PhysInt:
				v.I[i] = int64(rng.Intn(30) - 10)
				if kind&2 != 0 && rng.Intn(50) == 0 {
					v.I[i] = int64(rng.Uint64())
				}
			case engine.PhysDec:
				v.D[i] = engine.DecFromScaled(int64(rng.Intn(12)-3)*100, 2)
				if kind&2 != 0 && rng.Intn(40) == 0 {
					// the same mantissas at scale 3 (other values), or ten
					// times them (the same values)
					v.D[i] = engine.DecFromScaled(int64(rng.Intn(12)-3)*[]int64{100, 1000}[rng.Intn(2)], 3)
				}
				if kind&4 != 0 && rng.Intn(40) == 0 {
					v.D[i] = engine.Dec{Hi: 1, Lo: 7, Scale: 2}
				}
			case engine.PhysStr:
				s := strs[rng.Intn(7)]
				if kind&2 != 0 && rng.Intn(30) == 0 {
					s = strs[7+rng.Intn(3)]
				}
				v.S[i] = s
			}
		}
		return v
	}
	types := []engine.Type{engine.Int32, engine.Numeric, engine.Text}
	taken := 0
	for trial := 0; trial < 60; trial++ {
		nk := 1 + rng.Intn(3)
		var kt []engine.Type
		for k := 0; k < nk; k++ {
			kt = append(kt, types[rng.Intn(len(types))])
		}
		small, hashed := newGroupIndex(), newGroupIndex()
		var sg, hg []*engine.Vec
		for _, t := range kt {
			sg = append(sg, engine.NewVec(t, 0))
			hg = append(hg, engine.NewVec(t, 0))
		}
		for b := 0; b < 6; b++ {
			n := 200 + rng.Intn(800)
			kind := rng.Intn(8)
			var keys []*engine.Vec
			for _, t := range kt {
				keys = append(keys, mk(t, n, kind))
			}
			sids, hids := make([]int32, n), make([]int32, n)
			small.small.skip = 0
			small.assign(sg, keys, 0, n, sids, func(row int) int32 {
				for k := range sg {
					sg[k].AppendRow(keys[k], row)
				}
				return int32(sg[0].N - 1)
			})
			if small.small.penalty == 0 {
				taken++
			}
			hashed.assignHash(hg, keys, 0, n, hids, func(row int) int32 {
				for k := range hg {
					hg[k].AppendRow(keys[k], row)
				}
				return int32(hg[0].N - 1)
			})
			for i := range hids {
				if sids[i] != hids[i] {
					t.Fatalf("trial %d batch %d row %d: group %d, want %d", trial, b, i, sids[i], hids[i])
				}
			}
		}
		if sg[0].N != hg[0].N {
			t.Fatalf("trial %d: %d groups, want %d", trial, sg[0].N, hg[0].N)
		}
		for g := 0; g < sg[0].N; g++ {
			for k := range sg {
				if !eval.KeysEqual(sg[k:k+1], g, hg[k:k+1], g) {
					t.Fatalf("trial %d: group %d's key %d differs", trial, g, k)
				}
			}
		}
	}
	if taken == 0 {
		t.Fatal("no batch went through the small-key table")
	}
}

// TestGroupIndexIntSlotsMatchHash assigns the same batches of one integer
// key to an index keeping the keys in its slots and to one comparing the
// groups' rows: NULLs, runs of a key, the extreme integers and enough
// distinct keys to resize the table several times.
func TestGroupIndexIntSlotsMatchHash(t *testing.T) {
	rng := rand.New(rand.NewSource(21))
	for trial := 0; trial < 20; trial++ {
		inl, plain := newGroupIndex(), newGroupIndex()
		inl.intSlots()
		ig, pg := []*engine.Vec{engine.NewVec(engine.Int64, 0)}, []*engine.Vec{engine.NewVec(engine.Int64, 0)}
		spread := int64(1) << uint(rng.Intn(20))
		for b := 0; b < 8; b++ {
			n := 1 + rng.Intn(3000)
			v := engine.NewVec(engine.Int64, n)
			for i := range v.I {
				switch {
				case i > 0 && rng.Intn(4) == 0:
					v.I[i] = v.I[i-1]
					if v.IsNull(i - 1) {
						v.SetNull(i)
					}
				case trial%2 == 1 && rng.Intn(25) == 0:
					v.SetNull(i)
				case rng.Intn(30) == 0:
					v.I[i] = []int64{math.MinInt64, math.MaxInt64, 0, -1}[rng.Intn(4)]
				default:
					v.I[i] = rng.Int63n(spread) - spread/2
				}
			}
			keys := []*engine.Vec{v}
			iids, pids := make([]int32, n), make([]int32, n)
			lo := rng.Intn(n)
			inl.assign(ig, keys, lo, n-lo, iids, func(row int) int32 {
				ig[0].AppendRow(v, row)
				return int32(ig[0].N - 1)
			})
			plain.assign(pg, keys, lo, n-lo, pids, func(row int) int32 {
				pg[0].AppendRow(v, row)
				return int32(pg[0].N - 1)
			})
			for i := range iids {
				if iids[i] != pids[i] {
					t.Fatalf("trial %d batch %d row %d: group %d, want %d", trial, b, i, iids[i], pids[i])
				}
			}
		}
		if ig[0].N != pg[0].N {
			t.Fatalf("trial %d: %d groups, want %d", trial, ig[0].N, pg[0].N)
		}
	}
}
