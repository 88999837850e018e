package loader

import (
	"context"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

func TestSmoke(t *testing.T) {
	cols := []engine.ColumnDef{{Name: "a", Type: engine.Int32}, {Name: "b", Type: engine.Text}}
	in := "1,x\n2,\"y,z\"\n3,\n"
	res, err := NewCPU(Config{}).Load(context.Background(), &engine.LoadRequest{Table: "t", Columns: cols, Options: engine.DefaultCSVOptions(), Source: strings.NewReader(in), Size: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Log(display(res.Data.(*engine.HostTable)))
}
