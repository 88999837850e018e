package eval

import (
	"math"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// TestIntervalSumAvg checks sum(interval) and avg(interval) against
// answers of PostgreSQL 15 (SELECT sum(x), avg(x) FROM (VALUES ...) v(x)).
func TestIntervalSumAvg(t *testing.T) {
	cases := []struct {
		in       []string
		sum, avg string // "ERROR" for 22008
	}{
		{[]string{"1 mon", "1 mon", "2 mons"}, "4 mons", "1 mon 10 days"},
		{[]string{"1 mon 1 day 00:00:00.000001", "0", "0", "0", "0", "0", "0"}, "1 mon 1 day 00:00:00.000001", "4 days 10:17:08.546743"},
		{[]string{"-7 mons -3 days -00:00:01", "0", "0"}, "-7 mons -3 days -00:00:01", "-2 mons -11 days -00:00:00.333333"},
		{[]string{"1 day", "1 day", "1 day", "0", "0", "0", "0"}, "3 days", "10:17:08.571429"},
		{[]string{"11 mons 29 days 23:59:59.999999", "0", "0"}, "11 mons 29 days 23:59:59.999999", "3 mons 29 days 24:00:00"},
		{[]string{"MAX"}, "178956970 years 7 mons 2147483647 days 2562047788:00:54.775807", "ERROR"},
		{[]string{"MAXUS"}, "2562047788:00:54.775807", "ERROR"},
		{[]string{"2147483647 mons"}, "178956970 years 7 mons", "178956970 years 7 mons"},
		{[]string{"MINDAYS"}, "1 mon -2147483648 days", "1 mon -2147483648 days"},
		{[]string{"2147483647 days", "1 day"}, "ERROR", "ERROR"},
		{[]string{"MINMONS", "-1 mon"}, "ERROR", "ERROR"},
		{[]string{"MAXUS", "00:00:00.000001"}, "ERROR", "ERROR"},
		{[]string{"MINUS", "-00:00:00.000001"}, "ERROR", "ERROR"},
		// a total in range: gpusql adds exactly (PostgreSQL's running sum
		// would fail in this order, not in another)
		{[]string{"2147483647 days", "1 day", "-1 day"}, "2147483647 days", "715827882 days 08:00:00.003433"}, // interval '2147483647 days' / 3,
	}
	text := func(v engine.IntervalVal, err error) string {
		if err != nil {
			if e, ok := err.(*engine.Error); !ok || e.Code != engine.CodeDatetimeFieldOverflow {
				t.Fatalf("error %v, want 22008", err)
			}
			return "ERROR"
		}
		return string(engine.AppendInterval(nil, v))
	}
	for _, c := range cases {
		var one, merged IntervalSum
		for i, s := range c.in {
			v, err := ParseInterval(s)
			switch s { // PostgreSQL's text forms of these, which ParseInterval refuses
			case "MAX":
				v, err = engine.IntervalVal{Months: math.MaxInt32, Days: math.MaxInt32, Micros: math.MaxInt64}, nil
			case "MAXUS":
				v, err = engine.IntervalVal{Micros: math.MaxInt64}, nil
			case "MINDAYS":
				v, err = engine.IntervalVal{Months: 1, Days: math.MinInt32}, nil
			case "MINMONS":
				v, err = engine.IntervalVal{Months: math.MinInt32}, nil
			case "MINUS":
				v, err = engine.IntervalVal{Micros: math.MinInt64}, nil
			}
			if err != nil {
				t.Fatalf("%q: %v", s, err)
			}
			one.Add(v)
			// the same values added in two parts and merged, as workers do
			var part IntervalSum
			part.Add(v)
			if i%2 == 0 {
				merged.Merge(&part)
			} else {
				part.Merge(&merged)
				merged = part
			}
		}
		if one != merged {
			t.Errorf("%v: merged state %+v, added %+v", c.in, merged, one)
		}
		if got := text(one.Interval()); got != c.sum {
			t.Errorf("sum%v = %s, want %s", c.in, got, c.sum)
		}
		if got := text(one.Avg(int64(len(c.in)))); got != c.avg {
			t.Errorf("avg%v = %s, want %s", c.in, got, c.avg)
		}
	}
}
