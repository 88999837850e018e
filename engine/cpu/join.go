package cpu

import (
	"context"
	"sync"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/eval"
)

// The hash join: the right side is built into a hash table on its keys,
// and the left side probes it, morsel by morsel on all workers. The
// matching pairs (row indexes into each side) are checked against the
// residual condition in batches, and the output columns are gathered by
// those indexes. Output order is deterministic: left rows in order, each
// followed by its right matches in right-row order; then, for RIGHT and
// FULL joins, the unmatched right rows in order.

// probeMorsel is how many left rows a worker probes at a time.
const probeMorsel = 1 << 16

// joinTable is the build side's hash table: rows with equal keys are
// chained in row order (head, next); a NULL key is in no chain. One
// integer-valued key whose values span a range not much wider than the
// build side (TPC-H's keys, most surrogate keys) indexes an array of
// chain heads by its value minus the smallest. Other keys use open
// addressing over chains: one integer-valued key is compared as the
// value itself; other keys are hashed in place (eval.HashKeys) and a
// chain's first row is compared with the probe row (eval.KeysEqual).
type joinTable struct {
	ints bool // one integer-valued key
	// direct: dhead[k-base] heads the chain of integer key k
	direct bool
	base   int64
	dhead  []int32
	mask   uint64
	slots  []joinSlot
	keys   []*engine.Vec
	seed   eval.KeySeed
	next   []int32
	// rows is the build side's row count; nulls whether a key was NULL.
	rows  int
	nulls bool
}

// joinSlot is one open-addressing slot: the key (ints) or the keys'
// hash, and the chain's first row (-1: empty).
type joinSlot struct {
	key  uint64
	head int32
}

// directSpan is how much wider than the build side an integer key's
// range may be for the array of chain heads.
const directSpan = 4

// keyCols evaluates key expressions over all rows of h.
func keyCols(ctx context.Context, keys []engine.Expr, h *engine.HostTable) ([]*engine.Vec, error) {
	out := make([]*engine.Vec, len(keys))
	n := int(h.N)
	used := usedColumns(len(h.Cols), keys...)
	for k, e := range keys {
		if c, ok := e.(*engine.ColRef); ok {
			out[k] = scanColumn(h.Cols[c.Idx], 0, n)
			continue
		}
		var parts []*engine.Vec
		for lo := 0; lo < n || lo == 0 && n == 0; lo += batchRows {
			if err := canceled(ctx); err != nil {
				return nil, err
			}
			hi := min(lo+batchRows, n)
			in := &engine.Batch{N: hi - lo, Cols: make([]*engine.Vec, len(h.Cols))}
			for c, col := range h.Cols {
				if used[c] {
					in.Cols[c] = scanColumn(col, lo, hi)
				}
			}
			v, err := eval.Eval(ctx, e, in)
			if err != nil {
				return nil, err
			}
			parts = append(parts, v)
			if n == 0 {
				break
			}
		}
		var acc *engine.Batch
		for _, p := range parts {
			acc = appendBatch(acc, &engine.Batch{N: p.N, Cols: []*engine.Vec{p}})
		}
		out[k] = acc.Cols[0]
	}
	return out, nil
}

// intKey reports whether keys are one integer-valued vector (integers,
// dates, timestamps, booleans).
func intKey(keys []*engine.Vec) bool {
	return len(keys) == 1 && engine.PhysOf(keys[0].T.Kind) == engine.PhysInt
}

func hash64(x uint64) uint64 { return eval.Mix64(x) }

// anyNull reports whether a key of row i is NULL.
func anyNull(keys []*engine.Vec, i int) bool {
	for _, v := range keys {
		if v.IsNull(i) {
			return true
		}
	}
	return false
}

// joinTableBytes is the size of a join table over n build rows.
func joinTableBytes(n int) int64 {
	size := 16
	for size < 2*n {
		size *= 2
	}
	return int64(size)*12 + int64(n)*12
}

// newJoinTable hashes the build side's key vectors (n rows).
func newJoinTable(keys []*engine.Vec, n int) *joinTable {
	t := &joinTable{rows: n, next: make([]int32, n), keys: keys, ints: intKey(keys)}
	if t.ints && t.buildDirect(keys[0], n) {
		return t
	}
	size := 16
	for size < 2*n {
		size *= 2
	}
	t.mask = uint64(size - 1)
	t.slots = make([]joinSlot, size)
	for i := range t.slots {
		t.slots[i].head = -1
	}
	var hs []uint64
	if t.ints {
		hs = make([]uint64, n)
		for i, x := range keys[0].I[:n] {
			hs[i] = uint64(x)
		}
	} else {
		t.seed = eval.NewKeySeed()
		hs = eval.HashKeys(nil, t.seed, keys, 0, n)
	}
	// rows in reverse, each put at the head of its chain: chains come out
	// in row order
	for i := n - 1; i >= 0; i-- {
		if anyNull(keys, i) {
			t.nulls = true
			t.next[i] = -1
			continue
		}
		k := hs[i]
		s := hash64(k) & t.mask
		if t.ints {
			for t.slots[s].head >= 0 && t.slots[s].key != k {
				s = (s + 1) & t.mask
			}
		} else {
			for t.slots[s].head >= 0 && (t.slots[s].key != k || !eval.KeysEqual(keys, int(t.slots[s].head), keys, i)) {
				s = (s + 1) & t.mask
			}
		}
		t.slots[s].key = k
		t.next[i] = t.slots[s].head
		t.slots[s].head = int32(i)
	}
	return t
}

// buildDirect builds the array of chain heads of integer key v when its
// values span at most directSpan times the build side's rows (plus a
// little); false leaves t to the hash table.
func (t *joinTable) buildDirect(v *engine.Vec, n int) bool {
	lo, hi, any := int64(0), int64(0), false
	for i, x := range v.I[:n] {
		if v.IsNull(i) {
			continue
		}
		if !any {
			lo, hi, any = x, x, true
			continue
		}
		lo, hi = min(lo, x), max(hi, x)
	}
	span := uint64(hi) - uint64(lo) // hi - lo, exact since hi >= lo
	if span >= uint64(directSpan)*uint64(n)+1024 {
		return false
	}
	t.direct, t.base = true, lo
	t.dhead = make([]int32, span+1)
	if !any {
		t.dhead = t.dhead[:0]
	}
	for i := range t.dhead {
		t.dhead[i] = -1
	}
	for i := n - 1; i >= 0; i-- {
		if v.IsNull(i) {
			t.nulls = true
			t.next[i] = -1
			continue
		}
		d := uint64(v.I[i]) - uint64(lo)
		t.next[i] = t.dhead[d]
		t.dhead[d] = int32(i)
	}
	return true
}

// probeHashes returns what first needs of probe rows [lo, hi): their
// keys' hashes, or nil for an integer key (compared as itself).
func (t *joinTable) probeHashes(keys []*engine.Vec, lo, hi int, buf []uint64) []uint64 {
	if t.ints {
		return nil
	}
	return eval.HashKeys(buf, t.seed, keys, lo, hi-lo)
}

// first returns the first build row whose key equals probe row i's (-1:
// none, or a NULL key); h is the row's hash from probeHashes.
func (t *joinTable) first(keys []*engine.Vec, i int, h uint64) int32 {
	if anyNull(keys, i) {
		return -1
	}
	if t.direct {
		d := uint64(keys[0].I[i]) - uint64(t.base)
		if d >= uint64(len(t.dhead)) {
			return -1
		}
		return t.dhead[d]
	}
	if t.ints {
		k := uint64(keys[0].I[i])
		s := hash64(k) & t.mask
		for t.slots[s].head >= 0 {
			if t.slots[s].key == k {
				return t.slots[s].head
			}
			s = (s + 1) & t.mask
		}
		return -1
	}
	s := hash64(h) & t.mask
	for head := t.slots[s].head; head >= 0; head = t.slots[s].head {
		if t.slots[s].key == h && eval.KeysEqual(t.keys, int(head), keys, i) {
			return head
		}
		s = (s + 1) & t.mask
	}
	return -1
}

// joinPart is one probe morsel's output.
type joinPart struct {
	li, ri []int32
	// matched marks, for RIGHT and FULL joins, the right rows a pair of
	// this morsel matched.
	matched []bool
}

// join runs a Join node.
// need marks the output columns the caller reads (nil: all).
func (b *Backend) join(ctx context.Context, j *engine.Join, need []bool) (*engine.HostTable, error) {
	needL, needR := joinSideCols(j, need)
	l, err := b.materializeCols(ctx, j.Left, needL)
	if err != nil {
		return nil, err
	}
	r, err := b.materializeCols(ctx, j.Right, needR)
	if err != nil {
		return nil, err
	}
	nl, nr := int(l.N), int(r.N)
	var t *joinTable
	var lk []*engine.Vec
	if len(j.LeftKeys) > 0 {
		rk, err := keyCols(ctx, j.RightKeys, r)
		if err != nil {
			return nil, err
		}
		if lk, err = keyCols(ctx, j.LeftKeys, l); err != nil {
			return nil, err
		}
		if err := engine.ChargeMemory(ctx, joinTableBytes(nr)+vecsBytes(nr, rk...)+vecsBytes(nl, lk...), "the hash table of a join"); err != nil {
			return nil, err
		}
		t = newJoinTable(rk, nr)
	}
	if j.Kind == engine.JoinAntiNull {
		switch {
		case nr == 0:
			return l, nil
		case t.nulls:
			return engine.EmptyHost(j.Columns()), nil
		}
	}
	trackRight := j.Kind == engine.JoinRight || j.Kind == engine.JoinFull
	morsels := (nl + probeMorsel - 1) / probeMorsel
	parts := make([]joinPart, morsels)
	workers := max(1, min(b.workers, morsels))
	var next int
	var mu sync.Mutex
	err = parallel(workers, workers, func(w, _, _ int) error {
		var hbuf []uint64
		pm := newMeter(ctx, "the row pairs of a join")
		for {
			mu.Lock()
			m := next
			next++
			mu.Unlock()
			if m >= morsels {
				return nil
			}
			if err := canceled(ctx); err != nil {
				return err
			}
			lo, hi := m*probeMorsel, min((m+1)*probeMorsel, nl)
			part, err := b.probe(ctx, j, l, r, t, lk, lo, hi, trackRight, &hbuf, pm)
			if err != nil {
				return err
			}
			parts[m] = part
		}
	})
	if err != nil {
		return nil, err
	}
	var li, ri []int32
	total := 0
	for _, p := range parts {
		total += len(p.li)
	}
	// the pairs once more, and the joined rows gathered from them
	var width int64
	for _, c := range l.Cols {
		width += engine.SlotBytes(c.Type)
	}
	for _, c := range r.Cols {
		width += engine.SlotBytes(c.Type)
	}
	if err := engine.ChargeMemory(ctx, int64(total)*(8+width), "the rows of a join"); err != nil {
		return nil, err
	}
	li = make([]int32, 0, total)
	ri = make([]int32, 0, total)
	for _, p := range parts {
		li = append(li, p.li...)
		ri = append(ri, p.ri...)
	}
	if trackRight {
		matched := make([]bool, nr)
		for _, p := range parts {
			for k, m := range p.matched {
				if m {
					matched[k] = true
				}
			}
		}
		for k, m := range matched {
			if !m {
				li, ri = append(li, -1), append(ri, int32(k))
			}
		}
	}
	return gatherJoin(j, l, r, li, ri, need), nil
}

// joinSideCols marks the columns each side of j must fill: those the
// caller reads (need) and those of the keys and the residual condition.
// Nil marks all.
func joinSideCols(j *engine.Join, need []bool) (needL, needR []bool) {
	nl, nr := len(j.Left.Columns()), len(j.Right.Columns())
	semi := j.Kind == engine.JoinSemi || j.Kind == engine.JoinAnti || j.Kind == engine.JoinAntiNull
	keysL := neededColumns(nl, j.LeftKeys...)
	keysR := neededColumns(nr, j.RightKeys...)
	res := neededColumns(nl+nr, j.Residual)
	if keysL == nil || keysR == nil || res == nil {
		return nil, nil
	}
	needL, needR = make([]bool, nl), make([]bool, nr)
	for i := range needL {
		needL[i] = need == nil || i >= len(need) || need[i] || keysL[i] || res[i]
	}
	for i := range needR {
		needR[i] = keysR[i] || res[nl+i] || !semi && (need == nil || nl+i >= len(need) || need[nl+i])
	}
	return needL, needR
}

// probe finds the output pairs of left rows [lo, hi).
func (b *Backend) probe(ctx context.Context, j *engine.Join, l, r *engine.HostTable, t *joinTable, lk []*engine.Vec,
	lo, hi int, trackRight bool, hbuf *[]uint64, m *meter) (joinPart, error) {
	var part joinPart
	nr := int(r.N)
	var hs []uint64
	if t != nil {
		hs = t.probeHashes(lk, lo, hi, *hbuf)
		*hbuf = hs
	}
	// candidate pairs, about one a row for the common key-to-key join
	cl, cr := make([]int32, 0, hi-lo), make([]int32, 0, hi-lo)
	counted := 0 // pairs charged
	for i := lo; i < hi; i++ {
		if m.on {
			if err := m.add(8 * int64(len(cl)-counted)); err != nil {
				return part, err
			}
			counted = len(cl)
		}
		if t == nil { // no keys: every pair
			for k := 0; k < nr; k++ {
				cl, cr = append(cl, int32(i)), append(cr, int32(k))
			}
			if len(cl) > 1<<22 && j.Residual != nil {
				// filter as we go, so a cross join with a condition
				// keeps few pairs in memory
				var err error
				if cl, cr, err = residual(ctx, j, l, r, cl, cr); err != nil {
					return part, err
				}
			}
			continue
		}
		var h uint64
		if hs != nil {
			h = hs[i-lo]
		}
		for k := t.first(lk, i, h); k >= 0; k = t.next[k] {
			cl, cr = append(cl, int32(i)), append(cr, k)
		}
	}
	if j.Residual != nil {
		var err error
		if cl, cr, err = residual(ctx, j, l, r, cl, cr); err != nil {
			return part, err
		}
	}
	if trackRight {
		part.matched = make([]bool, nr)
		for _, k := range cr {
			part.matched[k] = true
		}
	}
	switch j.Kind {
	case engine.JoinInner, engine.JoinRight:
		part.li, part.ri = cl, cr
	case engine.JoinLeft, engine.JoinFull:
		// each left row's pairs, or the row with NULLs
		k := 0
		for i := lo; i < hi; i++ {
			found := false
			for k < len(cl) && int(cl[k]) == i {
				part.li, part.ri = append(part.li, cl[k]), append(part.ri, cr[k])
				k++
				found = true
			}
			if !found {
				part.li, part.ri = append(part.li, int32(i)), append(part.ri, -1)
			}
		}
	case engine.JoinSemi:
		for k := range cl {
			if k == 0 || cl[k] != cl[k-1] {
				part.li = append(part.li, cl[k])
			}
		}
	case engine.JoinAnti, engine.JoinAntiNull:
		k := 0
		for i := lo; i < hi; i++ {
			found := false
			for k < len(cl) && int(cl[k]) == i {
				k++
				found = true
			}
			if !found && (j.Kind == engine.JoinAnti || !lk[0].IsNull(i)) {
				part.li = append(part.li, int32(i))
			}
		}
	}
	return part, nil
}

// residual keeps the pairs (cl[k], cr[k]) for which the join's residual
// condition is true, in order.
func residual(ctx context.Context, j *engine.Join, l, r *engine.HostTable, cl, cr []int32) ([]int32, []int32, error) {
	nlc := len(l.Cols)
	used := usedColumns(nlc+len(r.Cols), j.Residual)
	ol, or := cl[:0:0], cr[:0:0]
	bufs := newScanBufs(len(used)) // the batches do not outlive the filter
	for lo := 0; lo < len(cl); lo += batchRows {
		if err := canceled(ctx); err != nil {
			return nil, nil, err
		}
		hi := min(lo+batchRows, len(cl))
		in := &engine.Batch{N: hi - lo, Cols: make([]*engine.Vec, nlc+len(r.Cols))}
		for c := range in.Cols {
			if !used[c] {
				continue
			}
			if c < nlc {
				in.Cols[c] = scanRows(l.Cols[c], 0, 0, cl[lo:hi], &bufs.rest[c])
			} else {
				in.Cols[c] = scanRows(r.Cols[c-nlc], 0, 0, cr[lo:hi], &bufs.rest[c])
			}
		}
		sel, err := filter(ctx, j.Residual, in)
		if err != nil {
			return nil, nil, err
		}
		for _, k := range sel {
			ol, or = append(ol, cl[lo+int(k)]), append(or, cr[lo+int(k)])
		}
	}
	return ol, or, nil
}

// gatherJoin builds the join's output table from the pairs: the columns
// need marks (nil: all), the others without storage (noColumn).
func gatherJoin(j *engine.Join, l, r *engine.HostTable, li, ri []int32, need []bool) *engine.HostTable {
	var srcs []*engine.Column
	var idx [][]int32
	for _, c := range l.Cols {
		srcs, idx = append(srcs, c), append(idx, li)
	}
	switch j.Kind {
	case engine.JoinSemi, engine.JoinAnti, engine.JoinAntiNull:
	default:
		for _, c := range r.Cols {
			srcs, idx = append(srcs, c), append(idx, ri)
		}
	}
	out := &engine.HostTable{N: int64(len(li)), Cols: make([]*engine.Column, len(srcs))}
	var wg sync.WaitGroup
	for k := range srcs {
		if need != nil && k < len(need) && !need[k] {
			out.Cols[k] = noColumn(srcs[k].Type, len(li))
			continue
		}
		wg.Add(1)
		go func(k int) {
			defer wg.Done()
			out.Cols[k] = srcs[k].Gather(idx[k])
		}(k)
	}
	wg.Wait()
	return out
}
