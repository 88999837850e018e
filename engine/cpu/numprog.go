package cpu

import (
	"math"
	"math/bits"

	"github.com/gpusql/gpusql/engine"
)

// Numeric sums of arithmetic in int64: the argument of sum or avg over
// numerics that is additions, subtractions and multiplications of
// numeric columns and constants (Q1's `l_extendedprice * (1 -
// l_discount) * (1 + l_tax)`) is computed per batch as int64 mantissas at
// one scale per node, the scales following engine.DecAdd and DecMul (the
// larger of the two for + and -, their sum for *), and the mantissas
// summed into the groups' 128-bit sums. That is exact, so it gives
// eval's values; a batch where it cannot hold (a NULL, a column value
// that needs more than 64 bits or has another scale than the batch's
// first, an int64 overflow) is evaluated by eval instead, row by row as
// before.

// rawCol returns column c of the batch as its stored mantissas, their
// scale and NULL flags; ok false when the batch does not have them so.
type rawCol func(c int) (m []int64, scale int32, null []bool, ok bool)

// numExpr is one node of such an argument.
type numExpr struct {
	op   engine.Op // for a call
	ref  *engine.ColRef
	k    *engine.Const
	a, b *numExpr
	buf  []int64
}

// compileNumExpr compiles e, or returns nil when it is not of that shape
// or is a bare column (summed as fast by aggState.sumDecs).
func compileNumExpr(e engine.Expr) *numExpr {
	if _, ok := e.(*engine.Call); !ok {
		return nil
	}
	return numNode(e)
}

func numNode(e engine.Expr) *numExpr {
	if e.Type().Kind != engine.KindNumeric {
		return nil
	}
	switch e := e.(type) {
	case *engine.ColRef:
		return &numExpr{ref: e}
	case *engine.Const:
		if e.Null || e.D.Hi != int64(e.D.Lo)>>63 {
			return nil
		}
		return &numExpr{k: e}
	case *engine.Call:
		if e.Op != engine.OpAdd && e.Op != engine.OpSub && e.Op != engine.OpMul || len(e.Args) != 2 {
			return nil
		}
		a, b := numNode(e.Args[0]), numNode(e.Args[1])
		if a == nil || b == nil || a.k != nil && b.k != nil {
			return nil
		}
		return &numExpr{op: e.Op, a: a, b: b}
	}
	return nil
}

// numVal is a node's value over a batch: n mantissas, or one constant,
// at one scale.
type numVal struct {
	v      []int64
	k      int64
	konst  bool
	scale  int32
	failed bool
}

// eval computes x over a batch of n rows whose columns col returns; the
// result has failed set when the batch must take eval's path.
//
// raw, when not nil, returns a column as its stored mantissas (scanBufs.raw):
// a column without NULLs read so is not converted.
func (x *numExpr) eval(col func(*engine.ColRef) (*engine.Vec, error), raw rawCol, n int) (numVal, error) {
	switch {
	case x.k != nil:
		return numVal{k: int64(x.k.D.Lo), konst: true, scale: x.k.D.Scale}, nil
	case x.ref != nil:
		if raw != nil {
			if m, scale, null, ok := raw(x.ref.Idx); ok && null == nil {
				// the stored slice itself: nothing writes into a
				// node's values but its own buffers
				return numVal{v: m, scale: scale}, nil
			}
		}
		v, err := col(x.ref)
		if err != nil {
			return numVal{}, err
		}
		if v.Null != nil || v.D == nil || len(v.D) < n {
			return numVal{failed: true}, nil
		}
		out := x.take(n)
		scale := int32(0)
		if n > 0 {
			scale = v.D[0].Scale
		}
		for i, d := range v.D[:n] {
			if d.Scale != scale || d.Hi != int64(d.Lo)>>63 {
				return numVal{failed: true}, nil
			}
			out[i] = int64(d.Lo)
		}
		return numVal{v: out, scale: scale}, nil
	}
	a, err := x.a.eval(col, raw, n)
	if err != nil || a.failed {
		return a, err
	}
	b, err := x.b.eval(col, raw, n)
	if err != nil || b.failed {
		return b, err
	}
	out := x.take(n)
	if x.op == engine.OpMul {
		r := numVal{v: out, scale: a.scale + b.scale}
		if a.konst {
			a, b = b, a
		}
		if b.konst {
			k := b.k
			for i, y := range a.v[:n] {
				p, ok := mul64(y, k)
				if !ok {
					return numVal{failed: true}, nil
				}
				out[i] = p
			}
			return r, nil
		}
		for i, y := range a.v[:n] {
			p, ok := mul64(y, b.v[i])
			if !ok {
				return numVal{failed: true}, nil
			}
			out[i] = p
		}
		return r, nil
	}
	// + and -: both at the larger scale
	scale := max(a.scale, b.scale)
	var ok bool
	if a, ok = x.rescale(a, scale, n, &x.a.buf); !ok {
		return numVal{failed: true}, nil
	}
	if b, ok = x.rescale(b, scale, n, &x.b.buf); !ok {
		return numVal{failed: true}, nil
	}
	sub := x.op == engine.OpSub
	for i := 0; i < n; i++ {
		var p, q int64
		if a.konst {
			p = a.k
		} else {
			p = a.v[i]
		}
		if b.konst {
			q = b.k
		} else {
			q = b.v[i]
		}
		var r int64
		if sub {
			r = p - q
			if (p >= 0) != (q >= 0) && (r >= 0) != (p >= 0) {
				return numVal{failed: true}, nil
			}
		} else {
			r = p + q
			if (p >= 0) == (q >= 0) && (r >= 0) != (p >= 0) {
				return numVal{failed: true}, nil
			}
		}
		out[i] = r
	}
	return numVal{v: out, scale: scale}, nil
}

// rescale raises v to scale (not below its own), in place in *buf for
// vectors; ok is false on overflow.
func (x *numExpr) rescale(v numVal, scale int32, n int, buf *[]int64) (numVal, bool) {
	d := scale - v.scale
	if d == 0 {
		return v, true
	}
	if d > 18 {
		return v, false
	}
	f := int64(1)
	for ; d > 0; d-- {
		f *= 10
	}
	v.scale = scale
	if v.konst {
		var ok bool
		v.k, ok = mul64(v.k, f)
		return v, ok
	}
	out := *buf // v.v aliases it, or a column's copy in it
	if cap(out) < n {
		out = make([]int64, n)
		*buf = out
	}
	out = out[:n]
	for i, y := range v.v[:n] {
		p, ok := mul64(y, f)
		if !ok {
			return v, false
		}
		out[i] = p
	}
	v.v = out
	return v, true
}

func (x *numExpr) take(n int) []int64 {
	if cap(x.buf) < n {
		x.buf = make([]int64, n)
	}
	return x.buf[:n]
}

// mul64 is x*y, ok false when it does not fit in int64.
func mul64(x, y int64) (int64, bool) {
	ax, ay := uint64(x), uint64(y)
	if x < 0 {
		ax = -ax
	}
	if y < 0 {
		ay = -ay
	}
	hi, lo := bits.Mul64(ax, ay)
	if hi != 0 || lo > math.MaxInt64 {
		return 0, false
	}
	if (x < 0) != (y < 0) {
		return -int64(lo), true
	}
	return int64(lo), true
}

// sumScaled is sumDecs over values vals at scale: each row's mantissa
// added to its group's 128-bit sum, exactly as sumDecs adds the same
// values as Decs.
func (s *aggState) sumScaled(ids []int32, vals []int64, scale int32, n int) error {
	for i, x := range vals[:n] {
		g := ids[i]
		s.count[g]++
		acc := &s.sumD[g]
		if acc.Scale == scale {
			if !add128(acc, uint64(x), x>>63) {
				return errNumericOverflow()
			}
			continue
		}
		r, ok := engine.DecAdd(*acc, engine.DecFromScaled(x, int(scale)))
		if !ok {
			return errNumericOverflow()
		}
		*acc = r
	}
	return nil
}

// sumScaledNull is sumScaled over values vals at scale, skipping the rows
// null marks (nil: none), as sumDecs skips NULLs.
func (s *aggState) sumScaledNull(ids []int32, vals []int64, scale int32, null []bool, n int) error {
	if null == nil {
		return s.sumScaled(ids, vals, scale, n)
	}
	for i, x := range vals[:n] {
		if null[i] {
			continue
		}
		g := ids[i]
		s.count[g]++
		if err := addScaledTo(&s.sumD[g], x, scale); err != nil {
			return err
		}
	}
	return nil
}

// addScaledTo adds mantissa x at scale to *acc as sumScaled does.
func addScaledTo(acc *engine.Dec, x int64, scale int32) error {
	if acc.Scale == scale {
		if !add128(acc, uint64(x), x>>63) {
			return errNumericOverflow()
		}
		return nil
	}
	r, ok := engine.DecAdd(*acc, engine.DecFromScaled(x, int(scale)))
	if !ok {
		return errNumericOverflow()
	}
	*acc = r
	return nil
}

// add128 adds the 128-bit mantissa (xlo, xhi), at acc's scale, to *acc in
// place; false, leaving *acc as it was, where the sum overflows (both
// signs agree and the result's differs). Small enough to inline into the
// sums' row loops.
func add128(acc *engine.Dec, xlo uint64, xhi int64) bool {
	lo, c := bits.Add64(acc.Lo, xlo, 0)
	hi := acc.Hi + xhi + int64(c)
	if (acc.Hi >= 0) == (xhi >= 0) && (hi >= 0) != (acc.Hi >= 0) {
		return false
	}
	acc.Hi, acc.Lo = hi, lo
	return true
}
