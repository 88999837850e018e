package gpu

import (
	"context"
	"fmt"

	"github.com/gpusql/gpusql/cuda"
	"github.com/gpusql/gpusql/engine"
)

// Filtering before an interpreted aggregate. When the generated kernel
// refuses an aggregate (too many groups, wide keys), the interpreter
// groups the rows in one pass (q_group) and accumulates them in another
// (q_agg), and each pass evaluates the WHERE over every row of the table.
// TPC-H Q15 sums a quarter's lineitems, 2 M of 60 M rows, by supplier:
// both passes read and test all 60 M. narrowRows runs the filter once
// (selection: the comparison kernel or q_filter), gathers the columns the
// aggregate reads for the rows that pass into a table of the run's
// scratch, and returns the plan without its filter over that table.

// narrowRows returns p with its filter applied (see the top) and a run
// over the rows that passed, which shares r's scratch; r itself is left
// as it was, for a caller that falls back to another path. r and p come
// back when p has no filter. Small tables take this path too: the filter
// pass is three launches, and the tests of every size run it.
func (r *run) narrowRows(ctx context.Context, p *engine.Plan) (*run, *engine.Plan, error) {
	if p.Filter == nil || r.n == 0 || len(p.GroupingSets) > 0 {
		return r, p, nil
	}
	read := map[int]bool{}
	mark := func(e engine.Expr) {
		engine.WalkExpr(e, func(x engine.Expr) bool {
			if c, ok := x.(*engine.ColRef); ok {
				read[c.Idx] = true
			}
			return true
		})
	}
	for _, g := range p.GroupBy {
		mark(g)
	}
	for _, a := range p.Aggs {
		for _, e := range a.Exprs() {
			mark(e)
		}
	}
	sel, n, err := r.selection(p.Filter, -1)
	if err != nil {
		return nil, nil, err
	}
	q := *p
	q.Filter = nil
	if n == r.n {
		return r, &q, nil // every row passed: the table as it is
	}
	cols := make([]*Column, len(r.t.Cols))
	for k, c := range r.t.Cols {
		if !read[k] {
			cols[k] = &Column{Type: c.Type, Width: c.Width} // never read
			continue
		}
		g, err := r.b.gatherRows(c, sel, n, false)
		if err != nil {
			return nil, nil, err
		}
		for _, b := range []*cuda.Buffer{g.Data, g.Valid} {
			if b != nil {
				r.s.bufs = append(r.s.bufs, b) // freed with the run
			}
		}
		// its statistics are the unfiltered column's (columnDistinct):
		// those of a stored table are sampled once, not every query
		g.origin = c.origin
		if g.origin == nil {
			g.origin = &colOrigin{t: r.t, col: k}
		}
		cols[k] = g
	}
	nr := *r
	nr.t = &Table{Cols: cols, N: n, Dev: r.t.Dev}
	nr.n = n
	if nr.cols, err = r.s.upload(sliceBytes(qCols(cols))); err != nil {
		return nil, nil, err
	}
	if l := engine.StepLogOf(ctx); l != nil {
		l.Note(fmt.Sprintf("Interpreter: the WHERE ran once; %d of %d rows passed, and %d of their columns were gathered for the aggregate", n, r.n, len(read)))
	}
	return &nr, &q, nil
}
