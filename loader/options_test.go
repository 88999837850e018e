package loader

import (
	"bytes"
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

func TestOnErrorIgnore(t *testing.T) {
	in := "1,a\nx,b\n3,c,extra\n4,\"d\"\n5,toolong\n"
	cols := []engine.ColumnDef{{Name: "a", Type: engine.Int32}, {Name: "b", Type: engine.Type{Kind: engine.KindVarchar, Len: 3}}}
	o := engine.DefaultCSVOptions()
	o.OnError = engine.OnErrorIgnore
	for _, cfg := range configs(true) {
		res, err := loadBytes([]byte(in), cols, o, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if got := display(res.Data.(*engine.HostTable)); !reflect.DeepEqual(got, [][]string{{"1", "a"}, {"4", "d"}}) {
			t.Fatalf("rows %q", got)
		}
		want := []engine.LoadError{
			{Line: 2, Column: "a", Code: "22P02", Reason: `invalid input syntax for type integer: "x"`, Raw: "x,b"},
			{Line: 3, Code: "22P04", Reason: "extra data after last expected column", Raw: "3,c,extra"},
			{Line: 5, Column: "b", Code: "22001", Reason: "value too long for type character varying(3)", Raw: "5,toolong"},
		}
		if res.SkippedCount != 3 || !reflect.DeepEqual(res.Skipped, want) {
			t.Fatalf("config %+v: skipped %d %+v", cfg, res.SkippedCount, res.Skipped)
		}
	}
}

func TestHeaderMatchErrors(t *testing.T) {
	cols := []engine.ColumnDef{{Name: "a", Type: engine.Int32}, {Name: "b", Type: engine.Text}}
	o := engine.DefaultCSVOptions()
	o.Header = engine.HeaderMatch
	for in, msg := range map[string]string{
		"a,c\n1,2\n":   `column "b" of relation "t" is missing from the header line`,
		"a,b,a\n1,2\n": `column name "a" appears more than once in the header line`,
	} {
		_, err := loadBytes([]byte(in), cols, o, Config{})
		if e := engine.AsError(err); e.Code != "22P04" || e.Message != msg || !strings.HasPrefix(e.Where, "COPY t, line 1: ") {
			t.Errorf("%q: %v", in, err)
		}
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := NewCPU(Config{}).Load(ctx, &engine.LoadRequest{Table: "t", Columns: []engine.ColumnDef{{Name: "a", Type: engine.Int32}},
		Options: engine.DefaultCSVOptions(), Source: strings.NewReader("1\n"), Size: -1})
	if engine.Code(err) != engine.CodeQueryCanceled {
		t.Fatalf("got %v", err)
	}
}

func TestProgressAndLineitem(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteLineitem(&buf, 20000, 7); err != nil {
		t.Fatal(err)
	}
	var last int64
	calls := 0
	res, err := NewCPU(Config{BatchSize: 100000, ChunkSize: 4096}).Load(context.Background(), &engine.LoadRequest{
		Table: "lineitem", Columns: LineitemColumns(), Options: engine.DefaultCSVOptions(),
		Source: bytes.NewReader(buf.Bytes()), Size: int64(buf.Len()),
		Progress: func(done int64) { last = done; calls++ },
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Rows != 20000 || last != int64(buf.Len()) || calls < 10 || res.Bytes != int64(buf.Len()) {
		t.Fatalf("rows %d, progress %d in %d calls, bytes %d", res.Rows, last, calls, res.Bytes)
	}
	// Same result with one batch and another chunking.
	res2, err := NewCPU(Config{Workers: 1}).Load(context.Background(), &engine.LoadRequest{
		Table: "lineitem", Columns: LineitemColumns(), Options: engine.DefaultCSVOptions(),
		Source: bytes.NewReader(buf.Bytes()), Size: -1,
	})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(display(res.Data.(*engine.HostTable)), display(res2.Data.(*engine.HostTable))) {
		t.Fatal("results differ between configurations")
	}
}
