package cpu

import (
	"context"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/eval"
)

// setOp runs UNION, INTERSECT or EXCEPT [ALL] over two materialised
// sides, whose columns the binder cast to the common types. Rows compare
// as GROUP BY compares them (NULLs equal).
func (b *Backend) setOp(ctx context.Context, s *engine.SetOp) (*engine.HostTable, error) {
	l, err := b.materialize(ctx, s.Left)
	if err != nil {
		return nil, err
	}
	r, err := b.materialize(ctx, s.Right)
	if err != nil {
		return nil, err
	}
	lb, rb := wholeBatch(l), wholeBatch(r)
	ts := make([]engine.Type, len(s.Cols))
	for k, c := range s.Cols {
		ts[k] = c.Type
	}
	keyOf := func(bt *engine.Batch, i int, dst []byte) []byte {
		for _, v := range bt.Cols {
			dst = eval.AppendKey(dst, v, i)
		}
		return dst
	}
	var key []byte
	m := newMeter(ctx, "the rows of a set operation")
	// newKey charges a key the maps now hold (its bytes, a map slot)
	newKey := func(key []byte) error {
		if !m.on {
			return nil
		}
		return m.add(int64(len(key)) + 48)
	}
	if s.Op == engine.SetUnion {
		if !s.All {
			seen := map[string]bool{}
			var keepL, keepR []int32
			for i := 0; i < lb.N; i++ {
				key = keyOf(lb, i, key[:0])
				if !seen[string(key)] {
					seen[string(key)] = true
					keepL = append(keepL, int32(i))
					if err := newKey(key); err != nil {
						return nil, err
					}
				}
			}
			for i := 0; i < rb.N; i++ {
				key = keyOf(rb, i, key[:0])
				if !seen[string(key)] {
					seen[string(key)] = true
					keepR = append(keepR, int32(i))
					if err := newKey(key); err != nil {
						return nil, err
					}
				}
			}
			lb, rb = eval.GatherBatch(lb, keepL), eval.GatherBatch(rb, keepR)
		}
		return engine.HostFromBatches(ts, []*engine.Batch{lb, rb})
	}
	counts := map[string]int{}
	for j := 0; j < rb.N; j++ {
		key = keyOf(rb, j, key[:0])
		if counts[string(key)] == 0 {
			if err := newKey(key); err != nil {
				return nil, err
			}
		}
		counts[string(key)]++
	}
	seen := map[string]bool{}
	var keep []int32
	for i := 0; i < lb.N; i++ {
		if i%batchRows == 0 {
			if err := canceled(ctx); err != nil {
				return nil, err
			}
		}
		key = keyOf(lb, i, key[:0])
		k := string(key)
		switch {
		case s.Op == engine.SetIntersect && !s.All:
			if counts[k] > 0 && !seen[k] {
				keep = append(keep, int32(i))
			}
			seen[k] = true
		case s.Op == engine.SetIntersect:
			if counts[k] > 0 {
				counts[k]--
				keep = append(keep, int32(i))
			}
		case !s.All:
			if counts[k] == 0 && !seen[k] {
				keep = append(keep, int32(i))
			}
			seen[k] = true
		default:
			if counts[k] > 0 {
				counts[k]--
			} else {
				keep = append(keep, int32(i))
			}
		}
	}
	return engine.HostFromBatches(ts, []*engine.Batch{eval.GatherBatch(lb, keep)})
}

// wholeBatch reads every row of h as one batch.
func wholeBatch(h *engine.HostTable) *engine.Batch {
	n := int(h.N)
	out := &engine.Batch{N: n, Cols: make([]*engine.Vec, len(h.Cols))}
	for k, c := range h.Cols {
		out.Cols[k] = scanColumn(c, 0, n)
	}
	return out
}
