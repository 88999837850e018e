package pqfile_test

import (
	"bytes"
	"context"
	"math"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/loader/pqfile"
)

// TestWriteRowGroups: a Writer fed batches of several sizes makes row
// groups at batch boundaries, keeps the columns in their order (not in
// name order), and Read gives back every value and NULL.
func TestWriteRowGroups(t *testing.T) {
	cols := []pqfile.WriteColumn{
		{Name: "z", Type: engine.Int64},
		{Name: "a", Type: engine.Text},
		{Name: "m", Type: engine.NumericType(9, 2)},
		{Name: "c", Type: engine.Type{Kind: engine.KindChar, Len: 3}},
		{Name: "f", Type: engine.Float32},
	}
	var buf bytes.Buffer
	w, err := pqfile.NewWriter(&buf, cols, pqfile.WriteOptions{RowsPerGroup: 1000})
	if err != nil {
		t.Fatal(err)
	}
	const n = 10_000
	for start, size := 0, 1; start < n; start, size = start+size, size*2+1 {
		size = min(size, n-start)
		b := &engine.Batch{N: size}
		z, a, m, c, f := engine.NewVec(cols[0].Type, size), engine.NewVec(cols[1].Type, size), engine.NewVec(cols[2].Type, size),
			engine.NewVec(cols[3].Type, size), engine.NewVec(cols[4].Type, size)
		for k := 0; k < size; k++ {
			i := start + k
			z.I[k] = int64(i) * (math.MaxInt64 / n)
			a.S[k] = []byte(strings.Repeat("é", i%7))
			m.D[k] = engine.DecFromScaled(int64(i%1999)-999, 1) // rescaled to 2 digits
			c.S[k] = []byte(strings.Repeat("ü", i%4))
			f.F[k] = float64(float32(i) / 3)
			if i%5 == 0 {
				a.SetNull(k)
				f.SetNull(k)
			}
			if i%7 == 0 {
				m.SetNull(k)
			}
		}
		b.Cols = []*engine.Vec{z, a, m, c, f}
		if err := w.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if w.Rows() != n {
		t.Fatalf("rows %d", w.Rows())
	}
	f, err := pqfile.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()), "w.parquet", nil)
	if err != nil {
		t.Fatal(err)
	}
	if f.RowGroups() < 5 {
		t.Errorf("%d row groups", f.RowGroups())
	}
	got, err := f.Columns()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range got {
		names = append(names, c.Name+" "+c.Type.String())
	}
	if s := strings.Join(names, ", "); s != "z bigint, a text, m numeric(9,2), c text, f real" {
		t.Errorf("columns: %s", s)
	}
	h, err := pqfile.Read(context.Background(), []*pqfile.File{f}, got, pqfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		ok := h.Cols[0].I64[i] == int64(i)*(math.MaxInt64/n) &&
			h.Cols[1].IsNull(i) == (i%5 == 0) && (i%5 == 0 || string(h.Cols[1].StrAt(i)) == strings.Repeat("é", i%7)) &&
			h.Cols[2].IsNull(i) == (i%7 == 0) && (i%7 == 0 || h.Cols[2].I64[i] == (int64(i%1999)-999)*10) &&
			string(h.Cols[3].StrAt(i)) == strings.Repeat("ü", i%4)+strings.Repeat(" ", 3-i%4) &&
			h.Cols[4].IsNull(i) == (i%5 == 0) && (i%5 == 0 || h.Cols[4].F32[i] == float32(i)/3)
		if !ok {
			t.Fatalf("row %d differs", i)
		}
	}
}

// TestWriteRefuses: types without a Parquet form, and a value wider than
// its declared numeric, fail with their SQLSTATE.
func TestWriteRefuses(t *testing.T) {
	for _, typ := range []engine.Type{engine.Numeric, {Kind: engine.KindInterval}} {
		_, err := pqfile.NewWriter(&bytes.Buffer{}, []pqfile.WriteColumn{{Name: "x", Type: typ}}, pqfile.WriteOptions{})
		if e, ok := err.(*engine.Error); !ok || e.Code != engine.CodeFeatureNotSupported || !strings.Contains(e.Message, `"x"`) {
			t.Errorf("%s: %v", typ, err)
		}
	}
	typ := engine.NumericType(4, 2)
	w, err := pqfile.NewWriter(&bytes.Buffer{}, []pqfile.WriteColumn{{Name: "x", Type: typ}}, pqfile.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	v := engine.NewVec(typ, 1)
	v.D[0] = engine.DecFromScaled(10000, 2)
	err = w.Write(&engine.Batch{N: 1, Cols: []*engine.Vec{v}})
	if e, ok := err.(*engine.Error); !ok || e.Code != engine.CodeNumericValueOutOfRange {
		t.Errorf("overflow: %v", err)
	}
}
