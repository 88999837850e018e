package loader

import (
	"bytes"
	"context"
	"sync"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// benchRows gives a lineitem CSV of about 200 MB.
const benchRows = 1_500_000

var lineitemData = sync.OnceValue(func() []byte {
	var buf bytes.Buffer
	if err := WriteLineitem(&buf, benchRows, 1); err != nil {
		panic(err)
	}
	return buf.Bytes()
})

func benchLoad(b *testing.B, cfg Config, cols []engine.ColumnDef, o engine.CSVOptions) {
	data := lineitemData()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := NewCPU(cfg).Load(context.Background(), &engine.LoadRequest{
			Table: "lineitem", Columns: cols, Options: o, Source: bytes.NewReader(data), Size: int64(len(data)),
		})
		if err != nil {
			b.Fatal(err)
		}
		if res.Rows != benchRows {
			b.Fatalf("loaded %d rows", res.Rows)
		}
	}
}

// BenchmarkLoadLineitem loads all 16 columns with every core.
func BenchmarkLoadLineitem(b *testing.B) {
	benchLoad(b, Config{}, LineitemColumns(), engine.DefaultCSVOptions())
}

// BenchmarkLoadLineitem1Worker loads all 16 columns on one goroutine.
func BenchmarkLoadLineitem1Worker(b *testing.B) {
	benchLoad(b, Config{Workers: 1}, LineitemColumns(), engine.DefaultCSVOptions())
}

// BenchmarkLoadLineitemQ6Columns loads the four columns TPC-H Q6 reads,
// through HEADER MATCH, so twelve columns are skipped unconverted.
func BenchmarkLoadLineitemQ6Columns(b *testing.B) {
	all := LineitemColumns()
	var hdr bytes.Buffer
	for i, c := range all {
		if i > 0 {
			hdr.WriteByte(',')
		}
		hdr.WriteString(c.Name)
	}
	hdr.WriteByte('\n')
	data := append(hdr.Bytes(), lineitemData()...)
	cols := []engine.ColumnDef{all[10], all[6], all[4], all[5]}
	o := engine.DefaultCSVOptions()
	o.Header = engine.HeaderMatch
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := NewCPU(Config{}).Load(context.Background(), &engine.LoadRequest{
			Table: "lineitem", Columns: cols, Options: o, Source: bytes.NewReader(data), Size: int64(len(data)),
		})
		if err != nil || res.Rows != benchRows {
			b.Fatal(err, res)
		}
	}
}
