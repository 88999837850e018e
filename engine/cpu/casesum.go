package cpu

import (
	"context"
	"encoding/binary"
	"strings"

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
	// pred, when not nil, is cond compiled to a range of column
	// predCol's stored integers (compileStoredPred): the condition is
	// computed on the batch's integers, or a numeric column's stored
	// mantissas, into cbuf, without eval
	pred    *storedPred
	predCol int
	// seq, when not nil, is cond compiled to a stored string column's
	// = or <> with a short constant: computed from the stored bytes
	// where the batch has the column as its stored rows (scanLazyStr)
	seq  *strEqPred
	cbuf []int64
	arms [2]scaledArm // addCaseSumScaled's
}

// compilePred compiles the condition over table h where it is a
// comparison of an integer-valued column (an integer, date or time
// column, or a narrow numeric one) with a constant.
func (cs *caseSum) compilePred(h *engine.HostTable) {
	if cs.seq = compileStrEq(cs.cond, h); cs.seq != nil {
		return
	}
	p, ok := compileStoredPred(cs.cond, h)
	if !ok || p.mul != 0 {
		return
	}
	c := cs.cond.(*engine.Call) // compileStoredPred took it apart
	ref, ok := c.Args[0].(*engine.ColRef)
	if !ok {
		ref, ok = c.Args[1].(*engine.ColRef)
	}
	if !ok || ref.Idx < 0 || ref.Idx >= len(h.Cols) {
		return
	}
	col := h.Cols[ref.Idx]
	switch col.Type.Kind {
	case engine.KindInt16, engine.KindInt32, engine.KindInt64, engine.KindDate, engine.KindTimestamp,
		engine.KindTimestampTZ, engine.KindTime:
	case engine.KindNumeric:
		if col.D != nil || col.I64 == nil {
			return
		}
	default:
		return
	}
	cs.pred, cs.predCol = &p, ref.Idx
}

// strEqPred is a stored string column's = (<> where neg) with a
// constant, the constant as storedCode's code.
type strEqPred struct {
	col  int
	code int64
	neg  bool
}

// compileStrEq compiles e over table h where it is a stored char,
// varchar or text column's = or <> with a string constant of up to 7
// bytes with no zero byte and no trailing blank: the comparison is then
// the equality of the column's string (scanRows's, a char value
// without its trailing blanks) and the constant's bytes, which is the
// equality of their storedCode codes.
func compileStrEq(e engine.Expr, h *engine.HostTable) *strEqPred {
	c, ok := e.(*engine.Call)
	if !ok || len(c.Args) != 2 || c.Op != engine.OpEq && c.Op != engine.OpNe {
		return nil
	}
	ref, okRef := c.Args[0].(*engine.ColRef)
	k, okConst := c.Args[1].(*engine.Const)
	if !okRef || !okConst {
		ref, okRef = c.Args[1].(*engine.ColRef)
		k, okConst = c.Args[0].(*engine.Const)
	}
	if !okRef || !okConst || k.Null || ref.Idx < 0 || ref.Idx >= len(h.Cols) {
		return nil
	}
	col := h.Cols[ref.Idx]
	if ref.T.Kind != col.Type.Kind || col.Width == 0 || col.Len < int(h.N) || len(col.Str) < int(h.N)*col.Width {
		return nil
	}
	switch col.Type.Kind {
	case engine.KindChar:
		if !k.T.IsString() {
			return nil
		}
	case engine.KindVarchar, engine.KindText:
		if k.T.Kind != engine.KindVarchar && k.T.Kind != engine.KindText && k.T.Kind != engine.KindUnknown {
			return nil
		}
	default:
		return nil
	}
	if len(k.S) > 7 || strings.IndexByte(k.S, 0) >= 0 || strings.HasSuffix(k.S, " ") {
		return nil
	}
	code, _ := storedCodeBytes([]byte(k.S), false)
	return &strEqPred{col: ref.Idx, code: code, neg: c.Op == engine.OpNe}
}

// eqConst sets out[k] to 1 where the batch's row k is not NULL and its
// string equals the constant of code (differs from it, where neg), else
// 0. A string of over 7 bytes differs from every constant of a code.
func (s *storedStr) eqConst(n int, code int64, neg bool, out []int64) {
	c := s.col
	w := c.Width
	trim := c.Type.Kind == engine.KindChar
	str := c.Str
	for k := 0; k < n; k++ {
		r := s.lo + k
		if s.sel != nil {
			r = s.lo + int(s.sel[k])
		}
		if c.Valid != nil && c.IsNull(r) {
			out[k] = 0
			continue
		}
		var x int64
		ok := false
		switch w {
		case 4:
			x, ok = wordCode(uint64(binary.LittleEndian.Uint32(str[r*4:])), trim)
		case 8:
			x, ok = wordCode(binary.LittleEndian.Uint64(str[r*8:]), trim)
		}
		if !ok {
			x, ok = storedCode(str[r*w:r*w+w], trim)
		}
		var t int64
		if (ok && x == code) != neg {
			t = 1
		}
		out[k] = t
	}
}

// condition computes the condition over batch in (n rows) as
// EvalCaseCond does: 1 where it holds; NULL rows are 0 in ci or marked
// in cn.
func (cs *caseSum) condition(ctx context.Context, in *engine.Batch, n int, lz *scanBufs, buf *eval.CaseBuf) (ci []int64, cn []bool, err error) {
	if q := cs.seq; q != nil {
		if st, ok := lz.stored(in, q.col, n); ok {
			if cap(cs.cbuf) < n {
				cs.cbuf = make([]int64, n)
			}
			out := cs.cbuf[:n]
			st.eqConst(n, q.code, q.neg, out)
			return out, nil, nil
		}
	}
	if p := cs.pred; p != nil {
		var vals []int64
		var null []bool
		ok := false
		if cs.predCol < len(in.Cols) && in.Cols[cs.predCol] != nil {
			v := in.Cols[cs.predCol]
			if engine.PhysOf(v.T.Kind) == engine.PhysInt {
				vals, null, ok = v.I, v.Null, len(v.I) >= n && (v.Null == nil || len(v.Null) >= n)
			} else {
				vals, _, null, ok = lz.raw(in, cs.predCol, n)
			}
		}
		if ok {
			if cap(cs.cbuf) < n {
				cs.cbuf = make([]int64, n)
			}
			out := cs.cbuf[:n]
			switch {
			case p.none:
				clear(out)
			default:
				span, base := uint64(p.hi)-uint64(p.lo), uint64(p.lo)
				for i, x := range vals[:n] {
					var t int64
					if (uint64(x)-base <= span) != p.neg {
						t = 1
					}
					out[i] = t
				}
				for i, isNull := range null {
					if i < n && isNull {
						out[i] = 0
					}
				}
			}
			return out, nil, nil
		}
	}
	lz.decsFor(in, cs.cond)
	cv, err := eval.EvalCaseCond(ctx, cs.cond, in, buf)
	if err != nil {
		return nil, nil, err
	}
	return cv.I[:n], cv.Null, nil
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
func (s *aggState) addCaseSum(ctx context.Context, in *engine.Batch, ids []int32, n int, lz *scanBufs) (bool, error) {
	cs := s.csum
	if cs.kind == engine.KindNumeric && s.call.Func != engine.AggCount && n > 0 {
		if done, err := s.addCaseSumScaled(ctx, in, ids, n, lz); done || err != nil {
			return true, err
		}
	}
	// the arms' columns (the condition's are given theirs by condition)
	c := s.call.Arg.(*engine.Case)
	lz.decsFor(in, c.Results[0])
	lz.decsFor(in, c.Else)
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
	ci, cn, err := cs.condition(ctx, in, n, lz, s.caseBuf)
	if err != nil {
		return true, err
	}
	// row i's value is slot i*as of a where the condition holds, else
	// slot i*bs of b (loops written out: this is the whole cost)
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
				if !add128(acc, x.Lo, x.Hi) {
					return true, errNumericOverflow()
				}
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
		if !add128(acc, x.Lo, x.Hi) {
			return errNumericOverflow()
		}
		return nil
	}
	r, ok := engine.DecAdd(*acc, x)
	if !ok {
		return errNumericOverflow()
	}
	*acc = r
	return nil
}

// scaledArm is a numeric branch read as mantissas: a lazily scanned
// column's stored ones (step 1) or a constant's (step 0). at holds the
// values at the column branch's scale where fast (a constant of a lower
// or equal scale that fits there), raw the values at their own scale.
type scaledArm struct {
	at, raw []int64
	scale   int32
	step    int
	null    []bool // a column's NULL flags
	isNull  bool   // a NULL constant
	fast    bool
	k       [2]int64
}

// scaledArm returns arm a over batch in as mantissas, with the column's
// scale (-1: a constant); ok false when it is a column not scanned
// lazily or a constant that needs more than 64 bits.
func (a caseArm) scaled(in *engine.Batch, n int, lz *scanBufs, sa *scaledArm) (colScale int32, ok bool) {
	*sa = scaledArm{}
	if a.col >= 0 {
		m, scale, null, ok := lz.raw(in, a.col, n)
		if !ok {
			return 0, false
		}
		*sa = scaledArm{at: m, raw: m, scale: scale, step: 1, null: null, fast: true}
		return scale, true
	}
	if a.k.IsNull(0) {
		sa.isNull = true
		return -1, true
	}
	d := a.k.D[0]
	if d.Hi != int64(d.Lo)>>63 {
		return 0, false
	}
	sa.k[0] = int64(d.Lo)
	sa.raw, sa.scale = sa.k[0:1], d.Scale
	return -1, true
}

// atScale sets a constant arm's value at scale cs, where exact.
func (sa *scaledArm) atScale(cs int32) {
	if sa.step != 0 || sa.isNull || sa.scale > cs || cs-sa.scale > 18 {
		return
	}
	x := sa.k[0]
	for d := sa.scale; d < cs; d++ {
		var ok bool
		if x, ok = mul64(x, 10); !ok {
			return
		}
	}
	sa.k[1] = x
	sa.at, sa.fast = sa.k[1:2], true
}

// addCaseSumScaled is addCaseSum's numeric loop over branches read as
// stored mantissas (a lazily scanned column and a constant, or two such
// columns of one scale): each row's value is added to its group's sum at
// the column's scale in place where the sum has that scale, else by
// addDecTo, so the sums, scales and errors are addDecTo's over the same
// values. It reports false, having done nothing, when the branches are
// not of that shape.
func (s *aggState) addCaseSumScaled(ctx context.Context, in *engine.Batch, ids []int32, n int, lz *scanBufs) (bool, error) {
	cs := s.csum
	arms := &cs.arms
	st, ok := cs.then.scaled(in, n, lz, &arms[0])
	if !ok {
		return false, nil
	}
	se, ok := cs.el.scaled(in, n, lz, &arms[1])
	if !ok {
		return false, nil
	}
	scale := max(st, se)
	if scale < 0 || st >= 0 && se >= 0 && st != se {
		return false, nil
	}
	arms[0].atScale(scale)
	arms[1].atScale(scale)
	if s.caseBuf == nil {
		s.caseBuf = &eval.CaseBuf{}
	}
	ci, cn, err := cs.condition(ctx, in, n, lz, s.caseBuf)
	if err != nil {
		return true, err
	}
	for i, g := range ids[:n] {
		ar := &arms[1]
		if ci[i] != 0 && (cn == nil || !cn[i]) {
			ar = &arms[0]
		}
		j := i * ar.step
		if ar.isNull || ar.null != nil && ar.null[j] {
			continue
		}
		s.count[g]++
		acc := &s.sumD[g]
		if acc.Scale == scale && ar.fast {
			if x := ar.at[j]; !add128(acc, uint64(x), x>>63) {
				return true, errNumericOverflow()
			}
			continue
		}
		if err := addDecTo(acc, engine.DecFromScaled(ar.raw[j], int(ar.scale))); err != nil {
			return true, err
		}
	}
	return true, nil
}
