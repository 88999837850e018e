package gpu

import (
	"context"
	"runtime"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/cpu"
)

// Window calls as host steps. The calls of one window (the same
// PARTITION BY and ORDER BY) that the kernels refuse (RANGE frames with
// offsets, sums and averages of floats, min and max of floats and
// strings, string_agg, the statistics, lag's default of another scale,
// ...) run on the host, all of the window's calls together: the columns
// they read are downloaded once for the node (the others stay on the
// device), the CPU backend's own window code (engine/cpu) computes them
// over those rows with a row number beside them, and each result column
// goes back to the device in the input's row order; the row numbers in
// the CPU's output order are the window's order, as a device sort would
// give it (both sorts are stable). EXPLAIN names the host calls
// (Backend.Explain: "Host Step: window ..."); a call the kernels refuse
// only at run time (a sum past 64 bits) takes its window to the host
// too, which EXPLAIN cannot know in advance.

// hostWindow is the host's part of a Window node: the input's columns
// the host calls read, downloaded on first use.
type hostWindow struct {
	in   *Table
	need map[int]bool
	h    *engine.HostTable
}

// windowNeeds adds the input columns call c reads.
func windowNeeds(c *engine.WindowCall, need map[int]bool) {
	for _, p := range c.Partition {
		need[p] = true
	}
	for _, o := range c.Order {
		need[o.Col] = true
	}
	var walk func(e engine.Expr)
	walk = func(e engine.Expr) {
		switch e := e.(type) {
		case *engine.ColRef:
			need[e.Idx] = true
		case *engine.Call:
			for _, a := range e.Args {
				walk(a)
			}
		case *engine.Case:
			for _, x := range e.Conds {
				walk(x)
			}
			for _, x := range e.Results {
				walk(x)
			}
			walk(e.Else)
		case *engine.HostFunc:
			for _, a := range e.Args {
				walk(a)
			}
		}
	}
	for _, e := range c.Exprs() {
		walk(e)
	}
	for _, e := range c.Args {
		walk(e)
	}
}

// host is the input on the host: the needed columns, and an all-NULL
// boolean column in place of each other one (never read), then the row
// numbers.
func (hw *hostWindow) host() (*engine.HostTable, error) {
	if hw.h != nil {
		return hw.h, nil
	}
	in := hw.in
	cols := make([]*engine.Column, len(in.Cols))
	for k, c := range in.Cols {
		if !hw.need[k] {
			continue
		}
		one, err := (&Table{N: in.N, Dev: in.Dev, Cols: []*Column{c}}).Download()
		if err != nil {
			return nil, err
		}
		cols[k] = one.Cols[0]
	}
	hw.h = hostInput(cols, in.N)
	return hw.h, nil
}

// hostInput is cols (nil where not needed) as cpuWindow's input: an
// all-NULL boolean column in place of each nil one, then the row numbers.
func hostInput(cols []*engine.Column, n int64) *engine.HostTable {
	h := &engine.HostTable{N: n, Cols: make([]*engine.Column, 0, len(cols)+1)}
	for _, c := range cols {
		if c == nil {
			c = engine.NewColumn(engine.Bool, int(n), 0, true)
			clear(c.Valid)
		}
		h.Cols = append(h.Cols, c)
	}
	ids := engine.NewColumn(engine.Int32, int(n), 0, false)
	for i := range ids.I32 {
		ids.I32[i] = int32(i)
	}
	h.Cols = append(h.Cols, ids)
	return h
}

// hostWindowCalls computes calls (one window's) on the host and returns
// their columns on the device, in the input's row order, and the
// window's order (positions → rows, a u32 device array in s).
func (b *Backend) hostWindowCalls(ctx context.Context, s *scratch, hw *hostWindow, calls []engine.WindowCall) ([]*Column, uint64, error) {
	h, err := hw.host()
	if err != nil {
		return nil, 0, err
	}
	order, res, err := cpuWindow(ctx, h, calls)
	if err != nil {
		return nil, 0, err
	}
	perm, err := s.upload(sliceBytes(order))
	if err != nil {
		return nil, 0, err
	}
	cols := make([]*Column, len(calls))
	for k, hc := range res {
		t, err := Upload(b.dev, &engine.HostTable{N: h.N, Cols: []*engine.Column{hc}}, "")
		if err != nil {
			for _, c := range cols {
				if c != nil {
					c.free()
				}
			}
			return nil, 0, err
		}
		cols[k] = t.Cols[0]
	}
	return cols, perm, nil
}

// cpuWindow runs calls (one window's) with the CPU backend over h, whose
// last column numbers the rows, and returns the window's order
// (positions → rows) and each call's results in h's row order.
func cpuWindow(ctx context.Context, h *engine.HostTable, calls []engine.WindowCall) ([]int32, []*engine.Column, error) {
	n := int(h.N)
	leaf := &engine.Plan{Host: true, Data: engine.NewHostTable(h.Cols, h.N), Table: "(window input)", Limit: -1}
	for k, c := range h.Cols {
		leaf.Schema = append(leaf.Schema, engine.ColumnDef{Name: "c", Type: c.Type})
		leaf.Project = append(leaf.Project, &engine.ColRef{Idx: k, T: c.Type})
		leaf.Names = append(leaf.Names, "c")
	}
	leaf.Visible = len(leaf.Project)
	w := &engine.Window{Input: leaf, Calls: calls}
	// the row numbers, then the calls' results
	p := &engine.Plan{Input: w, Table: "(window)", Limit: -1}
	p.Project = append(p.Project, &engine.ColRef{Idx: len(h.Cols) - 1, T: engine.Int32})
	for k := range calls {
		w.Names = append(w.Names, "w")
		p.Project = append(p.Project, &engine.ColRef{Idx: len(h.Cols) + k, T: calls[k].T})
	}
	for range p.Project {
		p.Names = append(p.Names, "w")
	}
	p.Visible = len(p.Project)
	res, err := cpu.New(nil, runtime.GOMAXPROCS(0)).Materialize(ctx, p, engine.StoreOptions{})
	if err != nil {
		return nil, nil, err
	}
	out := res.(*engine.HostTable)
	order := out.Cols[0].I32
	inv := make([]int32, n)
	for pos, row := range order {
		inv[row] = int32(pos)
	}
	cols := make([]*engine.Column, len(calls))
	for k := range calls {
		hc := out.Cols[k+1]
		if _, err := clsOf(hc.Type); err != nil {
			return nil, nil, err
		}
		// results of several numeric scales keep them on the device
		// (Upload's rowScales columns)
		cols[k] = hc.Gather(inv)
	}
	return order, cols, nil
}
