package engine

import (
	"math"
	"testing"
)

// TestCivilTableMatchesComputed: the table CivilFromDays reads for the
// years 1900 to 2099 gives the computed dates, at its ends and past
// them, and DaysFromCivil inverts it.
func TestCivilTableMatchesComputed(t *testing.T) {
	first := DaysFromCivil(1900, 1, 1)
	end := DaysFromCivil(2100, 1, 1)
	check := func(days int32) {
		y, m, d := CivilFromDays(days)
		wy, wm, wd := civilFromDays(days)
		if y != wy || m != wm || d != wd {
			t.Fatalf("day %d: %d-%d-%d, computed %d-%d-%d", days, y, m, d, wy, wm, wd)
		}
		if days > -100_000_000 && days < 100_000_000 && DaysFromCivil(y, m, d) != days {
			t.Fatalf("day %d: %d-%d-%d does not map back", days, y, m, d)
		}
	}
	for days := first - 1000; days < end+1000; days++ {
		check(days)
	}
	for _, days := range []int32{0, -1, math.MaxInt32, math.MinInt32, math.MinInt32 + 1, 2145042905, -2440588} {
		check(days)
	}
	if y, m, d := CivilFromDays(first); y != 1900 || m != 1 || d != 1 {
		t.Fatalf("first day: %d-%d-%d", y, m, d)
	}
	if y, m, d := CivilFromDays(end - 1); y != 2099 || m != 12 || d != 31 {
		t.Fatalf("last day: %d-%d-%d", y, m, d)
	}
}
