package gpu

import (
	"context"
	"runtime"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/cpu"
)

// Aggregations as host steps. An aggregate query whose aggregates the
// kernels refuse (percentile_cont, percentile_disc and mode, which need
// each group's values sorted; the statistics over numerics whose scale
// varies by row; DISTINCT forms without a device pass) has its rows
// chosen and its GROUP BY keys and aggregate arguments computed on the
// device (the filter, the host steps before it and every expression);
// those columns of the selected rows come to the host once, and the CPU
// backend's aggregation runs over them: its groups, aggregates, HAVING,
// select list, ORDER BY and LIMIT, so results and errors are the CPU's.
// Constant arguments (a percentile's fraction) stay constants.

// hostAggregated reports whether aggregate a has no device pass: its
// query's aggregation runs on the host.
func hostAggregated(a engine.AggCall) bool {
	return a.Func.IsOrderedSet() ||
		a.Distinct && !isDistinctPass(a) && a.Func != engine.AggMin && a.Func != engine.AggMax && a.Func != engine.AggStringAgg
}

// hostAggregate runs aggregate plan p (after its host steps) as above
// and writes its rows to sink.
func (r *run) hostAggregate(ctx context.Context, p *engine.Plan, sink engine.BatchSink) error {
	q, exprs := hostAggPlan(p)
	types := make([]engine.Type, len(exprs))
	for k, e := range exprs {
		types[k] = e.Type()
	}
	var sel uint64
	n := r.n
	var err error
	if p.Filter != nil && n > 0 {
		if sel, n, err = r.selection(p.Filter, -1); err != nil {
			return err
		}
	}
	var batches []*engine.Batch
	if n > 0 {
		b := &engine.Batch{N: int(n)}
		if len(exprs) > 0 {
			if b, err = r.outputs(exprs, sel, n, nil); err != nil {
				return err
			}
		}
		batches = append(batches, b)
	}
	h, err := engine.HostFromBatches(types, batches)
	if err != nil {
		return err
	}
	q.Data = engine.NewHostTable(h.Cols, n)
	return cpu.New(nil, runtime.GOMAXPROCS(0)).Execute(ctx, q, sink)
}

// hostAggPlan is p over the table of exprs (its rows those passing p's
// filter): its GROUP BY keys and aggregate arguments become column
// references, its constants stay.
func hostAggPlan(p *engine.Plan) (*engine.Plan, []engine.Expr) {
	var exprs []engine.Expr
	ref := func(e engine.Expr) engine.Expr {
		if e == nil {
			return nil
		}
		if k, ok := e.(*engine.Const); ok {
			return k
		}
		exprs = append(exprs, e)
		return &engine.ColRef{Idx: len(exprs) - 1, Name: "a", T: e.Type()}
	}
	q := *p
	q.Input, q.Filter, q.GroupingSets, q.Data = nil, nil, nil, nil
	q.GroupBy = make([]engine.Expr, len(p.GroupBy))
	for k, g := range p.GroupBy {
		q.GroupBy[k] = ref(g)
	}
	q.Aggs = make([]engine.AggCall, len(p.Aggs))
	for k, a := range p.Aggs {
		a.Arg, a.Sep, a.Arg2 = ref(a.Arg), ref(a.Sep), ref(a.Arg2)
		a.Order = append([]engine.AggOrder(nil), a.Order...)
		for i := range a.Order {
			a.Order[i].Expr = ref(a.Order[i].Expr)
		}
		q.Aggs[k] = a
	}
	q.Schema = make([]engine.ColumnDef, len(exprs))
	for k, e := range exprs {
		q.Schema[k] = engine.ColumnDef{Name: "a", Type: e.Type()}
	}
	q.Table = "(aggregate input)"
	return &q, exprs
}
