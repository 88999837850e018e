package engine

import (
	"math"
	"math/big"
)

// The math functions over numerics, with PostgreSQL's result scales
// (numeric.c: numeric_sqrt, numeric_exp, numeric_ln, log_var, power_var,
// power_var_int). Values are computed in binary floating point of far
// more precision than the result needs and rounded once, half away from
// zero, to the chosen scale; PostgreSQL computes them in decimal with
// guard digits and agrees except on values within a hair of a rounding
// tie.

const (
	numMinSigDigits   = 16
	numMaxDisplay     = 1000
	numMaxResultScale = 2000
)

// ErrNumericOverflow is "value overflows numeric format".
func numOverflow() *Error {
	return Errorf(CodeNumericValueOutOfRange, "value overflows numeric format")
}

// nbase returns d's absolute value as PostgreSQL's base-10000 digits: the
// weight of the first and the digits without leading or trailing zero
// groups (none for zero).
func nbase(d Dec) (weight int, digits []int) {
	if d.Sign() == 0 {
		return 0, nil
	}
	m := new(big.Int).Abs(d.Big())
	ten := func(n int) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil) }
	s := int(d.Scale)
	if s < 0 {
		m.Mul(m, ten(-s))
		s = 0
	}
	frac := (s + 3) / 4 // whole base-10000 groups after the point
	m.Mul(m, ten(4*frac-s))
	var groups []int // least significant first
	t := big.NewInt(10000)
	r := new(big.Int)
	for m.Sign() > 0 {
		m.QuoRem(m, t, r)
		groups = append(groups, int(r.Int64()))
	}
	// the most significant group has index len-1: weight len-1-frac
	weight = len(groups) - 1 - frac
	for i := len(groups) - 1; i >= 0; i-- {
		digits = append(digits, groups[i])
	}
	for len(digits) > 0 && digits[len(digits)-1] == 0 {
		digits = digits[:len(digits)-1]
	}
	return weight, digits
}

// bigFloat converts d to a big.Float of precision prec.
func (d Dec) bigFloat(prec uint) *big.Float {
	f := new(big.Float).SetPrec(prec).SetInt(d.Big())
	if d.Scale != 0 {
		p := new(big.Float).SetPrec(prec).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs32(d.Scale))), nil))
		if d.Scale > 0 {
			f.Quo(f, p)
		} else {
			f.Mul(f, p)
		}
	}
	return f
}

func abs32(x int32) int32 {
	if x < 0 {
		return -x
	}
	return x
}

// decRound rounds f to scale digits, half away from zero.
func decRound(f *big.Float, scale int) (Dec, bool) {
	prec := f.Prec()
	p := new(big.Float).SetPrec(prec + 64).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil))
	x := new(big.Float).SetPrec(prec+64).Mul(f, p)
	neg := x.Sign() < 0
	x.Abs(x)
	x.Add(x, new(big.Float).SetFloat64(0.5))
	i, _ := x.Int(nil) // truncates toward zero: floor of |x| + 0.5
	if neg {
		i.Neg(i)
	}
	return decFromBig(i, int32(scale))
}

// precFor is the binary precision for a result of about digits
// significant decimal digits, with guard bits.
func precFor(digits int) uint {
	if digits < 20 {
		digits = 20
	}
	return uint(float64(digits)*3.33) + 96
}

// cmpConst compares d with a small decimal constant num/10^scale.
func cmpConst(d Dec, num int64, scale int32) int {
	return DecCmp(d, Dec{Hi: num >> 63, Lo: uint64(num), Scale: scale})
}

// estimateLnDweight is PostgreSQL's estimate_ln_dweight.
func estimateLnDweight(d Dec) int {
	if d.Sign() <= 0 {
		return 0
	}
	if cmpConst(d, 9, 1) >= 0 && cmpConst(d, 11, 1) <= 0 {
		x, _ := DecSub(d, DecFromInt(1))
		if x.Sign() == 0 {
			return 0
		}
		w, dg := nbase(x)
		return w*4 + int(math.Log10(float64(dg[0])))
	}
	w, dg := nbase(d)
	digits := dg[0]
	dweight := w * 4
	if len(dg) > 1 {
		digits = digits*10000 + dg[1]
		dweight -= 4
	}
	lnVar := math.Log(float64(digits)) + float64(dweight)*2.302585092994046
	return int(math.Log10(math.Abs(lnVar)))
}

func clampScale(r int, scales ...int32) int {
	for _, s := range scales {
		r = max(r, int(s))
	}
	return min(max(r, 0), numMaxDisplay)
}

// DecSqrt is numeric_sqrt.
func DecSqrt(d Dec) (Dec, error) {
	if d.Sign() < 0 {
		return Dec{}, Errorf(CodeInvalidArgumentForPower, "cannot take square root of a negative number")
	}
	w, _ := nbase(d)
	sweight := (w+1)*4/2 - 1
	rscale := clampScale(numMinSigDigits-sweight, d.Scale)
	// floor(sqrt(m * 10^(2r+2-s))) has one digit more than wanted
	m := new(big.Int).Abs(d.Big())
	e := 2*rscale + 2 - int(d.Scale)
	if e >= 0 {
		m.Mul(m, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(e)), nil))
	} else {
		m.Quo(m, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-e)), nil))
	}
	r := new(big.Int).Sqrt(m)
	q, last := new(big.Int).QuoRem(r, big.NewInt(10), new(big.Int))
	if last.Int64() >= 5 {
		q.Add(q, big.NewInt(1))
	}
	out, ok := decFromBig(q, int32(rscale))
	if !ok {
		return Dec{}, numOverflow()
	}
	return out, nil
}

// expBig is e^x at precision prec.
func expBig(x *big.Float, prec uint) *big.Float {
	wp := prec + 64
	ln2 := ln2Big(wp)
	xf, _ := x.Float64()
	n := math.Floor(xf / math.Ln2)
	r := new(big.Float).SetPrec(wp).Mul(ln2, big.NewFloat(n).SetPrec(wp))
	r.Sub(new(big.Float).SetPrec(wp).Set(x), r)
	// e^r with |r| < 1: halve 16 times, Taylor, square back
	const k = 16
	r.SetMantExp(r, -k)
	sum := new(big.Float).SetPrec(wp).SetInt64(1)
	term := new(big.Float).SetPrec(wp).SetInt64(1)
	eps := new(big.Float).SetPrec(wp).SetMantExp(big.NewFloat(1), -int(wp))
	for i := 1; i < 1000; i++ {
		term.Mul(term, r)
		term.Quo(term, new(big.Float).SetPrec(wp).SetInt64(int64(i)))
		sum.Add(sum, term)
		if new(big.Float).Abs(term).Cmp(eps) < 0 {
			break
		}
	}
	for i := 0; i < k; i++ {
		sum.Mul(sum, sum)
	}
	return sum.SetMantExp(sum, int(n))
}

// atanhSeries is 2·atanh(z) = ln((1+z)/(1-z)) for small |z|.
func atanhSeries(z *big.Float, wp uint) *big.Float {
	z2 := new(big.Float).SetPrec(wp).Mul(z, z)
	sum := new(big.Float).SetPrec(wp).Set(z)
	pow := new(big.Float).SetPrec(wp).Set(z)
	eps := new(big.Float).SetPrec(wp).SetMantExp(big.NewFloat(1), -int(wp))
	for k := int64(3); k < 100000; k += 2 {
		pow.Mul(pow, z2)
		t := new(big.Float).SetPrec(wp).Quo(pow, new(big.Float).SetPrec(wp).SetInt64(k))
		sum.Add(sum, t)
		if new(big.Float).Abs(t).Cmp(eps) < 0 {
			break
		}
	}
	return sum.Mul(sum, big.NewFloat(2))
}

func ln2Big(wp uint) *big.Float {
	third := new(big.Float).SetPrec(wp).Quo(big.NewFloat(1).SetPrec(wp), big.NewFloat(3).SetPrec(wp))
	return atanhSeries(third, wp)
}

// lnBig is ln(x) for x > 0 at precision prec.
func lnBig(x *big.Float, prec uint) *big.Float {
	wp := prec + 64
	m := new(big.Float).SetPrec(wp)
	e := x.MantExp(m) // x = m · 2^e, m in [0.5, 1)
	// ln m = 2 atanh((m-1)/(m+1))
	num := new(big.Float).SetPrec(wp).Sub(m, big.NewFloat(1))
	den := new(big.Float).SetPrec(wp).Add(m, big.NewFloat(1))
	z := new(big.Float).SetPrec(wp).Quo(num, den)
	r := atanhSeries(z, wp)
	if e != 0 {
		t := new(big.Float).SetPrec(wp).Mul(ln2Big(wp), new(big.Float).SetPrec(wp).SetInt64(int64(e)))
		r.Add(r, t)
	}
	return r
}

// resultDigits is the number of significant digits a result of decimal
// weight about w needs at scale rscale.
func resultDigits(w float64, rscale int) int {
	return int(math.Max(w, 0)) + rscale + 10
}

// DecExp is numeric_exp.
func DecExp(d Dec) (Dec, error) {
	val := d.Float64() * 0.434294481903252
	val = math.Max(val, -numMaxResultScale)
	val = math.Min(val, numMaxResultScale)
	rscale := clampScale(numMinSigDigits-int(val), d.Scale)
	if val > 40 {
		return Dec{}, numOverflow()
	}
	prec := precFor(resultDigits(val, rscale))
	r, ok := decRound(expBig(d.bigFloat(prec), prec), rscale)
	if !ok {
		return Dec{}, numOverflow()
	}
	return r, nil
}

func logArg(d Dec) error {
	switch d.Sign() {
	case 0:
		return Errorf(CodeInvalidArgumentForLog, "cannot take logarithm of zero")
	case -1:
		return Errorf(CodeInvalidArgumentForLog, "cannot take logarithm of a negative number")
	}
	return nil
}

// DecLn is numeric_ln.
func DecLn(d Dec) (Dec, error) {
	if err := logArg(d); err != nil {
		return Dec{}, err
	}
	dw := estimateLnDweight(d)
	rscale := clampScale(numMinSigDigits-dw, d.Scale)
	prec := precFor(resultDigits(float64(dw), rscale) + 40)
	r, ok := decRound(lnBig(d.bigFloat(prec), prec), rscale)
	if !ok {
		return Dec{}, numOverflow()
	}
	return r, nil
}

// DecLog is log(base, num), log_var.
func DecLog(base, num Dec) (Dec, error) {
	if err := logArg(base); err != nil {
		return Dec{}, err
	}
	if err := logArg(num); err != nil {
		return Dec{}, err
	}
	if cmpConst(base, 1, 0) == 0 {
		return Dec{}, Errorf(CodeDivisionByZero, "division by zero")
	}
	rdw := estimateLnDweight(num) - estimateLnDweight(base)
	rscale := clampScale(numMinSigDigits-rdw, base.Scale, num.Scale)
	prec := precFor(resultDigits(float64(rdw), rscale) + 40)
	lb := lnBig(base.bigFloat(prec), prec)
	ln := lnBig(num.bigFloat(prec), prec)
	r, ok := decRound(new(big.Float).SetPrec(prec+64).Quo(ln, lb), rscale)
	if !ok {
		return Dec{}, numOverflow()
	}
	return r, nil
}

// DecPower is power(base, exp) over numerics (power_var, power_var_int).
func DecPower(base, exp Dec) (Dec, error) {
	// an integer exponent that fits in int32
	if base.Sign() == 0 && exp.Sign() < 0 {
		return Dec{}, Errorf(CodeInvalidArgumentForPower, "zero raised to a negative power is undefined")
	}
	if exp.isInteger() {
		if e, ok := exp.RoundInt(); ok && e >= math.MinInt32 && e <= math.MaxInt32 {
			return decPowerInt(base, int(e))
		}
	}
	if base.Sign() == 0 {
		return Dec{Scale: numMinSigDigits}, nil
	}
	neg := false
	if base.Sign() < 0 {
		if !exp.isInteger() {
			return Dec{}, Errorf(CodeInvalidArgumentForPower, "a negative number raised to a non-integer power yields a complex result")
		}
		// an integer exponent beyond int32: odd or even
		q := new(big.Int).Quo(exp.Big(), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(max(exp.Scale, 0))), nil))
		neg = q.Bit(0) == 1
		base, _ = base.Neg()
	}
	prec := uint(256)
	lnb := lnBig(base.bigFloat(prec), prec)
	v := new(big.Float).SetPrec(prec).Mul(lnb, exp.bigFloat(prec))
	val, _ := v.Float64()
	if math.Abs(val) > numMaxResultScale*3.01 {
		if val > 0 {
			return Dec{}, numOverflow()
		}
		return Dec{Scale: numMaxDisplay}, nil
	}
	val *= 0.434294481903252
	rscale := clampScale(numMinSigDigits-int(val), base.Scale, exp.Scale)
	if val > 40 {
		return Dec{}, numOverflow()
	}
	prec = precFor(resultDigits(val, rscale) + 20)
	lnb = lnBig(base.bigFloat(prec), prec)
	v = new(big.Float).SetPrec(prec+64).Mul(lnb, exp.bigFloat(prec))
	r, ok := decRound(expBig(v, prec), rscale)
	if !ok {
		return Dec{}, numOverflow()
	}
	if neg {
		r, _ = r.Neg()
	}
	return r, nil
}

// isInteger reports whether d has no fractional part.
func (d Dec) isInteger() bool {
	if d.Scale <= 0 {
		return true
	}
	r := new(big.Int).Rem(d.Big(), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(d.Scale)), nil))
	return r.Sign() == 0
}

// decPowerInt is power_var_int with PostgreSQL 15's choice of scale for
// an integer exponent: at least 16 digits after the point, or the
// base's scale; the result is base^exp rounded once to it.
func decPowerInt(base Dec, exp int) (Dec, error) {
	var f float64
	w, dg := nbase(base)
	if len(dg) > 0 {
		f = float64(dg[0])
		p := w * 4
		for i := 1; i < len(dg) && i*4 < 16; i++ {
			f = f*10000 + float64(dg[i])
			p -= 4
		}
		f = float64(exp) * (math.Log10(f) + float64(p))
	}
	if f > (math.MaxInt16+1)*4 {
		return Dec{}, numOverflow()
	}
	rscale := clampScale(numMinSigDigits, base.Scale)
	if exp == 0 {
		one, _ := DecFromInt(1).Rescale(int32(rscale))
		return one, nil
	}
	if base.Sign() == 0 || f < -float64(rscale+2) {
		return Dec{Scale: int32(rscale)}, nil // zero, or below half a unit of the last place
	}
	if f > 40 {
		return Dec{}, numOverflow()
	}
	// exact: base^|exp| as a fraction, then divided or rounded once
	num := new(big.Int).Exp(base.Big(), big.NewInt(int64(absInt(exp))), nil)
	den := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(base.Scale)*int64(absInt(exp))), nil)
	if exp < 0 {
		num, den = den, num
	}
	// round num/den to rscale, half away from zero
	num.Mul(num, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(rscale)), nil))
	neg := (num.Sign() < 0) != (den.Sign() < 0)
	num.Abs(num)
	den.Abs(den)
	q, r := new(big.Int).QuoRem(num, den, new(big.Int))
	if r.Lsh(r, 1).Cmp(den) >= 0 {
		q.Add(q, big.NewInt(1))
	}
	if neg {
		q.Neg(q)
	}
	out, ok := decFromBig(q, int32(rscale))
	if !ok {
		return Dec{}, numOverflow()
	}
	return out, nil
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// DecFloor, DecCeil and DecTrunc round toward -∞, +∞ and zero to scale
// s ≥ 0 (floor and ceil: 0).
func DecFloor(d Dec) (Dec, bool) { return decIntegral(d, 0, -1) }
func DecCeil(d Dec) (Dec, bool)  { return decIntegral(d, 0, 1) }

// DecTrunc truncates to s digits (s may be negative: tens, hundreds);
// the result's scale is max(s, 0).
func DecTrunc(d Dec, s int32) (Dec, bool) { return decIntegral(d, s, 0) }

// decIntegral cuts d at s digits, rounding toward dir (-1 floor, 1
// ceil, 0 zero).
func decIntegral(d Dec, s int32, dir int) (Dec, bool) {
	if s >= 0 && d.Scale <= s {
		return d.Rescale(s)
	}
	m := d.Big()
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(d.Scale)-int64(s)), nil)
	q, r := new(big.Int).QuoRem(m, p, new(big.Int))
	if r.Sign() != 0 {
		if dir < 0 && m.Sign() < 0 {
			q.Sub(q, big.NewInt(1))
		} else if dir > 0 && m.Sign() > 0 {
			q.Add(q, big.NewInt(1))
		}
	}
	if s < 0 {
		q.Mul(q, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-s)), nil))
		return decFromBig(q, 0)
	}
	return decFromBig(q, s)
}

// DecWidthBucket is width_bucket over numerics (compute_bucket): the
// bucket of x among count equal buckets from lo to hi (either way).
func DecWidthBucket(x, lo, hi Dec, count int64) (int64, error) {
	if count <= 0 {
		return 0, Errorf(CodeInvalidArgumentWidthBucket, "count must be greater than zero")
	}
	c := DecCmp(lo, hi)
	if c == 0 {
		return 0, Errorf(CodeInvalidArgumentWidthBucket, "lower bound cannot equal upper bound")
	}
	rev := c > 0
	if !rev && DecCmp(x, lo) < 0 || rev && DecCmp(x, lo) > 0 {
		return 0, nil
	}
	if !rev && DecCmp(x, hi) >= 0 || rev && DecCmp(x, hi) <= 0 {
		if count == math.MaxInt32 {
			return 0, Errorf(CodeNumericValueOutOfRange, "integer out of range")
		}
		return count + 1, nil
	}
	// (x - lo) * count / (hi - lo), truncated, + 1, exactly
	a, b := x, lo
	e, f := hi, lo
	if rev {
		a, b, e, f = lo, x, lo, hi
	}
	n, _ := DecSub(a, b)
	d, _ := DecSub(e, f)
	n, d, _ = align(n, d)
	num := new(big.Int).Mul(n.Big(), big.NewInt(count))
	q := new(big.Int).Quo(num, d.Big())
	return q.Int64() + 1, nil
}
