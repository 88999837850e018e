package query

import "github.com/gpusql/gpusql/engine"

// formatFunc binds to_char, to_date, to_timestamp and to_number with
// PostgreSQL 15's signatures: to_char of a date formats it as a
// timestamptz (the preferred type it casts to), so in the session's
// zone; to_timestamp(text, text) reads wall-clock time in that zone.
func (b *binder) formatFunc(name string, args []engine.Expr) (engine.Expr, error) {
	text := func(x engine.Expr) (engine.Expr, bool) {
		if isUnknown(x) {
			c, err := castTo(x, engine.Text)
			return c, err == nil
		}
		if x.Type().IsString() {
			return x, true
		}
		return nil, false
	}
	call := func(op engine.Op, t engine.Type, as ...engine.Expr) (engine.Expr, error) {
		return fold(&engine.Call{Op: op, Args: as, T: t})
	}
	if name == "to_timestamp" && len(args) == 1 {
		x := args[0]
		if !x.Type().IsNumber() && !isUnknown(x) {
			return nil, noFunc(name, args)
		}
		f, err := castTo(x, engine.Float64)
		if err != nil {
			return nil, err
		}
		return call(engine.OpEpochToTs, engine.TimestampTZ, f)
	}
	if len(args) != 2 {
		return nil, noFunc(name, args)
	}
	f, ok := text(args[1])
	if !ok {
		return nil, noFunc(name, args)
	}
	switch name {
	case "to_char":
		x := args[0]
		switch k := x.Type().Kind; {
		case k == engine.KindUnknown:
			return nil, engine.Errorf(engine.CodeAmbiguousFunction, "function to_char(unknown, unknown) is not unique").
				WithHint("Could not choose a best candidate function. You might need to add explicit type casts.")
		case k == engine.KindDate:
			c, err := castTo(x, engine.TimestampTZ)
			if err != nil {
				return nil, err
			}
			x = c
		case k == engine.KindTimestamp || k == engine.KindTimestampTZ || x.Type().IsNumber():
		case k == engine.KindInterval || k == engine.KindTime:
			return nil, unsupported("to_char(%s, text) is not supported by gpusql", x.Type())
		default:
			return nil, noFunc(name, args)
		}
		return call(engine.OpToChar, engine.Text, x, f)
	case "to_date", "to_timestamp", "to_number":
		s, ok := text(args[0])
		if !ok {
			return nil, noFunc(name, args)
		}
		switch name {
		case "to_date":
			return call(engine.OpToDate, engine.Date, s, f)
		case "to_timestamp":
			return call(engine.OpToTimestamp, engine.TimestampTZ, s, f)
		}
		return call(engine.OpToNumber, engine.Numeric, s, f)
	}
	return nil, noFunc(name, args)
}
