package query

// Parameters ($n) of prepared statements.
//
// The parser turns $n into __gpusql_param(n), or, in LIMIT and OFFSET,
// into a "?" marker (Select.LimitParams). A statement is bound twice:
//
//   - when prepared, a parameter binds as a paramRef: a typed leaf that
//     folding leaves alone. A parameter whose type the client left open
//     is a paramRef of type unknown, so it is cast by its context exactly
//     as an unknown literal would be ('x' next to an integer column
//     becomes an integer); the casts found in the bound tree give the
//     inferred types. LIMIT and OFFSET make bigint, and a parameter that
//     nothing resolves is text, as in PostgreSQL;
//   - when run, each parameter binds as a constant of its type, made
//     from the client's text, so the plan is an ordinary plan.

import (
	"strconv"

	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/gpusql/gpusql/engine"
)

// maxParams is PostgreSQL's limit on the parameters of one statement.
const maxParams = 65535

// paramEnv is what the binder knows of a statement's parameters.
type paramEnv struct {
	types  []engine.Type    // per parameter; KindUnknown: still to infer
	elem   []engine.Type    // per parameter: an array's element type; KindInvalid: not an array
	values []engine.Expr    // constants when running; nil when preparing
	limits []int            // Select.LimitParams
	marker map[ast.Node]int // LIMIT/OFFSET "?" marker → parameter number
}

// paramRef is a parameter in a statement being prepared. It never
// reaches a backend.
type paramRef struct {
	n int
	t engine.Type
}

var _ engine.Expr = (*paramRef)(nil)

func (p *paramRef) Type() engine.Type { return p.t }
func (p *paramRef) String() string    { return "$" + strconv.Itoa(p.n) }

func noParam(n int) error {
	return engine.Errorf(engine.CodeUndefinedParameter, "there is no parameter $%d", n)
}

// param binds $n.
func (e *paramEnv) param(n int) (engine.Expr, error) {
	if e == nil || n < 1 || n > len(e.types) {
		return nil, noParam(n)
	}
	if e.values != nil {
		return e.values[n-1], nil
	}
	return &paramRef{n: n, t: e.types[n-1]}, nil
}

// paramNumber reads the argument of __gpusql_param(n).
func paramNumber(f *ast.FuncCallExpr) (int, error) {
	if len(f.Args) == 1 {
		if v, ok := f.Args[0].(ast.ValueExpr); ok {
			switch x := v.GetValue().(type) {
			case int64:
				return int(x), nil
			case uint64:
				return int(min(x, maxParams+1)), nil
			}
		}
	}
	return 0, engine.Errorf(engine.CodeSyntaxError, "invalid parameter reference")
}

// mapMarkers ties the "?" markers of LIMIT and OFFSET to their $n: the
// parser recorded the numbers in the order the markers appear.
func (e *paramEnv) mapMarkers(l *ast.Limit) {
	if e == nil || l == nil || len(e.limits) == 0 {
		return
	}
	var ms []*driver.ParamMarkerExpr
	for _, x := range []ast.ExprNode{l.Count, l.Offset} {
		if m, ok := x.(*driver.ParamMarkerExpr); ok {
			ms = append(ms, m)
		}
	}
	if len(ms) == 2 && ms[0].Offset > ms[1].Offset {
		ms[0], ms[1] = ms[1], ms[0]
	}
	e.marker = map[ast.Node]int{}
	for i, m := range ms {
		if i < len(e.limits) {
			e.marker[m] = e.limits[i]
		}
	}
}

// limitParam binds a LIMIT or OFFSET marker. While preparing, it settles
// an open type as bigint and returns no constant (c nil).
func (e *paramEnv) limitParam(n ast.ExprNode) (c *engine.Const, isParam bool, err error) {
	m, ok := n.(*driver.ParamMarkerExpr)
	if !ok {
		return nil, false, nil
	}
	if e == nil || e.marker[m] == 0 {
		return nil, true, engine.Errorf(engine.CodeSyntaxError, "syntax error at or near \"?\"")
	}
	k := e.marker[m]
	x, err := e.param(k)
	if err != nil {
		return nil, true, err
	}
	if r, ok := x.(*paramRef); ok {
		if r.t.Kind == engine.KindUnknown {
			e.types[k-1] = engine.Int64
		}
		return nil, true, nil
	}
	return x.(*engine.Const), true, nil
}

// infer records the types that context gave open parameters: every
// cast of an unknown paramRef in e.
func (e *paramEnv) infer(x engine.Expr) {
	switch x := x.(type) {
	case *engine.Call:
		if x.Op == engine.OpCast && len(x.Args) == 1 {
			if r, ok := x.Args[0].(*paramRef); ok && r.t.Kind == engine.KindUnknown && e.types[r.n-1].Kind == engine.KindUnknown {
				e.types[r.n-1] = x.T
			}
		}
		for _, a := range x.Args {
			e.infer(a)
		}
	case *engine.HostFunc:
		for _, a := range x.Args {
			e.infer(a)
		}
	case *engine.Case:
		for i := range x.Conds {
			e.infer(x.Conds[i])
			e.infer(x.Results[i])
		}
		e.infer(x.Else)
	}
}

// inferPlan infers from every expression of p, then makes what is still
// open text.
func (e *paramEnv) inferPlan(p *engine.Plan) {
	e.inferExprs(p)
	e.settle()
}

// inferExprs infers from every expression of p.
func (e *paramEnv) inferExprs(p *engine.Plan) {
	for _, x := range []engine.Expr{p.Filter, p.Having} {
		if x != nil {
			e.infer(x)
		}
	}
	for _, x := range p.GroupBy {
		e.infer(x)
	}
	for _, a := range p.Aggs {
		for _, x := range a.Exprs() {
			e.infer(x)
		}
	}
	for _, x := range p.Project {
		e.infer(x)
	}
}

// settle makes open parameter types text.
func (e *paramEnv) settle() {
	for i, t := range e.types {
		if t.Kind == engine.KindUnknown {
			e.types[i] = engine.Text
		}
	}
}

// setElem records that parameter n (from 1) is an array of t, which the
// statement reads in text form (arrays.go's operations read it).
func (e *paramEnv) setElem(n int, t engine.Type) {
	if e == nil || n < 1 || n > len(e.types) {
		return
	}
	if e.elem == nil {
		e.elem = make([]engine.Type, len(e.types))
	}
	if e.elem[n-1].Kind == engine.KindInvalid {
		if t.Kind == engine.KindUnknown {
			t = engine.Text
		}
		e.elem[n-1] = t
	}
}

// oids are the parameter type OIDs a statement reports: those the client
// gave (a timestamptz stays one), else the inferred types', an array's
// for a parameter used as an array.
func (e *paramEnv) oids(given []uint32) []uint32 {
	out := make([]uint32, len(e.types))
	for i, t := range e.types {
		switch {
		case i < len(given) && given[i] != 0 && given[i] != engine.OIDUnknown:
			out[i] = given[i]
		case e.elem != nil && e.elem[i].Kind != engine.KindInvalid:
			out[i] = engine.ArrayOID(e.elem[i].OID())
		default:
			out[i] = t.OID()
		}
	}
	return out
}

// paramTypeOfOID maps a parameter type OID from the client to the type
// the statement reads it as, and for an array type its element type; 0
// and unknown (705) leave the type open.
func paramTypeOfOID(oid uint32) (t, elem engine.Type, ok bool) {
	if e := engine.ElemOID(oid); e != 0 {
		et, _, ok := paramTypeOfOID(e)
		return engine.Text, et, ok
	}
	t, ok = typeOfOID(oid)
	return t, engine.Type{}, ok
}

// typeOfOID maps a type OID to a type; 0 and unknown (705) leave it open.
func typeOfOID(oid uint32) (engine.Type, bool) {
	switch oid {
	case 0, engine.OIDUnknown:
		return engine.Unknown, true
	case engine.OIDBool:
		return engine.Bool, true
	case engine.OIDInt2:
		return engine.Int16, true
	case engine.OIDInt4:
		return engine.Int32, true
	case engine.OIDInt8:
		return engine.Int64, true
	case engine.OIDFloat4:
		return engine.Float32, true
	case engine.OIDFloat8:
		return engine.Float64, true
	case engine.OIDNumeric:
		return engine.Numeric, true
	case engine.OIDDate:
		return engine.Date, true
	case engine.OIDTimestamp:
		return engine.Timestamp, true
	case engine.OIDTimestampTZ:
		return engine.TimestampTZ, true
	case engine.OIDTime:
		return engine.Time, true
	case engine.OIDInterval:
		return engine.Interval, true
	case engine.OIDText:
		return engine.Text, true
	case engine.OIDVarchar:
		return engine.Type{Kind: engine.KindVarchar}, true
	case engine.OIDBpchar:
		return engine.Type{Kind: engine.KindChar}, true
	}
	return engine.Type{}, false
}

// paramConst makes the constant that parameter value p stands for, read
// as type t's input, as PostgreSQL reads a text parameter.
func paramConst(t engine.Type, p engine.Param) (engine.Expr, error) {
	if p.Null {
		return &engine.Const{T: t, Null: true}, nil
	}
	s := string(p.Value)
	if t.Kind == engine.KindText {
		return &engine.Const{T: engine.Text, S: s}, nil
	}
	return castTo(&engine.Const{T: engine.Unknown, S: s}, t)
}

// paramCount is the highest $n in the statement's AST.
type paramCounter struct{ max int }

func (c *paramCounter) Enter(n ast.Node) (ast.Node, bool) {
	if f, ok := n.(*ast.FuncCallExpr); ok && f.FnName.L == "__gpusql_param" {
		if k, err := paramNumber(f); err == nil && k > c.max {
			c.max = k
		}
	}
	return n, false
}
func (c *paramCounter) Leave(n ast.Node) (ast.Node, bool) { return n, true }

func maxParam(n ast.Node, limits []int) int {
	c := &paramCounter{}
	n.Accept(c)
	for _, k := range limits {
		c.max = max(c.max, k)
	}
	return c.max
}

// limitExpr binds a LIMIT or OFFSET value; nil means a parameter whose
// value is not known yet (the statement is being prepared).
func (b *binder) limitExpr(n ast.ExprNode) (engine.Expr, error) {
	c, isParam, err := b.params.limitParam(n)
	if !isParam {
		return b.plain().expr(n)
	}
	if err != nil || c == nil {
		return nil, err
	}
	return c, nil
}
