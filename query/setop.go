package query

import (
	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/eval"
)

// UNION, INTERSECT and EXCEPT [ALL]: each side is bound and run on its own
// executor (a side over a user table runs on the server's backend), the
// results are combined on the host, and ORDER BY / LIMIT run over the
// combined rows as a host plan.

// setRows is an intermediate result of a set operation.
type setRows struct {
	names []string
	types []engine.Type
	rows  *engine.Batch
}

func (b *binder) bindSetOpr(st *ast.SetOprStmt) (*engine.Plan, []engine.ResultColumn, error) {
	if err := b.bindWith(st.With); err != nil {
		return nil, nil, err
	}
	r, err := b.setList(st.SelectList)
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

// setSide binds and runs one SELECT of a set operation.
func (b *binder) setSide(sel *ast.SelectStmt) (*setRows, error) {
	side := &binder{s: b.s, params: b.params, st: b.st, outer: b.outer}
	plan, _, err := side.bindSelect(sel)
	if err != nil {
		return nil, err
	}
	rows, err := b.collect(plan, "a set operation")
	if err != nil {
		return nil, err
	}
	r := &setRows{names: plan.Names[:plan.Visible], rows: rows}
	for _, e := range plan.Project[:plan.Visible] {
		r.types = append(r.types, e.Type())
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
	out := &setRows{names: l.names, types: make([]engine.Type, len(l.types))}
	for k := range l.types {
		t, ok := setType(l.types[k], r.types[k])
		if !ok {
			return nil, engine.Errorf(engine.CodeDatatypeMismatch, "%s types %s and %s cannot be matched", name, l.types[k], r.types[k])
		}
		out.types[k] = t
	}
	lb, err := castRows(l.rows, out.types)
	if err != nil {
		return nil, err
	}
	rb, err := castRows(r.rows, out.types)
	if err != nil {
		return nil, err
	}
	keyOf := func(b *engine.Batch, i int, dst []byte) []byte {
		for _, v := range b.Cols {
			dst = eval.AppendKey(dst, v, i)
		}
		return dst
	}
	var key []byte
	switch op {
	case ast.UnionAll, ast.Union:
		if lb.N+rb.N > maxHostRows {
			return nil, errTooManyRows("a set operation")
		}
		all := appendRows(lb, rb)
		if op == ast.Union {
			all = eval.DistinctBatch(all, len(all.Cols))
		}
		out.rows = all
		return out, nil
	}
	counts := map[string]int{}
	for j := 0; j < rb.N; j++ {
		key = keyOf(rb, j, key[:0])
		counts[string(key)]++
	}
	seen := map[string]bool{}
	var keep []int32
	for i := 0; i < lb.N; i++ {
		key = keyOf(lb, i, key[:0])
		k := string(key)
		switch op {
		case ast.Intersect:
			if counts[k] > 0 && !seen[k] {
				keep = append(keep, int32(i))
			}
			seen[k] = true
		case ast.IntersectAll:
			if counts[k] > 0 {
				counts[k]--
				keep = append(keep, int32(i))
			}
		case ast.Except:
			if counts[k] == 0 && !seen[k] {
				keep = append(keep, int32(i))
			}
			seen[k] = true
		case ast.ExceptAll:
			if counts[k] > 0 {
				counts[k]--
			} else {
				keep = append(keep, int32(i))
			}
		}
	}
	out.rows = eval.GatherBatch(lb, keep)
	return out, nil
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

// castRows casts a batch's columns to types ts.
func castRows(b *engine.Batch, ts []engine.Type) (*engine.Batch, error) {
	out := &engine.Batch{N: b.N, Cols: make([]*engine.Vec, len(b.Cols))}
	for k, v := range b.Cols {
		if v.T == ts[k] || castTarget(v.T, ts[k]) == v.T || (v.T.Kind == ts[k].Kind && ts[k].Kind == engine.KindNumeric && ts[k].Prec == 0) {
			out.Cols[k] = v
			continue
		}
		c, err := eval.Cast(v, ts[k])
		if err != nil {
			return nil, err
		}
		out.Cols[k] = c
	}
	return out, nil
}

// appendRows is a's rows followed by b's.
func appendRows(a, b *engine.Batch) *engine.Batch {
	out := &engine.Batch{N: a.N + b.N, Cols: make([]*engine.Vec, len(a.Cols))}
	for k := range a.Cols {
		v := &engine.Vec{T: a.Cols[k].T}
		for _, src := range []*engine.Vec{a.Cols[k], b.Cols[k]} {
			for i := 0; i < src.N; i++ {
				v.AppendRow(src, i)
			}
		}
		out.Cols[k] = v
	}
	return out
}

// finishSet makes the host plan that returns a set operation's rows with
// its ORDER BY and LIMIT.
func (b *binder) finishSet(r *setRows, order *ast.OrderByClause, limit *ast.Limit) (*engine.Plan, []engine.ResultColumn, error) {
	src, err := batchSource("set operation", "", r.names, r.types, r.rows)
	if err != nil {
		return nil, nil, err
	}
	fb := &binder{s: b.s, params: b.params, st: b.st, outer: b.outer, src: src}
	b.params.mapMarkers(limit)
	p := &engine.Plan{Table: src.name, Host: true, Schema: src.cols, Data: src.data, Limit: -1}
	var cols []engine.ResultColumn
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
	rows, err := b.collect(p, "a set operation")
	if err != nil {
		return nil, err
	}
	return &setRows{names: r.names, types: r.types, rows: rows}, nil
}
