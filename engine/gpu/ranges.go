package gpu

import (
	"math/big"
)

// ival is a closed interval of integers that contains every non-NULL
// value a register can hold on any row of the table (numerics as scaled
// mantissas). The fused path proves with these that a program's integer
// and numeric arithmetic stays inside int64 and inside the range of each
// result type, so it can run on 64-bit registers with no error checks and
// still give the CPU backend's results (which raise errors only outside
// those ranges).
type ival struct{ lo, hi *big.Int }

var (
	minI64 = big.NewInt(-1 << 63)
	maxI64 = big.NewInt(1<<63 - 1)
)

func iv(lo, hi int64) ival { return ival{big.NewInt(lo), big.NewInt(hi)} }

func (a ival) fits(lo, hi *big.Int) bool { return a.lo.Cmp(lo) >= 0 && a.hi.Cmp(hi) <= 0 }

// fits64 keeps one value of headroom at the bottom: negating or taking the
// absolute value of any value in range stays in range.
func (a ival) fits64() bool { return a.fits(new(big.Int).Add(minI64, big.NewInt(1)), maxI64) }

func (a ival) add(b ival) ival {
	return ival{new(big.Int).Add(a.lo, b.lo), new(big.Int).Add(a.hi, b.hi)}
}

func (a ival) sub(b ival) ival {
	return ival{new(big.Int).Sub(a.lo, b.hi), new(big.Int).Sub(a.hi, b.lo)}
}

func (a ival) mul(b ival) ival {
	ps := []*big.Int{
		new(big.Int).Mul(a.lo, b.lo), new(big.Int).Mul(a.lo, b.hi),
		new(big.Int).Mul(a.hi, b.lo), new(big.Int).Mul(a.hi, b.hi),
	}
	lo, hi := ps[0], ps[0]
	for _, p := range ps[1:] {
		if p.Cmp(lo) < 0 {
			lo = p
		}
		if p.Cmp(hi) > 0 {
			hi = p
		}
	}
	return ival{lo, hi}
}

func (a ival) neg() ival { return ival{new(big.Int).Neg(a.hi), new(big.Int).Neg(a.lo)} }

func (a ival) abs() ival {
	if a.lo.Sign() >= 0 {
		return a
	}
	if a.hi.Sign() <= 0 {
		return a.neg()
	}
	m := new(big.Int).Neg(a.lo)
	if a.hi.Cmp(m) > 0 {
		m = a.hi
	}
	return ival{big.NewInt(0), m}
}

func (a ival) union(b ival) ival {
	lo, hi := a.lo, a.hi
	if b.lo.Cmp(lo) < 0 {
		lo = b.lo
	}
	if b.hi.Cmp(hi) > 0 {
		hi = b.hi
	}
	return ival{lo, hi}
}

func pow10(k int) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(k)), nil) }

// scale multiplies by 10^k.
func (a ival) scale(k int) ival { return a.mul(ival{pow10(k), pow10(k)}) }

// shrink divides by 10^k with any rounding, widened by one each side.
func (a ival) shrink(k int) ival {
	d := pow10(k)
	lo := new(big.Int).Quo(a.lo, d)
	hi := new(big.Int).Quo(a.hi, d)
	return ival{lo.Sub(lo, big.NewInt(1)), hi.Add(hi, big.NewInt(1))}
}

// classRange is the range of a result type by rangeClass (0 smallint,
// 1 integer, 2 bigint).
func classRange(c int64) (*big.Int, *big.Int) {
	switch c {
	case 0:
		return big.NewInt(-32768), big.NewInt(32767)
	case 1:
		return big.NewInt(-2147483648), big.NewInt(2147483647)
	}
	return minI64, maxI64
}

// bitsFor is the number of bits that hold the values 0..n.
func bitsFor(n *big.Int) int { return n.BitLen() }
