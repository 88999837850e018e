package eval

import (
	"bytes"
	"hash/maphash"
	"math"

	"github.com/gpusql/gpusql/engine"
)

// Hashing and comparing key rows in place, for hash tables that keep
// their keys in typed vectors rather than as encoded bytes. Two rows are
// equal when AppendKey would encode them alike: NULL equals NULL, -0
// equals 0, NaN equals NaN, 1.50 equals 1.5, and '1 mon' equals
// '30 days'.

// KeySeed is the seed key hashes of one table use; strings hash through
// hash/maphash with it.
type KeySeed = maphash.Seed

// NewKeySeed returns a seed for one hash table.
func NewKeySeed() KeySeed { return maphash.MakeSeed() }

// nullHash is the contribution of a NULL key.
const nullHash = 0x9e3779b97f4a7c15

// Mix64 is a 64-bit finaliser (murmur3's): every input bit affects every
// output bit.
func Mix64(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}

// HashKeys sets dst[i] to the hash of key row lo+i of keys, for n rows,
// and returns dst.
func HashKeys(dst []uint64, seed KeySeed, keys []*engine.Vec, lo, n int) []uint64 {
	if cap(dst) < n {
		dst = make([]uint64, n)
	}
	dst = dst[:n]
	for i := range dst {
		dst[i] = 0
	}
	for k, v := range keys {
		salt := uint64(k+1) * 0x2545f4914f6cdd1d
		var nulls []bool
		if v.Null != nil {
			nulls = v.Null[lo : lo+n]
		}
		switch engine.PhysOf(v.T.Kind) {
		case engine.PhysInt:
			xs := v.I[lo : lo+n]
			if nulls == nil {
				for i, x := range xs {
					dst[i] = Mix64(dst[i] ^ salt ^ uint64(x))
				}
				break
			}
			for i, x := range xs {
				c := uint64(x)
				if nulls[i] {
					c = nullHash
				}
				dst[i] = Mix64(dst[i] ^ salt ^ c)
			}
		case engine.PhysFloat:
			for i, f := range v.F[lo : lo+n] {
				if f == 0 {
					f = 0
				}
				if f != f {
					f = math.NaN()
				}
				c := math.Float64bits(f)
				if nulls != nil && nulls[i] {
					c = nullHash
				}
				dst[i] = Mix64(dst[i] ^ salt ^ c)
			}
		case engine.PhysStr:
			for i, s := range v.S[lo : lo+n] {
				c := uint64(nullHash)
				if nulls == nil || !nulls[i] {
					c = maphash.Bytes(seed, s)
				}
				dst[i] = Mix64(dst[i] ^ salt ^ c)
			}
		case engine.PhysDec:
			for i, d := range v.D[lo : lo+n] {
				c := uint64(nullHash)
				if nulls == nil || !nulls[i] {
					if d.Scale > 0 && !(d.Hi == 0 && d.Lo%10 != 0) {
						d = normDec(d)
					}
					c = Mix64(uint64(d.Hi)^uint64(d.Scale)<<40) ^ d.Lo
				}
				dst[i] = Mix64(dst[i] ^ salt ^ c)
			}
		case engine.PhysInterval:
			for i, iv := range v.V[lo : lo+n] {
				c := uint64(nullHash)
				if nulls == nil || !nulls[i] {
					days, us := iv.Span()
					c = Mix64(uint64(days)) ^ uint64(us)
				}
				dst[i] = Mix64(dst[i] ^ salt ^ c)
			}
		}
	}
	return dst
}

// KeysEqual reports whether key row i of a equals key row j of b (the
// same number of keys, of the same physical classes).
func KeysEqual(a []*engine.Vec, i int, b []*engine.Vec, j int) bool {
	for k, x := range a {
		y := b[k]
		xn, yn := x.IsNull(i), y.IsNull(j)
		if xn || yn {
			if xn != yn {
				return false
			}
			continue
		}
		switch engine.PhysOf(x.T.Kind) {
		case engine.PhysInt:
			if x.I[i] != y.I[j] {
				return false
			}
		case engine.PhysFloat:
			f, g := x.F[i], y.F[j]
			if f != g && !(f != f && g != g) {
				return false
			}
		case engine.PhysStr:
			if !bytes.Equal(x.S[i], y.S[j]) {
				return false
			}
		case engine.PhysDec:
			if engine.DecCmp(x.D[i], y.D[j]) != 0 {
				return false
			}
		case engine.PhysInterval:
			d1, u1 := x.V[i].Span()
			d2, u2 := y.V[j].Span()
			if d1 != d2 || u1 != u2 {
				return false
			}
		}
	}
	return true
}
