package engine

// Numeric columns of two versions of one table may be stored at different
// scales: an unconstrained numeric column built from computed values is
// stored at the largest scale among them (StoredType), so rows appended
// by INSERT may come at another scale than the rows already there, or
// past 18 digits as Dec values. conformNumeric brings such a pair to one
// representation before they are concatenated.

// conformNumeric returns numeric columns a and b in one representation:
// scaled int64s when every value has one scale and fits below 10^18 there,
// else Dec values, each at its own scale. Columns already alike are
// returned as they are.
func conformNumeric(a, b *Column) (*Column, *Column) {
	if a.D == nil && b.D == nil && a.Type.Scale == b.Type.Scale {
		return a, b
	}
	if a.Type.WideNumeric() && a.Type == b.Type {
		return a, b // numeric(p,s), p > 18: both Dec values at scale s
	}
	scale := int32(max(a.Type.Scale, b.Type.Scale))
	for _, c := range []*Column{a, b} {
		for i := range c.D {
			if !c.IsNull(i) {
				scale = max(scale, c.D[i].Scale)
			}
		}
	}
	decs := func(c *Column) []Dec {
		if c.D != nil {
			return c.D
		}
		out := make([]Dec, c.Len)
		for i, v := range c.I64 {
			out[i] = DecFromScaled(v, c.Type.Scale)
		}
		return out
	}
	da, db := decs(a), decs(b)
	fits := true
	scaled := func(d []Dec, c *Column) []int64 {
		out := make([]int64, len(d))
		for i, v := range d {
			if c.IsNull(i) || !fits {
				continue
			}
			r, ok := v.Rescale(scale)
			x, ok2 := r.Int64()
			if !ok || !ok2 || x >= Pow10(18) || x <= -Pow10(18) {
				fits = false
				continue
			}
			out[i] = x
		}
		return out
	}
	// values of several scales stay Dec values, each at its own scale, as
	// PostgreSQL shows an unconstrained numeric column's rows
	one, seen := true, int32(-1)
	for k, d := range [][]Dec{da, db} {
		c := []*Column{a, b}[k]
		for i, v := range d {
			if !c.IsNull(i) {
				one = one && (seen < 0 || v.Scale == seen)
				seen = v.Scale
			}
		}
	}
	fits = one
	ia, ib := scaled(da, a), scaled(db, b)
	if fits {
		t := StoredType(Type{Kind: KindNumeric}, scale)
		return &Column{Type: t, Len: a.Len, I64: ia, Valid: a.Valid}, &Column{Type: t, Len: b.Len, I64: ib, Valid: b.Valid}
	}
	t := Type{Kind: KindNumeric}
	return &Column{Type: t, Len: a.Len, D: da, Valid: a.Valid}, &Column{Type: t, Len: b.Len, D: db, Valid: b.Valid}
}
