package pqfile_test

import (
	"bytes"
	"context"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/loader/pqfile"
)

// TestWriteRowGroups: a Writer fed batches of several sizes makes row
// groups of exactly RowsPerGroup rows (splitting batches), keeps the columns in their order (not in
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
	if f.RowGroups() != n/1000 || f.MaxRowGroupRows() != 1000 {
		t.Errorf("%d row groups of at most %d rows, want %d of 1000", f.RowGroups(), f.MaxRowGroupRows(), n/1000)
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

// BenchmarkWriteParquet writes 1,000,000 rows of eight columns (the
// reader benchmark's shapes: integers, a flag, a decimal, a date, a
// timestamp, a double, a nullable comment) in batches of 65,536 rows to
// a discarding writer, and reports rows per second.
func BenchmarkWriteParquet(b *testing.B) {
	const n, batch = 1_000_000, 65_536
	cols := []pqfile.WriteColumn{
		{Name: "orderkey", Type: engine.Int64}, {Name: "qty", Type: engine.Int32}, {Name: "flag", Type: engine.Text},
		{Name: "price", Type: engine.NumericType(15, 2)}, {Name: "ship", Type: engine.Date},
		{Name: "at", Type: engine.Timestamp}, {Name: "disc", Type: engine.Float64}, {Name: "comment", Type: engine.Text},
	}
	batches := make([]*engine.Batch, 0, n/batch+1)
	for start := 0; start < n; start += batch {
		k := min(batch, n-start)
		bt := &engine.Batch{N: k}
		for _, c := range cols {
			bt.Cols = append(bt.Cols, engine.NewVec(c.Type, k))
		}
		for r := 0; r < k; r++ {
			i := start + r
			bt.Cols[0].I[r], bt.Cols[1].I[r] = int64(i), int64(i%50)
			bt.Cols[2].S[r] = []byte{"ANR"[i%3]}
			bt.Cols[3].D[r] = engine.DecFromScaled(int64(i%100000), 2)
			bt.Cols[4].I[r], bt.Cols[5].I[r], bt.Cols[6].F[r] = int64(i%10000), int64(i)*1_000_000, float64(i%11)/100
			bt.Cols[7].S[r] = []byte("comment " + strconv.Itoa(i%1000))
			if i%10 == 0 {
				bt.Cols[7].SetNull(r)
			}
		}
		batches = append(batches, bt)
	}
	var out countingWriter
	b.ResetTimer()
	for it := 0; it < b.N; it++ {
		out = 0
		w, err := pqfile.NewWriter(&out, cols, pqfile.WriteOptions{})
		if err != nil {
			b.Fatal(err)
		}
		for _, bt := range batches {
			if err := w.Write(bt); err != nil {
				b.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	b.ReportMetric(float64(out), "file-bytes")
}

type countingWriter int64

func (c *countingWriter) Write(p []byte) (int, error) {
	*c += countingWriter(len(p))
	return len(p), nil
}
