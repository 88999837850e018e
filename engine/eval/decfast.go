package eval

import (
	"context"
	"math"
	"math/bits"

	"github.com/gpusql/gpusql/engine"
)

// Numeric addition, subtraction and multiplication over vectors, either
// operand possibly a constant that is not broadcast. Values whose
// mantissas fit in int64 (every stored numeric(p,s) with p <= 18, and
// most products of two) are added or multiplied as int64; anything else,
// and any int64 overflow, takes engine.DecAdd, DecSub or DecMul, whose
// results the fast path reproduces exactly.

// evalDecArith evaluates e, an add, sub or mul of numerics with a
// constant operand; ok is false when e is not of that shape.
func evalDecArith(ctx context.Context, e *engine.Call, in *engine.Batch) (out *engine.Vec, ok bool, err error) {
	if e.T.Kind != engine.KindNumeric || len(e.Args) != 2 ||
		e.Args[0].Type().Kind != engine.KindNumeric || e.Args[1].Type().Kind != engine.KindNumeric {
		return nil, false, nil
	}
	ca, aConst := e.Args[0].(*engine.Const)
	cb, bConst := e.Args[1].(*engine.Const)
	if aConst == bConst || aConst && ca.Null || bConst && cb.Null {
		return nil, false, nil
	}
	var v *engine.Vec
	if aConst {
		v, err = Eval(ctx, e.Args[1], in)
	} else {
		v, err = Eval(ctx, e.Args[0], in)
	}
	if err != nil {
		return nil, true, err
	}
	if aConst {
		out, err = decArith(e.Op, e.T, nil, v, &ca.D, nil, in.N)
	} else {
		out, err = decArith(e.Op, e.T, v, nil, nil, &cb.D, in.N)
	}
	return out, true, err
}

// decArith computes a op b for n rows; ac (bc), when not nil, is the
// constant standing for a (b).
func decArith(op engine.Op, t engine.Type, a, b *engine.Vec, ac, bc *engine.Dec, n int) (*engine.Vec, error) {
	out := engine.NewVec(t, n)
	switch {
	case a != nil && b != nil:
		out.Null = orNulls(n, a, b)
	case a != nil:
		out.Null = copyNulls(a.Null)
	default:
		out.Null = copyNulls(b.Null)
	}
	// a constant added or subtracted is raised once to the scale of the
	// values it meets (DecAdd would raise it on every row)
	var aligned engine.Dec
	alignedScale := int32(-1)
	for i := 0; i < n; i++ {
		if out.Null != nil && out.Null[i] {
			continue
		}
		var x, y engine.Dec
		if ac != nil {
			x = *ac
		} else {
			x = a.D[i]
		}
		if bc != nil {
			y = *bc
		} else {
			y = b.D[i]
		}
		if op != engine.OpMul && (ac != nil || bc != nil) && x.Scale != y.Scale {
			c, other := &x, y.Scale
			if bc != nil {
				c, other = &y, x.Scale
			}
			if c.Scale < other {
				if alignedScale != other {
					alignedScale = -1
					if d, ok := c.Rescale(other); ok {
						aligned, alignedScale = d, other
					}
				}
				if alignedScale == other {
					*c = aligned
				}
			}
		}
		r, ok := decOp(op, x, y)
		if !ok {
			return nil, numericOverflow()
		}
		out.D[i] = r
	}
	return out, nil
}

// decOp is engine.DecAdd, DecSub or DecMul, in int64 where that is exact.
func decOp(op engine.Op, x, y engine.Dec) (engine.Dec, bool) {
	if x.Hi == int64(x.Lo)>>63 && y.Hi == int64(y.Lo)>>63 { // both fit in int64
		xi, yi := int64(x.Lo), int64(y.Lo)
		switch op {
		case engine.OpAdd:
			if x.Scale == y.Scale {
				r := xi + yi
				if (xi >= 0) != (yi >= 0) || (r >= 0) == (xi >= 0) {
					return engine.Dec{Hi: r >> 63, Lo: uint64(r), Scale: x.Scale}, true
				}
			}
		case engine.OpSub:
			if x.Scale == y.Scale {
				r := xi - yi
				if (xi >= 0) == (yi >= 0) || (r >= 0) == (xi >= 0) {
					return engine.Dec{Hi: r >> 63, Lo: uint64(r), Scale: x.Scale}, true
				}
			}
		case engine.OpMul:
			hi, lo := bits.Mul64(uint64(abs(xi)), uint64(abs(yi)))
			if hi == 0 && lo <= math.MaxInt64 {
				r := int64(lo)
				if (xi < 0) != (yi < 0) {
					r = -r
				}
				return engine.Dec{Hi: r >> 63, Lo: uint64(r), Scale: x.Scale + y.Scale}, true
			}
		}
	}
	switch op {
	case engine.OpAdd:
		return engine.DecAdd(x, y)
	case engine.OpSub:
		return engine.DecSub(x, y)
	}
	return engine.DecMul(x, y)
}
