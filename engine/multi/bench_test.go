package multi_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// BenchmarkAggregateMerge times a grouped aggregate over a table in two
// parts of a tiny table: what the merge adds to every split aggregate.
func BenchmarkAggregateMerge(b *testing.B) {
	var sb strings.Builder
	for i := range 1000 {
		sb.WriteString(strings.Repeat("x", 1))
		sb.WriteString(",")
		sb.WriteString([]string{"a", "b", "c", "d"}[i%4])
		sb.WriteString(",1.25\n")
	}
	dir := b.TempDir()
	path := filepath.Join(dir, "m.csv")
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	_ = cols
	c := []engine.ColumnDef{{Name: "x", Type: engine.Text}, {Name: "g", Type: engine.Text}, {Name: "n", Type: engine.NumericType(12, 2)}}
	_, mb := newBackends(2)
	f, _ := os.Open(path)
	st, _ := f.Stat()
	res, err := mb.Load(context.Background(), &engine.LoadRequest{Table: "m", Columns: c, Options: engine.DefaultCSVOptions(), Source: f, Size: st.Size()})
	if err != nil {
		b.Fatal(err)
	}
	g := &engine.ColRef{Idx: 1, Name: "g", T: engine.Text}
	n := &engine.ColRef{Idx: 2, Name: "n", T: c[2].Type}
	p := &engine.Plan{Table: "m", Schema: c, Data: res.Data, Aggregate: true, GroupBy: []engine.Expr{g},
		Aggs:    []engine.AggCall{{Func: engine.AggSum, Arg: n, T: engine.Numeric}, {Func: engine.AggCountStar, T: engine.Int64}, {Func: engine.AggMin, Arg: n, T: n.T}},
		Project: []engine.Expr{&engine.ColRef{Idx: 0, T: engine.Text}, &engine.ColRef{Idx: 1, T: engine.Numeric}, &engine.ColRef{Idx: 2, T: engine.Int64}, &engine.ColRef{Idx: 3, T: n.T}},
		OrderBy: []engine.SortKey{{Col: 0}}, Limit: -1, Visible: 4, Names: []string{"g", "s", "c", "m"}}
	b.ResetTimer()
	for range b.N {
		if err := mb.Execute(context.Background(), p, func(*engine.Batch) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
}
