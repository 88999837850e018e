package query

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/gpusql/gpusql/engine"
)

// stringAggMarker is the SEPARATOR of the group_concat call that the
// rewrite layer writes for string_agg (query/parse: aggMarker).
const stringAggMarker = "__gpusql_string_agg"

// stringAgg binds string_agg(value, delimiter [ORDER BY ...]), which
// arrives as tidb's group_concat with the marker as its separator. A
// group_concat written by the user is MySQL's, which PostgreSQL lacks.
func (b *binder) stringAgg(a *ast.AggregateFuncExpr) (engine.Expr, error) {
	n := len(a.Args)
	if name := aggMarkerName(a); name != "" {
		return b.pgAgg(name, a) // bindpgagg.go
	}
	if n == 0 || !isStringAggMarker(a.Args[n-1]) {
		return nil, engine.Errorf(engine.CodeUndefinedFunction, "function group_concat does not exist")
	}
	inner := b.plain()
	args := make([]engine.Expr, 0, 2)
	var raw []string // the arguments before their casts to text
	for _, x := range a.Args[:n-1] {
		if hasAggregate(x) {
			return nil, engine.Errorf(engine.CodeGroupingError, "aggregate function calls cannot be nested")
		}
		e, err := inner.expr(x)
		if err != nil {
			return nil, err
		}
		args = append(args, e)
		raw = append(raw, e.String())
	}
	ok := len(args) == 2
	for _, e := range args {
		ok = ok && (isUnknown(e) || e.Type().IsString())
	}
	if !ok {
		ts := make([]string, len(args))
		for i, e := range args {
			ts[i] = e.Type().String()
		}
		return nil, engine.Errorf(engine.CodeUndefinedFunction, "function string_agg(%s) does not exist", strings.Join(ts, ", ")).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	}
	for i, e := range args {
		c, err := castTo(e, engine.Text) // char(n) loses its padding, as bpchar to text does
		if err != nil {
			return nil, err
		}
		args[i] = c
	}
	call := engine.AggCall{Func: engine.AggStringAgg, Arg: args[0], Sep: args[1], Distinct: a.Distinct, T: engine.Text}
	if a.Order != nil {
		keys, err := b.aggOrder(a.Order)
		if err != nil {
			return nil, err
		}
		for _, key := range keys {
			if s := key.Expr.String(); a.Distinct && s != raw[0] && s != raw[1] && s != args[0].String() && s != args[1].String() {
				return nil, engine.Errorf(engine.CodeInvalidColumnReference, "in an aggregate with DISTINCT, ORDER BY expressions must appear in argument list")
			}
		}
		call.Order = keys
	}
	return b.addAgg(call)
}

func isStringAggMarker(n ast.ExprNode) bool {
	v, ok := n.(ast.ValueExpr)
	if !ok {
		return false
	}
	s, ok := v.GetValue().(string)
	return ok && s == stringAggMarker
}
