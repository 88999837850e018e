package pqfile_test

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/loader/pqfile"
	"github.com/gpusql/gpusql/loader/pqfile/pqgen"
)

func open(t testing.TB, path string) *pqfile.File {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	st, _ := f.Stat()
	pf, err := pqfile.Open(f, st.Size(), filepath.Base(path), f)
	if err != nil {
		f.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() { pf.Close() })
	return pf
}

// manyGroups writes n rows in row groups of per rows: an id, a nullable
// text and a nullable date; rows in bad get a date beyond date's range.
func manyGroups(t testing.TB, path string, n, per int, bad map[int]bool) {
	cols := []pqgen.Col{
		{Name: "a", Node: parquet.Int(64)},
		{Name: "b", Node: parquet.Optional(parquet.String())},
		{Name: "c", Node: parquet.Optional(parquet.Date())},
	}
	rows := make([][]parquet.Value, n)
	for i := range rows {
		b := parquet.ByteArrayValue([]byte(strings.Repeat("x", i%17)))
		if i%3 == 0 {
			b = parquet.NullValue()
		}
		d := parquet.Int32Value(int32(i - n/2))
		if bad[i] {
			d = parquet.Int32Value(math.MaxInt32)
		}
		rows[i] = []parquet.Value{parquet.Int64Value(int64(i)), b, d}
	}
	if err := pqgen.Write(path, cols, rows, pqgen.Options{RowsPerGroup: int64(per), PageBytes: 256}); err != nil {
		t.Fatal(err)
	}
}

// TestReadWorkers: the table is the same whatever the number of
// goroutines, and holds every row in file order.
func TestReadWorkers(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.parquet")
	manyGroups(t, path, 5000, 123, nil)
	f := open(t, path)
	if f.RowGroups() < 10 {
		t.Fatalf("%d row groups", f.RowGroups())
	}
	cols, err := f.Columns()
	if err != nil {
		t.Fatal(err)
	}
	var first *engine.HostTable
	for _, w := range []int{1, 3, 16} {
		h, err := pqfile.Read(context.Background(), []*pqfile.File{f}, cols, pqfile.Options{Workers: w})
		if err != nil {
			t.Fatal(err)
		}
		if h.N != 5000 {
			t.Fatalf("%d rows", h.N)
		}
		for i := 0; i < 5000; i++ {
			if h.Cols[0].I64[i] != int64(i) || h.Cols[1].IsNull(i) != (i%3 == 0) || h.Cols[2].I32[i] != int32(i-2500) {
				t.Fatalf("workers %d, row %d wrong", w, i)
			}
			if i%3 != 0 && string(h.Cols[1].StrAt(i)) != strings.Repeat("x", i%17) {
				t.Fatalf("workers %d, row %d: %q", w, i, h.Cols[1].StrAt(i))
			}
		}
		if first == nil {
			first = h
		} else if !reflect.DeepEqual(first.Cols, h.Cols) {
			t.Errorf("workers %d: columns differ from 1 worker's", w)
		}
	}
}

// TestReadFirstError: with bad rows in several row groups, the error is
// always the first bad row group's, whatever the timing.
func TestReadFirstError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.parquet")
	manyGroups(t, path, 3000, 100, map[int]bool{1450: true, 2999: true, 2100: true})
	f := open(t, path)
	cols, _ := f.Columns()
	for i := 0; i < 20; i++ {
		_, err := pqfile.Read(context.Background(), []*pqfile.File{f}, cols, pqfile.Options{Workers: 8})
		var e *engine.Error
		if !errors.As(err, &e) || e.Code != engine.CodeDatetimeFieldOverflow || !strings.Contains(e.Detail, "row group 15,") {
			t.Fatalf("got %v (%+v)", err, e)
		}
	}
}

// TestReadConversions: COPY's conversions into wider types, and the
// limits of the target type.
func TestReadConversions(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "c.parquet")
	cols := []pqgen.Col{
		{Name: "a", Node: parquet.Int(16)},
		{Name: "b", Node: parquet.Leaf(parquet.FloatType)},
		{Name: "c", Node: parquet.Decimal(1, 5, parquet.Int32Type)},
		{Name: "d", Node: parquet.TimestampAdjusted(parquet.Microsecond, false)},
		{Name: "e", Node: parquet.String()},
	}
	rows := [][]parquet.Value{
		{parquet.Int32Value(-7), parquet.FloatValue(1.5), parquet.Int32Value(-99999), parquet.Int64Value(1500000), parquet.ByteArrayValue([]byte("añb"))},
		{parquet.Int32Value(32767), parquet.FloatValue(-0.25), parquet.Int32Value(12345), parquet.Int64Value(-1500001), parquet.ByteArrayValue([]byte("abcd"))},
	}
	if err := pqgen.Write(path, cols, rows, pqgen.Options{}); err != nil {
		t.Fatal(err)
	}
	f := open(t, path)
	wide := []engine.ColumnDef{
		{Name: "a", Type: engine.Int64},
		{Name: "b", Type: engine.Float64},
		{Name: "c", Type: engine.NumericType(8, 3)},
		{Name: "d", Type: engine.Timestamp.WithTimePrec(0)},
		{Name: "e", Type: engine.Type{Kind: engine.KindVarchar, Len: 4}},
	}
	h, err := pqfile.Read(context.Background(), []*pqfile.File{f}, wide, pqfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if h.Cols[0].I64[0] != -7 || h.Cols[0].I64[1] != 32767 || h.Cols[1].F64[0] != 1.5 || h.Cols[1].F64[1] != -0.25 ||
		h.Cols[2].I64[0] != -9999900 || h.Cols[2].I64[1] != 1234500 ||
		h.Cols[3].I64[0] != 1000000 || h.Cols[3].I64[1] != -2000000 || string(h.Cols[4].StrAt(0)) != "añb" {
		t.Errorf("got %v %v %v %v", h.Cols[0].I64, h.Cols[1].F64, h.Cols[2].I64, h.Cols[3].I64)
	}
	refused := []struct {
		col  int
		typ  engine.Type
		code string
	}{
		{0, engine.Type{Kind: engine.KindBool}, engine.CodeDatatypeMismatch},
		{1, engine.Float32, ""},
		{1, engine.Int64, engine.CodeDatatypeMismatch},
		{2, engine.NumericType(5, 0), engine.CodeDatatypeMismatch}, // drops the fraction
		{2, engine.NumericType(5, 2), engine.CodeDatatypeMismatch}, // too few integer digits
		{3, engine.TimestampTZ, engine.CodeDatatypeMismatch},
		{4, engine.Type{Kind: engine.KindVarchar, Len: 3}, engine.CodeStringDataRightTrunc},
		{4, engine.Type{Kind: engine.KindChar, Len: 4}, engine.CodeDatatypeMismatch},
	}
	for _, r := range refused {
		defs := append([]engine.ColumnDef(nil), wide...)
		defs[r.col].Type = r.typ
		_, err := pqfile.Read(context.Background(), []*pqfile.File{f}, defs, pqfile.Options{})
		var e *engine.Error
		if r.code == "" && err != nil || r.code != "" && (!errors.As(err, &e) || e.Code != r.code) {
			t.Errorf("column %d as %s: got %v, want %q", r.col, r.typ, err, r.code)
		}
	}
	// Timestamps round to the column's precision half away from
	// 2000-01-01, as PostgreSQL's do: 1970-01-01 00:00:01.5 down, and
	// -1.500001 s away from 1970 to -2. A text wider than the server's
	// maximum text width is 54000.
	if _, err := pqfile.Read(context.Background(), []*pqfile.File{f}, wide, pqfile.Options{MaxTextWidth: 3}); err == nil || !strings.Contains(err.Error(), "maximum text width") {
		t.Errorf("max text width: %v", err)
	}
}

// TestReadCanceled: a cancelled context stops the read.
func TestReadCanceled(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.parquet")
	manyGroups(t, path, 1000, 100, nil)
	f := open(t, path)
	cols, _ := f.Columns()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := pqfile.Read(ctx, []*pqfile.File{f}, cols, pqfile.Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("got %v", err)
	}
}
