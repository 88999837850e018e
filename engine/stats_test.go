package engine

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// refStats is EstimateStats as first written: each value's exact bytes
// as a map key, and then the runs' bound the same way. The word-counting
// version must give the same estimates.
func refStats(sample *Column, n int64) ColumnStats {
	k := sample.Len
	singles, runs := sampleLayout(n)
	if singles+runs*sampleRun != k {
		singles, runs = k, 0
	}
	key := make([]string, k)
	nulls := 0
	lo, hi := math.Inf(1), math.Inf(-1)
	numeric := false
	for i := 0; i < k; i++ {
		if sample.IsNull(i) {
			nulls++
			continue
		}
		if sample.Str != nil {
			key[i] = "s" + string(sample.StrAt(i))
			continue
		}
		var x float64
		switch {
		case sample.I32 != nil:
			x = float64(sample.I32[i])
		case sample.I64 != nil:
			x = float64(sample.I64[i])
			if sample.Type.Kind == KindNumeric {
				x /= math.Pow10(sample.Type.Scale)
			}
		case sample.F64 != nil:
			x = sample.F64[i]
		}
		numeric = true
		key[i] = fmt.Sprint(math.Float64bits(x))
		lo, hi = min(lo, x), max(hi, x)
	}
	s := ColumnStats{NullFrac: float64(nulls) / float64(k)}
	if numeric && lo <= hi {
		s.Min, s.Max, s.HasRange = lo, hi, true
	}
	if nulls == k {
		return s
	}
	seen := map[string]int{}
	for i := 0; i < singles; i++ {
		if !sample.IsNull(i) {
			seen[key[i]]++
		}
	}
	nonNull := 0.0
	for _, c := range seen {
		nonNull += float64(c)
	}
	d, f1 := float64(len(seen)), 0.0
	for _, c := range seen {
		if c == 1 {
			f1++
		}
	}
	total := float64(n) * (1 - s.NullFrac)
	switch {
	case int64(k) >= n:
		s.Distinct = d
	case nonNull == 0:
		s.Distinct = total
	case f1 == nonNull:
		s.Distinct = total
	default:
		s.Distinct = nonNull * d / (nonNull - f1 + f1*nonNull/total)
	}
	var vals, rows float64
	for r := 0; r < runs; r++ {
		run := map[string]bool{}
		for i := singles + r*sampleRun; i < singles+(r+1)*sampleRun; i++ {
			if !sample.IsNull(i) {
				rows++
				run[key[i]] = true
			}
		}
		vals += float64(len(run))
	}
	if rows > 0 {
		s.Distinct = min(s.Distinct, total*vals/rows)
	}
	s.Distinct = max(1, min(s.Distinct, total))
	return s
}

// The estimates of columns whose rows come in several orders, sampled as
// the backends sample them, are near the true distinct counts: values in
// a random order, and values stored in runs (a key per few rows, keys
// ascending), which evenly spaced rows alone take for unique.
func TestEstimateStatsClustered(t *testing.T) {
	const n = 600_000
	rng := rand.New(rand.NewPCG(3, 4))
	cases := []struct {
		name     string
		distinct int
		value    func(i int) int64
	}{
		{"unique, ascending", n, func(i int) int64 { return int64(i) }},
		{"unique, shuffled", n, func(i int) int64 { return int64(i) * 7919 % n }},
		{"4 rows a key, ascending", n / 4, func(i int) int64 { return int64(i / 4 * 32) }},
		{"1 to 7 rows a key, ascending", 0, nil},
		{"3 values, random", 3, func(int) int64 { return rng.Int64N(3) }},
		{"2500 values, ascending", 2500, func(i int) int64 { return int64(i / (n / 2500)) }},
		{"150000 values, random", 0, func(int) int64 { return rng.Int64N(150_000) }},
	}
	for _, c := range cases {
		col := NewColumn(Int64, n, 0, false)
		if c.value == nil { // keys of 1 to 7 rows, as TPC-H's lineitem per order
			key, left := int64(0), 0
			for i := 0; i < n; i++ {
				if left == 0 {
					key, left = key+1, 1+rng.IntN(7)
					c.distinct++
				}
				col.I64[i] = key
				left--
			}
		} else {
			seen := map[int64]bool{}
			for i := 0; i < n; i++ {
				col.I64[i] = c.value(i)
				seen[col.I64[i]] = true
			}
			c.distinct = len(seen)
		}
		got := EstimateStats(col.Gather(sampleIndexes(n)), n).Distinct
		if r := got / float64(c.distinct); r < 0.7 || r > 1.4 {
			t.Errorf("%s: estimated %.0f distinct values, %d true", c.name, got, c.distinct)
		}
	}
}

func TestEstimateStatsMatchesExactCounting(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, k := range []int{1, 7, 1000, SampleRows} {
		for _, card := range []int{1, 3, 50, 5000, 1 << 40} {
			for _, nullEvery := range []int{0, 2, 9} {
				mk := func(t Type, width int) *Column {
					c := NewColumn(t, k, width, nullEvery > 0)
					for i := 0; i < k; i++ {
						v := rng.Int64N(int64(card)) - int64(card)/2
						switch {
						case c.Str != nil:
							b := []byte(fmt.Sprintf("v%x", v))
							if v%3 == 0 {
								b = b[:0] // the empty string is a value too
							}
							copy(c.Str[i*c.Width:(i+1)*c.Width], b)
						case c.I32 != nil:
							c.I32[i] = int32(v)
						case c.I64 != nil:
							c.I64[i] = v
						case c.F64 != nil:
							c.F64[i] = float64(v) / 4
							if v%5 == 0 {
								c.F64[i] = math.Copysign(0, -1) // -0: its own bits, as before
							}
						}
						if nullEvery > 0 && i%nullEvery == 0 {
							c.SetNull(i)
						}
					}
					return c
				}
				for _, c := range []*Column{
					mk(Text, 24), mk(Int64, 0), mk(Type{Kind: KindDate}, 0),
					mk(NumericType(12, 2), 0), mk(Type{Kind: KindFloat64}, 0),
				} {
					for _, n := range []int64{int64(k), int64(k) * 100} {
						got, want := EstimateStats(c, n), refStats(c, n)
						if got != want {
							t.Fatalf("%s, %d rows of %d (card %d, null every %d): got %+v, want %+v",
								c.Type, k, n, card, nullEvery, got, want)
						}
					}
				}
			}
		}
	}
}

func BenchmarkEstimateStatsText(b *testing.B) {
	c := NewColumn(Text, SampleRows, 40, false)
	for i := 0; i < SampleRows; i++ {
		copy(c.Str[i*c.Width:], fmt.Sprintf("customer address number %d", i*7919%20011))
	}
	for b.Loop() {
		EstimateStats(c, 1_000_000)
	}
}
