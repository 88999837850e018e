package engine

import "testing"

// decBatch is one batch of an unconstrained numeric column holding ds
// (nil: NULL).
func decBatch(ds ...*Dec) *Batch {
	v := NewVec(Numeric, len(ds))
	for i, d := range ds {
		if d == nil {
			if v.Null == nil {
				v.Null = make([]bool, len(ds))
			}
			v.Null[i] = true
			continue
		}
		v.D[i] = *d
	}
	return &Batch{N: len(ds), Cols: []*Vec{v}}
}

func dec(x int64, scale int) *Dec { d := DecFromScaled(x, scale); return &d }

// TestHostFromBatchesKeepsScales: an intermediate table's unconstrained
// numeric column shows each value at its own scale, as PostgreSQL does
// (0 beside 1.50), and one of a single scale is stored as scaled int64s.
func TestHostFromBatchesKeepsScales(t *testing.T) {
	mixed := []*Batch{decBatch(dec(0, 0), nil, dec(150, 2)), decBatch(dec(2, 0), dec(1000, 3))}
	h, err := HostFromBatches([]Type{Numeric}, mixed)
	if err != nil {
		t.Fatal(err)
	}
	c := h.Cols[0]
	if c.D == nil || !c.MixedScales() {
		t.Fatalf("mixed scales stored as %s without per-value scales", c.Type)
	}
	want := []int32{0, -1, 2, 0, 3}
	for i, s := range want {
		if s < 0 {
			if !c.IsNull(i) {
				t.Errorf("row %d: want NULL", i)
			}
			continue
		}
		if c.IsNull(i) || c.D[i].Scale != s {
			t.Errorf("row %d: scale %d, want %d", i, c.D[i].Scale, s)
		}
	}

	one := []*Batch{decBatch(dec(150, 2), nil), decBatch(dec(-7, 2))}
	h, err = HostFromBatches([]Type{Numeric}, one)
	if err != nil {
		t.Fatal(err)
	}
	if c := h.Cols[0]; c.D != nil || c.Type.Scale != 2 || c.I64[0] != 150 || c.I64[2] != -7 || !c.IsNull(1) {
		t.Errorf("one scale: stored as %s D=%v I=%v, want scaled int64s at scale 2", c.Type, c.D != nil, c.I64)
	}
	if h.Cols[0].MixedScales() {
		t.Error("MixedScales of a scaled column")
	}
}
