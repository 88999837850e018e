package gpu_test

import (
	"context"
	"math/rand"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/gpu"
	"github.com/gpusql/gpusql/loader"
)

// BenchmarkRegex times count(*) WHERE s ~ pattern on the device over a
// resident text column of 20 M rows (TPC-H-comment-like words, at most
// 44 bytes), with LIKE as a reference.
func BenchmarkRegex(b *testing.B) {
	dev := openDev(b)
	const n, width = 20_000_000, 44
	words := strings.Fields("special requests furious quickly pending deposits ironic accounts carefully final packages " +
		"express regular foxes bold theodolites slyly blithely unusual even silent dependencies")
	rng := rand.New(rand.NewSource(1))
	s := engine.NewColumn(engine.Text, n, width, false)
	var sb []byte
	for i := 0; i < n; i++ {
		sb = sb[:0]
		for len(sb) < width-12 {
			if len(sb) > 0 {
				sb = append(sb, ' ')
			}
			sb = append(sb, words[rng.Intn(len(words))]...)
		}
		copy(s.Str[i*s.Width:], sb[:min(len(sb), s.Width)])
	}
	t, err := gpu.Upload(dev, &engine.HostTable{N: n, Cols: []*engine.Column{s}}, "bench")
	if err != nil {
		b.Fatal(err)
	}
	defer t.Release()
	be := gpu.New(dev, gpu.HostLoader{Dev: dev, Host: loader.NewCPU(loader.Config{})})
	ref := &engine.ColRef{Idx: 0, Name: "s", T: engine.Text}
	text := func(v string) *engine.Const { return &engine.Const{T: engine.Text, S: v} }
	regex := func(pat, flags string) engine.Expr {
		return &engine.Call{Op: engine.OpRegexMatch, Args: []engine.Expr{ref, text(pat), text(flags)}, T: engine.Bool}
	}
	for _, c := range []struct {
		name   string
		filter engine.Expr
	}{
		{"like_special_requests", &engine.Call{Op: engine.OpLike, Args: []engine.Expr{ref, text("%special%requests%")}, T: engine.Bool}},
		{"regex_special_requests", regex("special.*requests", "")},
		{"regex_ci_furious", regex("FURIOUS", "i")},
		{"regex_anchored_class", regex("^[a-f]+ [a-f]", "")},
		{"regex_words_alternation", regex(`\b(bold|even) (foxes|deposits)\b`, "")},
	} {
		p := &engine.Plan{Table: "t", Data: t, Filter: c.filter, Aggregate: true, Limit: -1,
			Aggs:    []engine.AggCall{{Func: engine.AggCountStar, T: engine.Int64}},
			Project: []engine.Expr{&engine.ColRef{Idx: 0, Name: "count", T: engine.Int64}}, Visible: 1}
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(n * s.Width))
			for i := 0; i < b.N; i++ {
				if err := be.Execute(context.Background(), p, func(*engine.Batch) error { return nil }); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
