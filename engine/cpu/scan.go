package cpu

import (
	"github.com/gpusql/gpusql/engine"
)

// batchRows is the number of rows an operator handles at a time: large
// enough to amortise per-batch work, small enough to stay in cache.
const batchRows = 4096

// scanColumn turns rows [lo, hi) of a stored column into a vector.
// Strings alias the column's storage; char(n) values lose trailing blanks,
// which are insignificant for bpchar.
func scanColumn(c *engine.Column, lo, hi int) *engine.Vec {
	return scanRows(c, lo, hi-lo, nil, nil)
}

// vecBuf holds a column's vector storage from one morsel to the next, for
// a scan whose vectors do not outlive the morsel (an aggregate copies what
// it keeps): the same few kilobytes stay in cache instead of fresh memory
// being written each time.
type vecBuf struct {
	i []int64
	f []float64
	d []engine.Dec
	s [][]byte
}

// scanBufs are a worker's vecBufs, one per table column and scan phase.
type scanBufs struct {
	filter, rest []vecBuf
	sel          []int32 // a stored-domain filter's selection
	// lazy marks the narrow numeric columns (stored as scaled int64s)
	// that an aggregation reads as their stored mantissas (scaled): their
	// vectors are scanned with no Dec values, which decs makes only when
	// some step needs them. scaled is the current morsel's (nil for the
	// other columns), scale the columns' scales, pending whether some
	// vector of the morsel still lacks its Dec values.
	lazy    []bool
	scaled  [][]int64
	scale   []int32
	pending bool
	// lazyStr marks the string columns that an aggregation reads only as
	// GROUP BY keys: their vectors are scanned as NULL flags alone, the
	// rows kept in strs (the current morsel's; nil for the other
	// columns), which the grouping reads from the stored bytes
	// (groupIndex.assignStored) and strCol makes strings of where some
	// step needs them
	lazyStr []bool
	strs    []*storedStr
}

// startMorsel forgets the previous morsel's stored mantissas.
func (b *scanBufs) startMorsel() {
	if b != nil && b.lazy != nil {
		clear(b.scaled)
		clear(b.strs)
		b.pending = false
	}
}

// isLazyStr reports whether column c is scanned as its stored rows only.
func (b *scanBufs) isLazyStr(c int) bool { return b != nil && b.lazyStr != nil && b.lazyStr[c] }

// scanLazyStr scans string column c (rows as scanRows takes them) as its
// NULL flags, with no strings until strCol.
func (b *scanBufs) scanLazyStr(c int, col *engine.Column, lo, n int, sel []int32) *engine.Vec {
	if sel != nil {
		n = len(sel)
	}
	v := &engine.Vec{T: col.Type, N: n, Null: nullFlags(col, lo, n, sel)}
	st := b.strs[c]
	if st == nil {
		st = &storedStr{}
	}
	*st = storedStr{col: col, lo: lo, sel: sel}
	b.strs[c] = st
	b.pending = true
	return v
}

// stored returns the stored rows of batch in's column c (n rows) when it
// was scanned by scanLazyStr and has no strings yet.
func (b *scanBufs) stored(in *engine.Batch, c, n int) (*storedStr, bool) {
	if b == nil || b.lazyStr == nil || c < 0 || c >= len(b.strs) || c >= len(in.Cols) {
		return nil, false
	}
	st, v := b.strs[c], in.Cols[c]
	if st == nil || v == nil || v.S != nil || v.N != n {
		return nil, false
	}
	return st, true
}

// strCol gives v, column c scanned by scanLazyStr, its strings.
func (b *scanBufs) strCol(v *engine.Vec, c int) {
	st := b.strs[c]
	if st == nil || v == nil || v.S != nil {
		return
	}
	v.S = takeS(&b.rest[c], v.N)
	for k := range v.S {
		if v.Null == nil || !v.Null[k] {
			v.S[k] = st.str(k)
		}
	}
}

// nullFlags is the NULL flags of a column's rows as scanRows takes them
// (nil: none).
func nullFlags(col *engine.Column, lo, n int, sel []int32) []bool {
	var null []bool
	if col.Valid != nil {
		for k := 0; k < n; k++ {
			r := lo + k
			if sel != nil {
				r = lo + int(sel[k])
			}
			if col.IsNull(r) {
				if null == nil {
					null = make([]bool, n)
				}
				null[k] = true
			}
		}
	}
	return null
}

// isLazy reports whether column c is scanned as stored mantissas.
func (b *scanBufs) isLazy(c int) bool { return b != nil && b.lazy != nil && b.lazy[c] }

// scanLazy scans column c (rows as scanRows takes them) as its NULL flags
// and its stored mantissas: the vector has no Dec values until decs.
func (b *scanBufs) scanLazy(c int, col *engine.Column, lo, n int, sel []int32) *engine.Vec {
	if sel != nil {
		n = len(sel)
	}
	v := &engine.Vec{T: col.Type, N: n, Null: nullFlags(col, lo, n, sel)}
	var m []int64
	if sel == nil {
		m = col.I64[lo : lo+n : lo+n]
	} else {
		m = takeI(&b.rest[c], n)
		s := col.I64[lo:]
		for k, i := range sel {
			m[k] = s[i]
		}
	}
	b.scaled[c] = m
	b.pending = true
	return v
}

// decs gives the lazily scanned vectors of batch in their Dec values, for
// a step that reads them as vectors.
func (b *scanBufs) decs(in *engine.Batch) {
	if b == nil || !b.pending {
		return
	}
	b.pending = false
	for c := range b.scaled {
		if c < len(in.Cols) {
			b.decCol(in.Cols[c], c)
		}
	}
	for c := range b.strs {
		if c < len(in.Cols) {
			b.strCol(in.Cols[c], c)
		}
	}
}

// decsFor gives the lazily scanned columns that expression e reads their
// Dec values (decs for those columns only).
func (b *scanBufs) decsFor(in *engine.Batch, e engine.Expr) {
	if b == nil || !b.pending {
		return
	}
	switch e := e.(type) {
	case *engine.ColRef:
		if c := e.Idx; c >= 0 && c < len(b.scaled) && b.scaled[c] != nil && c < len(in.Cols) {
			b.decCol(in.Cols[c], c)
		}
		if c := e.Idx; c >= 0 && c < len(b.strs) && b.strs[c] != nil && c < len(in.Cols) {
			b.strCol(in.Cols[c], c)
		}
	case *engine.Call:
		for _, a := range e.Args {
			b.decsFor(in, a)
		}
	case *engine.HostFunc:
		for _, a := range e.Args {
			b.decsFor(in, a)
		}
	case *engine.Case:
		for i := range e.Conds {
			b.decsFor(in, e.Conds[i])
			b.decsFor(in, e.Results[i])
		}
		b.decsFor(in, e.Else)
	case *engine.Const, nil:
	default:
		b.decs(in)
	}
}

// decCol gives v, lazily scanned column c, its Dec values.
func (b *scanBufs) decCol(v *engine.Vec, c int) {
	m := b.scaled[c]
	if m == nil || v == nil || v.D != nil {
		return
	}
	d := takeD(&b.rest[c], len(m))
	scale := b.scale[c]
	for i, x := range m {
		d[i] = engine.Dec{Hi: x >> 63, Lo: uint64(x), Scale: scale}
	}
	v.D = d
}

// setLazy makes the columns marked in lazy (narrow numerics of h) scan
// lazily.
func (b *scanBufs) setLazy(lazy, lazyStr []bool, h *engine.HostTable) {
	if lazy == nil {
		lazy = make([]bool, len(h.Cols))
	}
	b.lazy, b.lazyStr = lazy, lazyStr
	b.strs = make([]*storedStr, len(lazy))
	b.scaled = make([][]int64, len(lazy))
	b.scale = make([]int32, len(lazy))
	for c, col := range h.Cols {
		b.scale[c] = int32(col.Type.Scale)
	}
}

func newScanBufs(cols int) *scanBufs {
	return &scanBufs{filter: make([]vecBuf, cols), rest: make([]vecBuf, cols)}
}

// bufOf returns column c's buffer of phase bufs (nil: none).
func bufOf(bufs []vecBuf, c int) *vecBuf {
	if bufs == nil {
		return nil
	}
	return &bufs[c]
}

func takeI(b *vecBuf, n int) []int64 {
	if b == nil {
		return make([]int64, n)
	}
	if cap(b.i) < n {
		b.i = make([]int64, n)
	}
	return b.i[:n]
}

func takeF(b *vecBuf, n int) []float64 {
	if b == nil {
		return make([]float64, n)
	}
	if cap(b.f) < n {
		b.f = make([]float64, n)
	}
	return b.f[:n]
}

func takeD(b *vecBuf, n int) []engine.Dec {
	if b == nil {
		return make([]engine.Dec, n)
	}
	if cap(b.d) < n {
		b.d = make([]engine.Dec, n)
	}
	return b.d[:n]
}

func takeS(b *vecBuf, n int) [][]byte {
	if b == nil {
		return make([][]byte, n)
	}
	if cap(b.s) < n {
		b.s = make([][]byte, n)
	}
	s := b.s[:n]
	clear(s)
	return s
}

// scanRows turns rows of a stored column into a vector: rows lo+sel[k]
// when sel is not nil, else the n rows from lo. A scan that filters reads
// the columns its filter does not use this way, only at the rows that
// passed. The vector's storage comes from buf when not nil.
func scanRows(c *engine.Column, lo, n int, sel []int32, buf *vecBuf) *engine.Vec {
	if sel != nil {
		n = len(sel)
	}
	v := &engine.Vec{T: c.Type, N: n}
	// row returns the stored row of output row k.
	row := func(k int) int {
		if sel != nil {
			return lo + int(sel[k])
		}
		return lo + k
	}
	if c.Valid != nil {
		for k := 0; k < n; k++ {
			if c.IsNull(row(k)) {
				if v.Null == nil {
					v.Null = make([]bool, n)
				}
				v.Null[k] = true
			}
		}
	}
	switch c.Type.Kind {
	case engine.KindBool:
		v.I = takeI(buf, n)
		if sel == nil {
			for i, x := range c.B[lo : lo+n] {
				v.I[i] = int64(x)
			}
		} else {
			b := c.B[lo:]
			for k, i := range sel {
				v.I[k] = int64(b[i])
			}
		}
	case engine.KindInt16:
		v.I = takeI(buf, n)
		if sel == nil {
			for i, x := range c.I16[lo : lo+n] {
				v.I[i] = int64(x)
			}
		} else {
			s := c.I16[lo:]
			for k, i := range sel {
				v.I[k] = int64(s[i])
			}
		}
	case engine.KindInt32, engine.KindDate:
		v.I = takeI(buf, n)
		if sel == nil {
			for i, x := range c.I32[lo : lo+n] {
				v.I[i] = int64(x)
			}
		} else {
			s := c.I32[lo:]
			for k, i := range sel {
				v.I[k] = int64(s[i])
			}
		}
	case engine.KindInt64, engine.KindTimestamp, engine.KindTimestampTZ, engine.KindTime:
		if sel == nil {
			v.I = c.I64[lo : lo+n : lo+n]
		} else {
			v.I = takeI(buf, n)
			s := c.I64[lo:]
			for k, i := range sel {
				v.I[k] = s[i]
			}
		}
	case engine.KindNumeric:
		v.D = takeD(buf, n)
		if c.D != nil {
			if sel == nil {
				copy(v.D, c.D[lo:lo+n])
			} else {
				s := c.D[lo:]
				for k, i := range sel {
					v.D[k] = s[i]
				}
			}
			break
		}
		scale := int32(c.Type.Scale)
		if sel == nil {
			for i, x := range c.I64[lo : lo+n] {
				v.D[i] = engine.Dec{Hi: x >> 63, Lo: uint64(x), Scale: scale}
			}
		} else {
			s := c.I64[lo:]
			for k, i := range sel {
				x := s[i]
				v.D[k] = engine.Dec{Hi: x >> 63, Lo: uint64(x), Scale: scale}
			}
		}
	case engine.KindFloat32:
		v.F = takeF(buf, n)
		for k := 0; k < n; k++ {
			v.F[k] = float64(c.F32[row(k)])
		}
	case engine.KindFloat64:
		if sel == nil {
			v.F = c.F64[lo : lo+n : lo+n]
		} else {
			v.F = takeF(buf, n)
			s := c.F64[lo:]
			for k, i := range sel {
				v.F[k] = s[i]
			}
		}
	case engine.KindChar, engine.KindVarchar, engine.KindText:
		v.S = takeS(buf, n)
		if c.Width == 0 {
			break
		}
		trim := c.Type.Kind == engine.KindChar
		for k := 0; k < n; k++ {
			s := c.StrAt(row(k))
			if trim {
				for len(s) > 0 && s[len(s)-1] == ' ' {
					s = s[:len(s)-1]
				}
			}
			v.S[k] = s
		}
	}
	return v
}

// usedColumns marks the table columns that expressions read.
func usedColumns(n int, exprs ...engine.Expr) []bool {
	used := make([]bool, n)
	var walk func(e engine.Expr)
	walk = func(e engine.Expr) {
		switch e := e.(type) {
		case *engine.ColRef:
			if e.Idx < n {
				used[e.Idx] = true
			}
		case *engine.Call:
			for _, a := range e.Args {
				walk(a)
			}
		case *engine.HostFunc:
			for _, a := range e.Args {
				walk(a)
			}
		case *engine.Case:
			for i := range e.Conds {
				walk(e.Conds[i])
				walk(e.Results[i])
			}
			walk(e.Else)
		}
	}
	for _, e := range exprs {
		if e != nil {
			walk(e)
		}
	}
	return used
}

// raw returns column c of batch in (n rows, the current morsel) as its
// stored mantissas, their scale and NULL flags, when it was scanned
// lazily.
func (b *scanBufs) raw(in *engine.Batch, c, n int) ([]int64, int32, []bool, bool) {
	if b == nil || b.lazy == nil || c >= len(b.scaled) || c >= len(in.Cols) {
		return nil, 0, nil, false
	}
	m, v := b.scaled[c], in.Cols[c]
	if m == nil || v == nil || len(m) < n || v.Null != nil && len(v.Null) < n {
		return nil, 0, nil, false
	}
	return m[:n], b.scale[c], v.Null, true
}
