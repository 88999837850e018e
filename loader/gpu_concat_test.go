package loader

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/gpu"
)

// GPU Concat (COPY into a loaded table) must give exactly what
// engine.ConcatHost gives for the same two tables: row counts that split
// validity words anywhere, string columns whose widths differ either way
// or are 0, NULLs on one side only, into poisoned output.
func TestGPUConcatMatchesHost(t *testing.T) {
	dev := gpuDevice(t)
	cols := []engine.ColumnDef{
		{Name: "i", Type: engine.Int32}, {Name: "b", Type: engine.Int64}, {Name: "f", Type: engine.Float64},
		{Name: "n", Type: engine.Type{Kind: engine.KindNumeric, Prec: 12, Scale: 2}},
		{Name: "d", Type: engine.Date}, {Name: "ok", Type: engine.Bool}, {Name: "s", Type: engine.Text},
		{Name: "e", Type: engine.Text},
	}
	r := rand.New(rand.NewPCG(7, 9))
	gen := func(rows, maxLen int, nulls bool) []byte {
		var b strings.Builder
		for i := 0; i < rows; i++ {
			null := func() bool { return nulls && r.IntN(5) == 0 }
			field := func(s string) string {
				if null() {
					return ""
				}
				return s
			}
			fmt.Fprintf(&b, "%s,%s,%s,%s,%s,%s,%s,\n",
				field(fmt.Sprint(r.Int32())), field(fmt.Sprint(r.Int64())), field(fmt.Sprint(r.Float64())),
				field(fmt.Sprintf("%d.%02d", r.IntN(100000), r.IntN(100))), field(fmt.Sprintf("20%02d-%02d-%02d", r.IntN(30), 1+r.IntN(12), 1+r.IntN(28))),
				field([]string{"true", "false"}[r.IntN(2)]), field(`"`+strings.Repeat("x", r.IntN(maxLen+1))+`"`))
		}
		return []byte(b.String())
	}
	o := engine.DefaultCSVOptions()
	g := NewGPU(dev, GPUConfig{poison: true})
	for _, tc := range []struct {
		na, nb       int
		lenA, lenB   int
		nullA, nullB bool
	}{
		{1, 1, 3, 3, false, false}, {63, 1, 5, 20, true, false}, {64, 64, 20, 5, false, true},
		{65, 130, 0, 9, true, true}, {1000, 37, 40, 40, false, true}, {777, 1500, 12, 100, true, false},
	} {
		name := fmt.Sprintf("%d+%d", tc.na, tc.nb)
		t.Run(name, func(t *testing.T) {
			inA, inB := gen(tc.na, tc.lenA, tc.nullA), gen(tc.nb, tc.lenB, tc.nullB)
			ha, hb := cpuLoad(inA, cols, o), cpuLoad(inB, cols, o)
			if ha.err != nil || hb.err != nil {
				t.Fatalf("host loads: %v %v", ha.err, hb.err)
			}
			want := loadOutcome{host: engine.ConcatHost(ha.host, hb.host)}
			load := func(in []byte) *gpu.Table {
				res, err := g.Load(context.Background(), &engine.LoadRequest{Table: "c", Columns: cols, Options: o, Source: bytes.NewReader(in), Size: int64(len(in))})
				if err != nil {
					t.Fatal(err)
				}
				return res.Data.(*gpu.Table)
			}
			ga, gb := load(inA), load(inB)
			defer ga.Release()
			defer gb.Release()
			out, err := g.Concat("c", ga, gb)
			if err != nil {
				t.Fatal(err)
			}
			defer out.Release()
			h, err := out.(*gpu.Table).Download()
			if err != nil {
				t.Fatal(err)
			}
			if d := sameOutcome(want, loadOutcome{host: h}); d != "" {
				t.Fatal(d)
			}
			// The inputs are unchanged: a query holding them goes on.
			for _, side := range []struct {
				tab  *gpu.Table
				want *engine.HostTable
			}{{ga, ha.host}, {gb, hb.host}} {
				h, err := side.tab.Download()
				if err != nil {
					t.Fatal(err)
				}
				if d := sameOutcome(loadOutcome{host: side.want}, loadOutcome{host: h}); d != "" {
					t.Fatalf("an input changed: %s", d)
				}
			}
		})
	}
	if u := dev.Usage()["c"]; u != 0 {
		t.Fatalf("%d bytes still charged to c", u)
	}
}
