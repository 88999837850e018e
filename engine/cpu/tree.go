package cpu

import (
	"context"
	"math"
	"time"

	"github.com/gpusql/gpusql/engine"
)

// Plan trees on the CPU: each node's output is materialised as a host
// table, bottom-up, and the top pipeline runs over its input's table as
// a single-table plan does. A node that only renames or reorders its
// input's columns shares their storage.

// materialize runs node r and returns its output as a host table.
func (b *Backend) materialize(ctx context.Context, r engine.Rel) (*engine.HostTable, error) {
	return b.materializeCols(ctx, r, nil)
}

// materializeCols is materialize for a caller that reads only the output
// columns need marks (nil: all of them). A join leaves the others
// unfilled: columns of the right type and length without storage
// (noColumn), so that its gathers copy only what is read above it.
func (b *Backend) materializeCols(ctx context.Context, r engine.Rel, need []bool) (*engine.HostTable, error) {
	if err := canceled(ctx); err != nil {
		return nil, err
	}
	start := time.Now()
	var h *engine.HostTable
	var err error
	switch r := r.(type) {
	case *engine.Plan:
		h, err = b.materializePlan(ctx, r)
	case *engine.Join:
		h, err = b.join(ctx, r, need)
	case *engine.SetOp:
		h, err = b.setOp(ctx, r)
	case *engine.Window:
		h, err = b.window(ctx, r)
	case *engine.ProjectSet:
		var in *engine.HostTable
		if in, err = b.materialize(ctx, r.Input); err == nil {
			h, err = ExpandSet(ctx, r, in)
		}
	default:
		err = engine.Errorf(engine.CodeInternalError, "cpu backend cannot run %T", r)
	}
	if err != nil {
		return nil, err
	}
	engine.OpLogOf(ctx).Record(r, h.N, time.Since(start))
	return h, nil
}

// materializePlan runs a pipeline and keeps its visible columns.
func (b *Backend) materializePlan(ctx context.Context, p *engine.Plan) (*engine.HostTable, error) {
	if p.IsView() {
		var in *engine.HostTable
		switch {
		case p.Input != nil:
			var err error
			if in, err = b.materializeCols(ctx, p.Input, viewCols(p)); err != nil {
				return nil, err
			}
		case p.Data != nil:
			d, err := engine.LocalData(p.Data)
			if err != nil {
				return nil, err
			}
			h, ok := d.(*engine.HostTable)
			if !ok {
				return nil, engine.Errorf(engine.CodeInternalError, "cpu backend cannot read %T table data", p.Data)
			}
			in = h
		case p.Table != "":
			in = engine.EmptyHost(p.Schema) // a table never loaded
		}
		if in != nil {
			out := &engine.HostTable{N: in.N, Cols: make([]*engine.Column, p.Visible)}
			for k, e := range p.Project[:p.Visible] {
				out.Cols[k] = in.Cols[e.(*engine.ColRef).Idx]
			}
			return out, nil
		}
	}
	if h, ok, err := b.filteredTable(ctx, p); ok {
		return h, err
	}
	ts := make([]engine.Type, p.Visible)
	for k := range ts {
		ts[k] = p.Project[k].Type()
	}
	var batches []*engine.Batch
	m := newMeter(ctx, "the rows of a derived table")
	err := b.Execute(ctx, p, func(bt *engine.Batch) error {
		if m.on {
			if err := m.add(engine.BatchBytes(bt)); err != nil {
				return err
			}
		}
		batches = append(batches, copyBatch(bt))
		return nil
	})
	if err != nil {
		return nil, err
	}
	return engine.HostFromBatches(ts, batches)
}

// copyBatch copies a batch the sink may not keep (strings may alias
// buffers the executor reuses).
func copyBatch(b *engine.Batch) *engine.Batch {
	return appendBatch(nil, b)
}

// input returns the table a plan reads: its stored data, or its Input
// node's output.
func (b *Backend) input(ctx context.Context, p *engine.Plan) (*engine.Plan, error) {
	if p.Input == nil {
		return p, nil
	}
	h, err := b.materializeCols(ctx, p.Input, planCols(p))
	if err != nil {
		return nil, err
	}
	q := *p
	q.Input, q.Data, q.Schema, q.Table = nil, h, p.Input.Columns(), "(input)"
	return &q, nil
}

// filteredTable materialises a plan that only filters a stored table and
// keeps some of its columns (a join's input, most often): it finds the
// rows that pass, morsel by morsel on every worker, and gathers the kept
// columns at those rows straight from storage, one column per worker at a
// time. ok is false for any other plan, which materializePlan runs
// through the executor.
func (b *Backend) filteredTable(ctx context.Context, p *engine.Plan) (h *engine.HostTable, ok bool, err error) {
	if p.Input != nil || p.Data == nil || p.Filter == nil || p.Aggregate || len(p.GroupingSets) > 0 ||
		p.Distinct || len(p.OrderBy) > 0 || p.Limit >= 0 || p.Offset > 0 {
		return nil, false, nil
	}
	for _, e := range p.Project[:p.Visible] {
		if _, isCol := e.(*engine.ColRef); !isCol {
			return nil, false, nil
		}
	}
	d, err := engine.LocalData(p.Data)
	if err != nil {
		return nil, false, nil
	}
	in, isHost := d.(*engine.HostTable)
	if !isHost || in.N > math.MaxInt32 {
		return nil, false, nil
	}
	for _, e := range p.Project[:p.Visible] {
		if e.(*engine.ColRef).Idx >= len(in.Cols) {
			return nil, false, nil
		}
	}
	r := &execRun{p: p, host: in, rows: int(in.N)}
	r.filterCols = usedColumns(len(in.Cols), p.Filter)
	r.used = r.filterCols
	if t := zoneFilter(p.Filter, in); t != nil {
		r.live = liveMorsels(r.rows, t)
	}
	workers := min(b.workers, r.morsels())
	if r.rows < parallelMinRows {
		workers = 1
	}
	workers = max(workers, 1)
	parts := make([][]int32, workers)
	err = parallel(workers, r.morsels(), func(w, lo, hi int) error {
		for m := lo; m < hi; m++ {
			if err := canceled(ctx); err != nil {
				return err
			}
			mi := m
			if r.live != nil {
				mi = r.live[m]
			}
			rlo := mi * batchRows
			rhi := min(rlo+batchRows, r.rows)
			bt := &engine.Batch{N: rhi - rlo, Cols: make([]*engine.Vec, len(in.Cols))}
			for c, col := range in.Cols {
				if r.filterCols[c] {
					bt.Cols[c] = scanColumn(col, rlo, rhi)
				}
			}
			sel, err := filter(ctx, p.Filter, bt)
			if err != nil {
				return err
			}
			for _, i := range sel {
				parts[w] = append(parts[w], int32(rlo)+i)
			}
		}
		return nil
	})
	if err != nil {
		return nil, true, err
	}
	var rows []int32
	if workers == 1 {
		rows = parts[0]
	} else {
		total := 0
		for _, part := range parts {
			total += len(part)
		}
		rows = make([]int32, 0, total)
		for _, part := range parts {
			rows = append(rows, part...)
		}
	}
	out := &engine.HostTable{N: int64(len(rows)), Cols: make([]*engine.Column, p.Visible)}
	err = parallel(min(workers, p.Visible), p.Visible, func(_, lo, hi int) error {
		for k := lo; k < hi; k++ {
			out.Cols[k] = in.Cols[p.Project[k].(*engine.ColRef).Idx].Gather(rows)
		}
		return nil
	})
	if err != nil {
		return nil, true, err
	}
	if engine.HasMemoryBudget(ctx) {
		var bytes int64
		for _, c := range out.Cols {
			bytes += c.Bytes()
		}
		if err := engine.ChargeMemory(ctx, bytes, "the rows of a derived table"); err != nil {
			return nil, true, err
		}
	}
	return out, true, nil
}

// planCols marks the columns of p's input that the pipeline reads: those
// the executor scans (Execute's usedColumns).
func planCols(p *engine.Plan) []bool {
	exprs := append(append([]engine.Expr{p.Filter}, p.Project...), exprsOf(p)...)
	return neededColumns(len(p.Input.Columns()), exprs...)
}

// viewCols marks the columns of p's input that a plan which only keeps
// columns (IsView) reads.
func viewCols(p *engine.Plan) []bool {
	return neededColumns(len(p.Input.Columns()), p.Project[:p.Visible]...)
}

// neededColumns is usedColumns, all columns when an expression is of a
// kind it does not walk.
func neededColumns(n int, exprs ...engine.Expr) []bool {
	for _, e := range exprs {
		if !walkable(e) {
			return nil
		}
	}
	return usedColumns(n, exprs...)
}

// walkable reports whether usedColumns sees every column e reads.
func walkable(e engine.Expr) bool {
	switch e := e.(type) {
	case nil, *engine.ColRef, *engine.Const:
		return true
	case *engine.Call:
		for _, a := range e.Args {
			if !walkable(a) {
				return false
			}
		}
		return true
	case *engine.HostFunc:
		for _, a := range e.Args {
			if !walkable(a) {
				return false
			}
		}
		return true
	case *engine.Case:
		for i := range e.Conds {
			if !walkable(e.Conds[i]) || !walkable(e.Results[i]) {
				return false
			}
		}
		return walkable(e.Else)
	}
	return false
}

// noColumn stands for an output column nobody reads: its type and length,
// no storage.
func noColumn(t engine.Type, n int) *engine.Column {
	return &engine.Column{Type: t, Len: n}
}
