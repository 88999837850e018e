package pqfile_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/parquet-go/parquet-go"

	"github.com/gpusql/gpusql/loader/pqfile"
	"github.com/gpusql/gpusql/loader/pqfile/pqgen"
)

// benchFile writes a lineitem-like file of n rows in row groups of
// 64Ki rows, snappy-compressed: integers, a dictionary-encoded flag, a
// decimal, a date, a timestamp, a double and a nullable comment.
func benchFile(b *testing.B, n int) string {
	path := filepath.Join(b.TempDir(), "bench.parquet")
	cols := []pqgen.Col{
		{Name: "a_orderkey", Node: parquet.Int(64)},
		{Name: "b_qty", Node: parquet.Int(32)},
		{Name: "c_flag", Node: parquet.Encoded(parquet.String(), &parquet.RLEDictionary)},
		{Name: "d_price", Node: parquet.Decimal(2, 15, parquet.Int64Type)},
		{Name: "e_ship", Node: parquet.Date()},
		{Name: "f_at", Node: parquet.TimestampAdjusted(parquet.Microsecond, false)},
		{Name: "g_disc", Node: parquet.Leaf(parquet.DoubleType)},
		{Name: "h_comment", Node: parquet.Optional(parquet.String())},
	}
	flags := [][]byte{[]byte("A"), []byte("N"), []byte("R")}
	rows := make([][]parquet.Value, n)
	for i := range rows {
		c := parquet.ByteArrayValue([]byte("comment " + strconv.Itoa(i%1000)))
		if i%10 == 0 {
			c = parquet.NullValue()
		}
		rows[i] = []parquet.Value{
			parquet.Int64Value(int64(i / 4)), parquet.Int32Value(int32(1 + i%50)), parquet.ByteArrayValue(flags[i%3]),
			parquet.Int64Value(int64(i%100000) * 37), parquet.Int32Value(int32(8000 + i%2500)),
			parquet.Int64Value(int64(i) * 1000003), parquet.DoubleValue(float64(i%11) / 100), c,
		}
	}
	if err := pqgen.Write(path, cols, rows, pqgen.Options{RowsPerGroup: 1 << 16, Codec: &parquet.Snappy}); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkReadParquet decodes a 1,000,000-row file into host columns
// with GOMAXPROCS goroutines, and reports the rate in rows and file bytes
// per second.
func BenchmarkReadParquet(b *testing.B) {
	const n = 1000000
	path := benchFile(b, n)
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	pf, err := pqfile.Open(f, st.Size(), "bench.parquet", nil)
	if err != nil {
		b.Fatal(err)
	}
	cols, err := pf.Columns()
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		h, err := pqfile.Read(context.Background(), []*pqfile.File{pf}, cols, pqfile.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if h.N != n {
			b.Fatalf("%d rows", h.N)
		}
	}
	el := time.Since(start).Seconds()
	rows := float64(n) * float64(b.N) / el
	b.ReportMetric(rows, "rows/s")
	b.Logf("Parquet load on %d cores: %s rows/s, %s/s of a %s file (%s rows, %d row groups)", runtime.GOMAXPROCS(0),
		humanize.Comma(int64(rows)), humanize.Bytes(uint64(float64(st.Size())*float64(b.N)/el)),
		humanize.Bytes(uint64(st.Size())), humanize.Comma(n), pf.RowGroups())
}
