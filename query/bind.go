package query

import (
	"context"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/query/parse"
)

// source is what FROM names: a table's columns and its data snapshot.
type source struct {
	name    string // table name
	alias   string // name used to qualify columns
	cols    []engine.ColumnDef
	data    engine.TableData
	oid     uint32
	present bool // false: no FROM clause
	// host: the data is in host memory (system relations, joins, derived
	// tables, set operations) and the plan runs on the host executor.
	host bool
	// rels are the FROM items of a join (nil for one table); see scope.
	rels []rel
	// rel, when set, is the plan tree that produces the source's rows (a
	// join, a derived table, a WITH query, a set operation); data is
	// then nil.
	rel engine.Rel
}

// binder turns one SELECT's AST into a plan. With agg set it binds in
// the aggregate output's scope.
type binder struct {
	s      *Session
	src    source
	agg    *aggScope
	params *paramEnv // the statement's $n; nil when it has none
	st     *stmtState
	// outer is the enclosing query's scope, for a subquery.
	outer *outerScope
	// win collects the select's window calls while its select list
	// and ORDER BY bind; nil elsewhere (window.go).
	win *windowScope
	// sets collects the select list's set-returning calls while it binds
	// (srf.go); nil elsewhere.
	sets *srfScope
	// noJoins: subqueries may not become joins of src (decorrelate.go);
	// set while binding the ON condition of an outer join, whose sides
	// are not yet joined.
	noJoins bool
}

// stmtState is shared by every binder of one statement.
type stmtState struct {
	// ctx is the statement's context: the subqueries, derived tables and
	// joins run while binding, and correlated subqueries, run under it.
	ctx context.Context
	// sources caches the system relations the statement names, so that a
	// correlated subquery rebound per row builds them once.
	sources map[string]source
	// ctes are the WITH queries in scope, materialised (join.go).
	ctes map[string]source
	// describe: the statement is bound only to learn its result columns
	// and parameter types (Parse, Describe). Uncorrelated subqueries,
	// derived tables and set-operation sides then bind as empty results
	// instead of running: they run when the statement executes, once.
	describe bool
	// perRow serialises the host functions of correlated subqueries over
	// a user table: the CPU backend's workers call them concurrently, and
	// each rebinds through this state (hoststep.go); over host data the
	// host executor's one worker calls them, nested ones included
	perRow sync.Mutex
	// regOIDs: select lists bind reg* casts as the OIDs they are, not as
	// the names they print as; set while a set operation whose sides
	// mix the two is bound again (bindSetOpr).
	regOIDs bool
}

type aggScope struct {
	groups    []engine.Expr
	groupKeys []string
	aggs      []engine.AggCall
	aggKeys   []string
	// filter is the FILTER (WHERE ...) of the aggregate being bound
	// (bindpgagg.go); sets are the GROUPING SETS (groupingsets.go).
	filter   engine.Expr
	sets     []groupingSet
	grouping []groupingFunc
}

func unsupported(format string, args ...any) error {
	return engine.Errorf(engine.CodeFeatureNotSupported, format, args...)
}

// bindSelect binds a SELECT statement. ctx is the statement's: binding
// runs uncorrelated subqueries, derived tables and joins, which a cancel
// request or statement_timeout must stop as it stops the query.
func (s *Session) bindSelect(ctx context.Context, stmt ast.StmtNode) (*engine.Plan, []engine.ResultColumn, error) {
	return s.bindSelectParams(ctx, stmt, nil)
}

// bindSelectParams binds a SELECT whose $n are described by params.
func (s *Session) bindSelectParams(ctx context.Context, stmt ast.StmtNode, params *paramEnv) (*engine.Plan, []engine.ResultColumn, error) {
	b := &binder{s: s, params: params, st: &stmtState{ctx: ctx, sources: map[string]source{}}}
	return b.bindStmt(stmt)
}

// describeSelect binds a SELECT only to describe it (stmtState.describe):
// nothing it contains runs.
func (s *Session) describeSelect(ctx context.Context, stmt ast.StmtNode, params *paramEnv) (*engine.Plan, []engine.ResultColumn, error) {
	b := &binder{s: s, params: params, st: &stmtState{ctx: ctx, sources: map[string]source{}, describe: true}}
	return b.bindStmt(stmt)
}

// bindStmt binds a SELECT or a set operation in b's statement.
func (b *binder) bindStmt(stmt ast.StmtNode) (*engine.Plan, []engine.ResultColumn, error) {
	switch st := stmt.(type) {
	case *ast.SelectStmt:
		return b.bindSelect(st)
	case *ast.SetOprStmt:
		return b.bindSetOpr(st)
	}
	return nil, nil, unsupported("statement %T is not supported here", stmt)
}

// child makes a binder for a subquery of b's query. Over user tables its
// references to b's columns are marked, so that the subquery can become
// a join (decorrelate.go).
func (b *binder) child() *binder {
	return &binder{s: b.s, params: b.params, st: b.st, outer: &outerScope{b: b, mark: b.src.present && !b.src.host && b.agg == nil && !b.noJoins}}
}

// bindSelect binds one SELECT.
func (b *binder) bindSelect(sel *ast.SelectStmt) (*engine.Plan, []engine.ResultColumn, error) {
	if err := b.bindWith(sel.With); err != nil {
		return nil, nil, err
	}
	b.params.mapMarkers(sel.Limit)
	if err := b.bindFrom(sel.From); err != nil {
		return nil, nil, err
	}
	ws, err := newWindowScope(sel)
	if err != nil {
		return nil, nil, err
	}
	p := b.src.plan()
	p.Distinct = sel.Distinct
	if !b.src.present {
		p.Table = ""
	}
	on := distinctOn(sel) // groupingsets.go

	// The select list, with * expanded.
	type item struct {
		node ast.ExprNode
		name string
		col  int // table column for *, else -1
	}
	var items []item
	for _, f := range sel.Fields.Fields {
		if f.WildCard != nil {
			if !b.src.present {
				return nil, nil, engine.Errorf(engine.CodeSyntaxError, "SELECT * with no tables specified is not valid")
			}
			q := f.WildCard.Table.O
			found := false
			for _, r := range b.src.scope() {
				if q != "" && r.alias != q {
					continue
				}
				found = true
				for i := r.start; i < r.start+r.n; i++ {
					if q == "" && r.hidden[i] {
						continue
					}
					items = append(items, item{name: b.src.cols[i].Name, col: i})
				}
			}
			if !found {
				return nil, nil, engine.Errorf(engine.CodeUndefinedTable, "missing FROM-clause entry for table %q", q)
			}
			continue
		}
		name := f.AsName.O
		if name == "" {
			name = exprName(f.Expr)
		}
		if nodes, names, ok := expandRecordItem(f.Expr, name); ok { // srf.go
			for k := range nodes {
				items = append(items, item{node: nodes[k], name: names[k], col: -1})
			}
			continue
		}
		items = append(items, item{node: f.Expr, name: name, col: -1})
	}

	if sel.Where != nil {
		if hasAggregate(sel.Where) {
			return nil, nil, engine.Errorf(engine.CodeGroupingError, "aggregate functions are not allowed in WHERE")
		}
		// subqueries among WHERE's conjuncts become joins of the source
		// (decorrelate.go); the others are the filter
		conjs, err := b.semiJoins(sel.Where)
		if err != nil {
			return nil, nil, err
		}
		for _, c := range conjs {
			w, err := b.predicate(c, "WHERE")
			if err != nil {
				return nil, nil, err
			}
			p.Filter = andExpr(p.Filter, w)
		}
	}

	aggregate := sel.GroupBy != nil || (sel.Having != nil)
	for _, it := range items {
		if it.node != nil && hasAggregate(it.node) {
			aggregate = true
		}
	}
	if sel.OrderBy != nil {
		for _, o := range sel.OrderBy.Items {
			if hasAggregate(o.Expr) {
				aggregate = true
			}
		}
	}
	if aggregate {
		p.Aggregate = true
		b.agg = &aggScope{}
		if sel.GroupBy != nil {
			groupItems, sets, err := expandGroupBy(sel.GroupBy.Items) // groupingsets.go
			if err != nil {
				return nil, nil, err
			}
			for _, g := range groupItems {
				node := g.Expr
				switch n := node.(type) {
				case *ast.PositionExpr:
					if n.N < 1 || n.N > len(items) {
						return nil, nil, engine.Errorf(engine.CodeInvalidColumnReference, "GROUP BY position %d is not in select list", n.N)
					}
					it := items[n.N-1]
					if it.node == nil {
						node = &ast.ColumnNameExpr{Name: &ast.ColumnName{Name: ast.NewCIStr(it.name)}}
					} else {
						node = it.node
					}
				case *ast.ColumnNameExpr:
					if n.Name.Table.O == "" {
						if _, ok := b.column(n.Name.Name.O); !ok {
							for _, it := range items {
								if it.name == n.Name.Name.O && it.node != nil {
									node = it.node
									break
								}
							}
						}
					}
				}
				if hasAggregate(node) {
					return nil, nil, engine.Errorf(engine.CodeGroupingError, "aggregate functions are not allowed in GROUP BY")
				}
				e, err := b.plain().expr(node)
				if err != nil {
					return nil, nil, err
				}
				if isUnknown(e) {
					if e, err = castTo(e, engine.Text); err != nil {
						return nil, nil, err
					}
				}
				b.agg.groups = append(b.agg.groups, e)
				b.agg.groupKeys = append(b.agg.groupKeys, e.String())
			}
			if err := b.finishGroupingSets(sel, sets); err != nil {
				return nil, nil, err
			}
		}
	}

	var cols []engine.ResultColumn
	b.win = ws
	srfs := &srfScope{}
	b.sets = srfs
	for _, it := range items {
		var e engine.Expr
		var err error
		rc := engine.ResultColumn{Name: it.name}
		if it.node == nil {
			e, err = b.starColumn(it.col)
			if !aggregate {
				rc.TableOID, rc.ColNum = b.colOrigin(it.col)
			}
		} else {
			// A reg* cast shows as the name, as PostgreSQL prints it.
			var isReg bool
			if b.st.regOIDs {
				e, err = b.expr(it.node)
			} else if e, isReg, err = b.regText(it.node); !isReg {
				e, err = b.expr(it.node)
			}
			if c, ok := e.(*engine.ColRef); ok && !aggregate && c.Idx < len(b.src.cols) {
				rc.TableOID, rc.ColNum = b.colOrigin(c.Idx)
			}
		}
		if err != nil {
			return nil, nil, err
		}
		if isUnknown(e) {
			if e, err = castTo(e, engine.Text); err != nil {
				return nil, nil, err
			}
		}
		t := e.Type()
		rc.TypeOID, rc.TypLen, rc.Typmod = t.OID(), t.TypLen(), t.Typmod()
		p.Project = append(p.Project, e)
		p.Names = append(p.Names, it.name)
		cols = append(cols, rc)
	}
	b.sets = nil
	p.Visible = len(p.Project)

	if sel.Having != nil {
		b.win = nil
		h, err := b.predicate(sel.Having.Expr, "HAVING")
		if err != nil {
			return nil, nil, err
		}
		p.Having = h
		b.win = ws
	}

	if sel.OrderBy != nil {
		for _, o := range sel.OrderBy.Items {
			key, err := b.orderKey(p, o, sel.Distinct)
			if err != nil {
				return nil, nil, err
			}
			p.OrderBy = append(p.OrderBy, key)
		}
	}
	if on != nil {
		if err := b.bindDistinctOn(p, on); err != nil {
			return nil, nil, err
		}
	}
	if sel.Limit != nil {
		var err error
		if sel.Limit.Count != nil {
			if p.Limit, err = b.limitValue(sel.Limit.Count, "LIMIT"); err != nil {
				return nil, nil, err
			}
		}
		if sel.Limit.Offset != nil {
			off, err := b.limitValue(sel.Limit.Offset, "OFFSET")
			if err != nil {
				return nil, nil, err
			}
			if off > 0 {
				p.Offset = off
			}
		}
	}
	b.win = nil
	if b.agg != nil {
		p.GroupBy = b.agg.groups
		p.Aggs = b.agg.aggs
		p.GroupingSets = b.planGroupingSets()
	}
	// Binding may have joined subqueries to the source: the plan reads
	// the source as it is now.
	final := b.src.plan()
	p.Input, p.Data, p.Schema, p.Table, p.Host = final.Input, final.Data, final.Schema, final.Table, final.Host
	if !b.src.present {
		p.Table = ""
	}
	if len(srfs.calls) > 0 {
		if len(ws.calls) > 0 {
			return nil, nil, unsupported("set-returning functions beside window functions in one select list are not supported by gpusql")
		}
		p = srfs.finish(b, p) // srf.go
	}
	if len(ws.calls) > 0 {
		p = ws.finish(b, p)
	}
	return p, cols, nil
}

func (b *binder) limitValue(n ast.ExprNode, what string) (int64, error) {
	e, err := b.limitExpr(n)
	if err != nil {
		return 0, err
	}
	if e == nil {
		return -1, nil // a parameter, while preparing
	}
	c, ok := e.(*engine.Const)
	if !ok {
		return 0, engine.Errorf(engine.CodeSyntaxError, "argument of %s must not contain variables", what)
	}
	if c.Null {
		return -1, nil
	}
	if c.T.Kind == engine.KindNumeric { // values past bigint, e.g. OFFSET without LIMIT's rewrite
		if v, ok := c.D.Round(0).Int64(); ok && c.D.Scale == 0 {
			c = &engine.Const{T: engine.Int64, I: v}
		} else if c.D.Sign() > 0 {
			return math.MaxInt64, nil
		}
	}
	if !c.T.IsInteger() {
		cc, err := castTo(c, engine.Int64)
		if err != nil {
			return 0, err
		}
		c = cc.(*engine.Const)
	}
	if c.I < 0 {
		return 0, engine.Errorf(engine.CodeLimitMustNotBeNegative, "%s must not be negative", what)
	}
	return c.I, nil
}

// orderKey resolves one ORDER BY item: a position, an output column name,
// or an expression (added as a hidden output column if not in the list).
func (b *binder) orderKey(p *engine.Plan, o *ast.ByItem, distinct bool) (engine.SortKey, error) {
	key := engine.SortKey{Desc: o.Desc}
	key.NullsFirst = o.Desc
	node := o.Expr
	if f, ok := node.(*ast.FuncCallExpr); ok && (f.FnName.L == "__gpusql_nulls_first" || f.FnName.L == "__gpusql_nulls_last") && len(f.Args) == 1 {
		key.NullsFirst = f.FnName.L == "__gpusql_nulls_first"
		node = f.Args[0]
		if v, ok := node.(ast.ValueExpr); ok {
			if n, ok := v.GetValue().(int64); ok {
				node = &ast.PositionExpr{N: int(n)}
			}
		}
	}
	switch n := node.(type) {
	case *ast.PositionExpr:
		if n.N < 1 || n.N > p.Visible {
			return key, engine.Errorf(engine.CodeInvalidColumnReference, "ORDER BY position %d is not in select list", n.N)
		}
		key.Col = n.N - 1
		return key, nil
	case *ast.ColumnNameExpr:
		if n.Name.Table.O == "" {
			found := -1
			for i := 0; i < p.Visible; i++ {
				if p.Names[i] == n.Name.Name.O {
					if found >= 0 && p.Project[found].String() != p.Project[i].String() {
						return key, engine.Errorf(engine.CodeAmbiguousColumn, "ORDER BY %q is ambiguous", n.Name.Name.O)
					}
					if found < 0 {
						found = i
					}
				}
			}
			if found >= 0 {
				key.Col = found
				return key, nil
			}
		}
	}
	e, err := b.expr(node)
	if err != nil {
		return key, err
	}
	if isUnknown(e) {
		if e, err = castTo(e, engine.Text); err != nil {
			return key, err
		}
	}
	s := e.String()
	for i, pe := range p.Project {
		if pe.String() == s {
			key.Col = i
			return key, nil
		}
	}
	if distinct {
		return key, engine.Errorf(engine.CodeInvalidColumnReference, "for SELECT DISTINCT, ORDER BY expressions must appear in select list")
	}
	p.Project = append(p.Project, e)
	p.Names = append(p.Names, "")
	key.Col = len(p.Project) - 1
	return key, nil
}

func (b *binder) plain() *binder {
	return &binder{s: b.s, src: b.src, params: b.params, st: b.st, outer: b.outer, noJoins: b.noJoins}
}

// predicate binds a boolean condition.
func (b *binder) predicate(n ast.ExprNode, clause string) (engine.Expr, error) {
	e, err := b.expr(n)
	if err != nil {
		return nil, err
	}
	if isUnknown(e) {
		return castTo(e, engine.Bool)
	}
	if e.Type().Kind != engine.KindBool {
		return nil, engine.Errorf(engine.CodeDatatypeMismatch, "argument of %s must be type boolean, not type %s", clause, e.Type())
	}
	return e, nil
}

func (b *binder) bindFrom(from *ast.TableRefsClause) error {
	if from == nil || from.TableRefs == nil {
		return nil
	}
	src, err := b.fromItem(from.TableRefs)
	if err != nil {
		return err
	}
	b.src = src
	return nil
}

// column finds a source column by unqualified name.
func (b *binder) column(name string) (int, bool) {
	for _, r := range b.src.scope() {
		for i := r.start; i < r.start+r.n; i++ {
			if b.src.cols[i].Name == name && !r.hidden[i] {
				return i, true
			}
		}
	}
	return -1, false
}

// colOrigin is the table OID and column number of source column i, for
// RowDescription (0, 0 when it is not a table's column).
func (b *binder) colOrigin(i int) (uint32, int16) {
	for _, r := range b.src.scope() {
		if i >= r.start && i < r.start+r.n && r.oid != 0 {
			return r.oid, int16(i - r.start + 1)
		}
	}
	return 0, 0
}

// starColumn binds source column i as * expands it.
func (b *binder) starColumn(i int) (engine.Expr, error) {
	c := b.src.cols[i]
	e := &engine.ColRef{Idx: i, Name: c.Name, T: c.Type}
	if b.agg == nil {
		return e, nil
	}
	for k, g := range b.agg.groupKeys {
		if g == e.String() {
			return &engine.ColRef{Idx: k, Name: g, T: c.Type}, nil
		}
	}
	q := b.src.alias
	for _, r := range b.src.scope() {
		if i >= r.start && i < r.start+r.n {
			q = r.alias
		}
	}
	return nil, engine.Errorf(engine.CodeGroupingError, "column \"%s.%s\" must appear in the GROUP BY clause or be used in an aggregate function", q, c.Name)
}

// expr binds an expression in the binder's scope. In aggregate scope an
// expression that equals a GROUP BY expression becomes a reference to that
// group column, and aggregates become references to their results.
func (b *binder) expr(n ast.ExprNode) (engine.Expr, error) {
	if f, ok := n.(*ast.FuncCallExpr); ok && (f.FnName.L == "__gpusql_filter" || f.FnName.L == "__gpusql_grouping") {
		return b.groupingSyntax(f) // groupingsets.go
	}
	if b.agg == nil {
		return b.node(n)
	}
	if a, ok := n.(*ast.AggregateFuncExpr); ok {
		if hasWindow(a) {
			return nil, engine.Errorf(engine.CodeGroupingError, "aggregate function calls cannot contain window function calls")
		}
		return b.aggCall(a)
	}
	if !hasAggregate(n) && !hasWindow(n) && (b.sets == nil || !hasSetFunc(n)) {
		e, err := b.plain().expr(n)
		if err != nil {
			return nil, err
		}
		s := e.String()
		for k, g := range b.agg.groupKeys {
			if g == s {
				return &engine.ColRef{Idx: k, Name: s, T: e.Type()}, nil
			}
		}
		if !hasColRef(e) {
			return e, nil
		}
		if c, ok := n.(*ast.ColumnNameExpr); ok {
			q := b.src.alias
			if c.Name.Table.O != "" {
				q = c.Name.Table.O
			}
			return nil, engine.Errorf(engine.CodeGroupingError, "column \"%s.%s\" must appear in the GROUP BY clause or be used in an aggregate function", q, c.Name.Name.O)
		}
	}
	return b.node(n)
}

func hasColRef(e engine.Expr) bool {
	switch e := e.(type) {
	case *engine.ColRef:
		return true
	case *engine.Call:
		for _, a := range e.Args {
			if hasColRef(a) {
				return true
			}
		}
	case *engine.HostFunc:
		for _, a := range e.Args {
			if hasColRef(a) {
				return true
			}
		}
	case *engine.Case:
		for i := range e.Conds {
			if hasColRef(e.Conds[i]) || hasColRef(e.Results[i]) {
				return true
			}
		}
		return hasColRef(e.Else)
	}
	return false
}

// aggFinder reports whether an AST holds an aggregate call.
type aggFinder struct{ found bool }

func (f *aggFinder) Enter(n ast.Node) (ast.Node, bool) {
	if _, ok := n.(*ast.AggregateFuncExpr); ok {
		f.found = true
		return n, true
	}
	if c, ok := n.(*ast.FuncCallExpr); ok && c.FnName.L == "__gpusql_grouping" {
		f.found = true // grouping() reads the grouping, as aggregates do
		return n, true
	}
	if _, ok := n.(*ast.SubqueryExpr); ok {
		return n, true // a subquery's aggregates are its own
	}
	return n, false
}
func (f *aggFinder) Leave(n ast.Node) (ast.Node, bool) { return n, true }

func hasAggregate(n ast.Node) bool {
	if n == nil {
		return false
	}
	f := &aggFinder{}
	n.Accept(f)
	return f.found
}

// aggCall registers an aggregate and returns a reference to its result.
func (b *binder) aggCall(a *ast.AggregateFuncExpr) (engine.Expr, error) {
	fn := strings.ToLower(a.F)
	if fn == "group_concat" {
		return b.stringAgg(a)
	}
	inner := b.plain()
	call := engine.AggCall{Distinct: a.Distinct}
	if len(a.Args) != 1 {
		return nil, engine.Errorf(engine.CodeUndefinedFunction, "function %s with %d arguments does not exist", fn, len(a.Args))
	}
	if hasAggregate(a.Args[0]) {
		return nil, engine.Errorf(engine.CodeGroupingError, "aggregate function calls cannot be nested")
	}
	countStar := false
	if fn == "count" && !a.Distinct {
		if v, ok := a.Args[0].(ast.ValueExpr); ok && v.GetValue() != nil && a.Args[0].OriginTextPosition() >= 0 {
			if x, ok := v.GetValue().(int64); ok && x == 1 {
				countStar = true // count(*) (and count(1), which counts the same rows)
			}
		}
	}
	var arg engine.Expr
	if !countStar {
		e, err := inner.expr(a.Args[0])
		if err != nil {
			return nil, err
		}
		if isUnknown(e) {
			if e, err = castTo(e, engine.Text); err != nil {
				return nil, err
			}
		}
		arg = e
	}
	switch fn {
	case "count":
		call.Func, call.T = engine.AggCount, engine.Int64
		if countStar {
			call.Func = engine.AggCountStar
		}
	case "sum", "avg":
		t := arg.Type()
		if !t.IsNumber() && t.Kind != engine.KindInterval {
			return nil, engine.Errorf(engine.CodeUndefinedFunction, "function %s(%s) does not exist", fn, t)
		}
		call.Func = engine.AggSum
		if fn == "avg" {
			call.Func = engine.AggAvg
		}
		switch {
		case fn == "sum" && (t.Kind == engine.KindInt16 || t.Kind == engine.KindInt32):
			call.T = engine.Int64
		case fn == "sum" && t.Kind == engine.KindFloat32:
			call.T = engine.Float32
		case t.IsFloat():
			call.T = engine.Float64
		case t.Kind == engine.KindInterval:
			call.T = engine.Interval // field by field (eval.IntervalSum)
		default:
			call.T = engine.Numeric
		}
	case "min", "max":
		call.Func = engine.AggMin
		if fn == "max" {
			call.Func = engine.AggMax
		}
		call.T = arg.Type()
		if call.T.Kind == engine.KindNumeric {
			call.T = engine.Numeric
		}
		if call.T.Kind == engine.KindVarchar {
			call.T = engine.Text // PostgreSQL's min/max over varchar return text
		}
		// char(n) keeps its length so that results show their padding,
		// as PostgreSQL's stored bpchar values do.
	default:
		return nil, unsupported("aggregate function %s is not supported", fn)
	}
	call.Arg = arg
	return b.addAgg(call)
}

// addAgg registers an aggregate (once per distinct call) and returns a
// reference to its result.
func (b *binder) addAgg(call engine.AggCall) (engine.Expr, error) {
	call = b.agg.applyFilter(call)
	key := call.String()
	for k, s := range b.agg.aggKeys {
		if s == key {
			return &engine.ColRef{Idx: len(b.agg.groups) + k, Name: key, T: b.agg.aggs[k].T}, nil
		}
	}
	b.agg.aggs = append(b.agg.aggs, call)
	b.agg.aggKeys = append(b.agg.aggKeys, key)
	return &engine.ColRef{Idx: len(b.agg.groups) + len(b.agg.aggs) - 1, Name: key, T: call.T}, nil
}

// literal binds a constant from the parser.
func literal(v ast.ValueExpr) (engine.Expr, error) {
	if tv, ok := v.(*driver.ValueExpr); ok && tv.GetType().GetFlag()&mysql.IsBooleanFlag != 0 {
		return &engine.Const{T: engine.Bool, I: tv.GetInt64()}, nil
	}
	switch x := v.GetValue().(type) {
	case nil:
		return &engine.Const{T: engine.Unknown, Null: true}, nil
	case int64:
		if x >= math.MinInt32 && x <= math.MaxInt32 {
			return &engine.Const{T: engine.Int32, I: x}, nil
		}
		return &engine.Const{T: engine.Int64, I: x}, nil
	case uint64:
		if x <= math.MaxInt32 {
			return &engine.Const{T: engine.Int32, I: int64(x)}, nil
		}
		if x <= math.MaxInt64 {
			return &engine.Const{T: engine.Int64, I: int64(x)}, nil
		}
		d, ok := engine.ParseDecLiteral(strconv.FormatUint(x, 10))
		if !ok {
			return nil, engine.Errorf(engine.CodeNumericValueOutOfRange, "value out of range")
		}
		return &engine.Const{T: engine.Numeric, D: d}, nil
	case string:
		return &engine.Const{T: engine.Unknown, S: x}, nil
	case []byte:
		return &engine.Const{T: engine.Unknown, S: string(x)}, nil
	case *driver.MyDecimal:
		d, ok := engine.ParseDecLiteral(x.String())
		if !ok {
			return nil, engine.Errorf(engine.CodeInvalidTextRepresent, "invalid numeric literal %s", x.String())
		}
		return &engine.Const{T: engine.Numeric, D: d}, nil
	case float64:
		d, ok := engine.ParseDecLiteral(strconv.FormatFloat(x, 'g', -1, 64))
		if !ok {
			// Beyond the 38 digits of gpusql's numerics: keep the value as
			// a double, which casts and float arithmetic use exactly.
			return &engine.Const{T: engine.Float64, F: x}, nil
		}
		return &engine.Const{T: engine.Numeric, D: d}, nil
	}
	return nil, unsupported("literal of type %T is not supported", v.GetValue())
}

// exprName is the column name PostgreSQL gives a select-list expression
// without an alias (its FigureColname).
func exprName(n ast.ExprNode) string {
	name, _ := figureName(n)
	return name
}

// figureName returns a name and its strength: 2 for column and function
// names, 1 for type names of casts and "case", 0 for "?column?". A cast
// or CASE keeps its operand's name only when that name is strong.
func figureName(n ast.ExprNode) (string, int) {
	switch n := n.(type) {
	case *ast.ColumnNameExpr:
		return n.Name.Name.O, 2
	case *ast.ParenthesesExpr:
		return figureName(n.Expr)
	case *ast.AggregateFuncExpr:
		if name := aggMarkerName(n); name != "" {
			return name, 2
		}
		if n.F == "group_concat" {
			return "string_agg", 2 // see stringAgg
		}
		return strings.ToLower(n.F), 2
	case *ast.SubqueryExpr:
		// A scalar subquery is named after its one column.
		if sel, ok := n.Query.(*ast.SelectStmt); ok && len(sel.Fields.Fields) == 1 {
			f := sel.Fields.Fields[0]
			if f.AsName.O != "" {
				return f.AsName.O, 2
			}
			if f.Expr != nil {
				return figureName(f.Expr)
			}
		}
		return "?column?", 0
	case *ast.ExistsSubqueryExpr:
		return "exists", 2
	case *ast.WindowFuncExpr:
		return windowName(n), 2
	case *ast.CaseExpr:
		if n.ElseClause != nil {
			if name, st := figureName(n.ElseClause); st == 2 {
				return name, 2
			}
		}
		return "case", 1
	case *ast.FuncCallExpr:
		switch n.FnName.L {
		case "__gpusql_cast":
			if len(n.Args) == 2 {
				if inner, st := figureName(n.Args[0]); st == 2 {
					return inner, 2
				}
				if v, ok := n.Args[1].(ast.ValueExpr); ok {
					if s, ok := v.GetValue().(string); ok {
						s = strings.TrimSuffix(s, "[]") // x::oid[] is named oid
						switch s {
						case "oid", "name", `"char"`:
							return strings.Trim(s, `"`), 1
						}
						if t, err := parse.ParseType(s); err == nil {
							return pgTypeName(t), 1
						}
					}
				}
			}
			return "?column?", 0
		case "__gpusql_extract":
			return "extract", 2
		case "__gpusql_filter":
			if len(n.Args) == 2 {
				return figureName(n.Args[0])
			}
		case "__gpusql_grouping":
			return "grouping", 2
		case "__gpusql_subscript":
			// a[i] is named after a (FigureColname skips subscripts)
			if len(n.Args) == 2 {
				return figureName(n.Args[0])
			}
			return "?column?", 0
		case "__gpusql_regcast":
			if len(n.Args) == 2 {
				if inner, st := figureName(n.Args[0]); st == 2 {
					return inner, 2
				}
				if kind, err := stringArg(n.Args[1]); err == nil {
					return kind, 1
				}
			}
			return "?column?", 0
		case "__gpusql_concat":
			return "concat", 2
		case "__gpusql_field":
			// (x).f is named f
			if len(n.Args) == 2 {
				if f, err := stringArg(n.Args[1]); err == nil {
					return f, 2
				}
			}
			return "?column?", 0
		case "__gpusql_at_zone":
			return "timezone", 2 // PostgreSQL's name for AT TIME ZONE
		case "__gpusql_div":
			return "div", 2
		case "__gpusql_mod":
			return "mod", 2
		case "trim":
			if d, ok := trimDirection(n); ok && d == ast.TrimLeading {
				return "ltrim", 2
			} else if ok && d == ast.TrimTrailing {
				return "rtrim", 2
			}
			return "btrim", 2 // PostgreSQL's name for trim(x [, chars])
		case "__gpusql_is_distinct", "__gpusql_regex", "concat", "__gpusql_param":
			// $n is ?column?, and $n::type the type's name
			return "?column?", 0
		}
		return n.FnName.L, 2
	}
	return "?column?", 0
}

var _ = opcode.Plus
