package gpu

import (
	"github.com/gpusql/gpusql/cuda"
	"github.com/gpusql/gpusql/engine"
)

// min/max over numerics whose scale varies by row (a quotient, a CASE over
// numerics of different scales) and over intervals (by span: '1 mon' and
// '30 days' are equal, the first row's form wins). The CPU backend compares such values by
// value across scales and keeps the first row holding the best one, with
// that row's own scale (1.5 and 1.50 are equal: the earlier wins). On the
// device each value's mantissa and scale are written per row, turned into
// three words whose order is the values' order whatever the scales
// (cuda/stragg.cu, mm_norm: sign, decimal exponent, mantissa normalized to
// 38 digits), and the rows sort stably by group, then by those words
// (descending for max): each group's first row wins (mm_pick), and only
// its mantissa and scale come back.

// isScaledMinMax reports whether compileAggsAt left aggregate q (of
// function min or max) to scaledMinMax: a count of its values in its
// place.
func isScaledMinMax(q qAgg) bool {
	return q.Cls == accCount && (q.Fn == int32(engine.AggMin) || q.Fn == int32(engine.AggMax))
}

// scaledMinMax returns the results of those aggregates of p (by index),
// over ng groups with the rows' group ids gids (0: one group).
func (r *run) scaledMinMax(p *engine.Plan, qa []qAgg, gids uint64, ng int64) (map[int]*engine.Vec, error) {
	var out map[int]*engine.Vec
	var sel uint64
	n := int64(-1)
	for k, ag := range p.Aggs {
		if !isScaledMinMax(qa[k]) {
			continue
		}
		if out == nil {
			out = map[int]*engine.Vec{}
		}
		if n < 0 {
			var err error
			if sel, n, err = r.aggRows(p); err != nil {
				return nil, err
			}
		}
		v, err := r.scaledBest(ag, gids, ng, sel, n)
		if err != nil {
			return nil, err
		}
		out[k] = v
	}
	return out, nil
}

// aggRows returns the rows an aggregate reads: the filter's selection
// (sel, n), or all rows (0, r.n).
func (r *run) aggRows(p *engine.Plan) (uint64, int64, error) {
	if p.Filter == nil || r.n == 0 {
		return 0, r.n, nil
	}
	return r.selection(p.Filter, -1)
}

// projectOuts runs prog over the n rows sel (all when 0), writing outs.
func (r *run) projectOuts(prog *program, outs []qOut, sel uint64, n int64) error {
	a := qArgs{Sel: sel, N: n}
	if err := r.prepare(prog, &a); err != nil {
		return err
	}
	var err error
	if a.Outs, err = r.s.upload(sliceBytes(outs)); err != nil {
		return err
	}
	a.NOuts = int32(len(outs))
	if n == 0 {
		return nil
	}
	if err := r.launch("q_project", r.grid(n), 0, &a); err != nil {
		return err
	}
	return r.check(prog)
}

func (r *run) scaledBest(ag engine.AggCall, gids uint64, ng int64, sel uint64, n int64) (*engine.Vec, error) {
	res := engine.NewVec(ag.T, int(ng))
	for g := 0; g < int(ng); g++ {
		res.SetNull(g)
	}
	if n == 0 || ng == 0 {
		return res, nil
	}
	fns, err := r.b.sortFns()
	if err != nil {
		return nil, err
	}
	// each value's mantissa and scale, then its order words (mm_norm)
	prog := newProgram()
	c := &compiler{p: prog, cols: r.t.Cols}
	c.intvOK = ag.Arg.Type().Kind == engine.KindInterval
	v, err := c.compile(ag.Arg, 0)
	if err != nil {
		return nil, err
	}
	// an interval sorts by its span (a scale-0 numeric) and gives the
	// winning row's months, days and microseconds (pk: its lo and hi)
	var pk sKey
	var outs []qOut
	if v.cls == clsIntv {
		ik, io, err := r.keyArrays(v, n)
		if err != nil {
			return nil, err
		}
		ik.Hi = 0
		hi, err := r.s.alloc(8 * n)
		if err != nil {
			return nil, err
		}
		io.Hi, pk = uint64(hi.Ptr()), ik
		pk.Hi = io.Hi
		outs = append(outs, io)
		zero, err := c.constant(&engine.Const{T: engine.Int64})
		if err != nil {
			return nil, err
		}
		if v, err = c.span(v); err != nil {
			return nil, err
		}
		v.scaleReg = zero.reg
	}
	if v.cls != clsDec || v.scaleReg == 0 {
		return nil, unsupported("%s over %s", ag.Func, v.t)
	}
	vk, vo, err := r.keyArrays(v, n)
	if err != nil {
		return nil, err
	}
	sk, so, err := r.keyArrays(val{reg: v.scaleReg, cls: clsI64}, n)
	if err != nil {
		return nil, err
	}
	if pk.Lo == 0 {
		pk = vk
	}
	if err := r.projectOuts(prog, append(outs, vo, so), sel, n); err != nil {
		return nil, err
	}
	gnul, err := r.s.zeros(n, 0)
	if err != nil {
		return nil, err
	}
	keys := make([]sKey, 4)
	for k := range keys {
		w, err := r.s.alloc(8 * n)
		if err != nil {
			return nil, err
		}
		keys[k] = sKey{Lo: uint64(w.Ptr()), Nul: uint64(gnul.Ptr()), Cls: clsI64}
		if k > 0 && ag.Func == engine.AggMax {
			keys[k].Desc = 1
		}
	}
	grid := r.sortGrid(n)
	if err := r.saLaunch("mm_norm", grid, saTPB, n, cuda.DevPtr(vk.Lo), cuda.DevPtr(vk.Hi), cuda.DevPtr(sk.Lo),
		cuda.DevPtr(keys[1].Lo), cuda.DevPtr(keys[2].Lo), cuda.DevPtr(keys[3].Lo)); err != nil {
		return nil, err
	}
	// the group word: 2*gid + (value is NULL)
	gk := cuda.DevPtr(keys[0].Lo)
	if err := r.saLaunch("sa_gkey", grid, saTPB, cuda.DevPtr(gids), cuda.DevPtr(sel), n, cuda.DevPtr(vk.Nul), gk); err != nil {
		return nil, err
	}
	perm, _, err := r.radixSort(fns, keys, n, 0)
	if err != nil {
		return nil, err
	}
	best, err := r.s.alloc(24 * ng)
	if err != nil {
		return nil, err
	}
	has, err := r.s.zeros(ng, 0)
	if err != nil {
		return nil, err
	}
	if err := r.saLaunch("mm_pick", grid, saTPB, cuda.DevPtr(perm), n, gk, cuda.DevPtr(pk.Lo), cuda.DevPtr(pk.Hi), cuda.DevPtr(sk.Lo),
		best.Ptr(), has.Ptr()); err != nil {
		return nil, err
	}
	bv := make([]int64, 3*ng)
	hv := make([]byte, ng)
	if err := r.b.dev.CopyDtoH(sliceBytes(bv), best.Ptr(), nil); err != nil {
		return nil, err
	}
	if err := r.b.dev.CopyDtoH(hv, has.Ptr(), nil); err != nil {
		return nil, err
	}
	for g := range hv {
		if hv[g] == 0 {
			continue
		}
		res.Null[g] = false
		if ag.T.Kind == engine.KindInterval {
			hi := bv[3*g+1]
			res.V[g] = engine.IntervalVal{Months: int32(hi >> 32), Days: int32(uint32(hi)), Micros: bv[3*g]}
			continue
		}
		res.D[g] = engine.Dec{Lo: uint64(bv[3*g]), Hi: bv[3*g+1], Scale: int32(bv[3*g+2])}
	}
	return res, nil
}
