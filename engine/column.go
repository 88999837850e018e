package engine

import "math/bits"

// Column is one host-resident column: a fixed-width array plus validity.
// Exactly one of the data slices is used, chosen by Type.Kind:
//
//	KindBool                      B   (0 or 1)
//	KindInt16                     I16
//	KindInt32, KindDate           I32 (dates: days since 1970-01-01)
//	KindInt64, KindNumeric,
//	KindTimestamp                 I64 (numeric: value * 10^Scale;
//	                                   timestamps: µs since 1970-01-01)
//	KindFloat32                   F32
//	KindFloat64                   F64
//	KindChar, KindVarchar,
//	KindText                      Str, Width bytes per row, zero-padded UTF-8
//	KindNumeric, wide             D   (numeric(p,s) with p > 18: every
//	                                   value at scale s; or each value with
//	                                   its own scale: an intermediate
//	                                   result's unconstrained numeric
//	                                   beyond 18 digits; host only)
//
// A string value's length is the index of its first zero byte (or Width).
// PostgreSQL text cannot hold NUL, so the padding is unambiguous. Width is a
// multiple of 4 sized from the longest value loaded (0 when every value is
// empty or NULL). char(n) values are stored without their blank padding;
// the padding is added on output.
type Column struct {
	Type  Type
	Len   int // rows
	B     []uint8
	I16   []int16
	I32   []int32
	I64   []int64
	F32   []float32
	F64   []float64
	Str   []byte
	D     []Dec
	Width int
	// Valid is a bitmap, bit i set when row i is not NULL. Nil means no
	// NULLs at all.
	Valid []uint64
}

// NewColumn allocates a column of n rows of type t. For strings, width is
// the byte width per row (rounded up to a multiple of 4 here). If nullable,
// Valid is allocated with every row marked valid.
func NewColumn(t Type, n, width int, nullable bool) *Column {
	c := &Column{Type: t, Len: n}
	switch {
	case t.WideNumeric():
		c.D = make([]Dec, n)
		for i := range c.D {
			c.D[i].Scale = int32(t.Scale)
		}
	case t.Kind == KindBool:
		c.B = make([]uint8, n)
	case t.Kind == KindInt16:
		c.I16 = make([]int16, n)
	case t.Kind == KindInt32, t.Kind == KindDate:
		c.I32 = make([]int32, n)
	case t.Kind == KindInt64, t.Kind == KindNumeric, t.IsTimestamp(), t.Kind == KindTime:
		c.I64 = make([]int64, n)
	case t.Kind == KindFloat32:
		c.F32 = make([]float32, n)
	case t.Kind == KindFloat64:
		c.F64 = make([]float64, n)
	case t.Kind == KindChar, t.Kind == KindVarchar, t.Kind == KindText:
		c.Width = RoundWidth(width)
		c.Str = make([]byte, n*c.Width)
	}
	if nullable {
		c.Valid = make([]uint64, (n+63)/64)
		for i := range c.Valid {
			c.Valid[i] = ^uint64(0)
		}
	}
	return c
}

// RoundWidth rounds a string byte width up to a multiple of 4.
func RoundWidth(w int) int { return (w + 3) &^ 3 }

// IsNull reports whether row i is NULL.
func (c *Column) IsNull(i int) bool {
	return c.Valid != nil && c.Valid[i>>6]&(1<<(uint(i)&63)) == 0
}

// MixedScales reports whether c holds numerics value by value (D) whose
// scales differ: a column the GPU's scaled int64 arrays cannot keep as
// PostgreSQL shows it.
func (c *Column) MixedScales() bool {
	scale := int32(-1)
	for i, d := range c.D {
		if c.IsNull(i) {
			continue
		}
		if scale >= 0 && d.Scale != scale {
			return true
		}
		scale = d.Scale
	}
	return false
}

// SetNull marks row i NULL, allocating the bitmap if needed.
func (c *Column) SetNull(i int) {
	if c.Valid == nil {
		c.Valid = make([]uint64, (c.Len+63)/64)
		for k := range c.Valid {
			c.Valid[k] = ^uint64(0)
		}
	}
	c.Valid[i>>6] &^= 1 << (uint(i) & 63)
}

// NullCount counts NULL rows.
func (c *Column) NullCount() int {
	if c.Valid == nil {
		return 0
	}
	valid := 0
	full := c.Len / 64
	for k := 0; k < full; k++ {
		valid += bits.OnesCount64(c.Valid[k])
	}
	if r := c.Len % 64; r != 0 {
		valid += bits.OnesCount64(c.Valid[full] & (1<<uint(r) - 1))
	}
	return c.Len - valid
}

// StrAt returns row i's string bytes (without padding). The slice aliases
// the column's storage.
func (c *Column) StrAt(i int) []byte {
	s := c.Str[i*c.Width : (i+1)*c.Width]
	for j, b := range s {
		if b == 0 {
			return s[:j]
		}
	}
	return s
}

// Bytes is the storage size of the column in bytes.
func (c *Column) Bytes() int64 {
	n := int64(len(c.B)) + 2*int64(len(c.I16)) + 4*int64(len(c.I32)) + 8*int64(len(c.I64)) +
		4*int64(len(c.F32)) + 8*int64(len(c.F64)) + int64(len(c.Str)) + 8*int64(len(c.Valid)) + 24*int64(len(c.D))
	return n
}

// ConcatHost returns a new host table with a's rows followed by b's. The
// tables must have the same column types. String columns take the wider of
// the two widths.
func ConcatHost(a, b *HostTable) *HostTable {
	n := int(a.N + b.N)
	out := NewHostTable(make([]*Column, len(a.Cols)), int64(n))
	for k, ca := range a.Cols {
		cb := b.Cols[k]
		if ca.Type.Kind == KindNumeric {
			ca, cb = conformNumeric(ca, cb)
		}
		w := max(ca.Width, cb.Width)
		c := NewColumn(ca.Type, n, w, ca.Valid != nil || cb.Valid != nil)
		if ca.D != nil {
			c.I64, c.D = nil, make([]Dec, n)
		}
		na := int(a.N)
		switch {
		case c.D != nil:
			copy(c.D, ca.D)
			copy(c.D[na:], cb.D)
		case c.B != nil:
			copy(c.B, ca.B)
			copy(c.B[na:], cb.B)
		case c.I16 != nil:
			copy(c.I16, ca.I16)
			copy(c.I16[na:], cb.I16)
		case c.I32 != nil:
			copy(c.I32, ca.I32)
			copy(c.I32[na:], cb.I32)
		case c.I64 != nil:
			copy(c.I64, ca.I64)
			copy(c.I64[na:], cb.I64)
		case c.F32 != nil:
			copy(c.F32, ca.F32)
			copy(c.F32[na:], cb.F32)
		case c.F64 != nil:
			copy(c.F64, ca.F64)
			copy(c.F64[na:], cb.F64)
		case ca.Type.Kind == KindChar || ca.Type.Kind == KindVarchar || ca.Type.Kind == KindText:
			for i := 0; i < na; i++ {
				copy(c.Str[i*c.Width:], ca.StrAt(i))
			}
			for i := 0; i < int(b.N); i++ {
				copy(c.Str[(na+i)*c.Width:], cb.StrAt(i))
			}
		}
		for i := 0; i < na; i++ {
			if ca.IsNull(i) {
				c.SetNull(i)
			}
		}
		for i := 0; i < int(b.N); i++ {
			if cb.IsNull(i) {
				c.SetNull(na + i)
			}
		}
		out.Cols[k] = c
	}
	return out
}
