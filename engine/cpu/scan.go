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
	n := hi - lo
	v := &engine.Vec{T: c.Type, N: n}
	if c.Valid != nil {
		for i := lo; i < hi; i++ {
			if c.IsNull(i) {
				if v.Null == nil {
					v.Null = make([]bool, n)
				}
				v.Null[i-lo] = true
			}
		}
	}
	switch c.Type.Kind {
	case engine.KindBool:
		v.I = make([]int64, n)
		for i, x := range c.B[lo:hi] {
			v.I[i] = int64(x)
		}
	case engine.KindInt16:
		v.I = make([]int64, n)
		for i, x := range c.I16[lo:hi] {
			v.I[i] = int64(x)
		}
	case engine.KindInt32, engine.KindDate:
		v.I = make([]int64, n)
		for i, x := range c.I32[lo:hi] {
			v.I[i] = int64(x)
		}
	case engine.KindInt64, engine.KindTimestamp, engine.KindTimestampTZ, engine.KindTime:
		v.I = c.I64[lo:hi:hi]
	case engine.KindNumeric:
		if c.D != nil {
			v.D = append([]engine.Dec(nil), c.D[lo:hi]...)
			break
		}
		v.D = make([]engine.Dec, n)
		s := c.Type.Scale
		for i, x := range c.I64[lo:hi] {
			v.D[i] = engine.DecFromScaled(x, s)
		}
	case engine.KindFloat32:
		v.F = make([]float64, n)
		for i, x := range c.F32[lo:hi] {
			v.F[i] = float64(x)
		}
	case engine.KindFloat64:
		v.F = c.F64[lo:hi:hi]
	case engine.KindChar, engine.KindVarchar, engine.KindText:
		v.S = make([][]byte, n)
		trim := c.Type.Kind == engine.KindChar
		for i := lo; i < hi; i++ {
			if c.Width == 0 {
				v.S[i-lo] = nil
				continue
			}
			s := c.StrAt(i)
			if trim {
				for len(s) > 0 && s[len(s)-1] == ' ' {
					s = s[:len(s)-1]
				}
			}
			v.S[i-lo] = s
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
