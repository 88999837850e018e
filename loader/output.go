package loader

import (
	"slices"

	"github.com/gpusql/gpusql/engine"
)

// Output columns grow batch by batch. Storage past a column's rows is kept
// zeroed, so a string copied into a fresh row is already zero-padded.

// newOutput returns empty columns for the plan.
func newOutput(cols []colPlan) []*engine.Column {
	out := make([]*engine.Column, len(cols))
	for i := range cols {
		out[i] = engine.NewColumn(cols[i].def.Type, 0, 0, false)
	}
	return out
}

// grow extends s to n elements. Elements past len(s) are already zero:
// fresh memory is, and removeRows clears what it gives up.
func grow[T any](s []T, n int) []T {
	if n <= cap(s) {
		return s[:n]
	}
	return slices.Grow(s, n-len(s))[:n]
}

// reserve makes room for n rows without adding any, when the input's size
// gives a good estimate, so that columns are not copied as they grow.
func reserve(c *engine.Column, n int) {
	if c.Type.WideNumeric() {
		c.D = slices.Grow(c.D, n-len(c.D))
		return
	}
	switch c.Type.Kind {
	case engine.KindBool:
		c.B = slices.Grow(c.B, n-len(c.B))
	case engine.KindInt16:
		c.I16 = slices.Grow(c.I16, n-len(c.I16))
	case engine.KindInt32, engine.KindDate:
		c.I32 = slices.Grow(c.I32, n-len(c.I32))
	case engine.KindInt64, engine.KindNumeric, engine.KindTimestamp, engine.KindTimestampTZ, engine.KindTime:
		c.I64 = slices.Grow(c.I64, n-len(c.I64))
	case engine.KindFloat32:
		c.F32 = slices.Grow(c.F32, n-len(c.F32))
	case engine.KindFloat64:
		c.F64 = slices.Grow(c.F64, n-len(c.F64))
	default:
		c.Str = slices.Grow(c.Str, n*c.Width-len(c.Str))
	}
}

// growColumn makes room for n rows, a string width of at least width
// bytes, and a validity bitmap if nulls is set.
func growColumn(c *engine.Column, n, width int, nulls bool) {
	switch c.Type.Kind {
	case engine.KindNumeric:
		if c.Type.WideNumeric() || c.Type.Prec == 0 {
			c.D = grow(c.D, n)
		} else {
			c.I64 = grow(c.I64, n)
		}
	case engine.KindBool:
		c.B = grow(c.B, n)
	case engine.KindInt16:
		c.I16 = grow(c.I16, n)
	case engine.KindInt32, engine.KindDate:
		c.I32 = grow(c.I32, n)
	case engine.KindInt64, engine.KindTimestamp, engine.KindTimestampTZ, engine.KindTime:
		c.I64 = grow(c.I64, n)
	case engine.KindFloat32:
		c.F32 = grow(c.F32, n)
	case engine.KindFloat64:
		c.F64 = grow(c.F64, n)
	default:
		w := engine.RoundWidth(width)
		if w > c.Width { // re-pad the rows loaded so far to the new width
			str := make([]byte, n*w)
			for i := 0; i < c.Len; i++ {
				copy(str[i*w:], c.Str[i*c.Width:(i+1)*c.Width])
			}
			c.Str, c.Width = str, w
		} else {
			c.Str = grow(c.Str, n*c.Width)
		}
	}
	if nulls || c.Valid != nil {
		words := (n + 63) / 64
		if c.Valid == nil {
			c.Valid = make([]uint64, words)
			for k := range c.Valid {
				c.Valid[k] = ^uint64(0)
			}
			// bits of rows loaded before stay set: they are not NULL
		} else if words > len(c.Valid) {
			old := len(c.Valid)
			c.Valid = slices.Grow(c.Valid, words-old)[:words]
			for k := old; k < words; k++ {
				c.Valid[k] = ^uint64(0)
			}
		}
	}
	c.Len = n
}

// removeRows deletes the given output rows (sorted, all >= from) from
// every column, moving later rows down. It is the rare path for values
// that failed to parse when bad rows are being skipped.
func removeRows(cols []*engine.Column, rows []int, n int) int {
	if len(rows) == 0 {
		return n
	}
	keep := func(move func(dst, src int), clearTail func(newN int)) {
		dst := rows[0]
		k := 0
		for src := rows[0]; src < n; src++ {
			if k < len(rows) && rows[k] == src {
				k++
				continue
			}
			move(dst, src)
			dst++
		}
		clearTail(dst)
	}
	newN := n - len(rows)
	for _, c := range cols {
		c := c
		switch c.Type.Kind {
		case engine.KindNumeric:
			if c.D != nil {
				keep(func(d, s int) { c.D[d] = c.D[s] }, func(m int) { clear(c.D[m:]); c.D = c.D[:m] })
			} else {
				keep(func(d, s int) { c.I64[d] = c.I64[s] }, func(m int) { clear(c.I64[m:]); c.I64 = c.I64[:m] })
			}
		case engine.KindBool:
			keep(func(d, s int) { c.B[d] = c.B[s] }, func(m int) { clear(c.B[m:]); c.B = c.B[:m] })
		case engine.KindInt16:
			keep(func(d, s int) { c.I16[d] = c.I16[s] }, func(m int) { clear(c.I16[m:]); c.I16 = c.I16[:m] })
		case engine.KindInt32, engine.KindDate:
			keep(func(d, s int) { c.I32[d] = c.I32[s] }, func(m int) { clear(c.I32[m:]); c.I32 = c.I32[:m] })
		case engine.KindInt64, engine.KindTimestamp, engine.KindTimestampTZ, engine.KindTime:
			keep(func(d, s int) { c.I64[d] = c.I64[s] }, func(m int) { clear(c.I64[m:]); c.I64 = c.I64[:m] })
		case engine.KindFloat32:
			keep(func(d, s int) { c.F32[d] = c.F32[s] }, func(m int) { clear(c.F32[m:]); c.F32 = c.F32[:m] })
		case engine.KindFloat64:
			keep(func(d, s int) { c.F64[d] = c.F64[s] }, func(m int) { clear(c.F64[m:]); c.F64 = c.F64[:m] })
		default:
			w := c.Width
			keep(func(d, s int) { copy(c.Str[d*w:(d+1)*w], c.Str[s*w:(s+1)*w]) }, func(m int) { clear(c.Str[m*w:]); c.Str = c.Str[:m*w] })
		}
		if c.Valid != nil {
			v := c.Valid
			bit := func(i int) bool { return v[i>>6]&(1<<(uint(i)&63)) != 0 }
			keep(func(d, s int) {
				if bit(s) {
					v[d>>6] |= 1 << (uint(d) & 63)
				} else {
					v[d>>6] &^= 1 << (uint(d) & 63)
				}
			}, func(m int) {
				for i := m; i < n; i++ {
					v[i>>6] |= 1 << (uint(i) & 63)
				}
				c.Valid = v[:(m+63)/64]
			})
		}
		c.Len = newN
	}
	return newN
}
