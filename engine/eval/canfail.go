package eval

import "github.com/gpusql/gpusql/engine"

// CanFail reports whether evaluating e on some row could raise an error
// (overflow, division by zero, a failed cast, ...). Expressions that cannot
// fail may be evaluated on rows a guard would skip, which lets AND, OR and
// CASE evaluate them over the whole batch instead of gathering the rows
// that reach them.
func CanFail(e engine.Expr) bool {
	switch e := e.(type) {
	case *engine.ColRef, *engine.Const:
		return false
	case *engine.HostFunc:
		return true
	case *engine.Case:
		for i := range e.Conds {
			if CanFail(e.Conds[i]) || CanFail(e.Results[i]) {
				return true
			}
		}
		return CanFail(e.Else)
	case *engine.Call:
		switch e.Op {
		case engine.OpEq, engine.OpNe, engine.OpLt, engine.OpLe, engine.OpGt, engine.OpGe,
			engine.OpAnd, engine.OpOr, engine.OpNot, engine.OpIsNull, engine.OpIsNotNull,
			engine.OpIsTrue, engine.OpIsFalse, engine.OpIsDistinct, engine.OpIn,
			engine.OpLength, engine.OpUpper, engine.OpLower, engine.OpConcat, engine.OpPadChar,
			engine.OpCoalesce, engine.OpNullIf:
		case engine.OpCast:
			// Rendering as unbounded text cannot fail; other casts can.
			// So does date to timestamp, which Cast computes as days
			// times a day's microseconds, with no error.
			// numeric to numeric without a precision keeps the value.
			if !(e.T.Kind == engine.KindText && !e.Args[0].Type().IsString()) &&
				!(e.T.Kind == engine.KindTimestamp && e.Args[0].Type().Kind == engine.KindDate) &&
				!(e.T.Kind == engine.KindNumeric && e.T.Prec == 0 && e.Args[0].Type().Kind == engine.KindNumeric && len(e.Args) == 1) {
				return true
			}
		default:
			return true
		}
		for _, a := range e.Args {
			if CanFail(a) {
				return true
			}
		}
		return false
	}
	return true
}
