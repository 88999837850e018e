package gpu

import (
	"math/big"
	"unsafe"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/eval"
)

// sum and avg over intervals. The CPU backend adds the months, days and
// microseconds fields separately and exactly (eval.IntervalSum), then
// checks each total against its field's range and, for avg, divides as
// PostgreSQL's interval_div. On the device each such aggregate becomes
// three exact integer sums (ACC_INT, 192 bits) of its fields, taken out
// of the interval register by OP_INTVFIELD in a q_agg pass of its own;
// the main pass counts the values in its place, and the host finishes
// the sums with eval.IntervalSum, so results and errors are the CPU's.

// opIntvField (OP_INTVFIELD, the tail4 section of cuda/query.cu):
// interval a's microseconds (imm 0), days (1) or months (2) as a scale-0
// numeric.
const opIntvField = 1100

// isIntervalSum reports whether ag is sum or avg over intervals.
func isIntervalSum(ag engine.AggCall) bool {
	return (ag.Func == engine.AggSum || ag.Func == engine.AggAvg) && !ag.Distinct && ag.Arg != nil && ag.Arg.Type().Kind == engine.KindInterval
}

// intervalSums returns the results of p's sums and averages over
// intervals (by aggregate index), over ng groups with the rows' group ids
// gids (0: one group, p.Filter applied here).
func (r *run) intervalSums(p *engine.Plan, gids uint64, ng int64) (map[int]*engine.Vec, error) {
	var ks []int
	for k, ag := range p.Aggs {
		if isIntervalSum(ag) {
			ks = append(ks, k)
		}
	}
	if len(ks) == 0 {
		return nil, nil
	}
	if 3*len(ks) > maxAggs {
		return nil, unsupported("more than %d sums or averages of intervals", maxAggs/3)
	}
	prog := newProgram()
	c := &compiler{p: prog, cols: r.t.Cols}
	mask := int32(0)
	a := qArgs{N: r.n, Gids: gids}
	if gids == 0 && p.Filter != nil {
		f, err := c.compile(p.Filter, 0)
		if err != nil {
			return nil, err
		}
		if mask, err = prog.emit(opIsTrue, f.reg, 0, 0, 0, 0); err != nil {
			return nil, err
		}
		a.Filter = mask
	}
	var qa []qAgg
	for _, k := range ks {
		c.intvOK = true
		v, err := c.compile(p.Aggs[k].Arg, mask)
		c.intvOK = false
		if err != nil {
			return nil, err
		}
		if v.cls != clsIntv {
			return nil, unsupported("%s over %s", p.Aggs[k].Func, v.t)
		}
		for field := int64(0); field < 3; field++ {
			reg, err := prog.emit(opIntvField, v.reg, 0, 0, mask, field)
			if err != nil {
				return nil, err
			}
			qa = append(qa, qAgg{Fn: int32(engine.AggSum), Reg: reg, Cls: accInt})
		}
	}
	accs, err := r.runAggs(prog, &a, qa, ng)
	if err != nil {
		return nil, err
	}
	out := map[int]*engine.Vec{}
	na := int64(len(qa))
	for i, k := range ks {
		ag := p.Aggs[k]
		v := engine.NewVec(ag.T, int(ng))
		for g := int64(0); g < ng; g++ {
			x := accs[g*na+int64(3*i):]
			if x[0].Cnt == 0 {
				v.SetNull(int(g))
				continue
			}
			s, err := intervalSumOf(sum192(x[2]), sum192(x[1]), sum192(x[0]))
			if err != nil {
				return nil, err
			}
			if ag.Func == engine.AggAvg {
				v.V[g], err = s.Avg(int64(x[0].Cnt))
			} else {
				v.V[g], err = s.Interval()
			}
			if err != nil {
				return nil, err
			}
		}
		out[k] = v
	}
	return out, nil
}

var (
	ivMin64  = big.NewInt(-1 << 63)
	ivMax64  = big.NewInt(1<<63 - 1)
	ivMin128 = new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), 127))
	ivMax128 = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 127), big.NewInt(1))
)

// intervalSumOf is the CPU's state for exact field sums: months and days
// within 64 bits and microseconds within 128, else "interval out of
// range" (the CPU's state cannot hold them, and neither can the result).
func intervalSumOf(months, days, micros *big.Int) (eval.IntervalSum, error) {
	in := func(b, lo, hi *big.Int) bool { return b.Cmp(lo) >= 0 && b.Cmp(hi) <= 0 }
	if !in(months, ivMin64, ivMax64) || !in(days, ivMin64, ivMax64) || !in(micros, ivMin128, ivMax128) {
		return eval.IntervalSum{}, engine.Errorf(engine.CodeDatetimeFieldOverflow, "interval out of range")
	}
	m := new(big.Int).And(micros, new(big.Int).SetUint64(^uint64(0))) // low 64 bits (two's complement)
	return eval.IntervalSum{Months: months.Int64(), Days: days.Int64(), Lo: m.Uint64(), Hi: new(big.Int).Rsh(micros, 64).Int64()}, nil
}

// runAggs runs q_agg with the program prog and the aggregates qa over
// a's rows into ng groups (as accumulate does) and returns the
// accumulators, group by group.
func (r *run) runAggs(prog *program, a *qArgs, qa []qAgg, ng int64) ([]qAcc, error) {
	if err := r.prepare(prog, a); err != nil {
		return nil, err
	}
	na := int64(len(qa))
	a.NAgg = int32(na)
	var err error
	if a.Aggs, err = r.s.upload(sliceBytes(qa)); err != nil {
		return nil, err
	}
	accs := make([]qAcc, ng*na)
	for g := int64(0); g < ng; g++ {
		for k, q := range qa {
			accs[g*na+int64(k)] = accInit(q)
		}
	}
	accBuf, err := r.s.alloc(int64(len(accs)) * int64(unsafe.Sizeof(qAcc{})))
	if err != nil {
		return nil, err
	}
	if len(accs) == 0 || r.n == 0 {
		return accs, nil
	}
	if err := r.b.dev.CopyHtoD(accBuf.Ptr(), sliceBytes(accs), nil); err != nil {
		return nil, err
	}
	a.Acc = uint64(accBuf.Ptr())
	perGroup := na * 24
	a.AccGroups = int32(min(ng, sharedAccBytes/max(perGroup, 1)))
	if err := r.launch("q_agg", r.grid(r.n), uint32(int64(a.AccGroups)*perGroup), a); err != nil {
		return nil, err
	}
	if err := r.check(prog); err != nil {
		return nil, err
	}
	if err := r.b.dev.CopyDtoH(sliceBytes(accs), accBuf.Ptr(), nil); err != nil {
		return nil, err
	}
	return accs, nil
}
