package engine

import (
	"math"
	"math/big"
	"math/bits"
	"strconv"
	"strings"
)

// Dec is an exact decimal: a signed 128-bit mantissa and a display scale,
// the value being mantissa / 10^Scale. Stored numeric(p,s) columns are
// scaled int64; computed numerics (sums, products, quotients) widen to Dec
// so that sums never overflow in practice (38 digits).
type Dec struct {
	Hi    int64
	Lo    uint64
	Scale int32
}

// DecFromInt makes a scale-0 Dec.
func DecFromInt(v int64) Dec { return Dec{Hi: v >> 63, Lo: uint64(v)} }

// DecFromScaled makes a Dec from a scaled int64.
func DecFromScaled(v int64, scale int) Dec {
	return Dec{Hi: v >> 63, Lo: uint64(v), Scale: int32(scale)}
}

func (d Dec) neg() Dec {
	lo, borrow := bits.Sub64(0, d.Lo, 0)
	hi := 0 - d.Hi - int64(borrow)
	return Dec{Hi: hi, Lo: lo, Scale: d.Scale}
}

// Sign is -1, 0 or 1.
func (d Dec) Sign() int {
	if d.Hi < 0 {
		return -1
	}
	if d.Hi == 0 && d.Lo == 0 {
		return 0
	}
	return 1
}

// Neg negates d. It fails only for the most negative mantissa.
func (d Dec) Neg() (Dec, bool) {
	if d.Hi == math.MinInt64 && d.Lo == 0 {
		return d, false
	}
	return d.neg(), true
}

func (d Dec) abs() (hi, lo uint64) {
	if d.Hi < 0 {
		n := d.neg()
		return uint64(n.Hi), n.Lo
	}
	return uint64(d.Hi), d.Lo
}

func add128(a, b Dec) (Dec, bool) {
	lo, c := bits.Add64(a.Lo, b.Lo, 0)
	hi := a.Hi + b.Hi + int64(c)
	// overflow if a and b have the same sign and the result's differs
	if (a.Hi >= 0) == (b.Hi >= 0) && (hi >= 0) != (a.Hi >= 0) {
		return Dec{}, false
	}
	return Dec{Hi: hi, Lo: lo, Scale: a.Scale}, true
}

// mulSmall multiplies the mantissa by a non-negative m.
func mulSmall(d Dec, m uint64) (Dec, bool) {
	neg := d.Hi < 0
	hi, lo := d.abs()
	h1, l1 := bits.Mul64(lo, m)
	h2, l2 := bits.Mul64(hi, m)
	if h2 != 0 {
		return Dec{}, false
	}
	rh, c := bits.Add64(h1, l2, 0)
	if c != 0 || rh > math.MaxInt64 {
		return Dec{}, false
	}
	r := Dec{Hi: int64(rh), Lo: l1, Scale: d.Scale}
	if neg {
		r = r.neg()
	}
	return r, true
}

var pow10u64 = func() [20]uint64 {
	var p [20]uint64
	p[0] = 1
	for i := 1; i < 20; i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

// Pow10 returns 10^n for 0 <= n <= 18.
func Pow10(n int) int64 { return int64(pow10u64[n]) }

// Rescale raises d's scale to s (s >= d.Scale) exactly.
func (d Dec) Rescale(s int32) (Dec, bool) {
	for d.Scale < s {
		step := s - d.Scale
		if step > 19 {
			step = 19
		}
		var ok bool
		d, ok = mulSmall(d, pow10u64[step])
		if !ok {
			return Dec{}, false
		}
		d.Scale += step
	}
	return d, true
}

// Round reduces d's scale to s (s < d.Scale), rounding half away from zero.
func (d Dec) Round(s int32) Dec {
	if s >= d.Scale {
		return d
	}
	neg := d.Hi < 0
	hi, lo := d.abs()
	for d.Scale > s {
		step := d.Scale - s
		if step > 19 {
			step = 19
		}
		div := pow10u64[step]
		var rem uint64
		qh := hi / div
		qh2, r := bits.Div64(hi%div, lo, div)
		hi, lo, rem = qh, qh2, r
		last := d.Scale-step == s
		// Only the last (highest) step rounds: the first digit dropped
		// decides, and truncating lower digits first cannot change it.
		if last && rem >= div-rem { // half away from zero, on the magnitude
			lo++
			if lo == 0 {
				hi++
			}
		}
		d.Scale -= step
	}
	r := Dec{Hi: int64(hi), Lo: lo, Scale: d.Scale}
	if neg {
		r = r.neg()
	}
	return r
}

// DecAdd returns a+b at the larger scale.
func DecAdd(a, b Dec) (Dec, bool) {
	a, b, ok := align(a, b)
	if !ok {
		return Dec{}, false
	}
	return add128(a, b)
}

// DecSub returns a-b at the larger scale.
func DecSub(a, b Dec) (Dec, bool) {
	nb, ok := b.Neg()
	if !ok {
		return Dec{}, false
	}
	return DecAdd(a, nb)
}

func align(a, b Dec) (Dec, Dec, bool) {
	var ok bool
	if a.Scale < b.Scale {
		a, ok = a.Rescale(b.Scale)
		return a, b, ok
	}
	if b.Scale < a.Scale {
		b, ok = b.Rescale(a.Scale)
		return a, b, ok
	}
	return a, b, true
}

// DecCmp compares a and b by value.
func DecCmp(a, b Dec) int {
	if a.Scale != b.Scale {
		a2, b2, ok := align(a, b)
		if !ok {
			// rare: fall back to exact big arithmetic, both mantissas at
			// the larger scale
			x, y := a.Big(), b.Big()
			if a.Scale < b.Scale {
				x.Mul(x, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(b.Scale-a.Scale)), nil))
			} else {
				y.Mul(y, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(a.Scale-b.Scale)), nil))
			}
			return x.Cmp(y)
		}
		a, b = a2, b2
	}
	if a.Hi != b.Hi {
		if a.Hi < b.Hi {
			return -1
		}
		return 1
	}
	if a.Lo != b.Lo {
		if a.Lo < b.Lo {
			return -1
		}
		return 1
	}
	return 0
}

// DecMul returns a*b at scale a.Scale+b.Scale, as PostgreSQL does.
func DecMul(a, b Dec) (Dec, bool) {
	if a.Hi == -int64(a.Lo>>63) && b.Hi == -int64(b.Lo>>63) {
		// both fit in int64
		x, y := int64(a.Lo), int64(b.Lo)
		hi, lo := bits.Mul64(uint64(abs64(x)), uint64(abs64(y)))
		if hi <= math.MaxInt64 {
			r := Dec{Hi: int64(hi), Lo: lo, Scale: a.Scale + b.Scale}
			if (x < 0) != (y < 0) {
				r = r.neg()
			}
			return r, true
		}
	}
	r, ok := decFromBig(new(big.Int).Mul(a.Big(), b.Big()), a.Scale+b.Scale)
	return r, ok
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// Big returns the mantissa as a big.Int.
func (d Dec) Big() *big.Int {
	hi, lo := d.abs()
	b := new(big.Int).SetUint64(hi)
	b.Lsh(b, 64)
	b.Or(b, new(big.Int).SetUint64(lo))
	if d.Hi < 0 {
		b.Neg(b)
	}
	return b
}

var maxMag = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 127), big.NewInt(1))

func decFromBig(b *big.Int, scale int32) (Dec, bool) {
	if b.CmpAbs(maxMag) > 0 {
		return Dec{}, false
	}
	neg := b.Sign() < 0
	m := new(big.Int).Abs(b)
	lo := m.Uint64()
	hi := new(big.Int).Rsh(m, 64).Uint64()
	d := Dec{Hi: int64(hi), Lo: lo, Scale: scale}
	if neg {
		d = d.neg()
	}
	return d, true
}

// weight returns PostgreSQL's base-10000 weight and first base-10000 digit
// of d (0, 0 for zero).
func (d Dec) weight() (w int, first int) {
	if d.Sign() == 0 {
		return 0, 0
	}
	s := new(big.Int).Abs(d.Big()).String()
	e := len(s) - 1 - int(d.Scale) // decimal exponent of the leading digit
	w = floorDiv(e, 4)
	// digits of the leading base-10000 group: those at exponents 4w..e
	n := e - 4*w + 1
	first, _ = strconv.Atoi(s[:min(n, len(s))])
	for k := len(s); k < n; k++ {
		first *= 10
	}
	return w, first
}

func floorDiv(a, b int) int {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// DivScale is PostgreSQL's select_div_scale: the display scale of a/b.
func DivScale(a, b Dec) int32 {
	w1, f1 := a.weight()
	w2, f2 := b.weight()
	qw := w1 - w2
	if f1 <= f2 {
		qw--
	}
	r := 16 - qw*4
	r = max(r, int(a.Scale), int(b.Scale), 0)
	r = min(r, 1000)
	return int32(r)
}

// DecDiv divides as PostgreSQL's numeric division does: the quotient at
// DivScale(a, b), rounded half away from zero. ok is false on overflow;
// the caller checks for a zero divisor first.
func DecDiv(a, b Dec) (Dec, bool) {
	return DecDivScale(a, b, DivScale(a, b))
}

// DecDivScale divides a by b, rounding to scale rs.
func DecDivScale(a, b Dec, rs int32) (Dec, bool) {
	if q, ok := decDivSmall(a, b, rs); ok {
		return q, true
	}
	return decDivBig(a, b, rs)
}

// decDivBig is DecDivScale in big integers.
func decDivBig(a, b Dec, rs int32) (Dec, bool) {
	// a/b = (ma/10^sa) / (mb/10^sb); q*10^rs = ma*10^(rs+sb-sa) / mb
	num := a.Big()
	den := b.Big()
	e := int(rs) + int(b.Scale) - int(a.Scale)
	if e >= 0 {
		num.Mul(num, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(e)), nil))
	} else {
		den.Mul(den, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-e)), nil))
	}
	neg := (num.Sign() < 0) != (den.Sign() < 0)
	num.Abs(num)
	den.Abs(den)
	q, r := new(big.Int).QuoRem(num, den, new(big.Int))
	r.Lsh(r, 1)
	if r.Cmp(den) >= 0 {
		q.Add(q, big.NewInt(1))
	}
	if neg {
		q.Neg(q)
	}
	return decFromBig(q, rs)
}

// decDivSmall is DecDivScale where both mantissas and the rounded
// quotient fit in int64 and the power of ten in 64 bits: the division is
// then one of 128 by 64 bits. ok is false where it does not apply.
func decDivSmall(a, b Dec, rs int32) (q Dec, ok bool) {
	ma, oka := a.Int64()
	mb, okb := b.Int64()
	e := int(rs) + int(b.Scale) - int(a.Scale)
	if !oka || !okb || mb == 0 || e > 19 || e < -19 || ma == math.MinInt64 || mb == math.MinInt64 {
		return Dec{}, false
	}
	neg := (ma < 0) != (mb < 0)
	num, den := uint64(ma), uint64(mb)
	if ma < 0 {
		num = uint64(-ma)
	}
	if mb < 0 {
		den = uint64(-mb)
	}
	var hi, lo uint64
	if e >= 0 {
		hi, lo = bits.Mul64(num, pow10u64[e])
	} else {
		dh, dl := bits.Mul64(den, pow10u64[-e])
		if dh != 0 {
			return Dec{}, false
		}
		den, lo = dl, num
	}
	if hi >= den { // the quotient needs more than 64 bits
		return Dec{}, false
	}
	quo, rem := bits.Div64(hi, lo, den)
	if rem >= den-rem { // round half away from zero
		quo++
	}
	if quo > math.MaxInt64 {
		return Dec{}, false
	}
	m := int64(quo)
	if neg {
		m = -m
	}
	return Dec{Hi: m >> 63, Lo: uint64(m), Scale: rs}, true
}

// DecMod is PostgreSQL's numeric modulo: a - trunc(a/b)*b, scale max.
func DecMod(a, b Dec) (Dec, bool) {
	a, b, ok := align(a, b)
	if !ok {
		return Dec{}, false
	}
	r := new(big.Int).Rem(a.Big(), b.Big())
	return decFromBig(r, a.Scale)
}

// Trunc returns d's integer part as a big-checked int64 after rounding half
// away from zero (numeric → integer casts round).
func (d Dec) RoundInt() (int64, bool) {
	r := d.Round(0)
	if r.Hi != -int64(r.Lo>>63) {
		return 0, false
	}
	return int64(r.Lo), true
}

// Int64 returns the mantissa if it fits in int64.
func (d Dec) Int64() (int64, bool) {
	if d.Hi != -int64(d.Lo>>63) {
		return 0, false
	}
	return int64(d.Lo), true
}

// Float64 converts d to the nearest float64.
func (d Dec) Float64() float64 {
	f, _ := strconv.ParseFloat(string(d.AppendText(nil)), 64)
	return f
}

// AppendText appends d in PostgreSQL's text form: exactly Scale digits
// after the point.
func (d Dec) AppendText(dst []byte) []byte {
	neg := d.Hi < 0
	hi, lo := d.abs()
	var digits [48]byte
	n := len(digits)
	if hi == 0 && lo == 0 {
		n--
		digits[n] = '0'
	}
	for hi != 0 || lo != 0 {
		// divide by 10^19 and emit 19 digits (or fewer for the top)
		const p19 = 10000000000000000000
		qh := hi / p19
		ql, r := bits.Div64(hi%p19, lo, p19)
		hi, lo = qh, ql
		for k := 0; k < 19; k++ {
			n--
			digits[n] = byte('0' + r%10)
			r /= 10
			if hi == 0 && lo == 0 && r == 0 {
				break
			}
		}
	}
	ds := digits[n:]
	if neg {
		dst = append(dst, '-')
	}
	sc := int(d.Scale)
	if sc == 0 {
		return append(dst, ds...)
	}
	if len(ds) <= sc {
		dst = append(dst, '0', '.')
		for k := len(ds); k < sc; k++ {
			dst = append(dst, '0')
		}
		return append(dst, ds...)
	}
	dst = append(dst, ds[:len(ds)-sc]...)
	dst = append(dst, '.')
	return append(dst, ds[len(ds)-sc:]...)
}

func (d Dec) String() string { return string(d.AppendText(nil)) }

// ParseDecLiteral parses a numeric literal such as "12.50" or "1e3" into a
// Dec whose scale is the literal's own (as PostgreSQL's numeric_in).
func ParseDecLiteral(s string) (Dec, bool) {
	mant := ""
	scale := 0
	exp := 0
	i := 0
	neg := false
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n') {
		i++
	}
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	digits := 0
	seenPoint := false
	for ; i < len(s); i++ {
		c := s[i]
		if c >= '0' && c <= '9' {
			mant += string(c)
			digits++
			if seenPoint {
				scale++
			}
		} else if c == '.' && !seenPoint {
			seenPoint = true
		} else {
			break
		}
	}
	if digits == 0 {
		return Dec{}, false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		es := j
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		k := j
		for k < len(s) && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		if k == j {
			return Dec{}, false
		}
		e, err := strconv.Atoi(s[es:k])
		if err != nil || e > 1000 || e < -1000 {
			return Dec{}, false
		}
		exp = e
		i = k
	}
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n') {
		i++
	}
	if i != len(s) {
		return Dec{}, false
	}
	b, _ := new(big.Int).SetString(mant, 10)
	scale -= exp
	if scale < 0 {
		b.Mul(b, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-scale)), nil))
		scale = 0
	}
	if neg {
		b.Neg(b)
	}
	return decFromBig(b, int32(scale))
}

// DecFromFloat converts f as PostgreSQL's float8 → numeric cast does: via
// its 15-significant-digit decimal representation.
func DecFromFloat(f float64, digits int) (Dec, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return Dec{}, false
	}
	s := strconv.FormatFloat(f, 'e', digits-1, 64)
	// normalise: strip trailing zeros of the mantissa as %g does
	mant, exp := s, 0
	if k := strings.IndexByte(s, 'e'); k >= 0 {
		mant = s[:k]
		exp, _ = strconv.Atoi(s[k+1:])
	}
	if strings.IndexByte(mant, '.') >= 0 {
		for len(mant) > 0 && mant[len(mant)-1] == '0' {
			mant = mant[:len(mant)-1]
		}
		if mant[len(mant)-1] == '.' {
			mant = mant[:len(mant)-1]
		}
	}
	return ParseDecLiteral(mant + "e" + strconv.Itoa(exp))
}
