package pqfile_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/loader/pqfile"
	"github.com/gpusql/gpusql/loader/pqfile/pqgen"
)

// FuzzReadParquet: any bytes either read as a table or fail with one of
// the documented SQLSTATEs; nothing panics. The seeds are small valid
// files of several types, plain and dictionary-encoded, v1 and v2 pages.
func FuzzReadParquet(f *testing.F) {
	cols := []pqgen.Col{
		{Name: "a", Node: parquet.Int(32)},
		{Name: "b", Node: parquet.Optional(parquet.String())},
		{Name: "c", Node: parquet.Optional(parquet.Decimal(2, 9, parquet.FixedLenByteArrayType(4)))},
		{Name: "d", Node: parquet.Encoded(parquet.Optional(parquet.Leaf(parquet.DoubleType)), &parquet.RLEDictionary)},
		{Name: "e", Node: parquet.Optional(parquet.Leaf(parquet.BooleanType))},
		{Name: "f", Node: parquet.Optional(parquet.TimestampAdjusted(parquet.Nanosecond, true))},
	}
	var rows [][]parquet.Value
	for i := 0; i < 40; i++ {
		r := []parquet.Value{parquet.Int32Value(int32(i)), parquet.ByteArrayValue([]byte("ab")), parquet.FixedLenByteArrayValue([]byte{0, 0, 1, byte(i)}),
			parquet.DoubleValue(float64(i % 3)), parquet.BooleanValue(i%2 == 0), parquet.Int64Value(int64(i) * 1e12)}
		if i%4 == 0 {
			r[1], r[2], r[3], r[4], r[5] = parquet.NullValue(), parquet.NullValue(), parquet.NullValue(), parquet.NullValue(), parquet.NullValue()
		}
		rows = append(rows, r)
	}
	for _, o := range []pqgen.Options{{RowsPerGroup: 16, PageBytes: 64}, {PageVersion: 1}, {Codec: &parquet.Snappy, RowsPerGroup: 25}} {
		var b bytes.Buffer
		if err := pqgen.WriteTo(&b, cols, rows, o); err != nil {
			f.Fatal(err)
		}
		f.Add(b.Bytes())
	}
	known := map[string]bool{
		engine.CodeBadCopyFileFormat: true, engine.CodeDataCorrupted: true, engine.CodeFeatureNotSupported: true,
		engine.CodeNumericValueOutOfRange: true, engine.CodeDatetimeFieldOverflow: true, engine.CodeCharacterNotInRepertoir: true,
		engine.CodeDuplicateColumn: true,
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		check := func(err error) {
			var e *engine.Error
			if !errors.As(err, &e) || !known[e.Code] {
				t.Fatalf("error %v is not one of the documented SQLSTATEs", err)
			}
		}
		pf, err := pqfile.Open(bytes.NewReader(data), int64(len(data)), "fuzz.parquet", nil)
		if err != nil {
			check(err)
			return
		}
		if pf.MaxRowGroupRows() > 1<<16 {
			// A footer may claim any number of rows, and the columns
			// are sized by the claim: the fuzzer need not allocate them.
			return
		}
		defs, err := pf.Columns()
		if err != nil {
			check(err)
			return
		}
		h, err := pqfile.Read(context.Background(), []*pqfile.File{pf}, defs, pqfile.Options{Workers: 2, MaxTextWidth: 1 << 16})
		if err != nil {
			check(err)
			return
		}
		for _, c := range h.Cols {
			if c.Len != int(h.N) {
				t.Fatalf("column of %d rows in a table of %d", c.Len, h.N)
			}
		}
	})
}
