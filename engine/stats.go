package engine

import (
	"hash/maphash"
	"math"
	"sync"
)

// Column statistics for the planner: estimates of a column's distinct
// values, NULL fraction and value range, from an evenly spaced sample of
// its rows. A table version computes each column's once and keeps them
// (tables are immutable), so the planner can ask for them on every
// statement.

// ColumnStats estimates one column's contents.
type ColumnStats struct {
	// Distinct estimates the column's distinct non-NULL values.
	Distinct float64
	// NullFrac is the fraction of rows that are NULL.
	NullFrac float64
	// Min and Max bound the values as numbers (dates in days,
	// timestamps in microseconds, numerics by value), when HasRange.
	Min, Max float64
	HasRange bool
}

// Statser is table data that can describe its columns.
type Statser interface {
	ColumnStats(col int) ColumnStats
}

// StatsSource is a backend that can describe the columns of its table
// data (the GPU backend samples device columns).
type StatsSource interface {
	ColumnStats(d TableData, col int) ColumnStats
}

// SampleRows is how many rows a column's statistics are estimated from.
const SampleRows = 30000

// sampleIndexes returns up to SampleRows evenly spaced row numbers of n.
func sampleIndexes(n int64) []int32 {
	k := min(n, SampleRows)
	out := make([]int32, k)
	for i := range out {
		out[i] = int32(int64(i) * n / k)
	}
	return out
}

// EstimateStats computes a column's statistics from sample, k evenly
// spaced rows of a column of n rows.
func EstimateStats(sample *Column, n int64) ColumnStats {
	k := sample.Len
	if k == 0 || n == 0 {
		return ColumnStats{}
	}
	// Each value becomes a 64-bit word (a number's float64 bits, a
	// string's hash), counted in an open-addressing table: no string per
	// value. The planner asks for these on every
	// statement over a new intermediate table (a join's output), so their
	// cost is paid per query.
	words := make([]uint64, 0, k)
	seed := maphash.MakeSeed() // distinct strings collide with odds of about 2^-64 a pair
	nulls := 0
	lo, hi := math.Inf(1), math.Inf(-1)
	numeric := false
	for i := 0; i < k; i++ {
		if sample.IsNull(i) {
			nulls++
			continue
		}
		var x float64
		switch {
		case sample.B != nil:
			x = float64(sample.B[i])
		case sample.I16 != nil:
			x = float64(sample.I16[i])
		case sample.I32 != nil:
			x = float64(sample.I32[i])
		case sample.I64 != nil:
			x = float64(sample.I64[i])
			if sample.Type.Kind == KindNumeric {
				x /= math.Pow10(sample.Type.Scale)
			}
		case sample.F32 != nil:
			x = float64(sample.F32[i])
		case sample.F64 != nil:
			x = sample.F64[i]
		case sample.D != nil:
			x = sample.D[i].Float64()
		default:
			words = append(words, maphash.Bytes(seed, sample.StrAt(i)))
			continue
		}
		numeric = true
		words = append(words, math.Float64bits(x))
		lo, hi = min(lo, x), max(hi, x)
	}
	d, f1 := distinctWords(words)
	s := ColumnStats{NullFrac: float64(nulls) / float64(k)}
	if numeric && lo <= hi {
		s.Min, s.Max, s.HasRange = lo, hi, true
	}
	nonNull := float64(k - nulls)
	if nonNull == 0 {
		return s
	}
	total := float64(n) * (1 - s.NullFrac)
	switch {
	case int64(k) >= n:
		s.Distinct = d // the sample is the column
	case f1 == nonNull:
		s.Distinct = total // every sampled value once: take it as unique
	default:
		// Haas and Stokes' Duj1 estimator.
		s.Distinct = nonNull * d / (nonNull - f1 + f1*nonNull/total)
	}
	s.Distinct = max(1, min(s.Distinct, total))
	return s
}

// distinctWords counts the distinct words and those seen once.
func distinctWords(words []uint64) (d, f1 float64) {
	size := 16
	for size < 2*len(words) {
		size <<= 1
	}
	mask := uint64(size - 1)
	keys := make([]uint64, size)
	counts := make([]int32, size) // 0: an empty slot
	for _, w := range words {
		i := (w * 0x9e3779b97f4a7c15) >> 32 & mask
		for counts[i] != 0 && keys[i] != w {
			i = (i + 1) & mask
		}
		keys[i] = w
		counts[i]++
	}
	for _, c := range counts {
		if c > 0 {
			d++
		}
		if c == 1 {
			f1++
		}
	}
	return d, f1
}

// statsCache keeps a table's column statistics once computed.
type statsCache struct {
	mu   sync.Mutex
	cols map[int]ColumnStats
}

func (c *statsCache) get(col int, compute func() ColumnStats) ColumnStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.cols[col]; ok {
		return s
	}
	if c.cols == nil {
		c.cols = map[int]ColumnStats{}
	}
	s := compute()
	c.cols[col] = s
	return s
}

// ColumnStats estimates column col from a sample of its rows.
func (h *HostTable) ColumnStats(col int) ColumnStats {
	if h.stats == nil {
		return EstimateStats(h.Cols[col].Gather(sampleIndexes(h.N)), h.N)
	}
	return h.stats.get(col, func() ColumnStats {
		return EstimateStats(h.Cols[col].Gather(sampleIndexes(h.N)), h.N)
	})
}

// SampleIndexes returns the rows a table of n rows samples for its
// statistics (for backends that gather the sample themselves).
func SampleIndexes(n int64) []int32 { return sampleIndexes(n) }
