package multi

import (
	"math"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// A segment's distinct count scales to the table: all of a key's, none
// of a few-valued column's, and a share of one between.
func TestWholeStats(t *testing.T) {
	for _, c := range []struct {
		name       string
		st         engine.ColumnStats
		seg, total int64
		want       float64
	}{
		{"a key", engine.ColumnStats{Distinct: 1000}, 1000, 3000, 3000},
		{"a key with NULLs", engine.ColumnStats{Distinct: 500, NullFrac: 0.5}, 1000, 2000, 1000},
		{"25 nations", engine.ColumnStats{Distinct: 25}, 1_000_000, 2_000_000, 25 * (1 + 25.0/1_000_000)},
		{"half distinct", engine.ColumnStats{Distinct: 500}, 1000, 2000, 750},
		{"one part", engine.ColumnStats{Distinct: 10}, 100, 100, 10},
		{"no statistics", engine.ColumnStats{}, 100, 200, 0},
	} {
		got := wholeStats(c.st, c.seg, c.total).Distinct
		if math.Abs(got-c.want) > 1e-9*max(1, c.want) {
			t.Errorf("%s: distinct %v, want %v", c.name, got, c.want)
		}
	}
}
