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
	return scanRows(c, lo, hi-lo, nil)
}

// scanRows turns rows of a stored column into a vector: rows lo+sel[k]
// when sel is not nil, else the n rows from lo. A scan that filters reads
// the columns its filter does not use this way, only at the rows that
// passed.
func scanRows(c *engine.Column, lo, n int, sel []int32) *engine.Vec {
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
		v.I = make([]int64, n)
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
		v.I = make([]int64, n)
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
		v.I = make([]int64, n)
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
			v.I = make([]int64, n)
			s := c.I64[lo:]
			for k, i := range sel {
				v.I[k] = s[i]
			}
		}
	case engine.KindNumeric:
		v.D = make([]engine.Dec, n)
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
		v.F = make([]float64, n)
		for k := 0; k < n; k++ {
			v.F[k] = float64(c.F32[row(k)])
		}
	case engine.KindFloat64:
		if sel == nil {
			v.F = c.F64[lo : lo+n : lo+n]
		} else {
			v.F = make([]float64, n)
			s := c.F64[lo:]
			for k, i := range sel {
				v.F[k] = s[i]
			}
		}
	case engine.KindChar, engine.KindVarchar, engine.KindText:
		v.S = make([][]byte, n)
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
