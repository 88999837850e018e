package query

import (
	"strings"
	"time"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/eval"
)

// The binding of the time functions and of timestamptz and time
// arithmetic (docs/sql.md). Calls that read wall-clock time in the
// session's TimeZone are built without the zone; lowerZones
// (timezone.go) gives it to them before the plan runs.

// timeArith resolves arithmetic involving timestamptz or time; ok is
// false when neither side is one.
func (b *binder) timeArith(op opcode.Op, l, r engine.Expr) (engine.Expr, bool, error) {
	lt, rt := l.Type(), r.Type()
	is := func(t engine.Type, k engine.Kind) bool { return t.Kind == k }
	tz, tm := engine.KindTimestampTZ, engine.KindTime
	if !is(lt, tz) && !is(rt, tz) && !is(lt, tm) && !is(rt, tm) {
		return nil, false, nil
	}
	mk := func(o engine.Op, t engine.Type, args ...engine.Expr) (engine.Expr, bool, error) {
		e, err := fold(&engine.Call{Op: o, Args: args, T: t})
		return e, true, err
	}
	cast := func(x engine.Expr, t engine.Type) engine.Expr {
		c, err := castTo(x, t)
		if err != nil {
			return x
		}
		return c
	}
	stamp := func(t engine.Type) bool {
		return t.Kind == engine.KindDate || t.Kind == engine.KindTimestamp || t.Kind == engine.KindTimestampTZ
	}
	iv := engine.KindInterval
	plus, minus := op == opcode.Plus, op == opcode.Minus
	switch {
	case (plus || minus) && is(lt, tz) && is(rt, iv):
		o := engine.OpTsAddIntv
		if minus {
			o = engine.OpTsSubIntv
		}
		return mk(o, engine.TimestampTZ, l, r)
	case plus && is(lt, iv) && is(rt, tz):
		return mk(engine.OpTsAddIntv, engine.TimestampTZ, r, l)
	case minus && stamp(lt) && stamp(rt):
		return mk(engine.OpTsDiff, engine.Interval, cast(l, engine.TimestampTZ), cast(r, engine.TimestampTZ))
	case (plus || minus) && is(lt, tm) && is(rt, iv):
		o := engine.OpTimeAddIntv
		if minus {
			o = engine.OpTimeSubIntv
		}
		return mk(o, engine.Time, l, r)
	case plus && is(lt, iv) && is(rt, tm):
		return mk(engine.OpTimeAddIntv, engine.Time, r, l)
	case minus && is(lt, tm) && is(rt, tm):
		return mk(engine.OpTimeDiff, engine.Interval, l, r)
	case plus && is(lt, engine.KindDate) && is(rt, tm):
		return mk(engine.OpDateAddTime, engine.Timestamp, l, r)
	case plus && is(lt, tm) && is(rt, engine.KindDate):
		return mk(engine.OpDateAddTime, engine.Timestamp, r, l)
	}
	return nil, true, noOperator(op, lt, rt)
}

// noFunc is PostgreSQL's error for a function without a matching
// signature.
func noFunc(name string, args []engine.Expr) error {
	ts := make([]string, len(args))
	for i, a := range args {
		ts[i] = a.Type().String()
	}
	return engine.Errorf(engine.CodeUndefinedFunction, "function %s(%s) does not exist", name, strings.Join(ts, ", ")).
		WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
}

// argAs casts a function argument to t where PostgreSQL would cast it
// implicitly: unknown literals, integers to wider integers or to
// numeric and floats, numerics to floats, dates to timestamps, and
// timestamps to timestamptz; ok is false otherwise.
func argAs(x engine.Expr, t engine.Type) (engine.Expr, bool) {
	xt := x.Type()
	ok := xt.Kind == t.Kind || isUnknown(x)
	switch {
	case ok:
	case t.IsInteger() && xt.IsInteger():
		ok = xt.StorageWidth() <= t.StorageWidth()
	case t.Kind == engine.KindNumeric:
		ok = xt.IsInteger()
	case t.IsFloat():
		ok = xt.IsNumber()
	case t.Kind == engine.KindTimestamp:
		ok = xt.Kind == engine.KindDate
	case t.Kind == engine.KindTimestampTZ:
		ok = xt.Kind == engine.KindDate || xt.Kind == engine.KindTimestamp
	case t.Kind == engine.KindText:
		ok = xt.IsString()
	}
	if !ok {
		return nil, false
	}
	if xt.Kind == t.Kind && !isUnknown(x) && (t.Kind == engine.KindText || t.IsTimeKind() || t.Kind == engine.KindNumeric) {
		return x, true
	}
	c, err := castTo(x, t)
	if err != nil {
		return nil, false
	}
	return c, true
}

// stampArg resolves a timestamp-like argument of a function that has
// timestamp and timestamptz forms: timestamps stay, dates and unknown
// literals become timestamptz (PostgreSQL's preferred type).
func stampArg(x engine.Expr) (engine.Expr, bool) {
	switch x.Type().Kind {
	case engine.KindTimestamp, engine.KindTimestampTZ:
		return x, true
	case engine.KindDate, engine.KindUnknown:
		return argAs(x, engine.TimestampTZ)
	}
	return nil, false
}

// constText is a text constant's value.
func constText(x engine.Expr) (string, bool) {
	c, ok := x.(*engine.Const)
	if !ok || c.Null || !c.T.IsString() {
		return "", false
	}
	return c.S, true
}

// zoneArg resolves the zone argument of AT TIME ZONE, timezone(),
// date_trunc() and make_timestamptz(): text, or an interval (a fixed
// offset east of UTC). A constant is checked now.
func zoneArg(z engine.Expr) (engine.Expr, error) {
	if z.Type().Kind == engine.KindInterval {
		c, ok := z.(*engine.Const)
		if !ok {
			return nil, unsupported("a time zone given as an interval that is not a constant is not supported by gpusql")
		}
		if c.Null {
			return &engine.Const{T: engine.Text, Null: true}, nil
		}
		if c.V.Months != 0 || c.V.Days != 0 {
			return nil, engine.Errorf(engine.CodeInvalidParameterValue, "interval time zone %q must not include months or days", string(engine.AppendInterval(nil, c.V)))
		}
		return &engine.Const{T: engine.Text, S: engine.FixedZone(int32(c.V.Micros / 1_000_000)).Ref()}, nil
	}
	z, ok := argAs(z, engine.Text)
	if !ok {
		return nil, engine.Errorf(engine.CodeUndefinedFunction, "function timezone(%s) does not exist", z.Type())
	}
	if name, ok := constText(z); ok {
		if _, err := engine.LookupZone(name); err != nil {
			return nil, err
		}
	}
	return z, nil
}

// atTimeZone binds x AT TIME ZONE zone.
func (b *binder) atTimeZone(x, z engine.Expr) (engine.Expr, error) {
	z, err := zoneArg(z)
	if err != nil {
		return nil, err
	}
	var t engine.Type
	switch x.Type().Kind {
	case engine.KindTimestamp:
		t = engine.TimestampTZ
	case engine.KindTimestampTZ:
		t = engine.Timestamp
	case engine.KindDate, engine.KindUnknown:
		if x, err = castTo(x, engine.TimestampTZ); err != nil {
			return nil, err
		}
		t = engine.Timestamp
	case engine.KindTime:
		return nil, unsupported("time with time zone is not supported by gpusql")
	default:
		return nil, engine.Errorf(engine.CodeUndefinedFunction, "function timezone(%s, %s) does not exist", z.Type(), x.Type())
	}
	return fold(&engine.Call{Op: engine.OpAtTimeZone, Args: []engine.Expr{x, z}, T: t})
}

// precisionArg reads the optional precision of current_timestamp(p)
// and friends.
func (b *binder) precisionArg(n *ast.FuncCallExpr) (int, bool, error) {
	if len(n.Args) == 0 {
		return 6, false, nil
	}
	if len(n.Args) > 1 {
		return 0, false, engine.Errorf(engine.CodeSyntaxError, "syntax error at or near \",\"")
	}
	x, err := b.expr(n.Args[0])
	if err != nil {
		return 0, false, err
	}
	c, ok := x.(*engine.Const)
	if !ok || c.Null || !c.T.IsInteger() {
		return 0, false, engine.Errorf(engine.CodeSyntaxError, "syntax error: the precision of %s must be an integer constant", n.FnName.L)
	}
	if c.I < 0 {
		return 0, false, engine.Errorf(engine.CodeInvalidParameterValue, "%s(%d) precision must not be negative", strings.ToUpper(n.FnName.L), c.I)
	}
	return int(min(c.I, 6)), true, nil
}

// timeFunc binds the time functions; ok is false for other names.
func (b *binder) timeFunc(n *ast.FuncCallExpr) (engine.Expr, bool, error) {
	name := n.FnName.L
	switch name {
	case "now", "current_timestamp", "transaction_timestamp", "statement_timestamp", "clock_timestamp",
		"localtimestamp", "current_date", "localtime", "current_time":
		e, err := b.clockFunc(n)
		return e, true, err
	case "__gpusql_at_zone", "timezone", "date_trunc", "date_part", "date_bin", "age", "justify_days",
		"justify_hours", "justify_interval", "make_date", "make_time", "make_timestamp", "make_timestamptz",
		"make_interval", "to_char", "to_date", "to_timestamp", "to_number", "isfinite":
	default:
		return nil, false, nil
	}
	var args []engine.Expr
	named := map[string]engine.Expr{}
	for _, a := range n.Args {
		if f, ok := a.(*ast.FuncCallExpr); ok && f.FnName.L == "__gpusql_named" && len(f.Args) == 2 {
			key, err := stringArg(f.Args[0])
			if err != nil {
				return nil, true, err
			}
			v, err := b.expr(f.Args[1])
			if err != nil {
				return nil, true, err
			}
			named[strings.ToLower(key)] = v
			continue
		}
		if len(named) > 0 {
			return nil, true, engine.Errorf(engine.CodeSyntaxError, "positional argument cannot follow named argument")
		}
		e, err := b.expr(a)
		if err != nil {
			return nil, true, err
		}
		args = append(args, e)
	}
	if len(named) > 0 && name != "make_interval" {
		return nil, true, unsupported("named arguments are supported by gpusql only in make_interval()")
	}
	e, err := b.timeCall(name, args, named)
	return e, true, err
}

// clockFunc binds now() and the other clock readings: the statement's
// clock (timezone.go), constants while the statement runs.
func (b *binder) clockFunc(n *ast.FuncCallExpr) (engine.Expr, error) {
	c := b.clock()
	name := n.FnName.L
	p, hasP, err := b.precisionArg(n)
	if err != nil {
		return nil, err
	}
	switch name {
	case "current_time":
		return nil, unsupported("current_time (time with time zone) is not supported by gpusql; use localtime or current_timestamp")
	case "now", "transaction_timestamp", "statement_timestamp", "clock_timestamp", "current_date":
		if len(n.Args) > 0 {
			return nil, engine.Errorf(engine.CodeUndefinedFunction, "function %s(integer) does not exist", name)
		}
	}
	at := c.tx
	switch name {
	case "statement_timestamp":
		at = c.stmt
	case "clock_timestamp":
		// read once: gpusql evaluates it when the statement is bound,
		// not at each row as PostgreSQL does
		at = max(time.Now().UnixMicro(), c.stmt)
	}
	out := &engine.Const{T: engine.TimestampTZ, I: at}
	switch name {
	case "localtimestamp":
		out = &engine.Const{T: engine.Timestamp, I: c.zone.ToLocal(at)}
	case "current_date":
		out = &engine.Const{T: engine.Date, I: floorDivUs(c.zone.ToLocal(at), usPerDay)}
	case "localtime":
		l := c.zone.ToLocal(at)
		out = &engine.Const{T: engine.Time, I: l - floorDivUs(l, usPerDay)*usPerDay}
	}
	if hasP {
		return castTo(out, out.T.WithTimePrec(p))
	}
	return out, nil
}

const usPerDay = 86_400_000_000

func floorDivUs(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// timeCall binds a time function over its bound arguments.
func (b *binder) timeCall(name string, args []engine.Expr, named map[string]engine.Expr) (engine.Expr, error) {
	want := func(lo, hi int) error {
		if len(args) < lo || len(args) > hi {
			return noFunc(name, args)
		}
		return nil
	}
	call := func(op engine.Op, t engine.Type, a ...engine.Expr) (engine.Expr, error) {
		return fold(&engine.Call{Op: op, Args: a, T: t})
	}
	// typed casts args[i] to t or fails as a missing function
	typed := func(ts ...engine.Type) ([]engine.Expr, error) {
		out := make([]engine.Expr, len(args))
		for i, a := range args {
			c, ok := argAs(a, ts[i])
			if !ok {
				return nil, noFunc(name, args)
			}
			out[i] = c
		}
		return out, nil
	}
	switch name {
	case "__gpusql_at_zone":
		return b.atTimeZone(args[0], args[1])
	case "timezone":
		if err := want(2, 2); err != nil {
			return nil, err
		}
		return b.atTimeZone(args[1], args[0])
	case "date_trunc":
		if err := want(2, 3); err != nil {
			return nil, err
		}
		unit, ok := constText(args[0])
		if !ok {
			return nil, unsupported("date_trunc() with a unit that is not a constant is not supported by gpusql")
		}
		x := args[1]
		if x.Type().Kind != engine.KindInterval {
			var ok bool
			if x, ok = stampArg(x); !ok {
				return nil, noFunc(name, args)
			}
		}
		if len(args) == 3 {
			var ok bool
			if x, ok = argAs(x, engine.TimestampTZ); !ok {
				return nil, noFunc(name, args)
			}
		}
		u, err := eval.CheckTruncUnit(strings.ToLower(unit), x.Type())
		if err != nil {
			return nil, err
		}
		out := []engine.Expr{&engine.Const{T: engine.Text, S: u}, x}
		if len(args) == 3 {
			z, err := zoneArg(args[2])
			if err != nil {
				return nil, err
			}
			out = append(out, z)
		}
		return call(engine.OpDateTrunc, engine.Type{Kind: x.Type().Kind}, out...)
	case "date_part":
		if err := want(2, 2); err != nil {
			return nil, err
		}
		field, ok := constText(args[0])
		if !ok {
			return nil, unsupported("date_part() with a field that is not a constant is not supported by gpusql")
		}
		x := args[1]
		if x.Type().Kind == engine.KindDate {
			// date_part(text, date) is date_part(text, timestamp)
			x, _ = castTo(x, engine.Timestamp)
		}
		return b.extractCall(strings.ToLower(field), x, true)
	case "date_bin":
		if err := want(3, 3); err != nil {
			return nil, err
		}
		st, ok := argAs(args[0], engine.Interval)
		if !ok {
			return nil, noFunc(name, args)
		}
		t := engine.TimestampTZ
		if args[1].Type().Kind == engine.KindTimestamp || isUnknown(args[1]) && args[2].Type().Kind == engine.KindTimestamp {
			t = engine.Timestamp
		}
		src, ok1 := argAs(args[1], t)
		org, ok2 := argAs(args[2], t)
		if !ok1 || !ok2 {
			return nil, noFunc(name, args)
		}
		return call(engine.OpDateBin, t, st, src, org)
	case "age":
		if err := want(1, 2); err != nil {
			return nil, err
		}
		if len(args) == 1 {
			x, ok := stampArg(args[0])
			if !ok {
				return nil, noFunc(name, args)
			}
			// age(x) is age(current_date, x), midnight of today
			c := b.clock()
			today := floorDivUs(c.zone.ToLocal(c.tx), usPerDay) * usPerDay
			var first engine.Expr = &engine.Const{T: engine.Timestamp, I: today}
			if x.Type().Kind == engine.KindTimestampTZ {
				first = &engine.Const{T: engine.TimestampTZ, I: c.zone.FromLocal(today)}
			}
			return call(engine.OpAge, engine.Interval, first, x)
		}
		t := engine.TimestampTZ
		if args[0].Type().Kind == engine.KindTimestamp && args[1].Type().Kind != engine.KindTimestampTZ ||
			args[1].Type().Kind == engine.KindTimestamp && args[0].Type().Kind != engine.KindTimestampTZ {
			t = engine.Timestamp
		}
		a, ok1 := argAs(args[0], t)
		c, ok2 := argAs(args[1], t)
		if !ok1 || !ok2 {
			return nil, noFunc(name, args)
		}
		return call(engine.OpAge, engine.Interval, a, c)
	case "justify_days", "justify_hours", "justify_interval":
		if err := want(1, 1); err != nil {
			return nil, err
		}
		a, err := typed(engine.Interval)
		if err != nil {
			return nil, err
		}
		op := map[string]engine.Op{"justify_days": engine.OpJustifyDays, "justify_hours": engine.OpJustifyHours,
			"justify_interval": engine.OpJustifyInterval}[name]
		return call(op, engine.Interval, a...)
	case "make_date":
		if err := want(3, 3); err != nil {
			return nil, err
		}
		a, err := typed(engine.Int32, engine.Int32, engine.Int32)
		if err != nil {
			return nil, err
		}
		return call(engine.OpMakeDate, engine.Date, a...)
	case "make_time":
		if err := want(3, 3); err != nil {
			return nil, err
		}
		a, err := typed(engine.Int32, engine.Int32, engine.Float64)
		if err != nil {
			return nil, err
		}
		return call(engine.OpMakeTime, engine.Time, a...)
	case "make_timestamp", "make_timestamptz":
		hi := 6
		if name == "make_timestamptz" {
			hi = 7
		}
		if err := want(6, hi); err != nil {
			return nil, err
		}
		zone := args[6:]
		args = args[:6]
		a, err := typed(engine.Int32, engine.Int32, engine.Int32, engine.Int32, engine.Int32, engine.Float64)
		if err != nil {
			return nil, err
		}
		ts, err := call(engine.OpMakeTimestamp, engine.Timestamp, a...)
		if err != nil || name == "make_timestamp" {
			return ts, err
		}
		if len(zone) == 1 {
			return b.atTimeZone(ts, zone[0])
		}
		return castTo(ts, engine.TimestampTZ)
	case "make_interval":
		params := []string{"years", "months", "weeks", "days", "hours", "mins", "secs"}
		if len(args) > len(params) {
			return nil, noFunc(name, args)
		}
		full := make([]engine.Expr, len(params))
		for i, p := range params {
			t := engine.Int32
			if p == "secs" {
				t = engine.Float64
			}
			var x engine.Expr = &engine.Const{T: t}
			if i < len(args) {
				x = args[i]
			}
			if v, ok := named[p]; ok {
				if i < len(args) {
					return nil, engine.Errorf(engine.CodeSyntaxError, "argument name %q used more than once", p)
				}
				x = v
				delete(named, p)
			}
			c, ok := argAs(x, t)
			if !ok {
				return nil, noFunc(name, args)
			}
			full[i] = c
		}
		for k := range named {
			return nil, engine.Errorf(engine.CodeUndefinedFunction, "function make_interval(%s => ...) does not exist", k)
		}
		return call(engine.OpMakeInterval, engine.Interval, full...)
	case "isfinite":
		if err := want(1, 1); err != nil {
			return nil, err
		}
		switch args[0].Type().Kind {
		case engine.KindDate, engine.KindTimestamp, engine.KindTimestampTZ, engine.KindInterval:
			// gpusql holds no infinite values
			return &engine.Call{Op: engine.OpIsNotNull, Args: []engine.Expr{args[0]}, T: engine.Bool}, nil
		}
		return nil, noFunc(name, args)
	case "to_char", "to_date", "to_timestamp", "to_number":
		return b.formatFunc(name, args)
	}
	return nil, noFunc(name, args)
}

// extractCall binds extract(field FROM x) (numeric) and, with asFloat,
// date_part(field, x) (double precision).
func (b *binder) extractCall(field string, x engine.Expr, asFloat bool) (engine.Expr, error) {
	var err error
	if isUnknown(x) {
		if x, err = castTo(x, engine.TimestampTZ); err != nil {
			return nil, err
		}
	}
	k := x.Type().Kind
	switch k {
	case engine.KindDate, engine.KindTimestamp, engine.KindTimestampTZ, engine.KindTime, engine.KindInterval:
	default:
		fn := "extract(unknown, %s)"
		if asFloat {
			fn = "date_part(unknown, %s)"
		}
		return nil, engine.Errorf(engine.CodeUndefinedFunction, "function "+fn+" does not exist", x.Type())
	}
	if f, ok := eval.Units[field]; ok {
		field = f
	}
	t := engine.Numeric
	if asFloat {
		t = engine.Float64
	}
	c := &engine.Call{Op: engine.OpExtract, Args: []engine.Expr{&engine.Const{T: engine.Text, S: field}, x}, T: t}
	// an unknown or unsupported field fails now, as over any row
	probe := *c
	probe.Args = []engine.Expr{c.Args[0], &engine.Const{T: x.Type(), I: 0}}
	if k == engine.KindInterval {
		probe.Args[1] = &engine.Const{T: x.Type()}
	}
	if k == engine.KindTimestampTZ {
		probe.Args = append(probe.Args, &engine.Const{T: engine.Text, S: "UTC"})
	}
	if _, err := fold(&probe); err != nil {
		return nil, err
	}
	return fold(c)
}
