package query

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/eval"
)

// Subqueries in expressions. An uncorrelated subquery (one that reads no
// column of the enclosing query) runs once, while binding, and is folded
// into a constant or an IN list, so it works over user tables on any
// backend. A correlated one becomes a host function that rebinds and runs
// the subquery for each outer row, with the outer row's values bound as
// constants; that needs the outer query to run on the host (system
// relations), which catalogs are small enough for.

// outerScope is a subquery's view of the enclosing query.
type outerScope struct {
	b *binder
	// vals are the outer row's values while a correlated subquery is
	// rebound for one row; nil while binding it the first time.
	vals map[int]*engine.Const
	// used are the outer columns the subquery reads.
	used []*engine.ColRef
	// mark: a reference stands as an *outerRef, for the planner to turn
	// the subquery into a join (decorrelate.go); else, while typing, as
	// a NULL of its type.
	mark bool
	// deep: a subquery nested in this one reads the enclosing query's
	// columns.
	deep bool
}

// outerRef is a subquery's reference to column C of the enclosing query
// (scope's), as bound for decorrelation.
type outerRef struct {
	C     *engine.ColRef
	scope *outerScope
}

var _ engine.Expr = (*outerRef)(nil)

func (o *outerRef) Type() engine.Type { return o.C.T }
func (o *outerRef) String() string    { return "outer." + o.C.String() }

// use records a reference to outer column c and returns what stands for
// it: the current row's value, or a typed NULL while only typing.
func (o *outerScope) use(c *engine.ColRef) engine.Expr {
	seen := false
	for _, u := range o.used {
		if u.Idx == c.Idx {
			seen = true
		}
	}
	if !seen {
		o.used = append(o.used, c)
	}
	if v, ok := o.vals[c.Idx]; ok {
		return v
	}
	if o.mark && o.vals == nil {
		return &outerRef{C: c, scope: o}
	}
	return &engine.Const{T: c.T, Null: true}
}

// outerRefs are the outer columns a subquery's binder has read.
func (b *binder) outerRefs() []*engine.ColRef {
	if b.outer == nil {
		return nil
	}
	return b.outer.used
}

// subquery binds q as a subquery of b's query.
func (b *binder) subquery(q ast.ResultSetNode) (*binder, *engine.Plan, error) {
	stmt, ok := q.(ast.StmtNode)
	if !ok {
		return nil, nil, unsupported("subquery %T is not supported", q)
	}
	sub := b.child()
	plan, _, err := sub.bindStmt(stmt)
	if err != nil {
		return nil, nil, err
	}
	return sub, plan, nil
}

func subqueryOf(n ast.ExprNode) (ast.ResultSetNode, error) {
	for {
		switch x := n.(type) {
		case *ast.SubqueryExpr:
			return x.Query, nil
		case *ast.ParenthesesExpr:
			n = x.Expr
			continue
		}
		return nil, unsupported("expression %T is not supported as a subquery", n)
	}
}

// oneColumn checks that a subquery yields a single column.
func oneColumn(p *engine.Plan) error {
	if p.Visible != 1 {
		return engine.Errorf(engine.CodeSyntaxError, "subquery must return only one column")
	}
	return nil
}

// scalarSubquery binds (SELECT ...) used as a value.
func (b *binder) scalarSubquery(n *ast.SubqueryExpr) (engine.Expr, error) {
	sub, plan, err := b.subquery(n.Query)
	if err != nil {
		return nil, err
	}
	if err := oneColumn(plan); err != nil {
		return nil, err
	}
	t := plan.Project[0].Type()
	value := func(rows *engine.Batch, _ []*engine.Const) (*engine.Const, error) {
		switch rows.N {
		case 0:
			return &engine.Const{T: t, Null: true}, nil
		case 1:
			c := constOf(rows.Cols[0], 0)
			c.T = t
			return c, nil
		}
		return nil, engine.Errorf(engine.CodeCardinalityViolation, "more than one row returned by a subquery used as an expression")
	}
	if refs := sub.outerRefs(); len(refs) > 0 {
		if e, ok, err := b.scalarJoin(sub, plan); err != nil || ok { // decorrelate.go
			return e, err
		}
		return b.correlated("subquery", n.Query, refs, nil, t, value)
	}
	rows, err := b.collect(plan, "a subquery")
	if err != nil {
		return nil, err
	}
	return value(rows, nil)
}

// existsSubquery binds [NOT] EXISTS (SELECT ...).
func (b *binder) existsSubquery(n *ast.ExistsSubqueryExpr) (engine.Expr, error) {
	q, err := subqueryOf(n.Sel)
	if err != nil {
		return nil, err
	}
	sub, plan, err := b.subquery(q)
	if err != nil {
		return nil, err
	}
	exists := func(rows *engine.Batch, _ []*engine.Const) (*engine.Const, error) {
		v := int64(0)
		if rows.N > 0 {
			v = 1
		}
		if n.Not {
			v = 1 - v
		}
		return &engine.Const{T: engine.Bool, I: v}, nil
	}
	if oneRow(plan) {
		// an aggregate without GROUP BY or HAVING: always one row
		return &engine.Const{T: engine.Bool, I: boolInt(!n.Not)}, nil
	}
	if refs := sub.outerRefs(); len(refs) > 0 {
		if e, ok, err := b.existsCount(sub, plan, n.Not); err != nil || ok { // decorrelate.go
			return e, err
		}
		return b.correlated("exists", q, refs, nil, engine.Bool, exists)
	}
	if plan.Limit != 0 {
		plan.Limit = 1
	}
	rows, err := b.collect(plan, "a subquery")
	if err != nil {
		return nil, err
	}
	return exists(rows, nil)
}

// oneRow reports whether a plan returns exactly one row whatever its
// input: an aggregate without GROUP BY or HAVING, not cut by LIMIT 0 or
// an OFFSET.
func oneRow(p *engine.Plan) bool {
	return p.Aggregate && len(p.GroupBy) == 0 && p.Having == nil && p.Limit != 0 && p.Offset == 0
}

// inSubquery binds x [NOT] IN (SELECT ...).
func (b *binder) inSubquery(n *ast.PatternInExpr) (engine.Expr, error) {
	q, err := subqueryOf(n.Sel)
	if err != nil {
		return nil, err
	}
	return b.quantified(n.Expr, q, opcode.EQ, false, n.Not)
}

// compareSubquery binds x op ANY|ALL (SELECT ...).
func (b *binder) compareSubquery(n *ast.CompareSubqueryExpr) (engine.Expr, error) {
	q, err := subqueryOf(n.R)
	if err != nil {
		return nil, err
	}
	return b.quantified(n.L, q, n.Op, n.All, false)
}

// quantified binds x op ANY/ALL (subquery), IN being = ANY; not negates
// the result (NOT IN).
func (b *binder) quantified(xn ast.ExprNode, q ast.ResultSetNode, op opcode.Op, all, not bool) (engine.Expr, error) {
	x, err := b.expr(xn)
	if err != nil {
		return nil, err
	}
	sub, plan, err := b.subquery(q)
	if err != nil {
		return nil, err
	}
	if err := oneColumn(plan); err != nil {
		return nil, err
	}
	t := plan.Project[0].Type()
	// The comparison must exist for the types: checked once here.
	if _, err := b.compare(op, x, &engine.Const{T: t, Null: true}); err != nil {
		return nil, err
	}
	if refs := sub.outerRefs(); len(refs) > 0 {
		test := func(rows *engine.Batch, extra []*engine.Const) (*engine.Const, error) {
			e, err := b.anyAll(op, all, extra[0], rowConsts(rows, t))
			if err != nil {
				return nil, err
			}
			if not {
				if e, err = b.not(e); err != nil {
					return nil, err
				}
			}
			c, ok := e.(*engine.Const)
			if !ok {
				return nil, engine.Errorf(engine.CodeInternalError, "correlated ANY/ALL did not fold")
			}
			return c, nil
		}
		return b.correlated("any", q, refs, []engine.Expr{x}, engine.Bool, test)
	}
	rows, err := b.collect(plan, "a subquery")
	if err != nil {
		return nil, err
	}
	vals := rowConsts(rows, t)
	var e engine.Expr
	if op == opcode.EQ && !all && len(vals) > 0 {
		args := []engine.Expr{x}
		for _, v := range vals {
			args = append(args, v)
		}
		if args, _, err = coerceAll("IN", args); err != nil {
			return nil, err
		}
		e, err = fold(&engine.Call{Op: engine.OpIn, Args: args, T: engine.Bool})
	} else {
		e, err = b.anyAll(op, all, x, vals)
	}
	if err != nil || !not {
		return e, err
	}
	return b.not(e)
}

// rowConsts returns the distinct values of a one-column result.
func rowConsts(rows *engine.Batch, t engine.Type) []*engine.Const {
	seen := map[string]bool{}
	var out []*engine.Const
	var key []byte
	for i := 0; i < rows.N; i++ {
		key = eval.AppendKey(key[:0], rows.Cols[0], i)
		if seen[string(key)] {
			continue
		}
		seen[string(key)] = true
		c := constOf(rows.Cols[0], i)
		c.T = t
		out = append(out, c)
	}
	return out
}

// anyAll builds x op v1 OR x op v2 ... (ANY) or the AND of them (ALL):
// PostgreSQL's three-valued result. No values: ANY is false, ALL true.
func (b *binder) anyAll(op opcode.Op, all bool, x engine.Expr, vals []*engine.Const) (engine.Expr, error) {
	if len(vals) == 0 {
		v := int64(0)
		if all {
			v = 1
		}
		return &engine.Const{T: engine.Bool, I: v}, nil
	}
	join := engine.OpOr
	if all {
		join = engine.OpAnd
	}
	var e engine.Expr
	for _, v := range vals {
		c, err := b.compare(op, x, v)
		if err != nil {
			return nil, err
		}
		if e == nil {
			e = c
			continue
		}
		if e, err = fold(&engine.Call{Op: join, Args: []engine.Expr{e, c}, T: engine.Bool}); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// correlated makes a host function that, for each outer row, rebinds q
// with that row's values of refs, runs it and turns its rows into one
// value with per. extra are outer expressions per also gets, as
// constants (the left operand of IN). Equal outer values share a result.
func (b *binder) correlated(name string, q ast.ResultSetNode, refs []*engine.ColRef, extra []engine.Expr, t engine.Type,
	per func(rows *engine.Batch, extra []*engine.Const) (*engine.Const, error)) (engine.Expr, error) {
	if !b.src.host && !b.readsHostOnly(q) { // hoststep.go
		return nil, engine.Errorf(engine.CodeFeatureNotSupported, "correlated subqueries are supported over the system catalogs only; %q is a user table", b.src.name).
			WithHint("gpusql runs an uncorrelated subquery first and folds its result; see docs/sql.md.")
	}
	stmt := q.(ast.StmtNode)
	outer, st, s := b, b.st, b.s
	args := make([]engine.Expr, 0, len(refs)+len(extra))
	for _, r := range refs {
		args = append(args, r)
	}
	args = append(args, extra...)
	cache := map[string]*engine.Const{}
	fn := func(vs []*engine.Vec, n int) (*engine.Vec, error) {
		if !outer.src.host {
			st.perRow.Lock()
			defer st.perRow.Unlock()
		}
		out := engine.NewVec(t, n)
		var key []byte
		for i := 0; i < n; i++ {
			key = key[:0]
			for _, v := range vs {
				key = eval.AppendKey(key, v, i)
			}
			c, ok := cache[string(key)]
			if !ok {
				vals := map[int]*engine.Const{}
				for k, r := range refs {
					vals[r.Idx] = constOf(vs[k], i)
				}
				var ex []*engine.Const
				for k := range extra {
					ex = append(ex, constOf(vs[len(refs)+k], i))
				}
				sub := &binder{s: s, params: outer.params, st: st, outer: &outerScope{b: outer, vals: vals}}
				plan, _, err := sub.bindStmt(stmt)
				if err != nil {
					return nil, err
				}
				rows, err := s.collect(st.ctx, plan, "a subquery")
				if err != nil {
					return nil, err
				}
				if c, err = per(rows, ex); err != nil {
					return nil, err
				}
				cache[string(key)] = c
			}
			setSlot(out, i, c)
		}
		return out, nil
	}
	return &engine.HostFunc{Name: name, Args: args, T: t, Fn: fn}, nil
}

// setSlot stores constant c in row i of v.
func setSlot(v *engine.Vec, i int, c *engine.Const) {
	if c.Null {
		v.SetNull(i)
		return
	}
	switch engine.PhysOf(v.T.Kind) {
	case engine.PhysInt:
		v.I[i] = c.I
	case engine.PhysFloat:
		v.F[i] = c.F
	case engine.PhysDec:
		v.D[i] = c.D
	case engine.PhysStr:
		v.S[i] = []byte(c.S)
	case engine.PhysInterval:
		v.V[i] = c.V
	}
}

// collect runs a plan whose rows binding needs (a subquery folded into a
// constant, a derived table, a set operation's side). While a statement
// is only being described (Parse, Describe: stmtState.describe) nothing
// runs: the plan is taken as returning no rows, since only its types
// matter then, and it runs once when the statement executes. While a
// statement is being prepared its parameters have no values yet, and the
// types a plan that reads one gives them are recorded.
func (b *binder) collect(plan *engine.Plan, what string) (*engine.Batch, error) {
	reads := b.params != nil && b.params.values == nil && planReadsParam(plan)
	if reads {
		b.params.inferExprs(plan)
	}
	if reads || b.st.describe {
		out := &engine.Batch{Cols: make([]*engine.Vec, plan.Visible)}
		for k := range out.Cols {
			out.Cols[k] = &engine.Vec{T: plan.Project[k].Type()}
		}
		return out, nil
	}
	return b.s.collect(b.st.ctx, plan, what)
}

// planReadsParam reports whether a plan holds a parameter of a statement
// being prepared.
func planReadsParam(p *engine.Plan) bool {
	exprs := append([]engine.Expr{p.Filter, p.Having}, p.GroupBy...)
	exprs = append(exprs, p.Project...)
	for _, a := range p.Aggs {
		exprs = append(exprs, a.Exprs()...)
	}
	for _, e := range exprs {
		if readsParam(e) {
			return true
		}
	}
	return false
}

func readsParam(e engine.Expr) bool {
	switch e := e.(type) {
	case *paramRef:
		return true
	case *engine.Call:
		for _, a := range e.Args {
			if readsParam(a) {
				return true
			}
		}
	case *engine.HostFunc:
		for _, a := range e.Args {
			if readsParam(a) {
				return true
			}
		}
	case *engine.Case:
		for i := range e.Conds {
			if readsParam(e.Conds[i]) || readsParam(e.Results[i]) {
				return true
			}
		}
		return readsParam(e.Else)
	}
	return false
}
