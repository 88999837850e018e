package engine

import (
	"math"
	"math/big"
)

// FloatSum is the exact sum of float64 values, the state behind sum and
// avg over real and double precision on every backend. Adding in any
// order, and merging partial sums in any grouping, gives the same state,
// so the result, rounded once at the end, does not depend on how rows are
// split across workers or GPU threads.
//
// Every finite double is an integer multiple of 2^-1074 below 2^1024, so
// the sum is a (long) integer count of 2^-1074 units. It is kept as
// 32-bit limbs in int64 words: limb k weighs 2^(32k-1074) and holds any
// signed value between normalizations, so an addition is three plain
// integer additions without carries (a value's 53-bit mantissa, shifted
// to its limb boundary, spans at most three limbs). Carries are resolved
// before the words could overflow (after 2^30 additions). Only the limbs
// between the smallest and the largest value seen are stored. 68 limbs
// cover every double times a count up to 2^63; GlobalLimbs names that.
//
// NaN, +Infinity and -Infinity are flags beside the finite part, giving
// PostgreSQL's results: any NaN makes NaN, +Inf and -Inf together make
// NaN, otherwise an infinity wins. A sum of only -0 values is -0 (as
// PostgreSQL's sum, which starts from its first value); any other zero
// sum is +0.
//
// The CUDA backend accumulates the same limbs on the device
// (cuda/fsum.cu) and rounds them here (NewFloatSumLimbs).
type FloatSum struct {
	limbs      []int64 // limbs[i] weighs 2^(32*(lo+i)-1074)
	lo         int32
	adds       int32 // additions since the last normalization
	nan        bool
	posInf     bool
	negInf     bool
	nonNegZero bool // a value other than -0 was added
}

// FloatSumLimbs is the number of 32-bit limbs that hold any sum of up to
// 2^63 doubles: bit positions 0 (2^-1074) to 2161.
const FloatSumLimbs = 68

// floatSumNormEvery bounds the additions between normalizations: each
// adds less than 2^32 in magnitude to a word, so words stay below 2^62.
const floatSumNormEvery = 1 << 30

// FloatLimbPos splits finite, nonzero |x| into its integer mantissa m
// (below 2^53) and the bit position p of m's lowest bit counted from
// 2^-1074, so that |x| = m * 2^(p-1074). It is the same split the
// device kernel makes.
func FloatLimbPos(x float64) (m uint64, p int) {
	b := math.Float64bits(x)
	e := int(b>>52) & 0x7ff
	m = b & (1<<52 - 1)
	if e == 0 {
		return m, 0 // subnormal
	}
	return m | 1<<52, e - 1
}

// Add adds x to the sum.
func (s *FloatSum) Add(x float64) {
	b := math.Float64bits(x)
	if b&^(1<<63) == 0 { // ±0
		if b == 0 {
			s.nonNegZero = true
		}
		return
	}
	s.nonNegZero = true
	if b>>52&0x7ff == 0x7ff {
		switch {
		case x != x:
			s.nan = true
		case x > 0:
			s.posInf = true
		default:
			s.negInf = true
		}
		return
	}
	m, p := FloatLimbPos(x)
	k := int32(p >> 5)
	sh := uint(p & 31)
	c0 := int64(m << sh & 0xffffffff)
	c1 := int64(m << sh >> 32 & 0xffffffff)
	c2 := int64(m >> (32 - sh) >> 32) // bits 64.. of m<<sh (< 2^21)
	s.cover(k, k+3)
	i := k - s.lo
	if b>>63 != 0 {
		s.limbs[i] -= c0
		s.limbs[i+1] -= c1
		s.limbs[i+2] -= c2
	} else {
		s.limbs[i] += c0
		s.limbs[i+1] += c1
		s.limbs[i+2] += c2
	}
	s.adds++
	if s.adds >= floatSumNormEvery {
		s.normalize()
	}
}

// cover widens the stored limbs to include global limbs [a, b], the top
// one as room for carries.
func (s *FloatSum) cover(a, b int32) {
	b = min(b, FloatSumLimbs-1)
	if s.limbs == nil {
		s.lo = a
		s.limbs = make([]int64, b-a+1)
		return
	}
	hi := s.lo + int32(len(s.limbs)) - 1
	if a >= s.lo && b <= hi {
		return
	}
	nlo, nhi := min(a, s.lo), max(b, hi)
	n := make([]int64, nhi-nlo+1)
	copy(n[s.lo-nlo:], s.limbs)
	s.limbs, s.lo = n, nlo
}

// normalize resolves carries: every limb but the top one into [0, 2^32).
func (s *FloatSum) normalize() {
	normalizeLimbs(s.limbs)
	s.adds = 0
}

func normalizeLimbs(l []int64) {
	var carry int64
	for i := 0; i < len(l)-1; i++ {
		v := l[i] + carry
		l[i] = v & 0xffffffff
		carry = v >> 32
	}
	if len(l) > 0 {
		l[len(l)-1] += carry
	}
}

// Merge adds the values of o to s.
func (s *FloatSum) Merge(o *FloatSum) {
	s.nan = s.nan || o.nan
	s.posInf = s.posInf || o.posInf
	s.negInf = s.negInf || o.negInf
	s.nonNegZero = s.nonNegZero || o.nonNegZero
	if len(o.limbs) == 0 {
		return
	}
	if s.adds+o.adds+1 >= floatSumNormEvery {
		s.normalize()
		o = &FloatSum{limbs: append([]int64(nil), o.limbs...), lo: o.lo}
		o.normalize()
	}
	s.cover(o.lo, o.lo+int32(len(o.limbs))-1)
	off := o.lo - s.lo
	for i, v := range o.limbs {
		s.limbs[off+int32(i)] += v
	}
	s.adds += o.adds + 1
}

// NewFloatSumLimbs makes the sum whose finite part is the limbs from
// global limb lo up (any signed values; see FloatSum), with the special
// values seen and whether every value added was -0 (allNegZero, only
// meaningful for a sum of at least one value).
func NewFloatSumLimbs(lo int, limbs []int64, nan, posInf, negInf, allNegZero bool) FloatSum {
	s := FloatSum{lo: int32(lo), nan: nan, posInf: posInf, negInf: negInf, nonNegZero: !allNegZero}
	if len(limbs) > 0 {
		s.limbs = append([]int64(nil), limbs...)
		s.adds = floatSumNormEvery - 1 // unknown: normalize before adding more
	}
	return s
}

// special returns the sum's value when a NaN or infinity decides it.
func (s *FloatSum) special() (float64, bool) {
	switch {
	case s.nan || (s.posInf && s.negInf):
		return math.NaN(), true
	case s.posInf:
		return math.Inf(1), true
	case s.negInf:
		return math.Inf(-1), true
	}
	return 0, false
}

// exact returns the finite part as a big.Float, exactly, or nil when it
// is zero.
func (s *FloatSum) exact() *big.Float {
	l := append([]int64(nil), s.limbs...)
	normalizeLimbs(l)
	n := new(big.Int)
	w := new(big.Int)
	for i := len(l) - 1; i >= 0; i-- {
		n.Lsh(n, 32)
		n.Add(n, w.SetInt64(l[i]))
	}
	if n.Sign() == 0 {
		return nil
	}
	f := new(big.Float).SetInt(n) // precision: n's bit length, exact
	return f.SetMantExp(f, 32*int(s.lo)-1074)
}

// Float64 returns the sum correctly rounded to double precision (to
// nearest, ties to even). overflow reports a finite exact sum beyond the
// double range (the result is then ±Inf).
func (s *FloatSum) Float64() (v float64, overflow bool) {
	if v, ok := s.special(); ok {
		return v, false
	}
	f := s.exact()
	if f == nil {
		if s.nonNegZero {
			return 0, false
		}
		return math.Copysign(0, -1), false
	}
	v, _ = f.Float64()
	return v, math.IsInf(v, 0)
}

// Float32 returns the sum correctly rounded to single precision, once
// (not through a double), as Float64 does.
func (s *FloatSum) Float32() (v float32, overflow bool) {
	if v, ok := s.special(); ok {
		return float32(v), false
	}
	f := s.exact()
	if f == nil {
		if s.nonNegZero {
			return 0, false
		}
		return float32(math.Copysign(0, -1)), false
	}
	v, _ = f.Float32()
	return v, math.IsInf(float64(v), 0)
}

// SumResult is sum(x) over real (float32Result) or double precision: the
// exact sum rounded once to the result type. PostgreSQL adds in row order,
// rounding each step (float4pl, float8pl); the exact sum is what that gives
// whenever no step rounds, and it is the same however rows are split. A
// finite sum past the type's range is PostgreSQL's overflow error (which
// PostgreSQL raises when a running sum overflows, even if later rows would
// have brought it back).
func (s *FloatSum) SumResult(float32Result bool) (float64, error) {
	if float32Result {
		f, over := s.Float32()
		if over {
			return 0, errFloatSumOverflow
		}
		return float64(f), nil
	}
	f, over := s.Float64()
	if over {
		return 0, errFloatSumOverflow
	}
	return f, nil
}

// AvgResult is avg(x) over real or double precision, n > 0 values:
// PostgreSQL's float8_avg divides its double sum (started at +0, so a zero
// sum is +0) by the count.
func (s *FloatSum) AvgResult(n int64) (float64, error) {
	f, over := s.Float64()
	if over {
		return 0, errFloatSumOverflow
	}
	if f == 0 {
		f = 0 // +0
	}
	return f / float64(n), nil
}

var errFloatSumOverflow = Errorf(CodeNumericValueOutOfRange, "value out of range: overflow")

// Exact returns the sum for exact arithmetic: special is true when a NaN
// or an infinity decides it (then v is that value and f nil); otherwise f
// is the exact finite sum, nil when it is zero.
func (s *FloatSum) Exact() (f *big.Float, v float64, special bool) {
	if v, ok := s.special(); ok {
		return nil, v, true
	}
	return s.exact(), 0, false
}
