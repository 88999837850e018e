package query

import (
	"fmt"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/eval"
)

// WITH RECURSIVE. A WITH query of a RECURSIVE list that reads its own
// name must be `non-recursive term UNION [ALL] recursive term`, and is
// evaluated while binding, as PostgreSQL evaluates it: the non-recursive
// term's rows are the first working table; the recursive term runs again
// and again with the name bound to the working table (the rows the last
// round added), its rows are appended, and they become the next working
// table, until a round adds none. With UNION, rows equal to one already
// produced are dropped (NULLs equal each other). The columns' types are
// the non-recursive term's; the recursive term's must not widen them.
// The rows live in host memory and the result is a host table that the
// statement's other FROM items read as they read a derived table's.
// PostgreSQL loops for ever on a recursion that never ends; gpusql stops
// it at the host row limit (54000) or the statement's memory budget.

// recursion contexts a self-reference may be found in (PostgreSQL's
// RecursionContext), with the error each but recOK gives.
type recContext uint8

const (
	recOK recContext = iota
	recNonRecursive
	recSublink
	recOuterJoin
	recIntersect
	recExcept
)

var recContextErrs = [...]string{
	recNonRecursive: "recursive reference to query %q must not appear within its non-recursive term",
	recSublink:      "recursive reference to query %q must not appear within a subquery",
	recOuterJoin:    "recursive reference to query %q must not appear within an outer join",
	recIntersect:    "recursive reference to query %q must not appear within INTERSECT",
	recExcept:       "recursive reference to query %q must not appear within EXCEPT",
}

// recWalker finds the references to a WITH query's name in a tree and
// checks where they stand.
type recWalker struct {
	name string
	ctx  recContext
	st   *recState
}

type recState struct {
	refs int
	err  error
	// aggSel is a SELECT that reads the name directly in its FROM and
	// calls an aggregate: an error, raised after the structural checks.
	aggSel bool
}

func (w *recWalker) walk(n ast.Node, ctx recContext) {
	if n == nil || w.st.err != nil {
		return
	}
	n.Accept(&recWalker{name: w.name, ctx: ctx, st: w.st})
}

func (w *recWalker) fail(code, format string, args ...any) {
	if w.st.err == nil {
		w.st.err = engine.Errorf(code, format, args...)
	}
}

func (w *recWalker) Enter(n ast.Node) (ast.Node, bool) {
	if w.st.err != nil {
		return n, true
	}
	switch x := n.(type) {
	case *ast.TableName:
		if x.Schema.O == "" && x.Name.O == w.name {
			if w.ctx != recOK {
				w.fail(engine.CodeRecursiveQuery, recContextErrs[w.ctx], w.name)
			}
			w.st.refs++
			if w.st.refs > 1 {
				w.fail(engine.CodeRecursiveQuery, "recursive reference to query %q must not appear more than once", w.name)
			}
		}
	case *ast.SubqueryExpr:
		w.walk(x.Query, recSublink)
		return n, true
	case *ast.Join:
		l, r := w.ctx, w.ctx
		if x.Right != nil {
			switch x.Tp {
			case ast.LeftJoin:
				r = recOuterJoin
				if f, ok := onCall(x); ok && (f == "__gpusql_full_join" || f == "__gpusql_full_using") {
					l = recOuterJoin
				}
			case ast.RightJoin:
				l = recOuterJoin
			}
		}
		w.walk(x.Left, l)
		if x.Right != nil {
			w.walk(x.Right, r)
		}
		if x.On != nil {
			w.walk(x.On, w.ctx)
		}
		return n, true
	case *ast.SetOprSelectList:
		if x.With != nil {
			w.walk(x.With, w.ctx)
		}
		for i, s := range x.Selects {
			ctx := w.ctx
			switch {
			case isSetOp(setOpOf(s), ast.Intersect, ast.IntersectAll):
				ctx = recIntersect
			case i+1 < len(x.Selects) && isSetOp(setOpOf(x.Selects[i+1]), ast.Intersect, ast.IntersectAll):
				ctx = recIntersect
			case isSetOp(setOpOf(s), ast.Except, ast.ExceptAll):
				ctx = recExcept
			}
			w.walk(s, ctx)
		}
		if x.OrderBy != nil {
			w.walk(x.OrderBy, w.ctx)
		}
		if x.Limit != nil {
			w.walk(x.Limit, w.ctx)
		}
		return n, true
	case *ast.SelectStmt:
		if w.ctx == recOK && x.From != nil && fromReads(x.From.TableRefs, w.name) && selectHasAgg(x) {
			w.st.aggSel = true
		}
	}
	return n, false
}

func (w *recWalker) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// onCall is the name of the call a join's ON condition is, if it is one
// (FULL JOIN arrives as a LEFT JOIN whose ON is a marker call).
func onCall(j *ast.Join) (string, bool) {
	if j.On == nil {
		return "", false
	}
	f, ok := j.On.Expr.(*ast.FuncCallExpr)
	if !ok {
		return "", false
	}
	return f.FnName.L, true
}

// setOpOf is the operator before a set operation's operand.
func setOpOf(n ast.Node) *ast.SetOprType {
	switch x := n.(type) {
	case *ast.SelectStmt:
		return x.AfterSetOperator
	case *ast.SetOprSelectList:
		return x.AfterSetOperator
	}
	return nil
}

func isSetOp(op *ast.SetOprType, ops ...ast.SetOprType) bool {
	if op == nil {
		return false
	}
	for _, o := range ops {
		if *op == o {
			return true
		}
	}
	return false
}

// fromReads reports whether a FROM clause's join tree names table name
// itself (not inside a derived table).
func fromReads(n ast.ResultSetNode, name string) bool {
	switch x := n.(type) {
	case *ast.Join:
		return fromReads(x.Left, name) || x.Right != nil && fromReads(x.Right, name)
	case *ast.TableSource:
		t, ok := x.Source.(*ast.TableName)
		return ok && t.Schema.O == "" && t.Name.O == name
	}
	return false
}

// selectHasAgg reports whether a SELECT's list, HAVING or ORDER BY calls
// an aggregate of its own level.
func selectHasAgg(sel *ast.SelectStmt) bool {
	if sel.Fields != nil {
		for _, f := range sel.Fields.Fields {
			if f.Expr != nil && hasAggregate(f.Expr) {
				return true
			}
		}
	}
	return sel.Having != nil && hasAggregate(sel.Having) || sel.OrderBy != nil && hasAggregate(sel.OrderBy)
}

// readsName reports whether a query names table name (unqualified)
// anywhere.
func readsName(n ast.Node, name string) bool {
	w := &recWalker{name: name, ctx: recOK, st: &recState{}}
	n.Accept(w)
	return w.st.refs > 0 || w.st.err != nil
}

// namesRead lists which of names a query names (unqualified) anywhere.
type nameCollector struct {
	names map[string]bool
	found map[string]bool
}

func (c *nameCollector) Enter(n ast.Node) (ast.Node, bool) {
	if t, ok := n.(*ast.TableName); ok && t.Schema.O == "" && c.names[t.Name.O] {
		c.found[t.Name.O] = true
	}
	return n, false
}

func (c *nameCollector) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// recursiveOrder orders a WITH RECURSIVE list so that each query comes
// after the others it reads (PostgreSQL lets a RECURSIVE list refer
// forward), keeping the written order where it can. Queries that read
// each other are mutual recursion, which PostgreSQL does not implement
// either.
func recursiveOrder(ctes []*ast.CommonTableExpression) ([]*ast.CommonTableExpression, error) {
	names := map[string]bool{}
	for _, c := range ctes {
		names[c.Name.O] = true
	}
	deps := make([]map[string]bool, len(ctes))
	for i, c := range ctes {
		col := &nameCollector{names: names, found: map[string]bool{}}
		c.Query.Query.Accept(col)
		delete(col.found, c.Name.O)
		deps[i] = col.found
	}
	placed := map[string]bool{}
	done := make([]bool, len(ctes))
	out := make([]*ast.CommonTableExpression, 0, len(ctes))
	for len(out) < len(ctes) {
		progress := false
		for i, c := range ctes {
			if done[i] {
				continue
			}
			ready := true
			for d := range deps[i] {
				if !placed[d] {
					ready = false
					break
				}
			}
			if ready {
				done[i], placed[c.Name.O], progress = true, true, true
				out = append(out, c)
				break
			}
		}
		if !progress {
			return nil, engine.Errorf(engine.CodeFeatureNotSupported, "mutual recursion between WITH items is not implemented")
		}
	}
	return out, nil
}

// checkRecursive checks a self-referencing WITH query's shape as
// PostgreSQL does, and returns its non-recursive operands, its recursive
// term and whether it is UNION ALL.
func checkRecursive(cte *ast.CommonTableExpression) ([]ast.Node, ast.Node, bool, error) {
	name := cte.Name.O
	form := engine.Errorf(engine.CodeRecursiveQuery, "recursive query %q does not have the form non-recursive-term UNION [ALL] recursive-term", name)
	st, ok := cte.Query.Query.(*ast.SetOprStmt)
	if !ok || st.SelectList == nil || len(st.SelectList.Selects) < 2 {
		return nil, nil, false, form
	}
	sels := st.SelectList.Selects
	last := sels[len(sels)-1]
	op := setOpOf(last)
	if !isSetOp(op, ast.Union, ast.UnionAll) {
		return nil, nil, false, form
	}
	w := &recWalker{name: name, st: &recState{}}
	for _, s := range sels[:len(sels)-1] {
		w.walk(s, recNonRecursive)
	}
	w.st.refs = 0
	w.walk(last, recOK)
	if w.st.err != nil {
		return nil, nil, false, w.st.err
	}
	if w.st.refs != 1 {
		return nil, nil, false, form
	}
	for _, with := range []*ast.WithClause{st.With, st.SelectList.With} {
		if with != nil && readsName(with, name) {
			return nil, nil, false, engine.Errorf(engine.CodeRecursiveQuery, recContextErrs[recSublink], name)
		}
	}
	for _, l := range []struct {
		order *ast.OrderByClause
		limit *ast.Limit
	}{{st.OrderBy, st.Limit}, {st.SelectList.OrderBy, st.SelectList.Limit}} {
		if l.order != nil {
			return nil, nil, false, unsupported("ORDER BY in a recursive query is not implemented")
		}
		if l.limit != nil && l.limit.Offset != nil {
			return nil, nil, false, unsupported("OFFSET in a recursive query is not implemented")
		}
		if l.limit != nil && l.limit.Count != nil {
			return nil, nil, false, unsupported("LIMIT in a recursive query is not implemented")
		}
	}
	if w.st.aggSel {
		return nil, nil, false, engine.Errorf(engine.CodeRecursiveQuery, "aggregate functions are not allowed in a recursive query's recursive term")
	}
	return sels[:len(sels)-1], last, *op == ast.UnionAll, nil
}

// sameType reports whether two types are the same PostgreSQL type and
// modifier.
func sameType(a, b engine.Type) bool {
	return a.Kind == b.Kind && a.OID() == b.OID() && a.Typmod() == b.Typmod()
}

// recursiveCTE evaluates a self-referencing WITH query (see the top of
// this file) into a host source named after it.
func (b *binder) recursiveCTE(cte *ast.CommonTableExpression) (source, error) {
	name := cte.Name.O
	nonrec, rec, all, err := checkRecursive(cte)
	if err != nil {
		return source{}, err
	}
	st := cte.Query.Query.(*ast.SetOprStmt)
	if err := b.bindWith(st.With); err != nil {
		return source{}, err
	}
	if err := b.bindWith(st.SelectList.With); err != nil {
		return source{}, err
	}
	what := fmt.Sprintf("recursive query %q", name)

	// The non-recursive term fixes the columns: an unknown literal or a
	// bare NULL is text, as in PostgreSQL.
	sub := b.child()
	first, err := sub.setList(&ast.SetOprSelectList{Selects: nonrec})
	if err != nil {
		return source{}, err
	}
	if len(sub.outerRefs()) > 0 {
		return source{}, unsupported("a WITH RECURSIVE query cannot refer to columns of an outer query in gpusql")
	}
	ts := make([]engine.Type, len(first.types))
	for k, t := range first.types {
		if first.nulls[k] || t.Kind == engine.KindUnknown {
			t = engine.Text
		}
		ts[k] = t
	}
	names := append([]string(nil), first.names...)
	if len(cte.ColNameList) > len(names) {
		return source{}, engine.Errorf(engine.CodeInvalidColumnReference, "WITH query %q has %d columns available but %d columns specified", name, len(names), len(cte.ColNameList))
	}
	for i, c := range cte.ColNameList {
		names[i] = c.O
	}
	cols := make([]engine.ColumnDef, len(ts))
	for k, t := range ts {
		cols[k] = engine.ColumnDef{Name: names[k], Type: t}
	}
	work, err := b.runSetRows(sub, first, ts, what)
	if err != nil {
		return source{}, err
	}

	// UNION keeps the first of equal rows, over all rounds.
	var seen map[string]bool
	var key []byte
	distinct := func(bt *engine.Batch) (*engine.Batch, error) {
		if all {
			return bt, nil
		}
		if seen == nil {
			seen = map[string]bool{}
		}
		var keep []int32
		for i := 0; i < bt.N; i++ {
			key = key[:0]
			for _, v := range bt.Cols {
				key = eval.AppendKey(key, v, i)
			}
			if seen[string(key)] {
				continue
			}
			seen[string(key)] = true
			keep = append(keep, int32(i))
			if err := chargeMemory(b.st.ctx, int64(len(key))+48, what); err != nil {
				return nil, err
			}
		}
		if len(keep) == bt.N {
			return bt, nil
		}
		return eval.GatherBatch(bt, keep), nil
	}
	if work, err = distinct(work); err != nil {
		return source{}, err
	}
	rows := []*engine.Batch{work}
	total := work.N

	saved, had := b.st.ctes[name]
	defer func() {
		if had {
			b.st.ctes[name] = saved
		} else {
			delete(b.st.ctes, name)
		}
	}()
	if b.st.ctes == nil {
		b.st.ctes = map[string]source{}
	}
	for round := 0; ; round++ {
		if err := b.st.ctx.Err(); err != nil {
			return source{}, engine.Errorf(engine.CodeQueryCanceled, "canceling statement due to user request")
		}
		h, err := engine.HostFromBatchesExact(ts, []*engine.Batch{work})
		if err != nil {
			return source{}, err
		}
		b.st.ctes[name] = source{name: name, alias: name, cols: cols, data: h, present: true, host: true}
		side := b.child()
		r, err := side.setList(&ast.SetOprSelectList{Selects: []ast.Node{rec}})
		if err != nil {
			return source{}, err
		}
		if round == 0 {
			if err := recursiveTypes(name, first, r, ts); err != nil {
				return source{}, err
			}
			if len(side.outerRefs()) > 0 {
				return source{}, unsupported("a WITH RECURSIVE query cannot refer to columns of an outer query in gpusql")
			}
		}
		if work.N == 0 {
			break
		}
		next, err := b.runSetRows(side, r, ts, what)
		if err != nil {
			return source{}, err
		}
		if next, err = distinct(next); err != nil {
			return source{}, err
		}
		if next.N == 0 {
			break
		}
		if total += next.N; total > maxHostRows {
			return source{}, errTooManyRows(what)
		}
		rows = append(rows, next)
		work = next
	}
	h, err := engine.HostFromBatchesExact(ts, rows)
	if err != nil {
		return source{}, err
	}
	return source{name: name, alias: name, cols: cols, data: h, present: true, host: true}, nil
}

// recursiveTypes checks the recursive term's column types against the
// non-recursive term's (first, fixed as ts): the type the UNION of the
// two would take must be ts's, modifier included (PostgreSQL's rule).
func recursiveTypes(name string, first, r *setRows, ts []engine.Type) error {
	if len(r.types) != len(ts) {
		return engine.Errorf(engine.CodeSyntaxError, "each UNION query must have the same number of columns")
	}
	for k, t := range ts {
		lt, rt := first.types[k], r.types[k]
		switch {
		case first.nulls[k] && r.nulls[k]:
			continue
		case first.nulls[k]:
			lt = rt
		case r.nulls[k]:
			rt = lt
		}
		u, ok := setType(lt, rt)
		if ok && sameType(lt, rt) {
			u = lt // one modifier on both sides stays
		}
		if !ok {
			return engine.Errorf(engine.CodeDatatypeMismatch, "UNION types %s and %s cannot be matched", first.types[k], r.types[k])
		}
		if !sameType(u, t) {
			return engine.Errorf(engine.CodeDatatypeMismatch, "recursive query %q column %d has type %s in non-recursive term but type %s overall", name, k+1, t, u).
				WithHint("Cast the output of the non-recursive term to the correct type.")
		}
	}
	return nil
}

// runSetRows runs a bound set operand with its columns cast to ts and
// returns its rows.
func (b *binder) runSetRows(side *binder, r *setRows, ts []engine.Type, what string) (*engine.Batch, error) {
	rel, err := castSide(r, ts)
	if err != nil {
		return nil, err
	}
	plan, _, err := b.finishSet(&setRows{names: r.names, types: ts, rel: rel, host: r.host}, nil, nil)
	if err != nil {
		return nil, err
	}
	return side.collect(plan, what)
}
