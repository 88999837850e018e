package query

import (
	"context"
	"slices"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/query/parse"
)

// FROM items become nodes of the plan tree (engine.Rel): a table is a
// scan of its pinned version, a derived table or WITH query is the plan
// of its query, and a join is an engine.Join of its two sides with the
// whole ON condition as its residual. Nothing runs while binding: the
// planner (optimize.go) then pushes filters down, picks hash keys and
// the join order, and the backend runs the tree.

// maxHostRows bounds the rows that a subquery folded into a constant or
// an IN list, and a window function's input, may materialise in host
// memory.
const maxHostRows = 1 << 20

// rel is one FROM item in a source's scope: its columns are
// [start, start+n) of the source.
type rel struct {
	alias string // empty for the merged columns of USING / NATURAL
	start int
	n     int
	oid   uint32
	// hidden marks the columns that USING / NATURAL merged (usingJoin):
	// unqualified names and * skip them.
	hidden map[int]bool
}

// scope returns the source's FROM items (one for a single table).
func (src *source) scope() []rel {
	if src.rels != nil {
		return src.rels
	}
	return []rel{{alias: src.alias, n: len(src.cols), oid: src.oid}}
}

func errTooManyRows(what string) error {
	return engine.Errorf(engine.CodeProgramLimitExceeded, "%s exceeds gpusql's limit of %d rows materialised in host memory", what, maxHostRows).
		WithHint("Joins, derived tables, set operations and subqueries run in host memory; filter the inputs further.")
}

// collect runs plan and returns its visible rows as one batch.
func (s *Session) collect(ctx context.Context, plan *engine.Plan, what string) (*engine.Batch, error) {
	out := &engine.Batch{Cols: make([]*engine.Vec, plan.Visible)}
	for k := range out.Cols {
		out.Cols[k] = &engine.Vec{T: plan.Project[k].Type()}
	}
	err := s.srv.run(ctx, plan, func(bt *engine.Batch) error {
		if out.N+bt.N > maxHostRows {
			return errTooManyRows(what)
		}
		if err := chargeMemory(ctx, batchBytes(bt), what); err != nil {
			return err
		}
		for k, v := range bt.Cols {
			dst := out.Cols[k]
			dst.T = v.T
			for i := 0; i < bt.N; i++ {
				dst.AppendRow(v, i)
			}
		}
		out.N += bt.N
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// hostTable stores a batch as a host table whose columns have types ts.
// Numeric values are kept at the largest scale among them.
func hostTable(ts []engine.Type, b *engine.Batch) (*engine.HostTable, []engine.Type, error) {
	h := &engine.HostTable{N: int64(b.N)}
	stored := make([]engine.Type, len(ts))
	for k, t := range ts {
		v := b.Cols[k]
		nullable := v.Null != nil
		var c *engine.Column
		switch engine.PhysOf(t.Kind) {
		case engine.PhysStr:
			w := 0
			for i := 0; i < b.N; i++ {
				w = max(w, len(v.S[i]))
			}
			c = engine.NewColumn(t, b.N, w, nullable)
			for i := 0; i < b.N; i++ {
				copy(c.Str[i*c.Width:], v.S[i])
			}
		case engine.PhysInt:
			c = engine.NewColumn(t, b.N, 0, nullable)
			for i := 0; i < b.N; i++ {
				x := v.I[i]
				switch t.Kind {
				case engine.KindBool:
					c.B[i] = uint8(x)
				case engine.KindInt16:
					c.I16[i] = int16(x)
				case engine.KindInt32, engine.KindDate:
					c.I32[i] = int32(x)
				default:
					c.I64[i] = x
				}
			}
		case engine.PhysFloat:
			c = engine.NewColumn(t, b.N, 0, nullable)
			for i := 0; i < b.N; i++ {
				if t.Kind == engine.KindFloat32 {
					c.F32[i] = float32(v.F[i])
				} else {
					c.F64[i] = v.F[i]
				}
			}
		case engine.PhysDec:
			if t.WideNumeric() { // Dec values at t's scale
				c = engine.NewColumn(t, b.N, 0, nullable)
				for i := 0; i < b.N; i++ {
					if v.IsNull(i) {
						continue
					}
					d, ok := v.D[i], true
					if d.Scale > int32(t.Scale) {
						d = d.Round(int32(t.Scale))
					} else if d, ok = d.Rescale(int32(t.Scale)); !ok {
						return nil, nil, engine.Errorf(engine.CodeNumericValueOutOfRange, "numeric field overflow")
					}
					c.D[i] = d
				}
				break
			}
			scale := int32(t.Scale)
			if t.Prec == 0 {
				for i := 0; i < b.N; i++ {
					if !v.IsNull(i) {
						scale = max(scale, v.D[i].Scale)
					}
				}
			}
			st := engine.NumericType(18, int(scale))
			c = engine.NewColumn(st, b.N, 0, nullable)
			for i := 0; i < b.N; i++ {
				if v.IsNull(i) {
					continue
				}
				d, ok := v.D[i].Rescale(scale)
				x, ok2 := d.Int64()
				if !ok || !ok2 || x >= engine.Pow10(18) || x <= -engine.Pow10(18) {
					return nil, nil, unsupported("numeric value %s is too wide for gpusql's host tables (18 digits)", v.D[i])
				}
				c.I64[i] = x
			}
			t = st
		default:
			return nil, nil, unsupported("a %s column in a join, derived table or set operation is not supported", t)
		}
		for i := 0; i < b.N; i++ {
			if v.IsNull(i) {
				c.SetNull(i)
			}
		}
		h.Cols = append(h.Cols, c)
		stored[k] = t
	}
	return h, stored, nil
}

// batchSource makes a host source named name from a batch with the given
// column names and types.
func batchSource(name, alias string, names []string, ts []engine.Type, b *engine.Batch) (source, error) {
	h, _, err := hostTable(ts, b)
	if err != nil {
		return source{}, err
	}
	cols := make([]engine.ColumnDef, len(names))
	for i := range names {
		cols[i] = engine.ColumnDef{Name: names[i], Type: h.Cols[i].Type}
		if ts[i].Kind == engine.KindNumeric && ts[i].Prec == 0 {
			cols[i].Type = h.Cols[i].Type
		}
	}
	return source{name: name, alias: alias, cols: cols, data: h, present: true, host: true}, nil
}

// fromItem binds one FROM item: a table, a derived table or a join.
func (b *binder) fromItem(n ast.ResultSetNode) (source, error) {
	switch n := n.(type) {
	case *ast.Join:
		if n.Right == nil {
			return b.fromItem(n.Left)
		}
		return b.join(n)
	case *ast.TableSource:
		switch s := n.Source.(type) {
		case *ast.TableName:
			src, err := b.table(s.Schema.O, s.Name.O)
			if err != nil {
				return source{}, err
			}
			src.alias = s.Name.O
			if n.AsName.O != "" {
				src.alias = n.AsName.O
			}
			return src, nil
		case *ast.SelectStmt, *ast.SetOprStmt:
			if fc := srfCall(s); fc != nil {
				src, err := b.srf(fc, n.AsName.O)
				if col := s.(*ast.SelectStmt).Fields.Fields[0].AsName.O; err == nil && col != "" {
					// f(...) AS t(col): the column's own name
					src.cols = append([]engine.ColumnDef(nil), src.cols...)
					src.cols[0].Name = col
				}
				return src, err
			}
			if n.AsName.O == "" {
				return source{}, engine.Errorf(engine.CodeSyntaxError, "subquery in FROM must have an alias").
					WithHint("For example, FROM (SELECT ...) [AS] foo.")
			}
			return b.derived(s, n.AsName.O)
		}
		return source{}, unsupported("this FROM item is not supported")
	}
	return source{}, unsupported("this FROM clause is not supported")
}

// table resolves a table name, through the catalog emulation first.
func (b *binder) table(schema, name string) (source, error) {
	schema, err := b.s.inDatabase(schema, name)
	if err != nil {
		return source{}, err
	}
	if src, ok := b.st.ctes[name]; ok && schema == "" {
		return src, nil
	}
	if src, ok, err := b.userSource(schema, name); ok || err != nil {
		return src, err // a temporary table or a view (relations.go)
	}
	key := schema + "." + name
	if src, ok := b.st.sources[key]; ok {
		return src, nil
	}
	src, ok, err := b.s.catalogSource(schema, name)
	if err != nil {
		return source{}, err
	}
	if ok {
		src.host = true
	} else {
		if src, err = b.s.lookupSource(b.st.ctx, schema, name); err != nil {
			return source{}, err
		}
		src.host = isSystemTable(src.name)
		if !src.host && viewFrameOf(b.st.ctx) == nil {
			if err := b.s.checkSelect(name, false); err != nil {
				return source{}, err
			}
		}
	}
	if src.host {
		b.st.sources[key] = src
	}
	return src, nil
}

// derived binds a subquery in FROM as a node of the plan tree.
func (b *binder) derived(sel ast.ResultSetNode, alias string) (source, error) {
	stmt, ok := sel.(ast.StmtNode)
	if !ok {
		return source{}, unsupported("this subquery in FROM is not supported")
	}
	sub := b.child()
	plan, _, err := sub.bindStmt(stmt)
	if err != nil {
		return source{}, err
	}
	if len(sub.outerRefs()) > 0 {
		return source{}, unsupported("a subquery in FROM cannot refer to columns of the outer query (LATERAL) in gpusql")
	}
	src := source{name: alias, alias: alias, cols: plan.Columns(), present: true, host: planIsHost(plan), rel: plan}
	return src, nil
}

// join combines two FROM items into an engine.Join node; a join with
// USING or NATURAL is that node under a projection that puts the merged
// columns first (usingJoin).
func (b *binder) join(n *ast.Join) (source, error) {
	l, err := b.fromItem(n.Left)
	if err != nil {
		return source{}, err
	}
	if n.Tp == ast.CrossJoin && n.On == nil && !n.NaturalJoin && len(n.Using) == 0 {
		if src, ok, err := b.lateralSRF(l, n.Right); ok || err != nil {
			return src, err // srf.go
		}
		if src, ok, err := b.lateralSubquery(l, n.Right); ok || err != nil {
			return src, err // lateral.go
		}
	}
	r, err := b.fromItem(n.Right)
	if err != nil {
		return source{}, err
	}
	// The combined scope: the left items, then the right ones.
	comb := source{name: l.name + " JOIN " + r.name, present: true, host: l.host && r.host}
	comb.cols = append(append([]engine.ColumnDef(nil), l.cols...), r.cols...)
	comb.rels = append(comb.rels, l.scope()...)
	for _, x := range r.scope() {
		comb.rels = append(comb.rels, x.shifted(len(l.cols)))
	}
	for i := range comb.rels {
		for j := i + 1; j < len(comb.rels); j++ {
			if a := comb.rels[i].alias; a != "" && a == comb.rels[j].alias {
				return source{}, engine.Errorf(engine.CodeDuplicateAlias, "table name %q specified more than once", a)
			}
		}
	}
	cb := &binder{s: b.s, src: comb, params: b.params, st: b.st, outer: b.outer}

	// The join type and condition: ON, USING or NATURAL. FULL JOIN
	// arrives rewritten for tidb (query/parse) as a LEFT JOIN whose ON
	// is a marker call.
	tp := n.Tp
	natural := n.NaturalJoin
	var using []string
	for _, c := range n.Using {
		using = append(using, c.Name.O)
	}
	var cond ast.ExprNode
	if n.On != nil {
		cond = n.On.Expr
	}
	if f, ok := cond.(*ast.FuncCallExpr); ok && tp == ast.LeftJoin {
		switch f.FnName.L {
		case "__gpusql_full_join":
			if len(f.Args) == 1 {
				tp, cond = fullJoin, f.Args[0]
			}
		case "__gpusql_full_using":
			tp, cond = fullJoin, nil
			for _, a := range f.Args {
				c, ok := a.(*ast.ColumnNameExpr)
				if !ok || c.Name.Table.O != "" {
					return source{}, engine.Errorf(engine.CodeSyntaxError, "syntax error in USING")
				}
				using = append(using, c.Name.Name.O)
			}
		case "__gpusql_full_natural":
			tp, cond, natural = fullJoin, nil, true
		}
	}
	if natural {
		// the columns of both sides with the same name, in the left's order
		rv := visibleCols(r)
		for _, i := range visibleCols(l) {
			name := l.cols[i].Name
			if slices.Contains(using, name) {
				continue
			}
			for _, k := range rv {
				if r.cols[k].Name == name {
					using = append(using, name)
					break
				}
			}
		}
	}
	var conds []engine.Expr
	var pairs [][2]int // USING: each name's left column and right column (in comb)
	for k, name := range using {
		if slices.Contains(using[:k], name) {
			return source{}, engine.Errorf(engine.CodeDuplicateColumn, "column name %q appears more than once in USING clause", name)
		}
		li, err := uniqueColumn(l, name, "left")
		if err != nil {
			return source{}, err
		}
		ri, err := uniqueColumn(r, name, "right")
		if err != nil {
			return source{}, err
		}
		ri += len(l.cols)
		if _, ok := setType(comb.cols[li].Type, comb.cols[ri].Type); !ok {
			return source{}, engine.Errorf(engine.CodeDatatypeMismatch, "JOIN/USING types %s and %s cannot be matched", comb.cols[li].Type, comb.cols[ri].Type)
		}
		eq, err := cb.compareOp("=", &engine.ColRef{Idx: li, Name: name, T: comb.cols[li].Type},
			&engine.ColRef{Idx: ri, Name: name, T: comb.cols[ri].Type})
		if err != nil {
			return source{}, err
		}
		conds = append(conds, eq)
		pairs = append(pairs, [2]int{li, ri})
	}
	kind := engine.JoinInner
	switch tp {
	case ast.LeftJoin:
		kind = engine.JoinLeft
	case ast.RightJoin:
		kind = engine.JoinRight
	case fullJoin:
		kind = engine.JoinFull
	}
	j := &engine.Join{Kind: kind, Left: relOf(l), Right: relOf(r)}
	// A subquery of an inner join's ON may become a join of the two
	// sides' product (decorrelate.go), which the rest of ON then
	// filters; an outer join's ON must see its sides unjoined, so its
	// correlated subqueries run per row (over the catalogs only).
	prod := &engine.Join{Kind: engine.JoinInner, Left: j.Left, Right: j.Right}
	cb.src.rel = prod
	cb.noJoins = kind != engine.JoinInner
	if cond != nil {
		rest := []ast.ExprNode{cond}
		if kind == engine.JoinInner {
			// [NOT] EXISTS and IN conjuncts become semi and anti joins
			// of the product, as WHERE's do
			var err error
			if rest, err = cb.semiJoins(cond); err != nil {
				return source{}, err
			}
		}
		for _, c := range rest {
			on, err := cb.predicate(c, "JOIN/ON")
			if err != nil {
				return source{}, err
			}
			conds = append(conds, conjuncts(on)...)
		}
	}
	for _, c := range conds {
		if k, ok := c.(*engine.Const); ok && !k.Null && k.I == 1 {
			continue // ON true
		}
		j.Residual = andExpr(j.Residual, c)
	}
	comb.rel = j
	if cb.src.rel != prod {
		// ON's subqueries joined the product: filter that by the
		// condition and keep the two sides' columns
		p := &engine.Plan{Input: cb.src.rel, Table: comb.name, Host: comb.host, Limit: -1, Filter: j.Residual}
		for i, c := range comb.cols {
			p.Project = append(p.Project, &engine.ColRef{Idx: i, Name: c.Name, T: c.Type})
			p.Names = append(p.Names, c.Name)
		}
		p.Visible = len(p.Project)
		comb.rel = p
	}
	if len(pairs) > 0 {
		return usingJoin(comb, j, using, pairs)
	}
	return comb, nil
}

// usingJoin makes the source of a join with USING or NATURAL: as in
// PostgreSQL, each named column appears once, first, merged from the
// two sides (the left's value for an inner or left join, the right's
// for a right join, the first non-NULL for a full join, in the type
// both sides convert to), and then the other columns of the left and
// the right. The merged columns belong to no FROM item; the columns they
// merge are reached only through their qualifiers.
func usingJoin(comb source, j *engine.Join, names []string, pairs [][2]int) (source, error) {
	m := len(pairs)
	p := &engine.Plan{Input: j, Table: comb.name, Host: comb.host, Limit: -1}
	var cols []engine.ColumnDef
	for k, pr := range pairs {
		lc, rc := comb.cols[pr[0]], comb.cols[pr[1]]
		var err error
		t, _ := setType(lc.Type, rc.Type) // join checked that there is one
		var e engine.Expr
		switch j.Kind {
		case engine.JoinRight:
			e, err = mergedSide(&engine.ColRef{Idx: pr[1], Name: names[k], T: rc.Type}, t)
		case engine.JoinFull:
			if lc.Type == rc.Type {
				t = lc.Type
			}
			var le, re engine.Expr
			if le, err = castTo(&engine.ColRef{Idx: pr[0], Name: names[k], T: lc.Type}, t); err == nil {
				re, err = castTo(&engine.ColRef{Idx: pr[1], Name: names[k], T: rc.Type}, t)
			}
			e = &engine.Call{Op: engine.OpCoalesce, Args: []engine.Expr{le, re}, T: t}
		default:
			e, err = mergedSide(&engine.ColRef{Idx: pr[0], Name: names[k], T: lc.Type}, t)
		}
		if err != nil {
			return source{}, err
		}
		t = e.Type()
		p.Project = append(p.Project, e)
		p.Names = append(p.Names, names[k])
		cols = append(cols, engine.ColumnDef{Name: names[k], Type: t})
	}
	for i, c := range comb.cols {
		p.Project = append(p.Project, &engine.ColRef{Idx: i, Name: c.Name, T: c.Type})
		p.Names = append(p.Names, c.Name)
	}
	p.Visible = len(p.Project)
	out := source{name: comb.name, present: true, host: comb.host, rel: p}
	out.cols = append(cols, comb.cols...)
	out.rels = []rel{{start: 0, n: m}}
	for _, x := range comb.rels {
		x = x.shifted(m)
		for _, pr := range pairs {
			for _, c := range pr {
				if c+m >= x.start && c+m < x.start+x.n {
					x.hidden[c+m] = true
				}
			}
		}
		out.rels = append(out.rels, x)
	}
	return out, nil
}

// mergedSide is a merged column that one side's column c gives: c in
// the type t both sides convert to, or c as it is when t differs from
// its type only by a length, precision or scale that PostgreSQL drops
// (bpchar keeps each value's padding and numeric its scale, as c's own
// type shows them).
func mergedSide(c *engine.ColRef, t engine.Type) (engine.Expr, error) {
	if c.T.Kind == t.Kind {
		return c, nil
	}
	return castTo(c, t)
}

// shifted is the FROM item with its columns moved d to the right (and
// its own copy of hidden).
func (x rel) shifted(d int) rel {
	h := map[int]bool{}
	for i := range x.hidden {
		h[i+d] = true
	}
	x.start += d
	x.hidden = h
	return x
}

// visibleCols are the columns of src that an unqualified name or * can
// reach, in the order * lists them.
func visibleCols(src source) []int {
	var out []int
	for _, r := range src.scope() {
		for i := r.start; i < r.start+r.n; i++ {
			if !r.hidden[i] {
				out = append(out, i)
			}
		}
	}
	return out
}

// andExpr is a AND c (c alone when a is nil).
func andExpr(a, c engine.Expr) engine.Expr {
	if a == nil {
		return c
	}
	return &engine.Call{Op: engine.OpAnd, Args: []engine.Expr{a, c}, T: engine.Bool}
}

// fullJoin is FULL [OUTER] JOIN, a join type tidb's AST lacks.
const fullJoin ast.JoinType = 100

// uniqueColumn finds the one column of src called name that an
// unqualified name reaches (USING).
func uniqueColumn(src source, name, side string) (int, error) {
	found := -1
	for _, i := range visibleCols(src) {
		if src.cols[i].Name == name {
			if found >= 0 {
				return 0, engine.Errorf(engine.CodeAmbiguousColumn, "common column name %q appears more than once in %s table", name, side)
			}
			found = i
		}
	}
	if found < 0 {
		return 0, engine.Errorf(engine.CodeUndefinedColumn, "column %q specified in USING clause does not exist in %s table", name, side)
	}
	return found, nil
}

// conjuncts splits an AND tree.
func conjuncts(e engine.Expr) []engine.Expr {
	if c, ok := e.(*engine.Call); ok && c.Op == engine.OpAnd {
		return append(conjuncts(c.Args[0]), conjuncts(c.Args[1])...)
	}
	return []engine.Expr{e}
}

type side uint8

const (
	sideNone  side = iota // reads no column (a constant)
	sideLeft              // reads left columns only
	sideRight             // reads right columns only
	sideBoth              // reads both, or cannot be evaluated per side
)

// sideOf says which side of a join (left columns are [0, nl)) e reads.
func sideOf(e engine.Expr, nl int) side {
	merge := func(a, b side) side {
		switch {
		case a == sideNone:
			return b
		case b == sideNone || a == b:
			return a
		}
		return sideBoth
	}
	switch e := e.(type) {
	case *engine.ColRef:
		if e.Idx < nl {
			return sideLeft
		}
		return sideRight
	case *engine.Const:
		return sideNone
	case *engine.Call:
		s := sideNone
		for _, a := range e.Args {
			s = merge(s, sideOf(a, nl))
		}
		return s
	case *engine.Case:
		s := sideOf(e.Else, nl)
		for i := range e.Conds {
			s = merge(merge(s, sideOf(e.Conds[i], nl)), sideOf(e.Results[i], nl))
		}
		return s
	}
	return sideBoth // host functions (correlated subqueries) stay in the join filter
}

// shiftCols returns e with its column references moved by d.
func shiftCols(e engine.Expr, d int) engine.Expr {
	switch e := e.(type) {
	case *engine.ColRef:
		c := *e
		c.Idx += d
		return &c
	case *engine.Call:
		c := *e
		c.Args = make([]engine.Expr, len(e.Args))
		for i, a := range e.Args {
			c.Args[i] = shiftCols(a, d)
		}
		return &c
	case *engine.Case:
		c := *e
		c.Conds = make([]engine.Expr, len(e.Conds))
		c.Results = make([]engine.Expr, len(e.Results))
		for i := range e.Conds {
			c.Conds[i], c.Results[i] = shiftCols(e.Conds[i], d), shiftCols(e.Results[i], d)
		}
		c.Else = shiftCols(e.Else, d)
		return &c
	}
	return e
}

// srfCall returns the __gpusql_srf call of a function in FROM, which the
// rewrite layer wrote as (SELECT __gpusql_srf('name', args...)).
func srfCall(n ast.ResultSetNode) *ast.FuncCallExpr {
	sel, ok := n.(*ast.SelectStmt)
	if !ok || sel.From != nil || sel.Where != nil || len(sel.Fields.Fields) != 1 {
		return nil
	}
	fc, ok := sel.Fields.Fields[0].Expr.(*ast.FuncCallExpr)
	if !ok || fc.FnName.L != "__gpusql_srf" || len(fc.Args) == 0 {
		return nil
	}
	return fc
}

// srf binds a function in FROM: generate_series and unnest give rows;
// any other function gives one row holding its value. Arguments may read
// the enclosing query's columns (in a correlated subquery), not the
// other FROM items.
func (b *binder) srf(fc *ast.FuncCallExpr, alias string) (source, error) {
	name, err := stringArg(fc.Args[0])
	if err != nil {
		return source{}, err
	}
	if alias == "" {
		alias = name
	}
	if name == "read_csv" {
		return b.readCSV(fc.Args[1:], alias)
	}
	ab := &binder{s: b.s, params: b.params, st: b.st, outer: b.outer}
	args, err := ab.exprs(fc.Args[1:]...)
	if err != nil {
		return source{}, err
	}
	consts := make([]*engine.Const, len(args))
	for i, a := range args {
		c, ok := b.lowerConst(a).(*engine.Const) // a cast to timestamptz folds in the session's zone
		if !ok {
			return source{}, unsupported("the arguments of %s in FROM must not read other FROM items in gpusql", name)
		}
		consts[i] = c
	}
	var v *engine.Vec
	switch name {
	case "pg_get_keywords":
		if len(args) != 0 {
			return source{}, engine.Errorf(engine.CodeUndefinedFunction, "function pg_get_keywords with %d arguments does not exist", len(args))
		}
		return keywordsSource(alias)
	case "pg_partition_tree":
		if len(consts) != 1 {
			return source{}, engine.Errorf(engine.CodeUndefinedFunction, "function pg_partition_tree with %d arguments does not exist", len(consts))
		}
		return b.s.partitionTreeSource(alias, consts[0])
	case "pg_options_to_table":
		if len(consts) != 1 {
			return source{}, engine.Errorf(engine.CodeUndefinedFunction, "function pg_options_to_table with %d arguments does not exist", len(consts))
		}
		return optionsSource(alias, consts[0])
	case "generate_series", "unnest", "regexp_matches", "regexp_split_to_table", "string_to_table":
		cargs := make([]engine.Expr, len(consts))
		for i, c := range consts {
			cargs[i] = c
		}
		f, err := b.setFunc(name, cargs) // srf.go
		if err != nil {
			return source{}, err
		}
		if name == "unnest" && len(fc.Args) == 2 && intArrayCast(fc.Args[1]) {
			f = intElements(f) // unnest('{...}'::oid[])
		}
		if v, err = constSet(f); err != nil {
			return source{}, err
		}
		if v.N > maxHostRows {
			return source{}, errTooManyRows(name)
		}
	default:
		call := &ast.FuncCallExpr{FnName: ast.NewCIStr(name), Args: fc.Args[1:]}
		e, err := ab.expr(call)
		if err != nil {
			return source{}, err
		}
		c, ok := e.(*engine.Const)
		if !ok {
			return source{}, unsupported("function %s in FROM is not supported by gpusql", name)
		}
		if isUnknown(c) {
			cc, err := castTo(c, engine.Text)
			if err != nil {
				return source{}, err
			}
			c = cc.(*engine.Const)
		}
		v = engine.NewVec(c.T, 1)
		setSlot(v, 0, c)
	}
	return batchSource(alias, alias, []string{alias}, []engine.Type{v.T}, &engine.Batch{N: v.N, Cols: []*engine.Vec{v}})
}

// bindWith binds the WITH queries of a statement, in order (each may
// read the ones before it; a RECURSIVE list is ordered by what reads
// what), as derived tables that FROM finds by name. A recursive one is
// evaluated now (recursive.go).
func (b *binder) bindWith(w *ast.WithClause) error {
	if w == nil {
		return nil
	}
	ctes := w.CTEs
	if w.IsRecursive {
		var err error
		if ctes, err = recursiveOrder(ctes); err != nil { // recursive.go
			return err
		}
	}
	for _, cte := range ctes {
		name := cte.Name.O
		var src source
		var err error
		if w.IsRecursive && readsName(cte.Query.Query, name) {
			src, err = b.recursiveCTE(cte)
		} else {
			src, err = b.derived(cte.Query.Query, name)
		}
		if err != nil {
			return err
		}
		if len(cte.ColNameList) > 0 {
			if len(cte.ColNameList) > len(src.cols) {
				if t, ok := strings.CutPrefix(name, parse.FnDerived); ok { // (query) AS t (a, b, ...)
					return engine.Errorf(engine.CodeInvalidColumnReference, "table %q has %d columns available but %d columns specified", t, len(src.cols), len(cte.ColNameList))
				}
				return engine.Errorf(engine.CodeInvalidColumnReference, "WITH query %q has %d columns available but %d columns specified", name, len(src.cols), len(cte.ColNameList))
			}
			src.cols = append([]engine.ColumnDef(nil), src.cols...)
			for i, c := range cte.ColNameList {
				src.cols[i].Name = c.O
			}
		}
		if b.st.ctes == nil {
			b.st.ctes = map[string]source{}
		}
		b.st.ctes[name] = src
	}
	return nil
}

// plan starts a plan that reads the source: its stored data, or its
// tree's output.
func (src *source) plan() *engine.Plan {
	p := &engine.Plan{Table: src.name, Host: src.host, Limit: -1}
	if src.rel != nil {
		p.Input = src.rel
	} else {
		p.Schema, p.Data = src.cols, src.data
	}
	return p
}

// relOf is the source as a plan-tree node: its tree, or a scan of its
// stored data projecting every column.
func relOf(src source) engine.Rel {
	if src.rel != nil {
		return src.rel
	}
	p := src.plan()
	for i, c := range src.cols {
		p.Project = append(p.Project, &engine.ColRef{Idx: i, Name: c.Name, T: c.Type})
		p.Names = append(p.Names, c.Name)
	}
	p.Visible = len(p.Project)
	return p
}

// planIsHost reports whether every table a plan reads is host data (the
// system relations, rows built by the binder): then the host executor
// runs it. A plan without FROM runs on the server's backend, as one over
// a user table does.
func planIsHost(p *engine.Plan) bool {
	host := true
	engine.WalkRel(p, func(r engine.Rel) {
		if q, ok := r.(*engine.Plan); ok && q.Input == nil && !q.Host && !isSystemTable(q.Table) {
			host = false
		}
	})
	return host
}
