package cpu

import (
	"context"

	"github.com/gpusql/gpusql/engine"
)

// ExpandSet runs a ProjectSet's functions over its input's rows h and
// returns the node's output (engine.ProjectSet says how rows zip). The
// GPU backend runs it over its input brought to the host.
func ExpandSet(ctx context.Context, ps *engine.ProjectSet, h *engine.HostTable) (*engine.HostTable, error) {
	n := int(h.N)
	counts := make([][]int32, len(ps.Funcs))
	vals := make([]*engine.Vec, len(ps.Funcs))
	for k, f := range ps.Funcs {
		args, err := keyCols(ctx, f.Args, h)
		if err != nil {
			return nil, err
		}
		v, c, err := f.Fn(args, n)
		if err != nil {
			return nil, err
		}
		vals[k], counts[k] = v, c
	}
	if err := canceled(ctx); err != nil {
		return nil, err
	}
	rows, at := engine.ZipSets(counts, n)
	out := &engine.HostTable{N: int64(len(rows))}
	for _, c := range ps.Pass {
		out.Cols = append(out.Cols, h.Cols[c].Gather(rows))
	}
	for k, f := range ps.Funcs {
		v := vals[k]
		pad := int32(v.N) // a NULL past the values stands for the padding
		null := engine.NewVec(f.T, 1)
		null.SetNull(0)
		v.AppendRow(null, 0)
		sel := at[k]
		for j, x := range sel {
			if x < 0 {
				sel[j] = pad
			}
		}
		g := v.Gather(sel)
		col, err := engine.HostFromBatches([]engine.Type{f.T}, []*engine.Batch{{N: g.N, Cols: []*engine.Vec{g}}})
		if err != nil {
			return nil, err
		}
		out.Cols = append(out.Cols, col.Cols[0])
	}
	return out, nil
}
