package eval

import (
	"strconv"
	"strings"

	"github.com/gpusql/gpusql/engine"
)

// to_date and to_timestamp: the input read by a template, as
// PostgreSQL 15's from_char does outside FX mode: a separator in the
// template matches one separator in the input (or none), leading blanks
// before a field are skipped, a number reads as many digits as it finds
// when a separator follows it in the template (else its field's width),
// and names match regardless of case.

// parsedTime is what the template's fields set.
type parsedTime struct {
	year, mon, mday        int
	hour, min, sec, us     int
	hasYear, bc, pm, h12   bool
	hasMeridiem            bool
	doy, julian            int
	tzSet                  bool
	tzh, tzm               int
	tzNeg                  bool
	secOfDay               int
	hasSecOfDay, yearShort bool
	yearDigits             int
}

func badFormat(format string, args ...any) *engine.Error {
	return engine.Errorf(engine.CodeInvalidDatetimeFormat, format, args...)
}

// fieldWidth is the number of digits a numeric field reads when another
// field follows it directly.
var fieldWidth = map[string]int{
	"YYYY": 4, "YYY": 3, "YY": 2, "Y": 1, "MM": 2, "DD": 2, "DDD": 3, "HH": 2, "HH12": 2, "HH24": 2,
	"MI": 2, "SS": 2, "MS": 3, "US": 6, "FF1": 1, "FF2": 2, "FF3": 3, "FF4": 4, "FF5": 5, "FF6": 6,
	"J": 0, "SSSS": 5, "SSSSS": 5, "CC": 2, "Q": 1, "D": 1, "ID": 1, "W": 1, "WW": 2, "TZH": 2, "TZM": 2,
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isAlnum(c byte) bool {
	return isDigit(c) || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// parseTimeText reads s by the template's nodes.
func parseTimeText(s string, nodes []dchNode) (parsedTime, error) {
	p := parsedTime{mon: 1, mday: 1, year: 1}
	i := 0
	for ni, n := range nodes {
		if n.key == "" {
			// literal text: each separator skips one input separator if
			// there is one, each other character skips one character
			for k := 0; k < len(n.text); k++ {
				c := n.text[k]
				switch {
				case c == ' ':
					for i < len(s) && s[i] == ' ' {
						i++
					}
				case !isAlnum(c):
					if i < len(s) && !isAlnum(s[i]) {
						i++
					}
				default:
					if i < len(s) {
						i++
					}
				}
			}
			continue
		}
		for i < len(s) && s[i] == ' ' {
			i++
		}
		k := strings.ToUpper(n.key)
		// the next node is a separator (or nothing): read all digits
		greedy := ni+1 >= len(nodes) || nodes[ni+1].key == "" || n.fm
		readInt := func() (int, int, error) {
			j := i
			neg := false
			if j < len(s) && (s[j] == '-' || s[j] == '+') && (k == "YYYY" || k == "TZH" || k == "J") {
				neg = s[j] == '-'
				j++
			}
			start := j
			w := fieldWidth[k]
			for j < len(s) && isDigit(s[j]) && (greedy || w == 0 || j-start < w) {
				j++
			}
			if j == start {
				rest := s[i:]
				if len(rest) > 10 {
					rest = rest[:10]
				}
				if rest == "" {
					return 0, 0, badFormat("source string too short for \"%s\" formatting field", n.key).
						WithDetail("Field requires %d characters, but only 0 remain.", max(w, 1))
				}
				return 0, 0, badFormat("invalid value \"%s\" for \"%s\"", rest, n.key).WithDetail("Value must be an integer.")
			}
			v, err := strconv.Atoi(s[start:j])
			if err != nil || j-start > 9 {
				return 0, 0, engine.Errorf(engine.CodeDatetimeFieldOverflow, "value for \"%s\" in source string is out of range", n.key)
			}
			digits := j - start
			i = j
			if neg {
				v = -v
			}
			return v, digits, nil
		}
		matchName := func(names []string, short bool) (int, error) {
			for idx, name := range names {
				if short {
					name = name[:3]
				}
				if len(s)-i >= len(name) && strings.EqualFold(s[i:i+len(name)], name) {
					i += len(name)
					return idx, nil
				}
			}
			rest := s[i:]
			if len(rest) > 10 {
				rest = rest[:10]
			}
			return 0, badFormat("invalid value \"%s\" for \"%s\"", rest, n.key).WithDetail("The given value did not match any of the allowed values for this field.")
		}
		var err error
		var v, digits int
		switch k {
		case "YYYY", "YYY", "YY", "Y":
			if v, digits, err = readInt(); err == nil {
				p.year, p.hasYear, p.yearDigits = v, true, digits
				p.yearShort = digits < 4 && k != "YYYY" || k == "YYYY" && digits < 4
			}
		case "Y,YYY":
			var hi, lo int
			if hi, _, err = readInt(); err == nil {
				if i < len(s) && s[i] == ',' {
					i++
				}
				k = "YYY"
				if lo, _, err = readInt(); err == nil {
					p.year, p.hasYear, p.yearDigits = hi*1000+lo, true, 4
				}
			}
		case "MM":
			p.mon, _, err = readInt()
		case "MONTH", "MON":
			v, err = matchName(monthNames, k == "MON")
			p.mon = v + 1
		case "DAY", "DY":
			_, err = matchName(dayNames, k == "DY") // read and ignored, as PostgreSQL does
		case "DD":
			p.mday, _, err = readInt()
		case "DDD":
			p.doy, _, err = readInt()
		case "J":
			p.julian, _, err = readInt()
		case "HH", "HH12":
			p.hour, _, err = readInt()
			p.h12 = true
		case "HH24":
			p.hour, _, err = readInt()
		case "MI":
			p.min, _, err = readInt()
		case "SS":
			p.sec, _, err = readInt()
		case "SSSS", "SSSSS":
			p.secOfDay, _, err = readInt()
			p.hasSecOfDay = true
		case "MS", "US", "FF1", "FF2", "FF3", "FF4", "FF5", "FF6":
			if v, digits, err = readInt(); err == nil {
				// the digits are a fraction: "5" in MS is 500 ms
				scale := 3
				if k == "US" || strings.HasPrefix(k, "FF") {
					scale = 6
				}
				for d := digits; d < scale; d++ {
					v *= 10
				}
				for d := digits; d > scale; d-- {
					v /= 10
				}
				if scale == 3 {
					v *= 1000
				}
				p.us = v
			}
		case "AM", "PM", "A.M.", "P.M.":
			w := 2
			if strings.Contains(k, ".") {
				w = 4
			}
			if len(s)-i < w {
				return p, badFormat("source string too short for \"%s\" formatting field", n.key)
			}
			t := strings.ToUpper(s[i : i+w])
			switch strings.ReplaceAll(t, ".", "") {
			case "AM":
			case "PM":
				p.pm = true
			default:
				return p, badFormat("invalid value \"%s\" for \"%s\"", s[i:i+w], n.key).WithDetail("The given value did not match any of the allowed values for this field.")
			}
			p.hasMeridiem = true
			i += w
		case "AD", "BC", "A.D.", "B.C.":
			w := 2
			if strings.Contains(k, ".") {
				w = 4
			}
			if len(s)-i >= w && strings.EqualFold(strings.ReplaceAll(s[i:i+w], ".", ""), "BC") {
				p.bc = true
			}
			i = min(i+w, len(s))
		case "TZH":
			neg := i < len(s) && s[i] == '-'
			if v, _, err = readInt(); err == nil {
				p.tzSet, p.tzh, p.tzNeg = true, max(v, -v), neg || v < 0
			}
		case "TZM":
			p.tzm, _, err = readInt()
			p.tzSet = true
		case "D", "ID", "Q", "W", "WW", "CC":
			_, _, err = readInt() // read; PostgreSQL ignores them when a date is given
		case "FX":
		default:
			return p, engine.Errorf(engine.CodeFeatureNotSupported, "formatting field \"%s\" is only supported in to_char", n.key)
		}
		if err != nil {
			return p, err
		}
	}
	return p, nil
}

// adjustYear is PostgreSQL's adjust_partial_year_to_2020.
func adjustYear(y int) int {
	switch {
	case y < 70:
		return y + 2000
	case y < 100:
		return y + 1900
	case y < 520:
		return y + 2000
	case y < 1000:
		return y + 1000
	}
	return y
}

// toLocal turns the fields into wall-clock µs, checking their ranges;
// offset is the TZH/TZM offset in seconds east, if given.
func (p parsedTime) toLocal() (local int64, offset int32, hasOffset bool, err error) {
	rangeErr := func() error {
		return engine.Errorf(engine.CodeDatetimeFieldOverflow, "date/time field value out of range")
	}
	y := p.year
	if p.hasYear && p.yearShort {
		y = adjustYear(y)
	}
	if p.bc {
		y = 1 - y
	}
	var days int64
	switch {
	case p.julian != 0:
		days = int64(p.julian) - 2440588
	case p.doy != 0:
		if p.doy < 1 || p.doy > 365+isLeap(y) {
			return 0, 0, false, rangeErr()
		}
		days = int64(engine.DaysFromCivil(y, 1, 1)) + int64(p.doy) - 1
	default:
		if p.mon < 1 || p.mon > 12 || p.mday < 1 || p.mday > dayTab[isLeap(y)][p.mon-1] {
			return 0, 0, false, rangeErr()
		}
		days = int64(engine.DaysFromCivil(y, p.mon, p.mday))
	}
	h := p.hour
	if p.h12 || p.hasMeridiem {
		if h < 1 || h > 12 {
			return 0, 0, false, engine.Errorf(engine.CodeInvalidDatetimeFormat, "hour \"%d\" is invalid for the 12-hour clock", h).
				WithHint("Use the 24-hour clock, or give an hour between 1 and 12.")
		}
		if h == 12 {
			h = 0
		}
		if p.pm {
			h += 12
		}
	}
	tod := int64(((h*60+p.min)*60+p.sec))*1_000_000 + int64(p.us)
	if p.hasSecOfDay {
		tod = int64(p.secOfDay)*1_000_000 + int64(p.us)
	}
	if h > 24 || p.min > 59 || p.sec > 60 || tod > usPerDay {
		return 0, 0, false, rangeErr()
	}
	local = days*usPerDay + tod
	if local < minTimestamp || local > maxTimestamp {
		return 0, 0, false, engine.Errorf(engine.CodeDatetimeFieldOverflow, "timestamp out of range")
	}
	if p.tzSet {
		offset = int32(p.tzh*3600 + p.tzm*60)
		if p.tzNeg {
			offset = -offset
		}
	}
	return local, offset, p.tzSet, nil
}
