package eval

import (
	"math"

	"github.com/gpusql/gpusql/engine"
)

func evalDatetime(e *engine.Call, args []*engine.Vec, n int) (*engine.Vec, error) {
	out := engine.NewVec(e.T, n)
	out.Null = orNulls(n, args...)
	for i := 0; i < n; i++ {
		if out.Null != nil && out.Null[i] {
			continue
		}
		switch e.Op {
		case engine.OpDateAddInt, engine.OpDateSubInt:
			d := args[1].I[i]
			if e.Op == engine.OpDateSubInt {
				d = -d
			}
			r := args[0].I[i] + d
			if r < minDate || r > maxDate {
				return nil, engine.Errorf(engine.CodeDatetimeFieldOverflow, "date out of range")
			}
			out.I[i] = r
		case engine.OpDateDiff:
			out.I[i] = args[0].I[i] - args[1].I[i]
		case engine.OpTsAddIntv, engine.OpTsSubIntv:
			iv := args[1].V[i]
			if e.Op == engine.OpTsSubIntv {
				var ok bool
				if iv, ok = negInterval(iv); !ok {
					return nil, errIntervalRange
				}
			}
			r, ok := addInterval(args[0].I[i], iv)
			if !ok {
				return nil, engine.Errorf(engine.CodeDatetimeFieldOverflow, "timestamp out of range")
			}
			out.I[i] = r
		case engine.OpTsDiff:
			diff := args[0].I[i] - args[1].I[i]
			days := diff / usPerDay
			out.V[i] = engine.IntervalVal{Days: int32(days), Micros: diff - days*usPerDay}
		case engine.OpIntvAdd, engine.OpIntvSub:
			a, b := args[0].V[i], args[1].V[i]
			ok := true
			if e.Op == engine.OpIntvSub {
				b, ok = negInterval(b)
			}
			m, ok1 := add32(a.Months, b.Months)
			d, ok2 := add32(a.Days, b.Days)
			u, ok3 := add64(a.Micros, b.Micros)
			if !ok || !ok1 || !ok2 || !ok3 {
				return nil, errIntervalRange
			}
			out.V[i] = engine.IntervalVal{Months: m, Days: d, Micros: u}
		case engine.OpIntvNeg:
			r, ok := negInterval(args[0].V[i])
			if !ok {
				return nil, errIntervalRange
			}
			out.V[i] = r
		}
	}
	return out, nil
}

// The dates PostgreSQL accepts: 4714-11-24 BC to 5874897-12-31.
var (
	minDate = int64(engine.DaysFromCivil(-4713, 11, 24))
	maxDate = int64(engine.DaysFromCivil(5874897, 12, 31))
)

var errIntervalRange = engine.Errorf(engine.CodeDatetimeFieldOverflow, "interval out of range")

func negInterval(a engine.IntervalVal) (engine.IntervalVal, bool) {
	if a.Months == math.MinInt32 || a.Days == math.MinInt32 || a.Micros == math.MinInt64 {
		return a, false
	}
	return engine.IntervalVal{Months: -a.Months, Days: -a.Days, Micros: -a.Micros}, true
}

func add32(a, b int32) (int32, bool) {
	r := int64(a) + int64(b)
	return int32(r), r >= math.MinInt32 && r <= math.MaxInt32
}

func add64(a, b int64) (int64, bool) {
	r := a + b
	return r, (a >= 0) != (b >= 0) || (r >= 0) == (a >= 0)
}

// The timestamps gpusql can hold: PostgreSQL's first day, 4714-11-24 BC,
// to the last microsecond that int64 microseconds from 1970 reach.
var (
	minTimestamp = int64(engine.DaysFromCivil(-4713, 11, 24)) * usPerDay
	maxTimestamp = int64(engine.DaysFromCivil(294246, 12, 31))*usPerDay + usPerDay - 1
)

// addInterval adds months (clamping the day to the month's end), then
// days, then microseconds, as PostgreSQL's timestamp_pl_interval.
func addInterval(ts int64, iv engine.IntervalVal) (int64, bool) {
	if iv.Months != 0 {
		days := floorDiv(ts, usPerDay)
		tod := ts - days*usPerDay
		y, m, d := civil(days)
		mm := y*12 + (m - 1) + int(iv.Months)
		y, m = floorDivInt(mm, 12), mm-floorDivInt(mm, 12)*12+1
		if ml := monthLen(y, m); d > ml {
			d = ml
		}
		if y < -4713 || y > 294246 {
			return 0, false
		}
		ts = int64(engine.DaysFromCivil(y, m, d))*usPerDay + tod
	}
	const maxDays = math.MaxInt64 / usPerDay
	if iv.Days > maxDays || iv.Days < -maxDays {
		return 0, false
	}
	ts, ok1 := add64(ts, int64(iv.Days)*usPerDay)
	ts, ok2 := add64(ts, iv.Micros)
	return ts, ok1 && ok2 && ts >= minTimestamp && ts <= maxTimestamp
}

func civil(days int64) (int, int, int) { return engine.CivilFromDays(int32(days)) }

func floorDivInt(a, b int) int {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func monthLen(y, m int) int {
	switch m {
	case 4, 6, 9, 11:
		return 30
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	}
	return 31
}

// isoWeek returns the ISO 8601 week-numbering year and week of a day.
func isoWeek(days int64) (year, week int) {
	wd := ((days+3)%7+7)%7 + 1 // Monday 1 .. Sunday 7; 1970-01-01 was a Thursday
	thu := days - (wd - 1) + 3 // the Thursday of the same week decides the year
	y, _, _ := civil(thu)
	jan1 := int64(engine.DaysFromCivil(y, 1, 1))
	return y, int((thu-jan1)/7) + 1
}

// evalRound is round(x) and round(numeric, digits).
func evalRound(e *engine.Call, args []*engine.Vec, n int) (*engine.Vec, error) {
	out := engine.NewVec(e.T, n)
	out.Null = orNulls(n, args...)
	for i := 0; i < n; i++ {
		if out.Null != nil && out.Null[i] {
			continue
		}
		switch engine.PhysOf(e.T.Kind) {
		case engine.PhysFloat:
			out.F[i] = math.RoundToEven(args[0].F[i])
		case engine.PhysDec:
			digits := int32(0)
			if len(args) > 1 {
				digits = int32(args[1].I[i])
			}
			d := args[0].D[i]
			if digits < 0 {
				// round to tens, hundreds, ...: shift, round, shift back
				sh := d
				sh.Scale -= digits
				r := sh.Round(0)
				r.Scale = 0
				r, ok := r.Rescale(-digits)
				if !ok {
					return nil, numericOverflow()
				}
				r.Scale = 0
				out.D[i] = r
				continue
			}
			if d.Scale > digits {
				d = d.Round(digits)
			} else {
				var ok bool
				if d, ok = d.Rescale(digits); !ok {
					return nil, numericOverflow()
				}
			}
			out.D[i] = d
		default:
			out.I[i] = args[0].I[i]
		}
	}
	return out, nil
}
