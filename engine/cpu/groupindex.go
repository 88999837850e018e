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
	slots  []int32  // group id + 1; 0 is an empty slot
	hashes []uint64 // each group's hash, for growing and for cheap misses
	mask   uint64
	hbuf   []uint64
}

func newGroupIndex() *groupIndex {
	x := &groupIndex{seed: eval.NewKeySeed()}
	x.resize(1024)
	return x
}

func (x *groupIndex) resize(size int) {
	x.slots = make([]int32, size)
	x.mask = uint64(size - 1)
	for g, h := range x.hashes {
		s := h & x.mask
		for x.slots[s] != 0 {
			s = (s + 1) & x.mask
		}
		x.slots[s] = int32(g + 1)
	}
}

// assign sets ids[i] to the group of key row lo+i of keys, for n rows,
// calling add(row) to make a group for each key not seen before, which
// must append the row to groups.
func (x *groupIndex) assign(groups, keys []*engine.Vec, lo, n int, ids []int32, add func(row int) int32) {
	hs := eval.HashKeys(x.hbuf, x.seed, keys, lo, n)
	x.hbuf = hs
	oneInt := len(keys) == 1 && engine.PhysOf(keys[0].T.Kind) == engine.PhysInt && keys[0].Null == nil
	for i, h := range hs {
		row := lo + i
		s := h & x.mask
		for {
			g := x.slots[s]
			if g == 0 {
				id := add(row)
				x.slots[s] = id + 1
				x.hashes = append(x.hashes, h)
				if 2*len(x.hashes) > len(x.slots) {
					x.resize(2 * len(x.slots))
				}
				ids[i] = id
				break
			}
			if x.hashes[g-1] == h {
				if oneInt {
					gk := groups[0]
					if !gk.IsNull(int(g-1)) && gk.I[g-1] == keys[0].I[row] {
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
