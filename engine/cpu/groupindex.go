package cpu

import (
	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/eval"
)

// groupIndex maps GROUP BY key rows to dense group ids. It is an open-
// addressing table of group ids whose keys stay in the aggregator's typed
// key vectors (one row per group), so a lookup hashes the row's keys in
// place and compares them with a group's row: no key is encoded into
// bytes or allocated.
type groupIndex struct {
	// dslots, when set, index the groups of one integer key by its value
	// minus base (group id + 1; 0: none yet): keys in that range skip
	// hashing. NULL and keys outside it use the table.
	dslots []int32
	base   int64
	seed   eval.KeySeed
	slots  []groupSlot
	used   int // slots in use
	mask   uint64
	hbuf   []uint64
}

// groupSlot is one slot of the table: a group's hash beside its id, so
// that a miss costs one memory access.
type groupSlot struct {
	hash uint64
	id   int32 // group id + 1; 0 is an empty slot
}

func newGroupIndex() *groupIndex {
	x := &groupIndex{seed: eval.NewKeySeed()}
	x.resize(1024)
	return x
}

func (x *groupIndex) resize(size int) {
	old := x.slots
	x.slots = make([]groupSlot, size)
	x.mask = uint64(size - 1)
	for _, sl := range old {
		if sl.id == 0 {
			continue
		}
		s := sl.hash & x.mask
		for x.slots[s].id != 0 {
			s = (s + 1) & x.mask
		}
		x.slots[s] = sl
	}
}

// assign sets ids[i] to the group of key row lo+i of keys, for n rows,
// calling add(row) to make a group for each key not seen before, which
// must append the row to groups. A row with the same keys as the row
// before it (sorted or clustered input) takes its group without a lookup.
func (x *groupIndex) assign(groups, keys []*engine.Vec, lo, n int, ids []int32, add func(row int) int32) {
	if x.dslots != nil {
		x.assignDirect(groups, keys, lo, n, ids, add)
		return
	}
	hs := eval.HashKeys(x.hbuf, x.seed, keys, lo, n)
	x.hbuf = hs
	oneInt := len(keys) == 1 && engine.PhysOf(keys[0].T.Kind) == engine.PhysInt && keys[0].Null == nil
	var ki []int64
	if oneInt {
		ki = keys[0].I
	}
	for i, h := range hs {
		row := lo + i
		if i > 0 && h == hs[i-1] {
			if oneInt && ki[row] == ki[row-1] || !oneInt && eval.KeysEqual(keys, row, keys, row-1) {
				ids[i] = ids[i-1]
				continue
			}
		}
		s := h & x.mask
		for {
			sl := x.slots[s]
			if sl.id == 0 {
				id := add(row)
				x.slots[s] = groupSlot{hash: h, id: id + 1}
				x.used++
				if 2*x.used > len(x.slots) {
					x.resize(2 * len(x.slots))
				}
				ids[i] = id
				break
			}
			if sl.hash == h {
				g := sl.id
				if oneInt {
					gk := groups[0]
					if !gk.IsNull(int(g-1)) && gk.I[g-1] == ki[row] {
						ids[i] = g - 1
						break
					}
				} else if eval.KeysEqual(groups, int(g-1), keys, row) {
					ids[i] = g - 1
					break
				}
			}
			s = (s + 1) & x.mask
		}
	}
}

// directGroupSpan bounds the range of key values that setDirect accepts.
const directGroupSpan = 1 << 24

// setDirect makes x index integer keys in [lo, hi] by value, where that
// range is small enough; it reports whether it did. It must be called
// before any assign.
func (x *groupIndex) setDirect(lo, hi int64, rows int) bool {
	span := uint64(hi) - uint64(lo) // hi >= lo
	if hi < lo || span >= directGroupSpan || span > 2*uint64(rows)+1024 {
		return false
	}
	x.dslots, x.base = make([]int32, span+1), lo
	return true
}

// assignDirect is assign for an index with dslots: each key of the range
// finds its group by value; other rows go through the hash table one by
// one. A key always takes the same path, so it has one group.
func (x *groupIndex) assignDirect(groups, keys []*engine.Vec, lo, n int, ids []int32, add func(row int) int32) {
	v := keys[0]
	for i := 0; i < n; i++ {
		row := lo + i
		if !v.IsNull(row) {
			if d := uint64(v.I[row]) - uint64(x.base); d < uint64(len(x.dslots)) {
				g := x.dslots[d]
				if g == 0 {
					g = add(row) + 1
					x.dslots[d] = g
				}
				ids[i] = g - 1
				continue
			}
		}
		dslots := x.dslots
		x.dslots = nil
		x.assign(groups, keys, row, 1, ids[i:i+1], add)
		x.dslots = dslots
	}
}
