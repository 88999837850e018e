package gpu

import (
	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/eval"
)

// The statistics aggregates (var_*, stddev_*, covar_*, corr, regr_*) on
// the device. Each is a set of exact sums that the existing q_agg and
// float-sum passes compute (no kernel of its own), and the host finishes
// them with the CPU backend's eval.StatAcc, so results and errors are the
// CPU's:
//
//   - var_*/stddev_* over integers and numerics: sum(x) and
//     sum(x::numeric * x::numeric), exact 192-bit sums at static scales
//     s and 2s (an x whose scale varies by row is refused);
//   - over doubles: sum(x) and the three parts of x*x of
//     eval.SquareParts, each an exact float sum, written as the same
//     operations (Dekker's split) in the expression language, so the
//     device computes exactly the doubles the CPU does;
//   - the two-argument ones: x and y each NULL where the other is
//     (CASE), then sum(x), sum(y), the parts of x*x, y*y and the four of
//     x*y (eval.ProductParts).
//
// The main q_agg pass counts rows in their place (compileAggsAt).

// statComps are the sums one statistics aggregate reads.
type statComps struct {
	numeric bool
	first   int // index of its first sum in the sub-plan's aggregates
	n       int // how many
}

// statAggs returns the results of p's statistics aggregates, by
// aggregate index, over ng groups with the rows' group ids gids (0: one
// group, p.Filter applied here).
func (r *run) statAggs(p *engine.Plan, gids uint64, ng int64) (map[int]*engine.Vec, error) {
	sub, comps := statPlan(p)
	if len(comps) == 0 {
		return nil, nil
	}
	qa, argv, accs, err := r.accumulate(sub, gids, ng, nil)
	if err != nil {
		return nil, err
	}
	if len(qa) != len(sub.Aggs) {
		return nil, unsupported("statistics over numerics whose scale varies by row")
	}
	na := int64(len(qa))
	out := map[int]*engine.Vec{}
	for k, sc := range comps {
		ag := p.Aggs[k]
		v := engine.NewVec(ag.T, int(ng))
		if sc.numeric && argv[sc.first+1].scale != 2*argv[sc.first].scale {
			return nil, unsupported("%s over %s", ag.Func, ag.Arg.Type())
		}
		var fsums map[int][]engine.FloatSum
		if !sc.numeric {
			// one float-sum pass per aggregate: its up to 12 sums of
			// split products make a program of about 650 instructions
			one := *sub
			one.Aggs = sub.Aggs[sc.first : sc.first+sc.n]
			fs, err := r.floatSums(&one, gids, ng, func(i, g int) int64 { return int64(accs[int64(g)*na+int64(sc.first+i)].Cnt) })
			if err != nil {
				return nil, err
			}
			fsums = map[int][]engine.FloatSum{}
			for i, x := range fs {
				fsums[sc.first+i] = x
			}
		}
		for g := int64(0); g < ng; g++ {
			var st eval.StatAcc
			acc := accs[g*na+int64(sc.first):]
			n := int64(acc[0].Cnt)
			if sc.numeric {
				st.AddSums(n, sum192(acc[0]), sum192(acc[1]), argv[sc.first].scale)
			} else {
				fs := func(i int) *engine.FloatSum { return &fsums[sc.first+i][g] }
				st.N = n
				st.FX = *fs(0)
				if ag.Arg2 == nil {
					for i := 1; i <= 3; i++ {
						st.FXX.Merge(fs(i))
					}
				} else {
					st.FY = *fs(1)
					for i := 2; i <= 4; i++ {
						st.FXX.Merge(fs(i))
					}
					for i := 5; i <= 7; i++ {
						st.FYY.Merge(fs(i))
					}
					for i := 8; i <= 11; i++ {
						st.FXY.Merge(fs(i))
					}
				}
			}
			if err := st.Put(ag.Func, ag.Arg.Type(), v, int(g)); err != nil {
				return nil, err
			}
		}
		out[k] = v
	}
	return out, nil
}

// statPlan is p with, as its aggregates, the sums p's statistics read
// (see the top), and where each aggregate's sums are.
func statPlan(p *engine.Plan) (*engine.Plan, map[int]statComps) {
	sub := *p
	sub.Aggs = nil
	comps := map[int]statComps{}
	for k, ag := range p.Aggs {
		if !ag.Func.IsStat() {
			continue
		}
		sc := statComps{numeric: eval.StatNumeric(ag.Func, ag.Arg.Type()), first: len(sub.Aggs)}
		sum := func(e engine.Expr) {
			t := engine.Float64
			if sc.numeric {
				t = engine.Numeric
			}
			sub.Aggs = append(sub.Aggs, engine.AggCall{Func: engine.AggSum, Arg: e, T: t})
		}
		switch {
		case sc.numeric:
			x := ag.Arg
			xn := x
			if x.Type().Kind != engine.KindNumeric {
				xn = &engine.Call{Op: engine.OpCast, Args: []engine.Expr{x}, T: engine.Numeric}
			}
			sum(x)
			sum(&engine.Call{Op: engine.OpMul, Args: []engine.Expr{xn, xn}, T: engine.Numeric})
		case ag.Arg2 == nil:
			x := ag.Arg
			sum(x)
			for _, e := range squareParts(x) {
				sum(e)
			}
		default:
			y, x := ag.Arg, ag.Arg2
			nn := func(e engine.Expr) engine.Expr {
				return &engine.Call{Op: engine.OpIsNotNull, Args: []engine.Expr{e}, T: engine.Bool}
			}
			xx := caseWhen(nn(y), x)
			yy := caseWhen(nn(x), y)
			sum(xx)
			sum(yy)
			for _, e := range squareParts(xx) {
				sum(e)
			}
			for _, e := range squareParts(yy) {
				sum(e)
			}
			for _, e := range productParts(xx, yy) {
				sum(e)
			}
		}
		sc.n = len(sub.Aggs) - sc.first
		comps[k] = sc
	}
	return &sub, comps
}

// caseWhen is CASE WHEN c THEN x END.
func caseWhen(c, x engine.Expr) engine.Expr {
	return &engine.Case{Conds: []engine.Expr{c}, Results: []engine.Expr{x}, Else: &engine.Const{T: x.Type(), Null: true}, T: x.Type()}
}

func fop(o engine.Op, a, b engine.Expr) engine.Expr {
	return &engine.Call{Op: o, Args: []engine.Expr{a, b}, T: engine.Float64}
}

// splitParts is eval.SplitFloat as expressions: c = 134217729 * x,
// hi = c - (c - x), lo = x - hi.
func splitParts(x engine.Expr) (hi, lo engine.Expr) {
	c := fop(engine.OpMul, &engine.Const{T: engine.Float64, F: 134217729.0}, x)
	hi = fop(engine.OpSub, c, fop(engine.OpSub, c, x))
	lo = fop(engine.OpSub, x, hi)
	return hi, lo
}

// squareParts is eval.SquareParts as expressions.
func squareParts(x engine.Expr) [3]engine.Expr {
	h, l := splitParts(x)
	return [3]engine.Expr{fop(engine.OpMul, h, h), fop(engine.OpMul, fop(engine.OpMul, h, l), &engine.Const{T: engine.Float64, F: 2}), fop(engine.OpMul, l, l)}
}

// productParts is eval.ProductParts as expressions.
func productParts(x, y engine.Expr) [4]engine.Expr {
	xh, xl := splitParts(x)
	yh, yl := splitParts(y)
	return [4]engine.Expr{fop(engine.OpMul, xh, yh), fop(engine.OpMul, xh, yl), fop(engine.OpMul, xl, yh), fop(engine.OpMul, xl, yl)}
}
