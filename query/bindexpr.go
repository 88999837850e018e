package query

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/eval"
	"github.com/gpusql/gpusql/query/parse"
)

// node binds one AST node; its children go back through b.expr so that
// aggregate scope applies at every level. One type switch; the default
// names what is not supported.
func (b *binder) node(n ast.ExprNode) (engine.Expr, error) {
	switch n := n.(type) {
	case *ast.ColumnNameExpr:
		return b.columnRef(n.Name)
	case ast.ValueExpr:
		return literal(n)
	case *ast.ParenthesesExpr:
		return b.expr(n.Expr)
	case *ast.BinaryOperationExpr:
		return b.binary(n)
	case *ast.UnaryOperationExpr:
		x, err := b.expr(n.V)
		if err != nil {
			return nil, err
		}
		switch n.Op {
		case opcode.Plus:
			return x, nil
		case opcode.Minus:
			if c, ok := negatedMinLiteral(n.V); ok {
				return c, nil
			}
			return b.negate(x)
		case opcode.Not, opcode.Not2:
			return b.not(x)
		}
		return nil, unsupported("operator %s is not supported", n.Op)
	case *ast.IsNullExpr:
		x, err := b.expr(n.Expr)
		if err != nil {
			return nil, err
		}
		op := engine.OpIsNull
		if n.Not {
			op = engine.OpIsNotNull
		}
		return fold(&engine.Call{Op: op, Args: []engine.Expr{x}, T: engine.Bool})
	case *ast.IsTruthExpr:
		x, err := b.expr(n.Expr)
		if err != nil {
			return nil, err
		}
		if x, err = b.asBool(x, "IS TRUE"); err != nil {
			return nil, err
		}
		op := engine.OpIsTrue
		if n.True == 0 {
			op = engine.OpIsFalse
		}
		return b.predicateCall(&engine.Call{Op: op, Args: []engine.Expr{x}, T: engine.Bool}, n.Not)
	case *ast.BetweenExpr:
		xs, err := b.exprs(n.Expr, n.Left, n.Right)
		if err != nil {
			return nil, err
		}
		ge, err := b.compare(opcode.GE, xs[0], xs[1])
		if err != nil {
			return nil, err
		}
		le, err := b.compare(opcode.LE, xs[0], xs[2])
		if err != nil {
			return nil, err
		}
		return b.predicateCall(&engine.Call{Op: engine.OpAnd, Args: []engine.Expr{ge, le}, T: engine.Bool}, n.Not)
	case *ast.PatternInExpr:
		if n.Sel != nil {
			return b.inSubquery(n)
		}
		args, err := b.exprs(append([]ast.ExprNode{n.Expr}, n.List...)...)
		if err != nil {
			return nil, err
		}
		if args, _, err = coerceAll("IN", args); err != nil {
			return nil, err
		}
		return b.predicateCall(&engine.Call{Op: engine.OpIn, Args: args, T: engine.Bool}, n.Not)
	case *ast.PatternLikeOrIlikeExpr:
		xs, err := b.exprs(n.Expr, n.Pattern)
		if err != nil {
			return nil, err
		}
		x, pat := xs[0], xs[1]
		if x, err = b.asText(x, "LIKE"); err != nil {
			return nil, err
		}
		if t := x.Type(); t.Kind == engine.KindChar && t.Len > 0 {
			x = &engine.Call{Op: engine.OpPadChar, Args: []engine.Expr{x}, T: engine.Text}
		}
		if pat, err = b.asText(pat, "LIKE"); err != nil {
			return nil, err
		}
		esc := ""
		if n.Escape != 0 {
			esc = string([]byte{n.Escape})
		}
		op := engine.OpLike
		if !n.IsLike {
			op = engine.OpILike
		}
		return b.predicateCall(&engine.Call{Op: op, Args: []engine.Expr{x, pat, &engine.Const{T: engine.Text, S: esc}}, T: engine.Bool}, n.Not)
	case *ast.CaseExpr:
		return b.caseExpr(n)
	case *ast.FuncCallExpr:
		return b.funcCall(n)
	case *ast.AggregateFuncExpr:
		return nil, engine.Errorf(engine.CodeGroupingError, "aggregate functions are not allowed here")
	case *ast.SubqueryExpr:
		return b.scalarSubquery(n)
	case *ast.ExistsSubqueryExpr:
		return b.existsSubquery(n)
	case *ast.CompareSubqueryExpr:
		return b.compareSubquery(n)
	case *ast.WindowFuncExpr:
		return b.windowCall(n)
	case *ast.FuncCastExpr:
		x, err := b.expr(n.Expr)
		if err != nil {
			return nil, err
		}
		t, err := parse.ParseType(n.Tp.String())
		if err != nil {
			return nil, err
		}
		return castTo(x, t)
	case *ast.DefaultExpr:
		return nil, unsupported("DEFAULT is not supported here")
	}
	return nil, unsupported("expression %T is not supported", n)
}

// exprs binds several nodes in order.
func (b *binder) exprs(nodes ...ast.ExprNode) ([]engine.Expr, error) {
	out := make([]engine.Expr, len(nodes))
	for i, n := range nodes {
		e, err := b.expr(n)
		if err != nil {
			return nil, err
		}
		out[i] = e
	}
	return out, nil
}

// predicateCall folds a boolean call and negates it for the NOT form
// (x NOT BETWEEN ..., NOT IN, NOT LIKE, IS NOT TRUE).
func (b *binder) predicateCall(c *engine.Call, not bool) (engine.Expr, error) {
	e, err := fold(c)
	if err != nil || !not {
		return e, err
	}
	return b.not(e)
}

// columnRef resolves a column name in the query's FROM items and then in
// the enclosing queries' (a correlated reference).
func (b *binder) columnRef(c *ast.ColumnName) (engine.Expr, error) {
	// A bare user, current_user, ... arrives as a function call (the
	// rewrite layer makes it one); a name here is a column, even "user".
	e, err := b.localColumn(c)
	if err == nil || b.outer == nil || !notFound(err) {
		return e, err
	}
	oe, oerr := b.outer.b.columnRef(c)
	if oerr != nil {
		if notFound(oerr) {
			return nil, err
		}
		return nil, oerr
	}
	if cr, ok := oe.(*engine.ColRef); ok {
		return b.outer.use(cr), nil
	}
	if or, ok := oe.(*outerRef); ok {
		// A column from two levels out: the subquery in between cannot
		// become a join, and runs per row, binding this one again with
		// the value; meanwhile it types as a NULL.
		or.scope.deep = true
		return &engine.Const{T: or.C.T, Null: true}, nil
	}
	return oe, nil // a value from further out
}

func notFound(err error) bool {
	e, ok := err.(*engine.Error)
	return ok && (e.Code == engine.CodeUndefinedColumn || e.Code == engine.CodeUndefinedTable)
}

// localColumn resolves a column name in the query's own FROM items, as
// PostgreSQL: a qualifier names a FROM item; an unqualified name must
// match exactly one column.
func (b *binder) localColumn(c *ast.ColumnName) (engine.Expr, error) {
	name := c.Name.O
	rels := b.src.scope()
	if !b.src.present {
		rels = nil
	}
	if q := c.Table.O; q != "" {
		for _, r := range rels {
			if r.alias != q {
				continue
			}
			found := -1
			for i := r.start; i < r.start+r.n; i++ {
				if b.src.cols[i].Name == name {
					if found >= 0 { // a derived table with two columns of the name
						return nil, engine.Errorf(engine.CodeAmbiguousColumn, "column reference %q is ambiguous", name)
					}
					found = i
				}
			}
			if found >= 0 {
				return &engine.ColRef{Idx: found, Name: name, T: b.src.cols[found].Type}, nil
			}
			if name == "tableoid" && r.oid != 0 {
				return tableOID(r), nil
			}
			return nil, engine.Errorf(engine.CodeUndefinedColumn, "column %s.%s does not exist", q, name)
		}
		return nil, engine.Errorf(engine.CodeUndefinedTable, "missing FROM-clause entry for table %q", q)
	}
	found := -1
	for _, r := range rels {
		for i := r.start; i < r.start+r.n; i++ {
			if b.src.cols[i].Name != name || r.hidden[i] {
				continue
			}
			if found >= 0 {
				return nil, engine.Errorf(engine.CodeAmbiguousColumn, "column reference %q is ambiguous", name)
			}
			found = i
		}
	}
	if found < 0 && name == "tableoid" {
		var with []rel
		for _, r := range rels {
			if r.oid != 0 {
				with = append(with, r)
			}
		}
		switch len(with) {
		case 1:
			return tableOID(with[0]), nil
		case 0:
		default:
			return nil, engine.Errorf(engine.CodeAmbiguousColumn, "column reference %q is ambiguous", name)
		}
	}
	if found < 0 {
		return nil, engine.Errorf(engine.CodeUndefinedColumn, "column %q does not exist", name)
	}
	return &engine.ColRef{Idx: found, Name: name, T: b.src.cols[found].Type}, nil
}

// tableOID is the system column tableoid of a FROM item that is a table
// (a catalog relation or a user table): the relation's OID, the same in
// every row. Other system columns (ctid, xmin, ...) do not exist.
func tableOID(r rel) engine.Expr {
	return &engine.Const{T: engine.Int64, I: int64(r.oid)}
}

func (b *binder) asBool(x engine.Expr, what string) (engine.Expr, error) {
	if isUnknown(x) {
		return castTo(x, engine.Bool)
	}
	if x.Type().Kind != engine.KindBool {
		return nil, engine.Errorf(engine.CodeDatatypeMismatch, "argument of %s must be type boolean, not type %s", what, x.Type())
	}
	return x, nil
}

func (b *binder) asText(x engine.Expr, what string) (engine.Expr, error) {
	if isUnknown(x) {
		return castTo(x, engine.Text)
	}
	if !x.Type().IsString() {
		return nil, engine.Errorf(engine.CodeUndefinedFunction, "operator does not exist: %s ~~ text", x.Type())
	}
	return x, nil
}

func (b *binder) asInt(x engine.Expr, fn string) (engine.Expr, error) {
	t := x.Type()
	if isUnknown(x) || t.Kind == engine.KindInt16 || t.Kind == engine.KindInt64 {
		return castTo(x, engine.Int32)
	}
	if t.Kind != engine.KindInt32 {
		return nil, engine.Errorf(engine.CodeUndefinedFunction, "function %s does not exist", fn).WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	}
	return x, nil
}

func (b *binder) not(x engine.Expr) (engine.Expr, error) {
	x, err := b.asBool(x, "NOT")
	if err != nil {
		return nil, err
	}
	return fold(&engine.Call{Op: engine.OpNot, Args: []engine.Expr{x}, T: engine.Bool})
}

// negatedMinLiteral is -2147483648 as an integer and -9223372036854775808
// as a bigint, as PostgreSQL's grammar folds the minus into the literal:
// negating the literal after typing it would make them bigint and
// numeric, one size too wide.
func negatedMinLiteral(n ast.ExprNode) (engine.Expr, bool) {
	n = unparen(n)
	v, ok := n.(ast.ValueExpr)
	if !ok {
		return nil, false
	}
	var u uint64
	switch x := v.GetValue().(type) {
	case int64:
		if x < 0 {
			return nil, false
		}
		u = uint64(x)
	case uint64:
		u = x
	default:
		return nil, false
	}
	switch u {
	case 1 << 31:
		return &engine.Const{T: engine.Int32, I: math.MinInt32}, true
	case 1 << 63:
		return &engine.Const{T: engine.Int64, I: math.MinInt64}, true
	}
	return nil, false
}

func (b *binder) negate(x engine.Expr) (engine.Expr, error) {
	t := x.Type()
	switch {
	case isUnknown(x):
		f, err := castTo(x, engine.Float64)
		if err != nil {
			return nil, err
		}
		return b.negate(f)
	case t.IsNumber():
		rt := t
		if t.Kind == engine.KindNumeric {
			rt = engine.Numeric
		}
		return fold(&engine.Call{Op: engine.OpNeg, Args: []engine.Expr{x}, T: rt})
	case t.Kind == engine.KindInterval:
		return fold(&engine.Call{Op: engine.OpIntvNeg, Args: []engine.Expr{x}, T: engine.Interval})
	}
	return nil, engine.Errorf(engine.CodeUndefinedFunction, "operator does not exist: - %s", t)
}

func (b *binder) binary(n *ast.BinaryOperationExpr) (engine.Expr, error) {
	if e, ok, err := b.regprocCompare(n); ok || err != nil {
		return e, err
	}
	l, err := b.expr(n.L)
	if err != nil {
		return nil, err
	}
	r, err := b.expr(n.R)
	if err != nil {
		return nil, err
	}
	switch n.Op {
	case opcode.Plus, opcode.Minus, opcode.Mul, opcode.Div, opcode.Mod, opcode.IntDiv:
		return b.arith(n.Op, l, r)
	case opcode.EQ, opcode.NE, opcode.LT, opcode.LE, opcode.GT, opcode.GE:
		return b.compare(n.Op, l, r)
	case opcode.NullEQ:
		e, err := b.distinct(l, r)
		if err != nil {
			return nil, err
		}
		return b.not(e)
	case opcode.LogicAnd, opcode.LogicOr:
		if l, err = b.asBool(l, opName(n.Op)); err != nil {
			return nil, err
		}
		if r, err = b.asBool(r, opName(n.Op)); err != nil {
			return nil, err
		}
		op := engine.OpAnd
		if n.Op == opcode.LogicOr {
			op = engine.OpOr
		}
		return fold(&engine.Call{Op: op, Args: []engine.Expr{l, r}, T: engine.Bool})
	case opcode.And, opcode.Or, opcode.LeftShift, opcode.RightShift:
		return bitwise(n.Op, l, r)
	}
	return nil, unsupported("operator %s is not supported", opName(n.Op))
}

// bitwise binds the integer operators &, |, << and >> (pgJDBC's
// getIndexInfo reads indoption[i] & 1) as a host function: catalog
// queries use them, over few rows. An untyped operand takes the other's
// type; the result is the wider operand type (the shifts: the left's).
func bitwise(op opcode.Op, l, r engine.Expr) (engine.Expr, error) {
	sym := map[opcode.Op]string{opcode.And: "&", opcode.Or: "|", opcode.LeftShift: "<<", opcode.RightShift: ">>"}[op]
	shift := op == opcode.LeftShift || op == opcode.RightShift
	lt, rt := l.Type(), r.Type()
	switch {
	case isUnknown(l) && isUnknown(r):
		lt, rt = engine.Int32, engine.Int32
	case isUnknown(l):
		lt = rt
	case isUnknown(r):
		rt = lt
		if shift {
			rt = engine.Int32
		}
	}
	if !lt.IsInteger() || !rt.IsInteger() {
		return nil, engine.Errorf(engine.CodeUndefinedFunction, "operator does not exist: %s %s %s", pgTypeName(lt), sym, pgTypeName(rt)).
			WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
	}
	t := lt
	if !shift && rt.StorageWidth() > lt.StorageWidth() {
		t = rt
	}
	var err error
	if l, err = castTo(l, t); err != nil {
		return nil, err
	}
	if r, err = castTo(r, engine.Type{Kind: rt.Kind}); err != nil {
		return nil, err
	}
	apply := func(a, b int64) int64 {
		switch op {
		case opcode.And:
			return a & b
		case opcode.Or:
			return a | b
		case opcode.LeftShift:
			return a << uint64(b&63)
		}
		return a >> uint64(b&63)
	}
	wrap := func(x int64) int64 { // to the result type's width, as PostgreSQL's shifts do
		switch t.Kind {
		case engine.KindInt16:
			return int64(int16(x))
		case engine.KindInt32:
			return int64(int32(x))
		}
		return x
	}
	lc, lok := l.(*engine.Const)
	rc, rok := r.(*engine.Const)
	if lok && rok {
		if lc.Null || rc.Null {
			return &engine.Const{T: t, Null: true}, nil
		}
		return &engine.Const{T: t, I: wrap(apply(lc.I, rc.I))}, nil
	}
	return &engine.HostFunc{Name: sym, Args: []engine.Expr{l, r}, T: t, Parallel: true, Fn: func(vs []*engine.Vec, n int) (*engine.Vec, error) {
		out := engine.NewVec(t, n)
		for i := 0; i < n; i++ {
			if vs[0].IsNull(i) || vs[1].IsNull(i) {
				out.SetNull(i)
				continue
			}
			out.I[i] = wrap(apply(vs[0].I[i], vs[1].I[i]))
		}
		return out, nil
	}}, nil
}

func opName(op opcode.Op) string {
	switch op {
	case opcode.Plus:
		return "+"
	case opcode.Minus:
		return "-"
	case opcode.Mul:
		return "*"
	case opcode.Div:
		return "/"
	case opcode.Mod:
		return "%"
	case opcode.EQ:
		return "="
	case opcode.NE:
		return "<>"
	case opcode.LT:
		return "<"
	case opcode.LE:
		return "<="
	case opcode.GT:
		return ">"
	case opcode.GE:
		return ">="
	case opcode.LogicAnd:
		return "AND"
	case opcode.LogicOr:
		return "OR"
	}
	return op.String()
}

func noOperator(op opcode.Op, l, r engine.Type) error {
	return engine.Errorf(engine.CodeUndefinedFunction, "operator does not exist: %s %s %s", l, opName(op), r).
		WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
}

// operand casts x to t for an operator, skipping representation-neutral
// casts (numeric(p,s) → numeric, varchar(n) → text).
func operand(x engine.Expr, t engine.Type) (engine.Expr, error) {
	xt := x.Type()
	if xt.Kind == t.Kind && !isUnknown(x) {
		if t.Kind == engine.KindNumeric && t.Prec == 0 {
			return x, nil
		}
		if t.IsString() && t.Len == 0 {
			return x, nil
		}
		if xt == t {
			return x, nil
		}
	}
	if xt.IsString() && t.Kind == engine.KindText && !isUnknown(x) {
		return x, nil
	}
	if xt.Kind == engine.KindChar && t.Kind == engine.KindChar && t.Len == 0 {
		return x, nil // char(n) values are held without their padding already
	}
	return castTo(x, t)
}

func (b *binder) arith(op opcode.Op, l, r engine.Expr) (engine.Expr, error) {
	lt, rt := l.Type(), r.Type()
	// Dates, timestamps and intervals.
	if isDatetime(lt) || isDatetime(rt) {
		return b.datetimeArith(op, l, r)
	}
	switch {
	case isUnknown(l) && isUnknown(r):
		return nil, engine.Errorf(engine.CodeAmbiguousFunction, "operator is not unique: unknown %s unknown", opName(op))
	case isUnknown(l):
		lt = unifyTarget(rt)
	case isUnknown(r):
		rt = unifyTarget(lt)
	}
	if !lt.IsNumber() || !rt.IsNumber() {
		return nil, noOperator(op, lt, rt)
	}
	t := arithType(lt, rt)
	var eop engine.Op
	switch op {
	case opcode.Plus:
		eop = engine.OpAdd
	case opcode.Minus:
		eop = engine.OpSub
	case opcode.Mul:
		eop = engine.OpMul
	case opcode.Div:
		eop = engine.OpDiv
	case opcode.Mod:
		if t.IsFloat() {
			return nil, noOperator(op, lt, rt)
		}
		eop = engine.OpMod
	default:
		return nil, noOperator(op, lt, rt)
	}
	var err error
	if l, err = operand(l, t); err != nil {
		return nil, err
	}
	if r, err = operand(r, t); err != nil {
		return nil, err
	}
	return fold(&engine.Call{Op: eop, Args: []engine.Expr{l, r}, T: t})
}

func isDatetime(t engine.Type) bool {
	return t.Kind == engine.KindDate || t.Kind == engine.KindTimestamp || t.Kind == engine.KindInterval ||
		t.Kind == engine.KindTimestampTZ || t.Kind == engine.KindTime
}

// datetimeArith resolves date/timestamp/interval arithmetic.
func (b *binder) datetimeArith(op opcode.Op, l, r engine.Expr) (engine.Expr, error) {
	// An unknown literal next to a date is an integer if it reads as one,
	// else an interval; next to a timestamp it is an interval.
	resolve := func(x engine.Expr, other engine.Type) (engine.Expr, error) {
		if !isUnknown(x) {
			return x, nil
		}
		if op == opcode.Minus && other.Kind != engine.KindInterval {
			// as PostgreSQL: an unknown first takes the other side's
			// type, and date - date, timestamp - timestamp exist
			return castTo(x, engine.Type{Kind: other.Kind})
		}
		if other.Kind == engine.KindTime || other.Kind == engine.KindTimestampTZ {
			return castTo(x, engine.Interval)
		}
		c, ok := x.(*engine.Const)
		if ok && other.Kind == engine.KindDate && !c.Null {
			if _, err := strconv.Atoi(strings.TrimSpace(c.S)); err == nil {
				return castTo(x, engine.Int32)
			}
		}
		if other.Kind == engine.KindInterval {
			return castTo(x, engine.Timestamp)
		}
		return castTo(x, engine.Interval)
	}
	var err error
	if l, err = resolve(l, r.Type()); err != nil {
		return nil, err
	}
	if r, err = resolve(r, l.Type()); err != nil {
		return nil, err
	}
	lt, rt := l.Type(), r.Type()
	isInt := func(t engine.Type) bool { return t.Kind == engine.KindInt32 || t.Kind == engine.KindInt16 }
	mk := func(o engine.Op, t engine.Type, a, c engine.Expr) (engine.Expr, error) {
		return fold(&engine.Call{Op: o, Args: []engine.Expr{a, c}, T: t})
	}
	toTs := func(x engine.Expr) (engine.Expr, error) { return castTo(x, engine.Timestamp) }
	if e, ok, err := b.timeArith(op, l, r); ok || err != nil {
		return e, err // timefunc.go: timestamptz and time
	}
	switch {
	case op == opcode.Plus && lt.Kind == engine.KindDate && isInt(rt):
		r, _ = castTo(r, engine.Int32)
		return mk(engine.OpDateAddInt, engine.Date, l, r)
	case op == opcode.Plus && isInt(lt) && rt.Kind == engine.KindDate:
		l, _ = castTo(l, engine.Int32)
		return mk(engine.OpDateAddInt, engine.Date, r, l)
	case op == opcode.Minus && lt.Kind == engine.KindDate && isInt(rt):
		r, _ = castTo(r, engine.Int32)
		return mk(engine.OpDateSubInt, engine.Date, l, r)
	case op == opcode.Minus && lt.Kind == engine.KindDate && rt.Kind == engine.KindDate:
		return mk(engine.OpDateDiff, engine.Int32, l, r)
	case (op == opcode.Plus || op == opcode.Minus) && (lt.Kind == engine.KindDate || lt.Kind == engine.KindTimestamp) && rt.Kind == engine.KindInterval:
		if l, err = toTs(l); err != nil {
			return nil, err
		}
		o := engine.OpTsAddIntv
		if op == opcode.Minus {
			o = engine.OpTsSubIntv
		}
		return mk(o, engine.Timestamp, l, r)
	case op == opcode.Plus && lt.Kind == engine.KindInterval && (rt.Kind == engine.KindDate || rt.Kind == engine.KindTimestamp):
		if r, err = toTs(r); err != nil {
			return nil, err
		}
		return mk(engine.OpTsAddIntv, engine.Timestamp, r, l)
	case op == opcode.Minus && (lt.Kind == engine.KindTimestamp || lt.Kind == engine.KindDate) && (rt.Kind == engine.KindTimestamp || rt.Kind == engine.KindDate):
		if l, err = toTs(l); err != nil {
			return nil, err
		}
		if r, err = toTs(r); err != nil {
			return nil, err
		}
		return mk(engine.OpTsDiff, engine.Interval, l, r)
	case lt.Kind == engine.KindInterval && rt.Kind == engine.KindInterval && (op == opcode.Plus || op == opcode.Minus):
		o := engine.OpIntvAdd
		if op == opcode.Minus {
			o = engine.OpIntvSub
		}
		return mk(o, engine.Interval, l, r)
	}
	return nil, noOperator(op, lt, rt)
}

// compareOp is compare for an operator spelled as in SQL.
func (b *binder) compareOp(op string, l, r engine.Expr) (engine.Expr, error) {
	codes := map[string]opcode.Op{"=": opcode.EQ, "<>": opcode.NE, "!=": opcode.NE, "<": opcode.LT, "<=": opcode.LE, ">": opcode.GT, ">=": opcode.GE}
	return b.compare(codes[op], l, r)
}

func (b *binder) compare(op opcode.Op, l, r engine.Expr) (engine.Expr, error) {
	l, r, err := b.regprocOperands(l, r)
	if err != nil {
		return nil, err
	}
	t, ok := commonType(l.Type(), r.Type())
	if !ok {
		return nil, noOperator(op, l.Type(), r.Type())
	}
	if l, err = operand(l, t); err != nil {
		return nil, err
	}
	if r, err = operand(r, t); err != nil {
		return nil, err
	}
	var eop engine.Op
	switch op {
	case opcode.EQ:
		eop = engine.OpEq
	case opcode.NE:
		eop = engine.OpNe
	case opcode.LT:
		eop = engine.OpLt
	case opcode.LE:
		eop = engine.OpLe
	case opcode.GT:
		eop = engine.OpGt
	case opcode.GE:
		eop = engine.OpGe
	}
	return fold(&engine.Call{Op: eop, Args: []engine.Expr{l, r}, T: engine.Bool})
}

func (b *binder) distinct(l, r engine.Expr) (engine.Expr, error) {
	l, r, err := b.regprocOperands(l, r)
	if err != nil {
		return nil, err
	}
	t, ok := commonType(l.Type(), r.Type())
	if !ok {
		return nil, engine.Errorf(engine.CodeUndefinedFunction, "operator does not exist: %s = %s", l.Type(), r.Type())
	}
	if l, err = operand(l, t); err != nil {
		return nil, err
	}
	if r, err = operand(r, t); err != nil {
		return nil, err
	}
	return fold(&engine.Call{Op: engine.OpIsDistinct, Args: []engine.Expr{l, r}, T: engine.Bool})
}

func (b *binder) caseExpr(n *ast.CaseExpr) (engine.Expr, error) {
	defer b.denySRF("CASE")()
	var subject engine.Expr
	if n.Value != nil {
		v, err := b.expr(n.Value)
		if err != nil {
			return nil, err
		}
		subject = v
	}
	c := &engine.Case{}
	results := make([]engine.Expr, 0, len(n.WhenClauses)+1)
	for _, w := range n.WhenClauses {
		cond, err := b.expr(w.Expr)
		if err != nil {
			return nil, err
		}
		if subject != nil {
			if cond, err = b.compare(opcode.EQ, subject, cond); err != nil {
				return nil, err
			}
		} else if cond, err = b.asBool(cond, "CASE/WHEN"); err != nil {
			return nil, err
		}
		res, err := b.expr(w.Result)
		if err != nil {
			return nil, err
		}
		c.Conds = append(c.Conds, cond)
		results = append(results, res)
	}
	var els engine.Expr = &engine.Const{T: engine.Unknown, Null: true}
	if n.ElseClause != nil {
		e, err := b.expr(n.ElseClause)
		if err != nil {
			return nil, err
		}
		els = e
	}
	// PostgreSQL resolves the type with the ELSE result first.
	results = append([]engine.Expr{els}, results...)
	results, t, err := coerceAll("CASE", results)
	if err != nil {
		return nil, err
	}
	c.Else = results[0]
	c.Results = results[1:]
	c.T = t
	return c, nil
}

func (b *binder) funcCall(n *ast.FuncCallExpr) (engine.Expr, error) {
	if d, ok := trimDirection(n); ok {
		// trim(BOTH|LEADING|TRAILING [chars] FROM s): btrim, ltrim, rtrim
		fn := map[ast.TrimDirectionType]string{ast.TrimLeading: "ltrim", ast.TrimTrailing: "rtrim"}[d]
		if fn == "" {
			fn = "btrim"
		}
		args := []ast.ExprNode{n.Args[0]}
		if n.Args[1] != nil {
			args = append(args, n.Args[1])
		}
		n = &ast.FuncCallExpr{FnName: ast.NewCIStr(fn), Args: args}
	}
	name := n.FnName.L
	args := make([]engine.Expr, 0, len(n.Args))
	bindArgs := func(from int) error {
		for _, a := range n.Args[from:] {
			e, err := b.expr(a)
			if err != nil {
				return err
			}
			args = append(args, e)
		}
		return nil
	}
	want := func(lo, hi int) error {
		if len(n.Args) < lo || len(n.Args) > hi {
			return engine.Errorf(engine.CodeUndefinedFunction, "function %s with %d arguments does not exist", name, len(n.Args))
		}
		return nil
	}
	if isSetFunc(name) {
		return b.setFuncCall(n, "") // srf.go
	}
	if sig, ok := btreeCmpFuncs[name]; ok {
		if err := want(2, 2); err != nil {
			return nil, err
		}
		if err := bindArgs(0); err != nil {
			return nil, err
		}
		return b.btreeCmp(name, sig, args) // btcmp.go
	}
	if f, ok := strCmpFuncs[name]; ok {
		if err := bindArgs(0); err != nil {
			return nil, err
		}
		return b.bindStrCmp(name, f, n.Args, args) // btcmptext.go
	}
	if f, ok := pgHashFuncs[name]; ok {
		if err := bindArgs(0); err != nil {
			return nil, err
		}
		return b.bindPgHash(name, f, args) // pghashfn.go
	}
	switch name {
	case "__gpusql_cast":
		if err := want(2, 2); err != nil {
			return nil, err
		}
		tn, err := stringArg(n.Args[1])
		if err != nil {
			return nil, err
		}
		if strings.HasSuffix(tn, "[]") {
			tn = "text" // an array of integers, in its text form (intArrayCast)
		}
		t, err := parse.ParseType(tn)
		if err != nil {
			return nil, err
		}
		if t.IsString() {
			// 'pg_class'::regclass::text is the name, not the OID's digits
			if r, ok, err := b.regText(n.Args[0]); ok {
				if err != nil {
					return nil, err
				}
				return castTo(r, t)
			}
		}
		x, err := b.expr(n.Args[0])
		if err != nil {
			return nil, err
		}
		if t.IsInteger() && b.catalogType(x) == pgOIDRegproc {
			// oprcode::oid: the function's OID, not its name's digits
			if x, err = regprocOID(x); err != nil {
				return nil, err
			}
		}
		return castTo(x, t)
	case "__gpusql_is_distinct":
		if err := want(2, 2); err != nil {
			return nil, err
		}
		if err := bindArgs(0); err != nil {
			return nil, err
		}
		return b.distinct(args[0], args[1])
	case "__gpusql_extract":
		if err := want(2, 2); err != nil {
			return nil, err
		}
		field, err := stringArg(n.Args[0])
		if err != nil {
			return nil, err
		}
		field = strings.ToLower(field)
		x, err := b.expr(n.Args[1])
		if err != nil {
			return nil, err
		}
		return b.extractCall(field, x, false) // timefunc.go
	case "__gpusql_nulls_first", "__gpusql_nulls_last":
		return nil, engine.Errorf(engine.CodeSyntaxError, "NULLS FIRST/LAST is only allowed in ORDER BY")
	case "__gpusql_regex":
		return b.regexCall(n)
	case "__gpusql_regcast":
		return b.regCast(n)
	case "__gpusql_subscript", "__gpusql_array_has":
		if err := want(2, 2); err != nil {
			return nil, err
		}
		if err := bindArgs(0); err != nil {
			return nil, err
		}
		return b.arrayOp(name, args[0], args[1])
	case "__gpusql_field":
		if err := want(2, 2); err != nil {
			return nil, err
		}
		return b.fieldSelect(n.Args[0], n.Args[1])
	case "__gpusql_array_sub":
		if err := want(1, 1); err != nil {
			return nil, err
		}
		return b.arraySubquery(n.Args[0])
	case "__gpusql_param":
		k, err := paramNumber(n)
		if err != nil {
			return nil, err
		}
		return b.params.param(k)
	case "length", "char_length", "character_length":
		if err := want(1, 1); err != nil {
			return nil, err
		}
		if err := bindArgs(0); err != nil {
			return nil, err
		}
		x, err := b.strArg(args[0], name)
		if err != nil {
			return nil, err
		}
		return fold(&engine.Call{Op: engine.OpLength, Args: []engine.Expr{x}, T: engine.Int32})
	case "upper", "lower":
		if err := want(1, 1); err != nil {
			return nil, err
		}
		if err := bindArgs(0); err != nil {
			return nil, err
		}
		x, err := b.strArg(args[0], name)
		if err != nil {
			return nil, err
		}
		op := engine.OpUpper
		if name == "lower" {
			op = engine.OpLower
		}
		return fold(&engine.Call{Op: op, Args: []engine.Expr{x}, T: engine.Text})
	case "substring", "substr":
		if err := want(2, 3); err != nil {
			return nil, err
		}
		if err := bindArgs(0); err != nil {
			return nil, err
		}
		if name == "substring" && len(args) == 2 && (isUnknown(args[1]) || args[1].Type().IsString()) {
			// substring(x FROM pattern): a regular expression
			e, _, err := b.regexFunc(name, args)
			return e, err
		}
		x, err := b.strArg(args[0], name)
		if err != nil {
			return nil, err
		}
		out := []engine.Expr{x}
		for _, a := range args[1:] {
			ia, err := b.asInt(a, name)
			if err != nil {
				return nil, err
			}
			out = append(out, ia)
		}
		return fold(&engine.Call{Op: engine.OpSubstr, Args: out, T: engine.Text})
	case "__gpusql_concat":
		// PostgreSQL's concat(): every argument as text, NULL as ''.
		if len(n.Args) == 0 {
			return nil, engine.Errorf(engine.CodeUndefinedFunction, "function concat() does not exist")
		}
		if err := bindArgs(0); err != nil {
			return nil, err
		}
		var out engine.Expr
		for _, a := range args {
			var x engine.Expr
			if t := a.Type(); t.Kind == engine.KindChar && t.Len > 0 {
				x = &engine.Call{Op: engine.OpPadChar, Args: []engine.Expr{a}, T: engine.Text} // char's text form keeps its padding
			} else if t.Kind == engine.KindBool {
				// the output form 't'/'f', where a cast to text says 'true'
				x = &engine.Case{
					Conds: []engine.Expr{
						&engine.Call{Op: engine.OpIsTrue, Args: []engine.Expr{a}, T: engine.Bool},
						&engine.Call{Op: engine.OpIsFalse, Args: []engine.Expr{a}, T: engine.Bool},
					},
					Results: []engine.Expr{&engine.Const{T: engine.Text, S: "t"}, &engine.Const{T: engine.Text, S: "f"}},
					Else:    &engine.Const{T: engine.Text, Null: true}, T: engine.Text}
			} else {
				c, err := castTo(a, engine.Text)
				if err != nil {
					return nil, err
				}
				x = c
			}
			x = &engine.Call{Op: engine.OpCoalesce, Args: []engine.Expr{x, &engine.Const{T: engine.Text}}, T: engine.Text}
			if out != nil {
				x = &engine.Call{Op: engine.OpConcat, Args: []engine.Expr{out, x}, T: engine.Text}
			}
			out = x
		}
		return fold(out)
	case "concat":
		// tidb spells a || b as concat(a, b).
		if err := want(2, 2); err != nil {
			return nil, unsupported("concat() with other than two arguments is not supported; use ||")
		}
		if err := bindArgs(0); err != nil {
			return nil, err
		}
		if isArrayNode(n.Args[0]) || isArrayNode(n.Args[1]) {
			return arrayCat(args[0], args[1])
		}
		for i, a := range args {
			if !a.Type().IsString() || isUnknown(a) || a.Type().Kind != engine.KindText {
				c, err := castTo(a, engine.Text)
				if err != nil {
					return nil, err
				}
				args[i] = c
			}
		}
		return fold(&engine.Call{Op: engine.OpConcat, Args: args, T: engine.Text})
	case "version":
		return &engine.Const{T: engine.Text, S: b.s.srv.version()}, nil
	case "current_database", "current_catalog":
		return &engine.Const{T: engine.Text, S: b.s.params.Database}, nil
	case "current_user", "session_user", "user", "current_role":
		return &engine.Const{T: engine.Text, S: b.s.params.User}, nil
	case "current_schema":
		return &engine.Const{T: engine.Text, S: "public"}, nil
	case "coalesce":
		if len(n.Args) == 0 {
			return nil, engine.Errorf(engine.CodeSyntaxError, "syntax error at or near \")\"")
		}
		if err := bindArgs(0); err != nil {
			return nil, err
		}
		args, t, err := coerceAll("COALESCE", args)
		if err != nil {
			return nil, err
		}
		return fold(&engine.Call{Op: engine.OpCoalesce, Args: args, T: t})
	case "nullif":
		if err := want(2, 2); err != nil {
			return nil, err
		}
		if err := bindArgs(0); err != nil {
			return nil, err
		}
		x, err := b.compare(opcode.EQ, args[0], args[1]) // checks comparability
		if err != nil {
			return nil, err
		}
		cmp := x
		_ = cmp
		t, _ := commonType(args[0].Type(), args[1].Type())
		a0, err := operand(args[0], t)
		if err != nil {
			return nil, err
		}
		a1, err := operand(args[1], t)
		if err != nil {
			return nil, err
		}
		rt := args[0].Type()
		if isUnknown(args[0]) {
			rt = t
		}
		return fold(&engine.Call{Op: engine.OpNullIf, Args: []engine.Expr{a0, a1}, T: rt})
	case "abs":
		if err := want(1, 1); err != nil {
			return nil, err
		}
		if err := bindArgs(0); err != nil {
			return nil, err
		}
		x := args[0]
		if isUnknown(x) {
			var err error
			if x, err = castTo(x, engine.Float64); err != nil {
				return nil, err
			}
		}
		t := x.Type()
		if !t.IsNumber() {
			return nil, engine.Errorf(engine.CodeUndefinedFunction, "function abs(%s) does not exist", t)
		}
		if t.Kind == engine.KindNumeric {
			t = engine.Numeric
		}
		return fold(&engine.Call{Op: engine.OpAbs, Args: []engine.Expr{x}, T: t})
	}
	if e, ok, err := b.mathFunc(n); ok || err != nil {
		return e, err // mathfunc.go
	}
	if e, ok, err := b.timeFunc(n); ok || err != nil {
		return e, err // timefunc.go
	}
	if err := bindArgs(0); err != nil {
		return nil, err
	}
	if e, ok, err := b.catalogFunc(name, args); ok || err != nil {
		return e, err
	}
	if e, ok, err := b.arrayFunc(name, args); ok || err != nil {
		return e, err
	}
	if e, ok, err := b.regexFunc(name, args); ok || err != nil {
		return e, err
	}
	ts := make([]string, len(args))
	for i, a := range args {
		ts[i] = a.Type().String()
	}
	return nil, engine.Errorf(engine.CodeUndefinedFunction, "function %s(%s) does not exist", name, strings.Join(ts, ", ")).
		WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
}

func (b *binder) strArg(x engine.Expr, fn string) (engine.Expr, error) {
	if isUnknown(x) {
		return castTo(x, engine.Text)
	}
	if !x.Type().IsString() {
		return nil, engine.Errorf(engine.CodeUndefinedFunction, "function %s(%s) does not exist", fn, x.Type()).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	}
	return x, nil
}

func stringArg(n ast.ExprNode) (string, error) {
	if v, ok := n.(ast.ValueExpr); ok {
		if s, ok := v.GetValue().(string); ok {
			return s, nil
		}
	}
	return "", engine.Errorf(engine.CodeInternalError, "expected a string constant, got %s", fmt.Sprintf("%T", n))
}

// regexCall binds __gpusql_regex(x, pattern, 'flags'): x ~ pattern.
func (b *binder) regexCall(n *ast.FuncCallExpr) (engine.Expr, error) {
	if len(n.Args) != 3 {
		return nil, engine.Errorf(engine.CodeInternalError, "bad regex call")
	}
	xs, err := b.exprs(n.Args[0], n.Args[1])
	if err != nil {
		return nil, err
	}
	flags, err := stringArg(n.Args[2])
	if err != nil {
		return nil, err
	}
	op := "~"
	if flags == "i" {
		op = "~*"
	}
	for i, x := range xs {
		if isUnknown(x) {
			if xs[i], err = castTo(x, engine.Text); err != nil {
				return nil, err
			}
			continue
		}
		if !x.Type().IsString() {
			return nil, engine.Errorf(engine.CodeUndefinedFunction, "operator does not exist: %s %s %s", xs[0].Type(), op, xs[1].Type()).
				WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
		}
		if t := x.Type(); t.Kind == engine.KindChar && t.Len > 0 {
			xs[i] = &engine.Call{Op: engine.OpPadChar, Args: []engine.Expr{x}, T: engine.Text}
		}
	}
	if c, ok := xs[1].(*engine.Const); ok && !c.Null {
		if _, err := eval.CompileRegex(c.S, flags); err != nil {
			return nil, err
		}
	}
	return fold(&engine.Call{Op: engine.OpRegexMatch, Args: []engine.Expr{xs[0], xs[1], &engine.Const{T: engine.Text, S: flags}}, T: engine.Bool})
}

// regCast binds __gpusql_regcast(x, 'kind'), a cast to a reg* type: a
// name (text) becomes its OID (bigint); an OID becomes its name (text),
// which is what a reg* value prints as.
func (b *binder) regCast(n *ast.FuncCallExpr) (engine.Expr, error) {
	if len(n.Args) != 2 {
		return nil, engine.Errorf(engine.CodeInternalError, "bad reg* cast")
	}
	kind, err := stringArg(n.Args[1])
	if err != nil {
		return nil, err
	}
	x, err := b.expr(n.Args[0])
	if err != nil {
		return nil, err
	}
	s := b.s
	if c, ok := x.(*engine.Const); ok && c.Null {
		return &engine.Const{T: engine.Int64, Null: true}, nil
	}
	t := x.Type()
	switch {
	case kind == "regproc" && b.catalogType(x) == pgOIDRegproc:
		// amhandler::regproc: already the name, which a function that
		// gpusql's pg_proc does not list keeps too
		return x, nil
	case isUnknown(x) || t.IsString():
		return regMap(kind, x, engine.Int64, func(v *engine.Vec, i int, out *engine.Vec) (err error) {
			out.I[i], err = s.regOID(kind, string(v.S[i]))
			return err
		})
	case t.IsInteger():
		return b.regNameExpr(kind, x)
	}
	return nil, engine.Errorf(engine.CodeCannotCoerce, "cannot cast type %s to %s", t, kind)
}

// regText binds n as the text a reg* value prints as, when n is a cast to
// a reg* type: 'pg_class'::regclass shows pg_class, as in PostgreSQL,
// although gpusql binds a name cast to a reg* type as its OID (a bigint)
// so that it compares with OID columns. ok is false when n is no such
// cast.
func (b *binder) regText(n ast.ExprNode) (e engine.Expr, ok bool, err error) {
	fc, isCall := n.(*ast.FuncCallExpr)
	if !isCall || fc.FnName.L != "__gpusql_regcast" || len(fc.Args) != 2 {
		return nil, false, nil
	}
	e, err = b.regCast(fc)
	if err != nil || !e.Type().IsInteger() {
		return e, true, err // an error, or already the name
	}
	kind, err := stringArg(fc.Args[1])
	if err != nil {
		return nil, true, err
	}
	e, err = b.regNameExpr(kind, e)
	return e, true, err
}

// regNameExpr renders the OIDs x as kind's names (oid::regclass).
func (b *binder) regNameExpr(kind string, x engine.Expr) (engine.Expr, error) {
	s := b.s
	return regMap(kind, x, engine.Text, func(v *engine.Vec, i int, out *engine.Vec) error {
		name, err := s.regName(kind, v.I[i])
		out.S[i] = []byte(name)
		return err
	})
}

// regMap converts each non-NULL value of x to type t with conv (one
// direction of a reg* cast); a constant x folds to a constant.
func regMap(kind string, x engine.Expr, t engine.Type, conv func(v *engine.Vec, i int, out *engine.Vec) error) (engine.Expr, error) {
	fn := func(args []*engine.Vec, n int) (*engine.Vec, error) {
		out := engine.NewVec(t, n)
		for i := 0; i < n; i++ {
			if args[0].IsNull(i) {
				out.SetNull(i)
				continue
			}
			if err := conv(args[0], i, out); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	if c, ok := x.(*engine.Const); ok {
		v, err := fn([]*engine.Vec{eval.Broadcast(c, 1)}, 1)
		if err != nil {
			return nil, err
		}
		return constOf(v, 0), nil
	}
	return &engine.HostFunc{Name: kind, Args: []engine.Expr{x}, T: t, Fn: fn}, nil
}

// Arrays: gpusql has no array types; the catalogs' array columns and
// functions such as current_schemas hold PostgreSQL's text form ('{a,b}'),
// and these operations read it.

// arrayOp binds a[i] (__gpusql_subscript: the element as text, NULL when
// out of range) and x = ANY (a) (__gpusql_array_has).
func (b *binder) arrayOp(name string, x, y engine.Expr) (engine.Expr, error) {
	arr, other := x, y
	if name == "__gpusql_array_has" {
		arr, other = y, x
		if r, ok := arr.(*paramRef); ok {
			// x = ANY ($n): $n is an array of x's type.
			b.params.setElem(r.n, other.Type())
		}
		if ac, ok := arr.(*engine.Const); ok && !other.Type().IsString() {
			return b.arrayIn(other, ac)
		}
	}
	arr, err := b.asText(arr, "array")
	if err != nil {
		return nil, err
	}
	var fn func(a string, o *engine.Const) (*engine.Const, error)
	var t engine.Type
	if name == "__gpusql_subscript" {
		if other, err = b.asInt(other, "array subscript"); err != nil {
			return nil, err
		}
		if b.catalogType(arr) == pgOIDName {
			return nameSubscript(arr, other)
		}
		// The element type is not known (arrays are text here): the
		// element resolves from context, as a literal does.
		t = engine.Unknown
		fn = func(a string, o *engine.Const) (*engine.Const, error) {
			els, err := parseTextArray(a)
			if err != nil {
				return nil, err
			}
			if o.Null || o.I < 1 || o.I > int64(len(els)) || els[o.I-1] == nil {
				return &engine.Const{T: t, Null: true}, nil
			}
			return &engine.Const{T: t, S: *els[o.I-1]}, nil
		}
	} else {
		if other, err = castTo(other, engine.Text); err != nil {
			return nil, err
		}
		t = engine.Bool
		fn = func(a string, o *engine.Const) (*engine.Const, error) {
			els, err := parseTextArray(a)
			if err != nil {
				return nil, err
			}
			null := o.Null
			for _, e := range els {
				switch {
				case e == nil:
					null = true
				case !o.Null && *e == o.S:
					return &engine.Const{T: t, I: 1}, nil
				}
			}
			return &engine.Const{T: t, Null: null}, nil
		}
	}
	ac, aok := arr.(*engine.Const)
	oc, ook := other.(*engine.Const)
	if aok && ook {
		if ac.Null {
			return &engine.Const{T: t, Null: true}, nil
		}
		return fn(ac.S, oc)
	}
	return &engine.HostFunc{Name: name, Args: []engine.Expr{arr, other}, T: t, Fn: func(vs []*engine.Vec, n int) (*engine.Vec, error) {
		out := engine.NewVec(t, n)
		for i := 0; i < n; i++ {
			if vs[0].IsNull(i) {
				out.SetNull(i)
				continue
			}
			c, err := fn(string(vs[0].S[i]), constOf(vs[1], i))
			if err != nil {
				return nil, err
			}
			setSlot(out, i, c)
		}
		return out, nil
	}}, nil
}

// arrayIn binds x = ANY (a) for a constant array a (a literal, or a
// parameter's value) and a non-string x: x IN (elements), each element
// read as x's type, so that values compare as values (1.5 matches 1.50)
// and the backends see an ordinary IN list.
func (b *binder) arrayIn(x engine.Expr, a *engine.Const) (engine.Expr, error) {
	if a.Null {
		return &engine.Const{T: engine.Bool, Null: true}, nil
	}
	els, err := parseTextArray(a.S)
	if err != nil {
		return nil, err
	}
	if len(els) == 0 {
		return &engine.Const{T: engine.Bool}, nil
	}
	args := make([]engine.Expr, 0, len(els)+1)
	args = append(args, x)
	for _, e := range els {
		if e == nil {
			args = append(args, &engine.Const{T: engine.Unknown, Null: true})
			continue
		}
		args = append(args, &engine.Const{T: engine.Unknown, S: *e})
	}
	if args, _, err = coerceAll("IN", args); err != nil {
		return nil, err
	}
	return b.predicateCall(&engine.Call{Op: engine.OpIn, Args: args, T: engine.Bool}, false)
}

// arraySubquery binds ARRAY(SELECT ...): the subquery's one column as an
// array's text form.
func (b *binder) arraySubquery(n ast.ExprNode) (engine.Expr, error) {
	q, err := subqueryOf(n)
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
	render := func(rows *engine.Batch, _ []*engine.Const) (*engine.Const, error) {
		buf := []byte{'{'}
		for i := 0; i < rows.N; i++ {
			if i > 0 {
				buf = append(buf, ',')
			}
			if rows.Cols[0].IsNull(i) {
				buf = append(buf, "NULL"...)
				continue
			}
			buf = appendArrayElem(buf, engine.AppendText(nil, rows.Cols[0], i))
		}
		return &engine.Const{T: engine.Text, S: string(append(buf, '}'))}, nil
	}
	if refs := sub.outerRefs(); len(refs) > 0 {
		return b.correlated("array", q, refs, nil, engine.Text, render)
	}
	rows, err := b.collect(plan, "a subquery")
	if err != nil {
		return nil, err
	}
	return render(rows, nil)
}

// unparen is n without the parentheses around it.
func unparen(n ast.ExprNode) ast.ExprNode {
	for {
		p, ok := n.(*ast.ParenthesesExpr)
		if !ok {
			return n
		}
		n = p.Expr
	}
}

// isArrayNode reports whether n is known to be an array: ARRAY(SELECT
// ...). gpusql's arrays are text, so || over text is concatenation of
// strings unless one side is known to be an array.
func isArrayNode(n ast.ExprNode) bool {
	n = unparen(n)
	f, ok := n.(*ast.FuncCallExpr)
	return ok && f.FnName.L == "__gpusql_array_sub"
}

// arrayCat is a || b over two arrays in their text form: PostgreSQL's
// array_cat, where a NULL or empty side gives the other side.
func arrayCat(a, b engine.Expr) (engine.Expr, error) {
	for _, x := range []*engine.Expr{&a, &b} {
		if !(*x).Type().IsString() && !isUnknown(*x) {
			return nil, engine.Errorf(engine.CodeUndefinedFunction, "operator does not exist: %s || %s", a.Type(), b.Type())
		}
		c, err := castTo(*x, engine.Text)
		if err != nil {
			return nil, err
		}
		*x = c
	}
	cat := func(x, y []byte, xnull, ynull bool) ([]byte, bool) {
		switch {
		case xnull && ynull:
			return nil, true
		case xnull || string(x) == "{}":
			return y, ynull
		case ynull || string(y) == "{}":
			return x, false
		}
		if len(x) < 2 || len(y) < 2 || x[len(x)-1] != '}' || y[0] != '{' {
			return append(append([]byte(nil), x...), y...), false // not arrays: leave them be
		}
		out := append(append([]byte(nil), x[:len(x)-1]...), ',')
		return append(out, y[1:]...), false
	}
	ca, aok := a.(*engine.Const)
	cb, bok := b.(*engine.Const)
	if aok && bok {
		s, null := cat([]byte(ca.S), []byte(cb.S), ca.Null, cb.Null)
		return &engine.Const{T: engine.Text, S: string(s), Null: null}, nil
	}
	fn := func(vs []*engine.Vec, n int) (*engine.Vec, error) {
		out := engine.NewVec(engine.Text, n)
		for i := 0; i < n; i++ {
			s, null := cat(vs[0].S[i], vs[1].S[i], vs[0].IsNull(i), vs[1].IsNull(i))
			if null {
				out.SetNull(i)
				continue
			}
			out.S[i] = s
		}
		return out, nil
	}
	return &engine.HostFunc{Name: "array_cat", Args: []engine.Expr{a, b}, T: engine.Text, Fn: fn}, nil
}

// appendArrayElem writes one element of an array's text form, quoted
// when PostgreSQL would quote it.
func appendArrayElem(dst, e []byte) []byte {
	quote := len(e) == 0 || strings.EqualFold(string(e), "null")
	for _, c := range e {
		if c == '{' || c == '}' || c == ',' || c == '"' || c == '\\' || c == ' ' || c == '\t' || c == '\n' {
			quote = true
		}
	}
	if !quote {
		return append(dst, e...)
	}
	dst = append(dst, '"')
	for _, c := range e {
		if c == '"' || c == '\\' {
			dst = append(dst, '\\')
		}
		dst = append(dst, c)
	}
	return append(dst, '"')
}

// arrayFunc binds the array and string functions that catalog queries
// use (string_to_array, array_upper, array_lower, parse_ident, replace),
// over text-form arrays. ok is false for other names.
func (b *binder) arrayFunc(name string, args []engine.Expr) (engine.Expr, bool, error) {
	var ins []engine.Type
	var ret engine.Type
	var fn func(c []*engine.Const) (*engine.Const, error)
	// vfn, when set, is fn over whole vectors (no value boxed per row),
	// for the functions that run over user tables.
	var vfn func(vs []*engine.Vec, n int) (*engine.Vec, error)
	null := func() (*engine.Const, error) { return &engine.Const{T: ret, Null: true}, nil }
	switch name {
	case "string_to_array":
		ins, ret = []engine.Type{engine.Text, engine.Text}, engine.Text
		fn = func(c []*engine.Const) (*engine.Const, error) {
			if c[0].Null {
				return null()
			}
			var parts []string
			switch {
			case c[0].S == "":
			case c[1].Null:
				for _, r := range c[0].S {
					parts = append(parts, string(r))
				}
			case c[1].S == "":
				parts = []string{c[0].S}
			default:
				parts = strings.Split(c[0].S, c[1].S)
			}
			return &engine.Const{T: ret, S: textArray(parts)}, nil
		}
	case "array_remove":
		// array_remove(a, e): a without the elements equal to e (NULL
		// removes the NULLs), as pg_dump applies it to reloptions.
		ins, ret = []engine.Type{engine.Text, engine.Text}, engine.Text
		fn = func(c []*engine.Const) (*engine.Const, error) {
			if c[0].Null {
				return null()
			}
			els, err := parseTextArray(c[0].S)
			if err != nil {
				return nil, err
			}
			out := []byte{'{'}
			n := 0
			for _, e := range els {
				if e == nil && c[1].Null || e != nil && !c[1].Null && *e == c[1].S {
					continue
				}
				if n > 0 {
					out = append(out, ',')
				}
				n++
				if e == nil {
					out = append(out, "NULL"...)
				} else {
					out = appendArrayElem(out, []byte(*e))
				}
			}
			return &engine.Const{T: ret, S: string(append(out, '}'))}, nil
		}
	case "array_upper", "array_lower", "array_length":
		ins, ret = []engine.Type{engine.Text, engine.Int32}, engine.Int32
		fn = func(c []*engine.Const) (*engine.Const, error) {
			if c[0].Null || c[1].Null || c[1].I != 1 {
				return null()
			}
			els, err := parseTextArray(c[0].S)
			if err != nil {
				return nil, err
			}
			if len(els) == 0 {
				return null()
			}
			v := int64(len(els))
			if name == "array_lower" {
				v = 1
			}
			return &engine.Const{T: ret, I: v}, nil
		}
	case "parse_ident":
		ins, ret = []engine.Type{engine.Text}, engine.Text
		fn = func(c []*engine.Const) (*engine.Const, error) {
			if c[0].Null {
				return null()
			}
			parts, err := parseIdent(c[0].S)
			if err != nil {
				return nil, err
			}
			return &engine.Const{T: ret, S: textArray(parts)}, nil
		}
	case "trim", "btrim", "ltrim", "rtrim":
		ins, ret = []engine.Type{engine.Text, engine.Text}[:max(1, min(len(args), 2))], engine.Text
		fn = func(c []*engine.Const) (*engine.Const, error) {
			chars := " "
			if len(c) == 2 {
				if c[1].Null {
					return null()
				}
				chars = c[1].S
			}
			if c[0].Null {
				return null()
			}
			v := c[0].S
			if name != "rtrim" {
				v = strings.TrimLeft(v, chars)
			}
			if name != "ltrim" {
				v = strings.TrimRight(v, chars)
			}
			return &engine.Const{T: ret, S: v}, nil
		}
		vfn = func(vs []*engine.Vec, n int) (*engine.Vec, error) {
			out := engine.NewVec(ret, n)
			var set []byte // the last character set seen, and as a string
			chars := " "
			for i := 0; i < n; i++ {
				if vs[0].IsNull(i) || len(vs) == 2 && vs[1].IsNull(i) {
					out.SetNull(i)
					continue
				}
				if len(vs) == 2 && (set == nil || !bytes.Equal(set, vs[1].S[i])) {
					set = append(set[:0:0], vs[1].S[i]...)
					chars = string(set)
				}
				v := vs[0].S[i] // a trimmed value is a part of its input
				if name != "rtrim" {
					v = bytes.TrimLeft(v, chars)
				}
				if name != "ltrim" {
					v = bytes.TrimRight(v, chars)
				}
				out.S[i] = v
			}
			return out, nil
		}
	case "replace":
		ins, ret = []engine.Type{engine.Text, engine.Text, engine.Text}, engine.Text
		fn = func(c []*engine.Const) (*engine.Const, error) {
			if c[0].Null || c[1].Null || c[2].Null {
				return null()
			}
			if c[1].S == "" {
				return &engine.Const{T: ret, S: c[0].S}, nil
			}
			return &engine.Const{T: ret, S: strings.ReplaceAll(c[0].S, c[1].S, c[2].S)}, nil
		}
		vfn = func(vs []*engine.Vec, n int) (*engine.Vec, error) {
			out := engine.NewVec(ret, n)
			var buf []byte // the batch's results, back to back
			for i := 0; i < n; i++ {
				if vs[0].IsNull(i) || vs[1].IsNull(i) || vs[2].IsNull(i) {
					out.SetNull(i)
					continue
				}
				src, from, to := vs[0].S[i], vs[1].S[i], vs[2].S[i]
				if len(from) == 0 || !bytes.Contains(src, from) {
					out.S[i] = src
					continue
				}
				start := len(buf)
				for {
					k := bytes.Index(src, from)
					if k < 0 {
						break
					}
					buf = append(append(buf, src[:k]...), to...)
					src = src[k+len(from):]
				}
				buf = append(buf, src...)
				// earlier results keep the array they were written in
				out.S[i] = buf[start:len(buf):len(buf)]
			}
			return out, nil
		}
	default:
		return nil, false, nil
	}
	if len(args) != len(ins) {
		return nil, true, engine.Errorf(engine.CodeUndefinedFunction, "function %s with %d arguments does not exist", name, len(args))
	}
	allConst := true
	for i, a := range args {
		var err error
		switch {
		case ins[i].Kind == engine.KindText:
			if isUnknown(a) || !a.Type().IsString() {
				if isUnknown(a) || name == "replace" {
					a, err = castTo(a, engine.Text)
				} else {
					err = engine.Errorf(engine.CodeUndefinedFunction, "function %s(%s) does not exist", name, a.Type())
				}
			}
		default:
			a, err = b.asInt(a, name)
		}
		if err != nil {
			return nil, true, err
		}
		args[i] = a
		if _, ok := a.(*engine.Const); !ok {
			allConst = false
		}
	}
	if allConst {
		cs := make([]*engine.Const, len(args))
		for i, a := range args {
			cs[i] = a.(*engine.Const)
		}
		c, err := fn(cs)
		return c, true, err
	}
	if vfn != nil {
		return &engine.HostFunc{Name: name, Args: args, T: ret, Fn: vfn}, true, nil
	}
	return &engine.HostFunc{Name: name, Args: args, T: ret, Fn: func(vs []*engine.Vec, n int) (*engine.Vec, error) {
		out := engine.NewVec(ret, n)
		cs := make([]*engine.Const, len(vs))
		for i := 0; i < n; i++ {
			for k, v := range vs {
				cs[k] = constOf(v, i)
			}
			c, err := fn(cs)
			if err != nil {
				return nil, err
			}
			setSlot(out, i, c)
		}
		return out, nil
	}}, true, nil
}

// textArray renders elements as an array's text form.
func textArray(els []string) string {
	buf := []byte{'{'}
	for i, e := range els {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = appendArrayElem(buf, []byte(e))
	}
	return string(append(buf, '}'))
}

// parseIdent splits a qualified identifier as parse_ident does: dots
// separate parts, double quotes keep case and dots.
func parseIdent(s string) ([]string, error) {
	bad := engine.Errorf(engine.CodeInvalidParameterValue, "string is not a valid identifier: %q", s)
	var parts []string
	i := 0
	for {
		for i < len(s) && s[i] == ' ' {
			i++
		}
		var b strings.Builder
		if i < len(s) && s[i] == '"' {
			i++
			for {
				if i >= len(s) {
					return nil, bad
				}
				if s[i] == '"' {
					if i+1 < len(s) && s[i+1] == '"' {
						b.WriteByte('"')
						i += 2
						continue
					}
					i++
					break
				}
				b.WriteByte(s[i])
				i++
			}
		} else {
			st := i
			for i < len(s) && s[i] != '.' && s[i] != ' ' {
				i++
			}
			if i == st {
				return nil, bad
			}
			b.WriteString(strings.ToLower(s[st:i]))
		}
		parts = append(parts, b.String())
		for i < len(s) && s[i] == ' ' {
			i++
		}
		if i >= len(s) {
			return parts, nil
		}
		if s[i] != '.' {
			return nil, bad
		}
		i++
	}
}

// trimDirection reads tidb's trim(direction [chars] FROM s): the
// arguments s, chars (nil when omitted) and the direction.
func trimDirection(n *ast.FuncCallExpr) (ast.TrimDirectionType, bool) {
	if n.FnName.L != "trim" || len(n.Args) != 3 || n.Args[0] == nil {
		return 0, false
	}
	d, ok := n.Args[2].(*ast.TrimDirectionExpr)
	if !ok {
		return 0, false
	}
	return d.Direction, true
}

// regprocCompare binds col = 'name'::regproc (and <>) where col is one of
// the catalogs' regproc columns, which gpusql holds as the function's
// name (pg_type.typinput and the like): the literal becomes the name it
// resolves to, a function of pg_proc or a type's I/O function. pgJDBC
// asks typinput = 'pg_catalog.array_in'::regproc to find array types.
// ok is false for other comparisons.
func (b *binder) regprocCompare(n *ast.BinaryOperationExpr) (engine.Expr, bool, error) {
	if n.Op != opcode.EQ && n.Op != opcode.NE {
		return nil, false, nil
	}
	lit := func(x ast.ExprNode) (string, bool) {
		fc, ok := x.(*ast.FuncCallExpr)
		if !ok || fc.FnName.L != "__gpusql_regcast" || len(fc.Args) != 2 {
			return "", false
		}
		if kind, err := stringArg(fc.Args[1]); err != nil || kind != "regproc" {
			return "", false
		}
		v, ok := fc.Args[0].(ast.ValueExpr)
		if !ok {
			return "", false
		}
		name, ok := v.GetValue().(string)
		return name, ok
	}
	other, name := n.L, ""
	if s, ok := lit(n.R); ok {
		name = s
	} else if s, ok := lit(n.L); ok {
		other, name = n.R, s
	} else {
		return nil, false, nil
	}
	x, err := b.expr(other)
	if err != nil || !x.Type().IsString() {
		return nil, false, err // an OID compares with the OID the cast gives
	}
	parts, err := parseQualified(strings.TrimSpace(name))
	fn := ""
	if err == nil && (len(parts) == 1 || len(parts) == 2 && parts[0] == "pg_catalog") {
		fn = parts[len(parts)-1]
	}
	known := false
	for _, p := range pgProcs {
		known = known || p.name == fn
	}
	for _, t := range pgTypes {
		known = known || fn != "" && (t.input == fn || t.output == fn || t.receive == fn || t.send == fn)
	}
	if !known {
		return nil, true, engine.Errorf(engine.CodeUndefinedFunction, "function %q does not exist", name)
	}
	e, err := b.compare(n.Op, x, &engine.Const{T: engine.Text, S: fn})
	return e, true, err
}
