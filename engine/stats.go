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

// ColumnSampler is a backend that can bring the given rows of a column of
// its table data to the host: a table in parts gathers the sample of the
// whole table from its parts this way.
type ColumnSampler interface {
	SampleColumn(d TableData, col int, rows []int32) (*Column, error)
}

// SampleRows is how many rows a column's statistics are estimated from.
const SampleRows = 30000

// sampleRun is the length of the runs of consecutive rows in a sample.
const sampleRun = 8

// sampleLayout is how the sample of a column of n rows is made: singles
// evenly spaced rows, then runs runs of sampleRun consecutive rows, also
// evenly spaced. A column of at most SampleRows rows is its own sample.
//
// The single rows estimate the distinct values as a random sample would.
// A column stored in the order of its values (lineitem's l_orderkey, a
// few rows per key, the keys ascending) defeats them: rows far apart
// never share a value, so the column looks unique. The runs see how many
// rows a value takes where the rows lie together, which bounds the
// distinct values from above (a value in a random order takes one row of
// a run, and the bound says nothing), so the estimate is the smaller of
// the two.
func sampleLayout(n int64) (singles, runs int) {
	if n <= SampleRows {
		return int(n), 0
	}
	return SampleRows / 2, SampleRows / 2 / sampleRun
}

// sampleIndexes returns the row numbers of the sample of a column of n
// rows (sampleLayout).
func sampleIndexes(n int64) []int32 {
	singles, runs := sampleLayout(n)
	out := make([]int32, 0, singles+runs*sampleRun)
	for i := 0; i < singles; i++ {
		out = append(out, int32(int64(i)*n/int64(singles)))
	}
	for r := 0; r < runs; r++ {
		start := min((2*int64(r)+1)*n/(2*int64(runs)), n-sampleRun)
		for j := int64(0); j < sampleRun; j++ {
			out = append(out, int32(start+j))
		}
	}
	return out
}

// EstimateStats computes a column's statistics from sample, the rows
// sampleIndexes names of a column of n rows (a sample of another length
// is taken as evenly spaced rows).
func EstimateStats(sample *Column, n int64) ColumnStats {
	k := sample.Len
	if k == 0 || n == 0 {
		return ColumnStats{}
	}
	singles, runs := sampleLayout(n)
	if singles+runs*sampleRun != k {
		singles, runs = k, 0
	}
	// Each value becomes a 64-bit word (a number's float64 bits, a
	// string's hash), counted in an open-addressing table: no string per
	// value. The planner asks for these on every
	// statement over a new intermediate table (a join's output), so their
	// cost is paid per query.
	words := make([]uint64, k)
	null := make([]bool, k)
	seed := maphash.MakeSeed() // distinct strings collide with odds of about 2^-64 a pair
	nulls := 0
	lo, hi := math.Inf(1), math.Inf(-1)
	numeric := false
	for i := 0; i < k; i++ {
		if sample.IsNull(i) {
			null[i] = true
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
			words[i] = maphash.Bytes(seed, sample.StrAt(i))
			continue
		}
		numeric = true
		words[i] = math.Float64bits(x)
		lo, hi = min(lo, x), max(hi, x)
	}
	s := ColumnStats{NullFrac: float64(nulls) / float64(k)}
	if numeric && lo <= hi {
		s.Min, s.Max, s.HasRange = lo, hi, true
	}
	single := make([]uint64, 0, singles)
	for i := 0; i < singles; i++ {
		if !null[i] {
			single = append(single, words[i])
		}
	}
	nonNull := float64(len(single))
	if k == nulls {
		return s
	}
	total := float64(n) * (1 - s.NullFrac)
	d, f1 := distinctWords(single)
	switch {
	case int64(k) >= n:
		s.Distinct = d // the sample is the column
	case nonNull == 0:
		s.Distinct = total
	case f1 == nonNull:
		s.Distinct = total // every sampled value once: take it as unique
	default:
		// Haas and Stokes' Duj1 estimator.
		s.Distinct = nonNull * d / (nonNull - f1 + f1*nonNull/total)
	}
	if perRow, ok := runDistinct(words[singles:], null[singles:]); ok {
		s.Distinct = min(s.Distinct, total*perRow)
	}
	s.Distinct = max(1, min(s.Distinct, total))
	return s
}

// runDistinct is the distinct values per non-NULL row within the runs of
// sampleRun rows in words (0 where a run has none): at most 1, and about
// 1/m where each value takes m rows that lie together.
func runDistinct(words []uint64, null []bool) (float64, bool) {
	var vals, rows float64
	for r := 0; r+sampleRun <= len(words); r += sampleRun {
		for i := r; i < r+sampleRun; i++ {
			if null[i] {
				continue
			}
			rows++
			first := true
			for j := r; j < i; j++ {
				if !null[j] && words[j] == words[i] {
					first = false
					break
				}
			}
			if first {
				vals++
			}
		}
	}
	if rows == 0 {
		return 0, false
	}
	return vals / rows, true
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
