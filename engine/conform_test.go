package engine

import "testing"

func TestConcatHostNumericScales(t *testing.T) {
	col := func(scale int, vals ...int64) *Column {
		c := NewColumn(NumericType(18, scale), len(vals), 0, false)
		copy(c.I64, vals)
		return c
	}
	a := NewHostTable([]*Column{col(2, 150, -7)}, 2)
	b := NewHostTable([]*Column{col(4, 12345)}, 1)
	// an unconstrained column's versions stored at scales 2 and 4: each
	// row keeps its own, as PostgreSQL shows them
	got := ConcatHost(a, b).Cols[0]
	if got.D == nil || len(got.D) != 3 || got.D[0].String() != "1.50" || got.D[1].String() != "-0.07" || got.D[2].String() != "1.2345" {
		t.Errorf("scales 2 and 4: %+v", got)
	}
	// one scale among the values: scaled int64s at it
	c := NewHostTable([]*Column{col(4, 5)}, 1)
	got = ConcatHost(b, c).Cols[0]
	if got.D != nil || got.Type.Scale != 4 || len(got.I64) != 2 || got.I64[0] != 12345 || got.I64[1] != 5 {
		t.Errorf("scale 4 twice: %+v", got)
	}
	wide := NewHostTable([]*Column{{Type: Numeric, Len: 1, D: []Dec{DecFromScaled(5, 30)}}}, 1)
	got = ConcatHost(a, wide).Cols[0]
	if got.D == nil || got.I64 != nil || len(got.D) != 3 || got.D[0].String() != "1.50" || got.D[2].Scale != 30 {
		t.Errorf("with Dec values: %+v", got)
	}
}
