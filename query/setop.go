package query

import (
	"errors"
	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/gpusql/gpusql/engine"
)

// UNION, INTERSECT and EXCEPT [ALL]: each side is bound to a plan, cast
// to the columns' common types, and the two become an engine.SetOp node;
// ORDER BY and LIMIT run in a plan over it. The backend runs the tree.

// setRows is one operand of a set operation, bound: its column names
// and types, and the plan-tree node that produces its rows.
type setRows struct {
	names []string
	types []engine.Type
	// nulls marks the columns that are a bare NULL on every side so far:
	// their type is the other side's, as an unknown literal's is
	nulls []bool
	rel   engine.Rel
	host  bool
}

func (b *binder) bindSetOpr(st *ast.SetOprStmt) (*engine.Plan, []engine.ResultColumn, error) {
	if err := b.bindWith(st.With); err != nil {
		return nil, nil, err
	}
	r, err := b.setList(st.SelectList)
	var e *engine.Error
	if errors.As(err, &e) && e.Code == engine.CodeDatatypeMismatch && !b.st.regOIDs {
		// A reg* cast in a select list prints as a name (text), but
		// against an OID column it is the OID, as the regclass a UNION
		// with oid resolves to in PostgreSQL (pg_dump's pg_depend
		// query): bind the sides again with reg* casts as OIDs.
		b.st.regOIDs = true
		r, err = b.setList(st.SelectList)
		b.st.regOIDs = false
	}
	if err != nil {
		return nil, nil, err
	}
	return b.finishSet(r, st.OrderBy, st.Limit)
}

// setList evaluates a list of selects joined by set operators, left to
// right (the parser nests lists for precedence and parentheses).
func (b *binder) setList(list *ast.SetOprSelectList) (*setRows, error) {
	if err := b.bindWith(list.With); err != nil {
		return nil, err
	}
	// INTERSECT binds tighter than UNION and EXCEPT: intersections are
	// folded into their left operand first, the rest left to right.
	var terms []*setRows
	var ops []ast.SetOprType
	for _, n := range list.Selects {
		var r *setRows
		var op *ast.SetOprType
		var err error
		switch x := n.(type) {
		case *ast.SelectStmt:
			op = x.AfterSetOperator
			r, err = b.setSide(x)
		case *ast.SetOprSelectList:
			op = x.AfterSetOperator
			if r, err = b.setList(x); err == nil && (x.OrderBy != nil || x.Limit != nil) {
				r, err = b.resort(r, x.OrderBy, x.Limit)
			}
		default:
			err = unsupported("set operation operand %T is not supported", n)
		}
		if err != nil {
			return nil, err
		}
		if len(terms) == 0 {
			terms = append(terms, r)
			continue
		}
		if op == nil {
			return nil, engine.Errorf(engine.CodeInternalError, "set operation without an operator")
		}
		if *op == ast.Intersect || *op == ast.IntersectAll {
			last := len(terms) - 1
			if terms[last], err = combine(terms[last], r, *op); err != nil {
				return nil, err
			}
			continue
		}
		terms = append(terms, r)
		ops = append(ops, *op)
	}
	acc := terms[0]
	for k, op := range ops {
		var err error
		if acc, err = combine(acc, terms[k+1], op); err != nil {
			return nil, err
		}
	}
	if list.OrderBy != nil || list.Limit != nil {
		return b.resort(acc, list.OrderBy, list.Limit)
	}
	return acc, nil
}

// setSide binds one SELECT of a set operation.
func (b *binder) setSide(sel *ast.SelectStmt) (*setRows, error) {
	side := &binder{s: b.s, params: b.params, st: b.st, outer: b.outer}
	plan, _, err := side.bindSelect(sel)
	if err != nil {
		return nil, err
	}
	r := &setRows{names: plan.Names[:plan.Visible], rel: plan, host: planIsHost(plan)}
	bare := sel.Fields != nil && len(sel.Fields.Fields) == plan.Visible
	for k, e := range plan.Project[:plan.Visible] {
		r.types = append(r.types, e.Type())
		null := false
		if c, ok := e.(*engine.Const); ok && c.Null && bare {
			v, ok := sel.Fields.Fields[k].Expr.(ast.ValueExpr)
			null = ok && v.GetValue() == nil
		}
		r.nulls = append(r.nulls, null)
	}
	return r, nil
}

// opName names a set operator as SQL spells it.
func setOpName(op ast.SetOprType) string {
	switch op {
	case ast.Union, ast.UnionAll:
		return "UNION"
	case ast.Intersect, ast.IntersectAll:
		return "INTERSECT"
	}
	return "EXCEPT"
}

// combine applies one set operator.
func combine(l, r *setRows, op ast.SetOprType) (*setRows, error) {
	name := setOpName(op)
	if len(l.types) != len(r.types) {
		return nil, engine.Errorf(engine.CodeSyntaxError, "each %s query must have the same number of columns", name)
	}
	out := &setRows{names: l.names, types: make([]engine.Type, len(l.types)), nulls: make([]bool, len(l.types)), host: l.host && r.host}
	for k := range l.types {
		out.nulls[k] = l.nulls[k] && r.nulls[k]
		lt, rt := l.types[k], r.types[k]
		switch {
		case out.nulls[k]:
		case l.nulls[k]:
			lt = rt
		case r.nulls[k]:
			rt = lt
		}
		t, ok := setType(lt, rt)
		if !ok {
			return nil, engine.Errorf(engine.CodeDatatypeMismatch, "%s types %s and %s cannot be matched", name, l.types[k], r.types[k])
		}
		out.types[k] = t
	}
	lr, err := castSide(l, out.types)
	if err != nil {
		return nil, err
	}
	rr, err := castSide(r, out.types)
	if err != nil {
		return nil, err
	}
	so := &engine.SetOp{Left: lr, Right: rr}
	switch op {
	case ast.Union, ast.UnionAll:
		so.Op = engine.SetUnion
	case ast.Intersect, ast.IntersectAll:
		so.Op = engine.SetIntersect
	default:
		so.Op = engine.SetExcept
	}
	so.All = op == ast.UnionAll || op == ast.IntersectAll || op == ast.ExceptAll
	for k, t := range out.types {
		so.Cols = append(so.Cols, engine.ColumnDef{Name: out.names[k], Type: t})
	}
	out.rel = so
	return out, nil
}

// castSide is a set operand's node with its columns cast to types ts
// (the operand itself when no column changes).
func castSide(r *setRows, ts []engine.Type) (engine.Rel, error) {
	same := true
	p := &engine.Plan{Input: r.rel, Table: "set operation", Limit: -1}
	for k, t := range ts {
		var e engine.Expr = &engine.ColRef{Idx: k, Name: r.names[k], T: r.types[k]}
		from := r.types[k]
		if !(from == t || castTarget(from, t) == from || (from.Kind == t.Kind && t.Kind == engine.KindNumeric && t.Prec == 0)) {
			var err error
			if e, err = castTo(e, t); err != nil {
				return nil, err
			}
			same = false
		}
		p.Project = append(p.Project, e)
		p.Names = append(p.Names, r.names[k])
	}
	if same {
		return r.rel, nil
	}
	p.Visible = len(p.Project)
	return p, nil
}

// setType is the type a set operation's column takes from its two sides
// (PostgreSQL's select_common_type, as for CASE).
func setType(a, b engine.Type) (engine.Type, bool) {
	if a.IsString() && b.IsString() && a.Kind != engine.KindUnknown && b.Kind != engine.KindUnknown {
		// String types convert to each other implicitly: the first wins,
		// keeping its length only when both share it.
		if a.Kind != b.Kind || a.Len != b.Len {
			a.Len = 0
		}
		return a, true
	}
	t, ok := commonType(a, b)
	if t.Kind == engine.KindUnknown {
		t = engine.Text
	}
	return t, ok
}

// finishSet makes the plan that returns a set operation's rows with its
// ORDER BY and LIMIT.
func (b *binder) finishSet(r *setRows, order *ast.OrderByClause, limit *ast.Limit) (*engine.Plan, []engine.ResultColumn, error) {
	src := source{name: "set operation", present: true, host: r.host, rel: r.rel}
	for k, n := range r.names {
		src.cols = append(src.cols, engine.ColumnDef{Name: n, Type: r.types[k]})
	}
	fb := &binder{s: b.s, params: b.params, st: b.st, outer: b.outer, src: src}
	b.params.mapMarkers(limit)
	p := src.plan()
	var cols []engine.ResultColumn
	var err error
	for i, c := range src.cols {
		t := r.types[i]
		p.Project = append(p.Project, &engine.ColRef{Idx: i, Name: c.Name, T: c.Type})
		p.Names = append(p.Names, c.Name)
		cols = append(cols, engine.ResultColumn{Name: c.Name, TypeOID: t.OID(), TypLen: t.TypLen(), Typmod: t.Typmod()})
	}
	p.Visible = len(p.Project)
	if order != nil {
		for _, o := range order.Items {
			key, err := fb.orderKey(p, o, false)
			if err != nil {
				return nil, nil, err
			}
			p.OrderBy = append(p.OrderBy, key)
		}
	}
	if limit != nil {
		if limit.Count != nil {
			if p.Limit, err = fb.limitValue(limit.Count, "LIMIT"); err != nil {
				return nil, nil, err
			}
		}
		if limit.Offset != nil {
			off, err := fb.limitValue(limit.Offset, "OFFSET")
			if err != nil {
				return nil, nil, err
			}
			p.Offset = max(off, 0)
		}
	}
	return p, cols, nil
}

// resort applies a parenthesised list's ORDER BY / LIMIT.
func (b *binder) resort(r *setRows, order *ast.OrderByClause, limit *ast.Limit) (*setRows, error) {
	p, _, err := b.finishSet(r, order, limit)
	if err != nil {
		return nil, err
	}
	return &setRows{names: r.names, types: r.types, rel: p, host: r.host}, nil
}
