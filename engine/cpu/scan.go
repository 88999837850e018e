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
