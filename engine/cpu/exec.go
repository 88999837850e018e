// Package cpu is gpusql's CPU backend. It runs the same stages as the GPU
// backend, over column batches, with goroutines where the work is large.
package cpu

import (
	"context"
	"fmt"
	"runtime"
	"sync"

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

// Load parses CSV with the CPU loader, and computes the zone maps of the
// table it makes, so that the first query finds them.
func (b *Backend) Load(ctx context.Context, req *engine.LoadRequest) (*engine.LoadResult, error) {
	res, err := b.loader.Load(ctx, req)
	if err == nil && res != nil {
		if h, ok := res.Data.(*engine.HostTable); ok {
			h.BuildZoneMaps()
		}
	}
	return res, err
}

// Concat appends host tables (COPY into a loaded table). The new table
// has zone maps of its own, over all its rows.
func (b *Backend) Concat(_ string, x, y engine.TableData) (engine.TableData, error) {
	d, err := engine.ConcatHostData(x, y)
	if err == nil {
		if h, ok := d.(*engine.HostTable); ok {
			h.BuildZoneMaps()
		}
	}
	return d, err
}

func canceled(ctx context.Context) error {
	if ctx.Err() != nil {
		return engine.Errorf(engine.CodeQueryCanceled, "canceling statement due to user request")
	}
	return nil
}

// parallelMinRows is the table size from which a scan is split across
// workers: below it, goroutine start-up costs more than it saves.
const parallelMinRows = 4 * batchRows

// execRun is one execution of a plan over one table snapshot.
type execRun struct {
	p    *engine.Plan
	host *engine.HostTable
	rows int
	used []bool
	// fused: the filter reads only filterCols; the other used columns
	// (restCols) are read after it, at the rows that passed.
	filterCols, restCols []bool
	// live lists the batches the scan reads, in order, when the filter's
	// zone test skips some (prune.go); nil reads them all.
	live []int
	// stored, when not nil, is the filter compiled to loops over the
	// stored columns (fastfilter.go)
	stored *storedFilter
	// eager scans every used column as vectors, with no lazily scanned
	// numerics (lazyColumns): the tests compare the two
	eager bool
}

// morsels is the number of batches the scan reads.
func (r *execRun) morsels() int {
	if r.live != nil {
		return len(r.live)
	}
	return (r.rows + batchRows - 1) / batchRows
}

// morsel scans the i-th batch read and applies the filter. A nil batch
// means no row passed.
func (r *execRun) morsel(ctx context.Context, i int) (*engine.Batch, error) {
	return r.morselBuf(ctx, i, nil)
}

// morselBuf is morsel scanning into bufs (nil: fresh storage), for a
// caller done with the batch before its next morsel.
func (r *execRun) morselBuf(ctx context.Context, i int, bufs *scanBufs) (*engine.Batch, error) {
	if err := canceled(ctx); err != nil {
		return nil, err
	}
	m := i
	if r.live != nil {
		m = r.live[i]
	}
	lo := m * batchRows
	hi := min(lo+batchRows, r.rows)
	in := &engine.Batch{N: hi - lo}
	bufs.startMorsel()
	if r.host != nil && r.p.Filter != nil && r.filterCols != nil {
		return r.filteredMorsel(ctx, lo, hi, bufs)
	}
	var rest []vecBuf
	if bufs != nil {
		rest = bufs.rest
	}
	if r.host != nil {
		in.Cols = make([]*engine.Vec, len(r.host.Cols))
		for c, col := range r.host.Cols {
			switch {
			case !r.used[c]:
			case bufs.isLazy(c):
				in.Cols[c] = bufs.scanLazy(c, col, lo, hi-lo, nil)
			case bufs.isLazyStr(c):
				in.Cols[c] = bufs.scanLazyStr(c, col, lo, hi-lo, nil)
			default:
				in.Cols[c] = scanRows(col, lo, hi-lo, nil, bufOf(rest, c))
			}
		}
	}
	if r.p.Filter != nil {
		sel, err := filter(ctx, r.p.Filter, in)
		if err != nil {
			return nil, err
		}
		if len(sel) == 0 {
			return nil, nil
		}
		in = eval.GatherBatch(in, sel)
	}
	return in, nil
}

// filteredMorsel scans rows [lo, hi) of a stored table through the filter:
// the filter's columns first, then the other used columns only at the
// rows that passed. A filter column that later steps also read is
// gathered; one they do not read is dropped.
func (r *execRun) filteredMorsel(ctx context.Context, lo, hi int, bufs *scanBufs) (*engine.Batch, error) {
	n := hi - lo
	var fb []vecBuf
	if bufs != nil {
		fb = bufs.filter
	}
	if r.stored != nil {
		var sel []int32
		if bufs != nil {
			sel = r.stored.run(lo, n, bufs.sel)
			bufs.sel = sel
		} else {
			sel = r.stored.run(lo, n, nil)
		}
		if len(sel) == 0 {
			return nil, nil
		}
		return r.passed(nil, lo, n, sel, bufs), nil
	}
	in := &engine.Batch{N: n, Cols: make([]*engine.Vec, len(r.host.Cols))}
	for c, col := range r.host.Cols {
		if r.filterCols[c] {
			in.Cols[c] = scanRows(col, lo, n, nil, bufOf(fb, c))
		}
	}
	sel, err := filter(ctx, r.p.Filter, in)
	if err != nil {
		return nil, err
	}
	if len(sel) == 0 {
		return nil, nil
	}
	return r.passed(in, lo, n, sel, bufs), nil
}

// passed is the batch of the used columns at the rows sel of [lo, lo+n)
// that passed the filter: the filter's own columns (in, nil when the
// filter ran on the stored values) gathered, the others scanned there.
func (r *execRun) passed(in *engine.Batch, lo, n int, sel []int32, bufs *scanBufs) *engine.Batch {
	var rb []vecBuf
	if bufs != nil {
		rb = bufs.rest
	}
	all := len(sel) == n
	out := &engine.Batch{N: len(sel), Cols: make([]*engine.Vec, len(r.host.Cols))}
	for c, col := range r.host.Cols {
		read := in != nil && r.filterCols[c]
		switch {
		case !r.restCols[c]:
		case read && all:
			out.Cols[c] = in.Cols[c]
		case read:
			out.Cols[c] = in.Cols[c].Gather(sel)
		case bufs.isLazy(c) && all:
			out.Cols[c] = bufs.scanLazy(c, col, lo, n, nil)
		case bufs.isLazy(c):
			out.Cols[c] = bufs.scanLazy(c, col, lo, 0, sel)
		case bufs.isLazyStr(c) && all:
			out.Cols[c] = bufs.scanLazyStr(c, col, lo, n, nil)
		case bufs.isLazyStr(c):
			out.Cols[c] = bufs.scanLazyStr(c, col, lo, 0, sel)
		case all:
			out.Cols[c] = scanRows(col, lo, n, nil, bufOf(rb, c))
		default:
			out.Cols[c] = scanRows(col, lo, 0, sel, bufOf(rb, c))
		}
	}
	return out
}

// parallel runs f(w, lo, hi) for workers w over contiguous morsel ranges
// and returns the error of the lowest-numbered failing worker.
func parallel(workers, morsels int, f func(w, lo, hi int) error) error {
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			errs[w] = f(w, w*morsels/workers, (w+1)*morsels/workers)
		}(w)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// Execute runs a plan: scan → filter → aggregate or project → distinct →
// sort → offset/limit, streaming results to sink in batches. A plan over
// a tree of joins and set operations runs its input first. Large tables
// are scanned by several workers over contiguous ranges of morsels; their
// results are combined in table order, so output does not depend on
// timing.
func (b *Backend) Execute(ctx context.Context, p *engine.Plan, sink engine.BatchSink) error {
	p, err := b.input(ctx, p) // a plan over a tree: its input first (tree.go)
	if err != nil {
		return err
	}
	if len(p.GroupingSets) > 0 { // one aggregation per set
		return eval.RunGroupingSets(ctx, p, func(q *engine.Plan, s engine.BatchSink) error { return b.Execute(ctx, q, s) }, sink)
	}
	r := &execRun{p: p, rows: 1} // no FROM: one row without columns
	if p.Table != "" {
		r.rows = 0 // a table never loaded
	}
	if p.Data != nil {
		d, err := engine.LocalData(p.Data)
		if err != nil {
			return err
		}
		h, ok := d.(*engine.HostTable)
		if !ok {
			return engine.Errorf(engine.CodeInternalError, "cpu backend cannot read %T table data", p.Data)
		}
		r.host, r.rows = h, int(h.N)
		r.used = usedColumns(len(h.Cols), append(append([]engine.Expr{p.Filter}, p.Project...), exprsOf(p)...)...)
		if p.Filter != nil {
			r.filterCols = usedColumns(len(h.Cols), p.Filter)
			r.restCols = usedColumns(len(h.Cols), append(append([]engine.Expr(nil), p.Project...), exprsOf(p)...)...)
			r.stored = compileStoredFilter(p.Filter, h)
		}
		if p.Filter != nil {
			if t := zoneFilter(p.Filter, h); t != nil {
				r.live = liveMorsels(r.rows, t)
			}
		}
	}
	workers := min(b.workers, r.morsels())
	if r.rows < parallelMinRows {
		workers = 1
	}
	em := &emitter{plan: p, sink: sink, limit: p.Limit, offset: p.Offset}
	buffered := len(p.OrderBy) > 0 || p.Distinct

	var collected *engine.Batch
	switch {
	case p.Aggregate:
		res, err := r.aggregate(ctx, workers)
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
		collected = out
		if k := topNRows(p); k > 0 {
			collected = topNBatch(collected, p.OrderBy, k)
		}
	case buffered:
		var err error
		if k := topNRows(p); k > 0 {
			collected, err = r.topN(ctx, workers, k)
		} else {
			collected, err = r.collect(ctx, workers)
		}
		if err != nil {
			return err
		}
	default:
		return r.stream(ctx, workers, em)
	}
	if collected == nil {
		return nil
	}
	if engine.HasMemoryBudget(ctx) && (len(p.OrderBy) > 0 || p.Distinct) {
		// the sort's permutation, DISTINCT's key set and the rows in
		// their new order
		if err := engine.ChargeMemory(ctx, engine.BatchBytes(collected)+16*int64(collected.N), "sorting the rows for ORDER BY or DISTINCT"); err != nil {
			return err
		}
	}
	collected = eval.FinishRows(collected, p)
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

// aggregate feeds every morsel to an aggregator and returns its result;
// with several workers each aggregates its own range and the partial
// results merge in worker order, by partitions of the groups in parallel
// where there are many (aggmerge.go).
func (r *execRun) aggregate(ctx context.Context, workers int) (*engine.Batch, error) {
	aggs := make([]*aggregator, max(workers, 1))
	for w := range aggs {
		aggs[w] = newAggregator(r.p)
	}
	if aggs[0].hasDistinct() {
		aggs = aggs[:1]
	}
	if len(r.p.GroupBy) == 1 {
		if lo, hi, ok := r.intColRange(r.p.GroupBy[0]); ok {
			for _, a := range aggs {
				if !a.index.setDirect(lo, hi, r.rows) {
					break
				}
			}
		}
	}
	if col, ok := memoColumn(r.p.GroupBy); ok {
		if lo, hi, ok := r.intColRange(col); ok && uint64(hi)-uint64(lo) < keyMemoSpan &&
			uint64(hi)-uint64(lo) <= 2*uint64(r.rows)+1024 {
			for _, a := range aggs {
				a.memo = &keyMemo{col: col, base: lo, ids: make([]int32, hi-lo+1)}
			}
		}
	}
	// a global DISTINCT aggregate of a stored integer column whose zone
	// maps bound it to a small range keeps its values by value, as such
	// a GROUP BY key does
	for k, c := range r.p.Aggs {
		if !c.Distinct || len(r.p.GroupBy) > 0 || aggs[0].states[k].dist == nil {
			continue
		}
		if lo, hi, ok := r.intColRange(c.Arg); ok {
			for _, a := range aggs {
				if !a.states[k].dist.index.setDirect(lo, hi, r.rows) {
					break
				}
			}
		}
	}
	if r.host != nil {
		for _, a := range aggs {
			for _, s := range a.states {
				if s.csum != nil {
					s.csum.compilePred(r.host)
				}
			}
		}
	}
	lazy, lazyStr := r.lazyColumns(aggs[0]), r.lazyStrColumns(aggs[0])
	// each worker charges its aggregator's growth; the merge that
	// follows folds charged groups into the first one's
	mems, meters := make([]*aggMemory, len(aggs)), make([]*meter, len(aggs))
	for w := range aggs {
		mems[w], meters[w] = newAggMemory(aggs[w]), newMeter(ctx, "the group table of an aggregate")
	}
	err := parallel(len(aggs), r.morsels(), func(w, lo, hi int) error {
		// the aggregator copies what it keeps of a morsel: its scans
		// reuse one set of buffers
		var bufs *scanBufs
		if r.host != nil {
			bufs = newScanBufs(len(r.host.Cols))
			if lazy != nil || lazyStr != nil {
				bufs.setLazy(lazy, lazyStr, r.host)
				aggs[w].lazy = bufs
				defer func() { aggs[w].lazy = nil }()
			}
		}
		for m := lo; m < hi; m++ {
			in, err := r.morselBuf(ctx, m, bufs)
			if err != nil {
				return err
			}
			if in == nil {
				continue
			}
			if err := aggs[w].consume(ctx, in); err != nil {
				return err
			}
			if meters[w].on {
				if err := meters[w].add(mems[w].grown(aggs[w])); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if canMergeByPartition(aggs) {
		return mergeByPartition(aggs, workers)
	}
	for _, o := range aggs[1:] {
		if err := aggs[0].merge(o); err != nil {
			return nil, err
		}
	}
	return aggs[0].result()
}

// lazyColumns returns the narrow numeric columns that aggregator a (as
// every worker's) reads only through sums of stored mantissas or counts
// of NULL flags, to be scanned lazily (scanBufs.scanLazy), or nil when
// there are none. A column that a GROUP BY key, a filter evaluated on
// vectors, or any other expression reads is scanned as before; the sums'
// own fallbacks give the batch's columns their Dec values first
// (scanBufs.decsFor). The plan's Project and Having read the
// aggregation's result, not the scan.
func (r *execRun) lazyColumns(a *aggregator) []bool {
	if r.eager || r.host == nil || r.p.Filter != nil && (r.filterCols == nil || r.restCols == nil) {
		return nil
	}
	others := append([]engine.Expr(nil), r.p.GroupBy...)
	if r.p.Filter != nil && r.stored == nil {
		others = append(others, r.p.Filter)
	}
	if a.memo != nil {
		others = append(others, a.memo.col)
	}
	for _, s := range a.states {
		switch {
		case s.bare >= 0, s.num != nil, s.countCol() >= 0:
		case s.csum != nil && s.call.Func != engine.AggCount:
			if s.csum.pred == nil {
				others = append(others, s.csum.cond)
			}
		default:
			others = append(others, s.call.Exprs()...)
		}
	}
	need := usedColumns(len(r.host.Cols), others...)
	lazy := make([]bool, len(r.host.Cols))
	any := false
	for c, col := range r.host.Cols {
		if r.used[c] && !need[c] && col.Type.Kind == engine.KindNumeric && col.D == nil && col.I64 != nil {
			lazy[c], any = true, true
		}
	}
	if !any {
		return nil
	}
	return lazy
}

// lazyStrColumns returns the stored string columns that aggregator a
// reads only as GROUP BY keys that are the column alone or in
// conditional sums' conditions compiled to strEqPred, to be scanned
// as their stored rows (scanBufs.scanLazyStr) and grouped from their
// stored bytes, or nil when there are none. A column that any other
// expression reads (a filter evaluated on vectors, an aggregate's
// argument, another key) is scanned as before.
func (r *execRun) lazyStrColumns(a *aggregator) []bool {
	if r.eager || r.host == nil || r.p.Filter != nil && (r.filterCols == nil || r.restCols == nil) {
		return nil
	}
	var others []engine.Expr
	key := make([]bool, len(r.host.Cols))
	for _, g := range r.p.GroupBy {
		if c, ok := g.(*engine.ColRef); ok && c.Idx >= 0 && c.Idx < len(key) && c.T.Kind == r.host.Cols[c.Idx].Type.Kind {
			key[c.Idx] = true
			continue
		}
		others = append(others, g)
	}
	if r.p.Filter != nil && r.stored == nil {
		others = append(others, r.p.Filter)
	}
	if a.memo != nil {
		others = append(others, a.memo.col)
	}
	for _, s := range a.states {
		if s.csum != nil && s.csum.seq != nil {
			// a conditional sum reads its condition's column from the
			// stored bytes (caseSum.condition), its arms as vectors
			key[s.csum.seq.col] = true
			for _, e := range s.call.Exprs() {
				if c, ok := e.(*engine.Case); ok && e == s.call.Arg {
					others = append(others, c.Results[0], c.Else)
					continue
				}
				others = append(others, e)
			}
			continue
		}
		others = append(others, s.call.Exprs()...)
	}
	need := usedColumns(len(r.host.Cols), others...)
	lazy := make([]bool, len(r.host.Cols))
	any := false
	for c, col := range r.host.Cols {
		switch col.Type.Kind {
		case engine.KindChar, engine.KindVarchar, engine.KindText:
		default:
			continue
		}
		if r.used[c] && key[c] && !need[c] && col.Width > 0 && col.Len >= r.rows && len(col.Str) >= r.rows*col.Width {
			lazy[c], any = true, true
		}
	}
	if !any {
		return nil
	}
	return lazy
}

// intColRange returns the range of the non-NULL values of e when it is
// an integer column of the stored table, from its zone map.
func (r *execRun) intColRange(e engine.Expr) (lo, hi int64, ok bool) {
	if r.host == nil {
		return 0, 0, false
	}
	c, isCol := e.(*engine.ColRef)
	if !isCol || c.Idx < 0 || c.Idx >= len(r.host.Cols) || engine.PhysOf(c.T.Kind) != engine.PhysInt ||
		engine.PhysOf(r.host.Cols[c.Idx].Type.Kind) != engine.PhysInt {
		return 0, 0, false
	}
	z := r.host.ZoneMap(c.Idx)
	if z == nil {
		return 0, 0, false
	}
	for k := range z.Min {
		if z.AllNull[k] {
			continue
		}
		if !ok {
			lo, hi, ok = z.Min[k], z.Max[k], true
			continue
		}
		lo, hi = min(lo, z.Min[k]), max(hi, z.Max[k])
	}
	return lo, hi, ok
}

// collect projects every morsel and concatenates the results in table
// order, for ORDER BY and DISTINCT.
func (r *execRun) collect(ctx context.Context, workers int) (*engine.Batch, error) {
	parts := make([]*engine.Batch, max(workers, 1))
	meters := make([]*meter, len(parts))
	for w := range meters {
		meters[w] = newMeter(ctx, "the rows buffered for ORDER BY or DISTINCT")
	}
	err := parallel(len(parts), r.morsels(), func(w, lo, hi int) error {
		for m := lo; m < hi; m++ {
			in, err := r.morsel(ctx, m)
			if err != nil || in == nil {
				if err != nil {
					return err
				}
				continue
			}
			out, err := project(ctx, r.p.Project, in)
			if err != nil {
				return err
			}
			if meters[w].on {
				if err := meters[w].add(engine.BatchBytes(out)); err != nil {
					return err
				}
			}
			parts[w] = appendBatch(parts[w], out)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var all *engine.Batch
	for _, part := range parts {
		if part != nil {
			all = appendBatch(all, part)
		}
	}
	return all, nil
}

// stream projects morsels in waves of one per worker and emits each wave
// in table order, stopping as soon as LIMIT is satisfied.
func (r *execRun) stream(ctx context.Context, workers int, em *emitter) error {
	workers = max(workers, 1)
	outs := make([]*engine.Batch, workers)
	for start := 0; start < r.morsels(); start += workers {
		n := min(workers, r.morsels()-start)
		err := parallel(n, n, func(w, lo, hi int) error {
			outs[w] = nil
			in, err := r.morsel(ctx, start+w)
			if err != nil || in == nil {
				return err
			}
			outs[w], err = project(ctx, r.p.Project, in)
			return err
		})
		if err != nil {
			return err
		}
		for _, out := range outs[:n] {
			if out == nil {
				continue
			}
			if done, err := em.emit(out); err != nil || done {
				return err
			}
		}
	}
	return nil
}

func exprsOf(p *engine.Plan) []engine.Expr {
	var out []engine.Expr
	out = append(out, p.GroupBy...)
	for _, a := range p.Aggs {
		out = append(out, a.Exprs()...)
	}
	return out
}

// filter returns the rows where pred is true (not false, not NULL).
func filter(ctx context.Context, pred engine.Expr, in *engine.Batch) ([]int32, error) {
	return eval.Select(ctx, pred, in)
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
