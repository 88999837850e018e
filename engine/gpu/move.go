package gpu

import (
	"github.com/gpusql/gpusql/cuda"
	"github.com/gpusql/gpusql/engine"
)

// Move copies d, a table on another GPU, to this backend's device, buffer
// for buffer (peer to peer where the devices allow it; engine/multi
// gathers the parts of a partitioned table with it). Data already on the
// device is returned as it is, not copied: the caller must then not
// release it twice.
func (b *Backend) Move(table string, d engine.TableData) (engine.TableData, bool, error) {
	t, ok := d.(*Table)
	if !ok {
		return nil, false, engine.Errorf(engine.CodeInternalError, "cuda backend cannot move %T table data", d)
	}
	if t.Dev == nil || t.Dev.SameDevice(b.dev) {
		return t, false, nil
	}
	out := &Table{N: t.N, Dev: b.dev, Cols: make([]*Column, len(t.Cols))}
	fail := func(err error) (engine.TableData, bool, error) {
		out.Release()
		return nil, false, err
	}
	copyBuf := func(src *cuda.Buffer) (*cuda.Buffer, error) {
		if src == nil {
			return nil, nil
		}
		dst, err := b.dev.Alloc(table, src.Size())
		if err != nil {
			return nil, err
		}
		if err := b.dev.CopyFromPeer(dst.Ptr(), t.Dev, src.Ptr(), src.Size()); err != nil {
			_ = dst.Free()
			return nil, err
		}
		return dst, nil
	}
	for k, c := range t.Cols {
		nc := &Column{Type: c.Type, Width: c.Width}
		out.Cols[k] = nc
		var err error
		if nc.Data, err = copyBuf(c.Data); err != nil {
			return fail(err)
		}
		if nc.Valid, err = copyBuf(c.Valid); err != nil {
			return fail(err)
		}
	}
	return out, true, nil
}

// Device is the GPU the backend runs on.
func (b *Backend) Device() *cuda.Device { return b.dev }
