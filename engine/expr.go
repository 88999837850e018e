package engine

import (
	"fmt"
	"strings"
)

// Expr is a bound, typed expression: plain immutable data that a backend
// compiles or interprets. Operands have already been coerced by the
// binder, so a backend never resolves types.
type Expr interface {
	Type() Type
	String() string
}

// ColRef reads column Idx of the operator's input.
type ColRef struct {
	Idx  int
	Name string
	T    Type
}

// Const is a constant. Null consts have T set to the context's type.
type Const struct {
	T    Type
	Null bool
	I    int64 // bool, integers, dates, timestamps
	F    float64
	D    Dec
	S    string
	V    IntervalVal
}

// Call applies an operator or function to its arguments.
type Call struct {
	Op   Op
	Args []Expr
	T    Type
}

// Case is CASE WHEN c1 THEN r1 ... ELSE e END. Else is never nil (the
// binder supplies a NULL constant).
type Case struct {
	Conds   []Expr
	Results []Expr
	Else    Expr
	T       Type
}

// HostFunc is a function implemented in Go over whole vectors: the
// PostgreSQL catalog functions (format_type, pg_get_userbyid, ...) that
// only make sense over the system relations. Only the host evaluator runs
// it; a device backend refuses a plan containing one. Fn gets the
// evaluated arguments (n rows each) and returns an n-row vector of type T.
// Fn may fail (for example on an unknown OID); its error is returned.
type HostFunc struct {
	Name string
	Args []Expr
	T    Type
	Fn   func(args []*Vec, n int) (*Vec, error)
	// Parallel: Fn keeps no state between calls and may run on several
	// goroutines at once, over parts of the rows.
	Parallel bool
}

var (
	_ Expr = (*ColRef)(nil)
	_ Expr = (*Const)(nil)
	_ Expr = (*Call)(nil)
	_ Expr = (*Case)(nil)
	_ Expr = (*HostFunc)(nil)
)

func (h *HostFunc) Type() Type { return h.T }

func (h *HostFunc) String() string {
	args := make([]string, len(h.Args))
	for i, a := range h.Args {
		args[i] = a.String()
	}
	return fmt.Sprintf("%s(%s)", h.Name, strings.Join(args, ", "))
}

func (c *ColRef) Type() Type { return c.T }
func (c *Const) Type() Type  { return c.T }
func (c *Call) Type() Type   { return c.T }
func (c *Case) Type() Type   { return c.T }

func (c *ColRef) String() string { return fmt.Sprintf("#%d(%s)", c.Idx, c.Name) }

func (c *Const) String() string {
	if c.Null {
		return "NULL::" + c.T.String()
	}
	v := &Vec{T: c.T, N: 1}
	switch PhysOf(c.T.Kind) {
	case PhysInt:
		v.I = []int64{c.I}
	case PhysFloat:
		v.F = []float64{c.F}
	case PhysDec:
		v.D = []Dec{c.D}
	case PhysStr:
		v.S = [][]byte{[]byte(c.S)}
	case PhysInterval:
		v.V = []IntervalVal{c.V}
	}
	return "'" + string(AppendText(nil, v, 0)) + "'::" + c.T.String()
}

func (c *Call) String() string {
	args := make([]string, len(c.Args))
	for i, a := range c.Args {
		args[i] = a.String()
	}
	return fmt.Sprintf("%s(%s)", c.Op, strings.Join(args, ", "))
}

func (c *Case) String() string {
	var b strings.Builder
	b.WriteString("CASE")
	for i := range c.Conds {
		fmt.Fprintf(&b, " WHEN %s THEN %s", c.Conds[i], c.Results[i])
	}
	fmt.Fprintf(&b, " ELSE %s END", c.Else)
	return b.String()
}

// Op is an operator or scalar function.
type Op uint8

const (
	OpInvalid Op = iota
	// Arithmetic on two operands of the result type (numeric operands may
	// differ in scale). Integer overflow and division by zero are errors.
	OpAdd
	OpSub
	OpMul
	OpDiv
	OpMod
	OpNeg
	// Date and time arithmetic.
	OpDateAddInt // date + int4 → date
	OpDateSubInt // date - int4 → date
	OpDateDiff   // date - date → int4
	OpTsAddIntv  // timestamp + interval → timestamp
	OpTsSubIntv  // timestamp - interval → timestamp
	OpTsDiff     // timestamp - timestamp → interval
	OpIntvAdd    // interval + interval
	OpIntvSub    // interval - interval
	OpIntvNeg    // -interval
	// Comparisons of two operands of one type; result boolean.
	OpEq
	OpNe
	OpLt
	OpLe
	OpGt
	OpGe
	// Boolean logic, three-valued.
	OpAnd
	OpOr
	OpNot
	OpIsNull
	OpIsNotNull
	OpIsTrue     // x IS TRUE
	OpIsFalse    // x IS FALSE
	OpIsDistinct // a IS DISTINCT FROM b (never NULL)
	OpIn         // Args[0] IN (Args[1:]...), all the same type
	OpLike       // Args[0] LIKE Args[1] [ESCAPE Args[2]]
	OpILike      // case-insensitive LIKE (ASCII folding, as in the C locale)
	// Casts: Args[0] converted to T.
	OpCast
	// String functions.
	OpLength // character count → int4
	OpUpper  // ASCII case mapping, as PostgreSQL in the C locale
	OpLower
	OpSubstr  // substring(s, start [, count]) by characters
	OpConcat  // s1 || s2
	OpExtract // extract(field FROM x): Args[0] is a text Const naming the field
	OpAbs
	OpRound // round(x [, digits])
	OpCoalesce
	OpNullIf
	OpPadChar // a char(n) value with its blank padding, as text (LIKE sees the padding)
	// Args[0] ~ Args[1]: POSIX regular expression match (Go's RE2 syntax;
	// see docs/sql.md). Args[2] is a text Const of flags: "" or "i" (~*).
	OpRegexMatch

	// Time zones and time functions (docs/sql.md). A zone argument is a
	// text value that LookupZone resolves; where a function of a
	// timestamptz reads wall-clock time in the session's TimeZone, the
	// binder passes that zone as the last argument (NeedsZone).
	OpAtTimeZone      // x AT TIME ZONE Args[1]: timestamptz → timestamp, timestamp → timestamptz
	OpDateTrunc       // date_trunc(Args[0] unit Const, x [, zone])
	OpDateBin         // date_bin(stride, source, origin)
	OpAge             // age(a, b [, zone]) → interval
	OpJustifyDays     // justify_days(interval)
	OpJustifyHours    // justify_hours(interval)
	OpJustifyInterval // justify_interval(interval)
	OpMakeDate        // make_date(year, month, day)
	OpMakeTimestamp   // make_timestamp(year, month, day, hour, min, sec float8)
	OpMakeInterval    // make_interval(years, months, weeks, days, hours, mins, secs float8)
	OpMakeTime        // make_time(hour, min, sec float8)
	OpToChar          // to_char(x, format [, zone])
	OpToDate          // to_date(text, format)
	OpToTimestamp     // to_timestamp(text, format [, zone]) → timestamptz
	OpEpochToTs       // to_timestamp(float8 seconds since 1970) → timestamptz
	OpToNumber        // to_number(text, format) → numeric
	OpTimeAddIntv     // time + interval → time (the interval's time part, modulo a day)
	OpTimeSubIntv     // time - interval → time
	OpTimeDiff        // time - time → interval
	OpDateAddTime     // date + time → timestamp

	// Math functions over integers, numerics and floats.
	OpFloor
	OpCeil
	OpTrunc       // trunc(x [, digits])
	OpSign        // sign(x)
	OpSqrt        // sqrt(x)
	OpCbrt        // cbrt(float8)
	OpExp         // exp(x)
	OpLn          // ln(x)
	OpLog10       // log(x), log10(x)
	OpLogBase     // log(base, x) (numeric)
	OpPower       // power(a, b)
	OpWidthBucket // width_bucket(x, lo, hi, count)
	OpGreatest    // greatest(a, ...): the largest non-NULL value
	OpLeast       // least(a, ...)
	OpDivTrunc    // div(a, b): the integer quotient, truncated (numeric)
	OpRandom      // random(): a double in [0, 1), new for every row
)

var opNames = [...]string{
	OpInvalid: "invalid", OpAdd: "add", OpSub: "sub", OpMul: "mul", OpDiv: "div", OpMod: "mod",
	OpNeg: "neg", OpDateAddInt: "date_add_int", OpDateSubInt: "date_sub_int", OpDateDiff: "date_diff",
	OpTsAddIntv: "ts_add_interval", OpTsSubIntv: "ts_sub_interval", OpTsDiff: "ts_diff",
	OpIntvAdd: "interval_add", OpIntvSub: "interval_sub", OpIntvNeg: "interval_neg",
	OpEq: "eq", OpNe: "ne", OpLt: "lt", OpLe: "le", OpGt: "gt", OpGe: "ge",
	OpAnd: "and", OpOr: "or", OpNot: "not", OpIsNull: "is_null", OpIsNotNull: "is_not_null",
	OpIsTrue: "is_true", OpIsFalse: "is_false",
	OpIsDistinct: "is_distinct", OpIn: "in", OpLike: "like", OpILike: "ilike", OpCast: "cast",
	OpLength: "length", OpUpper: "upper", OpLower: "lower", OpSubstr: "substring",
	OpConcat: "concat", OpExtract: "extract", OpAbs: "abs", OpRound: "round",
	OpCoalesce: "coalesce", OpNullIf: "nullif", OpPadChar: "pad_char", OpRegexMatch: "regex_match",
	OpAtTimeZone: "timezone", OpDateTrunc: "date_trunc", OpDateBin: "date_bin", OpAge: "age",
	OpJustifyDays: "justify_days", OpJustifyHours: "justify_hours", OpJustifyInterval: "justify_interval",
	OpMakeDate: "make_date", OpMakeTimestamp: "make_timestamp", OpMakeInterval: "make_interval",
	OpMakeTime: "make_time", OpToChar: "to_char", OpToDate: "to_date", OpToTimestamp: "to_timestamp",
	OpEpochToTs: "to_timestamp", OpToNumber: "to_number", OpTimeAddIntv: "time_add_interval",
	OpTimeSubIntv: "time_sub_interval", OpTimeDiff: "time_diff", OpDateAddTime: "date_add_time",
	OpFloor: "floor", OpCeil: "ceil", OpTrunc: "trunc", OpSign: "sign", OpSqrt: "sqrt", OpCbrt: "cbrt",
	OpExp: "exp", OpLn: "ln", OpLog10: "log10", OpLogBase: "log", OpPower: "power", OpWidthBucket: "width_bucket",
	OpGreatest: "greatest", OpLeast: "least", OpDivTrunc: "div", OpRandom: "random",
}

func (o Op) String() string {
	if int(o) < len(opNames) && opNames[o] != "" {
		return opNames[o]
	}
	return fmt.Sprintf("op%d", o)
}

// AggFunc is an aggregate function.
type AggFunc uint8

const (
	AggCountStar AggFunc = iota
	AggCount
	AggSum
	AggAvg
	AggMin
	AggMax
	// AggStringAgg is string_agg(text, delimiter text [ORDER BY ...]):
	// the non-NULL values joined, each but the first preceded by its own
	// row's delimiter (none where that is NULL), in Order's order (input
	// order without one; sorted by value and delimiter for DISTINCT).
	AggStringAgg
	// Statistics over exact sums of the values, their squares and their
	// products (eval.StatAcc), finished as PostgreSQL's final functions:
	// one argument (Arg) for the variances and standard deviations, two
	// (Arg is Y, Arg2 is X, in PostgreSQL's order) for the others.
	AggVarPop
	AggVarSamp
	AggStddevPop
	AggStddevSamp
	AggCovarPop
	AggCovarSamp
	AggCorr
	AggRegrSlope
	AggRegrIntercept
	AggRegrR2
	AggRegrSXX
	AggRegrSYY
	AggRegrSXY
	// Ordered-set aggregates over Arg's non-NULL values sorted by Order
	// (one key, Arg itself): Arg2 is the fraction, a constant double
	// (eval.PercentileCont, ...).
	AggPercentileCont
	AggPercentileDisc
	AggMode
)

// Mirrored is the comparison that gives the same answer with its
// operands swapped: "x < y" is "y > x". Other operators are their own.
func (o Op) Mirrored() Op {
	switch o {
	case OpLt:
		return OpGt
	case OpLe:
		return OpGe
	case OpGt:
		return OpLt
	case OpGe:
		return OpLe
	}
	return o
}

func (a AggFunc) String() string {
	return [...]string{"count(*)", "count", "sum", "avg", "min", "max", "string_agg",
		"var_pop", "var_samp", "stddev_pop", "stddev_samp", "covar_pop", "covar_samp", "corr",
		"regr_slope", "regr_intercept", "regr_r2", "regr_sxx", "regr_syy", "regr_sxy",
		"percentile_cont", "percentile_disc", "mode"}[a]
}

// IsStat reports whether a is one of the statistics (var_pop ... regr_sxy).
func (a AggFunc) IsStat() bool { return a >= AggVarPop && a <= AggRegrSXY }

// IsOrderedSet reports whether a is percentile_cont, percentile_disc or mode.
func (a AggFunc) IsOrderedSet() bool { return a >= AggPercentileCont && a <= AggMode }

// AggCall is one aggregate of a query: Func over Arg (nil for count(*)),
// evaluated over the filtered input rows. T is PostgreSQL's result type.
type AggCall struct {
	Func     AggFunc
	Arg      Expr
	Distinct bool
	T        Type
	// Sep is string_agg's delimiter, evaluated per row; nil otherwise.
	Sep Expr
	// Arg2 is the second argument of the two-argument statistics (X) and
	// the fraction of the percentiles; nil otherwise.
	Arg2 Expr
	// Order is the ORDER BY inside the call (string_agg only).
	Order []AggOrder
}

// AggOrder is one ORDER BY key inside an aggregate call.
type AggOrder struct {
	Expr       Expr
	Desc       bool
	NullsFirst bool
}

// Exprs are the expressions the aggregate reads from its input rows.
func (a AggCall) Exprs() []Expr {
	var out []Expr
	if a.Arg != nil {
		out = append(out, a.Arg)
	}
	if a.Sep != nil {
		out = append(out, a.Sep)
	}
	if a.Arg2 != nil {
		out = append(out, a.Arg2)
	}
	for _, o := range a.Order {
		out = append(out, o.Expr)
	}
	return out
}

func (a AggCall) String() string {
	if a.Arg == nil {
		return "count(*)"
	}
	d := ""
	if a.Distinct {
		d = "DISTINCT "
	}
	sep := ""
	if a.Sep != nil {
		sep = ", " + a.Sep.String()
	}
	if a.Arg2 != nil {
		sep += ", " + a.Arg2.String()
	}
	var ord strings.Builder
	for i, o := range a.Order {
		if i == 0 {
			ord.WriteString(" ORDER BY ")
		} else {
			ord.WriteString(", ")
		}
		fmt.Fprintf(&ord, "%s desc=%v nulls_first=%v", o.Expr, o.Desc, o.NullsFirst)
	}
	return fmt.Sprintf("%s(%s%s%s%s)", a.Func, d, a.Arg, sep, ord.String())
}

// WalkExpr calls f on e and, while f returns true, on each of e's
// operands in turn, depth first: a Call's or HostFunc's arguments, a
// Case's conditions, results and else.
func WalkExpr(e Expr, f func(Expr) bool) {
	if e == nil || !f(e) {
		return
	}
	switch e := e.(type) {
	case *Call:
		for _, a := range e.Args {
			WalkExpr(a, f)
		}
	case *HostFunc:
		for _, a := range e.Args {
			WalkExpr(a, f)
		}
	case *Case:
		for _, x := range e.Conds {
			WalkExpr(x, f)
		}
		for _, x := range e.Results {
			WalkExpr(x, f)
		}
		WalkExpr(e.Else, f)
	}
}
