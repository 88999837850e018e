package gpu

import (
	"context"
	"encoding/binary"
	"math"

	"github.com/gpusql/gpusql/cuda"
	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/eval"
)

// selection runs the filter and returns the device list of passing row ids
// (at most limit of them, in row order) and its length.
func (r *run) selection(filter engine.Expr, limit int64) (uint64, int64, error) {
	words := (r.n + 31) / 32
	chunks := (r.n + 1023) / 1024
	bm, err := r.s.alloc(words * 4)
	if err != nil {
		return 0, 0, err
	}
	counts, err := r.s.zeros((chunks+1)*4, 0)
	if err != nil {
		return 0, 0, err
	}
	if terms, ok := cmpTerms(filter, r.t.Cols); ok {
		// comparisons of integer columns with constants (cmpfilter.go)
		if err := r.cmpFilter(terms, bm, counts); err != nil {
			return 0, 0, err
		}
	} else if ok, err := r.fusedFilter(filter, bm, counts); err != nil {
		return 0, 0, err
	} else if !ok {
		p := newProgram()
		c := &compiler{p: p, cols: r.t.Cols}
		f, err := c.compile(filter, 0)
		if err != nil {
			return 0, 0, err
		}
		a := qArgs{N: r.n, Filter: f.reg}
		if err := r.prepare(p, &a); err != nil {
			return 0, 0, err
		}
		a.Bitmap, a.Counts = uint64(bm.Ptr()), uint64(counts.Ptr())
		if err := r.launch("q_filter", r.grid(r.n), 0, &a); err != nil {
			return 0, 0, err
		}
		if err := r.check(p); err != nil {
			return 0, 0, err
		}
	}
	if err := r.b.dev.Launch(r.b.fns["q_scan"], cuda.Dim3{X: 1, Y: 1, Z: 1}, cuda.Dim3{X: 1024, Y: 1, Z: 1}, 0, nil,
		counts.Ptr(), chunks); err != nil {
		return 0, 0, err
	}
	var tot [4]byte
	if err := r.b.dev.CopyDtoH(tot[:], counts.Ptr()+cuda.DevPtr(chunks*4), nil); err != nil {
		return 0, 0, err
	}
	total := int64(binary.LittleEndian.Uint32(tot[:]))
	if limit >= 0 && total > limit {
		total = limit
	}
	if limit < 0 {
		limit = math.MaxInt64
	}
	sel, err := r.s.alloc(max(total, 1) * 4)
	if err != nil {
		return 0, 0, err
	}
	g := uint32(min((chunks*32+tpb-1)/tpb, int64(r.b.dev.Props().SMs)*16))
	if err := r.launch("q_compact", max(g, 1), 0, bm.Ptr(), counts.Ptr(), sel.Ptr(), r.n, limit); err != nil {
		return 0, 0, err
	}
	return uint64(sel.Ptr()), total, nil
}

// devOut is one output of deviceOutputs on the device: n int64 values
// (lo; strings: their lengths), NULL flags (nul, one byte a row), the
// high words of numerics and intervals (hi), the string bytes (str,
// width a row) and, for a numeric whose scale varies by row, the scales.
type devOut struct{ lo, hi, nul, str, scale *cuda.Buffer }

// outputs evaluates exprs over rows (sel, or all n) and downloads them.
func (r *run) outputs(exprs []engine.Expr, sel uint64, n int64, filter engine.Expr) (*engine.Batch, error) {
	vals, hb, err := r.deviceOutputs(exprs, sel, n, filter)
	if err != nil {
		return nil, err
	}
	return r.download(vals, hb, n)
}

// deviceOutputs evaluates exprs over rows (sel, or all n) into device
// buffers, the rows where filter (if any) holds.
func (r *run) deviceOutputs(exprs []engine.Expr, sel uint64, n int64, filter engine.Expr) ([]val, []devOut, error) {
	p := newProgram()
	c := &compiler{p: p, cols: r.t.Cols}
	mask := int32(0)
	a := qArgs{Sel: sel, N: n}
	if filter != nil {
		f, err := c.compile(filter, 0)
		if err != nil {
			return nil, nil, err
		}
		if mask, err = p.emit(opIsTrue, f.reg, 0, 0, 0, 0); err != nil {
			return nil, nil, err
		}
		a.Filter = mask
	}
	vals, err := c.compileOutputs(exprs, mask)
	if err != nil {
		return nil, nil, err
	}
	outs := make([]qOut, len(vals))
	hb := make([]devOut, len(vals))
	for k, v := range vals {
		if v.scaleReg == 0 {
			continue
		}
		// the row's scale, as one more int64 output
		lo, err := r.s.alloc(8 * n)
		if err != nil {
			return nil, nil, err
		}
		nul, err := r.s.alloc(n)
		if err != nil {
			return nil, nil, err
		}
		hb[k].scale = lo
		outs = append(outs, qOut{Reg: v.scaleReg, Cls: clsI64, Lo: uint64(lo.Ptr()), Nul: uint64(nul.Ptr())})
	}
	for k, v := range vals {
		o := qOut{Reg: v.reg, Cls: v.cls}
		lo, err := r.s.alloc(8 * n)
		if err != nil {
			return nil, nil, err
		}
		nul, err := r.s.alloc(n)
		if err != nil {
			return nil, nil, err
		}
		o.Lo, o.Nul = uint64(lo.Ptr()), uint64(nul.Ptr())
		hb[k].lo, hb[k].nul = lo, nul
		if v.cls == clsDec || v.cls == clsIntv {
			hi, err := r.s.alloc(8 * n)
			if err != nil {
				return nil, nil, err
			}
			o.Hi = uint64(hi.Ptr())
			hb[k].hi = hi
		}
		if isStr(v.cls) {
			o.Cls = clsStr
			o.Width = int32(v.width)
			st, err := r.s.alloc(int64(v.width) * n)
			if err != nil {
				return nil, nil, err
			}
			o.Str = uint64(st.Ptr())
			hb[k].str = st
		}
		outs[k] = o
	}
	if err := r.prepare(p, &a); err != nil {
		return nil, nil, err
	}
	if a.Outs, err = r.s.upload(sliceBytes(outs)); err != nil {
		return nil, nil, err
	}
	a.NOuts = int32(len(outs))
	if n > 0 {
		if err := r.launch("q_project", r.grid(n), 0, &a); err != nil {
			return nil, nil, err
		}
		if err := r.check(p); err != nil {
			return nil, nil, err
		}
	}
	return vals, hb, nil
}

// download copies deviceOutputs' buffers to host vectors.
func (r *run) download(vals []val, hb []devOut, n int64) (*engine.Batch, error) {
	res := &engine.Batch{N: int(n), Cols: make([]*engine.Vec, len(vals))}
	for k, v := range vals {
		lo := make([]int64, n)
		nul := make([]byte, n)
		if n > 0 {
			if err := r.b.dev.CopyDtoH(sliceBytes(lo), hb[k].lo.Ptr(), nil); err != nil {
				return nil, err
			}
			if err := r.b.dev.CopyDtoH(nul, hb[k].nul.Ptr(), nil); err != nil {
				return nil, err
			}
		}
		var hi []int64
		var str []byte
		if hb[k].hi != nil && n > 0 {
			hi = make([]int64, n)
			if err := r.b.dev.CopyDtoH(sliceBytes(hi), hb[k].hi.Ptr(), nil); err != nil {
				return nil, err
			}
		}
		if hb[k].str != nil && n > 0 && v.width > 0 {
			str = make([]byte, int64(v.width)*n)
			if err := r.b.dev.CopyDtoH(str, hb[k].str.Ptr(), nil); err != nil {
				return nil, err
			}
		}
		var scales []int64
		if hb[k].scale != nil && n > 0 {
			scales = make([]int64, n)
			if err := r.b.dev.CopyDtoH(sliceBytes(scales), hb[k].scale.Ptr(), nil); err != nil {
				return nil, err
			}
		}
		res.Cols[k] = toVec(v, int(n), lo, hi, nul, str)
		for i, sc := range scales {
			if nul[i] == 0 {
				res.Cols[k].D[i].Scale = int32(sc)
			}
		}
	}
	return res, nil
}

// toVec builds a host vector from downloaded register values.
func toVec(v val, n int, lo, hi []int64, nul []byte, str []byte) *engine.Vec {
	out := engine.NewVec(v.t, n)
	for i := 0; i < n; i++ {
		if nul[i] != 0 {
			out.SetNull(i)
			continue
		}
		switch engine.PhysOf(v.t.Kind) {
		case engine.PhysInt:
			out.I[i] = lo[i]
		case engine.PhysFloat:
			out.F[i] = bitsF64(lo[i])
		case engine.PhysDec:
			out.D[i] = engine.Dec{Lo: uint64(lo[i]), Hi: hi[i], Scale: v.scale}
		case engine.PhysInterval:
			out.V[i] = engine.IntervalVal{Months: int32(hi[i] >> 32), Days: int32(uint32(hi[i])), Micros: lo[i]}
		case engine.PhysStr:
			if v.width > 0 {
				out.S[i] = str[i*v.width : i*v.width+int(lo[i])]
			} else {
				out.S[i] = []byte{}
			}
		}
	}
	return out
}

// project runs a query without aggregates.
func (r *run) project(p *engine.Plan) (*engine.Batch, error) {
	limit := int64(-1)
	if len(p.OrderBy) == 0 && !p.Distinct && p.Limit >= 0 {
		limit = p.Limit + p.Offset
	}
	var sel uint64
	n := r.n
	if limit >= 0 && n > limit && p.Filter == nil {
		n = limit
	}
	if p.Filter != nil && r.n > 0 {
		var err error
		if sel, n, err = r.selection(p.Filter, limit); err != nil {
			return nil, err
		}
	} else if p.Filter != nil {
		// no table rows: the filter runs over the one row of a FROM-less query
		return r.outputs(p.Project, 0, r.n, p.Filter)
	}
	return r.outputs(p.Project, sel, n, nil)
}

// finish applies HAVING-free post-processing (DISTINCT, ORDER BY, OFFSET,
// LIMIT) on the host and streams the visible columns.
func finish(ctx context.Context, p *engine.Plan, res *engine.Batch, sink engine.BatchSink) error {
	res = eval.FinishRows(res, p)
	lo := int(min(p.Offset, int64(res.N)))
	hi := res.N
	if p.Limit >= 0 && int64(hi-lo) > p.Limit {
		hi = lo + int(p.Limit)
	}
	const batch = 4096
	for b := lo; b < hi; b += batch {
		if ctx.Err() != nil {
			return engine.Errorf(engine.CodeQueryCanceled, "canceling statement due to user request")
		}
		e := min(b+batch, hi)
		sel := make([]int32, e-b)
		for k := range sel {
			sel[k] = int32(b + k)
		}
		out := eval.GatherBatch(res, sel)
		if err := sink(&engine.Batch{N: out.N, Cols: out.Cols[:p.Visible]}); err != nil {
			return err
		}
	}
	return nil
}

// regSlabBytes bounds the register slab of one program: a program of
// many registers runs on fewer blocks rather than on a larger slab.
const regSlabBytes = 512 << 20

// fullStrScratch is the string scratch a thread of the largest grid may
// have; programs needing more run on fewer blocks (strScratch).
const fullStrScratch = 4096

// regSlab gives a program of more than inRegs registers its register file
// in global memory (regsOf in query.cu): nreg lo words, nreg hi words and
// nreg NULL flags per thread, for as many blocks of the largest grid as
// regSlabBytes holds; launch caps the grid at them.
func (r *run) regSlab(p *program, a *qArgs) error {
	a.Regs, a.NRegs, a.RegBlocks = 0, 0, 0
	if p.nreg <= inRegs {
		return nil
	}
	stride := (int64(p.nreg)*17 + 7) &^ 7
	blocks := int64(r.b.dev.Props().SMs) * 16
	blocks = max(1, min(blocks, regSlabBytes/(stride*tpb)))
	b, err := r.s.alloc(stride * tpb * blocks)
	if err != nil {
		return err
	}
	a.Regs, a.NRegs, a.RegBlocks = uint64(b.Ptr()), p.nreg, int32(blocks)
	return nil
}

// strScratch allocates the string scratch of p (program.strSlot) for
// every thread of the largest grid run.grid makes.
func (r *run) strScratch(p *program, a *qArgs) error {
	if p.scratch == 0 {
		return nil
	}
	blocks := int64(r.b.dev.Props().SMs) * 16
	if p.scratch > fullStrScratch {
		// a wide program runs on fewer blocks rather than on more memory
		blocks = max(1, min(blocks, regSlabBytes/(int64(p.scratch)*tpb)))
		if a.RegBlocks == 0 || int64(a.RegBlocks) > blocks {
			a.RegBlocks = int32(blocks)
		}
	}
	b, err := r.s.alloc(int64(p.scratch) * tpb * blocks)
	if err != nil {
		return err
	}
	a.Scratch, a.ScrStride = uint64(b.Ptr()), int64(p.scratch)
	return nil
}

// compileOutputs compiles output columns: each output's value moves to a
// register of its own, reserved first, and the registers that computed it
// are free for the next output, so the register limit applies to one
// expression, not to the whole select list. A numeric whose scale varies
// by row (a quotient, a CASE over numerics of different scales) keeps
// each row's scale in a register of its own too (val.scaleReg).
func (c *compiler) compileOutputs(exprs []engine.Expr, mask int32) ([]val, error) {
	p := c.p
	vals := make([]val, len(exprs))
	base := p.next
	for range exprs {
		if _, err := p.newReg(); err != nil {
			return nil, err
		}
	}
	for k, e := range exprs {
		mark := p.next
		c.intvOK = true // an interval downloads as lo and hi
		v, err := c.compile(e, mask)
		c.intvOK = false
		if err != nil {
			return nil, err
		}
		dst := base + int32(k)
		if err := p.emitTo(dst, opCoalesce, v.reg, v.reg, 0, mask, 0); err != nil {
			return nil, err
		}
		v.reg = dst
		if v.scaleReg != 0 {
			if err := p.emitTo(mark, opCoalesce, v.scaleReg, v.scaleReg, 0, mask, 0); err != nil {
				return nil, err
			}
			v.scaleReg = mark
			mark++
		}
		vals[k] = v
		p.next = mark
	}
	return vals, nil
}
