package cpu

import (
	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/eval"
)

// mergePartBits is log2 of the number of partitions the workers' groups
// are split into for a parallel merge: enough for each partition's
// table to stay small and for the workers to share the partitions out.
const mergePartBits = 5

// mergeParallelMinGroups is the number of groups (over all workers)
// from which mergeByPartition pays for its hashing and gathering.
const mergeParallelMinGroups = 1 << 14

// canMergeByPartition reports whether aggs (one per worker, over
// consecutive ranges of the table) are better merged by mergeByPartition
// than one after the other: a grouped aggregate with many groups and no
// DISTINCT aggregates, whose (group, value) pairs merge through one set,
// on at least three workers. Merging in turn adds the groups of all
// workers but the first to its table, (w-1)/w of them, where the
// partitions add all the groups again, spread over w workers, and hash,
// gather and scatter them besides: with two workers that does not pay
// (measured on two cores with groups as many as rows). Groups indexed by
// the value of their key (groupIndex.setDirect) merge fastest in turn.
func canMergeByPartition(aggs []*aggregator) bool {
	if len(aggs) < 3 || len(aggs[0].plan.GroupBy) == 0 || aggs[0].index.dslots != nil {
		return false
	}
	for _, s := range aggs[0].states {
		if s.dist != nil || s.seen != nil {
			return false
		}
	}
	n := 0
	for _, a := range aggs {
		n += a.ng
	}
	return n >= mergeParallelMinGroups
}

// mergeByPartition merges the workers' aggregators aggs into the result
// batch (group keys, then the aggregates) on workers goroutines: each
// group goes to a partition by the hash of its keys, so equal keys of
// different workers meet in one partition, and every partition merges
// its groups in worker order into its own aggregator, as merge would.
// The groups then come out in the order merge gives them: worker 0's in
// its order, then each later worker's new ones in its order.
func mergeByPartition(aggs []*aggregator, workers int) (*engine.Batch, error) {
	const parts = 1 << mergePartBits
	// origin numbers every worker's groups consecutively, in worker order
	base := make([]int64, len(aggs)+1)
	for w, a := range aggs {
		base[w+1] = base[w] + int64(a.ng)
	}
	// rows[w][p]: worker w's groups in partition p, in group order
	rows := make([][][]int32, len(aggs))
	seed := eval.NewKeySeed()
	err := parallel(min(workers, len(aggs)), len(aggs), func(_, lo, hi int) error {
		var hs []uint64
		for w := lo; w < hi; w++ {
			a := aggs[w]
			hs = eval.HashKeys(hs, seed, a.keys, 0, a.ng)
			var counts [parts]int
			for _, h := range hs {
				counts[h>>(64-mergePartBits)]++
			}
			rows[w] = make([][]int32, parts)
			for p := range rows[w] {
				rows[w][p] = make([]int32, 0, counts[p])
			}
			for g, h := range hs {
				p := h >> (64 - mergePartBits)
				rows[w][p] = append(rows[w][p], int32(g))
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	results := make([]*engine.Batch, parts)
	origins := make([][]int64, parts)
	err = parallel(min(workers, parts), parts, func(_, lo, hi int) error {
		for p := lo; p < hi; p++ {
			size := 0
			for w := range aggs {
				size += len(rows[w][p])
			}
			m := newAggregator(aggs[0].plan)
			m.reserve(size)
			m.sharedKeys = true // the workers' keys are their own copies
			var origin []int64
			for w, o := range aggs {
				sel := rows[w][p]
				if len(sel) == 0 {
					continue
				}
				keys := make([]*engine.Vec, len(o.keys))
				for k, v := range o.keys {
					keys[k] = v.Gather(sel)
				}
				ids := make([]int32, len(sel))
				m.index.assign(m.keys, keys, 0, len(sel), ids, func(r int) int32 {
					origin = append(origin, base[w]+int64(sel[r]))
					return m.newGroup(keys, r)
				})
				m.growStates()
				for j, id := range ids {
					for k, s := range m.states {
						if err := s.mergeSlot(id, o.states[k], sel[j]); err != nil {
							return err
						}
					}
				}
			}
			res, err := m.result()
			if err != nil {
				return err
			}
			results[p], origins[p] = res, origin
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	// the merged groups in the order of their first origins: pos maps
	// each partition's groups, numbered across partitions, to their rows
	// of the output
	off := make([]int, parts+1)
	for p, res := range results {
		off[p+1] = off[p] + res.N
	}
	at := make([]int32, base[len(aggs)])
	for i := range at {
		at[i] = -1
	}
	for p, o := range origins {
		for i, r := range o {
			at[r] = int32(off[p] + i)
		}
	}
	pos := make([]int32, off[parts])
	k := int32(0)
	for _, g := range at {
		if g >= 0 {
			pos[g] = k
			k++
		}
	}
	out := &engine.Batch{N: off[parts]}
	for c, v := range results[0].Cols {
		o := engine.NewVec(v.T, out.N)
		for _, res := range results {
			if res.Cols[c].Null != nil {
				o.Null = make([]bool, out.N)
				break
			}
		}
		out.Cols = append(out.Cols, o)
	}
	err = parallel(min(workers, parts), parts, func(_, lo, hi int) error {
		for p := lo; p < hi; p++ {
			for c, v := range results[p].Cols {
				scatterVec(out.Cols[c], v, pos[off[p]:off[p+1]])
			}
		}
		return nil
	})
	return out, err
}

// scatterVec copies row i of src to row pos[i] of dst (same type, as
// long as needed). dst's NULL flags must be allocated before calls on
// several goroutines.
func scatterVec(dst, src *engine.Vec, pos []int32) {
	if src.Null != nil {
		scatter(dst.Null, src.Null, pos)
	}
	switch {
	case src.I != nil:
		scatter(dst.I, src.I, pos)
	case src.F != nil:
		scatter(dst.F, src.F, pos)
	case src.D != nil:
		scatter(dst.D, src.D, pos)
	case src.S != nil:
		scatter(dst.S, src.S, pos)
	case src.V != nil:
		scatter(dst.V, src.V, pos)
	}
}

// scatter copies src[i] to dst[pos[i]].
func scatter[T any](dst, src []T, pos []int32) {
	for i, p := range pos {
		dst[p] = src[i]
	}
}
