package gpu

import (
	"context"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/cpu"
)

// Set-returning functions (engine.ProjectSet) as a host step: no kernel
// expands rows, so the node's input, computed on the device, comes to
// the host, the CPU backend's code expands it, and the output goes back
// to the device for the nodes above. EXPLAIN names the step
// (Backend.Explain: "Host Step: set-returning ...").
func (b *Backend) projectSet(ctx context.Context, ps *engine.ProjectSet) (*Table, error) {
	in, err := b.materialize(ctx, ps.Input)
	if err != nil {
		return nil, err
	}
	h, err := in.Download()
	in.Release()
	if err != nil {
		return nil, err
	}
	out, err := cpu.ExpandSet(ctx, ps, h)
	if err != nil {
		return nil, err
	}
	if l := engine.StepLogOf(ctx); l != nil {
		for _, f := range ps.Funcs {
			l.Add(engine.HostStep{Func: f.Name, Rows: h.N, Distinct: h.N})
		}
	}
	return Upload(b.dev, out, "")
}
