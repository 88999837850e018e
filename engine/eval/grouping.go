package eval

import (
	"context"

	"github.com/gpusql/gpusql/engine"
)

// RunGroupingSets runs p, a plan with grouping sets, on a backend: run
// executes each set's aggregation (engine.Plan.SetPlan) on the backend
// (the GPU backend on the device), and the rows of all sets, in the
// GroupBy layout with each set's constants filled in, go through p's
// HAVING, projection, DISTINCT, ORDER BY and OFFSET/LIMIT here, as the
// backends finish any aggregate's groups on the host.
func RunGroupingSets(ctx context.Context, p *engine.Plan, run func(*engine.Plan, engine.BatchSink) error, sink engine.BatchSink) error {
	ng := len(p.GroupBy)
	all := &engine.Batch{}
	for _, g := range p.GroupBy {
		all.Cols = append(all.Cols, engine.NewVec(g.Type(), 0))
	}
	for _, a := range p.Aggs {
		all.Cols = append(all.Cols, engine.NewVec(a.T, 0))
	}
	for _, s := range p.GroupingSets {
		consts := make([]*engine.Vec, ng)
		for c, e := range s.Values {
			if e != nil {
				v, err := Eval(ctx, e, &engine.Batch{N: 1})
				if err != nil {
					return err
				}
				consts[c] = v
			}
		}
		q := p.SetPlan(s)
		err := run(q, func(b *engine.Batch) error {
			for i := 0; i < b.N; i++ {
				for k, key := range s.Keys {
					all.Cols[key].AppendRow(b.Cols[k], i)
				}
				for c, v := range consts {
					if v != nil {
						all.Cols[c].AppendRow(v, 0)
					}
				}
				for k := range p.Aggs {
					all.Cols[ng+k].AppendRow(b.Cols[len(s.Keys)+k], i)
				}
			}
			all.N += b.N
			return nil
		})
		if err != nil {
			return err
		}
	}
	res := all
	if p.Having != nil {
		hv, err := Eval(ctx, p.Having, res)
		if err != nil {
			return err
		}
		var sel []int32
		for i := 0; i < res.N; i++ {
			if !hv.IsNull(i) && hv.I[i] != 0 {
				sel = append(sel, int32(i))
			}
		}
		res = gatherAll(res, sel)
	}
	out := &engine.Batch{N: res.N, Cols: make([]*engine.Vec, len(p.Project))}
	for k, e := range p.Project {
		v, err := Eval(ctx, e, res)
		if err != nil {
			return err
		}
		out.Cols[k] = v
	}
	out = FinishRows(out, p)
	lo := int(min(p.Offset, int64(out.N)))
	hi := out.N
	if p.Limit >= 0 && int64(hi-lo) > p.Limit {
		hi = lo + int(p.Limit)
	}
	for b := lo; b < hi; b += 4096 {
		if ctx.Err() != nil {
			return engine.Errorf(engine.CodeQueryCanceled, "canceling statement due to user request")
		}
		e := min(b+4096, hi)
		sel := make([]int32, e-b)
		for k := range sel {
			sel[k] = int32(b + k)
		}
		g := GatherBatch(out, sel)
		if err := sink(&engine.Batch{N: g.N, Cols: g.Cols[:p.Visible]}); err != nil {
			return err
		}
	}
	return nil
}

// gatherAll is GatherBatch, also when sel is empty.
func gatherAll(b *engine.Batch, sel []int32) *engine.Batch {
	if len(sel) > 0 {
		return GatherBatch(b, sel)
	}
	out := &engine.Batch{Cols: make([]*engine.Vec, len(b.Cols))}
	for k, v := range b.Cols {
		out.Cols[k] = engine.NewVec(v.T, 0)
	}
	return out
}

// FinishRows applies p's DISTINCT (or DISTINCT ON) and ORDER BY to its
// projected rows, as both backends do on the host.
func FinishRows(b *engine.Batch, p *engine.Plan) *engine.Batch {
	if p.Distinct && len(p.DistinctOn) > 0 {
		return DistinctOnBatch(b, p.OrderBy, p.DistinctOn)
	}
	if p.Distinct {
		b = DistinctBatch(b, p.Visible)
	}
	if len(p.OrderBy) > 0 {
		b = SortBatch(b, p.OrderBy)
	}
	return b
}

// DistinctOnBatch is DISTINCT ON (cols) with ORDER BY keys: the rows
// sorted (stably), then the first of each set of equal values of cols.
func DistinctOnBatch(b *engine.Batch, keys []engine.SortKey, cols []int) *engine.Batch {
	if len(keys) > 0 {
		b = SortBatch(b, keys)
	}
	seen := map[string]struct{}{}
	var key []byte
	sel := make([]int32, 0, b.N)
	for i := 0; i < b.N; i++ {
		key = key[:0]
		for _, c := range cols {
			key = AppendKey(key, b.Cols[c], i)
		}
		if _, ok := seen[string(key)]; ok {
			continue
		}
		seen[string(key)] = struct{}{}
		sel = append(sel, int32(i))
	}
	return GatherBatch(b, sel)
}
