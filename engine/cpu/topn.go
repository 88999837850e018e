package cpu

import (
	"cmp"
	"context"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/eval"
)

// ORDER BY … LIMIT k (top-N). Instead of sorting every row, each worker
// keeps the first k rows, in ORDER BY order, of the rows it has read (a
// topN), and the workers' rows are sorted together at the end. A batch
// is first compared with the worker's k-th row, its current bound: only
// rows that sort strictly before it can enter, so once the bound settles
// almost every row costs one comparison. Where the first sort key is a
// stored column with a zone map, a batch whose zone cannot beat the bound
// is not read at all.
//
// The answer is the full sort's: that sort is stable (ties keep table
// order), every worker reads a contiguous range of batches in order and
// keeps ties in the order it met them (a row that merely equals the
// bound comes later than it, so it cannot enter), and the workers' rows
// are concatenated in worker order before the final stable sort.

// topNMaxRows bounds the k that takes the top-N path; above it, the full
// sort is cheaper than keeping k rows per worker.
const topNMaxRows = 1 << 16

// topNRows returns k, the rows a top-N must keep for p (OFFSET + LIMIT),
// or 0 where p is no top-N.
func topNRows(p *engine.Plan) int {
	if len(p.OrderBy) == 0 || p.Distinct || p.Limit < 0 || p.Offset < 0 {
		return 0
	}
	k := p.Limit + p.Offset
	if k <= 0 || k > topNMaxRows || k < p.Limit { // 0, or too large, or overflowed
		return 0
	}
	return int(k)
}

// topN keeps the first k rows, in keys' order, of the batches added.
type topN struct {
	keys []engine.SortKey
	k    int
	acc  *engine.Batch // at most k rows, in order; nil before any
}

// full reports whether the top-N holds k rows, so that acc's last row
// bounds what may enter.
func (t *topN) full() bool { return t.acc != nil && t.acc.N == t.k }

// add offers b's rows (which come after all rows offered before).
func (t *topN) add(b *engine.Batch) {
	if b == nil || b.N == 0 {
		return
	}
	if t.full() {
		sel := t.beats(b)
		if len(sel) == 0 {
			return
		}
		b = eval.GatherBatch(b, sel)
	}
	t.keep(b)
}

// keep merges rows that may enter (b) with those kept, and keeps the
// first k.
func (t *topN) keep(b *engine.Batch) {
	all := b
	if t.acc != nil {
		all = appendBatch(appendBatch(nil, t.acc), b)
	}
	idx := make([]int32, all.N)
	for i := range idx {
		idx[i] = int32(i)
	}
	eval.SortRows(idx, all.Cols, t.keys)
	if len(idx) > t.k {
		idx = idx[:t.k]
	}
	t.acc = eval.GatherBatch(all, idx)
}

// beats returns the rows of b that sort strictly before the bound (acc's
// last row). The first key is compared in a loop of its own type; rows
// that tie on it are compared on all keys.
func (t *topN) beats(b *engine.Batch) []int32 {
	j := t.acc.N - 1
	k0 := t.keys[0]
	v, w := b.Cols[k0.Col], t.acc.Cols[k0.Col]
	var sel []int32
	if v.Null != nil || w.IsNull(j) {
		for i := 0; i < b.N; i++ {
			if cmpRows(b, i, t.acc, j, t.keys) < 0 {
				sel = append(sel, int32(i))
			}
		}
		return sel
	}
	sign := 1
	if k0.Desc {
		sign = -1
	}
	tie := func(i int) {
		if len(t.keys) > 1 && cmpRows(b, i, t.acc, j, t.keys[1:]) < 0 {
			sel = append(sel, int32(i))
		}
	}
	switch engine.PhysOf(v.T.Kind) {
	case engine.PhysInt:
		bound := w.I[j]
		for i, x := range v.I[:b.N] {
			c := cmp.Compare(x, bound) * sign
			if c < 0 {
				sel = append(sel, int32(i))
			} else if c == 0 {
				tie(i)
			}
		}
	case engine.PhysDec:
		bound := w.D[j]
		for i := range v.D[:b.N] {
			x := &v.D[i]
			var c int
			if x.Scale == bound.Scale { // one column: the usual case
				switch {
				case x.Hi != bound.Hi:
					c = cmp.Compare(x.Hi, bound.Hi)
				case x.Lo < bound.Lo:
					c = -1
				case x.Lo > bound.Lo:
					c = 1
				}
			} else {
				c = engine.DecCmp(*x, bound)
			}
			c *= sign
			if c < 0 {
				sel = append(sel, int32(i))
			} else if c == 0 {
				tie(i)
			}
		}
	default:
		for i := 0; i < b.N; i++ {
			if cmpRows(b, i, t.acc, j, t.keys) < 0 {
				sel = append(sel, int32(i))
			}
		}
	}
	return sel
}

// cmpRows orders row i of a against row j of b by keys, as SortRows does.
func cmpRows(a *engine.Batch, i int, b *engine.Batch, j int, keys []engine.SortKey) int {
	for _, k := range keys {
		va, vb := a.Cols[k.Col], b.Cols[k.Col]
		na, nb := va.IsNull(i), vb.IsNull(j)
		if na || nb {
			if na == nb {
				continue
			}
			if na == k.NullsFirst {
				return -1
			}
			return 1
		}
		c := eval.CompareSlot(va, i, vb, j)
		if c == 0 {
			continue
		}
		if k.Desc {
			return -c
		}
		return c
	}
	return 0
}

// topNBatch is the first k rows of b in keys' order (b's rows in ORDER
// BY order, cut to k), without sorting all of b.
func topNBatch(b *engine.Batch, keys []engine.SortKey, k int) *engine.Batch {
	if b == nil || b.N <= k {
		return b
	}
	t := &topN{keys: keys, k: k}
	sel := make([]int32, 0, batchRows)
	for lo := 0; lo < b.N; lo += batchRows {
		hi := min(lo+batchRows, b.N)
		sel = sel[:0]
		for i := lo; i < hi; i++ {
			sel = append(sel, int32(i))
		}
		t.add(eval.GatherBatch(b, sel))
	}
	return t.acc
}

// topN runs the scan of a top-N: each worker keeps the first k projected
// rows of its range, and their rows are concatenated in worker order.
func (r *execRun) topN(ctx context.Context, workers, k int) (*engine.Batch, error) {
	p := r.p
	tops := make([]*topN, max(workers, 1))
	for w := range tops {
		tops[w] = &topN{keys: p.OrderBy, k: k}
	}
	// The sort keys alone are computed for a whole batch when no other
	// output column can fail (an error must not depend on which rows
	// the bound lets through); the rest only for the rows that enter.
	keysFirst := true
	isKey := make([]bool, len(p.Project))
	for _, sk := range p.OrderBy {
		isKey[sk.Col] = true
	}
	for c, e := range p.Project {
		if !isKey[c] && eval.CanFail(e) {
			keysFirst = false
		}
	}
	// Skipping a batch by its zone evaluates neither the filter nor any
	// output column there: only where none can fail.
	var skip func(int, *engine.Batch) bool
	if keysFirst && (p.Filter == nil || !eval.CanFail(p.Filter)) && !anyCanFail(p.Project) {
		skip = r.topNZoneSkip()
	}
	err := parallel(len(tops), r.morsels(), func(w, lo, hi int) error {
		t := tops[w]
		for m := lo; m < hi; m++ {
			if skip != nil && t.full() && skip(m, t.acc) {
				continue
			}
			in, err := r.morsel(ctx, m)
			if err != nil {
				return err
			}
			if in == nil {
				continue
			}
			if !keysFirst || !t.full() {
				out, err := project(ctx, p.Project, in)
				if err != nil {
					return err
				}
				t.add(out)
				continue
			}
			keys := &engine.Batch{N: in.N, Cols: make([]*engine.Vec, len(p.Project))}
			for _, sk := range p.OrderBy {
				if keys.Cols[sk.Col] == nil {
					if keys.Cols[sk.Col], err = eval.Eval(ctx, p.Project[sk.Col], in); err != nil {
						return err
					}
				}
			}
			sel := t.beats(keys)
			if len(sel) == 0 {
				continue
			}
			out, err := project(ctx, p.Project, eval.GatherBatch(in, sel))
			if err != nil {
				return err
			}
			t.keep(out)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var all *engine.Batch
	for _, t := range tops {
		if t.acc != nil {
			all = appendBatch(all, t.acc)
		}
	}
	return all, nil
}

// topNZoneSkip returns a test of whether the i-th batch the scan reads
// holds no row that can beat a full top-N's bound (acc's last row), by
// the zone map of the first sort key's column; nil where that key is not
// a stored column with a zone map.
func (r *execRun) topNZoneSkip() func(i int, acc *engine.Batch) bool {
	if r.host == nil {
		return nil
	}
	k0 := r.p.OrderBy[0]
	ref, ok := r.p.Project[k0.Col].(*engine.ColRef)
	if !ok || ref.Idx >= len(r.host.Cols) || r.host.ZoneMap(ref.Idx) == nil {
		return nil
	}
	return func(i int, acc *engine.Batch) bool {
		v, j := acc.Cols[k0.Col], acc.N-1
		if v.IsNull(j) {
			return false
		}
		bound := &engine.Const{T: v.T}
		switch engine.PhysOf(v.T.Kind) {
		case engine.PhysInt:
			bound.I = v.I[j]
		case engine.PhysDec:
			bound.D = v.D[j]
		default:
			return false
		}
		z, cmp := zoneBound(r.host, ref, bound)
		if z == nil {
			return false
		}
		m := i
		if r.live != nil {
			m = r.live[i]
		}
		lo := m * batchRows
		hi := min(lo+batchRows, r.rows)
		for zk := lo / engine.ZoneRows; zk <= (hi-1)/engine.ZoneRows; zk++ {
			if z.HasNull[zk] && k0.NullsFirst {
				return false // a NULL sorts before the bound
			}
			if z.AllNull[zk] {
				continue // NULLs last: none beats a value
			}
			// Rows beat the bound only by sorting strictly before it
			// on the first key, or by tying with it there.
			if k0.Desc && cmp(z.Max[zk]) >= 0 || !k0.Desc && cmp(z.Min[zk]) <= 0 {
				return false
			}
		}
		return true
	}
}

func anyCanFail(es []engine.Expr) bool {
	for _, e := range es {
		if eval.CanFail(e) {
			return true
		}
	}
	return false
}
