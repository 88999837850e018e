package cpu

import (
	"context"
	"time"

	"github.com/gpusql/gpusql/engine"
)

// Plan trees on the CPU: each node's output is materialised as a host
// table, bottom-up, and the top pipeline runs over its input's table as
// a single-table plan does. A node that only renames or reorders its
// input's columns shares their storage.

// materialize runs node r and returns its output as a host table.
func (b *Backend) materialize(ctx context.Context, r engine.Rel) (*engine.HostTable, error) {
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
		h, err = b.join(ctx, r)
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
			if in, err = b.materialize(ctx, p.Input); err != nil {
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
	h, err := b.materialize(ctx, p.Input)
	if err != nil {
		return nil, err
	}
	q := *p
	q.Input, q.Data, q.Schema, q.Table = nil, h, p.Input.Columns(), "(input)"
	return &q, nil
}
