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
	got := ConcatHost(a, b).Cols[0]
	if got.Type.Scale != 4 || len(got.I64) != 3 || got.I64[0] != 15000 || got.I64[1] != -700 || got.I64[2] != 12345 {
		t.Errorf("scales 2 and 4: %+v", got)
	}
	wide := NewHostTable([]*Column{{Type: Numeric, Len: 1, D: []Dec{DecFromScaled(5, 30)}}}, 1)
	got = ConcatHost(a, wide).Cols[0]
	if got.D == nil || got.I64 != nil || len(got.D) != 3 || got.D[0].String() != "1.50" || got.D[2].Scale != 30 {
		t.Errorf("with Dec values: %+v", got)
	}
}
