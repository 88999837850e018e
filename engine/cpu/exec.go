// Package cpu is gpusql's CPU backend. It runs the same stages as the GPU
// backend, over column batches, with goroutines where the work is large.
package cpu

import (
	"context"
	"fmt"
	"runtime"
	"sort"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/eval"
)

// Backend is the CPU backend.
type Backend struct {
	loader  engine.Loader
	workers int
}

// New returns a CPU backend that loads with l.
func New(l engine.Loader, workers int) *Backend {
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	return &Backend{loader: l, workers: workers}
}

var _ engine.Backend = (*Backend)(nil)

// Name names the backend.
func (b *Backend) Name() string { return fmt.Sprintf("cpu (%d cores)", b.workers) }

// Load parses CSV with the CPU loader.
func (b *Backend) Load(ctx context.Context, req *engine.LoadRequest) (*engine.LoadResult, error) {
	return b.loader.Load(ctx, req)
}

func canceled(ctx context.Context) error {
	if ctx.Err() != nil {
		return engine.Errorf(engine.CodeQueryCanceled, "canceling statement due to user request")
	}
	return nil
}

// Execute runs a plan: scan → filter → aggregate or project → sort →
// limit, streaming results to sink in batches.
func (b *Backend) Execute(ctx context.Context, p *engine.Plan, sink engine.BatchSink) error {
	var host *engine.HostTable
	rows := 1 // no FROM: one row without columns
	if p.Table != "" {
		rows = 0 // a table never loaded
	}
	if p.Data != nil {
		h, ok := p.Data.(*engine.HostTable)
		if !ok {
			return engine.Errorf(engine.CodeInternalError, "cpu backend cannot read %T table data", p.Data)
		}
		host = h
		rows = int(h.N)
	}
	em := &emitter{plan: p, sink: sink, limit: p.Limit, offset: p.Offset}
	buffered := len(p.OrderBy) > 0 || p.Distinct
	var agg *aggregator
	var used []bool
	if host != nil {
		used = usedColumns(len(host.Cols), append(append([]engine.Expr{p.Filter}, p.Project...), exprsOf(p)...)...)
	}
	if p.Aggregate {
		agg = newAggregator(p)
	}
	var collected *engine.Batch
	for lo := 0; lo < rows; lo += batchRows {
		if err := canceled(ctx); err != nil {
			return err
		}
		hi := min(lo+batchRows, rows)
		in := &engine.Batch{N: hi - lo}
		if host != nil {
			in.Cols = make([]*engine.Vec, len(host.Cols))
			for c, col := range host.Cols {
				if used[c] {
					in.Cols[c] = scanColumn(col, lo, hi)
				}
			}
		}
		if p.Filter != nil {
			sel, err := filter(ctx, p.Filter, in)
			if err != nil {
				return err
			}
			if len(sel) == 0 {
				continue
			}
			in = eval.GatherBatch(in, sel)
		}
		if agg != nil {
			if err := agg.consume(func(e engine.Expr) (*engine.Vec, error) { return eval.Eval(ctx, e, in) }, in.N); err != nil {
				return err
			}
			continue
		}
		out, err := project(ctx, p.Project, in)
		if err != nil {
			return err
		}
		if buffered {
			collected = appendBatch(collected, out)
			continue
		}
		if done, err := em.emit(out); err != nil || done {
			return err
		}
	}
	if agg != nil {
		res, err := agg.result()
		if err != nil {
			return err
		}
		if p.Having != nil {
			sel, err := filter(ctx, p.Having, res)
			if err != nil {
				return err
			}
			res = eval.GatherBatch(res, sel)
		}
		out, err := project(ctx, p.Project, res)
		if err != nil {
			return err
		}
		if !buffered {
			_, err := em.emit(out)
			return err
		}
		collected = appendBatch(collected, out)
	}
	if collected == nil {
		return nil
	}
	if p.Distinct {
		collected = distinct(collected, p.Visible)
	}
	if len(p.OrderBy) > 0 {
		collected = sortBatch(collected, p.OrderBy)
	}
	for lo := 0; lo < collected.N; lo += batchRows {
		if err := canceled(ctx); err != nil {
			return err
		}
		hi := min(lo+batchRows, collected.N)
		sel := make([]int32, hi-lo)
		for k := range sel {
			sel[k] = int32(lo + k)
		}
		if done, err := em.emit(eval.GatherBatch(collected, sel)); err != nil || done {
			return err
		}
	}
	return nil
}

func exprsOf(p *engine.Plan) []engine.Expr {
	var out []engine.Expr
	out = append(out, p.GroupBy...)
	for _, a := range p.Aggs {
		if a.Arg != nil {
			out = append(out, a.Arg)
		}
	}
	return out
}

// filter returns the rows where pred is true (not false, not NULL).
func filter(ctx context.Context, pred engine.Expr, in *engine.Batch) ([]int32, error) {
	v, err := eval.Eval(ctx, pred, in)
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

func project(ctx context.Context, exprs []engine.Expr, in *engine.Batch) (*engine.Batch, error) {
	out := &engine.Batch{N: in.N, Cols: make([]*engine.Vec, len(exprs))}
	for k, e := range exprs {
		v, err := eval.Eval(ctx, e, in)
		if err != nil {
			return nil, err
		}
		out.Cols[k] = v
	}
	return out, nil
}

// appendBatch concatenates b onto acc, copying values (strings included,
// so the result does not pin table storage of filtered-out rows... nor
// alias buffers that later batches reuse).
func appendBatch(acc, b *engine.Batch) *engine.Batch {
	if acc == nil {
		acc = &engine.Batch{Cols: make([]*engine.Vec, len(b.Cols))}
		for k, v := range b.Cols {
			acc.Cols[k] = engine.NewVec(v.T, 0)
		}
	}
	for k, v := range b.Cols {
		a := acc.Cols[k]
		if v.Null != nil && a.Null == nil {
			a.Null = make([]bool, a.N, a.N+v.N)
		}
		if a.Null != nil {
			if v.Null != nil {
				a.Null = append(a.Null, v.Null...)
			} else {
				a.Null = append(a.Null, make([]bool, v.N)...)
			}
		}
		switch engine.PhysOf(a.T.Kind) {
		case engine.PhysInt:
			a.I = append(a.I, v.I...)
		case engine.PhysFloat:
			a.F = append(a.F, v.F...)
		case engine.PhysDec:
			a.D = append(a.D, v.D...)
		case engine.PhysStr:
			a.S = append(a.S, v.S...)
		case engine.PhysInterval:
			a.V = append(a.V, v.V...)
		}
		a.N += v.N
	}
	acc.N += b.N
	return acc
}

// sortBatch orders rows by keys, stable, with PostgreSQL's NULL placement.
func sortBatch(b *engine.Batch, keys []engine.SortKey) *engine.Batch {
	idx := make([]int32, b.N)
	for i := range idx {
		idx[i] = int32(i)
	}
	sort.SliceStable(idx, func(x, y int) bool {
		i, j := int(idx[x]), int(idx[y])
		for _, k := range keys {
			v := b.Cols[k.Col]
			ni, nj := v.IsNull(i), v.IsNull(j)
			if ni || nj {
				if ni == nj {
					continue
				}
				return ni == k.NullsFirst
			}
			c := eval.CompareSlot(v, i, v, j)
			if c == 0 {
				continue
			}
			if k.Desc {
				return c > 0
			}
			return c < 0
		}
		return false
	})
	return eval.GatherBatch(b, idx)
}

// distinct keeps the first row of each set of equal visible values.
func distinct(b *engine.Batch, visible int) *engine.Batch {
	seen := map[string]struct{}{}
	var key []byte
	sel := make([]int32, 0, b.N)
	for i := 0; i < b.N; i++ {
		key = key[:0]
		for _, v := range b.Cols[:visible] {
			key = appendKey(key, v, i)
		}
		if _, ok := seen[string(key)]; ok {
			continue
		}
		seen[string(key)] = struct{}{}
		sel = append(sel, int32(i))
	}
	return eval.GatherBatch(b, sel)
}

// emitter applies OFFSET and LIMIT and hands visible columns to the sink.
type emitter struct {
	plan   *engine.Plan
	sink   engine.BatchSink
	limit  int64
	offset int64
	sent   int64
}

// emit sends what of b survives offset and limit; done reports that the
// limit has been reached.
func (e *emitter) emit(b *engine.Batch) (done bool, err error) {
	if e.limit >= 0 && e.sent >= e.limit {
		return true, nil
	}
	lo, hi := 0, b.N
	if e.offset > 0 {
		skip := min(int64(hi), e.offset)
		e.offset -= skip
		lo = int(skip)
	}
	if e.limit >= 0 && int64(hi-lo) > e.limit-e.sent {
		hi = lo + int(e.limit-e.sent)
	}
	if hi > lo {
		out := b
		if lo != 0 || hi != b.N {
			sel := make([]int32, hi-lo)
			for k := range sel {
				sel[k] = int32(lo + k)
			}
			out = eval.GatherBatch(b, sel)
		}
		out = &engine.Batch{N: out.N, Cols: out.Cols[:e.plan.Visible]}
		if err := e.sink(out); err != nil {
			return true, err
		}
		e.sent += int64(hi - lo)
	}
	return e.limit >= 0 && e.sent >= e.limit, nil
}
