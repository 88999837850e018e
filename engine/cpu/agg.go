package cpu

import (
	"context"
	"encoding/binary"
	"slices"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/eval"
)

// aggregator is a hash aggregation: group keys are mapped to dense group
// ids by a groupIndex; each aggregate keeps one state slot per group
// in typed arrays.
type aggregator struct {
	plan  *engine.Plan
	index *groupIndex
	keys  []*engine.Vec // one growing vector per GROUP BY expression: group g's keys are row g
	// keyBufs[k], for a GROUP BY key that is extract(field from date),
	// is the vector its values are computed into, batch after batch
	// (nothing keeps a batch's key vectors after consume)
	keyBufs []*engine.Vec
	memo    *keyMemo // GROUP BY keys that are functions of one column's values (keyMemo)
	ng      int
	states  []*aggState
	ids     []int32
	// arena keeps the string keys; sharedKeys: newGroup is given keys
	// that already belong to the aggregation (a merge's), not copied
	arena      byteArena
	sharedKeys bool
	// lazy, when not nil, is the scan whose current morsel consume is
	// given: the narrow numeric columns it scans lazily are read as their
	// stored mantissas by the sums that can (scanBufs.scanLazy), and
	// given their Dec values (scanBufs.decs) before anything else reads
	// the batch
	lazy *scanBufs
}

type aggState struct {
	call  engine.AggCall
	count []int64
	sums  []eval.SumAcc // sum/avg of floats and intervals
	// sum/avg of integers and numerics, one compact slot a group (a
	// SumAcc is over 100 bytes, much of it for float sums):
	sumI  []int64      // sum of int2/int4 (an int8 with the overflow error)
	sumD  []engine.Dec // the others, exactly
	skind sumKind
	num   *numExpr // a numeric sum's argument in int64 (numprog.go)
	// bare is the column a sum or avg of numeric adds up when its argument
	// is that column alone (-1: none)
	bare int
	has  []bool
	best *engine.Vec         // min/max
	seen map[string]struct{} // string_agg(DISTINCT …)'s (value, delimiter) pairs
	dbuf []byte
	dist *distinctSet   // other DISTINCT aggregates' (group, value) pairs (distinct.go)
	str  *stringAgg     // string_agg
	stat []eval.StatAcc // statistics (stats.go)
	ord  *ordVals       // percentile_cont, percentile_disc, mode (stats.go)
	// caseBuf keeps the storage of an argument that is a CASE
	caseBuf *eval.CaseBuf
	csum    *caseSum // a conditional sum's CASE (casesum.go)
}

// stringAgg keeps string_agg's input: every non-NULL value with its
// delimiter and ORDER BY keys, as rows of growing vectors shared by all
// groups, and each group's rows in input order. The values are joined
// when the result is built, after sorting a group's rows by the keys.
type stringAgg struct {
	vals, seps *engine.Vec
	keys       []*engine.Vec
	rows       [][]int32 // per group
}

// sumKind says which slots keep a sum or avg's running sums.
type sumKind uint8

const (
	sumNone sumKind = iota // not a sum or avg
	sumAcc                 // sums ([]eval.SumAcc)
	sumInt                 // sumI
	sumDec                 // sumD
)

// sumKindOf picks the slots of sum/avg call c, as eval.SumAcc.Add would
// use its fields.
func sumKindOf(c engine.AggCall) sumKind {
	if c.Func != engine.AggSum && c.Func != engine.AggAvg {
		return sumNone
	}
	switch t := c.Arg.Type(); t.Kind {
	case engine.KindInt16, engine.KindInt32:
		if c.Func == engine.AggSum {
			return sumInt
		}
		return sumDec
	case engine.KindInt64, engine.KindNumeric:
		return sumDec
	}
	return sumAcc
}

func errBigintRange() error {
	return engine.Errorf(engine.CodeNumericValueOutOfRange, "bigint out of range")
}

func errNumericOverflow() error {
	return engine.Errorf(engine.CodeNumericValueOutOfRange, "value overflows numeric format")
}

// addInt64 is x + y with int8's overflow error.
func addInt64(x, y int64) (int64, error) {
	r := x + y
	if (y >= 0) == (x >= 0) && (r >= 0) != (y >= 0) {
		return 0, errBigintRange()
	}
	return r, nil
}

func newAggregator(p *engine.Plan) *aggregator {
	a := &aggregator{plan: p, index: newGroupIndex()}
	for _, g := range p.GroupBy {
		a.keys = append(a.keys, engine.NewVec(g.Type(), 0))
	}
	if len(p.GroupBy) == 1 && engine.PhysOf(p.GroupBy[0].Type().Kind) == engine.PhysInt {
		a.index.intSlots()
	}
	if len(p.GroupBy) == 2 {
		a.index.pairSlotsFor(p.GroupBy[0].Type(), p.GroupBy[1].Type())
	}
	for _, c := range p.Aggs {
		s := &aggState{call: c, skind: sumKindOf(c), bare: -1}
		if s.skind == sumDec && !c.Distinct && c.Arg != nil && c.Arg.Type().Kind == engine.KindNumeric {
			s.num = compileNumExpr(c.Arg)
			if r, ok := c.Arg.(*engine.ColRef); ok && r.Idx >= 0 {
				s.bare = r.Idx
			}
		}
		s.csum = compileCaseSum(c, s.skind)
		if c.Distinct {
			if c.Func == engine.AggStringAgg || c.Arg == nil {
				s.seen = map[string]struct{}{}
			} else {
				s.dist = newDistinctSet(c.Arg.Type(), len(p.GroupBy) > 0)
			}
		}
		if c.Func == engine.AggMin || c.Func == engine.AggMax {
			s.best = engine.NewVec(c.T, 0)
		}
		if c.Func.IsOrderedSet() {
			s.ord = &ordVals{vals: engine.NewVec(c.Arg.Type(), 0)}
		}
		if c.Func == engine.AggStringAgg {
			s.str = &stringAgg{vals: engine.NewVec(engine.Text, 0), seps: engine.NewVec(engine.Text, 0)}
			for _, o := range c.Order {
				s.str.keys = append(s.str.keys, engine.NewVec(o.Expr.Type(), 0))
			}
		}
		a.states = append(a.states, s)
	}
	if len(p.GroupBy) == 0 {
		a.newGroup(nil, 0) // a global aggregate has one group even over no rows
		a.growStates()
	}
	return a
}

// newGroup makes a group of row row of keys and returns its id. The
// aggregates' slots for it are made by the next growStates.
func (a *aggregator) newGroup(keys []*engine.Vec, row int) int32 {
	id := int32(a.ng)
	a.ng++
	ar := &a.arena
	if a.sharedKeys {
		ar = nil
	}
	for k, kv := range keys {
		roomVec(a.keys[k])
		appendKey(a.keys[k], kv, row, ar)
	}
	return id
}

// growStates gives every aggregate a zero slot for each group made since
// the last call, all at once.
func (a *aggregator) growStates() {
	for _, s := range a.states {
		n := len(s.count)
		if n == a.ng {
			continue
		}
		s.count, s.has = extend(s.count, a.ng), extend(s.has, a.ng)
		switch {
		case s.call.Func.IsStat():
			s.stat = extend(s.stat, a.ng)
		case s.ord != nil:
			s.ord.rows = extend(s.ord.rows, a.ng)
		case s.str != nil:
			s.str.rows = extend(s.str.rows, a.ng)
		case s.best != nil:
			z := zeroOf(s.best.T)
			for range a.ng - n {
				roomVec(s.best)
				s.best.AppendRow(z, 0)
			}
		case s.skind == sumInt:
			s.sumI = extend(s.sumI, a.ng)
		case s.skind == sumDec:
			s.sumD = extend(s.sumD, a.ng)
		case s.skind == sumAcc:
			s.sums = extend(s.sums, a.ng)
		}
	}
}

// reserve makes room for n groups in all, so that making them grows
// nothing.
func (a *aggregator) reserve(n int) {
	a.index.reserve(n)
	for _, v := range a.keys {
		switch {
		case v.I != nil:
			v.I = slices.Grow(v.I, n-len(v.I))
		case v.D != nil:
			v.D = slices.Grow(v.D, n-len(v.D))
		case v.S != nil:
			v.S = slices.Grow(v.S, n-len(v.S))
		case v.F != nil:
			v.F = slices.Grow(v.F, n-len(v.F))
		}
	}
	for _, s := range a.states {
		s.count, s.has = slices.Grow(s.count, n-len(s.count)), slices.Grow(s.has, n-len(s.has))
		switch {
		case s.call.Func.IsStat() || s.ord != nil || s.str != nil || s.best != nil:
		case s.skind == sumInt:
			s.sumI = slices.Grow(s.sumI, n-len(s.sumI))
		case s.skind == sumDec:
			s.sumD = slices.Grow(s.sumD, n-len(s.sumD))
		case s.skind == sumAcc:
			s.sums = slices.Grow(s.sums, n-len(s.sums))
		}
	}
}

// extend lengthens s to n with zero values, at least doubling its
// capacity when it grows.
func extend[T any](s []T, n int) []T {
	if n > cap(s) {
		s = slices.Grow(s, max(n-len(s), len(s), 64))
	}
	old := len(s)
	s = s[:n]
	clear(s[old:])
	return s
}

// room doubles s's capacity when it is full: the group tables grow by
// one slot a group, and append's growth (a quarter at a time for large
// slices) would copy them several times over.
func room[T any](s []T) []T {
	if len(s) == cap(s) {
		s = slices.Grow(s, max(len(s), 64))
	}
	return s
}

// roomVec is room for the slices of a growing vector of keys.
func roomVec(v *engine.Vec) {
	if v.Null != nil {
		v.Null = room(v.Null)
	}
	switch {
	case v.I != nil || engine.PhysOf(v.T.Kind) == engine.PhysInt:
		v.I = room(v.I)
	case v.D != nil || engine.PhysOf(v.T.Kind) == engine.PhysDec:
		v.D = room(v.D)
	case v.S != nil || engine.PhysOf(v.T.Kind) == engine.PhysStr:
		v.S = room(v.S)
	case v.F != nil || engine.PhysOf(v.T.Kind) == engine.PhysFloat:
		v.F = room(v.F)
	}
}

func zeroOf(t engine.Type) *engine.Vec { return engine.NewVec(t, 1) }

// assignKeys computes a batch's GROUP BY keys and sets ids to their
// groups, making the groups not seen before.
func (a *aggregator) assignKeys(ctxEval func(e engine.Expr) (*engine.Vec, error), in *engine.Batch, ids []int32, n int) error {
	keys := make([]*engine.Vec, len(a.plan.GroupBy))
	var src []*storedStr
	if a.lazy != nil && a.lazy.lazyStr != nil {
		// keys that are stored string columns scanned as their rows
		for k, g := range a.plan.GroupBy {
			if c, ok := g.(*engine.ColRef); ok {
				if st, ok := a.lazy.stored(in, c.Idx, n); ok {
					if src == nil {
						src = make([]*storedStr, len(keys))
					}
					src[k], keys[k] = st, in.Cols[c.Idx]
				}
			}
		}
	}
	for k, g := range a.plan.GroupBy {
		if keys[k] != nil {
			continue
		}
		if c, ok := g.(*engine.Call); ok && eval.IsExtractDate(c) {
			src, err := ctxEval(c.Args[1])
			if err != nil {
				return err
			}
			if a.keyBufs == nil {
				a.keyBufs = make([]*engine.Vec, len(a.plan.GroupBy))
			}
			if v, ok := eval.ExtractDateInto(a.keyBufs[k], c, src, n); ok {
				keys[k], a.keyBufs[k] = v, v
				continue
			}
		}
		v, err := ctxEval(g)
		if err != nil {
			return err
		}
		keys[k] = v
	}
	if src != nil {
		if a.index.assignStored(a.keys, keys, src, n, ids, a.newGroup) {
			a.growStates()
			return nil
		}
		for k, g := range a.plan.GroupBy {
			if src[k] != nil {
				a.lazy.strCol(keys[k], g.(*engine.ColRef).Idx)
			}
		}
	}
	a.index.assign(a.keys, keys, 0, n, ids, func(row int) int32 { return a.newGroup(keys, row) })
	a.growStates()
	return nil
}

// keyMemo serves GROUP BY keys that are all functions of one integer
// column (the column itself, or extract of year, month, day or quarter
// from it as a date) whose values lie in a small range: it keeps, by
// value, the group a value's rows went to (id + 1; 0: not seen yet). A
// batch whose values have all been seen takes its groups from it without
// computing any key; another one is grouped as usual and its values
// learned. The keys are exact functions of the value that cannot fail, so
// a value always has the group it had the first time.
type keyMemo struct {
	col  *engine.ColRef
	base int64
	ids  []int32
}

// keyMemoSpan bounds the range of values a keyMemo covers.
const keyMemoSpan = 1 << 20

// memoColumn returns the column that GROUP BY keys keys are all functions
// of in keyMemo's sense, where at least one is a function (a key that is
// the column alone is the group index's own direct case).
func memoColumn(keys []engine.Expr) (*engine.ColRef, bool) {
	var col *engine.ColRef
	fn := false
	for _, k := range keys {
		var c *engine.ColRef
		switch k := k.(type) {
		case *engine.ColRef:
			c = k
		case *engine.Call:
			if !eval.IsExtractDate(k) {
				return nil, false
			}
			r, ok := k.Args[1].(*engine.ColRef)
			if !ok {
				return nil, false
			}
			c, fn = r, true
		default:
			return nil, false
		}
		if col != nil && (c.Idx != col.Idx || c.T != col.T) {
			return nil, false
		}
		col = c
	}
	return col, col != nil && fn && engine.PhysOf(col.T.Kind) == engine.PhysInt
}

// lookup sets ids from the memo and reports whether every row's value
// had been seen (else ids is not to be used).
func (m *keyMemo) lookup(src *engine.Vec, ids []int32, n int) bool {
	if src.Null != nil || len(src.I) < n {
		return false
	}
	for i, x := range src.I[:n] {
		d := uint64(x) - uint64(m.base)
		if d >= uint64(len(m.ids)) || m.ids[d] == 0 {
			return false
		}
		ids[i] = m.ids[d] - 1
	}
	return true
}

// learn records the groups ids of the batch's non-NULL values.
func (m *keyMemo) learn(src *engine.Vec, ids []int32, n int) {
	for i, x := range src.I[:n] {
		if src.Null != nil && src.Null[i] {
			continue
		}
		if d := uint64(x) - uint64(m.base); d < uint64(len(m.ids)) {
			m.ids[d] = ids[i] + 1
		}
	}
}

// consume adds a batch of filtered input rows.
func (a *aggregator) consume(ctx context.Context, in *engine.Batch) error {
	n := in.N
	lz := a.lazy
	ctxEval := func(e engine.Expr) (*engine.Vec, error) {
		lz.decsFor(in, e)
		return eval.Eval(ctx, e, in)
	}
	raw := func(c int) ([]int64, int32, []bool, bool) { return lz.raw(in, c, n) }
	if cap(a.ids) < n {
		a.ids = make([]int32, n)
	}
	ids := a.ids[:n]
	global := len(a.plan.GroupBy) == 0
	var memoSrc *engine.Vec
	if a.memo != nil {
		v, err := ctxEval(a.memo.col)
		if err != nil {
			return err
		}
		memoSrc = v
	}
	switch {
	case global:
		for i := range ids {
			ids[i] = 0
		}
	case memoSrc != nil && a.memo.lookup(memoSrc, ids, n):
	default:
		if err := a.assignKeys(ctxEval, in, ids, n); err != nil {
			return err
		}
		if memoSrc != nil {
			a.memo.learn(memoSrc, ids, n)
		}
	}
	for _, s := range a.states {
		if global && s.call.Arg == nil && !s.call.Func.IsStat() && s.ord == nil && s.str == nil {
			s.count[0] += int64(n) // a global count(*): every row is group 0's
			continue
		}
		if s.call.Func.IsStat() || s.ord != nil {
			if err := s.addStats(ctxEval, ids, n); err != nil {
				return err
			}
			continue
		}
		if s.str != nil {
			vs := make([]*engine.Vec, 0, 2+len(s.call.Order))
			for _, e := range s.call.Exprs() {
				v, err := ctxEval(e)
				if err != nil {
					return err
				}
				vs = append(vs, v)
			}
			s.addStrings(ids, vs[0], vs[1], vs[2:], n)
			continue
		}
		if c := s.countCol(); c >= 0 && c < len(in.Cols) && in.Cols[c] != nil {
			// count reads the column's NULL flags alone
			if err := s.add(ids, in.Cols[c], n); err != nil {
				return err
			}
			continue
		}
		if s.bare >= 0 {
			if m, scale, null, ok := raw(s.bare); ok {
				if err := s.sumScaledNull(ids, m, scale, null, n); err != nil {
					return err
				}
				continue
			}
		}
		if s.num != nil {
			v, err := s.num.eval(func(r *engine.ColRef) (*engine.Vec, error) { return ctxEval(r) }, raw, n)
			if err != nil {
				return err
			}
			if !v.failed && !v.konst {
				if err := s.sumScaled(ids, v.v, v.scale, n); err != nil {
					return err
				}
				continue
			}
		}
		if s.csum != nil {
			done, err := s.addCaseSum(ctx, in, ids, n, lz)
			if err != nil {
				return err
			}
			if done {
				continue
			}
		}
		for _, e := range s.call.Exprs() {
			lz.decsFor(in, e)
		}
		var arg *engine.Vec
		if c, ok := s.call.Arg.(*engine.Case); ok {
			// the CASE's result is added before the next batch: its
			// storage serves them all
			if s.caseBuf == nil {
				s.caseBuf = &eval.CaseBuf{}
			}
			v, err := eval.EvalCaseInto(ctx, c, in, s.caseBuf)
			if err != nil {
				return err
			}
			arg = v
		} else if s.call.Arg != nil {
			v, err := ctxEval(s.call.Arg)
			if err != nil {
				return err
			}
			arg = v
		}
		if err := s.add(ids, arg, n); err != nil {
			return err
		}
	}
	return nil
}

// countCol is the column that count (not DISTINCT) counts the non-NULL
// values of, or -1.
func (s *aggState) countCol() int {
	if s.call.Func != engine.AggCount || s.call.Distinct {
		return -1
	}
	if r, ok := s.call.Arg.(*engine.ColRef); ok && r.Idx >= 0 {
		return r.Idx
	}
	return -1
}

// addStrings adds string_agg's input rows: values arg, delimiters sep and
// ORDER BY keys. NULL values are skipped; DISTINCT keeps the first of
// each (value, delimiter) pair of a group.
func (s *aggState) addStrings(ids []int32, arg, sep *engine.Vec, keys []*engine.Vec, n int) {
	st := s.str
	for i := 0; i < n; i++ {
		if arg.IsNull(i) {
			continue
		}
		g := ids[i]
		if s.seen != nil {
			s.dbuf = binary.LittleEndian.AppendUint32(s.dbuf[:0], uint32(g))
			s.dbuf = eval.AppendKey(s.dbuf, arg, i)
			s.dbuf = eval.AppendKey(s.dbuf, sep, i)
			if _, dup := s.seen[string(s.dbuf)]; dup {
				continue
			}
			s.seen[string(s.dbuf)] = struct{}{}
		}
		st.rows[g] = append(st.rows[g], int32(st.vals.N))
		st.vals.AppendRow(arg, i)
		st.seps.AppendRow(sep, i)
		for k, kv := range keys {
			st.keys[k].AppendRow(kv, i)
		}
		s.count[g]++
	}
}

// joinStrings builds group g's string_agg result into v's row g.
func (s *aggState) joinStrings(v *engine.Vec, g int) {
	st := s.str
	rows := st.rows[g]
	if len(rows) == 0 {
		v.SetNull(g)
		return
	}
	cols := st.keys
	var keys []engine.SortKey
	for k, o := range s.call.Order {
		keys = append(keys, engine.SortKey{Col: k, Desc: o.Desc, NullsFirst: o.NullsFirst})
	}
	if len(keys) == 0 && s.call.Distinct {
		// PostgreSQL sorts a DISTINCT aggregate's input by its arguments.
		cols = []*engine.Vec{st.vals, st.seps}
		keys = []engine.SortKey{{Col: 0}, {Col: 1}}
	}
	if len(keys) > 0 {
		rows = append([]int32(nil), rows...)
		eval.SortRows(rows, cols, keys)
	}
	var out []byte
	for k, r := range rows {
		if k > 0 && !st.seps.IsNull(int(r)) {
			out = append(out, st.seps.S[r]...)
		}
		out = append(out, st.vals.S[r]...)
	}
	v.S[g] = out
}

func (s *aggState) add(ids []int32, arg *engine.Vec, n int) error {
	if arg == nil { // count(*)
		for _, g := range ids {
			s.count[g]++
		}
		return nil
	}
	var fresh []bool
	if s.dist != nil {
		fresh = s.dist.insert(ids, arg, n)
	}
	return s.update(ids, arg, n, fresh)
}

// update adds rows of arg to their groups ids; where fresh is not nil
// (DISTINCT), only the rows it marks.
func (s *aggState) update(ids []int32, arg *engine.Vec, n int, fresh []bool) error {
	if fresh == nil && arg.Null == nil && (s.call.Func == engine.AggCount || s.call.Func == engine.AggCountStar) {
		for _, g := range ids[:n] {
			s.count[g]++
		}
		return nil
	}
	if fresh == nil && (s.call.Func == engine.AggSum || s.call.Func == engine.AggAvg) && s.skind == sumDec &&
		arg.T.Kind == engine.KindNumeric {
		return s.sumDecs(ids, arg, n)
	}
	for i := 0; i < n; i++ {
		if arg.IsNull(i) || fresh != nil && !fresh[i] {
			continue
		}
		g := ids[i]
		s.count[g]++
		switch s.call.Func {
		case engine.AggSum, engine.AggAvg:
			switch s.skind {
			case sumInt:
				r, err := addInt64(s.sumI[g], arg.I[i])
				if err != nil {
					return err
				}
				s.sumI[g] = r
			case sumDec:
				var x engine.Dec
				if arg.T.Kind == engine.KindNumeric {
					x = arg.D[i]
				} else {
					x = engine.DecFromInt(arg.I[i])
				}
				r, ok := engine.DecAdd(s.sumD[g], x)
				if !ok {
					return errNumericOverflow()
				}
				s.sumD[g] = r
			default:
				if err := s.sums[g].Add(s.call.Func, arg, i); err != nil {
					return err
				}
			}
		case engine.AggMin, engine.AggMax:
			if !s.has[g] {
				s.has[g] = true
				setSlot(s.best, int(g), arg, i)
				continue
			}
			c := eval.CompareSlot(arg, i, s.best, int(g))
			if (s.call.Func == engine.AggMin && c < 0) || (s.call.Func == engine.AggMax && c > 0) {
				setSlot(s.best, int(g), arg, i)
			}
		}
	}
	return nil
}

// sumDecs adds numeric values to their groups' sums: update's loop for
// sum and avg of numeric, the addition done in place when the sum and the
// value have one scale (always, after a group's first value of a stored
// column).
func (s *aggState) sumDecs(ids []int32, arg *engine.Vec, n int) error {
	for i, x := range arg.D[:n] {
		if arg.Null != nil && arg.Null[i] {
			continue
		}
		g := ids[i]
		s.count[g]++
		acc := &s.sumD[g]
		if acc.Scale == x.Scale {
			if !add128(acc, x.Lo, x.Hi) {
				return errNumericOverflow()
			}
			continue
		}
		r, ok := engine.DecAdd(*acc, x)
		if !ok {
			return errNumericOverflow()
		}
		*acc = r
	}
	return nil
}

func setSlot(dst *engine.Vec, g int, src *engine.Vec, i int) {
	switch engine.PhysOf(dst.T.Kind) {
	case engine.PhysInt:
		dst.I[g] = src.I[i]
	case engine.PhysFloat:
		dst.F[g] = src.F[i]
	case engine.PhysDec:
		dst.D[g] = src.D[i]
	case engine.PhysStr:
		dst.S[g] = append(dst.S[g][:0], src.S[i]...)
	case engine.PhysInterval:
		dst.V[g] = src.V[i]
	}
}

// hasDistinct reports whether a DISTINCT aggregate keeps value sets that
// are not merged (string_agg's, or where the order of values matters), so
// that the plan aggregates on one worker.
func (a *aggregator) hasDistinct() bool {
	for _, s := range a.states {
		if s.seen != nil || s.dist != nil && !mergeableDistinct(s.call) {
			return true
		}
	}
	return false
}

// merge folds o's groups into a. Groups new to a are appended in o's
// order, so merging workers' aggregators in worker order is deterministic.
func (a *aggregator) merge(o *aggregator) error {
	ids := make([]int32, o.ng)
	if len(a.plan.GroupBy) > 0 {
		a.sharedKeys = true // o's keys are its own copies
		a.index.assign(a.keys, o.keys, 0, o.ng, ids, func(row int) int32 { return a.newGroup(o.keys, row) })
		a.sharedKeys = false
		a.growStates()
	}
	for g, id := range ids {
		for k, s := range a.states {
			if s.dist != nil {
				continue // below
			}
			if err := s.mergeSlot(id, o.states[k], int32(g)); err != nil {
				return err
			}
		}
	}
	// A DISTINCT aggregate replays o's (group, value) pairs into its own
	// set, with o's groups mapped to a's, and adds the pairs new to it.
	for k, s := range a.states {
		od := o.states[k].dist
		if s.dist == nil || od.n == 0 {
			continue
		}
		vals := od.keys[len(od.keys)-1]
		pids := make([]int32, od.n)
		if od.grouped {
			for i, g := range od.keys[0].I[:od.n] {
				pids[i] = ids[g]
			}
		}
		if err := s.update(pids, vals, od.n, s.dist.insert(pids, vals, od.n)); err != nil {
			return err
		}
	}
	return nil
}

func (s *aggState) mergeSlot(id int32, o *aggState, g int32) error {
	s.count[id] += o.count[g]
	if s.call.Func.IsStat() {
		s.stat[id].Merge(&o.stat[g])
		return nil
	}
	if s.ord != nil {
		s.ord.merge(id, o.ord, g)
		return nil
	}
	switch s.call.Func {
	case engine.AggStringAgg:
		// o scanned rows after s's: its rows follow, keeping input order.
		st, ot := s.str, o.str
		for _, r := range ot.rows[g] {
			st.rows[id] = append(st.rows[id], int32(st.vals.N))
			st.vals.AppendRow(ot.vals, int(r))
			st.seps.AppendRow(ot.seps, int(r))
			for k, kv := range ot.keys {
				st.keys[k].AppendRow(kv, int(r))
			}
		}
	case engine.AggMin, engine.AggMax:
		if !o.has[g] {
			return nil
		}
		if !s.has[id] {
			s.has[id] = true
			setSlot(s.best, int(id), o.best, int(g))
			return nil
		}
		c := eval.CompareSlot(o.best, int(g), s.best, int(id))
		if (s.call.Func == engine.AggMin && c < 0) || (s.call.Func == engine.AggMax && c > 0) {
			setSlot(s.best, int(id), o.best, int(g))
		}
	case engine.AggSum, engine.AggAvg:
		switch s.skind {
		case sumInt:
			r, err := addInt64(s.sumI[id], o.sumI[g])
			if err != nil {
				return err
			}
			s.sumI[id] = r
		case sumDec:
			r, ok := engine.DecAdd(s.sumD[id], o.sumD[g])
			if !ok {
				return errNumericOverflow()
			}
			s.sumD[id] = r
		default:
			return s.sums[id].Merge(&o.sums[g])
		}
	}
	return nil
}

// result builds the aggregate output: group keys, then one vector per
// aggregate, ng rows.
func (a *aggregator) result() (*engine.Batch, error) {
	out := &engine.Batch{N: a.ng}
	out.Cols = append(out.Cols, a.keys...)
	var sacc eval.SumAcc
	for _, s := range a.states {
		v := engine.NewVec(s.call.T, a.ng)
		for g := 0; g < a.ng; g++ {
			empty := s.count[g] == 0
			switch {
			case s.call.Func.IsStat():
				if err := s.stat[g].Put(s.call.Func, s.call.Arg.Type(), v, g); err != nil {
					return nil, err
				}
				continue
			case s.ord != nil:
				if err := s.ord.put(s.call, v, g); err != nil {
					return nil, err
				}
				continue
			}
			switch s.call.Func {
			case engine.AggCount, engine.AggCountStar:
				v.I[g] = s.count[g]
				continue
			case engine.AggStringAgg:
				s.joinStrings(v, g)
				continue
			case engine.AggMin, engine.AggMax:
				if empty {
					v.SetNull(g)
				} else {
					setSlot(v, g, s.best, g)
				}
				continue
			}
			if empty {
				v.SetNull(g)
				continue
			}
			acc := &sacc
			switch s.skind {
			case sumInt:
				sacc = eval.SumAcc{I: s.sumI[g]}
			case sumDec:
				sacc = eval.SumAcc{D: s.sumD[g]}
			default:
				acc = &s.sums[g]
			}
			if err := acc.Put(s.call.Func, s.call.Arg.Type(), s.count[g], v, g); err != nil {
				return nil, err
			}
		}
		out.Cols = append(out.Cols, v)
	}
	return out, nil
}
