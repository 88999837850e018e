package query

import (
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/query/parse"
)

// PostgreSQL's aggregates beyond count, sum, avg, min, max and
// string_agg. They arrive as group_concat calls whose separator names
// them (query/parse/aggsyntax.go). Some become plan aggregates of their
// own (the statistics and the ordered-set aggregates); the others are
// written over the existing ones, so that every backend runs them as it
// runs those:
//
//   - bool_and(x), every(x): min(CASE WHEN x THEN 1 WHEN NOT x THEN 0 END) = 1;
//     bool_or(x): the same with max
//   - bit_and(x), bit_or(x): one min (max) per bit of x's two's
//     complement, each bit taken out with / and %, added up again
//   - array_agg(x [ORDER BY k]): '{' || string_agg(elem, ',' [ORDER BY k]) || '}'
//     where elem is x's text form as an array element (quoted where
//     PostgreSQL's array_out quotes, NULL as NULL)
//   - regr_count(y, x): count of the rows where both are not NULL;
//     regr_avgx, regr_avgy: avg of x (y) over those rows
//
// FILTER (WHERE c) makes every argument read by the plan aggregates
// CASE WHEN c THEN arg END (count(*): count(CASE WHEN c THEN 1 END)):
// every aggregate skips NULLs, and array_agg's NULL elements are the text
// NULL, so only the filtered rows drop out.

// filteredAgg binds __gpusql_filter(aggregate call, cond).
func (b *binder) filteredAgg(f *ast.FuncCallExpr) (engine.Expr, error) {
	if len(f.Args) != 2 {
		return nil, engine.Errorf(engine.CodeSyntaxError, "syntax error at or near \"FILTER\"")
	}
	inner := f.Args[0]
	if _, ok := inner.(*ast.AggregateFuncExpr); !ok || b.agg == nil {
		name := "function"
		if fc, ok := inner.(*ast.FuncCallExpr); ok {
			name = fc.FnName.O
		}
		return nil, engine.Errorf(engine.CodeWrongObjectType, "FILTER specified, but %s is not an aggregate function", name)
	}
	if b.agg.filter != nil {
		return nil, engine.Errorf(engine.CodeGroupingError, "aggregate function calls cannot be nested")
	}
	if hasAggregate(f.Args[1]) {
		return nil, engine.Errorf(engine.CodeGroupingError, "aggregate functions are not allowed in FILTER")
	}
	cond, err := b.plain().predicate(f.Args[1], "FILTER")
	if err != nil {
		return nil, err
	}
	b.agg.filter = cond
	defer func() { b.agg.filter = nil }()
	return b.expr(inner)
}

// applyFilter writes the FILTER condition being bound into call's
// arguments.
func (s *aggScope) applyFilter(call engine.AggCall) engine.AggCall {
	c := s.filter
	if c == nil {
		return call
	}
	if call.Func == engine.AggCountStar {
		call.Func = engine.AggCount
		call.Arg = caseWhen(c, &engine.Const{T: engine.Int32, I: 1})
		return call
	}
	call.Arg = caseWhen(c, call.Arg)
	if call.Arg2 != nil && !call.Func.IsOrderedSet() {
		call.Arg2 = caseWhen(c, call.Arg2)
	}
	return call
}

// caseWhen is CASE WHEN c THEN x END.
func caseWhen(c, x engine.Expr) engine.Expr {
	return &engine.Case{Conds: []engine.Expr{c}, Results: []engine.Expr{x}, Else: &engine.Const{T: x.Type(), Null: true}, T: x.Type()}
}

func op(o engine.Op, t engine.Type, args ...engine.Expr) engine.Expr {
	return &engine.Call{Op: o, Args: args, T: t}
}

func intConst(t engine.Type, v int64) engine.Expr { return &engine.Const{T: t, I: v} }

// pgAgg binds aggregate name, written as group_concat(args [ORDER BY k]
// SEPARATOR marker).
func (b *binder) pgAgg(name string, a *ast.AggregateFuncExpr) (engine.Expr, error) {
	nodes := a.Args[:len(a.Args)-1]
	ordered := name == "percentile_cont" || name == "percentile_disc" || name == "mode"
	if ordered && a.Order == nil {
		return nil, engine.Errorf(engine.CodeWrongObjectType, "WITHIN GROUP is required for ordered-set aggregate %s", name)
	}
	if ordered && a.Distinct {
		return nil, unsupported("DISTINCT in an ordered-set aggregate")
	}
	if ordered {
		return b.orderedSetAgg(name, nodes, a.Order)
	}
	inner := b.plain()
	var args []engine.Expr
	for _, x := range nodes {
		if hasAggregate(x) {
			return nil, engine.Errorf(engine.CodeGroupingError, "aggregate function calls cannot be nested")
		}
		e, err := inner.expr(x)
		if err != nil {
			return nil, err
		}
		args = append(args, e)
	}
	noFunc := func() error {
		ts := make([]string, len(args))
		for i, e := range args {
			ts[i] = e.Type().String()
			if isUnknown(e) {
				ts[i] = "unknown"
			}
		}
		return engine.Errorf(engine.CodeUndefinedFunction, "function %s(%s) does not exist", name, strings.Join(ts, ", ")).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	}
	want := 1
	if name == "corr" || strings.HasPrefix(name, "covar_") || strings.HasPrefix(name, "regr_") {
		want = 2
	}
	if len(args) != want {
		return nil, noFunc()
	}
	if a.Distinct && name != "array_agg" {
		return nil, unsupported("%s(DISTINCT ...)", name)
	}
	switch name {
	case "bool_and", "every", "bool_or":
		x := args[0]
		if isUnknown(x) {
			var err error
			if x, err = castTo(x, engine.Bool); err != nil {
				return nil, err
			}
		}
		if x.Type().Kind != engine.KindBool {
			return nil, noFunc()
		}
		bit := &engine.Case{Conds: []engine.Expr{x, op(engine.OpNot, engine.Bool, x)},
			Results: []engine.Expr{intConst(engine.Int32, 1), intConst(engine.Int32, 0)},
			Else:    &engine.Const{T: engine.Int32, Null: true}, T: engine.Int32}
		fn := engine.AggMin
		if name == "bool_or" {
			fn = engine.AggMax
		}
		m, err := b.addAgg(engine.AggCall{Func: fn, Arg: bit, T: engine.Int32})
		if err != nil {
			return nil, err
		}
		return op(engine.OpEq, engine.Bool, m, intConst(engine.Int32, 1)), nil
	case "bit_and", "bit_or":
		if !args[0].Type().IsInteger() {
			return nil, noFunc()
		}
		return b.bitAgg(name == "bit_or", args[0])
	case "array_agg":
		return b.arrayAgg(a, args[0])
	case "stddev", "stddev_samp", "stddev_pop", "variance", "var_samp", "var_pop":
		x := args[0]
		t := x.Type()
		if !t.IsNumber() {
			return nil, noFunc()
		}
		fn := map[string]engine.AggFunc{"stddev": engine.AggStddevSamp, "stddev_samp": engine.AggStddevSamp,
			"stddev_pop": engine.AggStddevPop, "variance": engine.AggVarSamp, "var_samp": engine.AggVarSamp,
			"var_pop": engine.AggVarPop}[name]
		rt := engine.Numeric
		if t.IsFloat() {
			rt = engine.Float64
			if t.Kind == engine.KindFloat32 {
				var err error
				if x, err = castTo(x, engine.Float64); err != nil {
					return nil, err
				}
			}
		}
		return b.addAgg(engine.AggCall{Func: fn, Arg: x, T: rt})
	}
	// two arguments, double precision
	for i, e := range args {
		if !isUnknown(e) && !e.Type().IsNumber() {
			return nil, noFunc()
		}
		c, err := castTo(e, engine.Float64)
		if err != nil {
			return nil, err
		}
		args[i] = c
	}
	y, x := args[0], args[1]
	both := op(engine.OpAnd, engine.Bool, op(engine.OpIsNotNull, engine.Bool, y), op(engine.OpIsNotNull, engine.Bool, x))
	switch name {
	case "regr_count":
		return b.addAgg(engine.AggCall{Func: engine.AggCount, Arg: caseWhen(both, intConst(engine.Int32, 1)), T: engine.Int64})
	case "regr_avgx":
		return b.addAgg(engine.AggCall{Func: engine.AggAvg, Arg: caseWhen(op(engine.OpIsNotNull, engine.Bool, y), x), T: engine.Float64})
	case "regr_avgy":
		return b.addAgg(engine.AggCall{Func: engine.AggAvg, Arg: caseWhen(op(engine.OpIsNotNull, engine.Bool, x), y), T: engine.Float64})
	}
	fn, ok := map[string]engine.AggFunc{"corr": engine.AggCorr, "covar_pop": engine.AggCovarPop, "covar_samp": engine.AggCovarSamp,
		"regr_slope": engine.AggRegrSlope, "regr_intercept": engine.AggRegrIntercept, "regr_r2": engine.AggRegrR2,
		"regr_sxx": engine.AggRegrSXX, "regr_syy": engine.AggRegrSYY, "regr_sxy": engine.AggRegrSXY}[name]
	if !ok {
		return nil, noFunc()
	}
	return b.addAgg(engine.AggCall{Func: fn, Arg: y, Arg2: x, T: engine.Float64})
}

// bitAgg is bit_and(x) (or bit_or): one min (max) aggregate per bit of
// x's two's complement, added up with the bits' weights.
func (b *binder) bitAgg(or bool, x engine.Expr) (engine.Expr, error) {
	t := x.Type()
	w := map[engine.Kind]int{engine.KindInt16: 16, engine.KindInt32: 32, engine.KindInt64: 64}[t.Kind]
	fn := engine.AggMin
	if or {
		fn = engine.AggMax
	}
	zero, one := intConst(t, 0), intConst(t, 1)
	nonNeg := op(engine.OpGe, engine.Bool, x, zero)
	inv := op(engine.OpNeg, t, op(engine.OpAdd, t, x, one)) // -(x+1) = ^x, never overflowing
	var sum engine.Expr
	for k := 0; k < w; k++ {
		var bit engine.Expr
		if k == w-1 {
			bit = &engine.Case{Conds: []engine.Expr{op(engine.OpLt, engine.Bool, x, zero), nonNeg},
				Results: []engine.Expr{one, zero}, Else: &engine.Const{T: t, Null: true}, T: t}
		} else {
			p := intConst(t, 1<<k)
			two := intConst(t, 2)
			bit = &engine.Case{Conds: []engine.Expr{nonNeg},
				Results: []engine.Expr{op(engine.OpMod, t, op(engine.OpDiv, t, x, p), two)},
				Else:    op(engine.OpSub, t, one, op(engine.OpMod, t, op(engine.OpDiv, t, inv, p), two)), T: t}
		}
		m, err := b.addAgg(engine.AggCall{Func: fn, Arg: bit, T: t})
		if err != nil {
			return nil, err
		}
		switch {
		case k == w-1:
			// the sign bit weighs -2^(w-1): subtract 2^(w-1)-1, then 1
			top := intConst(t, 1<<(w-1)-1)
			neg := op(engine.OpSub, t, op(engine.OpSub, t, sum, top), one)
			sum = &engine.Case{Conds: []engine.Expr{op(engine.OpEq, engine.Bool, m, one)}, Results: []engine.Expr{neg}, Else: sum, T: t}
		case k == 0:
			sum = m
		default:
			sum = op(engine.OpAdd, t, sum, op(engine.OpMul, t, m, intConst(t, 1<<k)))
		}
	}
	return sum, nil
}

// arrayAgg is array_agg(x [ORDER BY k]) in its text form (see the top).
func (b *binder) arrayAgg(a *ast.AggregateFuncExpr, x engine.Expr) (engine.Expr, error) {
	var err error
	if isUnknown(x) {
		if x, err = castTo(x, engine.Text); err != nil {
			return nil, err
		}
	}
	t := x.Type()
	var s engine.Expr
	quote := false
	switch {
	case t.Kind == engine.KindBool:
		s = &engine.Case{Conds: []engine.Expr{x}, Results: []engine.Expr{&engine.Const{T: engine.Text, S: "t"}},
			Else: &engine.Case{Conds: []engine.Expr{op(engine.OpNot, engine.Bool, x)}, Results: []engine.Expr{&engine.Const{T: engine.Text, S: "f"}},
				Else: &engine.Const{T: engine.Text, Null: true}, T: engine.Text}, T: engine.Text}
	case t.Kind == engine.KindChar:
		s, quote = op(engine.OpPadChar, engine.Text, x), true
	case t.IsString():
		s, quote = x, true
	case t.IsNumber() || t.Kind == engine.KindDate:
		s, err = castTo(x, engine.Text) // never quoted
	case t.Kind == engine.KindTimestamp:
		s, err = castTo(x, engine.Text)
		dq := &engine.Const{T: engine.Text, S: `"`}
		s = op(engine.OpConcat, engine.Text, op(engine.OpConcat, engine.Text, dq, s), dq)
	case t.Kind == engine.KindInterval:
		s, quote = nil, true
		if s, err = castTo(x, engine.Text); err != nil {
			return nil, err
		}
	default:
		return nil, unsupported("array_agg over %s", t)
	}
	if err != nil {
		return nil, err
	}
	if quote {
		if s, err = b.arrayElem(s); err != nil {
			return nil, err
		}
	}
	elem := op(engine.OpCoalesce, engine.Text, s, &engine.Const{T: engine.Text, S: "NULL"})
	call := engine.AggCall{Func: engine.AggStringAgg, Arg: elem, Sep: &engine.Const{T: engine.Text, S: ","}, Distinct: a.Distinct, T: engine.Text}
	if a.Order != nil {
		keys, err := b.aggOrder(a.Order)
		if err != nil {
			return nil, err
		}
		if a.Distinct {
			for _, k := range keys {
				if k.Expr.String() != x.String() {
					return nil, engine.Errorf(engine.CodeInvalidColumnReference, "in an aggregate with DISTINCT, ORDER BY expressions must appear in argument list")
				}
			}
		}
		call.Order = keys
	}
	if a.Distinct && call.Order == nil {
		// DISTINCT sorts by the value, as PostgreSQL sorts a DISTINCT
		// aggregate's input, not by its text
		call.Order = []engine.AggOrder{{Expr: x}}
	}
	agg, err := b.addAgg(call)
	if err != nil {
		return nil, err
	}
	br := func(s string) engine.Expr { return &engine.Const{T: engine.Text, S: s} }
	return op(engine.OpConcat, engine.Text, op(engine.OpConcat, engine.Text, br("{"), agg), br("}")), nil
}

// arrayElem quotes text s as array_out quotes an element: when it is
// empty, NULL in any case, or holds braces, a comma, a quote, a
// backslash or white space; quotes and backslashes get a backslash.
func (b *binder) arrayElem(s engine.Expr) (engine.Expr, error) {
	txt := func(v string) engine.Expr { return &engine.Const{T: engine.Text, S: v} }
	need := op(engine.OpOr, engine.Bool,
		op(engine.OpOr, engine.Bool, op(engine.OpEq, engine.Bool, s, txt("")), op(engine.OpEq, engine.Bool, op(engine.OpUpper, engine.Text, s), txt("NULL"))),
		op(engine.OpRegexMatch, engine.Bool, s, txt(`[{},"\\ \t\n\r\v\f]`), txt("")))
	esc, _, err := b.arrayFunc("replace", []engine.Expr{s, txt(`\`), txt(`\\`)})
	if err != nil {
		return nil, err
	}
	if esc, _, err = b.arrayFunc("replace", []engine.Expr{esc, txt(`"`), txt(`\"`)}); err != nil {
		return nil, err
	}
	quoted := op(engine.OpConcat, engine.Text, op(engine.OpConcat, engine.Text, txt(`"`), esc), txt(`"`))
	return &engine.Case{Conds: []engine.Expr{need}, Results: []engine.Expr{quoted}, Else: s, T: engine.Text}, nil
}

// aggOrder binds the ORDER BY inside an aggregate call.
func (b *binder) aggOrder(ob *ast.OrderByClause) ([]engine.AggOrder, error) {
	inner := b.plain()
	var keys []engine.AggOrder
	for _, o := range ob.Items {
		key := engine.AggOrder{Desc: o.Desc, NullsFirst: o.Desc}
		node := o.Expr
		if f, ok := node.(*ast.FuncCallExpr); ok && (f.FnName.L == "__gpusql_nulls_first" || f.FnName.L == "__gpusql_nulls_last") && len(f.Args) == 1 {
			key.NullsFirst = f.FnName.L == "__gpusql_nulls_first"
			node = f.Args[0]
		}
		if _, ok := node.(*ast.PositionExpr); ok {
			continue // ORDER BY 1 in an aggregate sorts by a constant
		}
		if hasAggregate(node) {
			return nil, engine.Errorf(engine.CodeGroupingError, "aggregate function calls cannot be nested")
		}
		e, err := inner.expr(node)
		if err != nil {
			return nil, err
		}
		if isUnknown(e) {
			if e, err = castTo(e, engine.Text); err != nil {
				return nil, err
			}
		}
		if _, ok := e.(*engine.Const); ok {
			continue
		}
		key.Expr = e
		keys = append(keys, key)
	}
	return keys, nil
}

// orderedSetAgg binds percentile_cont(f), percentile_disc(f) or mode()
// WITHIN GROUP (ORDER BY v).
func (b *binder) orderedSetAgg(name string, direct []ast.ExprNode, ob *ast.OrderByClause) (engine.Expr, error) {
	if len(ob.Items) != 1 {
		return nil, engine.Errorf(engine.CodeUndefinedFunction, "function %s with %d ordering arguments does not exist", name, len(ob.Items))
	}
	keys, err := b.aggOrder(ob)
	if err != nil {
		return nil, err
	}
	if len(keys) != 1 {
		return nil, unsupported("%s over a constant", name)
	}
	key := keys[0]
	v := key.Expr
	call := engine.AggCall{Func: engine.AggMode, Arg: v, T: v.Type()}
	if name == "mode" {
		if len(direct) != 1 { // the rewrite's NULL placeholder
			return nil, engine.Errorf(engine.CodeUndefinedFunction, "function mode with arguments does not exist")
		}
	} else {
		if len(direct) != 1 {
			return nil, engine.Errorf(engine.CodeUndefinedFunction, "function %s with %d arguments does not exist", name, len(direct))
		}
		if hasAggregate(direct[0]) {
			return nil, engine.Errorf(engine.CodeGroupingError, "aggregate function calls cannot be nested")
		}
		f, err := b.plain().expr(direct[0])
		if err != nil {
			return nil, err
		}
		if !isUnknown(f) && !f.Type().IsNumber() {
			return nil, engine.Errorf(engine.CodeUndefinedFunction, "function %s(%s) does not exist", name, f.Type())
		}
		if f, err = castTo(f, engine.Float64); err != nil {
			return nil, err
		}
		if _, ok := f.(*engine.Const); !ok {
			return nil, unsupported("a %s fraction that is not a constant", name)
		}
		call.Arg2 = f
		call.Func = engine.AggPercentileDisc
		if name == "percentile_cont" {
			call.Func = engine.AggPercentileCont
			t := v.Type()
			switch {
			case t.Kind == engine.KindInterval:
				return nil, unsupported("percentile_cont over interval")
			case !t.IsNumber() && !isUnknown(v):
				return nil, engine.Errorf(engine.CodeUndefinedFunction, "function percentile_cont(double precision ORDER BY %s) does not exist", t)
			}
			if v, err = castTo(v, engine.Float64); err != nil {
				return nil, err
			}
		}
	}
	t := v.Type()
	switch t.Kind {
	case engine.KindNumeric:
		t = engine.Numeric
	case engine.KindVarchar:
		t = engine.Type{Kind: engine.KindVarchar}
	}
	call.Arg, call.T = v, t
	call.Order = []engine.AggOrder{{Expr: v, Desc: key.Desc, NullsFirst: key.NullsFirst}}
	return b.addAgg(call)
}

// aggMarkerName is the PostgreSQL aggregate a group_concat call stands
// for ("" for string_agg and MySQL's group_concat).
func aggMarkerName(a *ast.AggregateFuncExpr) string {
	if len(a.Args) == 0 {
		return ""
	}
	v, ok := a.Args[len(a.Args)-1].(ast.ValueExpr)
	if !ok {
		return ""
	}
	s, ok := v.GetValue().(string)
	if !ok {
		return ""
	}
	return parse.AggMarkerName(s)
}

var _ = fmt.Sprint
