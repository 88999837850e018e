package query

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"

	"github.com/gpusql/gpusql/engine"
)

// Subqueries over user tables become joins, so that they run as the rest
// of the plan does, on the backend, at any size:
//
//   - a WHERE conjunct EXISTS (q) / NOT EXISTS (q) is a semi / anti join
//     of the query's source with q's source, on q's conditions that read
//     the outer query's columns (q's other conditions filter its side);
//   - x IN (q) is a semi join on x = q's column (and, when q is
//     correlated, its outer conditions); an uncorrelated x NOT IN (q) is
//     NOT IN's null-aware anti join (engine.JoinAntiNull), a correlated
//     one an anti join on its outer conditions and x = y OR x IS NULL OR
//     y IS NULL;
//   - a scalar subquery whose value is an aggregate and whose outer
//     conditions are equalities, inner = outer, is grouped by its inner
//     side and LEFT JOINed to the source on them; the subquery's value is
//     then a column (COUNT over no rows giving 0, not NULL, as it must);
//   - an EXISTS elsewhere than among WHERE's conjuncts (the select list,
//     under OR) is such a subquery counting its rows, compared with 0.
//
// A subquery of another shape (LIMIT, a non-aggregate scalar, outer
// references outside WHERE, references two levels out) keeps the
// per-row evaluation of subquery.go.

// whereConjuncts splits WHERE's top-level AND.
func whereConjuncts(n ast.ExprNode) []ast.ExprNode {
	switch x := n.(type) {
	case *ast.ParenthesesExpr:
		return whereConjuncts(x.Expr)
	case *ast.BinaryOperationExpr:
		if x.Op == opcode.LogicAnd {
			return append(whereConjuncts(x.L), whereConjuncts(x.R)...)
		}
	}
	return []ast.ExprNode{n}
}

// semiJoins turns the conjuncts of where that are subqueries into joins
// of b's source and returns the others, still to be bound as the filter.
func (b *binder) semiJoins(where ast.ExprNode) ([]ast.ExprNode, error) {
	conjs := whereConjuncts(where)
	if !b.src.present || b.src.host || b.agg != nil {
		return conjs, nil
	}
	var keep []ast.ExprNode
	for _, c := range conjs {
		done, err := b.semiJoin(c)
		if err != nil {
			return nil, err
		}
		if !done {
			keep = append(keep, c)
		}
	}
	return keep, nil
}

// semiJoin makes conjunct c a join of the source, if it is a subquery
// that can be one.
func (b *binder) semiJoin(c ast.ExprNode) (bool, error) {
	for {
		p, ok := c.(*ast.ParenthesesExpr)
		if !ok {
			break
		}
		c = p.Expr
	}
	not := false
	if u, ok := c.(*ast.UnaryOperationExpr); ok && u.Op == opcode.Not {
		if e, ok := u.V.(*ast.ExistsSubqueryExpr); ok {
			c, not = e, true
		}
	}
	switch x := c.(type) {
	case *ast.ExistsSubqueryExpr:
		q, err := subqueryOf(x.Sel)
		if err != nil {
			return false, nil
		}
		return b.existsJoin(q, x.Not != not)
	case *ast.PatternInExpr:
		if x.Sel == nil {
			return false, nil
		}
		q, err := subqueryOf(x.Sel)
		if err != nil {
			return false, nil
		}
		return b.inJoin(x.Expr, q, x.Not)
	}
	return false, nil
}

// correlation splits a subquery plan's filter into the conditions that
// read the enclosing query (outer) and those that do not (inner). ok is
// false when the plan reads the enclosing query anywhere else, or a
// nested subquery reads it.
func correlation(p *engine.Plan, scope *outerScope) (outer, inner []engine.Expr, ok bool) {
	if scope.deep {
		return nil, nil, false
	}
	if p.Filter != nil {
		for _, e := range conjuncts(p.Filter) {
			switch refsOuter(e, scope) {
			case 0:
				inner = append(inner, e)
			case 1:
				outer = append(outer, e)
			default:
				return nil, nil, false
			}
		}
	}
	clean := true
	check := func(es ...engine.Expr) {
		for _, e := range es {
			if e != nil && refsOuter(e, nil) != 0 {
				clean = false
			}
		}
	}
	check(p.GroupBy...)
	check(p.Project...)
	check(p.Having)
	for _, a := range p.Aggs {
		check(a.Exprs()...)
	}
	engine.WalkRel(p.Input, func(r engine.Rel) {
		switch r := r.(type) {
		case *engine.Plan:
			check(r.Filter, r.Having)
			check(r.Project...)
			check(r.GroupBy...)
			for _, a := range r.Aggs {
				check(a.Exprs()...)
			}
		case *engine.Join:
			check(r.Residual)
			check(r.LeftKeys...)
			check(r.RightKeys...)
		}
	})
	return outer, inner, clean
}

// refsOuter reports whether e reads outerRefs: 0 none, 1 only scope's
// (any scope's when scope is nil), 2 another scope's.
func refsOuter(e engine.Expr, scope *outerScope) int {
	r := 0
	var walk func(e engine.Expr)
	walk = func(e engine.Expr) {
		switch e := e.(type) {
		case *outerRef:
			if scope == nil || e.scope == scope {
				r = max(r, 1)
			} else {
				r = 2
			}
		case *engine.Call:
			for _, a := range e.Args {
				walk(a)
			}
		case *engine.HostFunc:
			for _, a := range e.Args {
				walk(a)
			}
		case *engine.Case:
			for i := range e.Conds {
				walk(e.Conds[i])
				walk(e.Results[i])
			}
			walk(e.Else)
		}
	}
	walk(e)
	return r
}

// joined rewrites a condition of a subquery, over its input's columns
// and outer references, into one over the join of the source (columns
// [0, n)) and the subquery's side, whose column k is the input's column
// k-shift... that is: inner column c becomes n+off+c.
func joined(e engine.Expr, n, off int) engine.Expr {
	var walk func(e engine.Expr) engine.Expr
	walk = func(e engine.Expr) engine.Expr {
		switch x := e.(type) {
		case *outerRef:
			return &engine.ColRef{Idx: x.C.Idx, Name: x.C.Name, T: x.C.T}
		case *engine.ColRef:
			c := *x
			c.Idx += n + off
			return &c
		case *engine.Call:
			c := *x
			c.Args = make([]engine.Expr, len(x.Args))
			for i, a := range x.Args {
				c.Args[i] = walk(a)
			}
			return &c
		case *engine.HostFunc:
			h := *x
			h.Args = make([]engine.Expr, len(x.Args))
			for i, a := range x.Args {
				h.Args[i] = walk(a)
			}
			return &h
		case *engine.Case:
			c := *x
			c.Conds = make([]engine.Expr, len(x.Conds))
			c.Results = make([]engine.Expr, len(x.Results))
			for i := range x.Conds {
				c.Conds[i], c.Results[i] = walk(x.Conds[i]), walk(x.Results[i])
			}
			c.Else = walk(x.Else)
			return &c
		}
		return e
	}
	return walk(e)
}

// subquerySide is the subquery's source filtered by its inner conditions,
// projecting first the exprs, then every input column.
func subquerySide(p *engine.Plan, inner []engine.Expr, exprs []engine.Expr) *engine.Plan {
	side := &engine.Plan{Input: p.Input, Table: p.Table, Schema: p.Schema, Data: p.Data, Host: p.Host, Limit: -1,
		Filter: andAll(inner)}
	for _, e := range exprs {
		side.Project = append(side.Project, e)
		side.Names = append(side.Names, "")
	}
	for i, c := range p.InputColumns() {
		side.Project = append(side.Project, &engine.ColRef{Idx: i, Name: c.Name, T: c.Type})
		side.Names = append(side.Names, c.Name)
	}
	side.Visible = len(side.Project)
	return side
}

// plainSubquery reports whether a subquery's rows are its filtered
// source's, one each (no aggregation, DISTINCT, ORDER BY, LIMIT).
func plainSubquery(p *engine.Plan) bool {
	return !p.Aggregate && !p.Distinct && len(p.OrderBy) == 0 && p.Limit < 0 && p.Offset == 0
}

// addJoin makes j, whose left side is b's source, the source.
func (b *binder) addJoin(j *engine.Join, extra []engine.ColumnDef) {
	src := b.src
	src.rels = src.scope() // columns added on the right are not visible by name
	src.cols = append(append([]engine.ColumnDef(nil), src.cols...), extra...)
	src.rel, src.data = j, nil
	b.src = src
}

// existsJoin makes [NOT] EXISTS (q) a semi (anti) join.
func (b *binder) existsJoin(q ast.ResultSetNode, not bool) (bool, error) {
	sub, plan, err := b.subquery(q)
	if err != nil {
		return false, err
	}
	if len(sub.outerRefs()) == 0 || sub.outer == nil {
		return false, nil // uncorrelated: runs once (subquery.go)
	}
	outer, inner, ok := correlation(plan, sub.outer)
	if !ok || !rowsExistAsInput(plan) {
		return false, nil
	}
	n := len(b.src.cols)
	side := subquerySide(plan, inner, nil)
	j := &engine.Join{Kind: engine.JoinSemi, Left: relOf(b.src), Right: side}
	if not {
		j.Kind = engine.JoinAnti
	}
	for _, e := range outer {
		j.Residual = andExpr(j.Residual, joined(e, n, 0))
	}
	b.addJoin(j, nil)
	return true, nil
}

// inJoin makes x [NOT] IN (q) a join.
func (b *binder) inJoin(xn ast.ExprNode, q ast.ResultSetNode, not bool) (bool, error) {
	x, err := b.expr(xn)
	if err != nil {
		return false, err
	}
	sub, plan, err := b.subquery(q)
	if err != nil {
		return false, err
	}
	if plan.Visible != 1 {
		return false, nil // the IN binding reports it
	}
	n := len(b.src.cols)
	t := plan.Project[0].Type()
	eq, err := b.compareOp("=", x, &engine.ColRef{Idx: n, Name: "?column?", T: t})
	if err != nil {
		return false, err
	}
	call, ok := eq.(*engine.Call)
	if !ok || call.Op != engine.OpEq || !hashable(call.Args[0].Type()) {
		return false, nil
	}
	if len(sub.outerRefs()) == 0 {
		// uncorrelated: a join with the subquery's rows
		j := &engine.Join{Kind: engine.JoinSemi, Left: relOf(b.src), Right: plan}
		if not {
			if sideOf(call.Args[0], n) > sideLeft || sideOf(call.Args[1], n) != sideRight {
				return false, nil
			}
			j.Kind = engine.JoinAntiNull
			j.LeftKeys, j.RightKeys = []engine.Expr{call.Args[0]}, []engine.Expr{shiftBy(call.Args[1], -n)}
		} else {
			j.Residual = eq
		}
		b.addJoin(j, nil)
		return true, nil
	}
	if sub.outer == nil {
		return false, nil
	}
	outer, inner, ok := correlation(plan, sub.outer)
	if !ok || !plainSubquery(plan) {
		return false, nil
	}
	side := subquerySide(plan, inner, []engine.Expr{plan.Project[0]})
	j := &engine.Join{Kind: engine.JoinSemi, Left: relOf(b.src), Right: side, Residual: eq}
	if not {
		// x NOT IN (q) is true when no row of q (for this outer row) is
		// x or NULL, nor x NULL with q not empty: an anti join on
		// x = y OR x IS NULL OR y IS NULL
		isNull := func(e engine.Expr) engine.Expr {
			return &engine.Call{Op: engine.OpIsNull, Args: []engine.Expr{e}, T: engine.Bool}
		}
		j.Kind = engine.JoinAnti
		j.Residual = &engine.Call{Op: engine.OpOr, T: engine.Bool, Args: []engine.Expr{
			&engine.Call{Op: engine.OpOr, T: engine.Bool, Args: []engine.Expr{eq, isNull(call.Args[0])}},
			isNull(call.Args[1])}}
	}
	for _, e := range outer {
		j.Residual = andExpr(j.Residual, joined(e, n, 1))
	}
	b.addJoin(j, nil)
	return true, nil
}

// scalarJoin makes a correlated scalar subquery whose value is an
// aggregate a LEFT JOIN of the source with the subquery grouped by its
// correlation keys, and returns the expression for its value. ok is false
// when the subquery has another shape.
func (b *binder) scalarJoin(sub *binder, plan *engine.Plan) (engine.Expr, bool, error) {
	if sub.outer == nil || b.agg != nil || !b.src.present || b.src.host {
		return nil, false, nil
	}
	if !plan.Aggregate || len(plan.GroupBy) > 0 || plan.Having != nil || plan.Distinct || plan.Limit >= 0 || plan.Offset > 0 || plan.Visible != 1 {
		return nil, false, nil
	}
	outer, inner, ok := correlation(plan, sub.outer)
	if !ok || len(outer) == 0 {
		return nil, false, nil
	}
	// Each outer condition must be inner expression = outer expression.
	var innerKeys, outerKeys []engine.Expr
	for _, e := range outer {
		c, isEq := e.(*engine.Call)
		if !isEq || c.Op != engine.OpEq || len(c.Args) != 2 {
			return nil, false, nil
		}
		a, o := c.Args[0], c.Args[1]
		if refsOuter(a, sub.outer) != 0 {
			a, o = o, a
		}
		if refsOuter(a, sub.outer) != 0 || !onlyOuter(o) || !hashable(a.Type()) {
			return nil, false, nil
		}
		innerKeys, outerKeys = append(innerKeys, a), append(outerKeys, o)
	}
	// The subquery grouped by its inner keys outputs the keys and the
	// aggregates; its value is computed from them above the join, where
	// avg (whose quotient may have any number of digits) is sum / count,
	// as avg divides: intermediate results then hold no such quotients.
	g := len(innerKeys)
	grouped := &engine.Plan{Input: plan.Input, Table: plan.Table, Schema: plan.Schema, Data: plan.Data, Host: plan.Host,
		Limit: -1, Filter: andAll(inner), Aggregate: true, GroupBy: innerKeys}
	for i, k := range innerKeys {
		grouped.Project = append(grouped.Project, &engine.ColRef{Idx: i, Name: "key", T: k.Type()})
		grouped.Names = append(grouped.Names, "")
	}
	n := len(b.src.cols)
	var extra []engine.ColumnDef
	for _, k := range innerKeys {
		extra = append(extra, engine.ColumnDef{Name: "", Type: k.Type()})
	}
	out := func(a engine.AggCall) engine.Expr {
		grouped.Aggs = append(grouped.Aggs, a)
		grouped.Project = append(grouped.Project, &engine.ColRef{Idx: g + len(grouped.Aggs) - 1, Name: a.String(), T: a.T})
		grouped.Names = append(grouped.Names, "")
		extra = append(extra, engine.ColumnDef{Name: "", Type: a.T})
		return &engine.ColRef{Idx: n + len(extra) - 1, Name: a.String(), T: a.T}
	}
	aggVals := make([]engine.Expr, len(plan.Aggs))
	for k, a := range plan.Aggs {
		if a.Func != engine.AggAvg || a.Distinct || a.T.Kind != engine.KindNumeric {
			aggVals[k] = out(a)
			continue
		}
		sumT := engine.Numeric
		if at := a.Arg.Type(); at.Kind == engine.KindInt16 || at.Kind == engine.KindInt32 {
			sumT = engine.Int64
		}
		sum := out(engine.AggCall{Func: engine.AggSum, Arg: a.Arg, T: sumT})
		cnt := out(engine.AggCall{Func: engine.AggCount, Arg: a.Arg, T: engine.Int64})
		sn, err := castTo(sum, engine.Numeric)
		if err != nil {
			return nil, false, err
		}
		cn, err := castTo(cnt, engine.Numeric)
		if err != nil {
			return nil, false, err
		}
		aggVals[k] = &engine.Call{Op: engine.OpDiv, Args: []engine.Expr{sn, cn}, T: a.T}
	}
	grouped.Visible = len(grouped.Project)

	j := &engine.Join{Kind: engine.JoinLeft, Left: relOf(b.src), Right: grouped}
	for i, o := range outerKeys {
		j.Residual = andExpr(j.Residual, &engine.Call{Op: engine.OpEq, T: engine.Bool,
			Args: []engine.Expr{joined(o, n, 0), &engine.ColRef{Idx: n + i, Name: "key", T: innerKeys[i].Type()}}})
	}
	b.addJoin(j, extra)
	t := plan.Project[0].Type()
	var res engine.Expr = substitute(plan.Project[0], aggVals)
	// Over no rows an aggregate is NULL but count is 0: where the outer
	// row found no group, the value is the subquery's over no rows.
	empty := make([]engine.Expr, len(plan.Aggs))
	for k, a := range plan.Aggs {
		if a.Func == engine.AggCount || a.Func == engine.AggCountStar {
			empty[k] = &engine.Const{T: a.T, I: 0}
		} else {
			empty[k] = &engine.Const{T: a.T, Null: true}
		}
	}
	ev, err := fold(substitute(plan.Project[0], empty))
	if err != nil {
		return nil, false, err
	}
	if k, isConst := ev.(*engine.Const); !isConst || !k.Null {
		res = &engine.Case{T: t, Else: res,
			Conds:   []engine.Expr{&engine.Call{Op: engine.OpIsNull, Args: []engine.Expr{&engine.ColRef{Idx: n, Name: "key", T: innerKeys[0].Type()}}, T: engine.Bool}},
			Results: []engine.Expr{ev}}
	}
	return res, true, nil
}

// rowsExistAsInput reports whether a subquery has a row exactly when its
// filtered input does: it may group (without HAVING), be DISTINCT,
// ORDER BY and LIMIT n > 0, but not OFFSET.
func rowsExistAsInput(p *engine.Plan) bool {
	if p.Aggregate && (len(p.GroupBy) == 0 || p.Having != nil) {
		return false
	}
	return p.Limit != 0 && p.Offset == 0
}

// existsCount makes a correlated [NOT] EXISTS that is not a conjunct of
// WHERE (in the select list, under OR) a count of the subquery's rows,
// joined as scalarJoin joins an aggregate: EXISTS is count(*) > 0, NOT
// EXISTS count(*) = 0. ok is false when the subquery has another shape.
func (b *binder) existsCount(sub *binder, plan *engine.Plan, not bool) (engine.Expr, bool, error) {
	if !rowsExistAsInput(plan) {
		return nil, false, nil
	}
	// the subquery's input rows counted; its grouping, select list,
	// DISTINCT, ORDER BY and LIMIT do not change whether there is one
	cnt := *plan
	cnt.Aggregate, cnt.Distinct, cnt.OrderBy, cnt.Limit = true, false, nil, -1
	cnt.GroupBy, cnt.Having = nil, nil
	cnt.Aggs = []engine.AggCall{{Func: engine.AggCountStar, T: engine.Int64}}
	cnt.Project = []engine.Expr{&engine.ColRef{Idx: 0, Name: "count", T: engine.Int64}}
	cnt.Names, cnt.Visible = []string{"count"}, 1
	n, ok, err := b.scalarJoin(sub, &cnt)
	if err != nil || !ok {
		return nil, false, err
	}
	op := engine.OpGt
	if not {
		op = engine.OpEq
	}
	return &engine.Call{Op: op, Args: []engine.Expr{n, &engine.Const{T: engine.Int64}}, T: engine.Bool}, true, nil
}

// onlyOuter reports whether e reads outer references and no column of
// its own query.
func onlyOuter(e engine.Expr) bool {
	set := map[int]bool{}
	colsOf(e, set)
	return len(set) == 0 && refsOuter(e, nil) == 1
}
