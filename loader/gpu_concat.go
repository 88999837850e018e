package loader

import (
	"github.com/gpusql/gpusql/cuda"
	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/gpu"
)

// Concat builds a new device table holding a's rows and then b's: what a
// COPY into a loaded table publishes. Neither input changes, so queries
// that hold a keep reading it. String columns take the wider of the two
// widths (the narrower side is re-padded by csv_repad), and validity bits
// land at any row offset through csv_bits_copy. On failure (53200 when
// the device is full) nothing stays allocated.
func (g *GPU) Concat(table string, a, b engine.TableData) (engine.TableData, error) {
	ta, ok1 := a.(*gpu.Table)
	tb, ok2 := b.(*gpu.Table)
	if !ok1 || !ok2 || len(ta.Cols) != len(tb.Cols) {
		return nil, engine.Errorf(engine.CodeInternalError, "cannot append %T to %T", b, a)
	}
	for k, ca := range ta.Cols {
		if cb := tb.Cols[k]; ca.RowScales() || cb.RowScales() || ca.Type.Kind == engine.KindNumeric && ca.Type != cb.Type {
			// an unconstrained numeric column whose versions hold other
			// scales, or rows of their own: each row keeps its scale
			return gpu.ConcatOnHost(g.dev, table, ta, tb)
		}
	}
	g.once.Do(func() { g.k, g.kerr = loadKernels(g.dev) })
	if g.kerr != nil {
		return nil, g.kerr
	}
	s, err := g.dev.NewStream()
	if err != nil {
		return nil, err
	}
	defer s.Close()
	n := ta.N + tb.N
	out := &gpu.Table{N: n, Dev: g.dev, Cols: make([]*gpu.Column, len(ta.Cols))}
	fail := func(err error) (engine.TableData, error) {
		_ = s.Sync() // copies may still read or write the buffers freed next
		out.Release()
		return nil, err
	}
	for k, ca := range ta.Cols {
		cb := tb.Cols[k]
		c := &gpu.Column{Type: ca.Type}
		out.Cols[k] = c
		w := int64(ca.Type.StorageWidth())
		if ca.Type.IsString() {
			c.Width = max(ca.Width, cb.Width)
			w = int64(c.Width)
		}
		if w > 0 && n > 0 {
			if c.Data, err = g.dev.Alloc(table, n*w); err != nil {
				return fail(err)
			}
			if g.cfg.poison {
				if err := g.dev.Memset8(c.Data.Ptr(), 0xAB, n*w, s); err != nil {
					return fail(err)
				}
			}
			for _, part := range []struct {
				src  *gpu.Column
				row  int64
				rows int64
			}{{ca, 0, ta.N}, {cb, ta.N, tb.N}} {
				if err := g.copyRows(s, c.Data.Ptr()+cuda.DevPtr(part.row*w), int(w), part.src, part.rows); err != nil {
					return fail(err)
				}
			}
		}
		if ca.Valid == nil && cb.Valid == nil || n == 0 {
			continue
		}
		words := (n + 63) / 64
		if c.Valid, err = g.dev.Alloc(table, words*8); err != nil {
			return fail(err)
		}
		if err := g.dev.Memset8(c.Valid.Ptr(), 0xff, words*8, s); err != nil {
			return fail(err)
		}
		for _, part := range []struct {
			src  *gpu.Column
			row  int64
			rows int64
		}{{ca, 0, ta.N}, {cb, ta.N, tb.N}} {
			if part.rows == 0 {
				continue
			}
			var src cuda.DevPtr
			if part.src.Valid != nil {
				src = part.src.Valid.Ptr()
			}
			first, last := part.row/64, (part.row+part.rows+63)/64
			if err := g.dev.Launch(g.k.bitsCopy, cuda.Dim3{X: blocks(int(last-first), 256), Y: 1, Z: 1}, cuda.Dim3{X: 256, Y: 1, Z: 1}, 0, s,
				c.Valid.Ptr(), part.row, src, part.rows); err != nil {
				return fail(err)
			}
		}
	}
	if err := s.Sync(); err != nil {
		return fail(err)
	}
	return out, nil
}

// copyRows writes rows of src into dst, rows of w bytes: a plain copy when
// the widths agree, csv_repad (zero-filling) when src is narrower. A
// string column of width 0 (only empty strings) has no data: its rows
// become zeros.
func (g *GPU) copyRows(s *cuda.Stream, dst cuda.DevPtr, w int, src *gpu.Column, rows int64) error {
	if rows == 0 {
		return nil
	}
	sw := w
	if src.Type.IsString() {
		sw = src.Width
	}
	switch {
	case src.Data == nil || sw == 0:
		return g.dev.Memset8(dst, 0, rows*int64(w), s)
	case sw == w:
		return g.dev.CopyDtoD(dst, src.Data.Ptr(), rows*int64(w), s)
	}
	return g.dev.Launch(g.k.repad, cuda.Dim3{X: 4096, Y: 1, Z: 1}, cuda.Dim3{X: 256, Y: 1, Z: 1}, 0, s,
		dst, int32(w), src.Data.Ptr(), int32(sw), rows)
}
