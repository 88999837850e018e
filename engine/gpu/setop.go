package gpu

import (
	"context"

	"github.com/gpusql/gpusql/cuda"
	"github.com/gpusql/gpusql/engine"
)

// Set operations on the device. UNION ALL appends the right side's rows
// to the left's (the loader's device Concat); UNION, INTERSECT and EXCEPT
// are a GROUP BY of every column over both sides' rows, each tagged with
// its side: a group is a row of the result when both sides (INTERSECT),
// only the left (EXCEPT), or either (UNION) have it. INTERSECT ALL and
// EXCEPT ALL count each side's copies of a group and repeat the group's
// row as often as the result keeps it (setOpAll).
func (b *Backend) setOp(ctx context.Context, s *engine.SetOp) (*Table, error) {
	if s.Op == engine.SetUnion && s.All {
		l, err := b.materialize(ctx, s.Left)
		if err != nil {
			return nil, err
		}
		defer l.Release()
		r, err := b.materialize(ctx, s.Right)
		if err != nil {
			return nil, err
		}
		defer r.Release()
		if t, ok, err := b.unionAllScales(l, r, s.Cols); ok || err != nil {
			return t, err
		}
		for k := range l.Cols {
			if l.Cols[k].Type != r.Cols[k].Type {
				// stored differently (numerics of other scales): through
				// a pipeline that casts the right side to the left's types
				return b.materialize(ctx, unionAllCast(s, l, r))
			}
		}
		if r.N == 0 {
			return l.copyOf(b)
		}
		if l.N == 0 {
			return r.copyOf(b)
		}
		d, err := b.loader.Concat("", l, r)
		if err != nil {
			return nil, err
		}
		return d.(*Table), nil
	}
	n := len(s.Cols)
	tagged := func(side engine.Rel, tag int64) *engine.Plan {
		p := &engine.Plan{Input: side, Table: "(side)", Limit: -1}
		for i, c := range s.Cols {
			p.Project = append(p.Project, &engine.ColRef{Idx: i, Name: c.Name, T: c.Type})
			p.Names = append(p.Names, c.Name)
		}
		p.Project = append(p.Project, &engine.Const{T: engine.Int32, I: tag})
		p.Names = append(p.Names, "side")
		p.Visible = len(p.Project)
		return p
	}
	cols := append(append([]engine.ColumnDef(nil), s.Cols...), engine.ColumnDef{Name: "side", Type: engine.Int32})
	both := &engine.SetOp{Op: engine.SetUnion, All: true, Left: tagged(s.Left, 0), Right: tagged(s.Right, 1), Cols: cols}
	g := &engine.Plan{Input: both, Table: "(set)", Limit: -1, Aggregate: true}
	for i, c := range s.Cols {
		g.GroupBy = append(g.GroupBy, &engine.ColRef{Idx: i, Name: c.Name, T: c.Type})
		g.Project = append(g.Project, &engine.ColRef{Idx: i, Name: c.Name, T: c.Type})
		g.Names = append(g.Names, c.Name)
	}
	g.Visible = n
	sideRef := &engine.ColRef{Idx: n, Name: "side", T: engine.Int32}
	g.Aggs = []engine.AggCall{
		{Func: engine.AggSum, Arg: sideRef, T: engine.Int64}, // the right side's rows
		{Func: engine.AggCountStar, T: engine.Int64},
	}
	if s.All {
		for _, name := range []string{"sum", "count"} {
			g.Project = append(g.Project, &engine.ColRef{Idx: len(g.Project), Name: name, T: engine.Int64})
			g.Names = append(g.Names, name)
		}
		g.Visible = n + 2
		return b.setOpAll(ctx, s, g)
	}
	right := &engine.ColRef{Idx: n, Name: "sum", T: engine.Int64}
	total := &engine.ColRef{Idx: n + 1, Name: "count", T: engine.Int64}
	zero := &engine.Const{T: engine.Int64, I: 0}
	switch s.Op {
	case engine.SetIntersect:
		g.Having = &engine.Call{Op: engine.OpAnd, T: engine.Bool, Args: []engine.Expr{
			&engine.Call{Op: engine.OpGt, T: engine.Bool, Args: []engine.Expr{right, zero}},
			&engine.Call{Op: engine.OpLt, T: engine.Bool, Args: []engine.Expr{right, total}},
		}}
	case engine.SetExcept:
		g.Having = &engine.Call{Op: engine.OpEq, T: engine.Bool, Args: []engine.Expr{right, zero}}
	}
	return b.materialize(ctx, g)
}

// setOpAll finishes INTERSECT ALL and EXCEPT ALL over g, the groups of
// both sides' rows with, after the columns, the right side's copies and
// all copies of each. A group with l copies on the left and r on the
// right is min(l, r) rows of INTERSECT ALL and max(l-r, 0) of EXCEPT
// ALL, as in PostgreSQL. The two counts come to the host (8 bytes a
// distinct row each), which lists the rows to repeat, and the device
// gathers them.
func (b *Backend) setOpAll(ctx context.Context, s *engine.SetOp, g *engine.Plan) (*Table, error) {
	gt, err := b.materialize(ctx, g)
	if err != nil {
		return nil, err
	}
	defer gt.Release()
	n := len(s.Cols)
	rc, err := gt.DownloadColumn(n)
	if err != nil {
		return nil, err
	}
	tc, err := gt.DownloadColumn(n + 1)
	if err != nil {
		return nil, err
	}
	var idx []int32
	for i := range gt.N {
		r := rc.I64[i]
		l := tc.I64[i] - r
		m := min(l, r)
		if s.Op == engine.SetExcept {
			m = max(l-r, 0)
		}
		for range m {
			idx = append(idx, int32(i))
		}
	}
	out := &Table{N: int64(len(idx)), Dev: b.dev, Cols: make([]*Column, n)}
	var dIdx *cuda.Buffer
	if len(idx) > 0 {
		if dIdx, err = b.dev.Alloc("", 4*int64(len(idx))); err != nil {
			return nil, err
		}
		defer dIdx.Free()
		if err := b.dev.CopyHtoD(dIdx.Ptr(), sliceBytes(idx), nil); err != nil {
			return nil, err
		}
	}
	for k := range n {
		var p uint64
		if dIdx != nil {
			p = uint64(dIdx.Ptr())
		}
		if out.Cols[k], err = b.gatherRows(gt.Cols[k], p, out.N, false); err != nil {
			out.Release()
			return nil, err
		}
	}
	return out, nil
}

// unionAllCast is UNION ALL with each side cast to the output types.
func unionAllCast(s *engine.SetOp, l, r *Table) engine.Rel {
	cast := func(side engine.Rel) engine.Rel {
		p := &engine.Plan{Input: side, Table: "(side)", Limit: -1}
		for i, c := range s.Cols {
			var e engine.Expr = &engine.ColRef{Idx: i, Name: c.Name, T: c.Type}
			if c.Type.Kind == engine.KindNumeric {
				t := engine.NumericType(18, max(l.Cols[i].Type.Scale, r.Cols[i].Type.Scale))
				e = &engine.Call{Op: engine.OpCast, Args: []engine.Expr{e}, T: t}
			}
			p.Project = append(p.Project, e)
			p.Names = append(p.Names, c.Name)
		}
		p.Visible = len(p.Project)
		return p
	}
	return &engine.SetOp{Op: engine.SetUnion, All: true, Left: cast(s.Left), Right: cast(s.Right), Cols: s.Cols}
}

// copyOf is a table with t's rows in buffers of its own.
func (t *Table) copyOf(b *Backend) (*Table, error) {
	out := &Table{N: t.N, Dev: b.dev, Cols: make([]*Column, len(t.Cols))}
	for k, c := range t.Cols {
		col, err := b.gatherColumn(c, 0, t.N, true)
		if err != nil {
			out.Release()
			return nil, err
		}
		out.Cols[k] = col
	}
	return out, nil
}

// unionAllScales is UNION ALL where an unconstrained numeric column of the
// result takes rows of several scales: the sides store other scales, or a
// side's rows keep their own (rowScales). PostgreSQL shows each row at its
// own scale, so the sides meet on the host (ConcatOnHost) and the result
// is uploaded as a rowScales column. ok is false where no column needs
// it, or another column differs in type between the sides (unionAllCast
// then casts).
func (b *Backend) unionAllScales(l, r *Table, cols []engine.ColumnDef) (*Table, bool, error) {
	need := false
	for k := range l.Cols {
		lc, rc := l.Cols[k], r.Cols[k]
		mixed := cols[k].Type.Kind == engine.KindNumeric && cols[k].Type.Prec == 0 &&
			lc.Type.Kind == engine.KindNumeric && rc.Type.Kind == engine.KindNumeric &&
			(lc.Type.Scale != rc.Type.Scale || lc.rowScales || rc.rowScales)
		switch {
		case mixed:
			need = true
		case lc.Type != rc.Type || lc.rowScales || rc.rowScales:
			return nil, false, nil
		}
	}
	if !need {
		return nil, false, nil
	}
	t, err := ConcatOnHost(b.dev, "", l, r)
	return t, err == nil, err
}
