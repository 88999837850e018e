package eval

import (
	"context"
	"math"

	"github.com/gpusql/gpusql/engine"
)

// Time zones and the time functions: casts between the date and time
// types, AT TIME ZONE, extract/date_part, date_trunc, date_bin, age,
// justify_*, make_*, and the time type's arithmetic, as PostgreSQL 15
// computes them.

// evalTimeMath dispatches the operators from OpAtTimeZone on.
func evalTimeMath(ctx context.Context, e *engine.Call, args []*engine.Vec, n int) (*engine.Vec, error) {
	switch e.Op {
	case engine.OpAtTimeZone:
		return evalAtTimeZone(e, args, n)
	case engine.OpDateTrunc:
		return evalDateTrunc(e, args, n)
	case engine.OpDateBin:
		return evalDateBin(e, args, n)
	case engine.OpAge:
		return evalAge(e, args, n)
	case engine.OpJustifyDays, engine.OpJustifyHours, engine.OpJustifyInterval:
		return evalJustify(e, args, n)
	case engine.OpMakeDate, engine.OpMakeTimestamp, engine.OpMakeTime, engine.OpMakeInterval:
		return evalMake(e, args, n)
	case engine.OpTimeAddIntv, engine.OpTimeSubIntv, engine.OpTimeDiff, engine.OpDateAddTime:
		return evalTimeArith(e, args, n)
	case engine.OpToChar, engine.OpToDate, engine.OpToTimestamp, engine.OpEpochToTs, engine.OpToNumber:
		return evalFormatting(e, args, n)
	}
	return evalMath(ctx, e, args, n)
}

// roundTime rounds a timestamp, timestamptz or time to t's precision.
func roundTime(t engine.Type, x int64) int64 { return engine.RoundTimePrec(t, x) }

// AdjustInterval applies an interval type's fields and precision, as
// PostgreSQL's AdjustIntervalForTypmod: fields below the last one are
// dropped, and the seconds round half away from zero.
func AdjustInterval(t engine.Type, iv engine.IntervalVal) engine.IntervalVal {
	const usHour, usMinute = 3_600_000_000, 60_000_000
	switch t.Len {
	case engine.IntervalYear:
		iv = engine.IntervalVal{Months: iv.Months / 12 * 12}
	case engine.IntervalMonth, engine.IntervalYear | engine.IntervalMonth:
		iv.Days, iv.Micros = 0, 0
	case engine.IntervalDay:
		iv.Micros = 0
	case engine.IntervalHour, engine.IntervalDay | engine.IntervalHour:
		iv.Micros = iv.Micros / usHour * usHour
	case engine.IntervalMinute, engine.IntervalHour | engine.IntervalMinute,
		engine.IntervalDay | engine.IntervalHour | engine.IntervalMinute:
		iv.Micros = iv.Micros / usMinute * usMinute
	}
	if p, ok := t.TimePrec(); ok && p < 6 {
		scale := int64(math.Pow10(6 - p))
		if iv.Micros >= 0 {
			iv.Micros = (iv.Micros + scale/2) / scale * scale
		} else {
			iv.Micros = -((-iv.Micros + scale/2) / scale * scale)
		}
	}
	return iv
}

// ParseIntervalTyped parses interval input for type t: with a field
// restriction, a plain number counts in the restriction's last field
// (INTERVAL '10' MINUTE) and MINUTE TO SECOND reads m:s; then the
// fields and precision apply.
func ParseIntervalTyped(s string, t engine.Type) (engine.IntervalVal, error) {
	in := s
	if t.Len != 0 {
		if plainNumber(in) {
			unit := "second"
			switch {
			case t.Len == engine.IntervalYear:
				unit = "year"
			case t.Len&engine.IntervalSecond != 0:
				unit = "second"
			case t.Len&engine.IntervalMinute != 0:
				unit = "minute"
			case t.Len&engine.IntervalHour != 0:
				unit = "hour"
			case t.Len&engine.IntervalDay != 0:
				unit = "day"
			case t.Len&engine.IntervalMonth != 0:
				unit = "month"
			}
			in = in + " " + unit
		} else if t.Len == engine.IntervalMinute|engine.IntervalSecond && clockParts(in) == 2 {
			in = "0:" + trimSign(in)
			if neg(s) {
				in = "-" + in
			}
		}
	}
	iv, err := ParseInterval(in)
	if err != nil {
		if in != s {
			return ParseInterval(s)
		}
		return iv, err
	}
	return AdjustInterval(t, iv), nil
}

func plainNumber(s string) bool {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			n++
		case c == '.' || c == ' ' || (c == '-' || c == '+') && n == 0:
		default:
			return false
		}
	}
	return n > 0
}

func clockParts(s string) int {
	n := 1
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == ':':
			n++
		case c >= '0' && c <= '9' || c == '.' || c == ' ' || c == '-' || c == '+':
		default:
			return 0
		}
	}
	return n
}

func trimSign(s string) string {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '-' || s[0] == '+') {
		s = s[1:]
	}
	return s
}

func neg(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '-' {
			return true
		}
		if s[i] != ' ' {
			return false
		}
	}
	return false
}

var errTimestampRange = engine.Errorf(engine.CodeDatetimeFieldOverflow, "timestamp out of range")

// convertTime converts between the date and time types (and timestamp
// precisions), reading wall-clock time in zone. It reports false for
// conversions it does not handle.
func convertTime(out *engine.Vec, i int, v *engine.Vec, j int, zone *engine.Zone) (bool, error) {
	from, to := v.T, out.T
	if engine.PhysOf(from.Kind) != engine.PhysInt && from.Kind != engine.KindInterval {
		return false, nil
	}
	var x int64
	if from.Kind != engine.KindInterval {
		x = v.I[j]
	}
	switch to.Kind {
	case engine.KindTimestamp:
		switch from.Kind {
		case engine.KindTimestamp:
			out.I[i] = roundTime(to, x)
		case engine.KindTimestampTZ:
			out.I[i] = roundTime(to, zone.ToLocal(x))
		case engine.KindDate:
			out.I[i] = x * usPerDay
		default:
			return false, nil
		}
	case engine.KindTimestampTZ:
		var r int64
		switch from.Kind {
		case engine.KindTimestampTZ:
			r = x
		case engine.KindTimestamp:
			r = zone.FromLocal(x)
		case engine.KindDate:
			r = zone.FromLocal(x * usPerDay)
		default:
			return false, nil
		}
		if r < minTimestamp || r > maxTimestamp {
			return true, errTimestampRange
		}
		out.I[i] = roundTime(to, r)
	case engine.KindDate:
		if from.Kind != engine.KindTimestampTZ {
			return false, nil
		}
		out.I[i] = floorDiv(zone.ToLocal(x), usPerDay)
	case engine.KindTime:
		var r int64
		switch from.Kind {
		case engine.KindTime:
			r = x
		case engine.KindTimestamp:
			r = x - floorDiv(x, usPerDay)*usPerDay
		case engine.KindTimestampTZ:
			l := zone.ToLocal(x)
			r = l - floorDiv(l, usPerDay)*usPerDay
		case engine.KindInterval:
			r = v.V[j].Micros % usPerDay
			if r < 0 {
				r += usPerDay
			}
		default:
			return false, nil
		}
		out.I[i] = roundTime(to, r)
	case engine.KindInterval:
		switch from.Kind {
		case engine.KindInterval:
			out.V[i] = AdjustInterval(to, v.V[j])
		case engine.KindTime:
			out.V[i] = AdjustInterval(to, engine.IntervalVal{Micros: x})
		default:
			return false, nil
		}
	default:
		return false, nil
	}
	return true, nil
}

// zones resolves a vector of zone names row by row, reusing the last
// resolution (the argument is nearly always one constant).
type zones struct {
	v    *engine.Vec
	last string
	z    *engine.Zone
}

func (zs *zones) at(i int) (*engine.Zone, error) {
	name := zs.v.S[i]
	if zs.z != nil && string(name) == zs.last {
		return zs.z, nil
	}
	z, err := engine.LookupZone(string(name))
	if err != nil {
		return nil, err
	}
	zs.last, zs.z = string(name), z
	return z, nil
}

// evalCastZone is a cast whose second argument names the zone of
// wall-clock time.
func evalCastZone(e *engine.Call, args []*engine.Vec, n int) (*engine.Vec, error) {
	if zoneConstant(args[1]) {
		if args[1].IsNull(0) {
			return allNull(e.T, n), nil
		}
		z, err := engine.LookupZone(string(args[1].S[0]))
		if err != nil {
			return nil, err
		}
		return CastZone(args[0], e.T, z)
	}
	// a zone per row: one row at a time
	out := engine.NewVec(e.T, n)
	out.Null = orNulls(n, args...)
	zs := zones{v: args[1]}
	for i := 0; i < n; i++ {
		if out.Null != nil && out.Null[i] {
			continue
		}
		z, err := zs.at(i)
		if err != nil {
			return nil, err
		}
		r, err := CastZone(args[0].Gather([]int32{int32(i)}), e.T, z)
		if err != nil {
			return nil, err
		}
		copySlot(out, i, r, 0)
	}
	return out, nil
}

// zoneConstant reports whether every row of v holds the same value (a
// broadcast constant), checked cheaply.
func zoneConstant(v *engine.Vec) bool {
	if v.N <= 1 {
		return true
	}
	if v.Null != nil {
		for _, b := range v.Null {
			if b != v.Null[0] {
				return false
			}
		}
		if v.Null[0] {
			return true
		}
	}
	for i := 1; i < v.N; i++ {
		if string(v.S[i]) != string(v.S[0]) {
			return false
		}
	}
	return true
}

func allNull(t engine.Type, n int) *engine.Vec {
	out := engine.NewVec(t, n)
	out.Null = make([]bool, n)
	for i := range out.Null {
		out.Null[i] = true
	}
	return out
}

// evalAtTimeZone is x AT TIME ZONE zone: a timestamptz's wall-clock time
// there, or the instant a timestamp's wall-clock time there is.
func evalAtTimeZone(e *engine.Call, args []*engine.Vec, n int) (*engine.Vec, error) {
	out := engine.NewVec(e.T, n)
	out.Null = orNulls(n, args...)
	zs := zones{v: args[1]}
	toLocal := args[0].T.Kind == engine.KindTimestampTZ
	for i := 0; i < n; i++ {
		if out.Null != nil && out.Null[i] {
			continue
		}
		z, err := zs.at(i)
		if err != nil {
			return nil, err
		}
		x := args[0].I[i]
		var r int64
		if toLocal {
			r = z.ToLocal(x)
		} else {
			r = z.FromLocal(x)
		}
		if r < minTimestamp || r > maxTimestamp {
			return nil, errTimestampRange
		}
		out.I[i] = r
	}
	return out, nil
}

// tm is a wall-clock time broken into fields, as PostgreSQL's struct
// pg_tm with fsec: years are astronomical (0 is 1 BC).
type tm struct {
	year, mon, mday, hour, min, sec int
	fsec                            int64
}

func tmOf(local int64) tm {
	days := floorDiv(local, usPerDay)
	tod := local - days*usPerDay
	y, m, d := civil(days)
	return tm{year: y, mon: m, mday: d, hour: int(tod / 3_600_000_000), min: int(tod / 60_000_000 % 60),
		sec: int(tod / 1_000_000 % 60), fsec: tod % 1_000_000}
}

func (t tm) local() (int64, bool) {
	if t.year < -4713 || t.year > 294246 {
		return 0, false
	}
	days := int64(engine.DaysFromCivil(t.year, t.mon, t.mday))
	r := days*usPerDay + ((int64(t.hour)*60+int64(t.min))*60+int64(t.sec))*1_000_000 + t.fsec
	return r, r >= minTimestamp && r <= maxTimestamp
}

// Units are the names of date_trunc's units and extract's fields,
// PostgreSQL's canonical spelling of each alias it accepts.
var Units = map[string]string{
	"microsecond": "microseconds", "microseconds": "microseconds", "microsecon": "microseconds", "us": "microseconds",
	"usec": "microseconds", "usecs": "microseconds", "useconds": "microseconds",
	"millisecond": "milliseconds", "milliseconds": "milliseconds", "millisecon": "milliseconds", "ms": "milliseconds",
	"msec": "milliseconds", "msecs": "milliseconds", "mseconds": "milliseconds",
	"second": "second", "seconds": "second", "s": "second", "sec": "second", "secs": "second",
	"minute": "minute", "minutes": "minute", "m": "minute", "min": "minute", "mins": "minute",
	"hour": "hour", "hours": "hour", "h": "hour", "hr": "hour", "hrs": "hour",
	"day": "day", "days": "day", "d": "day",
	"week": "week", "weeks": "week", "w": "week",
	"month": "month", "months": "month", "mon": "month", "mons": "month",
	"quarter": "quarter", "qtr": "quarter",
	"year": "year", "years": "year", "y": "year", "yr": "year", "yrs": "year",
	"decade": "decade", "decades": "decade", "dec": "decade", "decs": "decade",
	"century": "century", "centuries": "century", "c": "century", "cent": "century",
	"millennium": "millennium", "millennia": "millennium", "millenniums": "millennium", "mil": "millennium", "mils": "millennium",
	"epoch": "epoch", "dow": "dow", "isodow": "isodow", "doy": "doy", "isoyear": "isoyear",
	"julian": "julian", "j": "julian", "jd": "julian",
	"timezone": "timezone", "timezone_h": "timezone_hour", "timezone_hour": "timezone_hour",
	"timezone_m": "timezone_minute", "timezone_minute": "timezone_minute",
}

func unitError(unit string, t engine.Type, known bool) error {
	name := t.String()
	if t.Kind == engine.KindInterval {
		name = "interval"
	}
	if known {
		return engine.Errorf(engine.CodeFeatureNotSupported, "unit %q not supported for type %s", unit, name)
	}
	return engine.Errorf(engine.CodeInvalidParameterValue, "unit %q not recognized for type %s", unit, name)
}

// extractValue is one field's value: an integer, or a scaled integer
// (numeric scale), and the double date_part returns.
type extractValue struct {
	d engine.Dec
	f float64
}

func intField(v int64) extractValue {
	return extractValue{d: engine.DecFromInt(v), f: float64(v)}
}

// evalExtractTime implements extract(field FROM x) (numeric) and
// date_part(field, x) (double precision, e.T) over dates, timestamps,
// timestamptz (Args[2] the zone), times and intervals, as PostgreSQL 15.
func evalExtractTime(e *engine.Call, args []*engine.Vec, n int) (*engine.Vec, error) {
	field := e.Args[0].(*engine.Const).S
	if f, ok := Units[field]; ok {
		field = f
	}
	src := args[1]
	out := engine.NewVec(e.T, n)
	out.Null = orNulls(n, args[1:]...)
	var zs zones
	if len(args) > 2 {
		zs.v = args[2]
	}
	asFloat := e.T.Kind == engine.KindFloat64
	for i := 0; i < n; i++ {
		if out.Null != nil && out.Null[i] {
			continue
		}
		var r extractValue
		var err error
		switch src.T.Kind {
		case engine.KindInterval:
			r, err = extractInterval(field, src.V[i], src.T)
		case engine.KindTime:
			r, err = extractTime(field, src.I[i], src.T)
		case engine.KindTimestampTZ:
			z := engine.UTCZone
			if zs.v != nil {
				if z, err = zs.at(i); err != nil {
					return nil, err
				}
			}
			r, err = extractTZ(field, src.I[i], z, src.T)
		case engine.KindDate:
			r, err = extractTimestamp(field, src.I[i]*usPerDay, src.T, true, asFloat)
		default:
			r, err = extractTimestamp(field, src.I[i], src.T, false, asFloat)
		}
		if err != nil {
			return nil, err
		}
		if asFloat {
			out.F[i] = r.f
		} else {
			out.D[i] = r.d
		}
	}
	return out, nil
}

func extractTimestamp(field string, x int64, t engine.Type, isDate, asFloat bool) (extractValue, error) {
	days := floorDiv(x, usPerDay)
	tod := x - days*usPerDay
	y, m, d := civil(days)
	secUs := tod % 60_000_000 // seconds and fraction, in µs
	time := func() (extractValue, error) {
		if isDate && !asFloat {
			return extractValue{}, unitError(field, t, true)
		}
		return extractValue{}, nil
	}
	switch field {
	case "year":
		if y <= 0 {
			y-- // there is no year 0: 1 BC is -1
		}
		return intField(int64(y)), nil
	case "month":
		return intField(int64(m)), nil
	case "day":
		return intField(int64(d)), nil
	case "quarter":
		return intField(int64((m-1)/3 + 1)), nil
	case "dow":
		return intField(((days+4)%7 + 7) % 7), nil // 1970-01-01 was a Thursday
	case "isodow":
		return intField(((days+3)%7+7)%7 + 1), nil
	case "doy":
		return intField(days - int64(engine.DaysFromCivil(y, 1, 1)) + 1), nil
	case "decade":
		return intField(int64(floorDivInt(y, 10))), nil
	case "century":
		c := (y + 99) / 100
		if y <= 0 {
			c = -((99 - (y - 1)) / 100)
		}
		return intField(int64(c)), nil
	case "millennium":
		c := (y + 999) / 1000
		if y <= 0 {
			c = -((999 - (y - 1)) / 1000)
		}
		return intField(int64(c)), nil
	case "week", "isoyear":
		wy, wk := isoWeek(days)
		if field == "week" {
			return intField(int64(wk)), nil
		}
		if wy <= 0 {
			wy-- // as year: no year 0
		}
		return intField(int64(wy)), nil
	case "hour":
		if _, err := time(); err != nil {
			return extractValue{}, err
		}
		return intField(tod / 3_600_000_000), nil
	case "minute":
		if _, err := time(); err != nil {
			return extractValue{}, err
		}
		return intField(tod / 60_000_000 % 60), nil
	case "second":
		if _, err := time(); err != nil {
			return extractValue{}, err
		}
		return extractValue{d: engine.DecFromScaled(secUs, 6), f: float64(secUs/1_000_000) + float64(secUs%1_000_000)/1e6}, nil
	case "milliseconds":
		if _, err := time(); err != nil {
			return extractValue{}, err
		}
		return extractValue{d: engine.DecFromScaled(secUs, 3), f: float64(secUs/1_000_000)*1000 + float64(secUs%1_000_000)/1000}, nil
	case "microseconds":
		if _, err := time(); err != nil {
			return extractValue{}, err
		}
		return extractValue{d: engine.DecFromInt(secUs), f: float64(secUs/1_000_000)*1e6 + float64(secUs%1_000_000)}, nil
	case "epoch":
		if isDate && !asFloat {
			return intField(days * 86400), nil
		}
		return extractValue{d: engine.DecFromScaled(x, 6), f: float64(x) / 1e6}, nil
	case "julian":
		j := days + 2440588
		if isDate && !asFloat {
			return intField(j), nil
		}
		r := engine.DecFromInt(j)
		if frac, ok := engine.DecDiv(engine.DecFromInt(tod), engine.DecFromInt(usPerDay)); ok {
			r, _ = engine.DecAdd(r, frac)
		}
		secs := float64(tod/1_000_000) + float64(tod%1_000_000)/1e6
		return extractValue{d: r, f: float64(j) + secs/86400}, nil
	case "timezone", "timezone_hour", "timezone_minute":
		return extractValue{}, unitError(field, t, true)
	}
	return extractValue{}, unitError(field, t, false)
}

func extractTZ(field string, x int64, z *engine.Zone, t engine.Type) (extractValue, error) {
	off, _ := z.OffsetAt(x)
	switch field {
	case "epoch":
		return extractValue{d: engine.DecFromScaled(x, 6), f: float64(x) / 1e6}, nil
	case "timezone":
		return intField(int64(off)), nil
	case "timezone_hour":
		return intField(int64(off / 3600)), nil
	case "timezone_minute":
		return intField(int64(off / 60 % 60)), nil
	}
	return extractTimestamp(field, x+int64(off)*1_000_000, t, false, false)
}

func extractTime(field string, x int64, t engine.Type) (extractValue, error) {
	secUs := x % 60_000_000
	switch field {
	case "hour":
		return intField(x / 3_600_000_000), nil
	case "minute":
		return intField(x / 60_000_000 % 60), nil
	case "second":
		return extractValue{d: engine.DecFromScaled(secUs, 6), f: float64(secUs/1_000_000) + float64(secUs%1_000_000)/1e6}, nil
	case "milliseconds":
		return extractValue{d: engine.DecFromScaled(secUs, 3), f: float64(secUs/1_000_000)*1000 + float64(secUs%1_000_000)/1000}, nil
	case "microseconds":
		return extractValue{d: engine.DecFromInt(secUs), f: float64(secUs/1_000_000)*1e6 + float64(secUs%1_000_000)}, nil
	case "epoch":
		return extractValue{d: engine.DecFromScaled(x, 6), f: float64(x) / 1e6}, nil
	}
	_, known := Units[field]
	for _, k := range Units {
		known = known || k == field
	}
	return extractValue{}, unitError(field, t, known)
}

func extractInterval(field string, iv engine.IntervalVal, t engine.Type) (extractValue, error) {
	years, mons := int64(iv.Months/12), int64(iv.Months%12)
	hour := iv.Micros / 3_600_000_000
	rest := iv.Micros - hour*3_600_000_000
	min := rest / 60_000_000
	secUs := rest - min*60_000_000
	switch field {
	case "microseconds":
		return extractValue{d: engine.DecFromInt(secUs), f: float64(secUs/1_000_000)*1e6 + float64(secUs%1_000_000)}, nil
	case "milliseconds":
		return extractValue{d: engine.DecFromScaled(secUs, 3), f: float64(secUs/1_000_000)*1000 + float64(secUs%1_000_000)/1000}, nil
	case "second":
		return extractValue{d: engine.DecFromScaled(secUs, 6), f: float64(secUs/1_000_000) + float64(secUs%1_000_000)/1e6}, nil
	case "minute":
		return intField(min), nil
	case "hour":
		return intField(hour), nil
	case "day":
		return intField(int64(iv.Days)), nil
	case "month":
		return intField(mons), nil
	case "quarter":
		return intField(mons/3 + 1), nil
	case "year":
		return intField(years), nil
	case "decade":
		return intField(years / 10), nil
	case "century":
		return intField(years / 100), nil
	case "millennium":
		return intField(years / 1000), nil
	case "epoch":
		// 365.25 days a year and 30 a month, counted in quarter days
		secs := (1461*years + 120*mons + 4*int64(iv.Days)) * (86400 / 4)
		f := float64(iv.Micros)/1e6 + 365.25*86400*float64(years) + 30*86400*float64(mons) + 86400*float64(iv.Days)
		d, ok := engine.DecAdd(engine.DecFromScaled(iv.Micros, 6), engine.DecFromInt(secs))
		if !ok {
			return extractValue{}, numericOverflow()
		}
		return extractValue{d: d, f: f}, nil
	}
	_, known := Units[field]
	for _, k := range Units {
		known = known || k == field
	}
	return extractValue{}, unitError(field, t, known)
}

func evalFormatting(e *engine.Call, args []*engine.Vec, n int) (*engine.Vec, error) {
	out := engine.NewVec(e.T, n)
	out.Null = orNulls(n, args...)
	var zs zones
	if k := len(args); k > 2 && args[k-1].T.IsString() && (e.Op == engine.OpToChar && args[0].T.Kind == engine.KindTimestampTZ || e.Op == engine.OpToTimestamp) {
		zs.v = args[k-1]
	}
	var lastFmt string
	var nodes []dchNode
	var nf numFormat
	format := func(i int) string {
		f := string(args[1].S[i])
		if f != lastFmt || i == 0 {
			lastFmt = f
			nodes, nf = nil, numFormat{}
		}
		return f
	}
	var buf []byte
	for i := 0; i < n; i++ {
		if out.Null != nil && out.Null[i] {
			continue
		}
		switch e.Op {
		case engine.OpEpochToTs:
			f := args[0].F[i]
			if math.IsNaN(f) || math.IsInf(f, 0) || f*1e6 < float64(minTimestamp) || f*1e6 > float64(maxTimestamp) {
				return nil, engine.Errorf(engine.CodeDatetimeFieldOverflow, "timestamp out of range: \"%s\"", fmtG(f))
			}
			out.I[i] = int64(math.RoundToEven(f * 1e6))
			continue
		}
		f := format(i)
		switch e.Op {
		case engine.OpToChar:
			x := args[0]
			buf = buf[:0]
			switch x.T.Kind {
			case engine.KindTimestamp, engine.KindTimestampTZ:
				if nodes == nil {
					nodes = parseDCH(f)
				}
				t := dchTime{local: x.I[i]}
				if x.T.Kind == engine.KindTimestampTZ {
					z := engine.UTCZone
					if zs.v != nil {
						var err error
						if z, err = zs.at(i); err != nil {
							return nil, err
						}
					}
					t.off, t.abbrev = z.OffsetAt(x.I[i])
					t.local += int64(t.off) * 1_000_000
					t.tz = true
				}
				buf = toCharTime(buf, nodes, t)
			default:
				if nf.items == nil && nf.err == nil {
					nf = parseNumFormat(f)
				}
				if nf.err == nil && nf.trailingS {
					nf.err = engine.Errorf(engine.CodeFeatureNotSupported, "the to_char pattern S after the digits is not supported by gpusql")
				}
				if nf.err != nil {
					return nil, nf.err
				}
				switch engine.PhysOf(x.T.Kind) {
				case engine.PhysDec:
					buf = toCharDec(buf, &nf, x.D[i])
				case engine.PhysFloat:
					digits := 15
					if x.T.Kind == engine.KindFloat32 {
						digits = 6
					}
					buf = toCharFloat(buf, &nf, x.F[i], digits)
				default:
					buf = toCharDec(buf, &nf, engine.DecFromInt(x.I[i]))
				}
			}
			out.S[i] = append([]byte(nil), buf...)
		case engine.OpToDate, engine.OpToTimestamp:
			if nodes == nil {
				nodes = parseDCH(f)
			}
			p, err := parseTimeText(string(args[0].S[i]), nodes)
			if err != nil {
				return nil, err
			}
			local, off, hasOff, err := p.toLocal()
			if err != nil {
				return nil, err
			}
			if e.Op == engine.OpToDate {
				out.I[i] = floorDiv(local, usPerDay)
				continue
			}
			switch {
			case hasOff:
				out.I[i] = local - int64(off)*1_000_000
			case zs.v != nil:
				z, err := zs.at(i)
				if err != nil {
					return nil, err
				}
				out.I[i] = z.FromLocal(local)
			default:
				out.I[i] = local
			}
		case engine.OpToNumber:
			if nf.items == nil && nf.err == nil {
				nf = parseNumFormat(f)
			}
			if nf.err != nil {
				return nil, nf.err
			}
			d, err := toNumber(string(args[0].S[i]), &nf)
			if err != nil {
				return nil, err
			}
			out.D[i] = d
		}
	}
	return out, nil
}

// evalExtractDate is extract (or date_part) of year, month, day or
// quarter from a date, the common grouping shape: the field is read once
// rather than broadcast, and each row's calendar date is computed once in
// a typed loop. ok is false for other shapes; a batch with a date so far
// out that the general path's day-to-microsecond product wraps is handed
// to evalExtractTime.
func evalExtractDate(ctx context.Context, e *engine.Call, in *engine.Batch) (out *engine.Vec, ok bool, err error) {
	if !IsExtractDate(e) {
		return nil, false, nil
	}
	src, err := Eval(ctx, e.Args[1], in)
	if err != nil {
		return nil, true, err
	}
	if out, ok := ExtractDateInto(nil, e, src, in.N); ok {
		return out, true, nil
	}
	fc := e.Args[0].(*engine.Const)
	out, err = evalExtractTime(e, []*engine.Vec{Broadcast(fc, in.N), src}, in.N)
	return out, true, err
}

// IsExtractDate says whether e is extract of year, month, day or quarter
// from a date, to numeric or float8, which ExtractDateInto computes.
func IsExtractDate(e *engine.Call) bool {
	_, _, ok := extractDateField(e)
	return ok
}

// extractDateField reads IsExtractDate's field: 0 year, 1 month, 2 day, 3
// quarter.
func extractDateField(e *engine.Call) (which int, asFloat, ok bool) {
	if e.Op != engine.OpExtract || len(e.Args) != 2 || e.Args[1].Type().Kind != engine.KindDate {
		return 0, false, false
	}
	fc, isConst := e.Args[0].(*engine.Const)
	if !isConst || fc.Null {
		return 0, false, false
	}
	field := fc.S
	if f, ok := Units[field]; ok {
		field = f
	}
	switch field {
	case "year":
	case "month":
		which = 1
	case "day":
		which = 2
	case "quarter":
		which = 3
	default:
		return 0, false, false
	}
	asFloat = e.T.Kind == engine.KindFloat64
	if !asFloat && e.T.Kind != engine.KindNumeric {
		return 0, false, false
	}
	return which, asFloat, true
}

// ExtractDateInto computes extract e (IsExtractDate) of the n dates src,
// in dst's storage when it has room (a caller reusing one vector a
// batch), else in a new vector. It returns ok false, computing nothing,
// where a date is so far out that the general path's day-to-microsecond
// product wraps: that path's answer is then the one to give.
func ExtractDateInto(dst *engine.Vec, e *engine.Call, src *engine.Vec, n int) (out *engine.Vec, ok bool) {
	which, asFloat, ok := extractDateField(e)
	if !ok {
		return nil, false
	}
	const safe = math.MaxInt64 / usPerDay // no wrap below this many days
	for _, x := range src.I[:n] {
		if x > safe || x < -safe {
			return nil, false
		}
	}
	out = reuseVec(dst, e.T, n)
	if src.Null != nil {
		out.Null = append(out.Null[:0], src.Null[:n]...)
	}
	for i, x := range src.I[:n] {
		if out.Null != nil && out.Null[i] {
			if asFloat {
				out.F[i] = 0
			} else {
				out.D[i] = engine.Dec{}
			}
			continue
		}
		y, m, d := engine.CivilFromDays(int32(x))
		var r int
		switch which {
		case 0:
			r = y
			if y <= 0 {
				r = y - 1 // there is no year 0: 1 BC is -1
			}
		case 1:
			r = m
		case 2:
			r = d
		default: // quarter
			r = (m-1)/3 + 1
		}
		if asFloat {
			out.F[i] = float64(r)
		} else {
			out.D[i] = engine.DecFromInt(int64(r))
		}
	}
	return out, true
}

// reuseVec is an n-row vector of type t in v's storage when v is of t's
// physical type with room for n rows (its slots hold old values and it
// has no Null: the caller writes every slot), else a new one.
func reuseVec(v *engine.Vec, t engine.Type, n int) *engine.Vec {
	if v == nil || engine.PhysOf(v.T.Kind) != engine.PhysOf(t.Kind) {
		return engine.NewVec(t, n)
	}
	switch engine.PhysOf(t.Kind) {
	case engine.PhysInt:
		if cap(v.I) < n {
			return engine.NewVec(t, n)
		}
		v.I = v.I[:n]
	case engine.PhysFloat:
		if cap(v.F) < n {
			return engine.NewVec(t, n)
		}
		v.F = v.F[:n]
	case engine.PhysDec:
		if cap(v.D) < n {
			return engine.NewVec(t, n)
		}
		v.D = v.D[:n]
	default:
		return engine.NewVec(t, n)
	}
	v.T, v.N, v.Null = t, n, nil
	return v
}
