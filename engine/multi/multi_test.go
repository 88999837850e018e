package multi_test

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/cpu"
	"github.com/gpusql/gpusql/engine/multi"
	"github.com/gpusql/gpusql/loader"
)

var cols = []engine.ColumnDef{{Name: "id", Type: engine.Int32}, {Name: "note", Type: engine.Text}, {Name: "n", Type: engine.NumericType(12, 2)}}

// newBackends is a CPU backend and one over it in n parts.
func newBackends(n int) (*cpu.Backend, *multi.Backend) {
	one := cpu.New(loader.NewCPU(loader.Config{}), 2)
	parts := make([]engine.Backend, n)
	names := make([]string, n)
	for i := range parts {
		parts[i], names[i] = one, fmt.Sprintf("cpu.%d", i)
	}
	return one, multi.New(parts, names, one, multi.Options{MinSplitBytes: 1})
}

// load loads the file at path on b.
func load(t *testing.T, b engine.Backend, path string, o engine.CSVOptions) (*engine.LoadResult, error) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	return b.Load(context.Background(), &engine.LoadRequest{Table: "t", Columns: cols, Options: o, Source: f, Size: st.Size()})
}

// whole is every row of d in one host table.
func whole(t *testing.T, d engine.TableData) *engine.HostTable {
	t.Helper()
	l, err := engine.LocalData(d)
	if err != nil {
		t.Fatal(err)
	}
	return l.(*engine.HostTable)
}

// quotedCSV writes rows whose notes hold quoted LFs, commas and quotes,
// so that many an even cut lands inside a quoted field.
func quotedCSV(t *testing.T, rows int, seed int64) string {
	rng := rand.New(rand.NewSource(seed))
	var b strings.Builder
	b.WriteString("id,note,n\n")
	for i := range rows {
		note := strings.Repeat("x", rng.Intn(40))
		switch rng.Intn(4) {
		case 0:
			note = fmt.Sprintf("\"line one\n%s\nline \"\"three\"\",\n\"", note)
		case 1:
			note = "\"" + strings.Repeat("\n", 1+rng.Intn(30)) + note + "\""
		}
		fmt.Fprintf(&b, "%d,%s,%d.%02d\n", i, note, rng.Intn(100000)-50000, rng.Intn(100))
	}
	path := filepath.Join(t.TempDir(), "q.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A file cut into ranges loads the rows a one-part load does, whether the
// cuts fall between records or inside quoted fields (which sends the
// file to one part).
func TestSplitLoadMatchesOnePart(t *testing.T) {
	o := engine.DefaultCSVOptions()
	o.Header = engine.HeaderSkip
	split, fellBack := 0, 0
	for seed := int64(1); seed <= 12; seed++ {
		path := quotedCSV(t, 50+int(seed)*37, seed)
		one, mb := newBackends(int(2 + seed%4))
		want, err := load(t, one, path, o)
		if err != nil {
			t.Fatal(err)
		}
		got, err := load(t, mb, path, o)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if got.Rows != want.Rows || got.Bytes != want.Bytes {
			t.Fatalf("seed %d: %d rows, %d bytes; one part: %d rows, %d bytes", seed, got.Rows, got.Bytes, want.Rows, want.Bytes)
		}
		if !reflect.DeepEqual(whole(t, got.Data).Cols, want.Data.(*engine.HostTable).Cols) {
			t.Fatalf("seed %d: the split load's rows differ from the one-part load's", seed)
		}
		parts := 0
		for _, p := range got.Data.(engine.Placed).Placement() {
			if p.Rows > 0 {
				parts++
			}
		}
		if parts > 1 {
			split++
		} else {
			fellBack++
		}
		got.Data.Release()
	}
	if split == 0 || fellBack == 0 {
		t.Errorf("%d files split, %d loaded on one part: the seeds no longer exercise both", split, fellBack)
	}
}

// A bad row in a later range is reported exactly as a one-part load
// reports it: code, message and line.
func TestSplitLoadErrorsAsOnePart(t *testing.T) {
	var b strings.Builder
	for i := range 400 {
		if i == 333 {
			b.WriteString("333,bad,notanumber\n")
			continue
		}
		fmt.Fprintf(&b, "%d,row %d,%d.5\n", i, i, i)
	}
	path := filepath.Join(t.TempDir(), "bad.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	one, mb := newBackends(3)
	_, want := load(t, one, path, engine.DefaultCSVOptions())
	_, got := load(t, mb, path, engine.DefaultCSVOptions())
	if want == nil || got == nil {
		t.Fatalf("errors: one part %v, split %v", want, got)
	}
	we, ge := want.(*engine.Error), got.(*engine.Error)
	if we.Code != ge.Code || we.Message != ge.Message || we.Where != ge.Where || !strings.Contains(ge.Where, "line 334") {
		t.Errorf("split: %s %q %q; one part: %s %q %q", ge.Code, ge.Message, ge.Where, we.Code, we.Message, we.Where)
	}
}

// Appends share segments between table versions; each segment is freed
// with the last version holding it, and gathered copies with theirs.
func TestAppendSharesSegments(t *testing.T) {
	path := quotedCSV(t, 300, 99)
	o := engine.DefaultCSVOptions()
	o.Header = engine.HeaderSkip
	_, mb := newBackends(2)
	a, err := load(t, mb, path, o)
	if err != nil {
		t.Fatal(err)
	}
	b, err := load(t, mb, path, o)
	if err != nil {
		t.Fatal(err)
	}
	ab, err := mb.Concat("t", a.Data, b.Data)
	if err != nil {
		t.Fatal(err)
	}
	if ab.Rows() != 600 {
		t.Fatalf("appended: %d rows, want 600", ab.Rows())
	}
	wantRows := whole(t, a.Data).Cols[0].I32
	a.Data.Release()
	b.Data.Release()
	// the appended version still reads both loads' rows
	got := whole(t, ab).Cols[0].I32
	if len(got) != 600 || !reflect.DeepEqual(got[:300], wantRows) || !reflect.DeepEqual(got[300:], wantRows) {
		t.Fatalf("after releasing the older versions the appended one reads %d ids", len(got))
	}
	ab.Release()
	if ab.Rows() != 0 {
		t.Errorf("a released table still reports %d rows", ab.Rows())
	}
}

// Queries at once over one split table: the parts run together, the
// gathered copy is made once, and every answer is the same.
func TestConcurrentQueries(t *testing.T) {
	path := quotedCSV(t, 2000, 7)
	o := engine.DefaultCSVOptions()
	o.Header = engine.HeaderSkip
	_, mb := newBackends(3)
	res, err := load(t, mb, path, o)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Data.Release()
	id := &engine.ColRef{Idx: 0, Name: "id", T: engine.Int32}
	agg := &engine.Plan{Table: "t", Schema: cols, Data: res.Data, Aggregate: true,
		Aggs:    []engine.AggCall{{Func: engine.AggSum, Arg: id, T: engine.Int64}, {Func: engine.AggCountStar, T: engine.Int64}},
		Project: []engine.Expr{&engine.ColRef{Idx: 0, T: engine.Int64}, &engine.ColRef{Idx: 1, T: engine.Int64}}, Limit: -1, Visible: 2, Names: []string{"s", "c"}}
	top := &engine.Plan{Table: "t", Schema: cols, Data: res.Data, Project: []engine.Expr{id},
		OrderBy: []engine.SortKey{{Col: 0, Desc: true}}, Limit: 3, Visible: 1, Names: []string{"id"}}
	errs := make(chan error, 16)
	for g := range 16 {
		go func() {
			var err error
			switch g % 3 {
			case 0:
				err = mb.Execute(context.Background(), agg, func(b *engine.Batch) error {
					if b.N != 1 || b.Cols[0].I[0] != 1999*2000/2 || b.Cols[1].I[0] != 2000 {
						return fmt.Errorf("sum, count = %v, %v", b.Cols[0].I, b.Cols[1].I)
					}
					return nil
				})
			case 1:
				err = mb.Execute(context.Background(), top, func(b *engine.Batch) error {
					if b.N != 3 || b.Cols[0].I[0] != 1999 || b.Cols[0].I[2] != 1997 {
						return fmt.Errorf("top 3 = %v", b.Cols[0].I)
					}
					return nil
				})
			default:
				var d engine.TableData
				if d, err = engine.LocalData(res.Data); err == nil && d.Rows() != 2000 {
					err = fmt.Errorf("gathered %d rows", d.Rows())
				}
				_ = res.Data.(engine.Placed).Placement()
			}
			errs <- err
		}()
	}
	for range 16 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// A split aggregate whose partial groups are too many for the host is
// merged on the first part (DeviceMergeRows), with the answer of one
// part over every row.
func TestAggregateMergedOnFirstPart(t *testing.T) {
	var csv strings.Builder
	csv.WriteString("id,note,n\n")
	for i := range 3000 {
		fmt.Fprintf(&csv, "%d,row %d,%d.%02d\n", i, i, i*7%1000-500, i%100)
	}
	path := filepath.Join(t.TempDir(), "plain.csv")
	if err := os.WriteFile(path, []byte(csv.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	o := engine.DefaultCSVOptions()
	o.Header = engine.HeaderSkip
	one := cpu.New(loader.NewCPU(loader.Config{}), 2)
	host := cpu.New(loader.NewCPU(loader.Config{}), 2)
	parts := []engine.Backend{one, one, one}
	mb := multi.New(parts, []string{"a", "b", "c"}, host, multi.Options{MinSplitBytes: 1, DeviceMergeRows: 1})
	res, err := load(t, mb, path, o)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Data.Release()
	mod := &engine.Call{Op: engine.OpMod, Args: []engine.Expr{&engine.ColRef{Idx: 0, Name: "id", T: engine.Int32}, &engine.Const{T: engine.Int32, I: 1000}}, T: engine.Int32}
	n := &engine.ColRef{Idx: 2, Name: "n", T: engine.NumericType(12, 2)}
	plan := func(d engine.TableData) *engine.Plan {
		return &engine.Plan{Table: "t", Schema: cols, Data: d, Aggregate: true, GroupBy: []engine.Expr{mod},
			Aggs:    []engine.AggCall{{Func: engine.AggSum, Arg: n, T: engine.NumericType(38, 2)}, {Func: engine.AggCountStar, T: engine.Int64}},
			Project: []engine.Expr{&engine.ColRef{Idx: 0, T: engine.Int32}, &engine.ColRef{Idx: 1, T: engine.NumericType(38, 2)}, &engine.ColRef{Idx: 2, T: engine.Int64}},
			OrderBy: []engine.SortKey{{Col: 0}}, Limit: -1, Visible: 3, Names: []string{"k", "s", "c"}}
	}
	if x := strings.Join(mb.Explain(plan(res.Data)), "\n"); !strings.Contains(x, "partial aggregates are merged") {
		t.Fatalf("the plan does not aggregate on every part:\n%s", x)
	}
	rows := func(b engine.Backend, d engine.TableData) []string {
		var out []string
		if err := b.Execute(context.Background(), plan(d), func(bt *engine.Batch) error {
			for i := range bt.N {
				out = append(out, fmt.Sprintf("%d %s %d", bt.Cols[0].I[i], bt.Cols[1].D[i], bt.Cols[2].I[i]))
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return out
	}
	got := rows(mb, res.Data)
	want := rows(one, whole(t, res.Data))
	if len(want) != 1000 || !reflect.DeepEqual(got, want) {
		t.Fatalf("%d groups merged on the first part, want %d; first %v, want %v", len(got), len(want), got[:min(3, len(got))], want[:3])
	}
}
