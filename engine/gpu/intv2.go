package gpu

import (
	"math/rand/v2"

	"github.com/gpusql/gpusql/engine"
)

// justify_days, justify_hours, justify_interval, date_trunc of an
// interval, age, time - time and random() on the GPU: the kernels of
// query.cu's intv2 section (OP_JUSTIFY, OP_INTVTRUNC, OP_AGE,
// OP_TIMEDIFF, OP_RANDOM), twins of engine/eval's JustifyDays,
// JustifyHours, JustifyInterval, truncInterval, Age and evalTimeArith,
// with their errors (interval out of range).
//
// random() gives a double in [0, 1) from a hash of a seed drawn when
// the expression compiles, the instruction and the row: each row and
// each call in a row differ, and so does each statement, as on the CPU
// backend (math/rand/v2's global source, which setseed does not reach
// there either). The numbers are not the CPU backend's.

// intervalOperand compiles an interval argument into an interval register.
func (c *compiler) intervalOperand(e engine.Expr, mask int32) (val, error) {
	c.intvOK = true
	v, err := c.compile(e, mask)
	c.intvOK = false
	if err != nil {
		return val{}, err
	}
	if v.cls != clsIntv {
		return val{}, unsupported("%s as an interval", v.t)
	}
	return v, nil
}

func (c *compiler) intv2(e *engine.Call, mask int32) (val, error) {
	p := c.p
	out := val{cls: clsIntv, t: e.T}
	switch e.Op {
	case engine.OpJustifyDays, engine.OpJustifyHours, engine.OpJustifyInterval:
		if len(e.Args) != 1 {
			return val{}, unsupported("%s with %d arguments", e.Op, len(e.Args))
		}
		x, err := c.intervalOperand(e.Args[0], mask)
		if err != nil {
			return val{}, err
		}
		kind := map[engine.Op]int64{engine.OpJustifyDays: 0, engine.OpJustifyHours: 1, engine.OpJustifyInterval: 2}[e.Op]
		out.reg, err = p.emit(opJustify, x.reg, 0, 0, mask, kind)
		return out, err
	case engine.OpTimeDiff:
		a, err := c.compile(e.Args[0], mask)
		if err != nil {
			return val{}, err
		}
		b, err := c.compile(e.Args[1], mask)
		if err != nil {
			return val{}, err
		}
		if a.t.Kind != engine.KindTime || b.t.Kind != engine.KindTime {
			return val{}, unsupported("%s on %s and %s", e.Op, a.t, b.t)
		}
		out.reg, err = p.emit(opTimeDiff, a.reg, b.reg, 0, mask, 0)
		return out, err
	case engine.OpAge:
		return c.age(e, mask)
	case engine.OpRandom:
		if len(e.Args) != 0 {
			return val{}, unsupported("%s with %d arguments", e.Op, len(e.Args))
		}
		p.consts = append(p.consts, qConst{Lo: int64(rand.Uint64())})
		seed, err := p.emit(opConst, int32(len(p.consts)-1), 0, 0, 0, 0)
		if err != nil {
			return val{}, err
		}
		r, err := p.emit(opRandom, seed, 0, 0, mask, 0)
		return val{reg: r, cls: clsF64, t: engine.Float64}, err
	}
	return out, unsupported("the operator %s", e.Op)
}

// age is age(a, b) over timestamps, or over timestamptz in the zone of
// its third argument (wall-clock times, signed by the instants).
func (c *compiler) age(e *engine.Call, mask int32) (val, error) {
	p := c.p
	if len(e.Args) != 2 && len(e.Args) != 3 {
		return val{}, unsupported("age() with %d arguments", len(e.Args))
	}
	a, err := c.compile(e.Args[0], mask)
	if err != nil {
		return val{}, err
	}
	b, err := c.compile(e.Args[1], mask)
	if err != nil {
		return val{}, err
	}
	want := engine.KindTimestamp
	if len(e.Args) == 3 {
		want = engine.KindTimestampTZ
	}
	if a.cls != clsI64 || b.cls != clsI64 || a.t.Kind != want || b.t.Kind != want {
		return val{}, unsupported("age(%s, %s)", a.t, b.t)
	}
	flip := int32(0)
	if len(e.Args) == 3 {
		z, err := c.zone(e.Args[2])
		if err != nil {
			return val{}, err
		}
		lt, err := c.cmp(engine.OpLt, a, b, mask)
		if err != nil {
			return val{}, err
		}
		flip = lt.reg
		if a, err = c.toLocal(a, z, mask); err != nil {
			return val{}, err
		}
		if b, err = c.toLocal(b, z, mask); err != nil {
			return val{}, err
		}
	}
	r, err := p.emit(opAge, a.reg, b.reg, flip, mask, 0)
	return val{reg: r, cls: clsIntv, t: e.T}, err
}

// intervalTrunc is date_trunc(unit, interval), code the unit's number
// (dateTruncUnits; week is eval.CheckTruncUnit's error before).
func (c *compiler) intervalTrunc(e *engine.Call, code int64, mask int32) (val, error) {
	if len(e.Args) != 2 || code == dateTruncUnits["week"] {
		return val{}, unsupported("date_trunc() of an interval with these arguments")
	}
	x, err := c.intervalOperand(e.Args[1], mask)
	if err != nil {
		return val{}, err
	}
	r, err := c.p.emit(opIntvTrunc, x.reg, 0, 0, mask, code)
	return val{reg: r, cls: clsIntv, t: e.T}, err
}
