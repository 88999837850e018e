package gpu

import (
	"errors"

	"github.com/gpusql/gpusql/cuda"
	"github.com/gpusql/gpusql/engine"
)

// Generated filters. A WHERE that is not a conjunction of integer
// comparisons (cmpfilter.go) ran on the interpreter's q_filter, which
// dispatches each instruction of the program for each row: TPC-H Q19's
// lineitem filter (string IN and equality, numeric ranges under OR) took
// 33 ms over 60 M rows there. fusedFilter compiles the filter as the
// fused aggregates do (ptxgen.go, with dictionaries and LIKE bitmaps
// from precomp.go) into a kernel of its own that writes the same bitmap
// and per-1024-row counts q_filter writes; a filter the generator cannot
// prove exact stays on q_filter.

// fusedFilter writes filter's pass bitmap into bm and its chunk counts
// into counts (zeroed by the caller) with a generated kernel; ok is false
// when the generator refuses the filter.
func (r *run) fusedFilter(filter engine.Expr, bm, counts *cuda.Buffer) (ok bool, err error) {
	if r.n == 0 || r.n >= fusedMaxRows {
		return false, nil
	}
	p, err := r.precompute(&engine.Plan{Filter: filter})
	if err != nil {
		return false, err
	}
	prog := newProgram()
	c := &compiler{p: prog, cols: r.t.Cols, fitMax: true}
	f, err := c.compile(p.Filter, 0)
	if err != nil {
		return false, nil // the interpreter gives the error, if any
	}
	for _, in := range prog.ins {
		if in.Op == opCol && r.t.Cols[in.A].Data == nil {
			return false, nil
		}
	}
	key, err := r.fusedKey(prog, f.reg, nil, nil, nil, 1)
	if err != nil {
		return false, err
	}
	fk, fn, err := r.b.fusedKernel("filter|"+key, func() (*fusedKernel, error) {
		return genFilterKernel(prog, f.reg, r.t.Cols, r.stats)
	})
	if errors.Is(err, errNotFused) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	args := r.kernelArgs(fk, prog.pres, uint64(r.n), uint64(bm.Ptr()), uint64(counts.Ptr()), uint64(0))
	grid := min(int64(r.b.dev.Props().SMs)*8, (r.n+fusedTPB-1)/fusedTPB)
	err = r.b.dev.Launch(fn, cuda.Dim3{X: uint32(grid), Y: 1, Z: 1}, cuda.Dim3{X: fusedTPB, Y: 1, Z: 1}, 0, nil, args...)
	return err == nil, err
}
