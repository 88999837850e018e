package eval

import (
	"math"
	"strings"

	"github.com/gpusql/gpusql/engine"
)

// ParseInterval parses PostgreSQL's interval input: "90 days",
// "1 year 2 mons", "3 days 04:05:06", "-1 day", "1.5 hours", "10d",
// "@ 1 day ago", and ISO 8601 durations such as "P1Y2M3DT4H5M6S". Each
// unit may appear once; fields that overflow are errors, as in
// PostgreSQL.
func ParseInterval(s string) (engine.IntervalVal, error) {
	bad := func() (engine.IntervalVal, error) {
		return engine.IntervalVal{}, engine.Errorf(engine.CodeInvalidDatetimeFormat, "invalid input syntax for type interval: %q", s)
	}
	in := strings.ToLower(strings.TrimSpace(s))
	if strings.HasPrefix(in, "p") {
		return parseISOInterval(s, in[1:])
	}
	toks := splitIntervalTokens(in)
	if len(toks) > 0 && toks[0] == "@" {
		toks = toks[1:]
	}
	ago := false
	if len(toks) > 0 && toks[len(toks)-1] == "ago" {
		ago = true
		toks = toks[:len(toks)-1]
	}
	if len(toks) == 0 {
		return bad()
	}
	acc := intervalAcc{src: s}
	for k := 0; k < len(toks); k++ {
		tok := toks[k]
		if strings.Contains(tok, ":") {
			us, ok := parseClock(tok)
			if !ok || !acc.mark("time") {
				return bad()
			}
			acc.micros += float64(us)
			continue
		}
		num, ok := engine.ParseDecLiteral(tok)
		if !ok {
			return bad()
		}
		unit := "second"
		if k+1 < len(toks) && !isNumberStart(toks[k+1]) {
			unit = toks[k+1]
			k++
		}
		if err := acc.add(num.Float64(), unit); err != nil {
			return engine.IntervalVal{}, err
		}
	}
	iv, err := acc.result()
	if err != nil {
		return iv, err
	}
	if ago {
		iv = engine.IntervalVal{Months: -iv.Months, Days: -iv.Days, Micros: -iv.Micros}
	}
	return iv, nil
}

func isNumberStart(t string) bool {
	return t != "" && (t[0] >= '0' && t[0] <= '9' || t[0] == '-' || t[0] == '+' || t[0] == '.')
}

// splitIntervalTokens splits on blanks and commas, and splits a number
// glued to its unit ("10d" → "10", "d").
func splitIntervalTokens(s string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\t' }) {
		if strings.Contains(f, ":") {
			out = append(out, f)
			continue
		}
		// "1 day, 2 hours": a comma may follow a unit word
		if n := len(f); n > 1 && f[n-1] == ',' && f[n-2] >= 'a' && f[n-2] <= 'z' {
			f = f[:n-1]
		}
		i := 0
		for i < len(f) && (f[i] >= '0' && f[i] <= '9' || f[i] == '.' || f[i] == '-' || f[i] == '+' || (i > 0 && (f[i] == 'e') && i+1 < len(f) && (f[i+1] >= '0' && f[i+1] <= '9' || f[i+1] == '-'))) {
			i++
		}
		if i > 0 && i < len(f) {
			out = append(out, f[:i], f[i:])
		} else {
			out = append(out, f)
		}
	}
	return out
}

// intervalAcc accumulates fields in float64 and checks each unit is used
// once.
type intervalAcc struct {
	src                  string
	months, days, micros float64
	seen                 map[string]bool
}

func (a *intervalAcc) mark(u string) bool {
	if a.seen == nil {
		a.seen = map[string]bool{}
	}
	if a.seen[u] {
		return false
	}
	a.seen[u] = true
	return true
}

func (a *intervalAcc) add(num float64, unit string) error {
	var key string
	switch unit {
	case "millennium", "millennia", "millenniums", "mil", "mils":
		key, a.months = "millennium", a.months+num*12000
	case "century", "centuries", "cent", "c":
		key, a.months = "century", a.months+num*1200
	case "decade", "decades", "dec", "decs":
		key, a.months = "decade", a.months+num*120
	case "year", "years", "y", "yr", "yrs":
		key, a.months = "year", a.months+num*12
	case "month", "months", "mon", "mons":
		key = "month"
		whole := math.Trunc(num)
		a.months += whole
		a.days += (num - whole) * 30
	case "week", "weeks", "w":
		key, a.days = "week", a.days+num*7
	case "day", "days", "d":
		key, a.days = "day", a.days+num
	case "hour", "hours", "h", "hr", "hrs":
		key, a.micros = "hour", a.micros+num*3600e6
	case "minute", "minutes", "min", "mins", "m":
		key, a.micros = "minute", a.micros+num*60e6
	case "second", "seconds", "sec", "secs", "s":
		key, a.micros = "second", a.micros+num*1e6
	case "millisecond", "milliseconds", "ms", "msec", "msecs":
		key, a.micros = "millisecond", a.micros+num*1e3
	case "microsecond", "microseconds", "us", "usec", "usecs":
		key, a.micros = "microsecond", a.micros+num
	default:
		return engine.Errorf(engine.CodeInvalidDatetimeFormat, "invalid input syntax for type interval: %q", a.src)
	}
	if !a.mark(key) {
		return engine.Errorf(engine.CodeInvalidDatetimeFormat, "invalid input syntax for type interval: %q", a.src)
	}
	return nil
}

// result turns the fields into an interval: fractional days spill into
// microseconds, and values outside the fields' ranges are errors.
func (a *intervalAcc) result() (engine.IntervalVal, error) {
	over := func() (engine.IntervalVal, error) {
		return engine.IntervalVal{}, engine.Errorf(engine.CodeIntervalFieldOverflow, "interval field value out of range: %q", a.src)
	}
	months := math.Trunc(a.months)
	days := a.days + (a.months-months)*30
	wholeDays := math.Trunc(days)
	micros := math.RoundToEven(a.micros + (days-wholeDays)*86400e6)
	if math.Abs(months) > math.MaxInt32 || math.Abs(wholeDays) > math.MaxInt32 || math.Abs(micros) > 9.2e18 {
		return over()
	}
	return engine.IntervalVal{Months: int32(months), Days: int32(wholeDays), Micros: int64(micros)}, nil
}

// parseISOInterval reads the part after "P" of an ISO 8601 duration.
func parseISOInterval(src, s string) (engine.IntervalVal, error) {
	acc := intervalAcc{src: src}
	inTime := false
	if s == "" {
		return engine.IntervalVal{}, engine.Errorf(engine.CodeInvalidDatetimeFormat, "invalid input syntax for type interval: %q", src)
	}
	for len(s) > 0 {
		if s[0] == 't' {
			inTime = true
			s = s[1:]
			continue
		}
		i := 0
		for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.' || s[i] == '-' || s[i] == '+') {
			i++
		}
		if i == 0 || i == len(s) {
			return engine.IntervalVal{}, engine.Errorf(engine.CodeInvalidDatetimeFormat, "invalid input syntax for type interval: %q", src)
		}
		num, ok := engine.ParseDecLiteral(s[:i])
		if !ok {
			return engine.IntervalVal{}, engine.Errorf(engine.CodeInvalidDatetimeFormat, "invalid input syntax for type interval: %q", src)
		}
		unit := map[byte]string{'y': "year", 'm': "month", 'w': "week", 'd': "day"}[s[i]]
		if inTime {
			unit = map[byte]string{'h': "hour", 'm': "minute", 's': "second"}[s[i]]
		}
		if unit == "" {
			return engine.IntervalVal{}, engine.Errorf(engine.CodeInvalidDatetimeFormat, "invalid input syntax for type interval: %q", src)
		}
		if err := acc.add(num.Float64(), unit); err != nil {
			return engine.IntervalVal{}, err
		}
		s = s[i+1:]
	}
	return acc.result()
}

func parseClock(s string) (int64, bool) {
	neg := false
	if strings.HasPrefix(s, "-") {
		neg = true
		s = s[1:]
	} else if strings.HasPrefix(s, "+") {
		s = s[1:]
	}
	parts := strings.Split(s, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return 0, false
	}
	var us float64
	mult := []float64{3600e6, 60e6, 1e6}
	for k, p := range parts {
		d, ok := engine.ParseDecLiteral(p)
		if !ok || d.Sign() < 0 {
			return 0, false
		}
		us += d.Float64() * mult[k]
	}
	r := int64(math.RoundToEven(us))
	if neg {
		r = -r
	}
	return r, true
}
