package query

import (
	"bytes"
	"math"
	"unicode/utf8"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/eval"
)

// Set-returning functions (generate_series, unnest, regexp_matches,
// regexp_split_to_table, string_to_table, _pg_expandarray) with
// PostgreSQL 15's semantics. In a select list each call binds, like a window call, to a
// placeholder column; srfScope.finish then splits the plan in two: a
// pipeline that filters, groups and computes the calls' arguments, an
// engine.ProjectSet that expands its rows (the calls of one list zipped,
// the longest result winning), and a pipeline that computes the select
// list over the expanded rows and sorts, DISTINCTs and limits them. In
// FROM a call whose arguments are constants runs while binding (join.go,
// srf); one whose arguments read an earlier FROM item (LATERAL, explicit
// or not) is a ProjectSet over that item (lateralSRF).

// srfPlaceholder marks a select list's set-returning call k as column
// srfPlaceholder+k until finish.
const srfPlaceholder = 1 << 27

// maxSetValues bounds the values one set-returning call makes over a
// node's rows.
const maxSetValues = 1 << 27

// srfScope collects a select list's set-returning calls.
type srfScope struct {
	calls []engine.SetFunc
	// deny, when set, names the construct being bound, where calls are
	// refused (CASE, the arguments of another call)
	deny string
}

func isSetFunc(name string) bool {
	switch name {
	case "generate_series", "unnest", "regexp_matches", "regexp_split_to_table", "string_to_table", "_pg_expandarray":
		return true
	}
	return false
}

// setFuncCall binds a set-returning call in an expression: a placeholder
// in a select list, an error elsewhere. field is the field selected by
// (call).field, "" for the whole value.
func (b *binder) setFuncCall(n *ast.FuncCallExpr, field string) (engine.Expr, error) {
	name := n.FnName.L
	switch {
	case b.sets == nil:
		return nil, unsupported("set-returning function %s is not allowed here (gpusql runs them in the select list and in FROM only)", name)
	case b.sets.deny != "":
		return nil, unsupported("set-returning functions are not allowed in %s", b.sets.deny)
	}
	outer := b.sets
	b.sets = &srfScope{deny: "the arguments of a set-returning function in gpusql"}
	args, err := b.exprs(n.Args...)
	b.sets = outer
	if err != nil {
		return nil, err
	}
	var f engine.SetFunc
	switch {
	case name == "_pg_expandarray":
		f, err = expandArrayFunc(args, field)
	case field != "":
		if f, err = b.setFunc(name, args); err == nil {
			err = engine.Errorf(engine.CodeWrongObjectType, "column notation .%s applied to type %s, which is not a composite type", field, pgTypeName(f.T))
		}
	default:
		f, err = b.setFunc(name, args)
	}
	if err != nil {
		return nil, err
	}
	if name == "unnest" && len(n.Args) == 1 && intArrayCast(n.Args[0]) {
		f = intElements(f)
	}
	b.sets.calls = append(b.sets.calls, f)
	return &engine.ColRef{Idx: srfPlaceholder + len(b.sets.calls) - 1, Name: f.Name, T: f.T}, nil
}

// expandArrayFunc binds a field of information_schema._pg_expandarray(a),
// whose rows are the records (x, n): n the 1-based positions of a's
// elements, x the element at n. gpusql has no record values, so each
// field is a set function of its own; two calls over one array give sets
// of one length, which the ProjectSet zips row by row. x is a smallint:
// gpusql's arrays are text, so anyelement cannot resolve, and PostgreSQL's
// information_schema and the drivers call it on int2vector and int2[]
// columns (indkey, conkey) only; an element that is not a smallint is
// 22P02, one out of its range 22003.
func expandArrayFunc(args []engine.Expr, field string) (engine.SetFunc, error) {
	f := engine.SetFunc{Name: "_pg_expandarray", Args: args}
	if len(args) != 1 {
		return f, noFunc(f.Name, args)
	}
	if t := args[0].Type(); !t.IsString() {
		return f, engine.Errorf(engine.CodeUndefinedFunction, "function _pg_expandarray(%s) does not exist", pgTypeName(t)).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	}
	switch field {
	case "x":
		f.T, f.Fn = engine.Int16, expandArrayElems
	case "n":
		f.T, f.Fn = engine.Int32, expandArrayPositions
	case "":
		return f, unsupported("_pg_expandarray's record is supported by gpusql only as a whole select-list item or under (_pg_expandarray(a)).x or .n")
	default:
		return f, engine.Errorf(engine.CodeUndefinedColumn, "column %q not found in data type record", field)
	}
	return f, nil
}

// expandArray walks _pg_expandarray's arrays (vs[0], n rows) and calls
// add for each element e (nil for NULL) at 0-based position k; it
// returns the count of elements per row. A NULL array gives none.
func expandArray(vs []*engine.Vec, n int, out *engine.Vec, add func(k int, e *string) error) ([]int32, error) {
	counts := make([]int32, n)
	for i := 0; i < n; i++ {
		if vs[0].IsNull(i) {
			continue
		}
		els, err := parseTextArray(string(vs[0].S[i]))
		if err != nil {
			return nil, err
		}
		if out.N+len(els) > maxSetValues {
			return nil, errTooManyValues("_pg_expandarray")
		}
		for k, e := range els {
			if err := add(k, e); err != nil {
				return nil, err
			}
		}
		counts[i] = int32(len(els))
	}
	return counts, nil
}

// expandArrayElems is _pg_expandarray's x: the elements as smallints.
func expandArrayElems(vs []*engine.Vec, n int) (*engine.Vec, []int32, error) {
	out := engine.NewVec(engine.Int16, 0)
	counts, err := expandArray(vs, n, out, func(_ int, e *string) error {
		x := int64(0)
		if e == nil {
			if out.Null == nil {
				out.Null = make([]bool, out.N)
			}
		} else {
			var st engine.ParseStatus
			if x, st = engine.ParseInt([]byte(*e), engine.KindInt16); st != engine.ParseOK {
				return engine.InputError(engine.Int16, st, []byte(*e))
			}
		}
		if out.Null != nil {
			out.Null = append(out.Null, e == nil)
		}
		out.I = append(out.I, x)
		out.N++
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return out, counts, nil
}

// expandArrayPositions is _pg_expandarray's n: 1 to the array's length.
func expandArrayPositions(vs []*engine.Vec, n int) (*engine.Vec, []int32, error) {
	out := engine.NewVec(engine.Int32, 0)
	counts, err := expandArray(vs, n, out, func(k int, _ *string) error {
		out.I = append(out.I, int64(k+1))
		out.N++
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return out, counts, nil
}

// fieldSelect binds (x).f: a field of a set-returning call in a select
// list (_pg_expandarray's x or n), or of a column that holds a record,
// which gpusql keeps as one column per field named "x.f" (a bare
// _pg_expandarray(a) AS k in a derived table's select list gives k.x and
// k.n).
func (b *binder) fieldSelect(x, f ast.ExprNode) (engine.Expr, error) {
	field, err := stringArg(f)
	if err != nil {
		return nil, err
	}
	for {
		p, ok := x.(*ast.ParenthesesExpr)
		if !ok {
			break
		}
		x = p.Expr
	}
	if fc, ok := x.(*ast.FuncCallExpr); ok && isSetFunc(fc.FnName.L) {
		return b.setFuncCall(fc, field)
	}
	c, ok := x.(*ast.ColumnNameExpr)
	if !ok {
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

// expandRecordItem is the select-list items a bare
// _pg_expandarray(a) AS k stands for: (_pg_expandarray(a)).x AS "k.x"
// and (_pg_expandarray(a)).n AS "k.n", which (q.k).x reads from an
// enclosing query. ok is false for any other expression.
func expandRecordItem(n ast.ExprNode, name string) (nodes []ast.ExprNode, names []string, ok bool) {
	fc, isCall := n.(*ast.FuncCallExpr)
	if !isCall || fc.FnName.L != "_pg_expandarray" {
		return nil, nil, false
	}
	for _, f := range []string{"x", "n"} {
		nodes = append(nodes, &ast.FuncCallExpr{FnName: ast.NewCIStr("__gpusql_field"), Args: []ast.ExprNode{fc, ast.NewValueExpr(f, "", "")}})
		names = append(names, name+"."+f)
	}
	return nodes, names, true
}

// denySRF binds under a construct that takes no set-returning call.
func (b *binder) denySRF(what string) func() {
	if b.sets == nil {
		return func() {}
	}
	outer := b.sets
	b.sets = &srfScope{deny: what}
	return func() { b.sets = outer }
}

// finish builds the plan of a SELECT whose select list holds
// set-returning calls from p, bound with the calls as placeholders.
func (sc *srfScope) finish(b *binder, p *engine.Plan) *engine.Plan {
	low := &engine.Plan{Input: p.Input, Table: p.Table, Host: p.Host, Schema: p.Schema, Data: p.Data,
		Filter: p.Filter, Aggregate: p.Aggregate, GroupBy: p.GroupBy, Aggs: p.Aggs, Having: p.Having,
		GroupingSets: p.GroupingSets, Limit: -1}
	ps := &engine.ProjectSet{Input: low}
	for _, f := range sc.calls {
		g := f
		g.Args = make([]engine.Expr, len(f.Args))
		for k, a := range f.Args {
			if _, ok := a.(*engine.Const); ok {
				g.Args[k] = a // a constant needs no column
				continue
			}
			g.Args[k] = &engine.ColRef{Idx: len(low.Project), Name: a.String(), T: a.Type()}
			low.Project = append(low.Project, a)
			low.Names = append(low.Names, "")
		}
		ps.Funcs = append(ps.Funcs, g)
		ps.Names = append(ps.Names, f.Name)
	}
	nargs := len(low.Project)
	if p.Aggregate {
		for k, g := range p.GroupBy {
			low.Project = append(low.Project, &engine.ColRef{Idx: k, Name: g.String(), T: g.Type()})
		}
		for k, a := range p.Aggs {
			low.Project = append(low.Project, &engine.ColRef{Idx: len(p.GroupBy) + k, Name: a.String(), T: a.T})
		}
	} else {
		for i, c := range b.src.cols {
			low.Project = append(low.Project, &engine.ColRef{Idx: i, Name: c.Name, T: c.Type})
		}
	}
	for len(low.Names) < len(low.Project) {
		low.Names = append(low.Names, "")
	}
	low.Visible = len(low.Project)
	// the arguments need not pass: only the select list's columns do
	for i := nargs; i < low.Visible; i++ {
		ps.Pass = append(ps.Pass, i)
	}
	npass := len(ps.Pass)
	top := &engine.Plan{Input: ps, Table: p.Table, Host: p.Host, Distinct: p.Distinct, DistinctOn: p.DistinctOn,
		OrderBy: p.OrderBy, Offset: p.Offset, Limit: p.Limit, Visible: p.Visible, Names: p.Names}
	for _, e := range p.Project {
		top.Project = append(top.Project, mapCols(e, func(c *engine.ColRef) engine.Expr {
			r := *c
			if c.Idx >= srfPlaceholder {
				r.Idx = npass + c.Idx - srfPlaceholder
			}
			return &r
		}))
	}
	return top
}

// setFunc binds set-returning function name over bound arguments.
func (b *binder) setFunc(name string, args []engine.Expr) (engine.SetFunc, error) {
	f := engine.SetFunc{Name: name}
	var err error
	text := func(lo, hi int) error {
		if len(args) < lo || len(args) > hi {
			return noFunc(name, args)
		}
		for i, a := range args {
			if args[i], err = b.strArg(a, name); err != nil {
				return err
			}
		}
		return nil
	}
	switch name {
	case "generate_series":
		return b.seriesFunc(args)
	case "unnest":
		if len(args) != 1 {
			return f, unsupported("unnest with %d arguments is not supported by gpusql", len(args))
		}
		if err := text(1, 1); err != nil {
			return f, err
		}
		f.T, f.Fn = engine.Text, unnestSet
	case "string_to_table":
		if err := text(2, 3); err != nil {
			return f, err
		}
		f.T, f.Fn = engine.Text, stringToTable
	case "regexp_matches":
		if err := text(2, 3); err != nil {
			return f, err
		}
		f.T, f.Fn = engine.Text, regexpMatches
	case "regexp_split_to_table":
		if err := text(2, 3); err != nil {
			return f, err
		}
		f.T, f.Fn = engine.Text, regexpSplitTable
	case "_pg_expandarray":
		return f, unsupported("_pg_expandarray is supported by gpusql only in a select list")
	default:
		return f, noFunc(name, args)
	}
	f.Args = args
	return f, nil
}

// seriesFunc is generate_series over integers (any argument may be a
// column), or over time values (constants only: timeseries.go).
func (b *binder) seriesFunc(args []engine.Expr) (engine.SetFunc, error) {
	f := engine.SetFunc{Name: "generate_series"}
	if len(args) < 2 || len(args) > 3 {
		return f, noFunc("generate_series", args)
	}
	consts := make([]*engine.Const, 0, len(args))
	for _, a := range args {
		if c, ok := b.lowerConst(a).(*engine.Const); ok {
			consts = append(consts, c)
		}
	}
	if len(consts) == len(args) {
		v, ok, err := b.timeSeries(consts)
		if err != nil {
			return f, err
		}
		if ok {
			f.T = v.T
			f.Fn = func(_ []*engine.Vec, n int) (*engine.Vec, []int32, error) {
				if int64(v.N)*int64(n) > maxSetValues {
					return nil, nil, errTooManyValues("generate_series")
				}
				out := engine.NewVec(v.T, 0)
				counts := make([]int32, n)
				for i := range counts {
					counts[i] = int32(v.N)
					for k := 0; k < v.N; k++ {
						out.AppendRow(v, k)
					}
				}
				return out, counts, nil
			}
			return f, nil
		}
	}
	t := engine.Int32
	for i, a := range args {
		switch k := a.Type().Kind; k {
		case engine.KindUnknown, engine.KindInt16:
			c, err := castTo(a, engine.Int32)
			if err != nil {
				return f, err
			}
			args[i] = c
		case engine.KindInt64:
			t = engine.Int64
		case engine.KindInt32:
		case engine.KindDate, engine.KindTimestamp, engine.KindTimestampTZ, engine.KindInterval:
			return f, unsupported("generate_series over time values whose bounds are not constants is not supported by gpusql")
		case engine.KindNumeric, engine.KindFloat32, engine.KindFloat64:
			return f, unsupported("generate_series(%s) is not supported by gpusql (integers, dates and timestamps only)", a.Type())
		default:
			return f, noFunc("generate_series", args)
		}
	}
	f.T, f.Args = t, args
	f.Fn = func(vs []*engine.Vec, n int) (*engine.Vec, []int32, error) {
		out := engine.NewVec(t, 0)
		counts := make([]int32, n)
		for i := 0; i < n; i++ {
			if anyNull(vs, i) {
				continue
			}
			x, stop, step := vs[0].I[i], vs[1].I[i], int64(1)
			if len(vs) == 3 {
				if step = vs[2].I[i]; step == 0 {
					return nil, nil, engine.Errorf(engine.CodeInvalidParameterValue, "step size cannot equal zero")
				}
			}
			for step > 0 && x <= stop || step < 0 && x >= stop {
				if out.N >= maxSetValues {
					return nil, nil, errTooManyValues("generate_series")
				}
				out.I = append(out.I, x)
				out.N++
				counts[i]++
				if step > 0 && x > math.MaxInt64-step || step < 0 && x < math.MinInt64-step {
					break
				}
				x += step
			}
		}
		return out, counts, nil
	}
	return f, nil
}

func errTooManyValues(name string) error {
	return engine.Errorf(engine.CodeProgramLimitExceeded, "%s returns more than gpusql's limit of %d values in one query", name, maxSetValues)
}

// textSet collects a text-valued set function's values: one buffer, the
// values slices of it.
type textSet struct {
	buf    []byte
	out    *engine.Vec
	counts []int32
}

func newTextSet(n int) *textSet {
	return &textSet{out: engine.NewVec(engine.Text, 0), counts: make([]int32, n)}
}

// add appends the value buf[at:] for row i.
func (s *textSet) add(i, at int) error {
	if s.out.N >= maxSetValues {
		return errTooManyValues("a set-returning function")
	}
	s.out.S = append(s.out.S, s.buf[at:len(s.buf):len(s.buf)])
	if s.out.Null != nil {
		s.out.Null = append(s.out.Null, false)
	}
	s.out.N++
	s.counts[i]++
	return nil
}

// addNull appends a NULL for row i.
func (s *textSet) addNull(i int) {
	if s.out.Null == nil {
		s.out.Null = make([]bool, s.out.N)
	}
	s.out.S = append(s.out.S, nil)
	s.out.Null = append(s.out.Null, true)
	s.out.N++
	s.counts[i]++
}

func (s *textSet) done() (*engine.Vec, []int32, error) { return s.out, s.counts, nil }

// unnestSet is unnest(array) over arrays in their text form.
func unnestSet(vs []*engine.Vec, n int) (*engine.Vec, []int32, error) {
	s := newTextSet(n)
	for i := 0; i < n; i++ {
		if vs[0].IsNull(i) {
			continue
		}
		els, err := parseTextArray(string(vs[0].S[i]))
		if err != nil {
			return nil, nil, err
		}
		for _, e := range els {
			if e == nil {
				s.addNull(i)
				continue
			}
			at := len(s.buf)
			s.buf = append(s.buf, *e...)
			if err := s.add(i, at); err != nil {
				return nil, nil, err
			}
		}
	}
	return s.done()
}

// stringToTable is string_to_table(s, delimiter [, null_string]): the
// pieces string_to_array makes, a piece equal to null_string NULL.
func stringToTable(vs []*engine.Vec, n int) (*engine.Vec, []int32, error) {
	s := newTextSet(n)
	for i := 0; i < n; i++ {
		if vs[0].IsNull(i) {
			continue
		}
		src := vs[0].S[i]
		var nullStr []byte
		hasNull := len(vs) > 2 && !vs[2].IsNull(i)
		if hasNull {
			nullStr = vs[2].S[i]
		}
		piece := func(p []byte) error {
			if hasNull && bytes.Equal(p, nullStr) {
				s.addNull(i)
				return nil
			}
			at := len(s.buf)
			s.buf = append(s.buf, p...)
			return s.add(i, at)
		}
		var err error
		switch {
		case len(src) == 0:
		case vs[1].IsNull(i):
			for off := 0; off < len(src) && err == nil; {
				_, w := utf8.DecodeRune(src[off:])
				err = piece(src[off : off+w])
				off += w
			}
		case len(vs[1].S[i]) == 0:
			err = piece(src)
		default:
			sep := vs[1].S[i]
			for err == nil {
				k := bytes.Index(src, sep)
				if k < 0 {
					err = piece(src)
					break
				}
				err = piece(src[:k])
				src = src[k+len(sep):]
			}
		}
		if err != nil {
			return nil, nil, err
		}
	}
	return s.done()
}

// setRegex reads row i's pattern and flags for a regexp set function;
// ok is false for a row with a NULL argument, which gives no rows.
func setRegex(cache *regexCache, vs []*engine.Vec, i int) (re *eval.PGRegex, opts eval.RegexOpts, ok bool, err error) {
	if anyNull(vs, i) {
		return nil, opts, false, nil
	}
	var fl []byte
	if len(vs) > 2 {
		fl = vs[2].S[i]
	}
	re, opts, err = cache.get(vs[1].S[i], fl)
	return re, opts, err == nil, err
}

// regexpMatches is regexp_matches(src, pat [, flags]): a row per match
// (the first only without flag g), each the match's groups (or the whole
// match when the pattern has none) as a text[] in its text form.
func regexpMatches(vs []*engine.Vec, n int) (*engine.Vec, []int32, error) {
	s := newTextSet(n)
	var cache regexCache
	var ms [][]int
	for i := 0; i < n; i++ {
		re, opts, ok, err := setRegex(&cache, vs, i)
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			continue
		}
		limit := 1
		if opts.Global {
			limit = -1
		}
		src := vs[0].S[i]
		ms = re.Find(src, 0, limit, ms[:0])
		for _, m := range ms {
			at := len(s.buf)
			s.buf = appendMatchArray(s.buf, re, src, m)
			if err := s.add(i, at); err != nil {
				return nil, nil, err
			}
		}
	}
	return s.done()
}

// appendMatchArray appends the text[] of match m: its groups, NULL where
// a group took no part, or the whole match when there are none.
func appendMatchArray(buf []byte, re *eval.PGRegex, src []byte, m []int) []byte {
	buf = append(buf, '{')
	if re.NumGroups() == 0 {
		buf = appendArrayElem(buf, src[m[0]:m[1]])
	}
	for k := 1; k <= re.NumGroups(); k++ {
		if k > 1 {
			buf = append(buf, ',')
		}
		if m[2*k] < 0 {
			buf = append(buf, "NULL"...)
		} else {
			buf = appendArrayElem(buf, src[m[2*k]:m[2*k+1]])
		}
	}
	return append(buf, '}')
}

// splitMatches finds the matches that split src as PostgreSQL's
// regexp_split_to_table and regexp_split_to_array see them: every match,
// without the empty ones at the start or the end of the text or right
// after the previous match. Flag g is 22023 there.
func splitMatches(re *eval.PGRegex, opts eval.RegexOpts, fn string, src []byte, ms [][]int) ([][]int, error) {
	if opts.Global {
		return nil, engine.Errorf(engine.CodeInvalidParameterValue, "%s() does not support the \"global\" option", fn)
	}
	all := re.Find(src, 0, -1, ms[:0])
	kept := all[:0]
	prevEnd := 0
	for _, m := range all {
		if m[0] < len(src) && m[1] > prevEnd {
			kept = append(kept, m)
		}
		prevEnd = m[1]
	}
	return kept, nil
}

// regexpSplitTable is regexp_split_to_table(src, pat [, flags]): the
// text between the matches, before the first and after the last.
func regexpSplitTable(vs []*engine.Vec, n int) (*engine.Vec, []int32, error) {
	s := newTextSet(n)
	var cache regexCache
	var ms [][]int
	for i := 0; i < n; i++ {
		re, opts, ok, err := setRegex(&cache, vs, i)
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			continue
		}
		src := vs[0].S[i]
		if ms, err = splitMatches(re, opts, "regexp_split_to_table", src, ms); err != nil {
			return nil, nil, err
		}
		prev := 0
		for k := 0; k <= len(ms); k++ {
			end := len(src)
			if k < len(ms) {
				end = ms[k][0]
			}
			at := len(s.buf)
			s.buf = append(s.buf, src[prev:end]...)
			if err := s.add(i, at); err != nil {
				return nil, nil, err
			}
			if k < len(ms) {
				prev = ms[k][1]
			}
		}
	}
	return s.done()
}

// regexpSplitArray is regexp_split_to_array(src, pat [, flags]): the
// pieces regexp_split_to_table gives, as a text[] in its text form.
func regexpSplitArray(vs []*engine.Vec, n int) (*engine.Vec, error) {
	out := engine.NewVec(engine.Text, n)
	var cache regexCache
	var buf []byte
	var ms [][]int
	for i := 0; i < n; i++ {
		re, opts, ok, err := setRegex(&cache, vs, i)
		if err != nil {
			return nil, err
		}
		if !ok {
			out.SetNull(i)
			continue
		}
		src := vs[0].S[i]
		if ms, err = splitMatches(re, opts, "regexp_split_to_array", src, ms); err != nil {
			return nil, err
		}
		at := len(buf)
		buf = append(buf, '{')
		prev := 0
		for k := 0; k <= len(ms); k++ {
			end := len(src)
			if k < len(ms) {
				end = ms[k][0]
			}
			if k > 0 {
				buf = append(buf, ',')
			}
			buf = appendArrayElem(buf, src[prev:end])
			if k < len(ms) {
				prev = ms[k][1]
			}
		}
		buf = append(buf, '}')
		out.S[i] = buf[at:len(buf):len(buf)]
	}
	return out, nil
}

// constSet runs f over one row of its constant arguments: the rows of a
// set-returning function in FROM.
func constSet(f engine.SetFunc) (*engine.Vec, error) {
	vs := make([]*engine.Vec, len(f.Args))
	for i, a := range f.Args {
		c, ok := a.(*engine.Const)
		if !ok {
			return nil, unsupported("the arguments of %s in FROM must not read other FROM items in gpusql", f.Name)
		}
		vs[i] = engine.NewVec(c.T, 1)
		setSlot(vs[i], 0, c)
	}
	v, _, err := f.Fn(vs, 1)
	return v, err
}

// setFuncFinder reports whether an AST holds a set-returning call of
// its own query (not of a subquery).
type setFuncFinder struct{ found bool }

func (f *setFuncFinder) Enter(n ast.Node) (ast.Node, bool) {
	switch n := n.(type) {
	case *ast.SubqueryExpr:
		return n, true
	case *ast.FuncCallExpr:
		if isSetFunc(n.FnName.L) {
			f.found = true
			return n, true
		}
	}
	return n, false
}

func (f *setFuncFinder) Leave(n ast.Node) (ast.Node, bool) { return n, true }

func hasSetFunc(n ast.Node) bool {
	f := &setFuncFinder{}
	n.Accept(f)
	return f.found
}

// lateralSRF binds FROM l, f(args) where f is a set-returning function
// whose arguments read l's columns: a ProjectSet over l, each row of l
// repeated for each of its values (none when f gives none), as
// PostgreSQL runs a function in FROM that reads an earlier item. ok is
// false when right is not such a call; it then binds as any FROM item.
func (b *binder) lateralSRF(l source, right ast.ResultSetNode) (source, bool, error) {
	ts, ok := right.(*ast.TableSource)
	if !ok {
		return source{}, false, nil
	}
	sel, ok := ts.Source.(*ast.SelectStmt)
	if !ok {
		return source{}, false, nil
	}
	fc := srfCall(sel)
	if fc == nil {
		return source{}, false, nil
	}
	name, err := stringArg(fc.Args[0])
	if err != nil || !isSetFunc(name) {
		return source{}, false, nil
	}
	lb := &binder{s: b.s, src: l, params: b.params, st: b.st, outer: b.outer}
	args, err := lb.exprs(fc.Args[1:]...)
	if err != nil {
		return source{}, false, nil // not over l: bound as an item of its own
	}
	reads := false
	for _, a := range args {
		reads = reads || hasColRef(a)
	}
	if !reads {
		return source{}, false, nil
	}
	f, err := lb.setFunc(name, args)
	if err != nil {
		return source{}, true, err
	}
	alias, col := ts.AsName.O, sel.Fields.Fields[0].AsName.O
	if alias == "" {
		alias = name
	}
	if col == "" {
		col = alias
	}
	nl := len(l.cols)
	low := l.plan()
	ps := &engine.ProjectSet{Input: low, Names: []string{col}}
	for i, c := range l.cols {
		low.Project = append(low.Project, &engine.ColRef{Idx: i, Name: c.Name, T: c.Type})
		low.Names = append(low.Names, c.Name)
		ps.Pass = append(ps.Pass, i)
	}
	g := f
	g.Args = make([]engine.Expr, len(f.Args))
	for k, a := range f.Args {
		if _, ok := a.(*engine.Const); ok {
			g.Args[k] = a
			continue
		}
		g.Args[k] = &engine.ColRef{Idx: len(low.Project), Name: a.String(), T: a.Type()}
		low.Project = append(low.Project, a)
		low.Names = append(low.Names, "")
	}
	low.Visible = len(low.Project)
	ps.Funcs = []engine.SetFunc{g}
	src := source{name: l.name + ", " + name, present: true, host: l.host, rel: ps}
	src.cols = append(append([]engine.ColumnDef(nil), l.cols...), engine.ColumnDef{Name: col, Type: f.T})
	src.rels = append(append([]rel(nil), l.scope()...), rel{alias: alias, start: nl, n: 1})
	for _, r := range src.rels[:len(src.rels)-1] {
		if r.alias == alias {
			return source{}, true, engine.Errorf(engine.CodeDuplicateAlias, "table name %q specified more than once", alias)
		}
	}
	return src, true, nil
}
