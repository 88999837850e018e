package cpu

import (
	"github.com/gpusql/gpusql/engine"
)

// distinctSet is a DISTINCT aggregate's set of (group, value) pairs: a
// groupIndex over typed key vectors, so values are hashed and compared
// in place, with no per-row key bytes (the values group as GROUP BY
// groups them: 1.0 with 1.00, -0 with 0, NULL with NULL).
type distinctSet struct {
	index   *groupIndex
	keys    []*engine.Vec // the pairs, one row each: [group ids (int64),] values
	grouped bool          // pairs carry the group id (a grouped aggregate)
	n       int
	gids    *engine.Vec // a batch's group ids
	slots   []int32
	fresh   []bool
	arena   byteArena
}

func newDistinctSet(argT engine.Type, grouped bool) *distinctSet {
	d := &distinctSet{index: newGroupIndex(), grouped: grouped}
	if grouped {
		d.keys = append(d.keys, engine.NewVec(engine.Int64, 0))
		d.gids = engine.NewVec(engine.Int64, 0)
	}
	d.keys = append(d.keys, engine.NewVec(argT, 0))
	if !grouped && engine.PhysOf(argT.Kind) == engine.PhysInt {
		d.index.intSlots()
	}
	if grouped {
		// group ids fit in 32 bits
		d.index.pairSlotsFor(engine.Int32, argT)
	}
	return d
}

// insert adds the pairs (ids[i], arg row i) for n rows and returns which
// rows brought a pair not seen before (the first of equal ones in a
// batch). The slice is reused by the next call.
func (d *distinctSet) insert(ids []int32, arg *engine.Vec, n int) []bool {
	batch := []*engine.Vec{arg}
	if d.grouped {
		if cap(d.gids.I) < n {
			d.gids.I = make([]int64, n)
		}
		d.gids.I, d.gids.N = d.gids.I[:n], n
		for i, g := range ids[:n] {
			d.gids.I[i] = int64(g)
		}
		batch = []*engine.Vec{d.gids, arg}
	}
	if cap(d.fresh) < n {
		d.fresh = make([]bool, n)
		d.slots = make([]int32, n)
	}
	fresh := d.fresh[:n]
	clear(fresh)
	d.index.assign(d.keys, batch, 0, n, d.slots[:n], func(row int) int32 {
		for k, v := range batch {
			roomVec(d.keys[k])
			appendKey(d.keys[k], v, row, &d.arena)
		}
		fresh[row] = true
		d.n++
		return int32(d.n - 1)
	})
	return fresh
}

// mergeable reports whether a DISTINCT aggregate's per-worker sets can be
// merged (each worker's new pairs replayed into the first's): where the
// result does not depend on the order values arrive in.
func mergeableDistinct(c engine.AggCall) bool {
	p := engine.PhysOf(c.Arg.Type().Kind)
	switch c.Func {
	case engine.AggCount:
		return true
	case engine.AggMin, engine.AggMax: // not floats: -0 and 0 are one value, and the first met would win
		return p != engine.PhysFloat
	case engine.AggSum, engine.AggAvg:
		return p == engine.PhysInt || p == engine.PhysDec
	}
	return false
}
