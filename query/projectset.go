package query

import (
	"fmt"
	"strconv"

	"github.com/gpusql/gpusql/engine"
	"github.com/pingcap/tidb/pkg/parser/ast"
)

// Set-returning functions in a select list (PostgreSQL's ProjectSet), as
// driver catalog queries use them: pgJDBC's getPrimaryKeys and
// getIndexInfo read (information_schema._pg_expandarray(i.indkey)).n,
// psqlODBC's SQLForeignKeys generate_series(array_lower(conkey, 1),
// array_upper(conkey, 1)). The SELECT without its set-returning calls
// runs first, with the calls' arguments as extra columns; each of its
// rows then gives as many rows as the longest of its calls' sets (the
// shorter ones padded with NULLs, as in PostgreSQL 10 and later), and the
// select list, ORDER BY, DISTINCT and LIMIT apply to those rows.
//
// The functions are generate_series over integers, unnest and
// _pg_expandarray, over gpusql's text-form arrays. _pg_expandarray's
// result is the record (x, n): (f(a)).x and (f(a)).n select a field; a
// bare f(a) AS k is kept as the columns "k.x" and "k.n", which (q.k).x in
// an enclosing query reads. Its x is a[n] as smallint: gpusql's arrays
// are text, so anyelement cannot resolve, and PostgreSQL's
// information_schema and the drivers call it on int2vector and int2[]
// columns (indkey, conkey) only; an element that is not a smallint is
// 22P02.

// srfNames are the set-returning functions a select list may call.
var srfNames = map[string]bool{"generate_series": true, "unnest": true, "_pg_expandarray": true}

// selectSRF is the set-returning call of a select-list item: the item
// itself, or the call under (call).field; field is "" for the former.
func selectSRF(n ast.ExprNode) (call *ast.FuncCallExpr, field string, ok bool) {
	fc, isCall := n.(*ast.FuncCallExpr)
	if !isCall {
		return nil, "", false
	}
	if srfNames[fc.FnName.L] {
		return fc, "", true
	}
	if fc.FnName.L == "__gpusql_field" && len(fc.Args) == 2 {
		if inner, isCall := fc.Args[0].(*ast.FuncCallExpr); isCall && srfNames[inner.FnName.L] {
			if f, err := stringArg(fc.Args[1]); err == nil {
				return inner, f, true
			}
		}
	}
	return nil, "", false
}

// hasSelectSRF reports whether sel's select list calls a set-returning
// function.
func hasSelectSRF(sel *ast.SelectStmt) bool {
	if sel.Fields == nil {
		return false
	}
	for _, f := range sel.Fields.Fields {
		if f.WildCard == nil {
			if _, _, ok := selectSRF(f.Expr); ok {
				return true
			}
		}
	}
	return false
}

func psName(kind string, i, k int) string { return fmt.Sprintf("__gpusql_ps_%s%d_%d", kind, i, k) }

func colName(name string) *ast.ColumnNameExpr {
	return &ast.ColumnNameExpr{Name: &ast.ColumnName{Name: ast.NewCIStr(name)}}
}

// projectSet binds a SELECT whose select list calls set-returning
// functions (see above).
func (b *binder) projectSet(sel *ast.SelectStmt) (*engine.Plan, []engine.ResultColumn, error) {
	if sel.GroupBy != nil || sel.Having != nil || len(sel.WindowSpecs) > 0 {
		return nil, nil, unsupported("set-returning functions in a select list with GROUP BY, HAVING or WINDOW are not supported by gpusql")
	}
	type srfItem struct {
		call  *ast.FuncCallExpr
		field string // "" for the whole value
		name  string // the item's output name
		args  int    // the first argument's column in the inner result
	}
	inner := &ast.SelectStmt{Kind: sel.Kind, From: sel.From, Where: sel.Where, Fields: &ast.FieldList{}}
	var srfs []srfItem
	// For each item: its srfs index, or -1 for a plain item.
	which := make([]int, len(sel.Fields.Fields))
	for i, f := range sel.Fields.Fields {
		if f.WildCard != nil {
			return nil, nil, unsupported("SELECT * beside a set-returning function is not supported by gpusql")
		}
		if hasAggregate(f.Expr) {
			return nil, nil, unsupported("aggregates beside a set-returning function in a select list are not supported by gpusql")
		}
		name := f.AsName.O
		if name == "" {
			name = exprName(f.Expr)
		}
		call, field, ok := selectSRF(f.Expr)
		if !ok {
			which[i] = -1
			inner.Fields.Fields = append(inner.Fields.Fields, &ast.SelectField{Expr: f.Expr, AsName: ast.NewCIStr(psName("c", i, 0))})
			continue
		}
		if field == "" && f.AsName.O == "" && call.FnName.L == "_pg_expandarray" {
			name = "_pg_expandarray"
		} else if field != "" && f.AsName.O == "" {
			name = field
		}
		which[i] = len(srfs)
		srfs = append(srfs, srfItem{call: call, field: field, name: name, args: len(inner.Fields.Fields)})
		for k, a := range call.Args {
			inner.Fields.Fields = append(inner.Fields.Fields, &ast.SelectField{Expr: a, AsName: ast.NewCIStr(psName("a", i, k))})
		}
	}

	sub := b.child()
	plan, _, err := sub.bindStmt(inner)
	if err != nil {
		return nil, nil, err
	}
	if len(sub.outerRefs()) > 0 {
		return nil, nil, unsupported("set-returning functions in a correlated subquery's select list are not supported by gpusql")
	}
	cols := plan.Columns()
	var rows *engine.Batch
	if b.st.describe {
		rows = &engine.Batch{Cols: make([]*engine.Vec, len(cols))}
		for k, c := range cols {
			rows.Cols[k] = &engine.Vec{T: c.Type}
		}
	} else if rows, err = b.s.collect(b.st.ctx, plan, "a set-returning function's input"); err != nil {
		return nil, nil, err
	}

	// The sets of each row, and the columns they fill.
	type setOut struct {
		names []string
		types []engine.Type
	}
	outs := make([]setOut, len(srfs))
	for j, s := range srfs {
		n := len(s.call.Args)
		switch s.call.FnName.L {
		case "generate_series":
			if n < 2 || n > 3 {
				return nil, nil, engine.Errorf(engine.CodeUndefinedFunction, "function generate_series with %d arguments does not exist", n)
			}
			t := engine.Int32
			for k := 0; k < n; k++ {
				switch ct := cols[s.args+k].Type; {
				case ct.Kind == engine.KindInt64:
					t = engine.Int64
				case ct.IsInteger() || ct.Kind == engine.KindUnknown:
				default:
					return nil, nil, unsupported("generate_series(%s) in a select list is not supported by gpusql (integers only)", ct)
				}
			}
			outs[j] = setOut{[]string{s.name}, []engine.Type{t}}
		case "unnest", "_pg_expandarray":
			if n != 1 {
				return nil, nil, engine.Errorf(engine.CodeUndefinedFunction, "function %s with %d arguments does not exist", s.call.FnName.L, n)
			}
			if !cols[s.args].Type.IsString() {
				return nil, nil, engine.Errorf(engine.CodeUndefinedFunction, "function %s(%s) does not exist", s.call.FnName.L, pgTypeName(cols[s.args].Type))
			}
			if s.call.FnName.L == "unnest" {
				if s.field != "" {
					return nil, nil, engine.Errorf(engine.CodeWrongObjectType, "column notation .%s applied to type text, which is not a composite type", s.field)
				}
				outs[j] = setOut{[]string{s.name}, []engine.Type{engine.Text}}
				break
			}
			// the set is the positions n; x is a[n] (see the select list)
			switch s.field {
			case "", "x", "n":
				outs[j] = setOut{[]string{s.name}, []engine.Type{engine.Int32}}
			default:
				return nil, nil, engine.Errorf(engine.CodeUndefinedColumn, "column %q not found in data type record", s.field)
			}
		}
	}

	// Expand.
	var names []string
	var types []engine.Type
	for _, c := range cols {
		names = append(names, c.Name)
		types = append(types, c.Type)
	}
	setCol := make([]int, len(srfs))
	for j, o := range outs {
		setCol[j] = len(names)
		for k := range o.names {
			names = append(names, psName("s", j, k))
			types = append(types, o.types[k])
		}
	}
	out := &engine.Batch{Cols: make([]*engine.Vec, len(names))}
	for k, t := range types {
		out.Cols[k] = &engine.Vec{T: t}
	}
	sets := make([][]*string, len(srfs))
	for r := 0; r < rows.N; r++ {
		longest := 0
		for j, s := range srfs {
			set, err := srfSet(s.call.FnName.L, rows, r, s.args, len(s.call.Args))
			if err != nil {
				return nil, nil, err
			}
			sets[j] = set
			longest = max(longest, len(set))
		}
		if out.N+longest > maxHostRows {
			return nil, nil, errTooManyRows("a set-returning function")
		}
		for e := 0; e < longest; e++ {
			for k := range cols {
				out.Cols[k].AppendRow(rows.Cols[k], r)
			}
			for j, s := range srfs {
				c := setCol[j]
				var el *string
				if e < len(sets[j]) {
					el = sets[j][e]
				}
				switch {
				case s.call.FnName.L == "generate_series":
					appendInt(out.Cols[c], el)
				case s.call.FnName.L == "unnest":
					appendText(out.Cols[c], el)
				default:
					appendOrdinal(out.Cols[c], e, e >= len(sets[j]))
				}
			}
		}
		out.N += longest
	}
	for _, v := range out.Cols {
		v.N = out.N
	}
	src, err := batchSource("", "", names, types, out)
	if err != nil {
		return nil, nil, err
	}

	// The select list over the expanded rows.
	outer := *sel
	outer.From, outer.Where = nil, nil
	outer.Fields = &ast.FieldList{}
	for i, f := range sel.Fields.Fields {
		if which[i] < 0 {
			name := f.AsName.O
			if name == "" {
				name = exprName(f.Expr)
			}
			outer.Fields.Fields = append(outer.Fields.Fields, &ast.SelectField{Expr: colName(psName("c", i, 0)), AsName: ast.NewCIStr(name)})
			continue
		}
		j := which[i]
		s := srfs[j]
		if s.call.FnName.L != "_pg_expandarray" {
			outer.Fields.Fields = append(outer.Fields.Fields, &ast.SelectField{Expr: colName(psName("s", j, 0)), AsName: ast.NewCIStr(s.name)})
			continue
		}
		// (a, n) → x is a[n]::smallint
		pos := colName(psName("s", j, 0))
		x := &ast.FuncCallExpr{FnName: ast.NewCIStr("__gpusql_cast"), Args: []ast.ExprNode{
			&ast.FuncCallExpr{FnName: ast.NewCIStr("__gpusql_subscript"), Args: []ast.ExprNode{colName(psName("a", i, 0)), pos}},
			ast.NewValueExpr(engine.Int16.String(), "", "")}}
		switch s.field {
		case "x":
			outer.Fields.Fields = append(outer.Fields.Fields, &ast.SelectField{Expr: x, AsName: ast.NewCIStr(s.name)})
		case "n":
			outer.Fields.Fields = append(outer.Fields.Fields, &ast.SelectField{Expr: pos, AsName: ast.NewCIStr(s.name)})
		default:
			outer.Fields.Fields = append(outer.Fields.Fields, &ast.SelectField{Expr: x, AsName: ast.NewCIStr(s.name + ".x")},
				&ast.SelectField{Expr: colName(psName("s", j, 0)), AsName: ast.NewCIStr(s.name + ".n")})
		}
	}
	ob := &binder{s: b.s, params: b.params, st: b.st, outer: b.outer, src: src}
	return ob.bindSelect(&outer)
}

// srfSet is the set one set-returning call gives for row r of rows, whose
// arguments are the n columns from col; elements as text (nil: NULL).
func srfSet(name string, rows *engine.Batch, r, col, n int) ([]*string, error) {
	if name != "generate_series" {
		v := rows.Cols[col]
		if v.IsNull(r) {
			return nil, nil
		}
		return parseTextArray(string(v.S[r]))
	}
	var a [3]int64
	a[2] = 1
	for k := 0; k < n; k++ {
		c := constOf(rows.Cols[col+k], r)
		if c.Null {
			return nil, nil
		}
		if c.T.Kind == engine.KindUnknown {
			x, err := strconv.ParseInt(c.S, 10, 64)
			if err != nil {
				return nil, engine.Errorf(engine.CodeInvalidTextRepresent, "invalid input syntax for type integer: %q", c.S)
			}
			a[k] = x
		} else {
			a[k] = c.I
		}
	}
	if a[2] == 0 {
		return nil, engine.Errorf(engine.CodeInvalidParameterValue, "step size cannot equal zero")
	}
	var out []*string
	for x := a[0]; a[2] > 0 && x <= a[1] || a[2] < 0 && x >= a[1]; x += a[2] {
		if len(out) >= maxHostRows {
			return nil, errTooManyRows("generate_series")
		}
		s := strconv.FormatInt(x, 10)
		out = append(out, &s)
	}
	return out, nil
}

func appendInt(v *engine.Vec, el *string) {
	x := int64(0)
	if el != nil {
		x, _ = strconv.ParseInt(*el, 10, 64) // srfSet formatted it
	}
	appendSlot(v, el == nil, x, nil)
}

func appendText(v *engine.Vec, el *string) {
	var s []byte
	if el != nil {
		s = []byte(*el)
	}
	appendSlot(v, el == nil, 0, s)
}

// appendOrdinal appends the 1-based position e+1, or NULL past the set.
func appendOrdinal(v *engine.Vec, e int, null bool) { appendSlot(v, null, int64(e+1), nil) }

func appendSlot(v *engine.Vec, null bool, i int64, s []byte) {
	if null && v.Null == nil {
		v.Null = make([]bool, v.N)
	}
	if v.Null != nil {
		v.Null = append(v.Null, null)
	}
	if engine.PhysOf(v.T.Kind) == engine.PhysStr {
		v.S = append(v.S, s)
	} else {
		v.I = append(v.I, i)
	}
	v.N++
}

// fieldSelect binds (x).f outside a select list's set-returning call: x
// must be a column that holds a record, which gpusql keeps as one column
// per field, named "x.f" (see above).
func (b *binder) fieldSelect(x, f ast.ExprNode) (engine.Expr, error) {
	field, err := stringArg(f)
	if err != nil {
		return nil, err
	}
	if p, ok := x.(*ast.ParenthesesExpr); ok {
		x = p.Expr
	}
	c, ok := x.(*ast.ColumnNameExpr)
	if !ok {
		if fc, isCall := x.(*ast.FuncCallExpr); isCall && srfNames[fc.FnName.L] {
			return nil, unsupported("set-returning function %s is only supported as a select-list item or in FROM by gpusql", fc.FnName.L)
		}
		return nil, engine.Errorf(engine.CodeWrongObjectType, "column notation .%s applied to a value that is not a composite type", field)
	}
	name := *c.Name
	name.Name = ast.NewCIStr(c.Name.Name.O + "." + field)
	e, err := b.expr(&ast.ColumnNameExpr{Name: &name})
	if err != nil {
		if _, err2 := b.expr(c); err2 == nil {
			return nil, engine.Errorf(engine.CodeWrongObjectType, "column notation .%s applied to a value that is not a composite type", field)
		}
		return nil, err
	}
	return e, nil
}
