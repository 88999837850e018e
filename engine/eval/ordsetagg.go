package eval

import (
	"math"

	"github.com/gpusql/gpusql/engine"
)

// The ordered-set aggregates percentile_cont, percentile_disc and mode
// over one group's non-NULL values, sorted by the call's ORDER BY, as
// PostgreSQL's orderedsetaggs.c finishes them.

// CheckFraction is the percentile argument's check: a fraction between
// 0 and 1 (22003 otherwise).
func CheckFraction(f float64) error {
	if f < 0 || f > 1 || math.IsNaN(f) {
		return engine.Errorf(engine.CodeNumericValueOutOfRange, "percentile value %g is not between 0 and 1", f)
	}
	return nil
}

// PercentileDiscRow is the position (0-based) of percentile_disc(f) in
// n > 0 sorted values: the first value whose position is at least f*n.
func PercentileDiscRow(n int, f float64) int {
	row := int64(math.Ceil(f * float64(n)))
	if row <= 0 {
		row = 1
	}
	return int(row - 1)
}

// PercentileCont is percentile_cont(f) over n > 0 sorted values, at(i)
// giving the i-th: the two values around position f*(n-1), interpolated
// as float8_lerp does.
func PercentileCont(n int, f float64, at func(i int) float64) float64 {
	pos := f * float64(n-1)
	first := math.Floor(pos)
	second := math.Ceil(pos)
	lo := at(int(first))
	if second <= first {
		return lo
	}
	hi := at(int(second))
	return lo + float64((hi-lo)*(pos-first))
}

// ModeRow is the position of mode()'s value among sorted rows of v: the
// first value of the longest run of equal values (the earliest run wins
// a tie).
func ModeRow(v *engine.Vec, rows []int32) int {
	best, bestN := 0, 0
	for i := 0; i < len(rows); {
		j := i + 1
		for j < len(rows) && CompareSlot(v, int(rows[j]), v, int(rows[i])) == 0 {
			j++
		}
		if j-i > bestN {
			best, bestN = i, j-i
		}
		i = j
	}
	return best
}
