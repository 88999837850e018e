package eval

import (
	"bytes"

	"github.com/gpusql/gpusql/engine"
)

// cmpResult turns a three-way comparison into op's truth value.
func cmpResult(op engine.Op, c int) bool {
	switch op {
	case engine.OpEq:
		return c == 0
	case engine.OpNe:
		return c != 0
	case engine.OpLt:
		return c < 0
	case engine.OpLe:
		return c <= 0
	case engine.OpGt:
		return c > 0
	}
	return c >= 0
}

// compare evaluates a comparison of two vectors of one type, with a loop
// per physical class rather than a type switch per row.
func compare(op engine.Op, a, b *engine.Vec, n int) *engine.Vec {
	out := engine.NewVec(engine.Bool, n)
	out.Null = orNulls(n, a, b)
	res := out.I
	switch engine.PhysOf(a.T.Kind) {
	case engine.PhysInt:
		x, y := a.I, b.I
		for i := 0; i < n; i++ {
			if cmpResult(op, cmpInt(x[i], y[i])) {
				res[i] = 1
			}
		}
	case engine.PhysFloat:
		for i := 0; i < n; i++ {
			if cmpResult(op, CmpFloat(a.F[i], b.F[i])) {
				res[i] = 1
			}
		}
	case engine.PhysDec:
		for i := 0; i < n; i++ {
			if cmpResult(op, engine.DecCmp(a.D[i], b.D[i])) {
				res[i] = 1
			}
		}
	case engine.PhysStr:
		for i := 0; i < n; i++ {
			if cmpResult(op, bytes.Compare(a.S[i], b.S[i])) {
				res[i] = 1
			}
		}
	default:
		for i := 0; i < n; i++ {
			if cmpResult(op, CompareSlot(a, i, b, i)) {
				res[i] = 1
			}
		}
	}
	if out.Null != nil {
		for i, null := range out.Null {
			if null {
				res[i] = 0
			}
		}
	}
	return out
}

// compareConst compares a vector with a constant without broadcasting it.
// A numeric constant is aligned once to the scale the vector's values
// share (stored numeric columns have one scale).
func compareConst(op engine.Op, a *engine.Vec, c *engine.Const, n int) *engine.Vec {
	return compareConstInto(nil, op, a, c, n)
}

// compareConstInto is compareConst writing into dst's storage where it has
// room (reuseVec), for a caller done with the last result.
func compareConstInto(dst *engine.Vec, op engine.Op, a *engine.Vec, c *engine.Const, n int) *engine.Vec {
	out := reuseVec(dst, engine.Bool, n) // a new vector when dst is nil
	if out == dst {
		clear(out.I)
	}
	if c.Null {
		out.Null = make([]bool, n)
		for i := range out.Null {
			out.Null[i] = true
		}
		return out
	}
	out.Null = copyNulls(a.Null)
	res := out.I
	switch engine.PhysOf(a.T.Kind) {
	case engine.PhysInt:
		y := c.I
		for i, x := range a.I[:n] {
			if cmpResult(op, cmpInt(x, y)) {
				res[i] = 1
			}
		}
	case engine.PhysFloat:
		for i, x := range a.F[:n] {
			if cmpResult(op, CmpFloat(x, c.F)) {
				res[i] = 1
			}
		}
	case engine.PhysDec:
		var aligned engine.Dec
		alignedScale := int32(-1)
		for i, x := range a.D[:n] {
			if x.Scale != alignedScale {
				alignedScale = -1
				if x.Scale >= c.D.Scale {
					if d, ok := c.D.Rescale(x.Scale); ok {
						aligned, alignedScale = d, x.Scale
					}
				}
			}
			var r int
			if alignedScale == x.Scale {
				r = cmp128(x, aligned)
			} else {
				r = engine.DecCmp(x, c.D)
			}
			if cmpResult(op, r) {
				res[i] = 1
			}
		}
	case engine.PhysStr:
		y := []byte(c.S)
		if op == engine.OpEq || op == engine.OpNe {
			// equal under bytes.Compare is bytes.Equal, which checks the
			// lengths first
			eq := op == engine.OpEq
			for i, x := range a.S[:n] {
				if bytes.Equal(x, y) == eq {
					res[i] = 1
				}
			}
			break
		}
		for i, x := range a.S[:n] {
			if cmpResult(op, bytes.Compare(x, y)) {
				res[i] = 1
			}
		}
	default:
		cv := Broadcast(c, n)
		return compare(op, a, cv, n)
	}
	if out.Null != nil {
		for i, null := range out.Null {
			if null {
				res[i] = 0
			}
		}
	}
	return out
}

// cmp128 compares two mantissas of the same scale.
func cmp128(a, b engine.Dec) int {
	switch {
	case a.Hi < b.Hi:
		return -1
	case a.Hi > b.Hi:
		return 1
	case a.Lo < b.Lo:
		return -1
	case a.Lo > b.Lo:
		return 1
	}
	return 0
}
