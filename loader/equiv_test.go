package loader

import (
	"bytes"
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// loadBytes runs the CPU loader over input.
func loadBytes(input []byte, cols []engine.ColumnDef, o engine.CSVOptions, cfg Config) (*engine.LoadResult, error) {
	return NewCPU(cfg).Load(context.Background(), &engine.LoadRequest{
		Table: "t", Columns: cols, Options: o, Source: bytes.NewReader(input), Size: -1,
	})
}

// configs are loader settings that must not change any result.
func configs(thorough bool) []Config {
	out := []Config{{}, {Workers: 1, ChunkSize: 1, BatchSize: 1}, {Workers: 3, ChunkSize: 7, BatchSize: 5}}
	if !thorough {
		return append(out, Config{Workers: 2, ChunkSize: 64, BatchSize: 3}, Config{Workers: 4, ChunkSize: 13, BatchSize: 100})
	}
	for _, cs := range []int{1, 2, 3, 5, 8, 13, 31, 63, 64, 65, 128} {
		for _, bs := range []int{1, 2, 7, 33, 1 << 20} {
			out = append(out, Config{Workers: 1 + cs%4, ChunkSize: cs, BatchSize: bs})
		}
	}
	return out
}

// outcome is what a load produced, in comparable form.
type outcome struct {
	Rows    [][]string
	Skipped []engine.LoadError
	Code    string
	Message string
	Where   string
}

func (o outcome) String() string {
	if o.Code != "" {
		return fmt.Sprintf("error %s %q where %q", o.Code, o.Message, o.Where)
	}
	return fmt.Sprintf("rows %q skipped %+v", o.Rows, o.Skipped)
}

func refOutcome(input []byte, cols []engine.ColumnDef, o engine.CSVOptions) outcome {
	rows, skipped, err := refLoad(input, cols, o)
	if err != nil {
		return outcome{Code: err.Code, Message: err.Message, Where: err.Where}
	}
	if rows == nil {
		rows = [][]string{}
	}
	return outcome{Rows: rows, Skipped: skipped}
}

func loaderOutcome(input []byte, cols []engine.ColumnDef, o engine.CSVOptions, cfg Config) outcome {
	res, err := loadBytes(input, cols, o, cfg)
	if err != nil {
		e := engine.AsError(err)
		return outcome{Code: e.Code, Message: e.Message, Where: e.Where}
	}
	var sk []engine.LoadError
	for _, s := range res.Skipped {
		s.Raw = ""
		sk = append(sk, s)
	}
	return outcome{Rows: display(res.Data.(*engine.HostTable)), Skipped: sk}
}

// checkEquivalent loads input with every config and compares each result
// with the reference reader's.
func checkEquivalent(t *testing.T, input []byte, cols []engine.ColumnDef, o engine.CSVOptions, thorough bool) {
	t.Helper()
	want := refOutcome(input, cols, o)
	for _, cfg := range configs(thorough) {
		got := loaderOutcome(input, cols, o, cfg)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("input %q options %+v config %+v:\n got  %v\n want %v", input, o, cfg, got, want)
		}
	}
}

var equivCases = []string{
	"",
	"\n",
	"1,a\n2,b\n",
	"1,a\n2,b",
	"1,\"a,b\"\n2,\"c\"\"d\"\n",
	"1,\"a\nb\"\n2,x\n",
	"1,\"a\r\nb\"\r\n2,x\r\n",
	"1,a\r\n2,b\r\n",
	"1,,\n",
	"1,\"\"\n2,\n",
	"x,1\n",
	"1,a,b\n",
	"1\n",
	"1,\"abc\n",
	"1,a\r2,b\n",
	"1,a\xff\n2,b\n",
	"1,\"x\ny\"\n2,\"q\n\nr\",9\n",
	"1,\"x\ny\"\nzz,z\n",
	"\n\n1,a\n",
	"1,a\"b\"c\n",
	"1 ,  x \n 2,y\n",
	"99999999999,a\n",
	"1,a\n2,b\n3\n4,d,e\n5,\"\n",
	"1,\xc3\xa9\xc3\xa9\n",
	"1,a\x00\n",
	"1,a\r",
	"1,\"a\"\"\n",
}

func TestEquivalentInt32Text(t *testing.T) {
	cols := []engine.ColumnDef{{Name: "a", Type: engine.Int32}, {Name: "b", Type: engine.Text}}
	for _, onErr := range []engine.OnError{engine.OnErrorStop, engine.OnErrorIgnore} {
		o := engine.DefaultCSVOptions()
		o.OnError = onErr
		for _, in := range equivCases {
			checkEquivalent(t, []byte(in), cols, o, true)
		}
	}
}
