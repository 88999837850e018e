package gpu

import (
	"context"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/cpu"
)

// TestWindowHostExplain binds window queries (no device) and checks that
// EXPLAIN names exactly the calls the kernels refuse, which run on the
// host (window_host.go), and that windowNeeds finds the columns they read.
func TestWindowHostExplain(t *testing.T) {
	rec, exec := recordingSession(t, "", `CREATE TABLE wh (id bigint, o integer, f double precision, s text, n numeric(10,2), extra text)`)
	for q, want := range map[string][]string{
		`SELECT id, rank() OVER (ORDER BY o), sum(o) OVER (PARTITION BY s ORDER BY id) FROM wh`:                               nil,
		`SELECT id, sum(f) OVER (ORDER BY id), rank() OVER (ORDER BY id) FROM wh`:                                             {"sum"},
		`SELECT id, max(s) OVER (PARTITION BY o), sum(o) OVER (ORDER BY o RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM wh`: {"max", "sum"},
		`SELECT o, percentile_cont(0.5) WITHIN GROUP (ORDER BY f), count(*) FROM wh GROUP BY o`:                               {"aggregate"},
	} {
		rec.plan = nil
		if err := exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		var steps []string
		for _, l := range (&Backend{}).Explain(rec.plan) {
			if strings.HasPrefix(l, "Host Step: aggregate percentile_cont(") {
				steps = append(steps, "aggregate")
				continue
			}
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
			if strings.Contains(q, "OVER") {
				t.Errorf("%s: no window node", q)
			}
			continue
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

// hostWindowBackend runs Window nodes the way Backend.window runs the
// calls the kernels refuse, all of them: each window's calls through
// cpuWindow over hostInput's table, the rows in the last window's order;
// the rest of the plan on the CPU backend.
type hostWindowBackend struct {
	*cpu.Backend
	windows int
}

func (b *hostWindowBackend) Execute(ctx context.Context, p *engine.Plan, sink engine.BatchSink) error {
	q, err := b.replace(ctx, p)
	if err != nil {
		return err
	}
	return b.Backend.Execute(ctx, q.(*engine.Plan), sink)
}

func (b *hostWindowBackend) replace(ctx context.Context, r engine.Rel) (engine.Rel, error) {
	switch r := r.(type) {
	case *engine.Plan:
		if r.Input == nil {
			return r, nil
		}
		in, err := b.replace(ctx, r.Input)
		if err != nil {
			return nil, err
		}
		q := *r
		q.Input = in
		return &q, nil
	case *engine.Window:
		b.windows++
		h, err := b.window(ctx, r)
		if err != nil {
			return nil, err
		}
		leaf := &engine.Plan{Host: true, Data: engine.NewHostTable(h.Cols, h.N), Table: "(window)", Schema: r.Columns(), Limit: -1}
		for k, c := range leaf.Schema {
			leaf.Project = append(leaf.Project, &engine.ColRef{Idx: k, Name: c.Name, T: c.Type})
			leaf.Names = append(leaf.Names, c.Name)
		}
		leaf.Visible = len(leaf.Project)
		return leaf, nil
	}
	return r, nil
}

func (b *hostWindowBackend) window(ctx context.Context, w *engine.Window) (*engine.HostTable, error) {
	in, err := b.replace(ctx, w.Input)
	if err != nil {
		return nil, err
	}
	p := &engine.Plan{Input: in, Table: "(input)", Limit: -1}
	for k, c := range w.Input.Columns() {
		p.Project = append(p.Project, &engine.ColRef{Idx: k, Name: c.Name, T: c.Type})
		p.Names = append(p.Names, c.Name)
	}
	p.Visible = len(p.Project)
	d, err := b.Backend.Materialize(ctx, p, engine.StoreOptions{})
	if err != nil {
		return nil, err
	}
	inh := d.(*engine.HostTable)
	need := map[int]bool{}
	for k := range w.Calls {
		windowNeeds(&w.Calls[k], need)
	}
	cols := make([]*engine.Column, len(inh.Cols))
	for k, c := range inh.Cols {
		if need[k] {
			cols[k] = c
		}
	}
	h := hostInput(cols, inh.N)
	outs := make([]*engine.Column, len(w.Calls))
	var last []int32
	done := make([]bool, len(w.Calls))
	for k := range w.Calls {
		if done[k] {
			continue
		}
		group := []int{k}
		for j := k + 1; j < len(w.Calls); j++ {
			if !done[j] && w.Calls[j].SameWindow(&w.Calls[k]) {
				group = append(group, j)
				done[j] = true
			}
		}
		calls := make([]engine.WindowCall, len(group))
		for i, c := range group {
			calls[i] = w.Calls[c]
		}
		order, res, err := cpuWindow(ctx, h, calls)
		if err != nil {
			return nil, err
		}
		for i, c := range group {
			outs[c] = res[i]
		}
		last = order
	}
	out := &engine.HostTable{N: inh.N}
	for _, c := range append(append([]*engine.Column(nil), inh.Cols...), outs...) {
		if last != nil {
			c = c.Gather(last)
		}
		out.Cols = append(out.Cols, c)
	}
	return out, nil
}

// TestHostWindowMatchesCPU runs window queries on the CPU backend as
// they are and with every window through the host path of the GPU
// backend (hostInput, cpuWindow, the last window's order): the same
// rows in the same order.
func TestHostWindowMatchesCPU(t *testing.T) {
	hb := &hostWindowBackend{Backend: cpu.New(nil, 1)}
	ss := csSessions(t, 3000, cpu.New(nil, 1), hb)
	for _, q := range []string{
		`SELECT id, avg(f) OVER (ORDER BY id), sum(f) OVER (PARTITION BY s ORDER BY i, id) FROM cs`,
		`SELECT id, sum(i) OVER (ORDER BY i RANGE BETWEEN 1000 PRECEDING AND CURRENT ROW),
		        count(*) OVER (ORDER BY d RANGE BETWEEN '30 days' PRECEDING AND '1 day' FOLLOWING),
		        max(n) OVER (PARTITION BY s ORDER BY n RANGE BETWEEN 10.5 PRECEDING AND 2.25 FOLLOWING EXCLUDE CURRENT ROW) FROM cs`,
		`SELECT id, row_number() OVER (PARTITION BY s ORDER BY id), string_agg(s, ',') OVER (ORDER BY id ROWS 2 PRECEDING),
		        rank() OVER (ORDER BY i), min(s) OVER (PARTITION BY i % 5), stddev_samp(f) OVER (PARTITION BY s) FROM cs`,
		`SELECT * FROM (SELECT id, s, f, avg(f) FILTER (WHERE f < 1e300 AND f > -1e300) OVER (PARTITION BY s) AS a FROM cs) x WHERE f > a`,
		`SELECT id, lag(n, 1, 0.125) OVER (ORDER BY id), first_value(ts) OVER (PARTITION BY s ORDER BY tz, id) FROM cs`,
		`SELECT s, sum(f), rank() OVER (ORDER BY sum(f) DESC) FROM cs GROUP BY s`,
		// numerics of two scales (lag's default has scale 0): each
		// row keeps its own, on the device too (rowScales columns)
		`SELECT id, lag(n, 1, 0) OVER (ORDER BY id) FROM cs`,
	} {
		var out [2]textRowsOf
		var errs [2]error
		before := hb.windows
		for k, s := range ss {
			errs[k] = s.Query(context.Background(), q, &out[k])
		}
		if hb.windows == before {
			t.Errorf("%s: no window ran on the host path", q)
		}
		if errs[0] != nil || errs[1] != nil {
			t.Errorf("%s:\n cpu %v\n host path %v", q, errs[0], errs[1])
			continue
		}
		if strings.Join(out[0].rows, "\n") != strings.Join(out[1].rows, "\n") || len(out[0].rows) == 0 {
			t.Errorf("%s: rows differ (%d, %d)", q, len(out[0].rows), len(out[1].rows))
		}
	}
}
