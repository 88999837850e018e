package query

import (
	"context"
	"fmt"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/eval"
	"github.com/gpusql/gpusql/query/parse"
)

// CREATE TABLE ... AS, SELECT ... INTO and INSERT: a query's rows become
// a table version. The backend runs the query and keeps its result in its
// own storage (engine.TableStore: on the GPU the rows stay on the
// device); the version is then published in one step, a new table with
// Catalog.CreateIn or an append with Table.Write, so that a failed or
// cancelled statement leaves nothing behind and readers see the whole
// statement's rows or none of them.

// tableStore is the backend's engine.TableStore.
func (s *Session) tableStore() (engine.TableStore, error) {
	st, ok := s.srv.backend.(engine.TableStore)
	if !ok {
		return nil, unsupported("the %s backend cannot store query results as tables", s.srv.backend.Name())
	}
	return st, nil
}

func (s *Session) storeOptions(table string) engine.StoreOptions {
	return engine.StoreOptions{Table: table, MaxTextWidth: s.srv.opts.MaxTextWidth}
}

// materialize plans and runs plan, keeping its rows in the backend's
// storage. A plan over host data only (the system relations) runs on the
// host executor, and its rows then move to the backend.
func (s *Session) materialize(ctx context.Context, plan *engine.Plan, o engine.StoreOptions) (engine.TableData, error) {
	store, err := s.tableStore()
	if err != nil {
		return nil, err
	}
	if plan, err = optimize(plan, s.srv.columnStats); err != nil {
		return nil, err
	}
	s.srv.countScans(ctx, plan)
	if !planIsHost(plan) {
		return store.Materialize(ctx, plan, o)
	}
	hs, ok := s.srv.host.(engine.TableStore)
	if !ok {
		return nil, engine.Errorf(engine.CodeInternalError, "the host executor cannot store query results")
	}
	d, err := hs.Materialize(ctx, plan, o)
	if err != nil {
		return nil, err
	}
	h, ok := d.(*engine.HostTable)
	if !ok {
		d.Release()
		return nil, engine.Errorf(engine.CodeInternalError, "the host executor stored %T", d)
	}
	return store.Store(h, o)
}

// storableType checks that a gpusql table can hold a column of type t.
func storableType(name string, t engine.Type) error {
	switch t.Kind {
	case engine.KindInterval:
		return unsupported("column %q would have type interval, which gpusql tables cannot store", name)
	case engine.KindInvalid, engine.KindUnknown:
		return engine.Errorf(engine.CodeInternalError, "column %q has no type", name)
	}
	return nil
}

// resultColumns are a query's output columns as a table's, renamed by
// names (at most as many as the columns; what says which statement).
func resultColumns(plan *engine.Plan, names []string, what string) ([]engine.ColumnDef, error) {
	if len(names) > plan.Visible {
		return nil, engine.Errorf(engine.CodeSyntaxError, "%s specifies too many column names", what)
	}
	cols := plan.Columns()
	for i, n := range names {
		cols[i].Name = n
	}
	seen := map[string]bool{}
	for _, c := range cols {
		if seen[c.Name] {
			return nil, engine.Errorf(engine.CodeDuplicateColumn, "column %q specified more than once", c.Name)
		}
		seen[c.Name] = true
	}
	return cols, nil
}

// createTableAs runs CREATE TABLE ... AS and SELECT ... INTO.
func (s *Session) createTableAs(ctx context.Context, st *parse.CreateTableAs, w engine.ResultWriter) error {
	schema, err := s.createIn(st.Schema, st.Temp)
	if err != nil {
		return err
	}
	if schema == "" && isSystemTable(st.Name) {
		return engine.Errorf(engine.CodeDuplicateTable, "relation %q already exists", st.Name)
	}
	if err := s.claimName(schema, st.Name); err != nil {
		return err
	}
	if t, v := s.srv.cat.LookupIn(schema, st.Name); t != nil || v != nil {
		if st.IfNotExists {
			notice(w, engine.CodeDuplicateTable, "relation %q already exists, skipping", st.Name)
			return w.Complete("CREATE TABLE AS")
		}
		return engine.Errorf(engine.CodeDuplicateTable, "relation %q already exists", st.Name)
	}
	bind := s.bindSelect
	if st.NoData {
		// WITH NO DATA runs nothing, not even the query's subqueries
		bind = func(ctx context.Context, stmt ast.StmtNode) (*engine.Plan, []engine.ResultColumn, error) {
			return s.describeSelect(ctx, stmt, nil)
		}
	}
	plan, _, err := bind(ctx, st.Query.AST)
	if err != nil {
		return err
	}
	what := "CREATE TABLE AS"
	if st.Into {
		what = "SELECT INTO"
	}
	cols, err := resultColumns(plan, st.Columns, what)
	if err != nil {
		return err
	}
	for _, c := range cols {
		if err := storableType(c.Name, c.Type); err != nil {
			return err
		}
	}
	o := s.storeOptions(st.Name)
	var data engine.TableData
	if st.NoData {
		store, err := s.tableStore()
		if err != nil {
			return err
		}
		data, err = store.Store(engine.EmptyHost(cols), o)
		if err != nil {
			return err
		}
	} else if data, err = s.materialize(ctx, plan, o); err != nil {
		return err
	}
	// The table appears only now, with its rows.
	if ctx.Err() != nil {
		data.Release()
		return canceledStatement(ctx)
	}
	rows := data.Rows()
	s.srv.gatherStats(data)
	t, err := s.srv.cat.CreateIn(schema, st.Name, cols, data)
	if err != nil {
		return err
	}
	s.createdTable(t) // a rollback of the block drops it
	s.countInserts(t, rows)
	if st.NoData {
		return w.Complete("CREATE TABLE AS")
	}
	return w.Complete(fmt.Sprintf("SELECT %d", rows))
}

// insert runs INSERT INTO t [(columns)] VALUES ... | query | DEFAULT
// VALUES: the rows are cast to the columns' types as PostgreSQL assigns
// values (assign), checked, stored in the backend and appended to t in
// one Write.
func (s *Session) insert(ctx context.Context, st *parse.Insert, w engine.ResultWriter, env *paramEnv) error {
	t, targets, err := s.insertTarget(st)
	if err != nil {
		return err
	}
	o := s.storeOptions(t.Name)
	var add engine.TableData
	switch {
	case st.DefaultValues:
		add, err = s.insertValues(ctx, t, nil, nil, env, o)
	case st.Rows > 0:
		add, err = s.insertValues(ctx, t, targets, st, env, o)
	default:
		add, err = s.insertQuery(ctx, t, targets, st, env, o)
	}
	if err != nil {
		return err
	}
	if ctx.Err() != nil {
		add.Release()
		return canceledStatement(ctx)
	}
	n := add.Rows()
	// The append: the old rows then the new ones, published whole as the
	// table's next version. Write serialises writers, so concurrent
	// INSERTs and COPYs into t all land. In a transaction block the new
	// version stays the session's until COMMIT (tx.go).
	if err := s.writeTable(t, txKey(t), add, func(cur, add engine.TableData) (engine.TableData, error) {
		if cur == nil || cur.Rows() == 0 {
			s.srv.gatherStats(add)
			return add, nil
		}
		if add.Rows() == 0 {
			return cur, nil
		}
		return s.appendRows(ctx, t, cur, add)
	}); err != nil {
		return err
	}
	s.countInserts(t, n)
	return w.Complete(fmt.Sprintf("INSERT 0 %d", n))
}

// insertTarget resolves the table INSERT writes and the columns its
// source fills: targets[k] is the table column of the source's column k.
func (s *Session) insertTarget(st *parse.Insert) (*engine.Table, []int, error) {
	t, v := s.userRelation(st.Schema, st.Table)
	switch {
	case v != nil:
		return nil, nil, engine.Errorf(engine.CodeFeatureNotSupported, "cannot insert into view %q: gpusql does not insert through views", st.Table).
			WithHint("Insert into the table the view reads.")
	case t == nil:
		return nil, nil, engine.Errorf(engine.CodeUndefinedTable, "relation %q does not exist", st.Table)
	}
	var targets []int
	if st.Columns == nil {
		for i := range t.Columns {
			targets = append(targets, i)
		}
		return t, targets, nil
	}
	seen := map[int]bool{}
	for _, name := range st.Columns {
		i, ok := t.Column(name)
		if !ok {
			return nil, nil, engine.Errorf(engine.CodeUndefinedColumn, "column %q of relation %q does not exist", name, st.Table)
		}
		if seen[i] {
			return nil, nil, engine.Errorf(engine.CodeDuplicateColumn, "column %q specified more than once", name)
		}
		seen[i] = true
		targets = append(targets, i)
	}
	return t, targets, nil
}

// prepareInsert gives the literals and the parameters of no given type
// (typed false) that an INSERT's source assigns to columns their
// columns' types, before the statement is prepared, so that $n takes the
// type of its column as in PostgreSQL. Errors are left to the execution.
func (s *Session) prepareInsert(st *parse.Insert, typed func(int) bool) {
	t, targets, err := s.insertTarget(st)
	if err != nil || st.Query == nil {
		return
	}
	types := targetTypes(t, targets)
	if st.Rows > 0 {
		for _, sel := range valuesRows(st.Query.AST) {
			typeLiterals(sel, types, typed)
		}
	} else if sel, ok := st.Query.AST.(*ast.SelectStmt); ok {
		typeLiterals(sel, types, typed)
	}
}

// typedParams is whether $n has a type of its own in env.
func typedParams(env *paramEnv) func(int) bool {
	return func(n int) bool {
		return env != nil && n >= 1 && n <= len(env.types) && env.types[n-1].Kind != engine.KindUnknown
	}
}

// appendRows is cur's rows then add's, as new data. Their unconstrained
// numeric columns are first stored at one scale (the larger), on the
// backend.
func (s *Session) appendRows(ctx context.Context, t *engine.Table, cur, add engine.TableData) (engine.TableData, error) {
	ct, ok1 := cur.(engine.StoredTyper)
	at, ok2 := add.(engine.StoredTyper)
	if ok1 && ok2 {
		// the side whose scale is lower is rescaled
		var toCur, toAdd []engine.Type
		for i := range t.Columns {
			a, b := ct.StoredType(i), at.StoredType(i)
			if a.Kind != engine.KindNumeric || b.Kind != engine.KindNumeric || a.Prec == 0 || b.Prec == 0 || a.Scale == b.Scale {
				continue
			}
			if toCur == nil {
				toCur, toAdd = make([]engine.Type, len(t.Columns)), make([]engine.Type, len(t.Columns))
			}
			to := engine.NumericType(18, max(a.Scale, b.Scale))
			if a.Scale < b.Scale {
				toCur[i] = to
			} else {
				toAdd[i] = to
			}
		}
		if toCur != nil {
			o := s.storeOptions(t.Name)
			c2, err := s.rescale(ctx, cur, ct, toCur, len(t.Columns), o)
			if err != nil {
				return nil, err
			}
			if c2 != cur {
				defer c2.Release()
			}
			a2, err := s.rescale(ctx, add, at, toAdd, len(t.Columns), o)
			if err != nil {
				return nil, err
			}
			if a2 != add {
				defer a2.Release()
			}
			cur, add = c2, a2
		}
	}
	merged, err := s.srv.backend.Concat(t.Name, cur, add)
	if err == nil {
		s.srv.gatherStats(merged)
	}
	return merged, err
}

// rescale is d with column i cast to to[i] where that is set (d itself
// when none is), built on the backend.
func (s *Session) rescale(ctx context.Context, d engine.TableData, st engine.StoredTyper, to []engine.Type, ncols int, o engine.StoreOptions) (engine.TableData, error) {
	p := &engine.Plan{Table: "(append)", Data: d, Limit: -1}
	any := false
	for i := 0; i < ncols; i++ {
		name := fmt.Sprintf("c%d", i)
		typ := st.StoredType(i)
		p.Schema = append(p.Schema, engine.ColumnDef{Name: name, Type: typ})
		var e engine.Expr = &engine.ColRef{Idx: i, Name: name, T: typ}
		if to[i].Kind != engine.KindInvalid {
			e = &engine.Call{Op: engine.OpCast, Args: []engine.Expr{e}, T: to[i]}
			any = true
		}
		p.Project = append(p.Project, e)
		p.Names = append(p.Names, name)
	}
	if !any {
		return d, nil
	}
	p.Visible = ncols
	store, err := s.tableStore()
	if err != nil {
		return nil, err
	}
	return store.Materialize(ctx, p, o)
}

// isUnknownLiteral reports whether n is a string literal, a NULL or a
// parameter $n of no given type (typed(n) false), whose type PostgreSQL
// takes from the column it is assigned to.
func isUnknownLiteral(n ast.ExprNode, typed func(int) bool) bool {
	n = unparen(n)
	if f, ok := n.(*ast.FuncCallExpr); ok && f.FnName.L == "__gpusql_param" {
		k, err := paramNumber(f)
		return err == nil && !typed(k)
	}
	v, ok := n.(ast.ValueExpr)
	if !ok {
		return false
	}
	if e, err := literal(v); err != nil || !isUnknown(e) {
		return false
	}
	return true
}

// typeLiterals makes the string literals, NULLs and untyped parameters
// among the first items of sel's select list take the types of the
// columns they are assigned to, as PostgreSQL resolves them in INSERT:
// each becomes a cast. A value assigned to char(n) or varchar(n) is cast
// to text, so that one too long is an error rather than cut short
// (assign checks it). typed(n) says whether $n has a type of its own.
func typeLiterals(sel *ast.SelectStmt, types []engine.Type, typed func(int) bool) {
	for k, f := range sel.Fields.Fields {
		if k >= len(types) || f.WildCard != nil || !isUnknownLiteral(f.Expr, typed) {
			continue
		}
		t := types[k]
		if v, ok := f.Expr.(ast.ValueExpr); (!ok || v.GetValue() != nil) && t.Len > 0 {
			t = engine.Text
		}
		f.Expr = &ast.FuncCallExpr{FnName: ast.NewCIStr("__gpusql_cast"),
			Args: []ast.ExprNode{f.Expr, ast.NewValueExpr(t.String(), "", "")}}
	}
}

// targetTypes are the types of t's columns targets.
func targetTypes(t *engine.Table, targets []int) []engine.Type {
	out := make([]engine.Type, len(targets))
	for k, i := range targets {
		out[k] = t.Columns[i].Type
	}
	return out
}

// arity checks that a source of n columns fits the target list.
func arity(n int, targets []int, explicit bool) ([]int, error) {
	switch {
	case n > len(targets):
		return nil, engine.Errorf(engine.CodeSyntaxError, "INSERT has more expressions than target columns")
	case n < len(targets) && explicit:
		return nil, engine.Errorf(engine.CodeSyntaxError, "INSERT has more target columns than expressions")
	}
	return targets[:n], nil
}

// insertQuery builds the rows of INSERT ... query on the backend.
func (s *Session) insertQuery(ctx context.Context, t *engine.Table, targets []int, st *parse.Insert, env *paramEnv, o engine.StoreOptions) (engine.TableData, error) {
	if sel, ok := st.Query.AST.(*ast.SelectStmt); ok {
		typeLiterals(sel, targetTypes(t, targets), typedParams(env))
	}
	plan, _, err := s.bindSelectParams(ctx, st.Query.AST, env)
	if err != nil {
		return nil, err
	}
	if targets, err = arity(plan.Visible, targets, st.Columns != nil); err != nil {
		return nil, err
	}
	a, err := newAssignment(t, targets, plan.Columns())
	if err != nil {
		return nil, err
	}
	if len(a.checks) == 0 {
		return s.materialize(ctx, a.project(&engine.Plan{Input: plan, Limit: -1}), o)
	}
	// The checks read the query's values before the casts, which cut
	// strings short: the rows are kept first as the query gives them.
	src, err := s.materialize(ctx, plan, engine.StoreOptions{Table: o.Table})
	if err != nil {
		return nil, err
	}
	defer src.Release()
	scan := func() *engine.Plan {
		return &engine.Plan{Table: "(insert)", Schema: a.src, Data: src, Limit: -1}
	}
	if err := s.check(ctx, a, scan()); err != nil {
		return nil, err
	}
	return s.materialize(ctx, a.project(scan()), o)
}

// insertValues builds the rows of INSERT ... VALUES (st set) or DEFAULT
// VALUES (st nil) on the host, and stores them in the backend. Each row
// is bound and assigned on its own, as PostgreSQL does: its values' types
// may differ from another row's.
func (s *Session) insertValues(ctx context.Context, t *engine.Table, targets []int, st *parse.Insert, env *paramEnv, o engine.StoreOptions) (engine.TableData, error) {
	rows := []*ast.SelectStmt{nil} // DEFAULT VALUES: one row, no values
	if st != nil {
		rows = valuesRows(st.Query.AST)
		if len(rows) != st.Rows {
			return nil, engine.Errorf(engine.CodeInternalError, "INSERT: %d VALUES rows parsed as %d", st.Rows, len(rows))
		}
		var err error
		if targets, err = arity(len(rows[0].Fields.Fields), targets, st.Columns != nil); err != nil {
			return nil, err
		}
	}
	types := targetTypes(t, targets)
	batch := &engine.Batch{}
	ts := make([]engine.Type, len(t.Columns))
	for i, c := range t.Columns {
		ts[i] = c.Type
		batch.Cols = append(batch.Cols, engine.NewVec(c.Type, 0))
	}
	for r, sel := range rows {
		if r%64 == 0 && ctx.Err() != nil {
			return nil, canceledStatement(ctx)
		}
		var vals []engine.Expr
		var src []engine.ColumnDef
		if sel != nil {
			typeLiterals(sel, types, typedParams(env))
			plan, _, err := s.bindSelectParams(ctx, sel, env)
			if err != nil {
				return nil, err
			}
			if vals, err = s.rowValues(ctx, plan); err != nil {
				return nil, err
			}
			src = plan.Columns()
		}
		a, err := newAssignment(t, targets, src)
		if err != nil {
			return nil, err
		}
		if err := a.checkRow(ctx, vals); err != nil {
			return nil, err
		}
		for i, c := range t.Columns {
			var x engine.Expr = &engine.Const{T: c.Type, Null: true}
			if k := a.from[i]; k >= 0 {
				if x, err = castTo(vals[k], c.Type); err != nil {
					return nil, err
				}
			}
			v, err := eval.Eval(ctx, x, &engine.Batch{N: 1})
			if err != nil {
				return nil, err
			}
			batch.Cols[i].AppendRow(v, 0)
		}
		batch.N++
	}
	h, err := engine.HostFromBatches(ts, []*engine.Batch{batch})
	if err != nil {
		return nil, err
	}
	store, err := s.tableStore()
	if err != nil {
		return nil, err
	}
	return store.Store(h, o)
}

// valuesRows are the one-row SELECTs of a parsed VALUES list (see
// parse.Insert).
func valuesRows(n ast.Node) []*ast.SelectStmt {
	switch n := n.(type) {
	case *ast.SelectStmt:
		return []*ast.SelectStmt{n}
	case *ast.SetOprStmt:
		var out []*ast.SelectStmt
		for _, s := range n.SelectList.Selects {
			out = append(out, valuesRows(s)...)
		}
		return out
	case *ast.SetOprSelectList:
		var out []*ast.SelectStmt
		for _, s := range n.Selects {
			out = append(out, valuesRows(s)...)
		}
		return out
	}
	return nil
}

// rowValues are the values of a one-row plan without FROM: its
// projection when that folded to constants, else what running it gives.
func (s *Session) rowValues(ctx context.Context, plan *engine.Plan) ([]engine.Expr, error) {
	out := make([]engine.Expr, plan.Visible)
	folded := true
	for k, e := range plan.Project[:plan.Visible] {
		c, ok := e.(*engine.Const)
		if !ok {
			folded = false
			break
		}
		out[k] = c
	}
	if folded {
		return out, nil
	}
	var got []*engine.Const
	err := s.srv.host.Execute(ctx, plan, func(b *engine.Batch) error {
		for i := 0; i < b.N; i++ {
			got = got[:0]
			for _, v := range b.Cols {
				got = append(got, constOf(v, i))
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(got) != plan.Visible {
		return nil, engine.Errorf(engine.CodeInternalError, "a VALUES row gave %d values", len(got))
	}
	for k, c := range got {
		out[k] = c
	}
	return out, nil
}
