package cpu

import (
	"context"
	"math"
	"sort"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/eval"
)

// Window functions (engine.Window) on the CPU. The calls that share a
// PARTITION BY and ORDER BY share one sort: the input's rows are sorted
// stably by the partition keys and the ORDER BY (eval.SortRows, the order
// the GPU's radix sort gives too), cut into partitions and peer groups,
// and every call is computed partition by partition, the partitions
// shared out among the workers.
//
// An aggregate over a frame runs GROUP BY's aggregator (agg.go) over the
// frame's rows, so every aggregate the binder knows works in a window:
// fed row by row while the frame only grows (a frame from UNBOUNDED
// PRECEDING without EXCLUDE; the whole partition is the case where it
// never grows), and afresh for each row whose frame differs from the row
// before's otherwise.

// window runs a Window node.
func (b *Backend) window(ctx context.Context, w *engine.Window) (*engine.HostTable, error) {
	in, err := b.materialize(ctx, w.Input)
	if err != nil {
		return nil, err
	}
	n := int(in.N)
	vecs := make([]*engine.Vec, len(in.Cols))
	vec := func(c int) *engine.Vec {
		if vecs[c] == nil {
			vecs[c] = scanColumn(in.Cols[c], 0, n)
		}
		return vecs[c]
	}
	outs := make([]*engine.Vec, len(w.Calls))
	var perm []int32
	done := make([]bool, len(w.Calls))
	for k := range w.Calls {
		if done[k] {
			continue
		}
		group := []int{k}
		for j := k + 1; j < len(w.Calls); j++ {
			if !done[j] && w.Calls[j].SameWindow(&w.Calls[k]) {
				group = append(group, j)
				done[j] = true
			}
		}
		// the sort's permutation and partitions, and the calls' results
		if err := engine.ChargeMemory(ctx, int64(n)*(8+int64(len(group))*engine.SlotBytes(w.Calls[k].T)), "sorting the rows of a window"); err != nil {
			return nil, err
		}
		ws := sortWindow(&w.Calls[k], vec, n)
		perm = ws.perm
		calls := make([]*winCall, len(group))
		for g, c := range group {
			wc, err := newWinCall(ctx, &w.Calls[c], ws, vec)
			if err != nil {
				return nil, err
			}
			calls[g] = wc
			outs[c] = wc.out
		}
		workers := min(b.workers, len(ws.parts)-1)
		if n < parallelMinRows {
			workers = 1
		}
		err := parallel(max(workers, 1), len(ws.parts)-1, func(_, lo, hi int) error {
			for p := lo; p < hi; p++ {
				if err := canceled(ctx); err != nil {
					return err
				}
				for _, wc := range calls {
					if err := wc.partition(ctx, p); err != nil {
						return err
					}
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	out := &engine.HostTable{N: in.N, Cols: make([]*engine.Column, 0, len(in.Cols)+len(w.Calls))}
	sorted := perm != nil && !isIota(perm)
	for _, c := range in.Cols {
		if sorted {
			c = c.Gather(perm)
		}
		out.Cols = append(out.Cols, c)
	}
	for k, v := range outs {
		if !hasNull(v) {
			v.Null = nil
		}
		if sorted {
			v = v.Gather(perm)
		}
		if c := decColumn(v); c != nil {
			out.Cols = append(out.Cols, c)
			continue
		}
		h, err := engine.HostFromBatches([]engine.Type{w.Calls[k].T}, []*engine.Batch{{N: n, Cols: []*engine.Vec{v}}})
		if err != nil {
			return nil, err
		}
		out.Cols = append(out.Cols, h.Cols[0])
	}
	return out, nil
}

// decColumn stores an unconstrained numeric whose values differ in
// scale (lag's default 2.5 among integers, avg's quotients) value by
// value, each with its own scale as PostgreSQL shows it, where a host
// table would store them all at the largest scale; nil otherwise.
func decColumn(v *engine.Vec) *engine.Column {
	if v.T.Kind != engine.KindNumeric || v.T.Prec != 0 {
		return nil
	}
	scale := int32(-1)
	mixed := false
	for i, d := range v.D {
		if v.IsNull(i) {
			continue
		}
		if scale >= 0 && d.Scale != scale {
			mixed = true
			break
		}
		scale = d.Scale
	}
	if !mixed {
		return nil
	}
	c := &engine.Column{Type: v.T, Len: v.N, D: append([]engine.Dec(nil), v.D...)}
	if v.Null != nil {
		c.Valid = engine.NewColumn(engine.Bool, v.N, 0, true).Valid
		for i, null := range v.Null {
			if null {
				c.Valid[i>>6] &^= 1 << (uint(i) & 63)
			}
		}
	}
	return c
}

func isIota(perm []int32) bool {
	for i, r := range perm {
		if int(r) != i {
			return false
		}
	}
	return true
}

func hasNull(v *engine.Vec) bool {
	for _, x := range v.Null {
		if x {
			return true
		}
	}
	return false
}

// winSort is the input sorted for one window: positions are places in
// the sorted order.
type winSort struct {
	n    int
	perm []int32 // position → input row
	// parts are the partitions' first positions, then n.
	parts []int32
	// group is each position's peer group (numbered across partitions);
	// gstart the groups' first positions, then n; pgroup each
	// partition's first group, then the number of groups.
	group  []int32
	gstart []int32
	pgroup []int32
}

// sortWindow sorts the rows for c's window and finds its partitions and
// peer groups (rows equal in every ORDER BY key, NULLs equal; all the
// partition's rows without an ORDER BY).
func sortWindow(c *engine.WindowCall, vec func(int) *engine.Vec, n int) *winSort {
	keys := engine.WindowSortKeys(c)
	cols := map[int]*engine.Vec{}
	maxCol := -1
	for _, k := range keys {
		cols[k.Col] = vec(k.Col)
		maxCol = max(maxCol, k.Col)
	}
	vs := make([]*engine.Vec, maxCol+1)
	for c, v := range cols {
		vs[c] = v
	}
	ws := &winSort{n: n, perm: make([]int32, n), group: make([]int32, n)}
	for i := range ws.perm {
		ws.perm[i] = int32(i)
	}
	if len(keys) > 0 {
		eval.SortRows(ws.perm, vs, keys)
	}
	same := func(cols []int, a, b int32) bool {
		for _, c := range cols {
			v := vs[c]
			na, nb := v.IsNull(int(a)), v.IsNull(int(b))
			if na != nb || (!na && eval.CompareSlot(v, int(a), v, int(b)) != 0) {
				return false
			}
		}
		return true
	}
	order := make([]int, len(c.Order))
	for i, k := range c.Order {
		order[i] = k.Col
	}
	g := int32(-1)
	for i := 0; i < n; i++ {
		newPart := i == 0 || !same(c.Partition, ws.perm[i-1], ws.perm[i])
		if newPart {
			ws.parts = append(ws.parts, int32(i))
			ws.pgroup = append(ws.pgroup, g+1)
		}
		if newPart || !same(order, ws.perm[i-1], ws.perm[i]) {
			g++
			ws.gstart = append(ws.gstart, int32(i))
		}
		ws.group[i] = g
	}
	ws.parts = append(ws.parts, int32(n))
	ws.gstart = append(ws.gstart, int32(n))
	ws.pgroup = append(ws.pgroup, g+1)
	return ws
}

// winCall computes one call over a sorted input.
type winCall struct {
	c  *engine.WindowCall
	ws *winSort
	// args are the call's arguments (or the aggregate's input columns)
	// in sorted order, indexed by input column for aggregates.
	args []*engine.Vec
	cols []*engine.Vec
	// out holds the results by input row.
	out *engine.Vec
	// key is the RANGE offset frames' ORDER BY key in sorted order (as
	// timestamps for dates), and bound[0/1] the start's and end's
	// key ± offset of each position, where those are computed with the
	// engine's own arithmetic (dates, timestamps, intervals).
	key   *engine.Vec
	bound [2]*engine.Vec
	// aggPlan is the one-aggregate plan an aggregator is made from.
	aggPlan *engine.Plan
}

func newWinCall(ctx context.Context, c *engine.WindowCall, ws *winSort, vec func(int) *engine.Vec) (*winCall, error) {
	n := ws.n
	wc := &winCall{c: c, ws: ws, out: engine.NewVec(c.T, n)}
	wc.out.Null = make([]bool, n)
	sortedCol := map[int]*engine.Vec{}
	sorted := func(col int) *engine.Vec {
		if v, ok := sortedCol[col]; ok {
			return v
		}
		v := vec(col).Gather(ws.perm)
		sortedCol[col] = v
		return v
	}
	if c.Func == engine.WinAgg {
		wc.aggPlan = &engine.Plan{Aggs: []engine.AggCall{c.Agg}, Limit: -1}
		maxCol := -1
		set := map[int]bool{}
		for _, e := range c.Agg.Exprs() {
			colsRead(e, set)
		}
		for col := range set {
			maxCol = max(maxCol, col)
		}
		wc.cols = make([]*engine.Vec, maxCol+1)
		for col := range set {
			wc.cols[col] = sorted(col)
		}
	} else {
		for _, a := range c.Args {
			switch a := a.(type) {
			case *engine.ColRef:
				wc.args = append(wc.args, sorted(a.Idx))
			case *engine.Const:
				wc.args = append(wc.args, eval.Broadcast(a, n))
			default:
				return nil, engine.Errorf(engine.CodeInternalError, "window argument %s is not a column", a)
			}
		}
	}
	f := c.Frame
	if c.Func.UsesFrame() && f.Mode == engine.FrameRange && (offsetBound(f.Start) || offsetBound(f.End)) {
		if err := wc.rangeKeys(ctx, sorted(c.Order[0].Col)); err != nil {
			return nil, err
		}
	}
	return wc, nil
}

func offsetBound(b engine.FrameBound) bool {
	return b.Kind == engine.BoundPreceding || b.Kind == engine.BoundFollowing
}

// colsRead adds the columns e reads to set.
func colsRead(e engine.Expr, set map[int]bool) {
	for i, u := range usedColumns(maxColRef(e)+1, e) {
		if u {
			set[i] = true
		}
	}
}

func maxColRef(e engine.Expr) int {
	m := -1
	switch e := e.(type) {
	case *engine.ColRef:
		m = e.Idx
	case *engine.Call:
		for _, a := range e.Args {
			m = max(m, maxColRef(a))
		}
	case *engine.HostFunc:
		for _, a := range e.Args {
			m = max(m, maxColRef(a))
		}
	case *engine.Case:
		for i := range e.Conds {
			m = max(m, maxColRef(e.Conds[i]), maxColRef(e.Results[i]))
		}
		m = max(m, maxColRef(e.Else))
	}
	return m
}

// rangeKeys prepares RANGE offset frames over the sorted ORDER BY key.
// Dates compare as timestamps; for dates, timestamps and intervals the
// bounds key ± offset are computed once per position with the engine's
// arithmetic, so that they are what the CPU and GPU evaluators compute.
func (wc *winCall) rangeKeys(ctx context.Context, key *engine.Vec) error {
	f := wc.c.Frame
	kind := key.T.Kind
	if kind == engine.KindDate {
		var err error
		if key, err = eval.Cast(key, engine.Timestamp); err != nil {
			return err
		}
	}
	wc.key = key
	if kind != engine.KindDate && kind != engine.KindTimestamp && kind != engine.KindInterval {
		return nil
	}
	in := &engine.Batch{N: key.N, Cols: []*engine.Vec{key}}
	for k, b := range []engine.FrameBound{f.Start, f.End} {
		if !offsetBound(b) {
			continue
		}
		// PRECEDING subtracts in ascending order, FOLLOWING adds; DESC
		// turns both around.
		sub := (b.Kind == engine.BoundPreceding) != wc.c.Order[0].Desc
		op := engine.OpTsAddIntv
		switch {
		case kind == engine.KindInterval && sub:
			op = engine.OpIntvSub
		case kind == engine.KindInterval:
			op = engine.OpIntvAdd
		case sub:
			op = engine.OpTsSubIntv
		}
		e := &engine.Call{Op: op, Args: []engine.Expr{&engine.ColRef{Idx: 0, T: key.T}, b.Offset}, T: key.T}
		v, err := eval.Eval(ctx, e, in)
		if err != nil {
			return err
		}
		wc.bound[k] = v
	}
	return nil
}

// partition computes the call over partition p.
func (wc *winCall) partition(ctx context.Context, p int) error {
	ws := wc.ws
	ps, pe := int(ws.parts[p]), int(ws.parts[p+1])
	c := wc.c
	switch c.Func {
	case engine.WinRowNumber, engine.WinRank, engine.WinDenseRank, engine.WinPercentRank, engine.WinCumeDist:
		rows := float64(pe - ps)
		fg := int(ws.pgroup[p])
		for i := ps; i < pe; i++ {
			g := int(ws.group[i])
			o := int(ws.perm[i])
			wc.out.Null[o] = false
			switch c.Func {
			case engine.WinRowNumber:
				wc.out.I[o] = int64(i - ps + 1)
			case engine.WinRank:
				wc.out.I[o] = int64(int(ws.gstart[g]) - ps + 1)
			case engine.WinDenseRank:
				wc.out.I[o] = int64(g - fg + 1)
			case engine.WinPercentRank:
				if pe-ps > 1 {
					wc.out.F[o] = float64(int(ws.gstart[g])-ps) / (rows - 1)
				} else {
					wc.out.F[o] = 0
				}
			case engine.WinCumeDist:
				wc.out.F[o] = float64(int(ws.gstart[g+1])-ps) / rows
			}
		}
		return nil
	case engine.WinNtile:
		return wc.ntile(ps, pe)
	case engine.WinLag, engine.WinLead:
		v, off, def := wc.args[0], wc.args[1], wc.args[2]
		for i := ps; i < pe; i++ {
			o := int(ws.perm[i])
			if off.IsNull(i) {
				wc.out.Null[o] = true
				continue
			}
			d := off.I[i]
			if c.Func == engine.WinLag {
				d = -d
			}
			t := int64(i) + d
			if t >= int64(ps) && t < int64(pe) {
				copySlot(wc.out, o, v, int(t))
			} else {
				copySlot(wc.out, o, def, i)
			}
		}
		return nil
	case engine.WinFirstValue, engine.WinLastValue, engine.WinNthValue:
		v := wc.args[0]
		var segs [3][2]int
		for i := ps; i < pe; i++ {
			o := int(ws.perm[i])
			s, e := wc.frame(p, i)
			fs := frameSegs(segs[:0], s, e, i, wc.peers(i), c.Frame.Exclude)
			nth := int64(1)
			switch c.Func {
			case engine.WinLastValue:
				nth = -1
			case engine.WinNthValue:
				a := wc.args[1]
				if a.IsNull(i) {
					wc.out.Null[o] = true
					continue
				}
				if nth = a.I[i]; nth <= 0 {
					return engine.Errorf(engine.CodeInvalidArgForNthValue, "argument of nth_value must be greater than zero")
				}
			}
			if r, ok := nthRow(fs, nth); ok {
				copySlot(wc.out, o, v, r)
			} else {
				wc.out.Null[o] = true
			}
		}
		return nil
	case engine.WinAgg:
		return wc.aggregate(ctx, p, ps, pe)
	}
	return engine.Errorf(engine.CodeInternalError, "cpu backend cannot run window function %s", c.Func)
}

// ntile deals the partition's rows into buckets as PostgreSQL's
// window_ntile does: the argument is read at the partition's first row
// (again at the next while it is NULL, each such row giving NULL); with
// r = rows mod n, the first r buckets have one row more.
func (wc *winCall) ntile(ps, pe int) error {
	ws := wc.ws
	arg := wc.args[0]
	i := ps
	for ; i < pe && arg.IsNull(i); i++ {
		wc.out.Null[ws.perm[i]] = true
	}
	if i == pe {
		return nil
	}
	nb := arg.I[i]
	if nb <= 0 {
		return engine.Errorf(engine.CodeInvalidArgForNtile, "argument of ntile must be greater than zero")
	}
	total := int64(pe - ps)
	for ; i < pe; i++ {
		wc.out.I[ws.perm[i]] = ntileOf(int64(i-ps), total, nb)
	}
	return nil
}

// ntileOf is the bucket (from 1) of the k-th row (from 0) of total rows
// in nb buckets: window_ntile's result in closed form.
func ntileOf(k, total, nb int64) int64 {
	q, r := total/nb, total%nb
	if q == 0 {
		return k + 1
	}
	if k < r*(q+1) {
		return k/(q+1) + 1
	}
	return r + (k-r*(q+1))/q + 1
}

// peers returns the peer group of position i: [first, end).
func (wc *winCall) peers(i int) [2]int {
	g := wc.ws.group[i]
	return [2]int{int(wc.ws.gstart[g]), int(wc.ws.gstart[g+1])}
}

// frame returns position i's frame [s, e) in partition p, before EXCLUDE
// (s >= e: empty).
func (wc *winCall) frame(p, i int) (int, int) {
	ws := wc.ws
	ps, pe := int(ws.parts[p]), int(ws.parts[p+1])
	fg, lg := int(ws.pgroup[p]), int(ws.pgroup[p+1])-1
	f := wc.c.Frame
	g := int(ws.group[i])
	var s, e int
	switch b := f.Start; b.Kind {
	case engine.BoundUnboundedPreceding:
		s = ps
	case engine.BoundCurrentRow:
		s = i
		if f.Mode != engine.FrameRows {
			s = int(ws.gstart[g])
		}
	case engine.BoundPreceding, engine.BoundFollowing:
		back := b.Kind == engine.BoundPreceding
		switch f.Mode {
		case engine.FrameRows:
			s = stepRows(i, b.Offset.I, back, ps, pe)
		case engine.FrameGroups:
			t := stepRows(g, b.Offset.I, back, fg, lg+1)
			s = int(ws.gstart[t])
			if t > lg {
				s = pe
			}
		default:
			s = wc.rangeBound(0, p, i)
		}
	default: // UNBOUNDED FOLLOWING: the binder refuses it
		s = pe
	}
	switch b := f.End; b.Kind {
	case engine.BoundUnboundedFollowing:
		e = pe
	case engine.BoundCurrentRow:
		e = i + 1
		if f.Mode != engine.FrameRows {
			e = int(ws.gstart[g+1])
		}
	case engine.BoundPreceding, engine.BoundFollowing:
		back := b.Kind == engine.BoundPreceding
		switch f.Mode {
		case engine.FrameRows:
			e = stepRows(i, b.Offset.I, back, ps-1, pe-1) + 1
		case engine.FrameGroups:
			t := stepRows(g, b.Offset.I, back, fg-1, lg)
			e = ps
			if t >= fg {
				e = int(ws.gstart[t+1])
			}
		default:
			e = wc.rangeBound(1, p, i)
		}
	default:
		e = ps
	}
	return s, e
}

// stepRows is i moved off places back or forward, kept within [lo, hi].
func stepRows(i int, off int64, back bool, lo, hi int) int {
	if back {
		if off > int64(i-lo) {
			return lo
		}
		return i - int(off)
	}
	if off > int64(hi-i) {
		return hi
	}
	return i + int(off)
}

// rangeBound is a RANGE offset frame's start (k = 0) or end (k = 1) for
// position i, as PostgreSQL's update_frameheadpos/update_frametailpos
// find them. A NULL key's frame is its peer group (all the partition's
// NULLs). For a non-NULL key the start is the first non-NULL position
// whose key is in range (in_range true), the end the first one past it
// whose key is not; NULL keys are never in range, so when none is the
// search stops where the non-NULL keys end.
func (wc *winCall) rangeBound(k, p, i int) int {
	ws := wc.ws
	key := wc.key
	ps, pe := int(ws.parts[p]), int(ws.parts[p+1])
	if key.IsNull(i) {
		return wc.peers(i)[k]
	}
	// the partition's non-NULL keys: NULLs sort first or last
	lo, hi := ps, pe
	if wc.c.Order[0].NullsFirst {
		lo += sort.Search(pe-ps, func(j int) bool { return !key.IsNull(ps + j) })
	} else {
		hi = ps + sort.Search(pe-ps, func(j int) bool { return key.IsNull(ps + j) })
	}
	b := wc.c.Frame.Start
	if k == 1 {
		b = wc.c.Frame.End
	}
	desc := wc.c.Order[0].Desc
	sub := (b.Kind == engine.BoundPreceding) != desc
	less := desc != (k == 1)
	return lo + sort.Search(hi-lo, func(j int) bool {
		in := wc.inRange(k, lo+j, i, b.Offset, sub, less)
		if k == 0 {
			return in
		}
		return !in
	})
}

// inRange is PostgreSQL's in_range(val, base, offset, sub, less) for the
// keys at positions h (val) and i (base): whether val >= base ± offset
// (val <= base ± offset with less), sub choosing minus.
func (wc *winCall) inRange(k, h, i int, off *engine.Const, sub, less bool) bool {
	key := wc.key
	if b := wc.bound[k]; b != nil {
		c := eval.CompareSlot(key, h, b, i)
		if less {
			return c <= 0
		}
		return c >= 0
	}
	switch engine.PhysOf(key.T.Kind) {
	case engine.PhysInt:
		val, base, o := key.I[h], key.I[i], off.I
		if sub {
			o = -o
		}
		sum := base + o
		if (o > 0 && sum < base) || (o < 0 && sum > base) {
			// past int64: the true sum is beyond every value
			return sub != less
		}
		if less {
			return val <= sum
		}
		return val >= sum
	case engine.PhysDec:
		val, base := key.D[h], key.D[i]
		var sum engine.Dec
		var ok bool
		if sub {
			sum, ok = engine.DecSub(base, off.D)
		} else {
			sum, ok = engine.DecAdd(base, off.D)
		}
		if !ok {
			return sub != less
		}
		c := engine.DecCmp(val, sum)
		if less {
			return c <= 0
		}
		return c >= 0
	case engine.PhysFloat:
		return floatInRange(key.F[h], key.F[i], off.F, sub, less)
	}
	return false
}

// floatInRange is in_range_float8_float8 (offset neither NaN nor
// negative: the binder checks): NaN equals NaN and is above all else.
func floatInRange(val, base, off float64, sub, less bool) bool {
	switch {
	case math.IsNaN(val):
		if math.IsNaN(base) {
			return true
		}
		return !less
	case math.IsNaN(base):
		return less
	}
	if math.IsInf(off, 0) && math.IsInf(base, 0) && (sub == (base > 0)) {
		return true
	}
	sum := base + off
	if sub {
		sum = base - off
	}
	if less {
		return val <= sum
	}
	return val >= sum
}

// frameSegs appends to dst the frame [s, e) of position i without the
// rows EXCLUDE takes out (peers [xs, xe) are i's peer group): at most
// three runs of positions, in order.
func frameSegs(dst [][2]int, s, e, i int, peers [2]int, ex engine.FrameExclusion) [][2]int {
	add := func(a, b int) {
		a, b = max(a, s), min(b, e)
		if a < b {
			dst = append(dst, [2]int{a, b})
		}
	}
	switch ex {
	case engine.ExcludeCurrentRow:
		add(s, i)
		add(i+1, e)
	case engine.ExcludeGroup:
		add(s, peers[0])
		add(peers[1], e)
	case engine.ExcludeTies:
		add(s, peers[0])
		add(i, i+1)
		add(peers[1], e)
	default:
		add(s, e)
	}
	return dst
}

// nthRow is the position of the frame's nth row (from 1; -1: the last).
func nthRow(segs [][2]int, nth int64) (int, bool) {
	if len(segs) == 0 {
		return 0, false
	}
	if nth < 0 {
		return segs[len(segs)-1][1] - 1, true
	}
	for _, sg := range segs {
		if l := int64(sg[1] - sg[0]); nth <= l {
			return sg[0] + int(nth) - 1, true
		} else {
			nth -= l
		}
	}
	return 0, false
}

// aggregate computes an aggregate call over partition p's frames.
func (wc *winCall) aggregate(ctx context.Context, p, ps, pe int) error {
	c := wc.c
	ws := wc.ws
	growing := c.Frame.Start.Kind == engine.BoundUnboundedPreceding && c.Frame.Exclude == engine.ExcludeNoOthers
	var agg *aggregator
	var tree *aggTree
	fed := ps // growing: rows [ps, fed) are in agg
	var prev [][2]int
	prevRow := -1
	var segs, cur [3][2]int
	for i := ps; i < pe; i++ {
		o := int(ws.perm[i])
		s, e := wc.frame(p, i)
		fs := frameSegs(cur[:0], s, e, i, wc.peers(i), c.Frame.Exclude)
		if prevRow >= 0 && sameSegs(fs, prev) {
			copySlot(wc.out, o, wc.out, prevRow)
			continue
		}
		if growing && agg != nil && e < fed {
			agg = nil // not growing after all: start again
		}
		if !growing || agg == nil {
			agg = newAggregator(wc.aggPlan)
			fed = ps
		}
		if growing {
			if e > fed {
				if err := wc.feed(ctx, agg, max(fed, s), e); err != nil {
					return err
				}
				fed = e
			}
		} else {
			for _, sg := range fs {
				if sg[1]-sg[0] > 2*aggBlock && tree == nil {
					var err error
					if tree, err = wc.aggTree(ctx, ps, pe); err != nil {
						return err
					}
				}
				if err := wc.addRange(ctx, agg, tree, sg[0], sg[1]); err != nil {
					return err
				}
			}
		}
		res, err := agg.result()
		if err != nil {
			return err
		}
		copySlot(wc.out, o, res.Cols[0], 0)
		segs = cur
		prev = segs[:len(fs)]
		prevRow = o
	}
	return nil
}

func sameSegs(a, b [][2]int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// aggBlock is the rows of a leaf of an aggTree: frames of up to twice
// as many rows are fed row by row.
const aggBlock = 64

// aggTree holds a partition's aggregate over blocks of aggBlock rows and
// over runs of blocks, as a segment tree: node k covers its children 2k
// and 2k+1, the leaves (blocks) are nodes size to size+blocks-1. A long
// frame is its first and last rows fed one by one and the blocks
// between merged in (aggregator.merge, as parallel GROUP BY merges
// workers' groups, in row order), so a partition's frames cost
// O(rows log rows) merges whatever their shape.
type aggTree struct {
	ps, size int
	nodes    []*aggregator
}

// aggTree builds the tree over positions [ps, pe).
func (wc *winCall) aggTree(ctx context.Context, ps, pe int) (*aggTree, error) {
	nb := (pe - ps + aggBlock - 1) / aggBlock
	size := 1
	for size < nb {
		size *= 2
	}
	t := &aggTree{ps: ps, size: size, nodes: make([]*aggregator, 2*size)}
	for b := 0; b < nb; b++ {
		a := newAggregator(wc.aggPlan)
		if err := wc.feed(ctx, a, ps+b*aggBlock, min(pe, ps+(b+1)*aggBlock)); err != nil {
			return nil, err
		}
		t.nodes[size+b] = a
	}
	for k := size - 1; k >= 1; k-- {
		l, r := t.nodes[2*k], t.nodes[2*k+1]
		if l == nil {
			continue
		}
		a := newAggregator(wc.aggPlan)
		if err := a.merge(l); err != nil {
			return nil, err
		}
		if r != nil {
			if err := a.merge(r); err != nil {
				return nil, err
			}
		}
		t.nodes[k] = a
	}
	return t, nil
}

// addRange adds positions [s, e) to agg, in order: whole blocks from t
// (when there is one), the rest row by row.
func (wc *winCall) addRange(ctx context.Context, agg *aggregator, t *aggTree, s, e int) error {
	if t == nil {
		return wc.feed(ctx, agg, s, e)
	}
	bs, be := (s-t.ps+aggBlock-1)/aggBlock, (e-t.ps)/aggBlock
	if bs >= be {
		return wc.feed(ctx, agg, s, e)
	}
	if err := wc.feed(ctx, agg, s, t.ps+bs*aggBlock); err != nil {
		return err
	}
	var left, right []*aggregator
	for l, r := bs+t.size, be+t.size; l < r; l, r = l>>1, r>>1 {
		if l&1 == 1 {
			left = append(left, t.nodes[l])
			l++
		}
		if r&1 == 1 {
			r--
			right = append(right, t.nodes[r])
		}
	}
	for k := len(right) - 1; k >= 0; k-- {
		left = append(left, right[k])
	}
	for _, n := range left {
		if err := agg.merge(n); err != nil {
			return err
		}
	}
	return wc.feed(ctx, agg, t.ps+be*aggBlock, e)
}

// feed adds positions [s, e) to agg.
func (wc *winCall) feed(ctx context.Context, agg *aggregator, s, e int) error {
	if s >= e {
		return nil
	}
	in := &engine.Batch{N: e - s, Cols: make([]*engine.Vec, len(wc.cols))}
	for k, v := range wc.cols {
		if v != nil {
			in.Cols[k] = sliceVec(v, s, e)
		}
	}
	return agg.consume(ctx, in)
}

// sliceVec is rows [s, e) of v, sharing its storage.
func sliceVec(v *engine.Vec, s, e int) *engine.Vec {
	out := &engine.Vec{T: v.T, N: e - s}
	if v.Null != nil {
		out.Null = v.Null[s:e:e]
	}
	switch {
	case v.I != nil:
		out.I = v.I[s:e:e]
	case v.F != nil:
		out.F = v.F[s:e:e]
	case v.D != nil:
		out.D = v.D[s:e:e]
	case v.S != nil:
		out.S = v.S[s:e:e]
	case v.V != nil:
		out.V = v.V[s:e:e]
	}
	return out
}

// copySlot sets row j of dst (whose Null is allocated) to row i of src.
func copySlot(dst *engine.Vec, j int, src *engine.Vec, i int) {
	if src.IsNull(i) {
		dst.Null[j] = true
		return
	}
	dst.Null[j] = false
	setSlot(dst, j, src, i)
}
