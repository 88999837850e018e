package query

import (
	"context"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/eval"
)

// castTo converts e to type t, folding constants. Unknown-typed string
// literals are parsed as t's input (so '1995-01-01' becomes a date).
func castTo(e engine.Expr, t engine.Type) (engine.Expr, error) {
	if e.Type() == t {
		return e, nil
	}
	if c, ok := e.(*engine.Const); ok && c.Null {
		return &engine.Const{T: t, Null: true}, nil
	}
	return fold(&engine.Call{Op: engine.OpCast, Args: []engine.Expr{e}, T: t})
}

// fold evaluates a call whose arguments are all constants.
func fold(e engine.Expr) (engine.Expr, error) {
	call, ok := e.(*engine.Call)
	if !ok || engine.NeedsZone(call) {
		return e, nil // a call reading the session's TimeZone folds once it has it (timezone.go)
	}
	for _, a := range call.Args {
		if _, ok := a.(*engine.Const); !ok {
			return e, nil
		}
	}
	v, err := eval.Eval(context.Background(), e, &engine.Batch{N: 1})
	if err != nil {
		return nil, err
	}
	return constOf(v, 0), nil
}

// constOf makes a constant from row i of v.
func constOf(v *engine.Vec, i int) *engine.Const {
	c := &engine.Const{T: v.T}
	if v.IsNull(i) {
		c.Null = true
		return c
	}
	switch engine.PhysOf(v.T.Kind) {
	case engine.PhysInt:
		c.I = v.I[i]
	case engine.PhysFloat:
		c.F = v.F[i]
	case engine.PhysDec:
		c.D = v.D[i]
	case engine.PhysStr:
		c.S = string(v.S[i])
	case engine.PhysInterval:
		c.V = v.V[i]
	}
	return c
}

func isUnknown(e engine.Expr) bool { return e.Type().Kind == engine.KindUnknown }

// numericRank orders number types for promotion.
func numericRank(t engine.Type) int {
	switch t.Kind {
	case engine.KindInt16:
		return 1
	case engine.KindInt32:
		return 2
	case engine.KindInt64:
		return 3
	case engine.KindNumeric:
		return 4
	case engine.KindFloat32:
		return 5
	case engine.KindFloat64:
		return 6
	}
	return 0
}

// arithType is the result type of number op number, following
// PostgreSQL's operator resolution: integers widen to the wider one,
// numerics stay exact, and floats win (real op real stays real; real with
// anything else is double precision).
func arithType(a, b engine.Type) engine.Type {
	switch {
	case a.IsFloat() || b.IsFloat():
		if a.Kind == engine.KindFloat32 && b.Kind == engine.KindFloat32 {
			return engine.Float32
		}
		return engine.Float64
	case a.Kind == engine.KindNumeric || b.Kind == engine.KindNumeric:
		return engine.Numeric
	}
	if numericRank(a) >= numericRank(b) {
		return engine.Type{Kind: a.Kind}
	}
	return engine.Type{Kind: b.Kind}
}

// commonType finds the type two values are compared or unified in, or
// reports that none exists.
func commonType(a, b engine.Type) (engine.Type, bool) {
	switch {
	case a.Kind == engine.KindUnknown && b.Kind == engine.KindUnknown:
		return engine.Text, true
	case a.Kind == engine.KindUnknown:
		return unifyTarget(b), true
	case b.Kind == engine.KindUnknown:
		return unifyTarget(a), true
	case a.IsNumber() && b.IsNumber():
		return arithType(a, b), true
	case a.IsString() && b.IsString():
		if a.Kind == b.Kind && a.Kind != engine.KindText {
			if a.Len == b.Len {
				return a, true
			}
			return engine.Type{Kind: a.Kind}, true
		}
		if a.Kind == engine.KindChar && b.Kind == engine.KindVarchar || a.Kind == engine.KindVarchar && b.Kind == engine.KindChar {
			// As PostgreSQL's operator resolution: bpchar = bpchar
			// matches one argument exactly and text = text none, so the
			// varchar is cast to bpchar and trailing blanks do not
			// count on either side. Against text, text wins as the
			// preferred string type.
			return engine.Type{Kind: engine.KindChar}, true
		}
		return engine.Text, true
	case a.Kind == b.Kind:
		if a.Kind == engine.KindNumeric {
			return engine.Numeric, true
		}
		return engine.Type{Kind: a.Kind}, true
	case (a.Kind == engine.KindDate && b.Kind == engine.KindTimestamp) || (a.Kind == engine.KindTimestamp && b.Kind == engine.KindDate):
		return engine.Timestamp, true
	case a.Kind == engine.KindTimestampTZ && (b.Kind == engine.KindDate || b.Kind == engine.KindTimestamp),
		b.Kind == engine.KindTimestampTZ && (a.Kind == engine.KindDate || a.Kind == engine.KindTimestamp):
		return engine.TimestampTZ, true
	}
	return engine.Type{}, false
}

// unifyTarget is the type an unknown literal takes next to a value of t:
// t without its length or precision limits.
func unifyTarget(t engine.Type) engine.Type {
	switch t.Kind {
	case engine.KindNumeric:
		return engine.Numeric
	case engine.KindChar:
		return engine.Type{Kind: engine.KindChar}
	case engine.KindVarchar:
		return engine.Text
	}
	return engine.Type{Kind: t.Kind}
}

// coerceAll casts every expression to their common type.
//
// As PostgreSQL's select_common_type: among string types the first one
// listed wins (all string types cast to each other implicitly), keeping
// its length only when every value shares it; numbers promote.
func coerceAll(what string, es []engine.Expr) ([]engine.Expr, engine.Type, error) {
	t := es[0].Type()
	for _, e := range es[1:] {
		et := e.Type()
		if t.IsString() && et.IsString() && t.Kind != engine.KindUnknown && et.Kind != engine.KindUnknown {
			if t.Kind == et.Kind && t.Len != et.Len {
				t.Len = 0
			}
			continue
		}
		nt, ok := commonType(t, et)
		if !ok {
			return nil, t, engine.Errorf(engine.CodeDatatypeMismatch, "%s types %s and %s cannot be matched", what, t, et)
		}
		if t.Kind == engine.KindVarchar && et.Kind == engine.KindUnknown || t.Kind == engine.KindUnknown && et.Kind == engine.KindVarchar {
			// select_common_type passes over unknown values: next to a
			// varchar they become varchar (without a length, so that
			// none is cut), where an operator resolves varchar = unknown
			// as text = text (commonType)
			nt = engine.Type{Kind: engine.KindVarchar}
		}
		t = nt
	}
	if t.Kind == engine.KindUnknown {
		t = engine.Text
	}
	out := make([]engine.Expr, len(es))
	for i, e := range es {
		c, err := castTo(e, castTarget(e.Type(), t))
		if err != nil {
			return nil, t, err
		}
		out[i] = c
	}
	return out, t, nil
}

// castTarget: values already of a string type keep their representation
// when unified to another string type (no truncation happens in a
// comparison); everything else casts to t.
func castTarget(from, t engine.Type) engine.Type {
	if from.IsString() && t.IsString() && from.Kind != engine.KindUnknown {
		if t.Kind == engine.KindChar && from.Kind != engine.KindChar {
			return engine.Type{Kind: engine.KindChar}
		}
		return t
	}
	return t
}

// pgTypeName is the type's internal name, which PostgreSQL uses to name
// a result column that is a bare cast of a literal.
func pgTypeName(t engine.Type) string {
	switch t.Kind {
	case engine.KindBool:
		return "bool"
	case engine.KindInt16:
		return "int2"
	case engine.KindInt32:
		return "int4"
	case engine.KindInt64:
		return "int8"
	case engine.KindFloat32:
		return "float4"
	case engine.KindFloat64:
		return "float8"
	case engine.KindNumeric:
		return "numeric"
	case engine.KindDate:
		return "date"
	case engine.KindTimestamp:
		return "timestamp"
	case engine.KindTimestampTZ:
		return "timestamptz"
	case engine.KindTime:
		return "time"
	case engine.KindInterval:
		return "interval"
	case engine.KindChar:
		return "bpchar"
	case engine.KindVarchar:
		return "varchar"
	}
	return "text"
}
