// Package gpu is gpusql's CUDA backend: device-resident tables, and a plan
// executor that compiles expressions to a small typed program run by the
// interpreter kernels of cuda/query.cu.
package gpu

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/gpusql/gpusql/cuda"
	"github.com/gpusql/gpusql/engine"
)

// Column is one device-resident column, laid out exactly as engine.Column
// on the host: bool 1 B, smallint 2 B, integer/date/real 4 B, bigint/
// numeric(scaled int64)/timestamp/double 8 B, strings Width bytes per row
// (multiple of 4, zero-padded UTF-8, char(n) stored without padding).
type Column struct {
	Type  engine.Type
	Data  *cuda.Buffer // nil when the table has no rows, or Width 0
	Width int          // bytes per row for strings
	Valid *cuda.Buffer // validity bitmap: uint64 words, bit i%64 of word i/64 set = not NULL; nil = no NULLs

	// rowScales marks an intermediate table's unconstrained numeric
	// column whose values have scales of their own (0 beside 1.50, as
	// PostgreSQL shows them): Data holds the values at the type's scale,
	// the largest, then a byte a row, each row's scale. Whatever reads
	// Data as a numeric column reads the right values; expressions read
	// the rows' scales too (OP_COLR). scaleRows is the rows.
	rowScales bool
	scaleRows int

	// shared: the buffers belong to another table (a node of a plan
	// tree that passes its input's column through); Release keeps them.
	shared bool

	// origin, on a column of a plan tree's intermediate table, is the
	// stored column its values were taken from (a leaf's, passed through
	// filters and joins): its distinct values bound this column's, and
	// its statistics are sampled once per table version where this
	// column's would be sampled by every query (keyDistinct). Only the
	// tree's views and gathers set it; take, sharedCopy and the copies
	// a stored table is made of leave it nil, so no stored table points
	// to another table's version.
	origin *colOrigin

	// aux holds what is computed from the column's data on first use: its
	// value range (stats.go) and its dictionary (dict.go). Views of the
	// column (sharedCopy, take) point to the same aux, so a table's
	// queries compute them once; the owner frees the dictionary.
	aux atomic.Pointer[colAux]
}

// colOrigin is a stored table's column.
type colOrigin struct {
	t   *Table
	col int
}

// colAux is a column's cached derived data.
type colAux struct {
	stats statsCache
	dict  dictCache
}

// caches returns the column's aux, creating it the first time.
func (c *Column) caches() *colAux {
	if a := c.aux.Load(); a != nil {
		return a
	}
	c.aux.CompareAndSwap(nil, &colAux{})
	return c.aux.Load()
}

// freeAux frees what the column's aux holds on the device.
func (c *Column) freeAux() {
	if a := c.aux.Load(); a != nil {
		a.dict.release()
	}
}

// Table implements engine.TableData for device-resident data.
type Table struct {
	Cols []*Column
	N    int64
	Dev  *cuda.Device

	statsMu  sync.Mutex
	colStats map[int]engine.ColumnStats // the planner's, once sampled (tree.go)
}

var _ engine.TableData = (*Table)(nil)

// Rows is the number of rows.
func (t *Table) Rows() int64 { return t.N }

// NumColumns is the number of columns.
func (t *Table) NumColumns() int { return len(t.Cols) }

// DeviceBytes is the device memory the columns hold.
func (t *Table) DeviceBytes() int64 {
	var n int64
	for _, c := range t.Cols {
		if c.Data != nil {
			n += c.Data.Size()
		}
		if c.Valid != nil {
			n += c.Valid.Size()
		}
		if a := c.aux.Load(); a != nil && !c.shared {
			n += a.dict.bytes()
		}
	}
	return n
}

// Release frees every buffer; DROP TABLE returns the memory to the pool.
func (t *Table) Release() {
	for _, c := range t.Cols {
		if c == nil || c.shared { // a failed Upload stops before creating every column
			continue
		}
		c.freeAux()
		if c.Data != nil {
			_ = c.Data.Free()
			c.Data = nil
		}
		if c.Valid != nil {
			_ = c.Valid.Free()
			c.Valid = nil
		}
	}
	t.Cols = nil
	t.N = 0
}

// hostBytes returns the column's storage as bytes (aliasing it).
func hostBytes(c *engine.Column) []byte {
	switch {
	case c.B != nil:
		return c.B
	case c.I16 != nil:
		return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(c.I16))), 2*len(c.I16))
	case c.I32 != nil:
		return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(c.I32))), 4*len(c.I32))
	case c.I64 != nil:
		return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(c.I64))), 8*len(c.I64))
	case c.F32 != nil:
		return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(c.F32))), 4*len(c.F32))
	case c.F64 != nil:
		return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(c.F64))), 8*len(c.F64))
	case c.Str != nil:
		return c.Str
	}
	return nil
}

func u64Bytes(w []uint64) []byte {
	if len(w) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(w))), 8*len(w))
}

// Upload copies a host table to the device, charging the memory to owner.
// On failure (53200 when the device is full) nothing stays allocated.
func Upload(dev *cuda.Device, h *engine.HostTable, owner string) (*Table, error) {
	return UploadNamed(dev, h, owner, nil)
}

// UploadNamed is Upload of the table owner whose columns are called
// names (nil: unknown), for its errors.
func UploadNamed(dev *cuda.Device, h *engine.HostTable, owner string, names []string) (*Table, error) {
	t := &Table{N: h.N, Dev: dev, Cols: make([]*Column, len(h.Cols))}
	for k, hc := range h.Cols {
		if hc.D != nil && hc.Type.Prec == 0 && h.N > 0 && h.N < 1<<31 && hc.MixedScales() {
			c, err := uploadRowScales(dev, hc, owner)
			if err != nil {
				t.Release()
				return nil, err
			}
			if c != nil {
				t.Cols[k] = c
				continue
			}
		}
		if hc.D != nil {
			// numeric(p,s) with p > 18, or an intermediate result's wide
			// numerics: scaled int64s on the device, when they fit at
			// one scale
			var err error
			if hc, err = narrowDecimals(hc); err != nil {
				t.Release()
				if hc := h.Cols[k]; hc.Type.WideNumeric() {
					name := fmt.Sprintf("%d", k+1)
					if k < len(names) {
						name = fmt.Sprintf("%q", names[k])
					}
					return nil, engine.Errorf(engine.CodeFeatureNotSupported,
						"column %s of table %q is %s and holds %s, a value of more than 18 digits, which the GPU backend does not support yet",
						name, owner, hc.Type, err.(*wideValue).d).
						WithHint("Tables on the GPU hold numerics of at most 18 digits; the CPU backend (--device cpu) holds 38.")
				}
				return nil, err
			}
		}
		c := &Column{Type: hc.Type, Width: hc.Width}
		t.Cols[k] = c
		if b := hostBytes(hc); len(b) > 0 {
			buf, err := dev.Alloc(owner, int64(len(b)))
			if err != nil {
				t.Release()
				return nil, err
			}
			c.Data = buf
			if err := dev.CopyHtoD(buf.Ptr(), b, nil); err != nil {
				t.Release()
				return nil, err
			}
		}
		if hc.Valid != nil && h.N > 0 {
			b := u64Bytes(hc.Valid)
			buf, err := dev.Alloc(owner, int64(len(b)))
			if err != nil {
				t.Release()
				return nil, err
			}
			c.Valid = buf
			if err := dev.CopyHtoD(buf.Ptr(), b, nil); err != nil {
				t.Release()
				return nil, err
			}
		}
	}
	return t, nil
}

// Download copies the table back to the host, exactly.
func (t *Table) Download() (*engine.HostTable, error) {
	h := &engine.HostTable{N: t.N, Cols: make([]*engine.Column, len(t.Cols))}
	for k := range t.Cols {
		hc, err := t.DownloadColumn(k)
		if err != nil {
			return nil, err
		}
		h.Cols[k] = hc
	}
	return h, nil
}

// DownloadColumn copies column k back to the host, exactly
// (engine.ColumnDownloader).
func (t *Table) DownloadColumn(k int) (*engine.Column, error) {
	c := t.Cols[k]
	hc := engine.NewColumn(c.Type, int(t.N), c.Width, c.Valid != nil)
	hc.Width = c.Width
	if c.Type.IsString() {
		hc.Str = make([]byte, int(t.N)*c.Width)
	}
	if c.Data != nil {
		b := hostBytes(hc)
		if err := t.Dev.CopyDtoH(b, c.Data.Ptr(), nil); err != nil {
			return nil, err
		}
	}
	if c.Valid != nil {
		if err := t.Dev.CopyDtoH(u64Bytes(hc.Valid), c.Valid.Ptr(), nil); err != nil {
			return nil, err
		}
	}
	if c.rowScales && t.N > 0 {
		// each value at its own scale again
		sc := make([]byte, t.N)
		if err := t.Dev.CopyDtoH(sc, c.Data.Ptr()+cuda.DevPtr(8*int64(c.scaleRows)), nil); err != nil {
			return nil, err
		}
		out := &engine.Column{Type: engine.Numeric, Len: int(t.N), D: make([]engine.Dec, t.N), Valid: hc.Valid}
		for i, x := range hc.I64 {
			if !hc.IsNull(i) {
				// exact: the value has no more decimals than its scale
				out.D[i] = engine.DecFromScaled(x, int(c.Type.Scale)).Round(int32(sc[i]))
			}
		}
		return out, nil
	}
	return hc, nil
}

// helpers for building device argument blocks

func getI64(b []byte) int64   { return int64(binary.LittleEndian.Uint64(b)) }
func f64bits(f float64) int64 { return int64(math.Float64bits(f)) }
func bitsF64(v int64) float64 { return math.Float64frombits(uint64(v)) }

// HostLoader loads CSV with a host loader and uploads the result. The
// server uses the GPU CSV reader (loader.NewGPU); this lets the backend's
// tests build device tables from exactly the CPU loader's output.
type HostLoader struct {
	Dev  *cuda.Device
	Host engine.Loader
}

// Load parses on the host and uploads; the host copy is dropped.
func (l HostLoader) Load(ctx context.Context, req *engine.LoadRequest) (*engine.LoadResult, error) {
	res, err := l.Host.Load(ctx, req)
	if err != nil {
		return nil, err
	}
	h, ok := res.Data.(*engine.HostTable)
	if !ok {
		return nil, engine.Errorf(engine.CodeInternalError, "gpu: host loader returned %T", res.Data)
	}
	names := make([]string, len(req.Columns))
	for i, c := range req.Columns {
		names[i] = c.Name
	}
	t, err := UploadNamed(l.Dev, h, req.Table, names)
	if err != nil {
		return nil, err
	}
	res.Data = t
	return res, nil
}

// Concat appends through the host: both tables are downloaded, joined by
// engine.ConcatHost and the result uploaded (the GPU loader appends on the
// device; this loader exists for tests).
func (l HostLoader) Concat(table string, a, b engine.TableData) (engine.TableData, error) {
	ta, ok1 := a.(*Table)
	tb, ok2 := b.(*Table)
	if !ok1 || !ok2 {
		return nil, engine.Errorf(engine.CodeInternalError, "cannot append %T to %T", b, a)
	}
	return ConcatOnHost(l.Dev, table, ta, tb)
}

// ConcatOnHost is a's rows and then b's as a new table on dev, charged to
// table, made on the host: both are downloaded, joined by
// engine.ConcatHost (an unconstrained numeric column's rows keep their
// scales) and uploaded.
func ConcatOnHost(dev *cuda.Device, table string, a, b *Table) (*Table, error) {
	ha, err := a.Download()
	if err != nil {
		return nil, err
	}
	hb, err := b.Download()
	if err != nil {
		return nil, err
	}
	return Upload(dev, engine.ConcatHost(ha, hb), table)
}

// wideValue is narrowDecimals' refusal of d, a value past 18 digits.
type wideValue struct{ d engine.Dec }

func (w *wideValue) Error() string { return w.d.String() }

// RowScales reports whether the column keeps each row's numeric scale
// (rowScales).
func (c *Column) RowScales() bool { return c.rowScales }

// uploadRowScales stores a column of numerics of several scales as a
// rowScales column: nil where a value does not fit an int64 below 10^18 at
// the largest scale, or a scale is past 255 (narrowDecimals then decides).
func uploadRowScales(dev *cuda.Device, c *engine.Column, owner string) (*Column, error) {
	scale := int32(0)
	for i, d := range c.D {
		if !c.IsNull(i) {
			if d.Scale > 255 {
				return nil, nil
			}
			scale = max(scale, d.Scale)
		}
	}
	n := len(c.D)
	b := make([]byte, 9*n)
	for i, d := range c.D {
		if c.IsNull(i) {
			continue
		}
		r, ok := d.Rescale(scale)
		x, ok2 := r.Int64()
		if !ok || !ok2 || x >= engine.Pow10(18) || x <= -engine.Pow10(18) {
			return nil, nil
		}
		binary.LittleEndian.PutUint64(b[8*i:], uint64(x))
		b[8*n+i] = byte(d.Scale)
	}
	out := &Column{Type: engine.NumericType(18, int(scale)), rowScales: true, scaleRows: n}
	var err error
	if out.Data, err = dev.Alloc(owner, int64(len(b))); err != nil {
		return nil, err
	}
	if err = dev.CopyHtoD(out.Data.Ptr(), b, nil); err != nil {
		out.free()
		return nil, err
	}
	if c.Valid != nil {
		v := u64Bytes(c.Valid)
		if out.Valid, err = dev.Alloc(owner, int64(len(v))); err != nil {
			out.free()
			return nil, err
		}
		if err = dev.CopyHtoD(out.Valid.Ptr(), v, nil); err != nil {
			out.free()
			return nil, err
		}
	}
	return out, nil
}

// narrowDecimals stores a column of numerics with their own scales (D) as
// int64s at the largest of them (for numeric(p,s) with p > 18, at s: its
// stored type is numeric(18,s)), if every value fits below 10^18.
func narrowDecimals(c *engine.Column) (*engine.Column, error) {
	scale := int32(0)
	if c.Type.WideNumeric() {
		scale = int32(c.Type.Scale)
	}
	for i, d := range c.D {
		if !c.IsNull(i) {
			scale = max(scale, d.Scale)
		}
	}
	out := engine.NewColumn(engine.NumericType(18, int(scale)), c.Len, 0, false)
	out.Valid = c.Valid
	for i, d := range c.D {
		if c.IsNull(i) {
			continue
		}
		r, ok := d.Rescale(scale)
		x, ok2 := r.Int64()
		if !ok || !ok2 || x >= engine.Pow10(18) || x <= -engine.Pow10(18) {
			if c.Type.WideNumeric() {
				return nil, &wideValue{d}
			}
			return nil, unsupported("a numeric value of more than 18 digits (%s) in an intermediate result on the GPU", d)
		}
		out.I64[i] = x
	}
	return out, nil
}
