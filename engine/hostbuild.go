package engine

// Host tables built by operators: the rows a join gathers, and the
// batches a pipeline's result is collected from.

// Gather returns a new column holding rows idx of c, in that order; an
// index of -1 gives a NULL row.
func (c *Column) Gather(idx []int32) *Column {
	n := len(idx)
	nullable := c.Valid != nil
	if !nullable {
		for _, i := range idx {
			if i < 0 {
				nullable = true
				break
			}
		}
	}
	out := NewColumn(c.Type, n, c.Width, nullable)
	out.Width = c.Width
	if c.Type.IsString() {
		out.Str = make([]byte, n*c.Width)
	}
	if c.D != nil {
		out.I64, out.D = nil, make([]Dec, n)
	}
	switch {
	case c.D != nil:
		for k, i := range idx {
			if i >= 0 {
				out.D[k] = c.D[i]
			}
		}
	case c.B != nil:
		for k, i := range idx {
			if i >= 0 {
				out.B[k] = c.B[i]
			}
		}
	case c.I16 != nil:
		for k, i := range idx {
			if i >= 0 {
				out.I16[k] = c.I16[i]
			}
		}
	case c.I32 != nil:
		for k, i := range idx {
			if i >= 0 {
				out.I32[k] = c.I32[i]
			}
		}
	case c.I64 != nil:
		for k, i := range idx {
			if i >= 0 {
				out.I64[k] = c.I64[i]
			}
		}
	case c.F32 != nil:
		for k, i := range idx {
			if i >= 0 {
				out.F32[k] = c.F32[i]
			}
		}
	case c.F64 != nil:
		for k, i := range idx {
			if i >= 0 {
				out.F64[k] = c.F64[i]
			}
		}
	case c.Width > 0:
		w := c.Width
		for k, i := range idx {
			if i >= 0 {
				copy(out.Str[k*w:(k+1)*w], c.Str[int(i)*w:(int(i)+1)*w])
			}
		}
	}
	if nullable {
		for k, i := range idx {
			if i < 0 || c.IsNull(int(i)) {
				out.Valid[k>>6] &^= 1 << (uint(k) & 63)
			}
		}
	}
	return out
}

// EmptyHost is a table of no rows with columns of the given types.
func EmptyHost(cols []ColumnDef) *HostTable {
	h := &HostTable{Cols: make([]*Column, len(cols))}
	for i, c := range cols {
		h.Cols[i] = NewColumn(c.Type, 0, 0, false)
	}
	return h
}

// StoredType is the type a column of type t is stored as in a host
// table built from computed values: an unconstrained numeric becomes
// numeric(18, scale), the widest scale its values have.
func StoredType(t Type, scale int32) Type {
	if t.Kind == KindNumeric && t.Prec == 0 {
		return NumericType(18, int(scale))
	}
	return t
}

// HostFromBatches stores the rows of batches (columns of types ts) as a
// host table. An unconstrained numeric column whose values share one
// scale and fit an int64 is stored as scaled int64s at that scale;
// otherwise each value keeps its own scale, as PostgreSQL shows it. A
// string column is as wide as its longest value. Interval columns cannot
// be stored: the error is 0A000. numeric(p,s) with p > 18 is stored as
// Dec values at scale s.
func HostFromBatches(ts []Type, batches []*Batch) (*HostTable, error) {
	return hostFromBatches(ts, batches, false)
}

// HostFromBatchesExact is HostFromBatches keeping each unconstrained
// numeric value at its own scale, as a query result shows it (engine/multi
// merges partial results with it).
func HostFromBatchesExact(ts []Type, batches []*Batch) (*HostTable, error) {
	return hostFromBatches(ts, batches, true)
}

func hostFromBatches(ts []Type, batches []*Batch, exact bool) (*HostTable, error) {
	n := 0
	for _, b := range batches {
		n += b.N
	}
	h := &HostTable{N: int64(n), Cols: make([]*Column, len(ts))}
	for k, t := range ts {
		nullable, width, scale := false, 0, int32(t.Scale)
		mixed, seen := false, int32(-1) // unconstrained numerics of several scales
		for _, b := range batches {
			v := b.Cols[k]
			if v.Null != nil {
				nullable = true
			}
			switch PhysOf(t.Kind) {
			case PhysStr:
				for i := 0; i < b.N; i++ {
					width = max(width, len(v.S[i]))
				}
			case PhysDec:
				if t.Prec == 0 {
					for i := 0; i < b.N; i++ {
						if !v.IsNull(i) {
							sc := v.D[i].Scale
							mixed = mixed || seen >= 0 && sc != seen
							seen, scale = sc, max(scale, sc)
						}
					}
				}
			case PhysInterval:
				return nil, Errorf(CodeFeatureNotSupported, "an interval column in a join, derived table or set operation is not supported")
			}
		}
		if t.Kind == KindNumeric && t.Prec == 0 && (exact || mixed || !fitsScaled(batches, k, scale)) {
			// values of several scales (PostgreSQL shows each at its
			// own: 0 beside 1.50), or wider than int64 at one scale:
			// each value as it is
			c := &Column{Type: t, Len: n, D: make([]Dec, n)}
			if nullable {
				c.Valid = NewColumn(Bool, n, 0, true).Valid
			}
			row := 0
			for _, b := range batches {
				v := b.Cols[k]
				for i := 0; i < b.N; i++ {
					if v.IsNull(i) {
						c.Valid[(row+i)>>6] &^= 1 << (uint(row+i) & 63)
					} else {
						c.D[row+i] = v.D[i]
					}
				}
				row += b.N
			}
			h.Cols[k] = c
			continue
		}
		st := StoredType(t, scale)
		c := NewColumn(st, n, width, nullable)
		row := 0
		for _, b := range batches {
			v := b.Cols[k]
			if err := storeVec(c, row, v, b.N, scale); err != nil {
				return nil, err
			}
			row += b.N
		}
		h.Cols[k] = c
	}
	return h, nil
}

// fitsScaled reports whether column k's numerics all fit an int64 below
// 10^18 at scale.
func fitsScaled(batches []*Batch, k int, scale int32) bool {
	for _, b := range batches {
		v := b.Cols[k]
		for i := 0; i < b.N; i++ {
			if v.IsNull(i) {
				continue
			}
			d, ok := v.D[i].Rescale(scale)
			x, ok2 := d.Int64()
			if !ok || !ok2 || x >= Pow10(18) || x <= -Pow10(18) {
				return false
			}
		}
	}
	return true
}

// storeVec writes n values of v into c from row at.
func storeVec(c *Column, at int, v *Vec, n int, scale int32) error {
	for i := 0; i < n; i++ {
		if v.IsNull(i) {
			c.Valid[(at+i)>>6] &^= 1 << (uint(at+i) & 63)
		}
	}
	switch c.Type.Kind {
	case KindBool:
		for i := 0; i < n; i++ {
			c.B[at+i] = uint8(v.I[i])
		}
	case KindInt16:
		for i := 0; i < n; i++ {
			c.I16[at+i] = int16(v.I[i])
		}
	case KindInt32, KindDate:
		for i := 0; i < n; i++ {
			c.I32[at+i] = int32(v.I[i])
		}
	case KindInt64, KindTimestamp, KindTimestampTZ, KindTime:
		copy(c.I64[at:at+n], v.I[:n])
	case KindFloat32:
		for i := 0; i < n; i++ {
			c.F32[at+i] = float32(v.F[i])
		}
	case KindFloat64:
		copy(c.F64[at:at+n], v.F[:n])
	case KindNumeric:
		if c.D != nil { // numeric(p,s), p > 18: Dec values at scale s
			for i := 0; i < n; i++ {
				if v.IsNull(i) {
					continue
				}
				d, ok := v.D[i], true
				if d.Scale > scale {
					d = d.Round(scale)
				} else if d, ok = d.Rescale(scale); !ok {
					return Errorf(CodeNumericValueOutOfRange, "numeric field overflow")
				}
				c.D[at+i] = d
			}
			return nil
		}
		for i := 0; i < n; i++ {
			if v.IsNull(i) {
				continue
			}
			d, ok := v.D[i].Rescale(scale)
			x, ok2 := d.Int64()
			if !ok || !ok2 || x >= Pow10(18) || x <= -Pow10(18) {
				return Errorf(CodeFeatureNotSupported, "numeric value %s is too wide for an intermediate result (18 digits)", v.D[i])
			}
			c.I64[at+i] = x
		}
	case KindChar, KindVarchar, KindText:
		w := c.Width
		for i := 0; i < n; i++ {
			if !v.IsNull(i) {
				copy(c.Str[(at+i)*w:(at+i+1)*w], v.S[i])
			}
		}
	}
	return nil
}
