package cpu

import (
	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/eval"
)

// addStats adds a batch's rows to a statistics aggregate (eval.StatAcc)
// or an ordered-set aggregate (ordVals), skipping rows where an argument
// is NULL.
func (s *aggState) addStats(ctxEval func(e engine.Expr) (*engine.Vec, error), ids []int32, n int) error {
	y, err := ctxEval(s.call.Arg)
	if err != nil {
		return err
	}
	if s.ord != nil {
		for i := 0; i < n; i++ {
			if y.IsNull(i) {
				continue
			}
			g := ids[i]
			s.ord.rows[g] = append(s.ord.rows[g], int32(s.ord.vals.N))
			s.ord.vals.AppendRow(y, i)
			s.count[g]++
		}
		return nil
	}
	var x *engine.Vec
	if s.call.Arg2 != nil {
		if x, err = ctxEval(s.call.Arg2); err != nil {
			return err
		}
	}
	numeric := eval.StatNumeric(s.call.Func, y.T)
	for i := 0; i < n; i++ {
		if y.IsNull(i) || x != nil && x.IsNull(i) {
			continue
		}
		g := ids[i]
		s.count[g]++
		switch {
		case x != nil:
			s.stat[g].AddPair(y.F[i], x.F[i])
		case !numeric:
			s.stat[g].AddFloat(y.F[i])
		case y.T.Kind == engine.KindNumeric:
			if err := s.stat[g].AddDec(y.D[i]); err != nil {
				return err
			}
		default:
			if err := s.stat[g].AddDec(engine.DecFromInt(y.I[i])); err != nil {
				return err
			}
		}
	}
	return nil
}

// ordVals keeps an ordered-set aggregate's non-NULL values, as rows of a
// growing vector shared by all groups, and each group's rows in input
// order; a group's rows are sorted when its result is built.
type ordVals struct {
	vals *engine.Vec
	rows [][]int32 // per group
}

// merge appends o's group g (a later worker's rows) to group id.
func (v *ordVals) merge(id int32, o *ordVals, g int32) {
	for _, r := range o.rows[g] {
		v.rows[id] = append(v.rows[id], int32(v.vals.N))
		v.vals.AppendRow(o.vals, int(r))
	}
}

// put builds group g's result into out's row g.
func (v *ordVals) put(call engine.AggCall, out *engine.Vec, g int) error {
	frac := 0.0
	if call.Func != engine.AggMode {
		c, ok := call.Arg2.(*engine.Const)
		if !ok || c.Null {
			out.SetNull(g)
			return nil
		}
		frac = c.F
		if err := eval.CheckFraction(frac); err != nil {
			return err
		}
	}
	rows := v.rows[g]
	if len(rows) == 0 {
		out.SetNull(g)
		return nil
	}
	rows = append([]int32(nil), rows...)
	o := call.Order[0]
	eval.SortRows(rows, []*engine.Vec{v.vals}, []engine.SortKey{{Col: 0, Desc: o.Desc, NullsFirst: o.NullsFirst}})
	switch call.Func {
	case engine.AggPercentileCont:
		out.F[g] = eval.PercentileCont(len(rows), frac, func(i int) float64 { return v.vals.F[rows[i]] })
	case engine.AggPercentileDisc:
		setSlot(out, g, v.vals, int(rows[eval.PercentileDiscRow(len(rows), frac)]))
	default:
		setSlot(out, g, v.vals, int(rows[eval.ModeRow(v.vals, rows)]))
	}
	return nil
}
