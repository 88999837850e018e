package eval

import (
	"context"

	"github.com/gpusql/gpusql/engine"
)

// Select returns the rows of in where pred is true (not false, not NULL),
// in order. A conjunction is evaluated one conjunct at a time, each on
// the rows the ones before it left undecided (true or NULL), as AND
// evaluates its right operand: rows are compacted before a conjunct that
// can fail, and before any once few remain, so a selective first test
// spares the later ones most of the batch.
func Select(ctx context.Context, pred engine.Expr, in *engine.Batch) ([]int32, error) {
	conj := conjuncts(pred, nil)
	if len(conj) == 1 {
		v, err := Eval(ctx, pred, in)
		if err != nil {
			return nil, err
		}
		sel := make([]int32, 0, in.N)
		for i := 0; i < in.N; i++ {
			if v.I[i] != 0 && !v.IsNull(i) {
				sel = append(sel, int32(i))
			}
		}
		return sel, nil
	}
	// cur holds rows idx of in (idx nil: all of them); state[j] is row
	// j's result so far: 0 false, 1 true, 2 NULL.
	cur := in
	var idx []int32
	state := make([]uint8, in.N)
	for i := range state {
		state[i] = 1
	}
	live := in.N
	for k, c := range conj {
		if k > 0 && (live < cur.N && CanFail(c) || live <= cur.N/2) {
			keep := make([]int32, 0, live)
			for j, s := range state {
				if s != 0 {
					keep = append(keep, int32(j))
				}
			}
			cur = gatherUsed(cur, keep, conj[k:])
			if idx == nil {
				idx = keep
			} else {
				for j, r := range keep {
					keep[j] = idx[r]
				}
				idx = keep
			}
			compact := state[:0]
			for _, s := range state {
				if s != 0 {
					compact = append(compact, s)
				}
			}
			state = compact
		}
		v, err := Eval(ctx, c, cur)
		if err != nil {
			return nil, err
		}
		live = 0
		for j, s := range state {
			if s == 0 {
				continue
			}
			switch {
			case v.IsNull(j):
				state[j] = 2
			case v.I[j] == 0:
				state[j] = 0
				continue
			}
			live++
		}
		if live == 0 {
			return nil, nil
		}
	}
	sel := make([]int32, 0, live)
	for j, s := range state {
		if s == 1 {
			if idx != nil {
				sel = append(sel, idx[j])
			} else {
				sel = append(sel, int32(j))
			}
		}
	}
	return sel, nil
}

// conjuncts appends the operands of e's top-level ANDs, left to right.
func conjuncts(e engine.Expr, dst []engine.Expr) []engine.Expr {
	if c, ok := e.(*engine.Call); ok && c.Op == engine.OpAnd {
		return conjuncts(c.Args[1], conjuncts(c.Args[0], dst))
	}
	return append(dst, e)
}

// gatherUsed gathers rows of the columns of in that exprs read.
func gatherUsed(in *engine.Batch, rows []int32, exprs []engine.Expr) *engine.Batch {
	used := make([]bool, len(in.Cols))
	for _, e := range exprs {
		markCols(e, used)
	}
	out := &engine.Batch{N: len(rows), Cols: make([]*engine.Vec, len(in.Cols))}
	for c, v := range in.Cols {
		if v != nil && used[c] {
			out.Cols[c] = v.Gather(rows)
		}
	}
	return out
}

// markCols marks the columns e reads.
func markCols(e engine.Expr, used []bool) {
	switch e := e.(type) {
	case *engine.ColRef:
		if e.Idx >= 0 && e.Idx < len(used) {
			used[e.Idx] = true
		}
	case *engine.Call:
		for _, a := range e.Args {
			markCols(a, used)
		}
	case *engine.HostFunc:
		for _, a := range e.Args {
			markCols(a, used)
		}
	case *engine.Case:
		for i := range e.Conds {
			markCols(e.Conds[i], used)
			markCols(e.Results[i], used)
		}
		if e.Else != nil {
			markCols(e.Else, used)
		}
	case *engine.Const, nil:
	default: // an expression eval does not know reads nothing it can see; keep all
		for i := range used {
			used[i] = true
		}
	}
}
