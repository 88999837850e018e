package gpu

import (
	"context"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/cpu"
	"github.com/gpusql/gpusql/query"
)

// TestWindowHostExplain binds window queries (no device) and checks that
// EXPLAIN names exactly the calls the kernels refuse, which run on the
// host (window_host.go), and that windowNeeds finds the columns they read.
func TestWindowHostExplain(t *testing.T) {
	rec := &planRecorder{Backend: cpu.New(nil, 1)}
	srv, err := query.NewServer(query.Options{FileRoot: t.TempDir(), DataDir: t.TempDir(), Backend: rec})
	if err != nil {
		t.Fatal(err)
	}
	s, err := srv.NewSession(engine.SessionParams{User: "t", Database: "t"})
	if err != nil {
		t.Fatal(err)
	}
	exec := func(q string) error { return s.Query(context.Background(), q, discard{}) }
	if err := exec(`CREATE TABLE wh (id bigint, o integer, f double precision, s text, n numeric(10,2), extra text)`); err != nil {
		t.Fatal(err)
	}
	for q, want := range map[string][]string{
		`SELECT id, rank() OVER (ORDER BY o), sum(o) OVER (PARTITION BY s ORDER BY id) FROM wh`:                               nil,
		`SELECT id, sum(f) OVER (ORDER BY id), rank() OVER (ORDER BY id) FROM wh`:                                             {"sum"},
		`SELECT id, max(s) OVER (PARTITION BY o), sum(o) OVER (ORDER BY o RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM wh`: {"max", "sum"},
	} {
		rec.plan = nil
		if err := exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		var steps []string
		for _, l := range (&Backend{}).Explain(rec.plan) {
			if !strings.HasPrefix(l, "Host Step: window ") {
				t.Errorf("%s: %s", q, l)
			}
			steps = append(steps, strings.Fields(strings.TrimPrefix(l, "Host Step: window "))[0])
		}
		if len(steps) != len(want) {
			t.Errorf("%s: steps %q, want calls %q", q, steps, want)
			continue
		}
		for i := range want {
			if !strings.HasPrefix(steps[i], want[i]) {
				t.Errorf("%s: steps %q, want calls %q", q, steps, want)
			}
		}
		// the columns the window's calls read, never extra's
		var w *engine.Window
		for r := engine.Rel(rec.plan); r != nil && w == nil; {
			if x, ok := r.(*engine.Window); ok {
				w = x
				break
			}
			ins := r.Inputs()
			if len(ins) == 0 {
				break
			}
			r = ins[0]
		}
		if w == nil {
			t.Fatalf("%s: no window node", q)
		}
		need := map[int]bool{}
		for k := range w.Calls {
			windowNeeds(&w.Calls[k], need)
		}
		in := w.Input.Columns()
		for c := range need {
			if c >= len(in) || in[c].Name == "extra" {
				t.Errorf("%s: reads column %d of %v", q, c, in)
			}
		}
		if len(need) == 0 {
			t.Errorf("%s: reads no columns", q)
		}
	}
}
