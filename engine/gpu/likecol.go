package gpu

import (
	"context"

	"github.com/gpusql/gpusql/engine"
)

// LIKE for the interpreter. The interpreter's OP_LIKE matches each row's
// string byte by byte with backtracking, from global memory, in a thread
// that also dispatches the rest of the program: ClickBench's `URL LIKE
// '%google%'` over 10 M rows took 40 ms there. When a plan runs on the
// interpreter (the fused path refused it), each `col LIKE const` (or
// ILIKE) of its WHERE becomes a boolean column computed first by the LIKE
// kernels (likeKernel: q_like_sub for '%lit%', else q_like_bits), a byte a
// row, NULL where the string is; the filter reads it as any other column.
// The column lives in the run's scratch, as a host step's does.

// likeColumns returns p with the LIKEs of its filter read from computed
// columns (p itself when there are none); r.t and r.cols gain the columns.
func (r *run) likeColumns(ctx context.Context, p *engine.Plan) (*engine.Plan, error) {
	if p.Filter == nil || r.n == 0 {
		return p, nil
	}
	var names []string
	var walk func(e engine.Expr) (engine.Expr, error)
	walk = func(e engine.Expr) (engine.Expr, error) {
		switch x := e.(type) {
		case *engine.Call:
			if x.Op == engine.OpLike || x.Op == engine.OpILike {
				ref, ok := x.Args[0].(*engine.ColRef)
				if !ok {
					return e, nil
				}
				out, err := r.s.alloc(r.n)
				if err != nil {
					return nil, err
				}
				if ok, err := r.likeKernel(x, ref.Idx, out, true); !ok || err != nil {
					return e, err
				}
				src := r.t.Cols[ref.Idx]
				r.t = &Table{Cols: append(append([]*Column(nil), r.t.Cols...),
					&Column{Type: engine.Bool, Data: out, Valid: src.Valid, shared: true}), N: r.t.N, Dev: r.t.Dev}
				names = append(names, ref.Name)
				return &engine.ColRef{Idx: len(r.t.Cols) - 1, Name: "(" + x.String() + ")", T: engine.Bool}, nil
			}
			var args []engine.Expr
			for i, a := range x.Args {
				y, err := walk(a)
				if err != nil {
					return nil, err
				}
				if y != a && args == nil {
					args = append([]engine.Expr(nil), x.Args...)
				}
				if args != nil {
					args[i] = y
				}
			}
			if args != nil {
				return &engine.Call{Op: x.Op, Args: args, T: x.T}, nil
			}
		}
		return e, nil
	}
	f, err := walk(p.Filter)
	if err != nil || f == p.Filter {
		return p, err
	}
	if r.cols, err = r.s.upload(sliceBytes(qCols(r.t.Cols))); err != nil {
		return nil, err
	}
	if l := engine.StepLogOf(ctx); l != nil {
		for _, name := range names {
			l.Note("LIKE on " + name + " computed as a boolean column by the LIKE kernels")
		}
	}
	q := *p
	q.Filter = f
	return &q, nil
}
