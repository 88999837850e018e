package cpu

import (
	"context"
	"math/bits"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/eval"
)

// Conditional sums: sum, avg or count of `CASE WHEN cond THEN a ELSE b
// END` where a and b are each a column of the batch or a constant (a
// missing ELSE is a NULL constant), the shape of `sum(CASE WHEN … THEN x ELSE 0 END)` and
// of an aggregate's FILTER. Instead of building the CASE's result vector
// (row lists, copies into it) and adding that up, the condition is
// computed over the batch as EvalCaseInto computes it and every row adds
// a's or b's value straight to its group, in row order, with update's
// arithmetic: the same sums, counts, scales and overflow errors.

// caseSum is a compiled conditional sum.
type caseSum struct {
	cond     engine.Expr
	then, el caseArm
	kind     engine.Kind // the CASE's type
}

// caseArm is one branch: column col of the batch, or the constant k (a
// one-row vector) where col < 0.
type caseArm struct {
	col int
	k   *engine.Vec
}

// compileCaseSum compiles aggregate c, or returns nil when it is not of
// that shape or its sums are not kept in sumI or sumD.
func compileCaseSum(c engine.AggCall, skind sumKind) *caseSum {
	e, ok := c.Arg.(*engine.Case)
	if !ok || c.Distinct || len(e.Conds) != 1 || len(e.Results) != 1 {
		return nil
	}
	phys := engine.PhysOf(e.T.Kind)
	switch {
	case c.Func == engine.AggCount:
	case (c.Func == engine.AggSum || c.Func == engine.AggAvg) && skind == sumInt && phys == engine.PhysInt:
	case (c.Func == engine.AggSum || c.Func == engine.AggAvg) && skind == sumDec &&
		(phys == engine.PhysInt || e.T.Kind == engine.KindNumeric):
	default:
		return nil
	}
	cs := &caseSum{cond: e.Conds[0], kind: e.T.Kind}
	if cs.then, ok = caseArmOf(e.Results[0], e.T); !ok {
		return nil
	}
	if cs.el, ok = caseArmOf(e.Else, e.T); !ok {
		return nil
	}
	return cs
}

// caseArmOf is branch r of a CASE of type t (the binder writes a missing
// ELSE as a NULL constant).
func caseArmOf(r engine.Expr, t engine.Type) (caseArm, bool) {
	switch r := r.(type) {
	case *engine.Const:
		if r.T.Kind != t.Kind {
			return caseArm{}, false
		}
		return caseArm{col: -1, k: eval.Broadcast(r, 1)}, true
	case *engine.ColRef:
		if r.T.Kind != t.Kind || r.Idx < 0 {
			return caseArm{}, false
		}
		return caseArm{col: r.Idx}, true
	case *engine.Call:
		// a numeric column cast to unconstrained numeric: the cast
		// changes no value (eval.Cast)
		if r.Op != engine.OpCast || len(r.Args) != 1 {
			break
		}
		if c, ok := r.Args[0].(*engine.ColRef); ok && r.T.Kind == engine.KindNumeric && r.T.Prec == 0 && t.Kind == engine.KindNumeric &&
			c.T.Kind == engine.KindNumeric && c.Idx >= 0 {
			return caseArm{col: c.Idx}, true
		}
	}
	return caseArm{}, false
}

// vec is the arm's values over in (n rows), with the step from one row's
// slot to the next: 1 for a column, 0 for a constant. ok is false when
// the batch does not hold the column as expected.
func (a caseArm) vec(in *engine.Batch, kind engine.Kind, n int) (v *engine.Vec, step int, ok bool) {
	if a.col < 0 {
		return a.k, 0, true
	}
	if a.col >= len(in.Cols) || in.Cols[a.col] == nil {
		return nil, 0, false
	}
	v = in.Cols[a.col]
	if v.T.Kind != kind || v.Null != nil && len(v.Null) < n {
		return nil, 0, false
	}
	if engine.PhysOf(kind) == engine.PhysInt && len(v.I) < n || kind == engine.KindNumeric && len(v.D) < n {
		return nil, 0, false
	}
	return v, 1, true
}

// addCaseSum adds batch in's rows (their groups ids) to s, a conditional
// sum; it reports false, having done nothing, where the batch must take
// the general path.
func (s *aggState) addCaseSum(ctx context.Context, in *engine.Batch, ids []int32, n int) (bool, error) {
	cs := s.csum
	a, as, ok := cs.then.vec(in, cs.kind, n)
	if !ok {
		return false, nil
	}
	b, bs, ok := cs.el.vec(in, cs.kind, n)
	if !ok {
		return false, nil
	}
	if n == 0 {
		return true, nil // EvalCaseInto computes nothing over no rows
	}
	if s.caseBuf == nil {
		s.caseBuf = &eval.CaseBuf{}
	}
	cv, err := eval.EvalCaseCond(ctx, cs.cond, in, s.caseBuf)
	if err != nil {
		return true, err
	}
	// row i's value is slot i*as of a where the condition holds, else
	// slot i*bs of b (loops written out: this is the whole cost)
	ci, cn := cv.I[:n], cv.Null
	an, bn := a.Null, b.Null
	switch {
	case s.call.Func == engine.AggCount:
		for i, g := range ids[:n] {
			var null bool
			if ci[i] != 0 && (cn == nil || !cn[i]) {
				null = an != nil && an[i*as]
			} else {
				null = bn != nil && bn[i*bs]
			}
			if !null {
				s.count[g]++
			}
		}
	case engine.PhysOf(cs.kind) == engine.PhysInt:
		ai, bi := a.I, b.I
		dec := s.skind == sumDec
		for i, g := range ids[:n] {
			var x int64
			if ci[i] != 0 && (cn == nil || !cn[i]) {
				if j := i * as; an == nil || !an[j] {
					x = ai[j]
				} else {
					continue
				}
			} else if j := i * bs; bn == nil || !bn[j] {
				x = bi[j]
			} else {
				continue
			}
			s.count[g]++
			if dec {
				if err := addDecTo(&s.sumD[g], engine.DecFromInt(x)); err != nil {
					return true, err
				}
				continue
			}
			r, err := addInt64(s.sumI[g], x)
			if err != nil {
				return true, err
			}
			s.sumI[g] = r
		}
	default: // numeric
		ad, bd := a.D, b.D
		for i, g := range ids[:n] {
			var x *engine.Dec
			if ci[i] != 0 && (cn == nil || !cn[i]) {
				if j := i * as; an == nil || !an[j] {
					x = &ad[j]
				} else {
					continue
				}
			} else if j := i * bs; bn == nil || !bn[j] {
				x = &bd[j]
			} else {
				continue
			}
			s.count[g]++
			acc := &s.sumD[g]
			if acc.Scale == x.Scale {
				// addDecTo's addition in place, written out
				lo, c := bits.Add64(acc.Lo, x.Lo, 0)
				hi := acc.Hi + x.Hi + int64(c)
				if (acc.Hi >= 0) == (x.Hi >= 0) && (hi >= 0) != (acc.Hi >= 0) {
					return true, errNumericOverflow()
				}
				acc.Hi, acc.Lo = hi, lo
				continue
			}
			if err := addDecTo(acc, *x); err != nil {
				return true, err
			}
		}
	}
	return true, nil
}

// addDecTo adds x to *acc as sumDecs does: in place at one scale, else
// by engine.DecAdd.
func addDecTo(acc *engine.Dec, x engine.Dec) error {
	if acc.Scale == x.Scale {
		lo, c := bits.Add64(acc.Lo, x.Lo, 0)
		hi := acc.Hi + x.Hi + int64(c)
		// overflow when both signs agree and the result's differs
		if (acc.Hi >= 0) == (x.Hi >= 0) && (hi >= 0) != (acc.Hi >= 0) {
			return errNumericOverflow()
		}
		acc.Hi, acc.Lo = hi, lo
		return nil
	}
	r, ok := engine.DecAdd(*acc, x)
	if !ok {
		return errNumericOverflow()
	}
	*acc = r
	return nil
}
