package loader

import (
	"github.com/gpusql/gpusql/cuda"
	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/gpu"
)

// The load's output: the table's columns, written in place by every batch
// (csv_convert stores each batch's rows after the rows before it), so that
// nothing is copied once the last batch is parsed. Columns are allocated
// with room for the rows the whole input is expected to hold, estimated
// from the bytes per row seen so far, and grown (reallocated and copied)
// when that falls short; a string column is rewritten wider when a batch
// raises its width. Both happen a few times per load at most.

// outCol is one output column.
type outCol struct {
	data  *cuda.Buffer // room for capRows rows of width bytes (nil if either is 0)
	valid *cuda.Buffer // validity bitmap of capRows bits, nil while the column has no NULL
	width int          // bytes per row now
}

// outWidth is the width column c must have after the batches so far.
func (gl *gpuLoad) outWidth(c int) int {
	if cp := &gl.ld.cols[c]; cp.isStr {
		return engine.RoundWidth(gl.widths[c])
	}
	return elemSize(gl.ld.cols[c].kind)
}

// reserve makes room for add more rows after the gl.nRows already stored,
// at the widths and NULL flags known now. batchBytes are the input bytes
// that the batch of those rows takes, for the estimate.
func (gl *gpuLoad) reserve(s *cuda.Stream, add int64, batchBytes int64) error {
	if gl.out == nil {
		gl.out = make([]outCol, len(gl.ld.cols))
	}
	need := gl.nRows + add
	capRows := gl.capRows
	if need > capRows {
		// Rows per byte so far, times the whole input, with 1% to spare; a
		// source of unknown size doubles.
		done := gl.bytesDone + batchBytes
		est := 2 * need
		if gl.req.Size > 0 && done > 0 {
			est = int64(float64(need)*float64(gl.req.Size)/float64(done)*1.01) + 1024
		}
		capRows = max(need, est)
	}
	for c := range gl.out {
		o := &gl.out[c]
		w := gl.outWidth(c)
		if capRows != gl.capRows || w != o.width {
			if err := gl.regrow(s, o, capRows, w); err != nil {
				return err
			}
		}
		if gl.nulls[c] && (o.valid == nil || capRows != gl.capRows) {
			if err := gl.regrowValid(s, o, capRows); err != nil {
				return err
			}
		}
	}
	gl.capRows = capRows
	return nil
}

// regrow gives column o room for capRows rows of w bytes, keeping the
// gl.nRows rows stored (zero-padded when w is wider).
func (gl *gpuLoad) regrow(s *cuda.Stream, o *outCol, capRows int64, w int) error {
	var nb *cuda.Buffer
	if n := capRows * int64(w); n > 0 {
		var err error
		if nb, err = gl.dev.Alloc(gl.req.Table, n); err != nil {
			return err
		}
		if gl.g.cfg.poison {
			if err := gl.dev.Memset8(nb.Ptr(), 0xAB, n, s); err != nil {
				_ = nb.Free()
				return err
			}
		}
		if gl.nRows > 0 {
			var err error
			switch {
			case o.width == w:
				err = gl.dev.CopyDtoD(nb.Ptr(), o.data.Ptr(), gl.nRows*int64(w), s)
			default:
				var src cuda.DevPtr
				if o.data != nil {
					src = o.data.Ptr()
				}
				err = gl.dev.Launch(gl.k.repad, cuda.Dim3{X: 4096, Y: 1, Z: 1}, cuda.Dim3{X: 256, Y: 1, Z: 1}, 0, s,
					nb.Ptr(), int32(w), src, int32(o.width), gl.nRows)
			}
			if err != nil {
				_ = nb.Free()
				return err
			}
		}
	}
	if o.data != nil {
		_ = o.data.Free() // the pool reuses it only for work queued after the copy
	}
	o.data, o.width = nb, w
	return nil
}

// regrowValid gives column o a validity bitmap for capRows rows, keeping
// the bits of the rows stored (all valid if it had none).
func (gl *gpuLoad) regrowValid(s *cuda.Stream, o *outCol, capRows int64) error {
	words := (capRows + 63) / 64 * 8
	nb, err := gl.dev.Alloc(gl.req.Table, words)
	if err != nil {
		return err
	}
	if err := gl.dev.Memset8(nb.Ptr(), 0xff, words, s); err != nil {
		_ = nb.Free()
		return err
	}
	if o.valid != nil {
		if n := (gl.nRows + 63) / 64 * 8; n > 0 {
			if err := gl.dev.CopyDtoD(nb.Ptr(), o.valid.Ptr(), n, s); err != nil {
				_ = nb.Free()
				return err
			}
		}
		_ = o.valid.Free()
	}
	o.valid = nb
	return nil
}

// freeOut releases the output columns (a failed load).
func (gl *gpuLoad) freeOut() {
	for c := range gl.out {
		if gl.out[c].data != nil {
			_ = gl.out[c].data.Free()
		}
		if gl.out[c].valid != nil {
			_ = gl.out[c].valid.Free()
		}
	}
	gl.out = nil
}

// finish makes the output the table: every column at its final width (a
// rejected row of the last batch can still widen a string column), a
// bitmap where the column had a NULL, and, when the estimate left more than
// 1/32 of the rows unused, columns cut to size.
func (gl *gpuLoad) finish(s *cuda.Stream) (*gpu.Table, error) {
	if err := gl.reserve(s, 0, 0); err != nil {
		gl.freeOut()
		return nil, err
	}
	n := gl.nRows
	if gl.capRows-n > n/32 {
		for c := range gl.out {
			o := &gl.out[c]
			if err := gl.regrow(s, o, n, o.width); err != nil {
				gl.freeOut()
				return nil, err
			}
			if o.valid != nil {
				if err := gl.regrowValid(s, o, n); err != nil {
					gl.freeOut()
					return nil, err
				}
			}
		}
		gl.capRows = n
	}
	if err := s.Sync(); err != nil {
		gl.freeOut()
		return nil, err
	}
	t := &gpu.Table{N: n, Dev: gl.dev, Cols: make([]*gpu.Column, len(gl.ld.cols))}
	for c := range gl.ld.cols {
		cp := &gl.ld.cols[c]
		col := &gpu.Column{Type: cp.def.Type, Data: gl.out[c].data, Valid: gl.out[c].valid}
		if cp.isStr {
			col.Width = gl.out[c].width
		}
		if n == 0 && col.Data != nil {
			_ = col.Data.Free()
			col.Data = nil
		}
		if n == 0 && col.Valid != nil {
			_ = col.Valid.Free()
			col.Valid = nil
		}
		t.Cols[c] = col
	}
	gl.out = nil
	return t, nil
}
