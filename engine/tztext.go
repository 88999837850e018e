package engine

// Text input and output of timestamp with time zone and time, beside
// textparse.go's dates and timestamps.

// tpZoneSpec finds a time zone written after a date or a time at s[i:]
// (after blanks): Z, a numeric offset, or a name (UTC, EST,
// Europe/Berlin, Etc/GMT+2). It returns where the zone starts and ends;
// start == end when there is none.
func tpZoneSpec(s []byte, i int) (start, end int) {
	j := i
	for j < len(s) && s[j] == ' ' {
		j++
	}
	if j >= len(s) {
		return i, i
	}
	c := s[j]
	switch {
	case c == '+' || c == '-':
		k := j + 1
		for k < len(s) && (tpIsDigit(s[k]) || s[k] == ':') {
			k++
		}
		return j, k
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		k := j
		for k < len(s) && s[k] != ' ' {
			k++
		}
		return j, k
	}
	return i, i
}

// tpParseTimestampZone parses a timestamp as tpParseTimestamp does but
// returns the zone written after it, if any, instead of ignoring it.
func tpParseTimestampZone(b []byte) (local int64, zone []byte, r tpDtResult) {
	s := tpTrimSpace(b)
	y, m, d, i, r := tpParseDate(s)
	if r == tpDtBad {
		return 0, nil, r
	}
	var tod int64
	if i < len(s) {
		sep := s[i]
		j := i
		if sep == 'T' || sep == 't' {
			j++
		} else if sep == ' ' {
			for j < len(s) && s[j] == ' ' {
				j++
			}
		}
		if j < len(s) && tpIsDigit(s[j]) && j > i {
			var tr tpDtResult
			tod, j, tr = tpParseTime(s, j)
			if tr == tpDtBad {
				return 0, nil, tpDtBad
			}
			if r == tpDtOK {
				r = tr
			}
		} else {
			j = i
		}
		zs, ze := tpZoneSpec(s, j)
		if ze != len(s) {
			return 0, nil, tpDtBad
		}
		zone = s[zs:ze]
	}
	if r != tpDtOK {
		return 0, nil, r
	}
	days := int64(DaysFromCivil(y, m, d))
	if y > tpMaxTimestampYear || days > (1<<63-1-tod)/tpUsPerDay {
		return 0, nil, tpDtTimeRange
	}
	return days*tpUsPerDay + tod, zone, tpDtOK
}

// tpDtZoneRange is a numeric zone offset past 15 hours: 22009.
const tpDtZoneRange tpDtResult = 100

// tsLimits are the timestamps gpusql holds: 4714-11-24 BC to the last
// microsecond int64 microseconds from 1970 reach.
var (
	tsMin = int64(DaysFromCivil(-4713, 11, 24)) * tpUsPerDay
	tsMax = int64(DaysFromCivil(294246, 12, 31))*tpUsPerDay + tpUsPerDay - 1
)

// ParseTimestampTZ parses a timestamp with time zone as timestamptz_in
// does for ISO input: ParseTimestamp's formats, optionally followed by a
// zone: Z, a numeric offset east of Greenwich (+02, +0530, -03:30), an
// abbreviation (EST, CET) or a zone name (Europe/Berlin). Without one the
// wall-clock time is read in zone (the session's TimeZone), as
// PostgreSQL does, resolving daylight-saving gaps and overlaps by
// Zone.FromLocal. The result is UTC microseconds since 1970.
func ParseTimestampTZ(b []byte, zone *Zone) (int64, ParseStatus) {
	v, r := tpParseTimestampTZ(b, zone)
	return v, tpDtStatus(r)
}

func tpParseTimestampTZ(b []byte, zone *Zone) (int64, tpDtResult) {
	s := tpTrimSpace(b)
	if tpEqualFold(s, "epoch") {
		return 0, tpDtOK
	}
	local, spec, r := tpParseTimestampZone(b)
	if r != tpDtOK {
		return 0, r
	}
	var utc int64
	switch {
	case len(spec) == 0:
		utc = zone.FromLocal(local)
	case spec[0] == '+' || spec[0] == '-':
		east, ok := parseOffset(string(spec))
		if !ok {
			return 0, tpDtZoneRange
		}
		utc = local - int64(east)*usPerSecond
	default:
		z, err := LookupZone(string(spec))
		if err != nil || spec[0] == ':' {
			return 0, tpDtBad
		}
		utc = z.FromLocal(local)
	}
	if utc < tsMin || utc > tsMax {
		return 0, tpDtTimeRange
	}
	return utc, tpDtOK
}

// ParseTime parses a time of day as time_in does for ISO input:
// HH:MM[:SS[.ffffff]], optionally after a date and followed by a zone,
// both ignored; 24:00:00 is allowed. The result is microseconds since
// midnight.
func ParseTime(b []byte) (int64, ParseStatus) {
	v, r := tpParseTimeValue(b)
	return v, tpDtStatus(r)
}

func tpParseTimeValue(b []byte) (int64, tpDtResult) {
	s := tpTrimSpace(b)
	if tpEqualFold(s, "allballs") {
		return 0, tpDtOK
	}
	if len(s) > 0 && tpIsDigit(s[0]) {
		if _, j, n := tpDigitsAt(s, 0, 9); n > 0 && j < len(s) && s[j] == ':' {
			us, k, r := tpParseTime(s, 0)
			if r != tpDtOK {
				return 0, r
			}
			if _, ze := tpZoneSpec(s, k); ze != len(s) {
				return 0, tpDtBad
			}
			return us, tpDtOK
		}
	}
	// a date and a time: the time counts
	local, _, r := tpParseTimestampZone(s)
	if r != tpDtOK {
		if r == tpDtTimeRange {
			r = tpDtBad
		}
		return 0, r
	}
	return local - floorDiv64(local, tpUsPerDay)*tpUsPerDay, tpDtOK
}

// AppendTimestampTZ formats UTC microseconds in zone as PostgreSQL's ISO
// style does: YYYY-MM-DD HH:MM:SS[.f]+HH[:MM[:SS]] (and " BC" last for
// years before 1).
func AppendTimestampTZ(dst []byte, us int64, zone *Zone) []byte {
	off, _ := zone.OffsetAt(us)
	local := us + int64(off)*usPerSecond
	days := floorDiv64(local, usPerDay)
	y, m, d := CivilFromDays(int32(days))
	dst = appendYMD(dst, y, m, d)
	dst = append(dst, ' ')
	dst = appendClock(dst, local-days*usPerDay)
	dst = AppendZoneOffset(dst, off)
	if y <= 0 {
		dst = append(dst, " BC"...)
	}
	return dst
}

// AppendTime formats microseconds since midnight as HH:MM:SS[.f].
func AppendTime(dst []byte, us int64) []byte { return appendClock(dst, us) }

// AppendTextZone is AppendText with timestamptz values shown in zone.
func AppendTextZone(dst []byte, v *Vec, i int, zone *Zone) []byte {
	if v.T.Kind == KindTimestampTZ {
		return AppendTimestampTZ(dst, v.I[i], zone)
	}
	return AppendText(dst, v, i)
}
