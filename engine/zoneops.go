package engine

// Which calls read wall-clock time in the session's TimeZone. The binder
// builds them without a zone (casts are made in many places that do not
// know the session); before a plan runs, the query layer appends the
// session's zone as a text constant (WithZone), so that backends see
// every zone as an argument and plans stay plain data. Constant folding
// leaves such calls alone until then.

// CastNeedsZone reports whether a cast from one type to another reads
// or writes wall-clock time: any cast between timestamptz and another
// type but itself.
func CastNeedsZone(from, to Type) bool {
	tz := func(t Type) bool { return t.Kind == KindTimestampTZ }
	return tz(from) != tz(to)
}

// zoneArgs is the number of arguments of each zone-dependent operator
// without its zone.
var zoneArgs = map[Op]int{
	OpCast: 1, OpExtract: 2, OpDateTrunc: 2, OpTsAddIntv: 2, OpTsSubIntv: 2,
	OpAge: 2, OpToChar: 2, OpToTimestamp: 2,
}

// NeedsZone reports whether c reads wall-clock time in the session's
// zone and has not been given it yet.
func NeedsZone(c *Call) bool {
	n, ok := zoneArgs[c.Op]
	if !ok || len(c.Args) != n {
		return false
	}
	switch c.Op {
	case OpCast:
		return CastNeedsZone(c.Args[0].Type(), c.T)
	case OpExtract, OpDateTrunc:
		return c.Args[1].Type().Kind == KindTimestampTZ
	case OpTsAddIntv, OpTsSubIntv:
		return c.T.Kind == KindTimestampTZ
	case OpAge, OpToChar:
		return c.Args[0].Type().Kind == KindTimestampTZ
	case OpToTimestamp:
		return true
	}
	return false
}

// WithZone returns c with zone (a text constant naming a zone, as
// Zone.Ref spells it) as its last argument.
func WithZone(c *Call, zone string) *Call {
	out := *c
	out.Args = append(append([]Expr(nil), c.Args...), &Const{T: Text, S: zone})
	return &out
}
