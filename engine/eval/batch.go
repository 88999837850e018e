package eval

import (
	"encoding/binary"
	"math"
	"sort"

	"github.com/gpusql/gpusql/engine"
)

// Host-side batch operations shared by the backends: ORDER BY, DISTINCT and
// the encoding of grouping keys. Both backends must order, deduplicate and
// group exactly alike, so there is one copy.

// SortBatch orders rows by keys, stable, with PostgreSQL's NULL placement.
func SortBatch(b *engine.Batch, keys []engine.SortKey) *engine.Batch {
	idx := make([]int32, b.N)
	for i := range idx {
		idx[i] = int32(i)
	}
	SortRows(idx, b.Cols, keys)
	return GatherBatch(b, idx)
}

// SortRows orders the row numbers idx of the vectors cols by keys (whose
// Col index cols), stable, with PostgreSQL's NULL placement. The ORDER BY
// of a query and of an aggregate call (string_agg) sort alike.
func SortRows(idx []int32, cols []*engine.Vec, keys []engine.SortKey) {
	sort.SliceStable(idx, func(x, y int) bool {
		i, j := int(idx[x]), int(idx[y])
		for _, k := range keys {
			v := cols[k.Col]
			ni, nj := v.IsNull(i), v.IsNull(j)
			if ni || nj {
				if ni == nj {
					continue
				}
				return ni == k.NullsFirst
			}
			c := CompareSlot(v, i, v, j)
			if c == 0 {
				continue
			}
			if k.Desc {
				return c > 0
			}
			return c < 0
		}
		return false
	})
}

// DistinctBatch keeps the first row of each set of equal visible values.
func DistinctBatch(b *engine.Batch, visible int) *engine.Batch {
	seen := map[string]struct{}{}
	var key []byte
	sel := make([]int32, 0, b.N)
	for i := 0; i < b.N; i++ {
		key = key[:0]
		for _, v := range b.Cols[:visible] {
			key = AppendKey(key, v, i)
		}
		if _, ok := seen[string(key)]; ok {
			continue
		}
		seen[string(key)] = struct{}{}
		sel = append(sel, int32(i))
	}
	return GatherBatch(b, sel)
}

// AppendKey encodes row i of v so that equal values encode equally.
func AppendKey(dst []byte, v *engine.Vec, i int) []byte {
	if v.IsNull(i) {
		return append(dst, 0)
	}
	dst = append(dst, 1)
	switch engine.PhysOf(v.T.Kind) {
	case engine.PhysInt:
		return binary.LittleEndian.AppendUint64(dst, uint64(v.I[i]))
	case engine.PhysFloat:
		f := v.F[i]
		if f == 0 {
			f = 0 // -0 groups with 0
		}
		if f != f {
			f = math.NaN()
		}
		return binary.LittleEndian.AppendUint64(dst, math.Float64bits(f))
	case engine.PhysDec:
		d := normDec(v.D[i])
		dst = binary.LittleEndian.AppendUint64(dst, uint64(d.Hi))
		dst = binary.LittleEndian.AppendUint64(dst, d.Lo)
		return binary.LittleEndian.AppendUint32(dst, uint32(d.Scale))
	case engine.PhysStr:
		dst = binary.LittleEndian.AppendUint32(dst, uint32(len(v.S[i])))
		return append(dst, v.S[i]...)
	case engine.PhysInterval:
		// PostgreSQL's interval equality: '1 mon' = '30 days'.
		days, us := v.V[i].Span()
		dst = binary.LittleEndian.AppendUint64(dst, uint64(days))
		return binary.LittleEndian.AppendUint64(dst, uint64(us))
	}
	return dst
}

// normDec strips trailing zero digits so that 1.50 and 1.5 group together.
func normDec(d engine.Dec) engine.Dec {
	for d.Scale > 0 {
		r := d.Round(d.Scale - 1)
		back, ok := r.Rescale(d.Scale)
		if !ok || engine.DecCmp(back, d) != 0 || back != d {
			break
		}
		d = r
	}
	return d
}
