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
	seed   eval.KeySeed
	slots  []groupSlot
	hashes []uint64 // each group's hash, for growing
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
	x.slots = make([]groupSlot, size)
	x.mask = uint64(size - 1)
	for g, h := range x.hashes {
		s := h & x.mask
		for x.slots[s].id != 0 {
			s = (s + 1) & x.mask
		}
		x.slots[s] = groupSlot{hash: h, id: int32(g + 1)}
	}
}

// assign sets ids[i] to the group of key row lo+i of keys, for n rows,
// calling add(row) to make a group for each key not seen before, which
// must append the row to groups. A row with the same keys as the row
// before it (sorted or clustered input) takes its group without a lookup.
func (x *groupIndex) assign(groups, keys []*engine.Vec, lo, n int, ids []int32, add func(row int) int32) {
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
				x.hashes = append(x.hashes, h)
				if 2*len(x.hashes) > len(x.slots) {
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
