package eval

import (
	"math"

	"github.com/gpusql/gpusql/engine"
)

// truncLocal truncates a wall-clock time to unit as PostgreSQL's
// timestamp_trunc does (unit canonical, checked by the caller).
func truncLocal(unit string, x int64) (int64, bool) {
	t := tmOf(x)
	switch unit {
	case "week":
		days := floorDiv(x, usPerDay)
		wd := ((days+3)%7+7)%7 + 1
		r := (days - (wd - 1)) * usPerDay
		return r, r >= minTimestamp
	case "millennium", "century", "decade":
		switch unit {
		case "millennium":
			if t.year > 0 {
				t.year = (t.year+999)/1000*1000 - 999
			} else {
				t.year = -((999-(t.year-1))/1000)*1000 + 1
			}
		case "century":
			if t.year > 0 {
				t.year = (t.year+99)/100*100 - 99
			} else {
				t.year = -((99-(t.year-1))/100)*100 + 1
			}
		case "decade":
			if t.year > 0 {
				t.year = t.year / 10 * 10
			} else {
				t.year = -((8 - (t.year - 1)) / 10) * 10
			}
		}
		fallthrough
	case "year":
		t.mon = 1
		fallthrough
	case "quarter":
		t.mon = 3*((t.mon-1)/3) + 1
		fallthrough
	case "month":
		t.mday = 1
		fallthrough
	case "day":
		t.hour = 0
		fallthrough
	case "hour":
		t.min = 0
		fallthrough
	case "minute":
		t.sec = 0
		fallthrough
	case "second":
		t.fsec = 0
	case "milliseconds":
		t.fsec = t.fsec / 1000 * 1000
	case "microseconds":
	}
	return t.local()
}

// truncUnits are date_trunc's units for timestamps.
var truncUnits = map[string]bool{"microseconds": true, "milliseconds": true, "second": true, "minute": true,
	"hour": true, "day": true, "week": true, "month": true, "quarter": true, "year": true, "decade": true,
	"century": true, "millennium": true}

// CheckTruncUnit canonicalises date_trunc's unit for a value of type t,
// with PostgreSQL's errors for unknown and unsupported units.
func CheckTruncUnit(unit string, t engine.Type) (string, error) {
	u, ok := Units[unit]
	if !ok {
		return "", unitError(unit, t, false)
	}
	if !truncUnits[u] || t.Kind == engine.KindInterval && u == "week" {
		e := unitError(unit, t, true).(*engine.Error)
		if u == "week" {
			e.Detail = "Months usually have fractional weeks."
		}
		return "", e
	}
	return u, nil
}

// evalDateTrunc is date_trunc(unit, x [, zone]) over timestamps,
// timestamptz (wall-clock time in the zone) and intervals.
func evalDateTrunc(e *engine.Call, args []*engine.Vec, n int) (*engine.Vec, error) {
	src := args[1]
	out := engine.NewVec(e.T, n)
	out.Null = orNulls(n, args[1:]...)
	unit := e.Args[0].(*engine.Const).S
	u, err := CheckTruncUnit(unit, src.T)
	if err != nil {
		if out.Null == nil || n > 0 {
			return nil, err
		}
	}
	var zs zones
	if len(args) > 2 {
		zs.v = args[2]
	}
	for i := 0; i < n; i++ {
		if out.Null != nil && out.Null[i] {
			continue
		}
		switch src.T.Kind {
		case engine.KindInterval:
			out.V[i] = truncInterval(u, src.V[i])
		case engine.KindTimestampTZ:
			z := engine.UTCZone
			if zs.v != nil {
				if z, err = zs.at(i); err != nil {
					return nil, err
				}
			}
			r, ok := truncTZ(u, src.I[i], z)
			if !ok {
				return nil, errTimestampRange
			}
			out.I[i] = r
		default:
			r, ok := truncLocal(u, src.I[i])
			if !ok {
				return nil, errTimestampRange
			}
			out.I[i] = r
		}
	}
	return out, nil
}

// truncTZ is timestamptz_trunc_internal: the wall-clock time truncated,
// with the zone's offset found again for units of a day or more, and
// the original offset kept for smaller ones.
func truncTZ(unit string, x int64, z *engine.Zone) (int64, bool) {
	off, _ := z.OffsetAt(x)
	local := x + int64(off)*1_000_000
	l, ok := truncLocal(unit, local)
	if !ok {
		return 0, false
	}
	switch unit {
	case "hour", "minute", "second", "milliseconds", "microseconds":
		return l - int64(off)*1_000_000, true
	}
	r := z.FromLocal(l)
	return r, r >= minTimestamp && r <= maxTimestamp
}

// truncInterval is interval_trunc.
func truncInterval(unit string, iv engine.IntervalVal) engine.IntervalVal {
	year, mon := iv.Months/12, iv.Months%12
	mday := iv.Days
	hour := iv.Micros / 3_600_000_000
	rest := iv.Micros - hour*3_600_000_000
	min := rest / 60_000_000
	rest -= min * 60_000_000
	sec := rest / 1_000_000
	fsec := rest - sec*1_000_000
	switch unit {
	case "millennium":
		year = year / 1000 * 1000
		fallthrough
	case "century":
		year = year / 100 * 100
		fallthrough
	case "decade":
		year = year / 10 * 10
		fallthrough
	case "year":
		mon = 0
		fallthrough
	case "quarter":
		mon = 3 * (mon / 3)
		fallthrough
	case "month":
		mday = 0
		fallthrough
	case "day":
		hour = 0
		fallthrough
	case "hour":
		min = 0
		fallthrough
	case "minute":
		sec = 0
		fallthrough
	case "second":
		fsec = 0
	case "milliseconds":
		fsec = fsec / 1000 * 1000
	}
	return engine.IntervalVal{Months: year*12 + mon, Days: mday, Micros: ((hour*60+min)*60+sec)*1_000_000 + fsec}
}

// evalDateBin is date_bin(stride, source, origin) over timestamps and
// timestamptz (whose bins do not depend on a zone).
func evalDateBin(e *engine.Call, args []*engine.Vec, n int) (*engine.Vec, error) {
	out := engine.NewVec(e.T, n)
	out.Null = orNulls(n, args...)
	for i := 0; i < n; i++ {
		if out.Null != nil && out.Null[i] {
			continue
		}
		st := args[0].V[i]
		if st.Months != 0 {
			return nil, engine.Errorf(engine.CodeFeatureNotSupported, "timestamps cannot be binned into intervals containing months or years")
		}
		const maxDays = math.MaxInt64 / usPerDay
		if st.Days > maxDays || st.Days < -maxDays {
			return nil, errIntervalRange
		}
		stride, ok := add64(int64(st.Days)*usPerDay, st.Micros)
		if !ok {
			return nil, errIntervalRange
		}
		if stride <= 0 {
			return nil, engine.Errorf(engine.CodeDatetimeFieldOverflow, "stride must be greater than zero")
		}
		ts, origin := args[1].I[i], args[2].I[i]
		diff := ts - origin
		if (ts >= 0) != (origin >= 0) && (diff >= 0) != (ts >= 0) {
			return nil, errIntervalRange
		}
		delta := diff - diff%stride
		if diff%stride < 0 {
			delta -= stride // the start of the bin, when the origin is later
		}
		r, ok := add64(origin, delta)
		if !ok || r < minTimestamp || r > maxTimestamp {
			return nil, errTimestampRange
		}
		out.I[i] = r
	}
	return out, nil
}

// evalTstzAddInterval is timestamptz ± interval in a zone
// (timestamptz_pl_interval): months, then days in wall-clock time, each
// step finding the zone's offset again, then the microseconds.
func evalTstzAddInterval(e *engine.Call, args []*engine.Vec, n int) (*engine.Vec, error) {
	out := engine.NewVec(e.T, n)
	out.Null = orNulls(n, args...)
	zs := zones{v: args[2]}
	for i := 0; i < n; i++ {
		if out.Null != nil && out.Null[i] {
			continue
		}
		z, err := zs.at(i)
		if err != nil {
			return nil, err
		}
		iv := args[1].V[i]
		if e.Op == engine.OpTsSubIntv {
			var ok bool
			if iv, ok = negInterval(iv); !ok {
				return nil, errIntervalRange
			}
		}
		r, ok := TstzAddInterval(args[0].I[i], iv, z)
		if !ok {
			return nil, errTimestampRange
		}
		out.I[i] = r
	}
	return out, nil
}

// TstzAddInterval adds iv to the UTC instant x with months and days
// counted in z's wall-clock time.
func TstzAddInterval(x int64, iv engine.IntervalVal, z *engine.Zone) (int64, bool) {
	if iv.Months != 0 {
		l, ok := addInterval(z.ToLocal(x), engine.IntervalVal{Months: iv.Months})
		if !ok {
			return 0, false
		}
		x = z.FromLocal(l)
	}
	if iv.Days != 0 {
		l, ok := addInterval(z.ToLocal(x), engine.IntervalVal{Days: iv.Days})
		if !ok {
			return 0, false
		}
		x = z.FromLocal(l)
	}
	r, ok := add64(x, iv.Micros)
	return r, ok && r >= minTimestamp && r <= maxTimestamp
}

var dayTab = [2][12]int{{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}, {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}}

func isLeap(y int) int {
	if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
		return 1
	}
	return 0
}

// evalAge is age(a, b [, zone]): the symbolic difference in years,
// months and days, as timestamp_age (wall-clock times in the zone for
// timestamptz).
func evalAge(e *engine.Call, args []*engine.Vec, n int) (*engine.Vec, error) {
	out := engine.NewVec(e.T, n)
	out.Null = orNulls(n, args...)
	var zs zones
	if len(args) > 2 {
		zs.v = args[2]
	}
	for i := 0; i < n; i++ {
		if out.Null != nil && out.Null[i] {
			continue
		}
		a, b := args[0].I[i], args[1].I[i]
		la, lb := a, b
		if zs.v != nil {
			z, err := zs.at(i)
			if err != nil {
				return nil, err
			}
			la, lb = z.ToLocal(a), z.ToLocal(b)
		}
		iv, ok := Age(tmOf(la), tmOf(lb), a < b)
		if !ok {
			return nil, errIntervalRange
		}
		out.V[i] = iv
	}
	return out, nil
}

// Age is timestamp_age over the broken-down times t1 and t2; flip is
// whether the first instant is the earlier.
func Age(t1, t2 tm, flip bool) (engine.IntervalVal, bool) {
	fsec := t1.fsec - t2.fsec
	sec, min, hour := t1.sec-t2.sec, t1.min-t2.min, t1.hour-t2.hour
	mday, mon, year := t1.mday-t2.mday, t1.mon-t2.mon, t1.year-t2.year
	if flip {
		fsec, sec, min, hour, mday, mon, year = -fsec, -sec, -min, -hour, -mday, -mon, -year
	}
	for fsec < 0 {
		fsec += 1_000_000
		sec--
	}
	for sec < 0 {
		sec += 60
		min--
	}
	for min < 0 {
		min += 60
		hour--
	}
	for hour < 0 {
		hour += 24
		mday--
	}
	for mday < 0 {
		if flip {
			mday += dayTab[isLeap(t1.year)][t1.mon-1]
		} else {
			mday += dayTab[isLeap(t2.year)][t2.mon-1]
		}
		mon--
	}
	for mon < 0 {
		mon += 12
		year--
	}
	if flip {
		fsec, sec, min, hour, mday, mon, year = -fsec, -sec, -min, -hour, -mday, -mon, -year
	}
	months := int64(year)*12 + int64(mon)
	if months < math.MinInt32 || months > math.MaxInt32 {
		return engine.IntervalVal{}, false
	}
	return engine.IntervalVal{Months: int32(months), Days: int32(mday),
		Micros: ((int64(hour)*60+int64(min))*60+int64(sec))*1_000_000 + fsec}, true
}

// evalJustify is justify_days, justify_hours and justify_interval.
func evalJustify(e *engine.Call, args []*engine.Vec, n int) (*engine.Vec, error) {
	out := engine.NewVec(e.T, n)
	out.Null = copyNulls(args[0].Null)
	for i := 0; i < n; i++ {
		if args[0].IsNull(i) {
			continue
		}
		var r engine.IntervalVal
		var ok bool
		switch e.Op {
		case engine.OpJustifyDays:
			r, ok = JustifyDays(args[0].V[i])
		case engine.OpJustifyHours:
			r, ok = JustifyHours(args[0].V[i])
		default:
			r, ok = JustifyInterval(args[0].V[i])
		}
		if !ok {
			return nil, errIntervalRange
		}
		out.V[i] = r
	}
	return out, nil
}

// JustifyHours moves whole days of the time into the days.
func JustifyHours(iv engine.IntervalVal) (engine.IntervalVal, bool) {
	whole := iv.Micros / usPerDay
	iv.Micros -= whole * usPerDay
	d := int64(iv.Days) + whole
	if d < math.MinInt32 || d > math.MaxInt32 {
		return iv, false
	}
	iv.Days = int32(d)
	if iv.Days > 0 && iv.Micros < 0 {
		iv.Micros += usPerDay
		iv.Days--
	} else if iv.Days < 0 && iv.Micros > 0 {
		iv.Micros -= usPerDay
		iv.Days++
	}
	return iv, true
}

// JustifyDays moves whole months of 30 days into the months.
func JustifyDays(iv engine.IntervalVal) (engine.IntervalVal, bool) {
	whole := iv.Days / 30
	iv.Days -= whole * 30
	m := int64(iv.Months) + int64(whole)
	if m < math.MinInt32 || m > math.MaxInt32 {
		return iv, false
	}
	iv.Months = int32(m)
	if iv.Months > 0 && iv.Days < 0 {
		iv.Days += 30
		iv.Months--
	} else if iv.Months < 0 && iv.Days > 0 {
		iv.Days -= 30
		iv.Months++
	}
	return iv, true
}

// JustifyInterval is justify_interval: days and months both, with the
// signs made to agree.
func JustifyInterval(iv engine.IntervalVal) (engine.IntervalVal, bool) {
	addMonths := func(w int32) bool {
		m := int64(iv.Months) + int64(w)
		if m < math.MinInt32 || m > math.MaxInt32 {
			return false
		}
		iv.Months = int32(m)
		return true
	}
	if iv.Days > 0 && iv.Micros > 0 || iv.Days < 0 && iv.Micros < 0 {
		w := iv.Days / 30
		iv.Days -= w * 30
		if !addMonths(w) {
			return iv, false
		}
	}
	wd := iv.Micros / usPerDay
	iv.Micros -= wd * usPerDay
	iv.Days += int32(wd)
	w := iv.Days / 30
	iv.Days -= w * 30
	if !addMonths(w) {
		return iv, false
	}
	if iv.Months > 0 && (iv.Days < 0 || iv.Days == 0 && iv.Micros < 0) {
		iv.Days += 30
		iv.Months--
	} else if iv.Months < 0 && (iv.Days > 0 || iv.Days == 0 && iv.Micros > 0) {
		iv.Days -= 30
		iv.Months++
	}
	if iv.Days > 0 && iv.Micros < 0 {
		iv.Micros += usPerDay
		iv.Days--
	} else if iv.Days < 0 && iv.Micros > 0 {
		iv.Micros -= usPerDay
		iv.Days++
	}
	return iv, true
}

// evalMake is make_date, make_timestamp, make_time and make_interval.
func evalMake(e *engine.Call, args []*engine.Vec, n int) (*engine.Vec, error) {
	out := engine.NewVec(e.T, n)
	out.Null = orNulls(n, args...)
	for i := 0; i < n; i++ {
		if out.Null != nil && out.Null[i] {
			continue
		}
		iv := func(k int) int64 { return args[k].I[i] }
		switch e.Op {
		case engine.OpMakeDate:
			d, err := MakeDate(iv(0), iv(1), iv(2))
			if err != nil {
				return nil, err
			}
			out.I[i] = d
		case engine.OpMakeTimestamp:
			y, mo, d := iv(0), iv(1), iv(2)
			if y <= 0 || mo < 1 || mo > 12 || d < 1 || d > int64(monthLen(int(y), int(mo))) {
				return nil, engine.Errorf(engine.CodeDatetimeFieldOverflow, "date field value out of range: %d-%02d-%02d", y, mo, d)
			}
			t, err := makeTime(iv(3), iv(4), args[5].F[i])
			if err != nil {
				return nil, err
			}
			if y > 294246 {
				return nil, engine.Errorf(engine.CodeDatetimeFieldOverflow, "timestamp out of range: %d-%02d-%02d %d:%02d:%s", y, mo, d, iv(3), iv(4), fmtG(args[5].F[i]))
			}
			out.I[i] = int64(engine.DaysFromCivil(int(y), int(mo), int(d)))*usPerDay + t
		case engine.OpMakeTime:
			t, err := makeTime(iv(0), iv(1), args[2].F[i])
			if err != nil {
				return nil, err
			}
			out.I[i] = t
		case engine.OpMakeInterval:
			secs := args[6].F[i]
			if math.IsInf(secs, 0) || math.IsNaN(secs) {
				return nil, errIntervalRange
			}
			us := math.RoundToEven(secs * 1e6)
			months := iv(0)*12 + iv(1)
			days := iv(2)*7 + iv(3)
			micros := iv(4)*3_600_000_000 + iv(5)*60_000_000 + int64(us)
			if months < math.MinInt32 || months > math.MaxInt32 || days < math.MinInt32 || days > math.MaxInt32 || math.Abs(us) > 9.2e18 {
				return nil, errIntervalRange
			}
			out.V[i] = engine.IntervalVal{Months: int32(months), Days: int32(days), Micros: micros}
		}
	}
	return out, nil
}

// MakeDate is make_date: a negative year is BC.
func MakeDate(y, m, d int64) (int64, error) {
	ay := y
	if y < 0 {
		ay = y + 1
	}
	if y == 0 || m < 1 || m > 12 || d < 1 || ay < -4713 || ay > 5874897 || d > int64(monthLen(int(ay), int(m))) {
		return 0, engine.Errorf(engine.CodeDatetimeFieldOverflow, "date field value out of range: %d-%02d-%02d", y, m, d)
	}
	r := int64(engine.DaysFromCivil(int(ay), int(m), int(d)))
	if r < minDate || r > maxDate {
		return 0, engine.Errorf(engine.CodeDatetimeFieldOverflow, "date out of range: %d-%02d-%02d", y, m, d)
	}
	return r, nil
}

func makeTime(hour, min int64, sec float64) (int64, error) {
	if hour < 0 || min < 0 || min > 59 || math.IsNaN(sec) || sec < 0 || sec > 60 || hour > 24 || hour == 24 && (min > 0 || sec > 0) {
		return 0, engine.Errorf(engine.CodeDatetimeFieldOverflow, "time field value out of range: %d:%02d:%s", hour, min, fmtG(sec))
	}
	return (hour*60+min)*60_000_000 + int64(math.RoundToEven(sec*1e6)), nil
}

// fmtG writes a double as C's %02g does.
func fmtG(f float64) string {
	s := string(engine.AppendFloat(nil, f, 64))
	if len(s) == 1 {
		s = "0" + s
	}
	return s
}

// evalTimeArith is time ± interval, time - time and date + time.
func evalTimeArith(e *engine.Call, args []*engine.Vec, n int) (*engine.Vec, error) {
	out := engine.NewVec(e.T, n)
	out.Null = orNulls(n, args...)
	for i := 0; i < n; i++ {
		if out.Null != nil && out.Null[i] {
			continue
		}
		switch e.Op {
		case engine.OpTimeAddIntv, engine.OpTimeSubIntv:
			d := args[1].V[i].Micros % usPerDay
			if e.Op == engine.OpTimeSubIntv {
				d = -d
			}
			r := (args[0].I[i] + d) % usPerDay
			if r < 0 {
				r += usPerDay
			}
			out.I[i] = r
		case engine.OpTimeDiff:
			out.V[i] = engine.IntervalVal{Micros: args[0].I[i] - args[1].I[i]}
		case engine.OpDateAddTime:
			r := args[0].I[i]*usPerDay + args[1].I[i]
			if r > maxTimestamp {
				return nil, errTimestampRange
			}
			out.I[i] = r
		}
	}
	return out, nil
}
