package cpu

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// series is a set function giving 1..x for each row's x (none for NULL).
func series(args []*engine.Vec, n int) (*engine.Vec, []int32, error) {
	out := engine.NewVec(engine.Int64, 0)
	counts := make([]int32, n)
	for i := 0; i < n; i++ {
		if args[0].IsNull(i) {
			continue
		}
		for x := int64(1); x <= args[0].I[i]; x++ {
			out.I = append(out.I, x)
			out.N++
			counts[i]++
		}
	}
	return out, counts, nil
}

// TestExpandSetZips checks PostgreSQL's ProjectSet rules: a row gives as
// many rows as its longest result, shorter results are padded with NULL,
// and a row whose every result is empty gives none.
func TestExpandSetZips(t *testing.T) {
	id := engine.NewColumn(engine.Int32, 5, 0, false)
	x := engine.NewColumn(engine.Int64, 5, 0, true)
	for i, v := range []int64{2, 0, 3, -1, 1} {
		id.I32[i] = int32(i + 10)
		x.I64[i] = v
	}
	x.SetNull(3)
	in := &engine.HostTable{N: 5, Cols: []*engine.Column{id, x}}
	leaf := &engine.Plan{Host: true, Data: in, Table: "t", Limit: -1, Visible: 2,
		Schema:  []engine.ColumnDef{{Name: "id", Type: engine.Int32}, {Name: "x", Type: engine.Int64}},
		Project: []engine.Expr{&engine.ColRef{Idx: 0, T: engine.Int32}, &engine.ColRef{Idx: 1, T: engine.Int64}},
		Names:   []string{"id", "x"}}
	ps := &engine.ProjectSet{Input: leaf, Pass: []int{0}, Names: []string{"a", "b"}, Funcs: []engine.SetFunc{
		{Name: "series", Args: []engine.Expr{&engine.ColRef{Idx: 1, T: engine.Int64}}, T: engine.Int64, Fn: series},
		{Name: "series", Args: []engine.Expr{&engine.Const{T: engine.Int64, I: 2}}, T: engine.Int64, Fn: series},
	}}
	b := New(nil, 2)
	h, err := b.materialize(context.Background(), ps)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i := 0; i < int(h.N); i++ {
		row := []string{fmt.Sprint(h.Cols[0].I32[i])}
		for _, c := range h.Cols[1:] {
			if c.IsNull(i) {
				row = append(row, "NULL")
			} else {
				row = append(row, fmt.Sprint(c.I64[i]))
			}
		}
		got = append(got, strings.Join(row, " "))
	}
	want := "10 1 1|10 2 2|11 NULL 1|11 NULL 2|12 1 1|12 2 2|12 3 NULL|13 NULL 1|13 NULL 2|14 1 1|14 NULL 2"
	if g := strings.Join(got, "|"); g != want {
		t.Fatalf("got  %s\nwant %s", g, want)
	}
	if cols := ps.Columns(); len(cols) != 3 || cols[0].Name != "id" || cols[2].Name != "b" {
		t.Fatalf("columns %v", cols)
	}
}

func TestZipSetsEmpty(t *testing.T) {
	rows, at := engine.ZipSets([][]int32{{0, 0}, {0, 0}}, 2)
	if len(rows) != 0 || len(at[0]) != 0 {
		t.Fatalf("rows %v at %v", rows, at)
	}
}
