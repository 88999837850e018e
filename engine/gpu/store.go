package gpu

import (
	"context"

	"github.com/gpusql/gpusql/engine"
)

// Query results kept as tables (engine.TableStore): CREATE TABLE ... AS,
// SELECT ... INTO and INSERT. The plan runs as a plan tree's node does
// (tree.go, materialize), so its output is already a device table; what
// it shares with the tables it read is copied, and its buffers are
// accounted to the new table. The rows never leave the device.

var _ engine.TableStore = (*Backend)(nil)

// Materialize runs p and keeps its output on the device. Like Execute, it
// makes its driver calls on the caller's thread (cuda.Device.Run).
func (b *Backend) Materialize(ctx context.Context, p *engine.Plan, o engine.StoreOptions) (engine.TableData, error) {
	var out engine.TableData
	err := b.dev.Run(func() error {
		var err error
		out, err = b.materializeStore(ctx, p, o)
		return err
	})
	return out, err
}

func (b *Backend) materializeStore(ctx context.Context, p *engine.Plan, o engine.StoreOptions) (engine.TableData, error) {
	t, err := b.materialize(ctx, p)
	if err != nil {
		return nil, err
	}
	defer t.Release()
	out := &Table{N: t.N, Dev: b.dev, Cols: make([]*Column, len(t.Cols))}
	fail := func(err error) (engine.TableData, error) {
		out.Release()
		return nil, err
	}
	for k, c := range t.Cols {
		if c.Type.IsString() {
			if err := o.CheckWidth(c.Width); err != nil {
				return fail(err)
			}
		}
		var own *Column
		if c.shared {
			// a column of a table version p read: the new table gets
			// its own copy, as that version may be freed first
			if own, err = b.gatherColumn(c, 0, t.N, true); err != nil {
				return fail(err)
			}
		} else {
			own = c.take()
		}
		out.Cols[k] = own
		if err := own.Data.SetOwner(o.Table); err != nil {
			return fail(err)
		}
		if err := own.Valid.SetOwner(o.Table); err != nil {
			return fail(err)
		}
		// A numeric(p,s) computed on the device is stored as
		// numeric(18,s), the same int64s: it keeps its declared type.
		if k < len(p.Project) {
			if want := p.Project[k].Type(); want.Kind == engine.KindNumeric && want.Prec > 0 && want.Prec <= 18 &&
				own.Type.Kind == engine.KindNumeric && own.Type.Scale == want.Scale {
				own.Type = want
			}
		}
	}
	return out, nil
}

// Store uploads h.
func (b *Backend) Store(h *engine.HostTable, o engine.StoreOptions) (engine.TableData, error) {
	for _, c := range h.Cols {
		if c.Type.IsString() {
			if err := o.CheckWidth(c.Width); err != nil {
				return nil, err
			}
		}
	}
	return Upload(b.dev, h, o.Table)
}

var (
	_ engine.MappedStorer     = (*Backend)(nil)
	_ engine.ColumnDownloader = (*Table)(nil)
)

// StoreMapped stores h, whose columns alias mapped, a read-only mapping
// of a table file (engine.MappedStorer): the mapping is page-locked for
// the copy, so that the device reads it by DMA straight from the page
// cache rather than through the driver's pageable staging. Where it
// cannot be locked, the copy goes through staging as Store's does.
func (b *Backend) StoreMapped(h *engine.HostTable, mapped []byte, o engine.StoreOptions) (engine.TableData, error) {
	if len(mapped) > 0 {
		if unregister, err := b.dev.RegisterHost(mapped, true); err == nil {
			defer unregister()
		}
	}
	return b.Store(h, o)
}

// StoredType is the type column col is stored as (engine.StoredTyper).
func (t *Table) StoredType(col int) engine.Type { return t.Cols[col].Type }
