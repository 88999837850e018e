package gpu

import (
	"encoding/binary"
	"strings"
	"sync"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/eval"
)

// The math and time functions on the GPU. greatest, least and sign of a
// numeric compile to comparisons and selects; floor, ceil, trunc, sqrt
// and sign of a double, floor, ceil and trunc of a numeric and
// date_trunc have kernels (OP_MATHF, OP_DINTEGRAL, OP_DATETRUNC in
// query.cu); time zones are a constant shift or a search in the zone's
// transition table (OP_TZLOCAL, OP_TZUTC). The kernels refuse exp, ln,
// log, power, width_bucket, to_char and the other long time functions,
// zones given per row and dynamic abbreviations (MSK); hoststep.go's
// hostCall runs such calls as host steps where a column can hold their
// results.

// greatest is greatest/least: each argument replaces the running result
// where that is NULL or the argument compares larger (smaller); a NULL
// argument never does, so the result is NULL only where all are.
func (c *compiler) greatest(e *engine.Call, args []val, mask int32) (val, error) {
	op := engine.OpGt
	if e.Op == engine.OpLeast {
		op = engine.OpLt
	}
	r := args[0]
	for _, a := range args[1:] {
		if a.cls != r.cls || a.cls == clsBool {
			return val{}, unsupported("%s over %s and %s", e.Op, r.t, a.t)
		}
		var err error
		if r, err = c.greatestStep(op, r, a, mask); err != nil {
			return val{}, err
		}
	}
	r.t = e.T
	return r, nil
}

// greatestStep is one step of greatest/least: a replaces the running
// result r where r is NULL or a compares better. Numerics of different
// scales compare at a common scale, and the result keeps the chosen
// value at its own scale (least(1.50, 2) is 1.50, least(2.0, 1) is 1), a
// scale that then varies by row.
func (c *compiler) greatestStep(op engine.Op, r, a val, mask int32) (val, error) {
	p := c.p
	varying := a.cls == clsDec && (a.scaleReg != 0 || r.scaleReg != 0 || a.scale != r.scale)
	ra, aa := r, a
	var err error
	if varying {
		if ra, aa, err = c.align(r, a, mask); err != nil {
			return val{}, err
		}
	}
	better, err := c.cmp(op, aa, ra, mask)
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
	out := r
	if out.reg, err = p.emit(opSel, a.reg, r.reg, take, mask, 0); err != nil {
		return val{}, err
	}
	if varying {
		sa, err := c.scaleOf(a)
		if err != nil {
			return val{}, err
		}
		sr, err := c.scaleOf(r)
		if err != nil {
			return val{}, err
		}
		if out.scaleReg, err = p.emit(opSel, sa, sr, take, mask, 0); err != nil {
			return val{}, err
		}
		out.scale = 0
	}
	out.width = max(r.width, a.width)
	return out, nil
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

// mathTime compiles the math functions with kernels (floor, ceil, trunc,
// sqrt and sign of a double; floor, ceil and trunc of a numeric) and the
// time functions in a constant zone: casts between timestamptz and
// timestamp or date, AT TIME ZONE, extract and date_trunc. A fixed
// offset (UTC) is a constant shift; a zone with transitions is searched
// in its table (OP_TZLOCAL, OP_TZUTC). ok is false for other calls.
func (c *compiler) mathTime(e *engine.Call, mask int32) (val, bool, error) {
	switch e.Op {
	case engine.OpFloor, engine.OpCeil, engine.OpTrunc, engine.OpSqrt:
	case engine.OpExp, engine.OpLn, engine.OpLog10, engine.OpCbrt, engine.OpPower:
		if e.T.Kind != engine.KindFloat64 {
			return val{}, false, nil // numerics: a host step (hoststep.go)
		}
		v, err := c.fmath(e, mask)
		return v, true, err
	case engine.OpSign:
		if e.T.Kind != engine.KindFloat64 {
			return val{}, false, nil // sign(numeric): sign() below
		}
	case engine.OpDateTrunc, engine.OpAtTimeZone:
	case engine.OpExtract:
		if len(e.Args) != 3 {
			return val{}, false, nil
		}
	case engine.OpCast:
		if len(e.Args) != 2 {
			return val{}, false, nil
		}
	default:
		return val{}, false, nil
	}
	v, err := c.mathTimeCall(e, mask)
	return v, true, err
}

func (c *compiler) mathTimeCall(e *engine.Call, mask int32) (val, error) {
	p := c.p
	switch e.Op {
	case engine.OpFloor, engine.OpCeil, engine.OpTrunc, engine.OpSqrt, engine.OpSign:
		x, err := c.compile(e.Args[0], mask)
		if err != nil {
			return val{}, err
		}
		if x.cls == clsF64 && len(e.Args) == 1 {
			code := map[engine.Op]int64{engine.OpFloor: 0, engine.OpCeil: 1, engine.OpTrunc: 2, engine.OpSqrt: 3, engine.OpSign: 4}[e.Op]
			r, err := p.emit(opMathF, x.reg, 0, 0, mask, code)
			return val{reg: r, cls: clsF64, t: e.T}, err
		}
		if x.cls != clsDec || e.Op == engine.OpSqrt || e.Op == engine.OpSign {
			return val{}, unsupported("%s(%s)", e.Op, x.t)
		}
		digits := int64(0)
		if len(e.Args) > 1 {
			k, ok := e.Args[1].(*engine.Const)
			if !ok || k.Null || k.I < -30 || k.I > 30 {
				return val{}, unsupported("%s() with these digits", e.Op)
			}
			digits = k.I
		}
		mode := map[engine.Op]int32{engine.OpTrunc: 0, engine.OpFloor: 1, engine.OpCeil: 2}[e.Op]
		out := val{cls: clsDec, t: e.T, reg: x.reg, scale: int32(max(digits, 0))}
		if x.scaleReg != 0 {
			// each row's scale: the kernel cuts (or extends) by it
			if out.reg, err = p.emit(opDIntegral, x.reg, x.scaleReg, mode, mask, -digits); err == nil && digits < 0 {
				out.reg, err = p.emit(opRescale, out.reg, 0, 0, mask, -digits)
			}
			return out, err
		}
		switch cut := int64(x.scale) - digits; {
		case cut < 0: // more digits than it has: trunc(1.5, 3) is 1.500
			out.reg, err = p.emit(opRescale, x.reg, 0, 0, mask, -cut)
		case cut > 0:
			if out.reg, err = p.emit(opDIntegral, x.reg, 0, mode, mask, cut); err == nil && digits < 0 {
				// trunc(1234.5, -2): the hundreds, back in units
				out.reg, err = p.emit(opRescale, out.reg, 0, 0, mask, -digits)
			}
		}
		return out, err
	case engine.OpCast:
		z, err := c.zone(e.Args[1])
		if err != nil {
			return val{}, err
		}
		x, err := c.compile(e.Args[0], mask)
		if err != nil {
			return val{}, err
		}
		from, to := x.t.Kind, e.T.Kind
		switch {
		case (from == engine.KindTimestamp || from == engine.KindDate) && to == engine.KindTimestampTZ:
			if from == engine.KindDate {
				if x, err = c.cast(x, engine.Timestamp, mask); err != nil {
					return val{}, err
				}
			}
			return c.toUTC(x, z, e.T, mask)
		case from == engine.KindTimestampTZ && (to == engine.KindTimestamp || to == engine.KindDate):
			l, err := c.toLocal(x, z, mask)
			if err != nil || to == engine.KindTimestamp {
				return l, err
			}
			return c.cast(l, engine.Date, mask)
		}
		return val{}, unsupported("casting %s to %s in a zone", x.t, e.T)
	case engine.OpAtTimeZone:
		z, err := c.zone(e.Args[1])
		if err != nil {
			return val{}, err
		}
		x, err := c.compile(e.Args[0], mask)
		if err != nil {
			return val{}, err
		}
		switch x.t.Kind {
		case engine.KindTimestampTZ:
			return c.toLocal(x, z, mask)
		case engine.KindTimestamp:
			return c.toUTC(x, z, e.T, mask)
		}
		return val{}, unsupported("AT TIME ZONE over %s", x.t)
	case engine.OpExtract:
		z, err := c.zone(e.Args[2])
		if err != nil {
			return val{}, err
		}
		k, ok := e.Args[0].(*engine.Const)
		if !ok || k.Null || strings.HasPrefix(k.S, "timezone") {
			return val{}, unsupported("extract() of a zone's fields")
		}
		x, err := c.compile(e.Args[1], mask)
		if err != nil {
			return val{}, err
		}
		l := x // the epoch counts from 1970-01-01 UTC in any zone
		l.t = engine.Timestamp
		if k.S != "epoch" {
			if l, err = c.toLocal(x, z, mask); err != nil {
				return val{}, err
			}
		}
		ee := *e
		ee.Args = []engine.Expr{e.Args[0], &engine.ColRef{T: engine.Timestamp}}
		return c.extract(&ee, l, mask)
	case engine.OpDateTrunc:
		k, ok := e.Args[0].(*engine.Const)
		if !ok || k.Null {
			return val{}, unsupported("date_trunc() with a non-constant unit")
		}
		unit, err := eval.CheckTruncUnit(k.S, e.Args[1].Type())
		if err != nil {
			return val{}, err
		}
		code, ok := dateTruncUnits[unit]
		if !ok {
			return val{}, unsupported("date_trunc(%s, %s)", unit, e.Args[1].Type())
		}
		if e.Args[1].Type().Kind == engine.KindInterval {
			return c.intervalTrunc(e, code, mask) // intv2.go
		}
		x, err := c.compile(e.Args[1], mask)
		if err != nil {
			return val{}, err
		}
		if x.t.Kind != engine.KindTimestamp && x.t.Kind != engine.KindTimestampTZ {
			return val{}, unsupported("date_trunc(%s, %s)", unit, x.t)
		}
		if len(e.Args) < 3 {
			r, err := p.emit(opDateTrunc, x.reg, 0, 0, mask, code)
			return val{reg: r, cls: clsI64, t: e.T}, err
		}
		z, err := c.zone(e.Args[2])
		if err != nil {
			return val{}, err
		}
		l, err := c.toLocal(x, z, mask)
		if err != nil {
			return val{}, err
		}
		r, err := p.emit(opDateTrunc, l.reg, 0, 0, mask, code)
		if err != nil {
			return val{}, err
		}
		tr := val{reg: r, cls: clsI64, t: engine.Timestamp}
		if code <= dateTruncUnits["hour"] {
			// below a day the offset stays the instant's own: x + (trunc - local)
			d, err := p.emit(opSubI, tr.reg, l.reg, 0, mask, rangeClass(engine.KindInt64))
			if err != nil {
				return val{}, err
			}
			tr.reg, err = p.emit(opAddI, x.reg, d, 0, mask, rangeClass(engine.KindInt64))
			tr.t = e.T
			return tr, err
		}
		return c.toUTC(tr, z, e.T, mask)
	}
	return val{}, unsupported("the operator %s", e.Op)
}

// dateTruncUnits numbers date_trunc's units as OP_DATETRUNC does.
var dateTruncUnits = map[string]int64{"microseconds": 0, "milliseconds": 1, "second": 2, "minute": 3, "hour": 4,
	"day": 5, "week": 6, "month": 7, "quarter": 8, "year": 9, "decade": 10, "century": 11, "millennium": 12}

// zoneArg is a constant zone argument on the device: a fixed offset, or
// the register of its transition table (tzTable).
type zoneArg struct {
	off   int32
	fixed bool
	tab   int32
}

func (c *compiler) zone(z engine.Expr) (zoneArg, error) {
	k, ok := z.(*engine.Const)
	if !ok || k.Null {
		return zoneArg{}, unsupported("a time zone that varies by row")
	}
	zone, err := engine.LookupZone(k.S)
	if err != nil {
		return zoneArg{}, err
	}
	if off, ok := zone.Fixed(); ok {
		return zoneArg{off: off, fixed: true}, nil
	}
	tab, ok := tzTable(zone)
	if !ok {
		return zoneArg{}, unsupported("the time zone %s on the GPU", k.S)
	}
	v, err := c.constant(&engine.Const{T: engine.Text, S: tab})
	return zoneArg{tab: v.reg}, err
}

var tzTables sync.Map // zone name → string (or "" where none)

// tzTable is the zone's transition table as OP_TZLOCAL and OP_TZUTC read
// it: little-endian int64s, the count n, the last second it is exact
// for, then n pairs of a start (Unix seconds) and the offset from then.
func tzTable(z *engine.Zone) (string, bool) {
	if v, ok := tzTables.Load(z.Name); ok {
		return v.(string), v.(string) != ""
	}
	starts, offs, limit, ok := z.Transitions()
	var b []byte
	if ok {
		b = binary.LittleEndian.AppendUint64(b, uint64(len(starts)))
		b = binary.LittleEndian.AppendUint64(b, uint64(limit))
		for i := range starts {
			b = binary.LittleEndian.AppendUint64(b, uint64(starts[i]))
			b = binary.LittleEndian.AppendUint64(b, uint64(int64(offs[i])))
		}
	}
	tzTables.Store(z.Name, string(b))
	return string(b), ok
}

// toLocal is the zone's wall-clock time of the timestamptz x.
func (c *compiler) toLocal(x val, z zoneArg, mask int32) (val, error) {
	if z.fixed {
		return c.shift(x, z.off, engine.Timestamp, mask)
	}
	r, err := c.p.emit(opTzLocal, x.reg, z.tab, 0, mask, 0)
	return val{reg: r, cls: clsI64, t: engine.Timestamp}, err
}

// toUTC is the instant of the zone's wall-clock time l, as type t.
func (c *compiler) toUTC(l val, z zoneArg, t engine.Type, mask int32) (val, error) {
	if z.fixed {
		return c.shift(l, -z.off, t, mask)
	}
	r, err := c.p.emit(opTzUTC, l.reg, z.tab, 0, mask, 0)
	return val{reg: r, cls: clsI64, t: t}, err
}

// shift adds off seconds to a timestamp register, as type t.
func (c *compiler) shift(x val, off int32, t engine.Type, mask int32) (val, error) {
	x.t = t
	if off == 0 {
		return x, nil
	}
	k, err := c.constant(&engine.Const{T: engine.Int64, I: int64(off) * 1_000_000})
	if err != nil {
		return val{}, err
	}
	x.reg, err = c.p.emit(opAddI, x.reg, k.reg, 0, mask, rangeClass(engine.KindInt64))
	return x, err
}

// fmath compiles exp, ln, log10, cbrt and power of doubles (OP_FMATH,
// the fmath section of query.cu: engine.FExp and the others, bit for
// bit, with eval.FloatMath's errors).
func (c *compiler) fmath(e *engine.Call, mask int32) (val, error) {
	code := map[engine.Op]int64{engine.OpExp: 0, engine.OpLn: 1, engine.OpLog10: 2, engine.OpCbrt: 3, engine.OpPower: 4}[e.Op]
	x, err := c.compile(e.Args[0], mask)
	if err != nil {
		return val{}, err
	}
	y := val{}
	if e.Op == engine.OpPower {
		if y, err = c.compile(e.Args[1], mask); err != nil {
			return val{}, err
		}
	}
	if x.cls != clsF64 || e.Op == engine.OpPower && y.cls != clsF64 {
		return val{}, unsupported("%s over %s", e.Op, x.t)
	}
	r, err := c.p.emit(opFMath, x.reg, y.reg, 0, mask, code)
	return val{reg: r, cls: clsF64, t: e.T}, err
}
