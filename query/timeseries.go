package query

import (
	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/eval"
)

// timeSeries is generate_series(start, stop, step interval) over
// timestamps and timestamptz (dates and unknown literals resolve to
// timestamptz, as PostgreSQL's preferred type of the group); ok is false for the integer
// forms. A timestamptz series adds the step in the session's TimeZone,
// so a day is 23 or 25 hours across a DST change.
func (b *binder) timeSeries(cs []*engine.Const) (*engine.Vec, bool, error) {
	isTime := func(k engine.Kind) bool {
		return k == engine.KindDate || k == engine.KindTimestamp || k == engine.KindTimestampTZ
	}
	timeArgs := false
	for _, c := range cs {
		timeArgs = timeArgs || isTime(c.T.Kind) || c.T.Kind == engine.KindInterval
	}
	if !timeArgs {
		return nil, false, nil
	}
	args := make([]engine.Expr, len(cs))
	for i, c := range cs {
		args[i] = c
	}
	if len(cs) != 3 {
		return nil, true, noFunc("generate_series", args)
	}
	k0, k1 := cs[0].T.Kind, cs[1].T.Kind
	for _, k := range []engine.Kind{k0, k1} {
		if k != engine.KindUnknown && !isTime(k) {
			return nil, true, noFunc("generate_series", args)
		}
	}
	var t engine.Type
	switch {
	case (k0 == engine.KindTimestamp || k1 == engine.KindTimestamp) && k0 != engine.KindTimestampTZ && k1 != engine.KindTimestampTZ:
		t = engine.Timestamp
	default:
		t = engine.TimestampTZ
	}
	conv := func(c *engine.Const, to engine.Type) (*engine.Const, error) {
		e, err := castTo(c, to)
		if err != nil {
			return nil, err
		}
		e = b.lowerConst(e)
		k, ok := e.(*engine.Const)
		if !ok {
			return nil, unsupported("generate_series over these arguments")
		}
		return k, nil
	}
	start, err := conv(cs[0], t)
	if err != nil {
		return nil, true, err
	}
	stop, err := conv(cs[1], t)
	if err != nil {
		return nil, true, err
	}
	if cs[2].T.Kind != engine.KindInterval && cs[2].T.Kind != engine.KindUnknown {
		return nil, true, noFunc("generate_series", args)
	}
	step, err := conv(cs[2], engine.Interval)
	if err != nil {
		return nil, true, err
	}
	v := &engine.Vec{T: t}
	if start.Null || stop.Null || step.Null {
		return v, true, nil
	}
	days, micros := step.V.Span()
	dir := 0
	switch {
	case days > 0 || days == 0 && micros > 0:
		dir = 1
	case days < 0:
		dir = -1
	}
	if dir == 0 {
		return nil, true, engine.Errorf(engine.CodeInvalidParameterValue, "step size cannot equal zero")
	}
	zone, err := engine.LookupZone("UTC")
	if err != nil {
		return nil, true, err
	}
	if t.Kind == engine.KindTimestampTZ {
		zone = b.clock().zone
	}
	for x := start.I; dir > 0 && x <= stop.I || dir < 0 && x >= stop.I; {
		if v.N >= maxHostRows {
			return nil, true, errTooManyRows("generate_series")
		}
		v.I = append(v.I, x)
		v.N++
		nx, ok := eval.TstzAddInterval(x, step.V, zone)
		if !ok {
			return nil, true, engine.Errorf(engine.CodeDatetimeFieldOverflow, "timestamp out of range")
		}
		x = nx
	}
	return v, true, nil
}
