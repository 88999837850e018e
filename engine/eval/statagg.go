package eval

import (
	"math"
	"math/big"

	"github.com/gpusql/gpusql/engine"
)

// The statistics aggregates (var_pop ... regr_sxy) keep exact sums and
// finish them as PostgreSQL's final functions do, so that results do not
// depend on the order of rows, on workers or on GPU threads.
//
// Over integers and numerics, var_* and stddev_* are PostgreSQL's
// numeric_stddev_internal: N, sum(x) and sum(x*x), exactly, then
// (N*sum(x*x) - sum(x)^2) / (N*(N-1)) (or N*N) at select_div_scale's
// scale, rounded half away from zero, and its square root at that scale.
// PostgreSQL computes this with exact numeric arithmetic too, so the
// digits are the same.
//
// Over floats (and for every two-argument aggregate, whose arguments are
// double precision) PostgreSQL keeps N, Sx, Sy and the sums of squared
// deviations Sxx, Syy, Sxy, updated row by row (Youngs-Cramer), then
// divides (float8_var_samp: Sxx / (N - 1), float8_corr: Sxy / sqrt(Sxx *
// Syy), ...). Here the sums of x, y, x*x, y*y and x*y are exact: each
// product is split into parts that are exact doubles (SquareParts,
// ProductParts: Dekker's split into 26-bit halves) and every part is
// added into an exact engine.FloatSum. Sx, Sy, Sxx = sum(x*x) - Sx^2/N,
// Syy and Sxy = sum(x*y) - Sx*Sy/N are then computed exactly and each
// rounded once to a double, and PostgreSQL's final function runs on
// them in double precision. Where PostgreSQL's running sums do not
// round (values with few significant bits) the results are identical;
// elsewhere they may differ in the last digits, as PostgreSQL's own
// result depends on the row order.
//
// Special values follow PostgreSQL: a NaN or infinite x makes Sxx and
// Sxy NaN (and Sx NaN or infinite); a finite input whose square or
// product passes the double range is 22003 "value out of range: overflow".

// StatAcc is one group's state for a statistics aggregate.
type StatAcc struct {
	N int64
	// Over integers and numerics (var_*, stddev_*): the exact sums of x
	// and x*x, at Scale and 2*Scale, Scale the largest scale of an x.
	Scale   int32
	SX, SXX big.Int
	// Over doubles: exact sums of x, y and of the parts of x*x, y*y, x*y.
	FX, FY, FXX, FYY, FXY engine.FloatSum
}

// StatNumeric reports whether fn over an argument of type t keeps exact
// numeric sums (var_* and stddev_* over integers and numerics) rather
// than double ones.
func StatNumeric(fn engine.AggFunc, t engine.Type) bool {
	return fn >= engine.AggVarPop && fn <= engine.AggStddevSamp && !t.IsFloat()
}

// dekker is 2^27 + 1, the constant of Dekker's split of a double.
const dekker = 134217729.0

// SplitFloat splits x into hi + lo, each of at most 26 significant bits
// (Dekker), so that products of parts are exact doubles. The GPU backend
// builds the same operations as expressions (engine/gpu/stats.go); the
// explicit conversions keep Go from fusing a multiply and an add.
func SplitFloat(x float64) (hi, lo float64) {
	c := float64(dekker * x)
	hi = float64(c - float64(c-x))
	lo = float64(x - hi)
	return hi, lo
}

// SquareParts are exact doubles whose sum is x*x: hi*hi, 2*hi*lo, lo*lo.
func SquareParts(x float64) [3]float64 {
	h, l := SplitFloat(x)
	return [3]float64{float64(h * h), float64(float64(h*l) * 2), float64(l * l)}
}

// ProductParts are exact doubles whose sum is x*y.
func ProductParts(x, y float64) [4]float64 {
	xh, xl := SplitFloat(x)
	yh, yl := SplitFloat(y)
	return [4]float64{float64(xh * yh), float64(xh * yl), float64(xl * yh), float64(xl * yl)}
}

var maxDecMag = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 127), big.NewInt(1))

// AddDec adds a non-NULL integer or numeric x (var_*, stddev_*). Its
// square must fit a numeric's 128-bit mantissa, as the GPU backend's
// product does (22003 otherwise).
func (a *StatAcc) AddDec(x engine.Dec) error {
	m := x.Big()
	sq := new(big.Int).Mul(m, m)
	if sq.CmpAbs(maxDecMag) > 0 {
		return engine.Errorf(engine.CodeNumericValueOutOfRange, "value overflows numeric format")
	}
	a.addScaled(m, sq, x.Scale)
	a.N++
	return nil
}

// addScaled adds x and its square sq, x at scale s.
func (a *StatAcc) addScaled(x, sq *big.Int, s int32) {
	if s > a.Scale {
		d := s - a.Scale
		a.SX.Mul(&a.SX, pow10Big(d))
		a.SXX.Mul(&a.SXX, pow10Big(2*d))
		a.Scale = s
	} else if s < a.Scale {
		d := a.Scale - s
		x = new(big.Int).Mul(x, pow10Big(d))
		sq = new(big.Int).Mul(sq, pow10Big(2*d))
	}
	a.SX.Add(&a.SX, x)
	a.SXX.Add(&a.SXX, sq)
}

// AddSums adds n values whose sums are sx (at scale s) and sxx (at 2s):
// the GPU backend's exact device sums of one group.
func (a *StatAcc) AddSums(n int64, sx, sxx *big.Int, s int32) {
	a.addScaled(sx, sxx, s)
	a.N += n
}

// AddFloat adds a non-NULL double x (var_*, stddev_*).
func (a *StatAcc) AddFloat(x float64) {
	a.N++
	a.FX.Add(x)
	for _, p := range SquareParts(x) {
		a.FXX.Add(p)
	}
}

// AddPair adds a pair of non-NULL doubles (y, x) (covar_*, corr, regr_*).
func (a *StatAcc) AddPair(y, x float64) {
	a.N++
	a.FX.Add(x)
	a.FY.Add(y)
	for _, p := range SquareParts(x) {
		a.FXX.Add(p)
	}
	for _, p := range SquareParts(y) {
		a.FYY.Add(p)
	}
	for _, p := range ProductParts(x, y) {
		a.FXY.Add(p)
	}
}

// Merge adds o's state (another worker's share of the same group).
func (a *StatAcc) Merge(o *StatAcc) {
	if o.N == 0 {
		return
	}
	a.addScaled(&o.SX, &o.SXX, o.Scale)
	a.N += o.N
	a.FX.Merge(&o.FX)
	a.FY.Merge(&o.FY)
	a.FXX.Merge(&o.FXX)
	a.FYY.Merge(&o.FYY)
	a.FXY.Merge(&o.FXY)
}

// Put writes fn's result over the accumulated values (argument type t)
// to row g of out, NULL where PostgreSQL's final function returns NULL.
func (a *StatAcc) Put(fn engine.AggFunc, t engine.Type, out *engine.Vec, g int) error {
	if StatNumeric(fn, t) {
		d, ok, err := a.numericResult(fn)
		if err != nil || !ok {
			out.SetNull(g)
			return err
		}
		out.D[g] = d
		return nil
	}
	v, ok, err := a.floatResult(fn)
	if err != nil || !ok {
		out.SetNull(g)
		return err
	}
	out.F[g] = v
	return nil
}

func pow10Big(n int32) *big.Int {
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
}

var errFloatOverflow = engine.Errorf(engine.CodeNumericValueOutOfRange, "value out of range: overflow")

// numericResult is numeric_stddev_internal.
func (a *StatAcc) numericResult(fn engine.AggFunc) (engine.Dec, bool, error) {
	sample := fn == engine.AggVarSamp || fn == engine.AggStddevSamp
	if a.N == 0 || sample && a.N <= 1 {
		return engine.Dec{}, false, nil
	}
	n := big.NewInt(a.N)
	// N * sum(x*x) - sum(x)^2, at scale 2*Scale
	num := new(big.Int).Mul(n, &a.SXX)
	num.Sub(num, new(big.Int).Mul(&a.SX, &a.SX))
	if num.Sign() <= 0 {
		return engine.Dec{}, true, nil // 0, as PostgreSQL's make_result(const_zero)
	}
	den := new(big.Int)
	if sample {
		den.Mul(n, big.NewInt(a.N-1))
	} else {
		den.Mul(n, n)
	}
	ns := 2 * a.Scale
	rs := bigDivScale(num, ns, den, 0)
	// q = num / 10^ns / den at scale rs, rounded half away from zero (both positive)
	q := new(big.Int).Mul(num, pow10Big(rs))
	d := new(big.Int).Mul(den, pow10Big(ns))
	q, r := q.QuoRem(q, d, new(big.Int))
	if r.Lsh(r, 1).Cmp(d) >= 0 {
		q.Add(q, big.NewInt(1))
	}
	if fn == engine.AggStddevPop || fn == engine.AggStddevSamp {
		// sqrt at rs: one more digit, truncated, then rounded
		s := new(big.Int).Mul(q, pow10Big(rs+2))
		s.Sqrt(s)
		q = s.Add(s, big.NewInt(5)).Quo(s, big.NewInt(10))
	}
	if q.CmpAbs(maxDecMag) > 0 {
		return engine.Dec{}, false, engine.Errorf(engine.CodeNumericValueOutOfRange, "value overflows numeric format")
	}
	return decOfBig(q, rs), true, nil
}

// decOfBig makes a Dec of a mantissa that fits 127 bits.
func decOfBig(b *big.Int, scale int32) engine.Dec {
	m := new(big.Int).Abs(b)
	lo := m.Uint64()
	hi := new(big.Int).Rsh(m, 64).Uint64()
	d := engine.Dec{Hi: int64(hi), Lo: lo, Scale: scale}
	if b.Sign() < 0 {
		d, _ = d.Neg()
	}
	return d
}

// bigWeight is PostgreSQL's base-10000 weight and first base-10000 digit
// of m / 10^s (m > 0).
func bigWeight(m *big.Int, s int32) (w, first int) {
	str := new(big.Int).Abs(m).String()
	e := len(str) - 1 - int(s)
	w = e / 4
	if e%4 != 0 && e < 0 {
		w--
	}
	n := e - 4*w + 1
	for k := 0; k < n; k++ {
		first *= 10
		if k < len(str) {
			first += int(str[k] - '0')
		}
	}
	return w, first
}

// bigDivScale is select_div_scale for positive a / 10^sa over b / 10^sb.
func bigDivScale(a *big.Int, sa int32, b *big.Int, sb int32) int32 {
	w1, f1 := bigWeight(a, sa)
	w2, f2 := bigWeight(b, sb)
	qw := w1 - w2
	if f1 <= f2 {
		qw--
	}
	r := int32(16 - qw*4)
	return min(max(r, sa, sb, 0), 1000)
}

// statFloats are the rounded sums PostgreSQL's final functions read.
type statFloats struct {
	n, sx, sy, sxx, syy, sxy float64
}

// round rounds an exact value to a double; 22003 past the range.
func roundExact(f *big.Float) (float64, error) {
	if f == nil {
		return 0, nil
	}
	v, _ := f.Float64()
	if math.IsInf(v, 0) {
		return 0, errFloatOverflow
	}
	return v, nil
}

// sumOf is the rounded sum of s and whether it is decided by a NaN or an
// infinity.
func sumOf(s *engine.FloatSum) (float64, *big.Float, bool, error) {
	f, v, special := s.Exact()
	if special {
		return v, nil, true, nil
	}
	r, err := roundExact(f)
	return r, f, false, err
}

// deviations is sum(p) - sa*sb/n exactly (p the exact sum of products,
// sa and sb exact sums), rounded; NaN when special.
func deviations(p *engine.FloatSum, sa, sb *big.Float, n int64, special bool) (float64, error) {
	pf, _, pspecial := p.Exact()
	if special {
		return math.NaN(), nil
	}
	if pspecial {
		return 0, errFloatOverflow // a finite input whose square or product overflows
	}
	r := new(big.Rat)
	if pf != nil {
		pf.Rat(r)
	}
	if sa != nil && sb != nil {
		ra, _ := sa.Rat(nil)
		rb, _ := sb.Rat(nil)
		t := new(big.Rat).Mul(ra, rb)
		t.Quo(t, new(big.Rat).SetInt64(n))
		r.Sub(r, t)
	}
	v, _ := r.Float64()
	if math.IsInf(v, 0) {
		return 0, errFloatOverflow
	}
	return v, nil
}

func (a *StatAcc) floats(two bool) (statFloats, error) {
	s := statFloats{n: float64(a.N)}
	var fx, fy *big.Float
	var spx, spy bool
	var err error
	if s.sx, fx, spx, err = sumOf(&a.FX); err != nil {
		return s, err
	}
	if s.sxx, err = deviations(&a.FXX, fx, fx, a.N, spx); err != nil {
		return s, err
	}
	if !two {
		return s, nil
	}
	if s.sy, fy, spy, err = sumOf(&a.FY); err != nil {
		return s, err
	}
	if s.syy, err = deviations(&a.FYY, fy, fy, a.N, spy); err != nil {
		return s, err
	}
	if s.sxy, err = deviations(&a.FXY, fx, fy, a.N, spx || spy); err != nil {
		return s, err
	}
	return s, nil
}

// floatResult is PostgreSQL's float8 final function for fn.
func (a *StatAcc) floatResult(fn engine.AggFunc) (float64, bool, error) {
	switch fn {
	case engine.AggVarSamp, engine.AggStddevSamp, engine.AggCovarSamp:
		if a.N <= 1 {
			return 0, false, nil
		}
	default:
		if a.N == 0 {
			return 0, false, nil
		}
	}
	s, err := a.floats(!(fn >= engine.AggVarPop && fn <= engine.AggStddevSamp))
	if err != nil {
		return 0, false, err
	}
	switch fn {
	case engine.AggVarPop:
		return s.sxx / s.n, true, nil
	case engine.AggVarSamp:
		return s.sxx / (s.n - 1), true, nil
	case engine.AggStddevPop:
		return math.Sqrt(s.sxx / s.n), true, nil
	case engine.AggStddevSamp:
		return math.Sqrt(s.sxx / (s.n - 1)), true, nil
	case engine.AggCovarPop:
		return s.sxy / s.n, true, nil
	case engine.AggCovarSamp:
		return s.sxy / (s.n - 1), true, nil
	case engine.AggCorr:
		if s.sxx == 0 || s.syy == 0 {
			return 0, false, nil
		}
		return s.sxy / math.Sqrt(s.sxx*s.syy), true, nil
	case engine.AggRegrR2:
		if s.sxx == 0 {
			return 0, false, nil
		}
		if s.syy == 0 {
			return 1, true, nil
		}
		return (s.sxy * s.sxy) / (s.sxx * s.syy), true, nil
	case engine.AggRegrSlope:
		if s.sxx == 0 {
			return 0, false, nil
		}
		return s.sxy / s.sxx, true, nil
	case engine.AggRegrIntercept:
		if s.sxx == 0 {
			return 0, false, nil
		}
		return (s.sy - s.sx*s.sxy/s.sxx) / s.n, true, nil
	case engine.AggRegrSXX:
		return s.sxx, true, nil
	case engine.AggRegrSYY:
		return s.syy, true, nil
	case engine.AggRegrSXY:
		return s.sxy, true, nil
	}
	return 0, false, engine.Errorf(engine.CodeInternalError, "not a statistics aggregate: %s", fn)
}
