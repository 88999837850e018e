package query

import "github.com/gpusql/gpusql/engine"

// btreeCmpFuncs are PostgreSQL's b-tree comparison support functions
// (pg_amproc number 1) of the operator families gpusql lists, by name,
// with their argument types. Each returns a negative, zero or positive
// integer as its left argument sorts before, with or after its right one,
// and NULL for a NULL argument (they are strict). The string ones
// (bttextcmp, ...) are strCmpFuncs (btcmptext.go).
var btreeCmpFuncs = map[string][2]engine.Type{
	"btboolcmp":                 {engine.Bool, engine.Bool},
	"btint2cmp":                 {engine.Int16, engine.Int16},
	"btint4cmp":                 {engine.Int32, engine.Int32},
	"btint8cmp":                 {engine.Int64, engine.Int64},
	"btint24cmp":                {engine.Int16, engine.Int32},
	"btint28cmp":                {engine.Int16, engine.Int64},
	"btint42cmp":                {engine.Int32, engine.Int16},
	"btint48cmp":                {engine.Int32, engine.Int64},
	"btint82cmp":                {engine.Int64, engine.Int16},
	"btint84cmp":                {engine.Int64, engine.Int32},
	"btfloat4cmp":               {engine.Float32, engine.Float32},
	"btfloat8cmp":               {engine.Float64, engine.Float64},
	"btfloat48cmp":              {engine.Float32, engine.Float64},
	"btfloat84cmp":              {engine.Float64, engine.Float32},
	"numeric_cmp":               {engine.Numeric, engine.Numeric},
	"date_cmp":                  {engine.Date, engine.Date},
	"date_cmp_timestamp":        {engine.Date, engine.Timestamp},
	"date_cmp_timestamptz":      {engine.Date, engine.TimestampTZ},
	"timestamp_cmp":             {engine.Timestamp, engine.Timestamp},
	"timestamp_cmp_date":        {engine.Timestamp, engine.Date},
	"timestamp_cmp_timestamptz": {engine.Timestamp, engine.TimestampTZ},
	"timestamptz_cmp":           {engine.TimestampTZ, engine.TimestampTZ},
	"timestamptz_cmp_date":      {engine.TimestampTZ, engine.Date},
	"timestamptz_cmp_timestamp": {engine.TimestampTZ, engine.Timestamp},
	"time_cmp":                  {engine.Time, engine.Time},
	"interval_cmp":              {engine.Interval, engine.Interval},
}

// implicitTo reports whether PostgreSQL casts a value of type from to
// type to implicitly when it resolves a function's arguments (among the
// types of btreeCmpFuncs and pgHashFuncs).
func implicitTo(from, to engine.Type) bool {
	if from.Kind == to.Kind {
		return true
	}
	if f, t := numericRank(from), numericRank(to); f > 0 && t > 0 {
		return f < t
	}
	str := func(k engine.Kind) bool {
		return k == engine.KindText || k == engine.KindVarchar || k == engine.KindChar
	}
	if str(from.Kind) && str(to.Kind) {
		return to.Kind != engine.KindVarchar
	}
	switch from.Kind {
	case engine.KindDate:
		return to.Kind == engine.KindTimestamp || to.Kind == engine.KindTimestampTZ
	case engine.KindTimestamp:
		return to.Kind == engine.KindTimestampTZ
	}
	return false
}

// btreeCmp binds a call of one of btreeCmpFuncs: the arguments are cast
// to the function's types (string literals parsed as them) and compared
// with gpusql's operators, which order as PostgreSQL's do (NaN after
// every other float, intervals by their 30-day-month span, a date
// against a timestamptz at midnight in the session's time zone).
func (b *binder) btreeCmp(name string, sig [2]engine.Type, args []engine.Expr) (engine.Expr, error) {
	for i, a := range args {
		if !isUnknown(a) && !implicitTo(a.Type(), sig[i]) {
			return nil, engine.Errorf(engine.CodeUndefinedFunction, "function %s(%s, %s) does not exist",
				name, args[0].Type(), args[1].Type()).WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
		}
		c, err := castTo(a, sig[i])
		if err != nil {
			return nil, err
		}
		args[i] = c
	}
	if name == "btint2cmp" {
		// PostgreSQL returns the difference of the two smallints.
		l, err := castTo(args[0], engine.Int32)
		if err != nil {
			return nil, err
		}
		r, err := castTo(args[1], engine.Int32)
		if err != nil {
			return nil, err
		}
		return fold(&engine.Call{Op: engine.OpSub, Args: []engine.Expr{l, r}, T: engine.Int32})
	}
	lt, err := b.compareOp("<", args[0], args[1])
	if err != nil {
		return nil, err
	}
	gt, err := b.compareOp(">", args[0], args[1])
	if err != nil {
		return nil, err
	}
	eq, err := b.compareOp("=", args[0], args[1])
	if err != nil {
		return nil, err
	}
	num := func(v int64) engine.Expr { return &engine.Const{T: engine.Int32, I: v} }
	return &engine.Case{Conds: []engine.Expr{lt, gt, eq}, Results: []engine.Expr{num(-1), num(1), num(0)},
		Else: &engine.Const{T: engine.Int32, Null: true}, T: engine.Int32}, nil
}
