package cpu

import (
	"cmp"
	"math"

	"github.com/gpusql/gpusql/engine"
)

// Stored-domain filters: a WHERE clause that is a conjunction of
// comparisons of a stored column with a constant (`l_shipdate >= date
// '1994-01-01'`, `l_discount BETWEEN 0.05 AND 0.07`, `l_shipdate <=
// timestamp …` through the date-to-timestamp cast) is turned, once per
// query, into ranges of the column's stored integers, and a morsel's
// selection vector is computed by a typed loop over the stored column:
// no vector is scanned, no comparison evaluated through eval, nothing
// allocated per batch. Such comparisons cannot fail, so evaluating them
// in any order gives eval.Select's rows: those where every conjunct is
// true (a NULL makes the conjunct, and so the row, not pass).

// storedPred is one conjunct: row i passes when its stored value v (the
// column's integer, times mul when mul is not 0) lies in [lo, hi], or,
// with neg, outside it; never when NULL or when none.
type storedPred struct {
	col    *engine.Column
	mul    int64
	lo, hi int64
	neg    bool
	none   bool
}

// storedFilter is a filter compiled to stored-domain conjuncts.
type storedFilter struct {
	preds []storedPred
}

// compileStoredFilter compiles e over table h, or returns nil when some
// conjunct is not a comparison this path knows.
func compileStoredFilter(e engine.Expr, h *engine.HostTable) *storedFilter {
	var conj []engine.Expr
	var walk func(e engine.Expr)
	walk = func(e engine.Expr) {
		if c, ok := e.(*engine.Call); ok && c.Op == engine.OpAnd && len(c.Args) == 2 {
			walk(c.Args[0])
			walk(c.Args[1])
			return
		}
		conj = append(conj, e)
	}
	walk(e)
	f := &storedFilter{}
	for _, c := range conj {
		p, ok := compileStoredPred(c, h)
		if !ok {
			return nil
		}
		f.preds = append(f.preds, p)
	}
	return f
}

// compileStoredPred compiles "column op constant" (either side), the
// column possibly a date cast to timestamp.
func compileStoredPred(e engine.Expr, h *engine.HostTable) (storedPred, bool) {
	c, ok := e.(*engine.Call)
	if !ok || len(c.Args) != 2 {
		return storedPred{}, false
	}
	op := c.Op
	switch op {
	case engine.OpEq, engine.OpNe, engine.OpLt, engine.OpLe, engine.OpGt, engine.OpGe:
	default:
		return storedPred{}, false
	}
	side, k, okConst := c.Args[0], (*engine.Const)(nil), false
	if k, okConst = c.Args[1].(*engine.Const); !okConst {
		if k, okConst = c.Args[0].(*engine.Const); !okConst {
			return storedPred{}, false
		}
		side, op = c.Args[1], op.Mirrored()
	}
	var mul int64
	if cast, isCast := side.(*engine.Call); isCast && cast.Op == engine.OpCast && len(cast.Args) == 1 &&
		cast.T.Kind == engine.KindTimestamp && cast.Args[0].Type().Kind == engine.KindDate {
		// eval's date-to-timestamp cast: days times a day's microseconds
		side, mul = cast.Args[0], 86_400_000_000
		if k.T.Kind != engine.KindTimestamp {
			return storedPred{}, false
		}
	}
	ref, isRef := side.(*engine.ColRef)
	if !isRef || ref.Idx < 0 || ref.Idx >= len(h.Cols) {
		return storedPred{}, false
	}
	col := h.Cols[ref.Idx]
	if col.Type.Kind != ref.T.Kind || col.Len < int(h.N) {
		return storedPred{}, false
	}
	p := storedPred{col: col, mul: mul}
	if k.Null {
		p.none = true // the comparison is NULL on every row
		return p, true
	}
	var order func(int64) int
	switch {
	case mul != 0:
		if col.I32 == nil {
			return storedPred{}, false
		}
		c := k.I
		order = func(v int64) int { return cmp.Compare(v, c) }
	default:
		order = storedOrder(col, k)
		if order == nil {
			return storedPred{}, false
		}
	}
	// the comparison is monotone in v: first is the least v not below
	// the constant, past the least v above it (MaxInt64 and a flag when
	// there is none)
	first, firstOK := leastWith(func(v int64) bool { return order(v) >= 0 })
	past, pastOK := leastWith(func(v int64) bool { return order(v) > 0 })
	// below returns the range v < x for a least x (ok false: every v).
	below := func(x int64, ok bool) {
		switch {
		case !ok:
			p.lo, p.hi = math.MinInt64, math.MaxInt64
		case x == math.MinInt64:
			p.none = true
		default:
			p.lo, p.hi = math.MinInt64, x-1
		}
	}
	atLeast := func(x int64, ok bool) {
		if !ok {
			p.none = true
			return
		}
		p.lo, p.hi = x, math.MaxInt64
	}
	switch op {
	case engine.OpLt:
		below(first, firstOK)
	case engine.OpLe:
		below(past, pastOK)
	case engine.OpGe:
		atLeast(first, firstOK)
	case engine.OpGt:
		atLeast(past, pastOK)
	case engine.OpEq, engine.OpNe:
		// [first, past)
		switch {
		case !firstOK || firstOK && pastOK && past == first:
			p.none = true // no v equals the constant
		case !pastOK:
			p.lo, p.hi = first, math.MaxInt64
		default:
			p.lo, p.hi = first, past-1
		}
		if op == engine.OpNe {
			if p.none {
				p.none, p.lo, p.hi, p.neg = false, math.MinInt64, math.MaxInt64, false
			} else {
				p.neg = true
			}
		}
	}
	return p, true
}

// storedOrder returns a function ordering a stored value of col against
// constant k as eval compares them, or nil when they do not compare in
// the stored domain (the rules of zoneBound).
func storedOrder(col *engine.Column, k *engine.Const) func(int64) int {
	switch col.Type.Kind {
	case engine.KindInt16, engine.KindInt32, engine.KindInt64:
		if !k.T.IsInteger() {
			return nil
		}
		c := k.I
		return func(x int64) int { return cmp.Compare(x, c) }
	case engine.KindDate, engine.KindTimestamp, engine.KindTimestampTZ, engine.KindTime:
		if k.T.Kind != col.Type.Kind {
			return nil
		}
		c := k.I
		return func(x int64) int { return cmp.Compare(x, c) }
	case engine.KindNumeric:
		if k.T.Kind != engine.KindNumeric || col.D != nil || col.I64 == nil {
			return nil
		}
		c, scale := k.D, col.Type.Scale
		return func(x int64) int { return engine.DecCmp(engine.DecFromScaled(x, scale), c) }
	}
	return nil
}

// leastWith returns the least int64 v for which up(v) holds, up being
// monotone (false then true); ok is false when it holds for none.
func leastWith(up func(int64) bool) (v int64, ok bool) {
	if !up(math.MaxInt64) {
		return 0, false
	}
	lo, hi := int64(math.MinInt64), int64(math.MaxInt64) // up(hi) holds
	if up(lo) {
		return lo, true
	}
	for uint64(hi)-uint64(lo) > 1 { // up(lo) false, up(hi) true
		mid := lo + int64((uint64(hi)-uint64(lo))/2)
		if up(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi, true
}

// run returns the rows of [lo, lo+n) that pass, as offsets from lo, in
// buf's storage.
func (f *storedFilter) run(lo, n int, buf []int32) []int32 {
	if cap(buf) < n {
		buf = make([]int32, n)
	}
	sel := buf[:n]
	for i := range sel {
		sel[i] = int32(i)
	}
	for k := range f.preds {
		sel = f.preds[k].keep(lo, sel)
		if len(sel) == 0 {
			break
		}
	}
	return sel
}

// keep compacts sel (offsets from lo) to the rows that pass p.
func (p *storedPred) keep(lo int, sel []int32) []int32 {
	if p.none {
		return sel[:0]
	}
	out := sel[:0]
	if p.lo == math.MinInt64 && p.hi == math.MaxInt64 && !p.neg {
		out = sel // every non-NULL value
	} else {
		c := p.col
		span := uint64(p.hi) - uint64(p.lo)
		base := uint64(p.lo)
		n := 0
		// v passes when it lies in the range (xor neg); the compaction
		// is branch-free: the slot is written, the count moves on a pass
		switch {
		case c.I32 != nil && p.mul != 0:
			s := c.I32[lo:]
			for _, i := range sel {
				v := int64(s[i]) * p.mul
				sel[n] = i
				if (uint64(v)-base <= span) != p.neg {
					n++
				}
			}
		case c.I32 != nil:
			s := c.I32[lo:]
			for _, i := range sel {
				v := int64(s[i])
				sel[n] = i
				if (uint64(v)-base <= span) != p.neg {
					n++
				}
			}
		case c.I64 != nil:
			s := c.I64[lo:]
			for _, i := range sel {
				v := s[i]
				sel[n] = i
				if (uint64(v)-base <= span) != p.neg {
					n++
				}
			}
		case c.I16 != nil:
			s := c.I16[lo:]
			for _, i := range sel {
				v := int64(s[i])
				sel[n] = i
				if (uint64(v)-base <= span) != p.neg {
					n++
				}
			}
		default:
			return sel[:0] // compileStoredPred admits no other storage
		}
		out = sel[:n]
	}
	if p.col.Valid != nil {
		valid := p.col.Valid
		n := 0
		for _, i := range out {
			r := lo + int(i)
			out[n] = i
			if valid[r>>6]&(1<<(uint(r)&63)) != 0 {
				n++
			}
		}
		out = out[:n]
	}
	return out
}
