package gpu

import (
	"github.com/gpusql/gpusql/cuda"
	"github.com/gpusql/gpusql/engine"
)

// Exact float sums (cuda/fsum.cu). sum/avg over real and double precision
// are engine.FloatSum on the device: the interpreter writes each
// aggregate's argument per row (and the filter's truth), fs_range finds
// which limbs the values need, fs_add adds every row into per-group limbs
// with integer atomics (whose order cannot matter), and the host rounds
// the limbs once, as the CPU backend rounds its own (SumResult,
// AvgResult). Both backends therefore give the same bits.

const (
	fsumRowsPerLaunch = int64(1) << 30 // a limb word takes < 2^32 a row: carries resolved before 2^62
	fsumShared        = 40 << 10       // shared bytes of per-block accumulators
	fsumTPB           = 256            // FS_TPB
)

func (r *run) fsLaunch(name string, grid uint32, shared uint32, args ...any) error {
	f, err := r.b.embeddedKernel("fsum", name)
	if err != nil {
		return err
	}
	return r.b.dev.Launch(f, cuda.Dim3{X: grid, Y: 1, Z: 1}, cuda.Dim3{X: fsumTPB, Y: 1, Z: 1}, shared, nil, args...)
}

func (r *run) fsGrid(n int64) uint32 {
	g := (n + fsumTPB - 1) / fsumTPB
	return uint32(max(1, min(g, int64(r.b.dev.Props().SMs)*8)))
}

// isFloatSum reports whether aggregate ag is sum/avg over a float argument.
func isFloatSum(ag engine.AggCall) bool {
	return (ag.Func == engine.AggSum || ag.Func == engine.AggAvg) && ag.Arg != nil && ag.Arg.Type().IsFloat()
}

// floatSums returns, for each float sum/avg of p (by aggregate index), the
// exact sums of its ng groups. gids are the rows' group ids (0 without
// GROUP BY: one group). counts gives each group's count of non-NULL
// values of aggregate k (from q_agg): a group whose values were all -0
// sums to -0.
func (r *run) floatSums(p *engine.Plan, gids uint64, ng int64, counts func(k, g int) int64) (map[int][]engine.FloatSum, error) {
	var ks []int
	for k, ag := range p.Aggs {
		if isFloatSum(ag) {
			ks = append(ks, k)
		}
	}
	if len(ks) == 0 {
		return nil, nil
	}
	sums := map[int][]engine.FloatSum{}
	for _, k := range ks {
		sums[k] = make([]engine.FloatSum, ng)
	}
	if r.n == 0 || ng == 0 {
		return sums, nil
	}
	// the arguments (and the filter's truth, which masks their errors) per row
	prog := newProgram()
	c := &compiler{p: prog, cols: r.t.Cols}
	mask := int32(0)
	var outs []qOut
	if p.Filter != nil {
		f, err := c.compile(p.Filter, 0)
		if err != nil {
			return nil, err
		}
		if mask, err = prog.emit(opIsTrue, f.reg, 0, 0, 0, 0); err != nil {
			return nil, err
		}
		outs = append(outs, qOut{Reg: mask, Cls: clsBool})
	}
	for _, k := range ks {
		v, err := c.compile(p.Aggs[k].Arg, mask)
		if err != nil {
			return nil, err
		}
		outs = append(outs, qOut{Reg: v.reg, Cls: v.cls})
	}
	bufs := make([][2]*cuda.Buffer, len(outs))
	for i := range outs {
		lo, err := r.s.alloc(8 * r.n)
		if err != nil {
			return nil, err
		}
		nul, err := r.s.alloc(r.n)
		if err != nil {
			return nil, err
		}
		outs[i].Lo, outs[i].Nul = uint64(lo.Ptr()), uint64(nul.Ptr())
		bufs[i] = [2]*cuda.Buffer{lo, nul}
	}
	a := qArgs{N: r.n}
	if err := r.prepare(prog, &a); err != nil {
		return nil, err
	}
	var err error
	if a.Outs, err = r.s.upload(sliceBytes(outs)); err != nil {
		return nil, err
	}
	a.NOuts = int32(len(outs))
	if err := r.launch("q_project", r.grid(r.n), 0, &a); err != nil {
		return nil, err
	}
	if err := r.check(prog); err != nil {
		return nil, err
	}
	var flg, flgNul uint64
	first := 0
	if p.Filter != nil {
		flg, flgNul = uint64(bufs[0][0].Ptr()), uint64(bufs[0][1].Ptr())
		first = 1
	}
	for i, k := range ks {
		vals, nul := uint64(bufs[first+i][0].Ptr()), uint64(bufs[first+i][1].Ptr())
		s, err := r.floatSum(vals, nul, flg, flgNul, gids, ng)
		if err != nil {
			return nil, err
		}
		for g := range s {
			s[g].markAllNegZero(counts(k, g))
		}
		out := sums[k]
		for g := range out {
			out[g] = s[g].sum
		}
	}
	return sums, nil
}

// devSum is one group's device accumulator as downloaded.
type devSum struct {
	sum      engine.FloatSum
	negZeros int64
	klo      int
	limbs    []int64
	nan      bool
	pos, neg bool
}

func (d *devSum) markAllNegZero(count int64) {
	d.sum = engine.NewFloatSumLimbs(d.klo, d.limbs, d.nan, d.pos, d.neg, count > 0 && d.negZeros == count)
}

// floatSum adds the values (vals: float64 bits, nul: NULL flags) of the
// rows that pass into ng per-group sums.
func (r *run) floatSum(vals, nul, flg, flgNul, gids uint64, ng int64) ([]devSum, error) {
	rng, err := r.s.alloc(8)
	if err != nil {
		return nil, err
	}
	init := [8]byte{0xff, 0xff, 0xff, 0x3f, 0xff, 0xff, 0xff, 0xff} // int32 min limb 2^30-1, max limb -1
	if err := r.b.dev.CopyHtoD(rng.Ptr(), init[:], nil); err != nil {
		return nil, err
	}
	if err := r.fsLaunch("fs_range", r.fsGrid(r.n), 0, vals, nul, flg, flgNul, gids, r.n, uint64(rng.Ptr())); err != nil {
		return nil, err
	}
	var got [8]byte
	if err := r.b.dev.CopyDtoH(got[:], rng.Ptr(), nil); err != nil {
		return nil, err
	}
	kmin := int(int32(uint32(got[0]) | uint32(got[1])<<8 | uint32(got[2])<<16 | uint32(got[3])<<24))
	kmax := int(int32(uint32(got[4]) | uint32(got[5])<<8 | uint32(got[6])<<16 | uint32(got[7])<<24))
	klo, nl := 0, 0
	if kmax >= 0 {
		// a value touches limbs k..k+2; one more limb takes the carries
		klo, nl = kmin, min(kmax+3, engine.FloatSumLimbs-1)-kmin+1
	}
	w := int64(nl + 4)
	acc, err := r.s.zeros(ng*w*8, 0)
	if err != nil {
		return nil, err
	}
	sg := min(ng, fsumShared/(w*8))
	for row0 := int64(0); row0 < r.n; row0 += fsumRowsPerLaunch {
		row1 := min(r.n, row0+fsumRowsPerLaunch)
		if row0 > 0 && nl > 0 {
			if err := r.fsLaunch("fs_norm", uint32((ng+fsumTPB-1)/fsumTPB), 0, uint64(acc.Ptr()), ng, int32(w), int32(nl)); err != nil {
				return nil, err
			}
		}
		if err := r.fsLaunch("fs_add", r.fsGrid(row1-row0), uint32(sg*w*8), vals, nul, flg, flgNul, gids, row0, row1,
			uint64(acc.Ptr()), int32(w), int32(klo), int32(nl), int32(sg)); err != nil {
			return nil, err
		}
	}
	host := make([]int64, ng*w)
	if err := r.b.dev.CopyDtoH(sliceBytes(host), acc.Ptr(), nil); err != nil {
		return nil, err
	}
	out := make([]devSum, ng)
	for g := range out {
		a := host[int64(g)*w : int64(g+1)*w]
		out[g] = devSum{klo: klo, limbs: a[:nl], nan: a[nl] != 0, pos: a[nl+1] != 0, neg: a[nl+2] != 0, negZeros: a[nl+3]}
	}
	return out, nil
}

// firstRowKeys replaces the values of float GROUP BY keys (and of the
// keys of rowkeys.go) with those of each group's first row. The hash
// table groups -0 with 0 (and every NaN
// together) and keeps whichever row inserted the group; the CPU backend
// and PostgreSQL show the first row's value, which for a float key can be
// -0 where another row of the group has 0.
func (r *run) firstRowKeys(p *engine.Plan, gids uint64, ng int64, keyCols []*engine.Vec, keyVals []val) error {
	var idx []int
	var exprs []engine.Expr
	for k, e := range p.GroupBy {
		if needsFirstRow(e, keyVals[k]) { // rowkeys.go
			idx = append(idx, k)
			exprs = append(exprs, e)
		}
	}
	if len(idx) == 0 || ng == 0 || r.n == 0 {
		return nil
	}
	first, err := r.s.zeros(4*ng, 0x7f)
	if err != nil {
		return err
	}
	if err := r.fsLaunch("fs_first", r.fsGrid(r.n), 0, gids, r.n, uint64(first.Ptr())); err != nil {
		return err
	}
	vals, err := r.outputs(exprs, uint64(first.Ptr()), ng, nil)
	if err != nil {
		return err
	}
	for i, k := range idx {
		keyCols[k] = vals.Cols[i]
	}
	return nil
}
