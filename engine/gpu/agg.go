package gpu

import (
	"context"
	"math"
	"math/big"
	"unsafe"

	"github.com/gpusql/gpusql/cuda"
	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/eval"
)

// sharedAccBytes bounds the per-block shared accumulators of q_agg (the
// interpreter's program already takes 16 KB of the 48 KB default).
const sharedAccBytes = 30 << 10

// aggregate runs filter, grouping and aggregates on the device, then HAVING
// and the projection over the (small) per-group results on the host.
func (r *run) aggregate(p *engine.Plan) (*engine.Batch, error) {
	var g *groups
	if len(p.GroupBy) > 0 {
		var err error
		if g, err = r.groupRows(p); err != nil {
			return nil, err
		}
	}
	return r.aggregateGroups(p, g)
}

// groups is what group found: per row group ids, the number of groups,
// and the keys' registers and per-group values.
type groups struct {
	gids    uint64
	ng      int64
	keyVals []val
	keyBufs [][4]*cuda.Buffer
}

func (r *run) groupRows(p *engine.Plan) (*groups, error) {
	gids, ng, keyVals, keyBufs, err := r.group(p)
	if err != nil {
		return nil, err
	}
	return &groups{gids: gids, ng: ng, keyVals: keyVals, keyBufs: keyBufs}, nil
}

// aggregateGroups is aggregate over the groups g found (nil: no GROUP
// BY, one group).
func (r *run) aggregateGroups(p *engine.Plan, g *groups) (*engine.Batch, error) {
	var gids uint64
	ng := int64(1)
	var keyVals []val
	var keyBufs [][4]*cuda.Buffer
	if g != nil {
		gids, ng, keyVals, keyBufs = g.gids, g.ng, g.keyVals, g.keyBufs
	}
	qa, argv, accs, err := r.accumulate(p, gids, ng, nil)
	if err != nil {
		return nil, err
	}
	var scales map[int][]int32
	if len(qa) > len(p.Aggs) {
		// sums of numerics whose scale varies by row: the first pass found
		// each group's largest scale (hidden max aggregates after the
		// others); the second adds every value at the largest of all
		if qa, argv, accs, scales, err = r.accumulateScaled(p, gids, ng, qa, accs); err != nil {
			return nil, err
		}
	}
	na := int64(len(qa))
	strs, err := r.bestStrings(qa, accs, int(ng))
	if err != nil {
		return nil, err
	}
	fsums, err := r.floatSums(p, gids, ng, func(k, g int) int64 { return int64(accs[int64(g)*na+int64(k)].Cnt) })
	if err != nil {
		return nil, err
	}
	keyCols := make([]*engine.Vec, len(keyVals))
	for k, kv := range keyVals {
		v, err := r.downloadKey(kv, keyBufs[k], int(ng))
		if err != nil {
			return nil, err
		}
		keyCols[k] = v
	}
	if gids != 0 {
		if err := r.firstRowKeys(p, gids, ng, keyCols, keyVals); err != nil {
			return nil, err
		}
	}
	done, err := r.stringAggs(p, gids, ng)
	if err != nil {
		return nil, err
	}
	best, err := r.scaledMinMax(p, qa, gids, ng)
	if err != nil {
		return nil, err
	}
	sums, err := r.intervalSums(p, gids, ng) // intvagg.go
	if err != nil {
		return nil, err
	}
	stats, err := r.statAggs(p, gids, ng) // statagg.go
	if err != nil {
		return nil, err
	}
	for k, v := range stats {
		if sums == nil {
			sums = map[int]*engine.Vec{}
		}
		sums[k] = v
	}
	for k, v := range sums {
		if best == nil {
			best = map[int]*engine.Vec{}
		}
		best[k] = v
	}
	for k, v := range best {
		if done == nil {
			done = map[int]*engine.Vec{}
		}
		done[k] = v
	}
	return r.aggResultWith(p, keyCols, argv, accs, int(ng), int(na), strs, fsums, scales, done)
}

// aggChunk is how many aggregates one pass of q_agg accumulates when a
// query has more than its kernel holds (MAXAGG): half of MAXAGG, so that
// a chunk's hidden scale aggregates (compileAggsAt) fit too.
const aggChunk = maxAggs / 2

// accumulate runs the aggregates' arguments over the rows (filtered, or
// grouped by gids into ng groups) and returns the accumulators. targets
// gives the static scale at which the sums of numerics with per-row
// scales add up (nil: the first pass, which adds hidden aggregates).
// More aggregates than one pass holds run in several passes of aggChunk
// each, their accumulators laid out as one pass's would be.
func (r *run) accumulate(p *engine.Plan, gids uint64, ng int64, targets map[int]int32) ([]qAgg, []val, []qAcc, error) {
	if len(p.Aggs) <= maxAggs {
		return r.accumulateOne(p, gids, ng, targets)
	}
	if targets != nil {
		return nil, nil, nil, unsupported("more than %d aggregates with sums of numerics whose scale varies by row", maxAggs)
	}
	var qa []qAgg
	var argv []val
	var chunks [][]qAcc
	for start := 0; start < len(p.Aggs); start += aggChunk {
		sub := *p
		sub.Aggs = p.Aggs[start:min(start+aggChunk, len(p.Aggs))]
		q, v, a, err := r.accumulateOne(&sub, gids, ng, nil)
		if err != nil {
			return nil, nil, nil, err
		}
		if len(q) != len(sub.Aggs) {
			return nil, nil, nil, unsupported("more than %d aggregates with sums of numerics whose scale varies by row", maxAggs)
		}
		qa, argv, chunks = append(qa, q...), append(argv, v...), append(chunks, a)
	}
	na := int64(len(qa))
	accs := make([]qAcc, ng*na)
	off := int64(0)
	for c, ch := range chunks {
		nc := int64(min(aggChunk, len(p.Aggs)-c*aggChunk))
		for g := int64(0); g < ng; g++ {
			copy(accs[g*na+off:g*na+off+nc], ch[g*nc:(g+1)*nc])
		}
		off += nc
	}
	return qa, argv, accs, nil
}

// accumulateOne is accumulate in one pass of q_agg.
func (r *run) accumulateOne(p *engine.Plan, gids uint64, ng int64, targets map[int]int32) ([]qAgg, []val, []qAcc, error) {
	prog := newProgram()
	c := &compiler{p: prog, cols: r.t.Cols}
	mask := int32(0)
	a := qArgs{N: r.n, Gids: gids}
	if gids == 0 && p.Filter != nil {
		f, err := c.compile(p.Filter, 0)
		if err != nil {
			return nil, nil, nil, err
		}
		if mask, err = prog.emit(opIsTrue, f.reg, 0, 0, 0, 0); err != nil {
			return nil, nil, nil, err
		}
		a.Filter = mask
	}
	qa, argv, err := compileAggsAt(c, p, mask, targets)
	if err != nil {
		return nil, nil, nil, err
	}
	if len(qa) > maxAggs {
		return nil, nil, nil, unsupported("more than %d aggregates", maxAggs)
	}
	if err := r.prepare(prog, &a); err != nil {
		return nil, nil, nil, err
	}
	na := int64(len(qa))
	a.NAgg = int32(na)
	if a.Aggs, err = r.s.upload(sliceBytes(qa)); err != nil {
		return nil, nil, nil, err
	}
	// global accumulators: cnt 0, sums 0, min/max keys at their identity
	accs := make([]qAcc, ng*na)
	for g := int64(0); g < ng; g++ {
		for k, q := range qa {
			accs[g*na+int64(k)] = accInit(q)
		}
	}
	accBuf, err := r.s.alloc(int64(len(accs)) * int64(unsafe.Sizeof(qAcc{})))
	if err != nil {
		return nil, nil, nil, err
	}
	if len(accs) > 0 {
		if err := r.b.dev.CopyHtoD(accBuf.Ptr(), sliceBytes(accs), nil); err != nil {
			return nil, nil, nil, err
		}
	}
	a.Acc = uint64(accBuf.Ptr())
	perGroup := na * 24
	a.AccGroups = int32(min(ng, sharedAccBytes/max(perGroup, 1)))
	if r.n > 0 && na > 0 {
		if err := r.launch("q_agg", r.grid(r.n), uint32(int64(a.AccGroups)*perGroup), &a); err != nil {
			return nil, nil, nil, err
		}
		if err := r.check(prog); err != nil {
			return nil, nil, nil, err
		}
		if err := r.b.dev.CopyDtoH(sliceBytes(accs), accBuf.Ptr(), nil); err != nil {
			return nil, nil, nil, err
		}
	}
	return qa, argv, accs, nil
}

// accumulateScaled is the second pass of sums over numerics whose scale
// varies by row. The first pass's hidden aggregates (after p.Aggs, in the
// order of the aggregates they serve) hold each group's largest scale
// S_g; this pass adds every value rescaled (exactly) to S, the largest of
// all groups, and the host divides each group's sum by 10^(S - S_g),
// exactly again, since every term is a multiple of it: the CPU backend's
// sum at S_g. It returns, by aggregate, each group's scale.
func (r *run) accumulateScaled(p *engine.Plan, gids uint64, ng int64, qa []qAgg, accs []qAcc) ([]qAgg, []val, []qAcc, map[int][]int32, error) {
	na := int64(len(qa))
	scales := map[int][]int32{}
	targets := map[int]int32{}
	h := int64(len(p.Aggs))
	for k, ag := range p.Aggs {
		if ag.Func != engine.AggSum && ag.Func != engine.AggAvg || qa[k].Pad != 1 {
			continue
		}
		sc := make([]int32, ng)
		top := int32(0)
		for g := int64(0); g < ng; g++ {
			x := accs[g*na+h]
			if x.Cnt == 0 {
				continue
			}
			sc[g] = int32(int64(x.S0))
			top = max(top, sc[g])
		}
		scales[k], targets[k] = sc, top
		h++
	}
	qa2, argv, accs2, err := r.accumulate(p, gids, ng, targets)
	if err != nil {
		if e, ok := err.(*engine.Error); ok && e.Code == engine.CodeNumericValueOutOfRange {
			for k, sc := range scales {
				for _, s := range sc {
					if s != targets[k] {
						// rescaling to S may overflow where S_g would not
						return nil, nil, nil, nil, unsupported("sums of numerics of per-row scales past 38 digits at the largest scale")
					}
				}
			}
		}
		return nil, nil, nil, nil, err
	}
	for k, sc := range scales {
		na2 := int64(len(qa2))
		for g := int64(0); g < ng; g++ {
			x := &accs2[g*na2+int64(k)]
			if x.Cnt == 0 || sc[g] == targets[k] {
				continue
			}
			b := new(big.Int).Quo(sum192(*x), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(targets[k]-sc[g])), nil))
			set192(x, b)
		}
	}
	return qa2, argv, accs2, scales, nil
}

// set192 stores b (|b| < 2^191) in a's 192-bit two's complement sum.
func set192(a *qAcc, b *big.Int) {
	m := new(big.Int).And(b, new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 192), big.NewInt(1)))
	mask := new(big.Int).SetUint64(^uint64(0))
	a.S0 = new(big.Int).And(m, mask).Uint64()
	a.S1 = new(big.Int).And(new(big.Int).Rsh(m, 64), mask).Uint64()
	a.S2 = new(big.Int).Rsh(m, 128).Uint64()
}

// bestStrings reads the values that string min/max accumulators point
// to: by accumulator index, for groups that saw a value.
func (r *run) bestStrings(qa []qAgg, accs []qAcc, ng int) (map[int][]byte, error) {
	var strs map[int][]byte
	na := len(qa)
	err := r.b.dev.Do(func() error {
		for k, q := range qa {
			if q.Cls != accMinMaxS {
				continue
			}
			w := int(q.Pad & 0xffff)
			for g := 0; g < ng; g++ {
				a := accs[g*na+k]
				if a.Cnt == 0 || a.S0 == ^uint64(0) {
					continue
				}
				b := make([]byte, w)
				if err := r.b.dev.CopyDtoH(b, cuda.DevPtr(a.S0), nil); err != nil {
					return err
				}
				n := 0
				for n < w && b[n] != 0 {
					n++
				}
				if q.Pad&(1<<16) != 0 {
					for n > 0 && b[n-1] == ' ' {
						n--
					}
				}
				if strs == nil {
					strs = map[int][]byte{}
				}
				strs[g*na+k] = b[:n]
			}
		}
		return nil
	})
	return strs, err
}

// compileAggs compiles the aggregates' arguments under mask and says how
// each accumulates; it refuses arguments whose scale varies by row.
func compileAggs(c *compiler, p *engine.Plan, mask int32) ([]qAgg, []val, error) {
	qa, argv, err := compileAggsAt(c, p, mask, nil)
	if err == nil && len(qa) > len(p.Aggs) && !c.fitMax {
		err = unsupported("sums of numerics whose scale varies by row here")
	}
	for k, ag := range p.Aggs {
		if err == nil && ag.Func == engine.AggStringAgg {
			err = unsupported("string_agg here") // the interpreter path's stringAggs builds it
		}
		if err == nil && ag.Func.IsStat() {
			err = unsupported("%s here", ag.Func) // the interpreter path's statAggs builds it
		}
		if err == nil && ag.Arg != nil && argv[k].cls == clsIntv {
			err = unsupported("%s over intervals here", ag.Func)
		}
		if err == nil && isScaledMinMax(qa[k]) {
			err = unsupported("%s over numerics whose scale varies by row here", ag.Func) // scaledMinMax's
		}
	}
	return qa, argv, err
}

// compileAggsAt is compileAggs where sum and avg may take numerics whose
// scale varies by row: with targets nil, such an aggregate has Pad 1 and
// a hidden max aggregate of the scale of its non-NULL values follows
// p.Aggs (accumulateScaled's first pass); with targets, its values are
// rescaled to targets[k].
func compileAggsAt(c *compiler, p *engine.Plan, mask int32, targets map[int]int32) ([]qAgg, []val, error) {
	prog := c.p
	qa := make([]qAgg, len(p.Aggs))
	argv := make([]val, len(p.Aggs))
	var hidden []qAgg
	for k, ag := range p.Aggs {
		if ag.Func == engine.AggStringAgg || ag.Func.IsStat() || ag.Distinct && (ag.Func == engine.AggSum || ag.Func == engine.AggAvg) {
			// a count of the rows in its place: stringAggs builds the
			// values in a pass of its own (stragg.go), statAggs the
			// statistics (statagg.go), distinctAggs the sums and averages
			// of distinct values
			qa[k] = qAgg{Fn: int32(engine.AggCountStar), Reg: -1, Cls: accCount}
			continue
		}
		if ag.Func > engine.AggMax { // any aggregate added after string_agg
			return nil, nil, unsupported("the aggregate %s", ag.Func)
		}
		q := qAgg{Fn: int32(ag.Func), Reg: -1, Cls: accCount}
		if ag.Arg != nil {
			// count, min and max over intervals (min/max: scaledMinMax,
			// aggscale.go)
			// (sum/avg: intervalSums, intvagg.go)
			c.intvOK = (ag.Func == engine.AggCount || ag.Func == engine.AggMin || ag.Func == engine.AggMax || isIntervalSum(ag)) && ag.Arg.Type().Kind == engine.KindInterval
			mark := prog.next
			v, err := c.compile(ag.Arg, mask)
			if err != nil {
				return nil, nil, err
			}
			if v.cls == clsIntv {
				// only its NULLs count here: the value moves to the first
				// register it took, the others are free for the next
				// argument (as compileOutputs does)
				if err := prog.emitTo(mark, opCoalesce, v.reg, v.reg, 0, mask, 0); err != nil {
					return nil, nil, err
				}
				v.reg, prog.next = mark, mark+1
			}
			q.Reg = v.reg
			switch ag.Func {
			case engine.AggSum, engine.AggAvg:
				switch {
				case isInt(v.cls) && v.t.IsInteger():
					if v.reg, err = prog.emit(opI2D, v.reg, 0, 0, mask, 0); err != nil {
						return nil, nil, err
					}
					q.Reg, q.Cls = v.reg, accInt
				case v.cls == clsDec && v.scaleReg != 0 && targets != nil:
					if v, err = c.fitScale(v, targets[k], mask); err != nil {
						return nil, nil, err
					}
					q.Reg, q.Cls = v.reg, accInt
				case v.cls == clsDec && v.scaleReg != 0:
					// the scale where the value is not NULL, else NULL
					isn, err := prog.emit(opIsNull, v.reg, 0, 0, mask, 0)
					if err != nil {
						return nil, nil, err
					}
					nul, err := c.constant(&engine.Const{T: engine.Int64, Null: true})
					if err != nil {
						return nil, nil, err
					}
					sc, err := prog.emit(opSel, nul.reg, v.scaleReg, isn, mask, 0)
					if err != nil {
						return nil, nil, err
					}
					q.Cls, q.Pad = accInt, 1
					hidden = append(hidden, qAgg{Fn: int32(engine.AggMax), Reg: sc, Cls: accMinMaxI})
					if c.fitMax {
						if q.Reg, err = prog.emit(opDFitR, v.reg, v.scaleReg, 0, mask, -1); err != nil {
							return nil, nil, err
						}
					}
				case v.cls == clsDec:
					q.Cls = accInt
				case v.cls == clsIntv:
					q.Cls = accCount // a count of the values in its place: intervalSums adds them
				case v.t.IsFloat():
					// q_agg counts the values; their exact sum is a pass of
					// its own (fsum.go), and the fused kernels refuse it
					q.Cls = accFloat
				default:
					return nil, nil, unsupported("%s over %s", ag.Func, v.t)
				}
			case engine.AggMin, engine.AggMax:
				switch {
				case isInt(v.cls):
					q.Cls = accMinMaxI
				case isFloat(v.cls):
					q.Cls = accMinMaxF
				case v.cls == clsDec && v.scaleReg != 0, v.cls == clsIntv:
					// a count of the values in its place: scaledMinMax
					// finds the best value (aggscale.go)
					q.Cls = accCount
				case v.cls == clsDec:
					q.Cls = accMinMaxD
				case isStr(v.cls):
					if _, ok := ag.Arg.(*engine.ColRef); !ok || v.width == 0 || v.width > 0xffff {
						return nil, nil, unsupported("%s over string expressions other than columns", ag.Func)
					}
					q.Cls, q.Pad = accMinMaxS, int32(v.width)
					if v.cls == clsChar {
						q.Pad |= 1 << 16
					}
				default:
					return nil, nil, unsupported("%s over %s", ag.Func, v.t)
				}
			}
			argv[k] = v
		}
		qa[k] = q
	}
	return append(qa, hidden...), argv, nil
}

// aggResult finalizes the accumulators of ng groups (na aggregates each)
// and the exact float sums (by aggregate), beside the groups' key values,
// then runs HAVING and the projection on the host.
func (r *run) aggResult(p *engine.Plan, keyCols []*engine.Vec, argv []val, accs []qAcc, ng, na int, strs map[int][]byte,
	fsums map[int][]engine.FloatSum, scales map[int][]int32) (*engine.Batch, error) {
	return r.aggResultWith(p, keyCols, argv, accs, ng, na, strs, fsums, scales, nil)
}

// aggResultWith is aggResult where done gives, by aggregate, results
// built by passes of their own (string_agg, min/max over numerics whose
// scale varies by row).
func (r *run) aggResultWith(p *engine.Plan, keyCols []*engine.Vec, argv []val, accs []qAcc, ng, na int, strs map[int][]byte,
	fsums map[int][]engine.FloatSum, scales map[int][]int32, done map[int]*engine.Vec) (*engine.Batch, error) {
	res := &engine.Batch{N: ng}
	res.Cols = append(res.Cols, keyCols...)
	for k, ag := range p.Aggs {
		if v, ok := done[k]; ok {
			res.Cols = append(res.Cols, v)
			continue
		}
		if isDistinctPass(ag) {
			res.Cols = append(res.Cols, engine.NewVec(ag.T, ng)) // distinctAggs fills it
			continue
		}
		v, err := finalize(ag, argv[k], accs, ng, k, na, strs, fsums[k], scales[k])
		if err != nil {
			return nil, err
		}
		res.Cols = append(res.Cols, v)
	}
	if err := r.distinctAggs(p, res, len(keyCols)); err != nil {
		return nil, err
	}
	ctx := context.Background()
	if p.Having != nil {
		hv, err := eval.Eval(ctx, p.Having, res)
		if err != nil {
			return nil, err
		}
		var sel []int32
		for i := 0; i < res.N; i++ {
			if !hv.IsNull(i) && hv.I[i] != 0 {
				sel = append(sel, int32(i))
			}
		}
		res = eval.GatherBatch(res, sel)
		if len(sel) == 0 {
			res = &engine.Batch{N: 0, Cols: res.Cols}
			for k, v := range res.Cols {
				res.Cols[k] = engine.NewVec(v.T, 0)
			}
		}
	}
	out := &engine.Batch{N: res.N, Cols: make([]*engine.Vec, len(p.Project))}
	for k, e := range p.Project {
		v, err := eval.Eval(ctx, e, res)
		if err != nil {
			return nil, err
		}
		out.Cols[k] = v
	}
	return out, nil
}

// isDistinctPass reports whether ag is count, sum or avg over DISTINCT
// values, which distinctAggs computes.
func isDistinctPass(ag engine.AggCall) bool {
	return ag.Distinct && (ag.Func == engine.AggCount || ag.Func == engine.AggSum || ag.Func == engine.AggAvg)
}

// distinctAggs fills in count, sum and avg over DISTINCT x (the main pass
// counted placeholders): a second grouping pass over the GROUP BY keys and
// x finds the distinct (keys, x) pairs on the device; the host counts the
// non-NULL x of each group's pairs, or adds them up as the CPU backend
// does (eval.SumAcc). res holds nk key columns, then the aggregates.
func (r *run) distinctAggs(p *engine.Plan, res *engine.Batch, nk int) error {
	var index map[string]int
	for k, ag := range p.Aggs {
		if !isDistinctPass(ag) {
			continue
		}
		if index == nil {
			index = map[string]int{}
			var buf []byte
			for g := 0; g < res.N; g++ {
				buf = buf[:0]
				for _, v := range res.Cols[:nk] {
					buf = eval.AppendKey(buf, v, g)
				}
				index[string(buf)] = g
			}
		}
		out := res.Cols[nk+k]
		count := ag.Func == engine.AggCount
		cnt := make([]int64, res.N)
		var sums []eval.SumAcc
		if !count {
			sums = make([]eval.SumAcc, res.N)
			for g := 0; g < res.N; g++ {
				out.SetNull(g)
			}
		} else {
			for g := range out.I {
				out.I[g] = 0
			}
		}
		if r.n == 0 {
			continue
		}
		dp := &engine.Plan{Filter: p.Filter, GroupBy: append(append([]engine.Expr(nil), p.GroupBy...), ag.Arg)}
		gids, ng, keyVals, keyBufs, err := r.group(dp)
		if err != nil {
			return err
		}
		cols := make([]*engine.Vec, len(keyVals))
		for i, kv := range keyVals {
			if cols[i], err = r.downloadKey(kv, keyBufs[i], int(ng)); err != nil {
				return err
			}
		}
		if err := r.firstRowKeys(dp, gids, ng, cols, keyVals); err != nil {
			return err
		}
		x := cols[len(cols)-1]
		var buf []byte
		for c := 0; c < int(ng); c++ {
			if x.IsNull(c) {
				continue
			}
			buf = buf[:0]
			for _, v := range cols[:nk] {
				buf = eval.AppendKey(buf, v, c)
			}
			g, ok := index[string(buf)]
			switch {
			case !ok:
			case count:
				out.I[g]++
			default:
				cnt[g]++
				if err := sums[g].Add(ag.Func, x, c); err != nil {
					return err
				}
			}
		}
		for g := 0; g < res.N && !count; g++ {
			if cnt[g] == 0 {
				continue
			}
			if out.Null != nil {
				out.Null[g] = false
			}
			if err := sums[g].Put(ag.Func, ag.Arg.Type(), cnt[g], out, g); err != nil {
				return err
			}
		}
	}
	return nil
}

func sum192(a qAcc) *big.Int {
	w := [3]uint64{a.S0, a.S1, a.S2}
	b := new(big.Int)
	for i := 2; i >= 0; i-- {
		b.Lsh(b, 64)
		b.Or(b, new(big.Int).SetUint64(w[i]))
	}
	if a.S2>>63 != 0 {
		b.Sub(b, new(big.Int).Lsh(big.NewInt(1), 192))
	}
	return b
}

var maxMag = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 127), big.NewInt(1))

func decOf(b *big.Int, scale int32) (engine.Dec, bool) {
	if b.CmpAbs(maxMag) > 0 {
		return engine.Dec{}, false
	}
	m := new(big.Int).Abs(b)
	d := engine.Dec{Lo: m.Uint64(), Hi: int64(new(big.Int).Rsh(m, 64).Uint64()), Scale: scale}
	if b.Sign() < 0 {
		d, _ = d.Neg()
	}
	return d, true
}

// dec192 is the 192-bit sum of a as a Dec at scale, false past 127 bits
// of magnitude: directly when the sum fits in 128 bits (its top word only
// extends the sign), through math/big otherwise.
func dec192(a qAcc, scale int32) (engine.Dec, bool) {
	hi := int64(a.S1)
	if a.S2 == uint64(hi>>63) && !(hi == math.MinInt64 && a.S0 == 0) {
		return engine.Dec{Hi: hi, Lo: a.S0, Scale: scale}, true
	}
	return decOf(sum192(a), scale)
}

func fromKey(k int64) float64 {
	if k == math.MaxInt64 {
		return math.NaN()
	}
	if k < 0 {
		k ^= math.MaxInt64
	}
	return math.Float64frombits(uint64(k))
}

// finalize turns the accumulators of aggregate k into its result vector
// with PostgreSQL's result type (exact: avg divides on the host with
// engine.DecDiv; float sums, fsum, round as the CPU backend's).
// scales, where not nil, gives each group's scale of the sum.
func finalize(ag engine.AggCall, arg val, accs []qAcc, ng, k, na int, strs map[int][]byte, fsum []engine.FloatSum, scales []int32) (*engine.Vec, error) {
	v := engine.NewVec(ag.T, ng)
	overflow := engine.Errorf(engine.CodeNumericValueOutOfRange, "value overflows numeric format")
	for g := 0; g < ng; g++ {
		a := accs[g*na+k]
		cnt := int64(a.Cnt)
		if ag.Func == engine.AggCount || ag.Func == engine.AggCountStar {
			v.I[g] = cnt
			continue
		}
		if cnt == 0 {
			v.SetNull(g)
			continue
		}
		switch ag.Func {
		case engine.AggMin, engine.AggMax:
			switch engine.PhysOf(ag.T.Kind) {
			case engine.PhysInt:
				v.I[g] = int64(a.S0)
			case engine.PhysFloat:
				v.F[g] = fromKey(int64(a.S0))
			case engine.PhysDec:
				v.D[g] = engine.DecFromScaled(int64(a.S0), int(arg.scale))
			case engine.PhysStr:
				v.S[g] = strs[g*na+k]
			}
		case engine.AggSum, engine.AggAvg:
			if arg.t.IsFloat() {
				if fsum == nil {
					return nil, unsupported("%s over floating-point values here", ag.Func)
				}
				var f float64
				var err error
				if ag.Func == engine.AggAvg {
					f, err = fsum[g].AvgResult(cnt)
				} else {
					f, err = fsum[g].SumResult(arg.t.Kind == engine.KindFloat32)
				}
				if err != nil {
					return nil, err
				}
				v.F[g] = f
				continue
			}
			sc := arg.scale
			if scales != nil {
				sc = scales[g]
			}
			d, ok := dec192(a, sc)
			if !ok {
				return nil, overflow
			}
			if ag.Func == engine.AggAvg {
				q, ok := engine.DecDiv(d, engine.DecFromInt(cnt))
				if !ok {
					return nil, overflow
				}
				v.D[g] = q
				continue
			}
			if ag.T.Kind == engine.KindInt64 {
				x, ok := d.Int64()
				if !ok {
					return nil, engine.Errorf(engine.CodeNumericValueOutOfRange, "bigint out of range")
				}
				v.I[g] = x
				continue
			}
			v.D[g] = d
		}
	}
	return v, nil
}

// group builds the hash table of the GROUP BY keys: per row group ids
// (-1 for filtered-out rows) and per group the key values.
func (r *run) group(p *engine.Plan) (uint64, int64, []val, [][4]*cuda.Buffer, error) {
	prog := newProgram()
	c := &compiler{p: prog, cols: r.t.Cols}
	mask := int32(0)
	a := qArgs{N: r.n}
	if p.Filter != nil {
		f, err := c.compile(p.Filter, 0)
		if err != nil {
			return 0, 0, nil, nil, err
		}
		if mask, err = prog.emit(opIsTrue, f.reg, 0, 0, 0, 0); err != nil {
			return 0, 0, nil, nil, err
		}
		a.Filter = mask
	}
	keyVals := make([]val, len(p.GroupBy))
	var hashVals, extra []val // what the hash table compares (rowkeys.go)
	for k, e := range p.GroupBy {
		c.intvOK = e.Type().Kind == engine.KindInterval
		v, err := c.compile(e, mask)
		c.intvOK = false
		if err != nil {
			return 0, 0, nil, nil, err
		}
		keyVals[k] = v
		hv, err := c.groupKeyRegs(v, mask)
		if err != nil {
			return 0, 0, nil, nil, err
		}
		hashVals = append(hashVals, hv[0])
		extra = append(extra, hv[1:]...)
	}
	hashVals = append(hashVals, extra...) // after the keys, whose buffers come back
	if err := r.prepare(prog, &a); err != nil {
		return 0, 0, nil, nil, err
	}
	gidBuf, err := r.s.alloc(4 * max(r.n, 1))
	if err != nil {
		return 0, 0, nil, nil, err
	}
	a.Gids = uint64(gidBuf.Ptr())
	a.NKeys = int32(len(hashVals))
	// The first table is sized from the keys' distinct values, when
	// they are columns with statistics: each size that proves too small
	// costs a pass over the rows.
	capGroups := int64(1 << 16)
	// (a join's output is sampled afresh by every query: keyDistinct
	// stops once the product reaches the row count)
	if est := r.keyDistinct(p); est > 0 {
		capGroups = max(capGroups, min(int64(est*1.25), r.n, 1<<30))
	}
	for {
		maxGroups := min(capGroups, max(r.n, 1))
		slots := int64(1)
		for slots < 2*maxGroups {
			slots <<= 1
		}
		ht, err := r.s.zeros(4*slots, 0xff) // -1: empty
		if err != nil {
			return 0, 0, nil, nil, err
		}
		ngBuf, err := r.s.zeros(8, 0)
		if err != nil {
			return 0, 0, nil, nil, err
		}
		keys := make([]qKey, len(hashVals))
		bufs := make([][4]*cuda.Buffer, len(hashVals))
		for k, v := range hashVals {
			q := qKey{Reg: v.reg, Cls: v.cls}
			if isStr(v.cls) {
				q.Cls = clsStr
				q.Width = int32(v.width)
			}
			lo, err := r.s.alloc(8 * maxGroups)
			if err != nil {
				return 0, 0, nil, nil, err
			}
			hi, err := r.s.alloc(8 * maxGroups)
			if err != nil {
				return 0, 0, nil, nil, err
			}
			nul, err := r.s.alloc(maxGroups)
			if err != nil {
				return 0, 0, nil, nil, err
			}
			q.Lo, q.Hi, q.Nul = uint64(lo.Ptr()), uint64(hi.Ptr()), uint64(nul.Ptr())
			bufs[k] = [4]*cuda.Buffer{lo, hi, nul, nil}
			if q.Width > 0 {
				st, err := r.s.alloc(int64(q.Width) * maxGroups)
				if err != nil {
					return 0, 0, nil, nil, err
				}
				q.Str = uint64(st.Ptr())
				bufs[k][3] = st
			}
			keys[k] = q
		}
		if a.Keys, err = r.s.upload(sliceBytes(keys)); err != nil {
			return 0, 0, nil, nil, err
		}
		a.HT, a.NGroups = uint64(ht.Ptr()), uint64(ngBuf.Ptr())
		a.HTMask = int32(slots - 1)
		a.MaxGroups = int32(maxGroups)
		if r.n > 0 {
			if err := r.launch("q_group", r.grid(r.n), 0, &a); err != nil {
				return 0, 0, nil, nil, err
			}
			if err := r.check(prog); err != nil {
				return 0, 0, nil, nil, err
			}
		}
		var cnt [8]byte
		if err := r.b.dev.CopyDtoH(cnt[:], ngBuf.Ptr(), nil); err != nil {
			return 0, 0, nil, nil, err
		}
		ng := int64(int32(uint32(cnt[0]) | uint32(cnt[1])<<8 | uint32(cnt[2])<<16 | uint32(cnt[3])<<24))
		overflowed := cnt[4] != 0
		if !overflowed {
			return a.Gids, min(ng, maxGroups), keyVals, bufs[:len(keyVals)], nil
		}
		if capGroups >= r.n || capGroups >= 1<<30 {
			return 0, 0, nil, nil, engine.Errorf(engine.CodeProgramLimitExceeded, "too many groups for the GPU hash table")
		}
		capGroups *= 8
	}
}

func (r *run) downloadKey(v val, bufs [4]*cuda.Buffer, ng int) (*engine.Vec, error) {
	lo := make([]int64, ng)
	hi := make([]int64, ng)
	nul := make([]byte, ng)
	var str []byte
	if ng > 0 {
		if err := r.b.dev.CopyDtoH(sliceBytes(lo), bufs[0].Ptr(), nil); err != nil {
			return nil, err
		}
		if err := r.b.dev.CopyDtoH(sliceBytes(hi), bufs[1].Ptr(), nil); err != nil {
			return nil, err
		}
		if err := r.b.dev.CopyDtoH(nul, bufs[2].Ptr(), nil); err != nil {
			return nil, err
		}
		if bufs[3] != nil {
			str = make([]byte, ng*v.width)
			if err := r.b.dev.CopyDtoH(str, bufs[3].Ptr(), nil); err != nil {
				return nil, err
			}
		}
	}
	return toVec(v, ng, lo, hi, nul, str), nil
}
