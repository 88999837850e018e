package cpu

import (
	"context"

	"github.com/gpusql/gpusql/engine"
)

var _ engine.TableStore = (*Backend)(nil)

// Materialize runs p as a plan tree does (tree.go) and keeps its output
// as a host table. Columns it passes through unchanged are shared with
// the tables p reads: host columns never change once built, and are
// garbage collected, so a version that shares them outlives its source.
func (b *Backend) Materialize(ctx context.Context, p *engine.Plan, o engine.StoreOptions) (engine.TableData, error) {
	h, err := b.materialize(ctx, p)
	if err != nil {
		return nil, err
	}
	return b.Store(h, o)
}

// Store keeps h as it is, with a statistics cache.
func (b *Backend) Store(h *engine.HostTable, o engine.StoreOptions) (engine.TableData, error) {
	for _, c := range h.Cols {
		if c.Type.IsString() {
			if err := o.CheckWidth(c.Width); err != nil {
				return nil, err
			}
		}
	}
	return engine.NewHostTable(h.Cols, h.N), nil
}
