package query

import (
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/gpusql/gpusql/engine"
)

// Window functions. A SELECT with window calls binds as three nodes, as
// PostgreSQL evaluates it:
//
//	Pipeline (the select list, DISTINCT, ORDER BY, LIMIT)
//	  -> Window [the calls]
//	       -> Pipeline (FROM, WHERE, GROUP BY, HAVING; projects the
//	          calls' inputs, then every column the list reads)
//
// The select list and ORDER BY bind as usual; a window call met there
// binds its arguments, PARTITION BY and ORDER BY in the same scope (the
// grouped one after GROUP BY), each as an input column of the Window
// (windowScope.input), and stands for a placeholder column that finish
// points at the Window's output. The inputs come first, so their
// positions are final when a call binds.

// winPlaceholder is the first column index that stands for a window
// call's result until finish.
const winPlaceholder = 1 << 28

// Names of the rewrites of query/parse/window.go.
const (
	fnFrameOffset   = "__gpusql_frame_offset"   // (expr) as INTERVAL ... MICROSECOND: a frame offset
	fnWindowExclude = "__gpusql_window_exclude" // ('current row' | 'group' | 'ties') as an ORDER BY item
	fnLagArgs       = "__gpusql_lag_args"       // (offset [, default]) as lag's and lead's default
	fnWindowFilter  = "__gpusql_window_filter"  // (cond, x) as an aggregate's first argument: FILTER (WHERE cond)
)

// windowScope collects one SELECT's window calls.
type windowScope struct {
	defs  map[string]*ast.WindowSpec // the WINDOW clause
	calls []engine.WindowCall
	names []string
	keys  []string
	// inputs are what the Window reads, bound in the scope below it.
	inputs  []engine.Expr
	inputAt map[string]int
	// nested is set while a call's arguments bind.
	nested bool
	// aggFinish is what windowAgg's aggregate becomes (bool_and is
	// min(...) = 1): an expression over the aggregate, column 0, or nil.
	aggFinish engine.Expr
}

// newWindowScope checks a SELECT's WINDOW clause.
func newWindowScope(sel *ast.SelectStmt) (*windowScope, error) {
	ws := &windowScope{defs: map[string]*ast.WindowSpec{}, inputAt: map[string]int{}}
	clauses := []struct {
		name string
		n    ast.Node
	}{{"WHERE", sel.Where}, {"GROUP BY", sel.GroupBy}, {"HAVING", sel.Having}}
	for _, c := range clauses {
		if c.n != nil && !isNilNode(c.n) && hasWindow(c.n) {
			return nil, engine.Errorf(engine.CodeWindowingError, "window functions are not allowed in %s", c.name)
		}
	}
	for i := range sel.WindowSpecs {
		d := &sel.WindowSpecs[i]
		name := d.Name.L
		if _, dup := ws.defs[name]; dup {
			return nil, engine.Errorf(engine.CodeWindowingError, "window %q is already defined", d.Name.O)
		}
		if _, err := ws.resolve(d, true); err != nil {
			return nil, err
		}
		ws.defs[name] = d
	}
	return ws, nil
}

// resolve applies a window's reference to a named window (PostgreSQL's
// rules: the copy keeps its PARTITION BY, an ORDER BY only when it has
// one, and never a frame). def: spec is a WINDOW clause definition.
func (ws *windowScope) resolve(spec *ast.WindowSpec, def bool) (*ast.WindowSpec, error) {
	if spec.OnlyAlias && !def { // OVER w
		d, ok := ws.defs[spec.Name.L]
		if !ok {
			return nil, engine.Errorf(engine.CodeUndefinedObject, "window %q does not exist", spec.Name.O)
		}
		return ws.resolve(d, true)
	}
	if spec.Ref.O == "" {
		return spec, nil
	}
	d, ok := ws.defs[spec.Ref.L]
	if !ok {
		return nil, engine.Errorf(engine.CodeUndefinedObject, "window %q does not exist", spec.Ref.O)
	}
	base, err := ws.resolve(d, true)
	if err != nil {
		return nil, err
	}
	out := *spec
	out.Ref = ast.CIStr{}
	if spec.PartitionBy != nil {
		return nil, engine.Errorf(engine.CodeWindowingError, "cannot override PARTITION BY clause of window %q", spec.Ref.O)
	}
	out.PartitionBy = base.PartitionBy
	order, _ := splitExclude(spec.OrderBy)
	baseOrder, _ := splitExclude(base.OrderBy)
	if len(order) > 0 && len(baseOrder) > 0 {
		return nil, engine.Errorf(engine.CodeWindowingError, "cannot override ORDER BY clause of window %q", spec.Ref.O)
	}
	if len(order) == 0 && base.OrderBy != nil {
		// keep spec's EXCLUDE marker, if any, after base's keys
		_, ex := splitExclude(spec.OrderBy)
		items := append([]*ast.ByItem(nil), baseOrder...)
		if ex != nil {
			items = append(items, ex)
		}
		out.OrderBy = &ast.OrderByClause{Items: items}
	}
	if base.Frame != nil {
		return nil, engine.Errorf(engine.CodeWindowingError, "cannot copy window %q because it has a frame clause", spec.Ref.O)
	}
	return &out, nil
}

// splitExclude separates a window ORDER BY's keys from the EXCLUDE
// marker the rewrite puts last.
func splitExclude(o *ast.OrderByClause) ([]*ast.ByItem, *ast.ByItem) {
	if o == nil {
		return nil, nil
	}
	items := o.Items
	if n := len(items); n > 0 {
		if f, ok := items[n-1].Expr.(*ast.FuncCallExpr); ok && f.FnName.L == fnWindowExclude {
			return items[:n-1], items[n-1]
		}
	}
	return items, nil
}

// input makes e an input column of the Window and returns its index.
func (ws *windowScope) input(e engine.Expr) int {
	key := e.String()
	if i, ok := ws.inputAt[key]; ok {
		return i
	}
	ws.inputs = append(ws.inputs, e)
	ws.inputAt[key] = len(ws.inputs) - 1
	return len(ws.inputs) - 1
}

// inputRef is e as an argument of a call: a constant stays one, anything
// else becomes a reference to an input column.
func (ws *windowScope) inputRef(e engine.Expr) engine.Expr {
	if c, ok := e.(*engine.Const); ok {
		return c
	}
	return &engine.ColRef{Idx: ws.input(e), T: e.Type()}
}

// windowName is the output name of a window call, as PostgreSQL names
// it: the function's.
func windowName(n *ast.WindowFuncExpr) string {
	name := strings.ToLower(n.Name)
	if name == "group_concat" && len(n.Args) > 0 {
		if v, ok := n.Args[len(n.Args)-1].(ast.ValueExpr); ok {
			if s, ok := v.GetValue().(string); ok {
				if s == stringAggMarker {
					return "string_agg"
				}
				if m := strings.TrimPrefix(s, "__gpusql_agg_"); m != s {
					return m
				}
			}
		}
	}
	return name
}

// windowCall binds a window function call and returns the placeholder
// of its result.
func (b *binder) windowCall(n *ast.WindowFuncExpr) (engine.Expr, error) {
	ws := b.win
	if ws == nil {
		return nil, engine.Errorf(engine.CodeWindowingError, "window functions are not allowed here")
	}
	if ws.nested {
		return nil, engine.Errorf(engine.CodeWindowingError, "window function calls cannot be nested")
	}
	ws.nested = true
	defer func() { ws.nested = false }()
	name := strings.ToLower(n.Name)
	if n.IgnoreNull || n.FromLast {
		return nil, engine.Errorf(engine.CodeSyntaxError, "syntax error at or near %q", "ignore")
	}
	if n.Distinct {
		return nil, unsupported("DISTINCT is not implemented for window functions")
	}
	spec, err := ws.resolve(&n.Spec, false)
	if err != nil {
		return nil, err
	}
	call := engine.WindowCall{}
	if spec.PartitionBy != nil {
		for _, it := range spec.PartitionBy.Items {
			if _, ok := it.Expr.(*ast.PositionExpr); ok {
				continue // PARTITION BY 1 partitions by a constant
			}
			e, err := b.windowKey(it.Expr)
			if err != nil {
				return nil, err
			}
			call.Partition = append(call.Partition, ws.input(e))
		}
	}
	order, exclude := splitExclude(spec.OrderBy)
	var orderTypes []engine.Type
	for _, it := range order {
		key := engine.SortKey{Desc: it.Desc, NullsFirst: it.Desc}
		node := it.Expr
		if f, ok := node.(*ast.FuncCallExpr); ok && (f.FnName.L == "__gpusql_nulls_first" || f.FnName.L == "__gpusql_nulls_last") && len(f.Args) == 1 {
			key.NullsFirst = f.FnName.L == "__gpusql_nulls_first"
			node = f.Args[0]
		}
		if _, ok := node.(*ast.PositionExpr); ok {
			continue // ORDER BY 1 in a window sorts by a constant
		}
		e, err := b.windowKey(node)
		if err != nil {
			return nil, err
		}
		key.Col = ws.input(e)
		call.Order = append(call.Order, key)
		orderTypes = append(orderTypes, e.Type())
	}
	if call.Frame, err = b.windowFrame(spec.Frame, exclude, call.Order, orderTypes); err != nil {
		return nil, err
	}
	ws.aggFinish = nil
	if err := b.windowFunc(&call, n, name); err != nil {
		return nil, err
	}
	if a := &call.Agg; call.Func == engine.WinAgg && ws.aggFinish == nil && a.Func == engine.AggAvg && !a.Distinct &&
		a.Arg != nil && a.T.Kind == engine.KindNumeric {
		return ws.avgAsSum(call)
	}
	ref := ws.add(call, windowName(n))
	if ws.aggFinish == nil {
		return ref, nil
	}
	return mapCols(ws.aggFinish, func(c *engine.ColRef) engine.Expr { return ref }), nil
}

// add registers call (once per distinct call) and returns its
// placeholder.
func (ws *windowScope) add(call engine.WindowCall, name string) *engine.ColRef {
	key := call.String()
	k := len(ws.calls)
	for j, s := range ws.keys {
		if s == key {
			k = j
			break
		}
	}
	if k == len(ws.calls) {
		ws.calls = append(ws.calls, call)
		ws.keys = append(ws.keys, key)
		ws.names = append(ws.names, name)
	}
	return &engine.ColRef{Idx: winPlaceholder + k, Name: ws.names[k], T: call.T}
}

// avgAsSum is avg(x) OVER w over integers or numerics as sum(x) OVER w /
// count(x) OVER w, the numeric division PostgreSQL's avg finishes with
// (as the planner's avgAsSum does for GROUP BY): the window then computes
// only sums and counts, whose scales are fixed, which the GPU backend
// does with prefix sums, and the quotient's scale per row comes from the
// division above the Window.
func (ws *windowScope) avgAsSum(call engine.WindowCall) (engine.Expr, error) {
	a := call.Agg
	sumT := engine.Numeric
	if at := a.Arg.Type(); at.Kind == engine.KindInt16 || at.Kind == engine.KindInt32 {
		sumT = engine.Int64
	}
	sc, cc := call, call
	sc.Agg, sc.T = engine.AggCall{Func: engine.AggSum, Arg: a.Arg, T: sumT}, sumT
	cc.Agg, cc.T = engine.AggCall{Func: engine.AggCount, Arg: a.Arg, T: engine.Int64}, engine.Int64
	sum, err := castTo(ws.add(sc, "sum"), engine.Numeric)
	if err != nil {
		return nil, err
	}
	cnt, err := castTo(ws.add(cc, "count"), engine.Numeric)
	if err != nil {
		return nil, err
	}
	return &engine.Call{Op: engine.OpDiv, Args: []engine.Expr{sum, cnt}, T: a.T}, nil
}

// windowKey binds a PARTITION BY or ORDER BY expression.
func (b *binder) windowKey(n ast.ExprNode) (engine.Expr, error) {
	e, err := b.expr(n)
	if err != nil {
		return nil, err
	}
	if isUnknown(e) {
		return castTo(e, engine.Text)
	}
	return e, nil
}

// intArg casts a window function's integer argument (ntile's,
// nth_value's, lag's offset) to integer, as PostgreSQL's implicit casts
// allow, or fails as a missing function would.
func intArg(fn string, args []engine.Expr, k int) (engine.Expr, error) {
	e := args[k]
	switch e.Type().Kind {
	case engine.KindInt16, engine.KindInt32, engine.KindUnknown:
		return castTo(e, engine.Int32)
	}
	ts := make([]string, len(args))
	for i, a := range args {
		ts[i] = a.Type().String()
	}
	return nil, engine.Errorf(engine.CodeUndefinedFunction, "function %s(%s) does not exist", fn, strings.Join(ts, ", ")).
		WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
}

// windowFunc binds the function and its arguments into call.
func (b *binder) windowFunc(call *engine.WindowCall, n *ast.WindowFuncExpr, name string) error {
	ws := b.win
	args := make([]engine.Expr, 0, len(n.Args))
	// bindArgs binds the arguments; untyped literals stay untyped, for
	// the function to resolve.
	bindArgs := func(nodes []ast.ExprNode) error {
		for _, a := range nodes {
			if hasAggregate(a) && b.agg == nil {
				return engine.Errorf(engine.CodeGroupingError, "aggregate functions are not allowed here")
			}
			e, err := b.expr(a)
			if err != nil {
				return err
			}
			args = append(args, e)
		}
		return nil
	}
	// value is argument k as a value: an untyped literal is text.
	value := func(k int) (engine.Expr, error) {
		if isUnknown(args[k]) {
			return castTo(args[k], engine.Text)
		}
		return args[k], nil
	}
	switch name {
	case "row_number", "rank", "dense_rank", "percent_rank", "cume_dist":
		call.Func = map[string]engine.WindowFunc{"row_number": engine.WinRowNumber, "rank": engine.WinRank,
			"dense_rank": engine.WinDenseRank, "percent_rank": engine.WinPercentRank, "cume_dist": engine.WinCumeDist}[name]
		call.T = engine.Int64
		if call.Func == engine.WinPercentRank || call.Func == engine.WinCumeDist {
			call.T = engine.Float64
		}
		return nil
	case "ntile":
		if err := bindArgs(n.Args); err != nil {
			return err
		}
		a, err := intArg(name, args, 0)
		if err != nil {
			return err
		}
		call.Func, call.T, call.Args = engine.WinNtile, engine.Int32, []engine.Expr{ws.inputRef(a)}
		return nil
	case "lag", "lead":
		nodes := n.Args
		if len(nodes) == 3 {
			if f, ok := nodes[2].(*ast.FuncCallExpr); ok && f.FnName.L == fnLagArgs {
				nodes = append([]ast.ExprNode{nodes[0]}, f.Args...)
			}
		}
		if err := bindArgs(nodes); err != nil {
			return err
		}
		v := args[0]
		if len(args) < 3 || !isUnknown(args[2]) {
			var err error
			if v, err = value(0); err != nil {
				return err
			}
		}
		off := engine.Expr(&engine.Const{T: engine.Int32, I: 1})
		if len(args) > 1 {
			var err error
			if off, err = intArg(name, args, 1); err != nil {
				return err
			}
		}
		def := engine.Expr(&engine.Const{T: v.Type(), Null: true})
		if len(args) > 2 {
			vs, t, err := coerceAll(name, []engine.Expr{v, args[2]})
			if e, ok := err.(*engine.Error); ok && e.Code == engine.CodeDatatypeMismatch {
				return engine.Errorf(engine.CodeUndefinedFunction, "function %s(%s, integer, %s) does not exist", name, v.Type(), args[2].Type()).
					WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
			}
			if err != nil {
				return err
			}
			if isUnknown(args[2]) {
				// the value's type, as PostgreSQL resolves anycompatible
				// with an untyped default; char(n) keeps its padding
				t = v.Type()
				switch t.Kind {
				case engine.KindVarchar:
					t.Len = 0
				case engine.KindNumeric:
					t = engine.Numeric
				}
			}
			if v, err = castTo(vs[0], t); err != nil {
				return err
			}
			if def, err = castTo(vs[1], t); err != nil {
				return err
			}
		}
		call.Func = engine.WinLag
		if name == "lead" {
			call.Func = engine.WinLead
		}
		call.T = v.Type()
		call.Args = []engine.Expr{ws.inputRef(v), ws.inputRef(off), ws.inputRef(def)}
		return nil
	case "first_value", "last_value", "nth_value":
		if err := bindArgs(n.Args); err != nil {
			return err
		}
		call.Func = map[string]engine.WindowFunc{"first_value": engine.WinFirstValue, "last_value": engine.WinLastValue, "nth_value": engine.WinNthValue}[name]
		v, err := value(0)
		if err != nil {
			return err
		}
		call.T = v.Type()
		call.Args = []engine.Expr{ws.inputRef(v)}
		if call.Func == engine.WinNthValue {
			a, err := intArg(name, args, 1)
			if err != nil {
				return err
			}
			call.Args = append(call.Args, ws.inputRef(a))
		}
		return nil
	}
	return b.windowAgg(call, n, name)
}

// windowAgg binds an aggregate over a window. The arguments bind in the
// query's scope and become input columns of the Window; the aggregate
// itself binds over those columns with the binder's aggregate code, so
// that every aggregate it knows works over a window, with its checks and
// result types.
//
// FILTER (WHERE cond) arrives as the first argument
// __gpusql_window_filter(cond, x) (query/parse/window.go): cond becomes
// an input column, the aggregate binds with it as its FILTER, and the
// filtered arguments (CASE WHEN cond THEN x END) become input columns
// too, so that the call reads columns as an unfiltered one does.
func (b *binder) windowAgg(call *engine.WindowCall, n *ast.WindowFuncExpr, name string) error {
	ws := b.win
	nodes := n.Args
	filter := -1
	if len(nodes) > 0 {
		if f, ok := nodes[0].(*ast.FuncCallExpr); ok && f.FnName.L == fnWindowFilter && len(f.Args) == 2 {
			if hasAggregate(f.Args[0]) {
				return engine.Errorf(engine.CodeGroupingError, "aggregate functions are not allowed in FILTER")
			}
			if hasWindow(f.Args[0]) {
				return engine.Errorf(engine.CodeWindowingError, "window functions are not allowed in FILTER")
			}
			cond, err := b.predicate(f.Args[0], "FILTER")
			if err != nil {
				return err
			}
			filter = ws.input(cond)
			nodes = append([]ast.ExprNode{f.Args[1]}, nodes[1:]...)
		}
	}
	args := make([]ast.ExprNode, len(nodes))
	for i, a := range nodes {
		if _, ok := a.(ast.ValueExpr); ok {
			args[i] = a // literals (count(*)'s 1, a separator, a marker) as written
			continue
		}
		if hasAggregate(a) && b.agg == nil {
			return engine.Errorf(engine.CodeGroupingError, "aggregate functions are not allowed here")
		}
		e, err := b.expr(a)
		if err != nil {
			return err
		}
		k := ws.input(e)
		args[i] = &ast.ColumnNameExpr{Name: &ast.ColumnName{Name: ast.NewCIStr(fmt.Sprintf("__gpusql_window_input_%d", k))}}
	}
	cols := make([]engine.ColumnDef, len(ws.inputs))
	for k, e := range ws.inputs {
		cols[k] = engine.ColumnDef{Name: fmt.Sprintf("__gpusql_window_input_%d", k), Type: e.Type()}
	}
	ab := &binder{s: b.s, params: b.params, st: b.st, src: source{present: true, cols: cols}, agg: &aggScope{}}
	if filter >= 0 {
		ab.agg.filter = &engine.ColRef{Idx: filter, Name: cols[filter].Name, T: engine.Bool}
	}
	fin, err := ab.expr(&ast.AggregateFuncExpr{F: n.Name, Args: args})
	if err != nil {
		e, ok := err.(*engine.Error)
		if ok && (e.Code == engine.CodeFeatureNotSupported && strings.HasPrefix(e.Message, "aggregate function") ||
			e.Code == engine.CodeUndefinedFunction && strings.Contains(e.Message, "group_concat")) {
			return engine.Errorf(engine.CodeUndefinedFunction, "function %s does not exist", windowName(n))
		}
		return err
	}
	if len(ab.agg.aggs) != 1 {
		return unsupported("%s as a window function", name) // bit_and/bit_or: one aggregate per bit
	}
	a := ab.agg.aggs[0]
	if len(a.Order) > 0 {
		return unsupported("aggregate ORDER BY is not implemented for window functions")
	}
	if filter >= 0 {
		// the filtered arguments as input columns
		outer := func(c *engine.ColRef) engine.Expr { return ws.inputs[c.Idx] }
		hoist := func(e engine.Expr) engine.Expr {
			if _, ok := e.(*engine.ColRef); ok || e == nil {
				return e
			}
			return ws.inputRef(mapCols(e, outer))
		}
		a.Arg, a.Arg2 = hoist(a.Arg), hoist(a.Arg2)
	}
	call.Func, call.Agg, call.T = engine.WinAgg, a, a.T
	if c, ok := fin.(*engine.ColRef); !ok || c.Idx != 0 || c.T != a.T {
		ws.aggFinish = fin
	}
	return nil
}

// windowFrame binds a frame clause (nil: the default frame) and the
// EXCLUDE marker, with PostgreSQL's checks.
func (b *binder) windowFrame(fc *ast.FrameClause, exclude *ast.ByItem, order []engine.SortKey, orderTypes []engine.Type) (engine.Frame, error) {
	f := engine.DefaultFrame
	if exclude != nil {
		s, err := stringArg(exclude.Expr.(*ast.FuncCallExpr).Args[0])
		if err != nil {
			return f, err
		}
		f.Exclude = map[string]engine.FrameExclusion{"current row": engine.ExcludeCurrentRow, "group": engine.ExcludeGroup, "ties": engine.ExcludeTies}[s]
	}
	if fc == nil {
		return f, nil
	}
	switch fc.Type {
	case ast.Rows:
		f.Mode = engine.FrameRows
	case ast.Groups:
		f.Mode = engine.FrameGroups
	default:
		f.Mode = engine.FrameRange
	}
	bound := func(fb ast.FrameBound, start bool) (engine.FrameBound, error) {
		var out engine.FrameBound
		switch {
		case fb.Type == ast.CurrentRow:
			out.Kind = engine.BoundCurrentRow
		case fb.UnBounded && fb.Type == ast.Preceding:
			out.Kind = engine.BoundUnboundedPreceding
		case fb.UnBounded:
			out.Kind = engine.BoundUnboundedFollowing
		case fb.Type == ast.Preceding:
			out.Kind = engine.BoundPreceding
		default:
			out.Kind = engine.BoundFollowing
		}
		if fb.Expr == nil || fb.UnBounded {
			return out, nil
		}
		node := fb.Expr
		if fb.Unit != ast.TimeUnitInvalid {
			f, ok := node.(*ast.FuncCallExpr)
			if !ok || f.FnName.L != fnFrameOffset || len(f.Args) != 1 {
				return out, engine.Errorf(engine.CodeSyntaxError, "syntax error at or near %q", "interval")
			}
			node = f.Args[0]
		}
		off, err := b.frameOffset(node, f.Mode, start, order, orderTypes)
		out.Offset = off
		return out, err
	}
	start, err := bound(fc.Extent.Start, true)
	if err != nil {
		return f, err
	}
	end, err := bound(fc.Extent.End, false)
	if err != nil {
		return f, err
	}
	switch {
	case start.Kind == engine.BoundUnboundedFollowing:
		return f, engine.Errorf(engine.CodeWindowingError, "frame start cannot be UNBOUNDED FOLLOWING")
	case end.Kind == engine.BoundUnboundedPreceding:
		return f, engine.Errorf(engine.CodeWindowingError, "frame end cannot be UNBOUNDED PRECEDING")
	case start.Kind == engine.BoundCurrentRow && end.Kind == engine.BoundPreceding:
		return f, engine.Errorf(engine.CodeWindowingError, "frame starting from current row cannot have preceding rows")
	case start.Kind == engine.BoundFollowing && (end.Kind == engine.BoundPreceding || end.Kind == engine.BoundCurrentRow):
		return f, engine.Errorf(engine.CodeWindowingError, "frame starting from following row cannot have preceding rows")
	}
	f.Start, f.End = start, end
	return f, nil
}

// frameOffset binds n PRECEDING's or n FOLLOWING's n: a constant bigint
// for ROWS and GROUPS; for RANGE a constant of the type that in_range
// takes with the one ORDER BY key.
func (b *binder) frameOffset(n ast.ExprNode, mode engine.FrameMode, start bool, order []engine.SortKey, orderTypes []engine.Type) (*engine.Const, error) {
	ob := &binder{s: b.s, params: b.params, st: b.st}
	e, err := ob.expr(n)
	if err != nil {
		if ee, ok := err.(*engine.Error); ok && (ee.Code == engine.CodeUndefinedColumn || ee.Code == engine.CodeUndefinedTable) {
			return nil, engine.Errorf(engine.CodeInvalidColumnReference, "argument of %s must not contain variables", mode)
		}
		return nil, err
	}
	which := "ending"
	if start {
		which = "starting"
	}
	var t engine.Type
	switch mode {
	case engine.FrameRows, engine.FrameGroups:
		if mode == engine.FrameGroups && len(order) == 0 {
			return nil, engine.Errorf(engine.CodeWindowingError, "GROUPS mode requires an ORDER BY clause")
		}
		t = engine.Int64
		if k := e.Type().Kind; k != engine.KindUnknown && !e.Type().IsNumber() {
			return nil, engine.Errorf(engine.CodeDatatypeMismatch, "argument of %s must be type bigint, not type %s", mode, e.Type())
		}
	default:
		if len(order) != 1 {
			return nil, engine.Errorf(engine.CodeWindowingError, "RANGE with offset PRECEDING/FOLLOWING requires exactly one ORDER BY column")
		}
		kt, ot := orderTypes[0], e.Type()
		ok := true
		switch {
		case kt.IsInteger():
			t, ok = engine.Int64, ot.IsInteger() || ot.Kind == engine.KindUnknown
		case kt.Kind == engine.KindNumeric:
			t, ok = engine.Numeric, ot.IsInteger() || ot.Kind == engine.KindNumeric || ot.Kind == engine.KindUnknown
		case kt.IsFloat():
			t, ok = engine.Float64, ot.IsNumber() || ot.Kind == engine.KindUnknown
		case kt.Kind == engine.KindDate || kt.Kind == engine.KindTimestamp || kt.Kind == engine.KindInterval:
			t, ok = engine.Interval, ot.Kind == engine.KindInterval || ot.Kind == engine.KindUnknown
		default:
			return nil, unsupported("RANGE with offset PRECEDING/FOLLOWING is not supported for column type %s", kt)
		}
		if !ok {
			return nil, engine.Errorf(engine.CodeFeatureNotSupported, "RANGE with offset PRECEDING/FOLLOWING is not supported for column type %s and offset type %s", kt, ot).
				WithHint("Cast the offset value to an appropriate type.")
		}
	}
	if e, err = castTo(e, t); err != nil {
		return nil, err
	}
	c, ok := e.(*engine.Const)
	if !ok {
		return nil, engine.Errorf(engine.CodeInvalidColumnReference, "argument of %s must not contain variables", mode)
	}
	if c.Null {
		return nil, engine.Errorf(engine.CodeNullValueNotAllowed, "frame %s offset must not be null", which)
	}
	negative := false
	switch t.Kind {
	case engine.KindInt64:
		negative = c.I < 0
	case engine.KindNumeric:
		negative = c.D.Sign() < 0
	case engine.KindFloat64:
		negative = c.F < 0 || c.F != c.F
	case engine.KindInterval:
		d, us := c.V.Span()
		negative = d < 0 || (d == 0 && us < 0)
	}
	if negative {
		if mode == engine.FrameRange {
			return nil, engine.Errorf(engine.CodeInvalidWindowFrameSize, "invalid preceding or following size in window function")
		}
		return nil, engine.Errorf(engine.CodeInvalidWindowFrameSize, "frame %s offset must not be negative", which)
	}
	return c, nil
}

// finish builds the plan of a SELECT with window calls from p, bound as
// if the calls were columns (see the top of this file).
func (ws *windowScope) finish(b *binder, p *engine.Plan) *engine.Plan {
	nin := len(ws.inputs)
	low := &engine.Plan{Input: p.Input, Table: p.Table, Host: p.Host, Schema: p.Schema, Data: p.Data,
		Filter: p.Filter, Aggregate: p.Aggregate, GroupBy: p.GroupBy, Aggs: p.Aggs, Having: p.Having, Limit: -1}
	for _, e := range ws.inputs {
		low.Project = append(low.Project, e)
		low.Names = append(low.Names, "")
	}
	if p.Aggregate {
		for k, g := range p.GroupBy {
			low.Project = append(low.Project, &engine.ColRef{Idx: k, Name: g.String(), T: g.Type()})
			low.Names = append(low.Names, "")
		}
		for k, a := range p.Aggs {
			low.Project = append(low.Project, &engine.ColRef{Idx: len(p.GroupBy) + k, Name: a.String(), T: a.T})
			low.Names = append(low.Names, "")
		}
	} else {
		for i, c := range b.src.cols {
			low.Project = append(low.Project, &engine.ColRef{Idx: i, Name: c.Name, T: c.Type})
			low.Names = append(low.Names, c.Name)
		}
	}
	low.Visible = len(low.Project)
	w := &engine.Window{Input: low, Calls: ws.calls, Names: ws.names}
	base := low.Visible
	// a column the calls read already is read there, so that the one
	// after the inputs can be pruned
	asInput := map[int]int{}
	for k, e := range ws.inputs {
		if c, ok := e.(*engine.ColRef); ok {
			if _, dup := asInput[c.Idx]; !dup {
				asInput[c.Idx] = k
			}
		}
	}
	top := &engine.Plan{Input: w, Table: p.Table, Host: p.Host, Distinct: p.Distinct, OrderBy: p.OrderBy,
		Offset: p.Offset, Limit: p.Limit, Visible: p.Visible, Names: p.Names}
	for _, e := range p.Project {
		top.Project = append(top.Project, mapCols(e, func(c *engine.ColRef) engine.Expr {
			r := *c
			if c.Idx >= winPlaceholder {
				r.Idx = base + c.Idx - winPlaceholder
			} else if k, ok := asInput[c.Idx]; ok {
				r.Idx = k
			} else {
				r.Idx += nin
			}
			return &r
		}))
	}
	return top
}

// windowFinder reports whether an AST holds a window call of its own
// query (not of a subquery).
type windowFinder struct{ found bool }

func (f *windowFinder) Enter(n ast.Node) (ast.Node, bool) {
	switch n.(type) {
	case *ast.SubqueryExpr:
		return n, true
	case *ast.WindowFuncExpr:
		f.found = true
		return n, true
	}
	return n, false
}

func (f *windowFinder) Leave(n ast.Node) (ast.Node, bool) { return n, true }

func hasWindow(n ast.Node) bool {
	f := &windowFinder{}
	n.Accept(f)
	return f.found
}

// isNilNode reports whether n is a typed nil (an absent clause).
func isNilNode(n ast.Node) bool {
	switch x := n.(type) {
	case ast.ExprNode:
		return x == nil
	case *ast.GroupByClause:
		return x == nil
	case *ast.HavingClause:
		return x == nil
	}
	return false
}
