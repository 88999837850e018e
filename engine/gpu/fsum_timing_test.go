package gpu_test

import (
	"context"
	"math"
	"math/rand"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/gpu"
	"github.com/gpusql/gpusql/loader"
)

// BenchmarkFloatSum times exact float sums on the device over a resident
// table of 50 M doubles (wide magnitudes, both signs): a global sum and
// avg, and sums by a 16-group key.
func BenchmarkFloatSum(b *testing.B) {
	dev := openDev(b)
	const n = 50_000_000
	rng := rand.New(rand.NewSource(1))
	d := engine.NewColumn(engine.Float64, n, 0, false)
	g := engine.NewColumn(engine.Int32, n, 0, false)
	for i := 0; i < n; i++ {
		d.F64[i] = rng.NormFloat64() * math.Pow(2, float64(rng.Intn(60)-30))
		g.I32[i] = int32(rng.Intn(16))
	}
	t, err := gpu.Upload(dev, &engine.HostTable{N: n, Cols: []*engine.Column{d, g}}, "bench")
	if err != nil {
		b.Fatal(err)
	}
	defer t.Release()
	be := gpu.New(dev, gpu.HostLoader{Dev: dev, Host: loader.NewCPU(loader.Config{})})
	dRef := &engine.ColRef{Idx: 0, Name: "d", T: engine.Float64}
	gRef := &engine.ColRef{Idx: 1, Name: "g", T: engine.Int32}
	plan := func(groupBy []engine.Expr, aggs ...engine.AggCall) *engine.Plan {
		p := &engine.Plan{Table: "t", Data: t, Aggregate: true, GroupBy: groupBy, Aggs: aggs, Limit: -1}
		for i, e := range groupBy {
			p.Project = append(p.Project, &engine.ColRef{Idx: i, Name: "k", T: e.Type()})
		}
		for i, a := range aggs {
			p.Project = append(p.Project, &engine.ColRef{Idx: len(groupBy) + i, Name: "a", T: a.T})
		}
		p.Visible = len(p.Project)
		return p
	}
	sum := engine.AggCall{Func: engine.AggSum, Arg: dRef, T: engine.Float64}
	avg := engine.AggCall{Func: engine.AggAvg, Arg: dRef, T: engine.Float64}
	for _, c := range []struct {
		name string
		p    *engine.Plan
	}{
		{"sum", plan(nil, sum)},
		{"sum_avg", plan(nil, sum, avg)},
		{"sum_by_16_groups", plan([]engine.Expr{gRef}, sum)},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(8 * n)
			for i := 0; i < b.N; i++ {
				if err := be.Execute(context.Background(), c.p, func(*engine.Batch) error { return nil }); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
