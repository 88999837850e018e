package gpu

import "github.com/gpusql/gpusql/engine"

// The math functions that compile to the interpreter's existing
// instructions (comparisons and selects): greatest, least and sign of a
// numeric. The others (floor, ceil, trunc, sqrt, exp, ln, log, power,
// width_bucket, mod(), sign of a double) have no kernel yet and are
// refused with 0A000.

// greatest is greatest/least: each argument replaces the running result
// where that is NULL or the argument compares larger (smaller); a NULL
// argument never does, so the result is NULL only where all are.
func (c *compiler) greatest(e *engine.Call, args []val, mask int32) (val, error) {
	p := c.p
	op := engine.OpGt
	if e.Op == engine.OpLeast {
		op = engine.OpLt
	}
	r := args[0]
	for _, a := range args[1:] {
		if a.cls != r.cls || a.cls == clsBool {
			return val{}, unsupported("%s over %s and %s", e.Op, r.t, a.t)
		}
		if a.cls == clsDec {
			if a.scaleReg != 0 || r.scaleReg != 0 {
				return val{}, unsupported("%s over numerics of varying scale", e.Op)
			}
			var err error
			if r, a, err = c.align(r, a, mask); err != nil {
				return val{}, err
			}
		}
		better, err := c.cmp(op, a, r, mask)
		if err != nil {
			return val{}, err
		}
		none, err := p.emit(opIsNull, r.reg, 0, 0, mask, 0)
		if err != nil {
			return val{}, err
		}
		take, err := p.emit(opOr, none, better.reg, 0, mask, 0)
		if err != nil {
			return val{}, err
		}
		if r.reg, err = p.emit(opSel, a.reg, r.reg, take, mask, 0); err != nil {
			return val{}, err
		}
		r.width = max(r.width, a.width)
	}
	r.t = e.T
	return r, nil
}

// sign is sign(numeric): -1, 0 or 1 at scale 0, NULL for NULL.
func (c *compiler) sign(e *engine.Call, x val, mask int32) (val, error) {
	if x.cls != clsDec || x.scaleReg != 0 {
		return val{}, unsupported("sign(%s)", x.t) // a double's NaN has no sign in C; not yet
	}
	p := c.p
	k := func(v int64) (val, error) {
		return c.constant(&engine.Const{T: engine.Numeric, D: engine.DecFromInt(v)})
	}
	zero, err := k(0)
	if err != nil {
		return val{}, err
	}
	one, err := k(1)
	if err != nil {
		return val{}, err
	}
	minus, err := k(-1)
	if err != nil {
		return val{}, err
	}
	gt, err := c.cmp(engine.OpGt, x, zero, mask)
	if err != nil {
		return val{}, err
	}
	lt, err := c.cmp(engine.OpLt, x, zero, mask)
	if err != nil {
		return val{}, err
	}
	r := zero
	if r.reg, err = p.emit(opSel, one.reg, zero.reg, gt.reg, mask, 0); err != nil {
		return val{}, err
	}
	if r.reg, err = p.emit(opSel, minus.reg, r.reg, lt.reg, mask, 0); err != nil {
		return val{}, err
	}
	null, err := p.emit(opIsNull, x.reg, 0, 0, mask, 0)
	if err != nil {
		return val{}, err
	}
	// x's own register where it is NULL: the NULL flag comes with it
	if r.reg, err = p.emit(opSel, x.reg, r.reg, null, mask, 0); err != nil {
		return val{}, err
	}
	r.t, r.scale = e.T, 0
	return r, nil
}
