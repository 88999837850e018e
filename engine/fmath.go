package engine

import "math"

// The transcendental functions over double precision, computed alike by
// both backends: the GPU backend runs the same algorithms as C (the
// fmath section of cuda/query.cu). Every product and sum rounds on its
// own (the explicit float64 conversions forbid fused multiply-adds), so
// results do not depend on the machine.
//
// exp, ln and pow are correctly rounded: they are computed in
// double-double arithmetic (about 104 bits) and rounded once, as the C
// library PostgreSQL calls (glibc 2.28 or later) rounds them. log10 is
// glibc's formula over that ln, cbrt glibc's __cbrt, so that the answers
// are PostgreSQL's on glibc.

// dd is a double-double: the unevaluated sum hi + lo, |lo| ≤ ulp(hi)/2.
type dd struct{ hi, lo float64 }

func twoSum(a, b float64) dd {
	s := a + b
	bb := s - a
	return dd{s, (a - (s - bb)) + (b - bb)}
}

func quickTwoSum(a, b float64) dd {
	s := a + b
	return dd{s, b - (s - a)}
}

// split is Veltkamp's splitting of a into two 26-bit halves.
func split(a float64) (float64, float64) {
	t := float64(134217729 * a)
	hi := t - (t - a)
	return hi, a - hi
}

func twoProd(a, b float64) dd {
	p := float64(a * b)
	ah, al := split(a)
	bh, bl := split(b)
	e := ((float64(ah*bh) - p) + float64(ah*bl) + float64(al*bh)) + float64(al*bl)
	return dd{p, e}
}

func ddAdd(a, b dd) dd {
	s := twoSum(a.hi, b.hi)
	t := twoSum(a.lo, b.lo)
	s.lo += t.hi
	s = quickTwoSum(s.hi, s.lo)
	s.lo += t.lo
	return quickTwoSum(s.hi, s.lo)
}

func ddMul(a, b dd) dd {
	p := twoProd(a.hi, b.hi)
	p.lo += float64(a.hi*b.lo) + float64(a.lo*b.hi)
	return quickTwoSum(p.hi, p.lo)
}

func ddMulF(a dd, b float64) dd {
	p := twoProd(a.hi, b)
	p.lo += float64(a.lo * b)
	return quickTwoSum(p.hi, p.lo)
}

func ddDiv(a, b dd) dd {
	q1 := a.hi / b.hi
	r := ddAdd(a, ddMulF(b, -q1))
	q2 := r.hi / b.hi
	r = ddAdd(r, ddMulF(b, -q2))
	q3 := r.hi / b.hi
	q := quickTwoSum(q1, q2)
	return ddAdd(q, dd{q3, 0})
}

// ln2, and 1/n! for the Taylor series of e^x (n! is exact in a double
// here; the C twin holds the same values as constants).
var (
	ddLn2  = dd{6.93147180559945286227e-01, 2.31904681384629955842e-17}
	ddInvF = func() [14]dd {
		var t [14]dd
		f := 1.0
		for n := range t {
			if n > 0 {
				f *= float64(n)
			}
			t[n] = ddDiv(dd{1, 0}, dd{f, 0})
		}
		return t
	}()
)

// expDD is e^x for a double-double x of magnitude below 710, as a
// double-double, and the power of two to scale it by.
func expDD(x dd) (dd, int) {
	k := math.Floor(float64(x.hi*1.44269504088896338700) + 0.5)
	// r = x - k·ln2, exactly enough: k has at most 11 bits
	r := ddAdd(x, ddMulF(ddLn2, -k))
	// e^r = (e^(r/256))^256
	r.hi = math.Ldexp(r.hi, -8)
	r.lo = math.Ldexp(r.lo, -8)
	s := dd{0, 0}
	p := dd{1, 0}
	for i := 1; i < len(ddInvF); i++ {
		p = ddMul(p, r)
		s = ddAdd(s, ddMul(p, ddInvF[i]))
	}
	// s = e^(r/256) - 1; (1+s)^2 - 1 = 2s + s², keeping the small part
	for i := 0; i < 8; i++ {
		s = ddAdd(ddMulF(s, 2), ddMul(s, s))
	}
	return ddAdd(s, dd{1, 0}), int(k)
}

// lnDD is ln(x) for a finite x > 0, as a double-double.
func lnDD(x float64) dd {
	m, e := math.Frexp(x) // x = m·2^e, m in [0.5, 1)
	if m < math.Sqrt2/2 {
		m *= 2
		e--
	}
	// ln m = 2 atanh(z), z = (m-1)/(m+1); m-1 is exact
	z := ddDiv(dd{m - 1, 0}, twoSum(m, 1))
	z2 := ddMul(z, z)
	sum := z
	pow := z
	for k := 3; k < 80; k += 2 {
		pow = ddMul(pow, z2)
		t := ddDiv(pow, dd{float64(k), 0})
		sum = ddAdd(sum, t)
		if math.Abs(t.hi) < math.Abs(sum.hi)*1e-34 {
			break
		}
	}
	r := ddMulF(sum, 2)
	if e != 0 {
		r = ddAdd(ddMulF(ddLn2, float64(e)), r)
	}
	return r
}

// ddScale rounds h·2^k to a double.
func ddScale(h dd, k int) float64 {
	v := h.hi + h.lo
	if k > 1000 || k < -1000 {
		// two steps keep the intermediate finite; the first is exact
		v = math.Ldexp(v, k/2)
		return math.Ldexp(v, k-k/2)
	}
	return math.Ldexp(v, k)
}

// FExp is e^x, correctly rounded.
func FExp(x float64) float64 {
	switch {
	case math.IsNaN(x):
		return x
	case x > 709.8:
		return math.Inf(1)
	case x < -745.2:
		return 0
	}
	h, k := expDD(dd{x, 0})
	return ddScale(h, k)
}

// FLn is the natural logarithm, correctly rounded (NaN below zero, -Inf
// at zero).
func FLn(x float64) float64 {
	switch {
	case math.IsNaN(x) || math.IsInf(x, 1):
		return x
	case x < 0:
		return math.NaN()
	case x == 0:
		return math.Inf(-1)
	}
	r := lnDD(x)
	return r.hi + r.lo
}

// FLog10 is glibc's __ieee754_log10 (fdlibm's formula over ln): exact at
// powers of ten.
func FLog10(x float64) float64 {
	const (
		two54    = 1.80143985094819840000e+16
		ivln10   = 4.34294481903251816668e-01
		log102hi = 3.01029995663611771306e-01
		log102lo = 3.69423907715893078616e-13
	)
	bits := math.Float64bits(x)
	hx := int32(bits >> 32)
	lx := uint32(bits)
	k := int32(0)
	if hx < 0x00100000 { // x < 2^-1022
		if (hx&0x7fffffff)|int32(lx) == 0 {
			return math.Inf(-1)
		}
		if hx < 0 {
			return math.NaN()
		}
		k -= 54
		x = float64(x * two54)
		bits = math.Float64bits(x)
		hx = int32(bits >> 32)
	}
	if hx >= 0x7ff00000 {
		return x + x
	}
	k += (hx >> 20) - 1023
	i := int32(uint32(k) & 0x80000000 >> 31)
	hx = (hx & 0x000fffff) | ((0x3ff - i) << 20)
	y := float64(k + i)
	x = math.Float64frombits(uint64(uint32(hx))<<32 | bits&0xffffffff)
	z := float64(y*log102lo) + float64(ivln10*FLn(x))
	return z + float64(y*log102hi)
}

// cbrtFactor is 2^(n/3), n = -2..2, each a quotient rounded as C rounds
// it.
var cbrtFactor = func() [5]float64 {
	cbrt2, sqrCbrt2 := 1.2599210498948731648, 1.5874010519681994748
	return [5]float64{1.0 / sqrCbrt2, 1.0 / cbrt2, 1.0, cbrt2, sqrCbrt2}
}()

// FCbrt is glibc's __cbrt.
func FCbrt(x float64) float64 {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return x + x
	}
	xm, xe := math.Frexp(math.Abs(x))
	u := 0.354895765043919860 + float64((1.50819193781584896+
		float64((-2.11499494167371287+
			float64((2.44693122563534430+
				float64((-1.83469277483613086+
					float64((0.784932344976639262-float64(0.145263899385486377*xm))*xm))*xm))*xm))*xm))*xm)
	t2 := float64(float64(u*u) * u)
	ym := float64(float64(u*(t2+float64(2.0*xm)))/(float64(2.0*t2)+xm)) * cbrtFactor[2+xe%3]
	if x <= 0 {
		ym = -ym
	}
	return math.Ldexp(ym, xe/3)
}

// FPow is x^y as C99's pow, correctly rounded; the caller checks
// PostgreSQL's errors (a negative x with a non-integer y, zero to a
// negative power) first.
func FPow(x, y float64) float64 {
	switch {
	case y == 0 || x == 1:
		return 1
	case math.IsNaN(x) || math.IsNaN(y):
		return math.NaN()
	case math.IsInf(y, 0):
		ax := math.Abs(x)
		switch {
		case ax == 1:
			return 1
		case (ax > 1) == (y > 0):
			return math.Inf(1)
		}
		return 0
	}
	yOdd := isOddInt(y)
	if math.IsInf(x, 0) || x == 0 {
		big := math.IsInf(x, 0) == (y > 0) // the result is infinite
		neg := math.Signbit(x) && yOdd
		r := 0.0
		if big {
			r = math.Inf(1)
		}
		if neg {
			r = -r
		}
		return r
	}
	neg := false
	if x < 0 {
		if math.Floor(y) != y {
			return math.NaN()
		}
		neg = yOdd
		x = -x
	}
	l := ddMulF(lnDD(x), y)
	var r float64
	switch {
	case l.hi > 709.8:
		r = math.Inf(1)
	case l.hi < -745.2:
		r = 0
	default:
		h, k := expDD(l)
		r = ddScale(h, k)
	}
	if neg {
		r = -r
	}
	return r
}

func isOddInt(x float64) bool {
	if math.Abs(x) >= 1<<53 {
		return false
	}
	xi, xf := math.Modf(x)
	return xf == 0 && int64(xi)&1 == 1
}
