package engine

import (
	"math"
	"strconv"
	"strings"
	"sync"
	"time"
	// The IANA zones are compiled in, so that time zones work on machines
	// without /usr/share/zoneinfo (containers, embedded use).
	_ "time/tzdata"
)

// Zone is a time zone as PostgreSQL resolves one: a fixed offset (an
// abbreviation such as EST, a numeric or POSIX-style offset) or an IANA
// zone (Europe/Berlin) whose offset depends on the instant. timestamptz
// values are UTC microseconds; a Zone turns them into local wall-clock
// time and back.
type Zone struct {
	// Name is the zone as a query names it again: what a plan's constant
	// carries and LookupZone reads back to this zone.
	Name string
	loc  *time.Location // nil: a fixed offset
	off  int32          // fixed: seconds east of UTC
	// dyn is a dynamic abbreviation (MSK) of loc: its offset is that of
	// the abbreviation's use nearest before the instant in question
	dyn string
	// abbrev is what to_char's TZ shows for a fixed zone: the
	// abbreviation, or the offset ("+05", "-03:30") as PostgreSQL
	// writes one.
	abbrev string
}

// UTCZone is UTC, the default TimeZone.
var UTCZone = &Zone{Name: "UTC", abbrev: "UTC"}

type zoneAbbrev struct {
	off  int32  // seconds east of UTC, for a fixed abbreviation
	dst  bool   // a daylight-saving abbreviation
	zone string // a dynamic abbreviation: the zone that gives its offset
}

const usPerSecond = 1_000_000

// IsFixed reports whether the zone's offset never changes, and returns
// it (seconds east of UTC).
func (z *Zone) IsFixed() (int32, bool) {
	if z.loc == nil && z.dyn == "" {
		return z.off, true
	}
	return 0, false
}

// Location is the zone's IANA location, nil for a fixed offset.
func (z *Zone) Location() *time.Location { return z.loc }

// Fixed returns the zone's offset (seconds east of UTC) and true when it
// never changes (UTC, +05:30), false for zones with transitions.
func (z *Zone) Fixed() (int32, bool) { return z.off, z.loc == nil }

// TzPeriod is 400 Gregorian years in seconds (146,097 days, a whole number
// of weeks): past its last listed transition a zone follows one yearly
// rule, so its offsets repeat with this period.
const TzPeriod = 146_097 * 86_400

// Transitions lists the zone's offsets as a table a kernel can search:
// starts[i] (Unix seconds) is when offs[i] takes effect, starts[0] is
// math.MinInt64 (the offset before the first transition), and the table
// is exact up to the instant limit (seconds). Later instants repeat the
// offsets of the TzPeriod before limit: the table reaches a full period
// past the zone's last listed transition (and the first years of its
// rule), so an instant t > limit has the offset of t - k·TzPeriod, the
// k that brings it into the last period. ok is false for a fixed zone
// and for a dynamic abbreviation (MSK), whose offsets the table does not
// describe.
func (z *Zone) Transitions() (starts []int64, offs []int32, limit int64, ok bool) {
	if z.loc == nil || z.dyn != "" {
		return nil, nil, 0, false
	}
	const from = -5_364_662_400 // 1800-01-01
	t := time.Unix(from, 0).In(z.loc)
	_, off := t.Zone()
	starts, offs = append(starts, math.MinInt64), append(offs, int32(off))
	add := func(at int64, off int) {
		if off != int(offs[len(offs)-1]) {
			starts, offs = append(starts, at), append(offs, int32(off))
		}
	}
	// the transitions the zone lists, while Go's periods advance
	for t.Year() < 2037 {
		_, end := t.ZoneBounds()
		if end.IsZero() || !end.After(t) {
			break
		}
		t = end.In(z.loc)
		_, off = t.Zone()
		add(t.Unix(), off)
	}
	// The rule holds from a year after the last listed transition at the
	// latest; the table goes on for one period past that. There Go
	// derives periods from the rule, and its periods can end where they
	// start: probe every day (a rule's transitions are months apart) and
	// find each change to the second.
	limit = time.Date(max(2040, t.Year()+2), 1, 1, 0, 0, 0, 0, time.UTC).Unix() + TzPeriod
	at := t.Unix()
	_, cur := t.Zone()
	for at < limit {
		next := min(at+86400, limit)
		if _, o := time.Unix(next, 0).In(z.loc).Zone(); o != cur {
			lo, hi := at, next // offset cur at lo, o at hi
			for hi-lo > 1 {
				mid := lo + (hi-lo)/2
				if _, m := time.Unix(mid, 0).In(z.loc).Zone(); m == cur {
					lo = mid
				} else {
					hi = mid
				}
			}
			add(hi, o)
			cur = o
		}
		at = next
	}
	return starts, offs, limit, true
}

// OffsetAt returns the zone's offset (seconds east of UTC) at the UTC
// instant us, and its abbreviation then.
func (z *Zone) OffsetAt(us int64) (int32, string) {
	if z.loc == nil {
		return z.off, z.abbrev
	}
	if z.dyn != "" {
		return abbrevOffset(z.loc, z.dyn, floorDiv64(us, usPerSecond)), strings.ToUpper(z.dyn)
	}
	name, off := time.Unix(floorDiv64(us, usPerSecond), 0).In(z.loc).Zone()
	return int32(off), name
}

// ToLocal converts UTC microseconds to the zone's wall-clock time.
func (z *Zone) ToLocal(us int64) int64 {
	off, _ := z.OffsetAt(us)
	return us + int64(off)*usPerSecond
}

// FromLocal converts the zone's wall-clock time (microseconds since
// 1970-01-01 local) to UTC microseconds, as PostgreSQL's
// DetermineTimeZoneOffset does: a time in a daylight-saving gap or
// overlap takes the offset from before the transition when the clocks
// go forward, and the one after it when they go back (in both cases the
// smaller offset of the two).
func (z *Zone) FromLocal(local int64) int64 {
	return local - int64(z.LocalOffset(local))*usPerSecond
}

// LocalOffset is the offset (seconds east of UTC) FromLocal applies to
// the wall-clock time local.
func (z *Zone) LocalOffset(local int64) int32 {
	if z.loc == nil {
		return z.off
	}
	if z.dyn != "" {
		// the abbreviation's offset at the instant the zone's own
		// resolution of the wall-clock time gives
		zone := &Zone{loc: z.loc}
		return abbrevOffset(z.loc, z.dyn, floorDiv64(zone.FromLocal(local), usPerSecond))
	}
	t := floorDiv64(local, usPerSecond)
	// The transition just after a day before t: zones' offsets are less
	// than a day, and transitions are days apart (as PostgreSQL assumes).
	prev := time.Unix(t-86400, 0).In(z.loc)
	_, before := prev.Zone()
	_, end := prev.ZoneBounds()
	if end.IsZero() {
		return int32(before)
	}
	boundary := end.Unix()
	_, after := end.In(z.loc).Zone()
	bt, at := t-int64(before), t-int64(after)
	switch {
	case bt < boundary && at < boundary:
		return int32(before)
	case bt >= boundary && at >= boundary:
		return int32(after)
	case bt > at:
		return int32(before) // clocks went forward: the time before
	}
	return int32(after) // clocks went back: the time after
}

var zoneCache sync.Map // string → *Zone

// LookupZone resolves a time zone named as AT TIME ZONE and timezone()
// take one, in PostgreSQL's order: a numeric offset ("+05", "-03:30",
// positive west of Greenwich, as POSIX), one of PostgreSQL's default
// abbreviations (EST, CET, UTC, case-insensitive), an IANA zone name
// (Europe/Berlin, case-insensitive), or a POSIX-style spec without
// daylight-saving rules ("UTC+5", "<+05>-05", positive west). Unknown
// names are 22023, as in PostgreSQL.
func LookupZone(name string) (*Zone, error) {
	if z, ok := zoneCache.Load(name); ok {
		return z.(*Zone), nil
	}
	z, err := lookupZone(name)
	if err != nil {
		return nil, err
	}
	zoneCache.Store(name, z)
	return z, nil
}

func lookupZone(name string) (*Zone, error) {
	notFound := func() (*Zone, error) {
		return nil, Errorf(CodeInvalidParameterValue, "time zone %q not recognized", name)
	}
	if name == "" {
		return notFound()
	}
	if name[0] == ':' {
		// Ref's spelling of an IANA zone whose name is also an
		// abbreviation (CET)
		return lookupLocation(name[1:])
	}
	if name[0] >= '0' && name[0] <= '9' {
		return nil, Errorf(CodeInvalidParameterValue, "invalid input syntax for type numeric time zone: %q", name).
			WithHint("Numeric time zones must have \"-\" or \"+\" as first character.")
	}
	if name[0] == '+' || name[0] == '-' {
		west, ok := parseOffset(name)
		if !ok {
			return notFound()
		}
		return FixedZone(-west), nil
	}
	if a, ok := zoneAbbrevs[strings.ToLower(name)]; ok {
		if a.zone != "" {
			z, err := lookupLocation(a.zone)
			if err != nil {
				return nil, err
			}
			return &Zone{Name: name, loc: z.loc, dyn: strings.ToUpper(name)}, nil
		}
		return &Zone{Name: name, off: a.off, abbrev: strings.ToUpper(name)}, nil
	}
	if z, err := lookupLocation(name); err == nil {
		return z, nil
	}
	if east, abbrev, ok := parsePOSIXFixed(name); ok {
		return &Zone{Name: name, off: east, abbrev: abbrev}, nil
	}
	return notFound()
}

// Ref is a name that LookupZone resolves to exactly this zone: its Name,
// or for an IANA zone whose name is also one of the abbreviations that
// LookupZone tries first (CET, EST), the name after a colon.
func (z *Zone) Ref() string {
	if z.loc != nil {
		if _, ok := zoneAbbrevs[strings.ToLower(z.Name)]; ok {
			return ":" + z.Name
		}
	}
	return z.Name
}

// FixedZone is the zone at a fixed offset (seconds east of UTC). Its Name
// is the POSIX spec PostgreSQL shows for it ("<+05>-05"), which
// LookupZone reads back.
func FixedZone(east int32) *Zone {
	ab := string(AppendZoneOffset(nil, east))
	west := string(AppendZoneOffset(nil, -east))
	if east == 0 {
		west = "-00"
	}
	return &Zone{Name: "<" + ab + ">" + west, off: east, abbrev: ab}
}

// lookupLocation finds an IANA zone, ignoring case as PostgreSQL does.
func lookupLocation(name string) (*Zone, error) {
	if strings.EqualFold(name, "utc") {
		return &Zone{Name: "UTC", abbrev: "UTC"}, nil
	}
	if strings.ContainsAny(name, " .\\") || strings.HasPrefix(name, "/") {
		return nil, Errorf(CodeInvalidParameterValue, "time zone %q not recognized", name)
	}
	for _, cand := range zoneSpellings(name) {
		if loc, err := time.LoadLocation(cand); err == nil {
			return &Zone{Name: cand, loc: loc}, nil
		}
	}
	return nil, Errorf(CodeInvalidParameterValue, "time zone %q not recognized", name)
}

// zoneSpellings are the spellings of a zone name to try: as given, and
// in the tz database's usual case (America/New_York, Etc/GMT+2,
// America/Port-au-Prince, EST5EDT).
func zoneSpellings(name string) []string {
	out := []string{name}
	b := []byte(strings.ToLower(name))
	up := true
	for i, c := range b {
		if up && c >= 'a' && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
		up = c == '/' || c == '_' || c == '-'
	}
	title := string(b)
	out = append(out, title)
	// a part that is all letters of length ≤ 3 is often upper case
	// (Etc/UTC, US/Pacific is not, but EST5EDT and GMT are)
	parts := strings.Split(title, "/")
	for i, p := range parts {
		if len(p) <= 3 || strings.IndexAny(p, "0123456789") >= 0 {
			parts[i] = strings.ToUpper(p)
		}
	}
	out = append(out, strings.Join(parts, "/"), strings.ToUpper(name))
	return out
}

// parseOffset reads [+-]H[H][[:]MM[[:]SS]] and returns the signed number
// of seconds it writes.
func parseOffset(s string) (int32, bool) {
	if len(s) < 2 || s[0] != '+' && s[0] != '-' {
		return 0, false
	}
	sign := int32(1)
	if s[0] == '-' {
		sign = -1
	}
	var parts []int32
	rest := s[1:]
	if strings.Contains(rest, ":") {
		for _, p := range strings.Split(rest, ":") {
			v, err := strconv.Atoi(p)
			if err != nil || p == "" || len(p) > 2 {
				return 0, false
			}
			parts = append(parts, int32(v))
		}
	} else {
		for _, c := range rest {
			if c < '0' || c > '9' {
				return 0, false
			}
		}
		switch len(rest) {
		case 1, 2:
			v, _ := strconv.Atoi(rest)
			parts = []int32{int32(v)}
		case 3, 4:
			v, _ := strconv.Atoi(rest)
			parts = []int32{int32(v / 100), int32(v % 100)}
		case 5, 6:
			v, _ := strconv.Atoi(rest)
			parts = []int32{int32(v / 10000), int32(v / 100 % 100), int32(v % 100)}
		default:
			return 0, false
		}
	}
	if len(parts) == 0 || len(parts) > 3 {
		return 0, false
	}
	for len(parts) < 3 {
		parts = append(parts, 0)
	}
	if parts[0] > 15 || parts[1] > 59 || parts[2] > 59 {
		return 0, false
	}
	return sign * (parts[0]*3600 + parts[1]*60 + parts[2]), true
}

// parsePOSIXFixed reads a POSIX TZ spec without daylight-saving time:
// a name of three or more letters (or <...>) and an offset, positive
// west of Greenwich ("UTC+5", "GMT-2", "<+05>-05"). It returns the
// offset east and the name.
func parsePOSIXFixed(s string) (int32, string, bool) {
	var name, rest string
	if strings.HasPrefix(s, "<") {
		k := strings.IndexByte(s, '>')
		if k < 0 {
			return 0, "", false
		}
		name, rest = s[1:k], s[k+1:]
	} else {
		k := 0
		for k < len(s) && (s[k] >= 'a' && s[k] <= 'z' || s[k] >= 'A' && s[k] <= 'Z') {
			k++
		}
		if k < 3 {
			return 0, "", false
		}
		name, rest = s[:k], s[k:]
	}
	if rest == "" {
		return 0, "", false
	}
	if rest[0] != '+' && rest[0] != '-' {
		rest = "+" + rest
	}
	if len(rest) > 1 && rest[1] == ':' {
		return 0, "", false
	}
	// POSIX offsets go up to 24 hours
	west, ok := parsePOSIXOffset(rest)
	if !ok {
		return 0, "", false
	}
	return -west, strings.ToUpper(name), true
}

func parsePOSIXOffset(s string) (int32, bool) {
	sign := int32(1)
	if s[0] == '-' {
		sign = -1
	}
	parts := strings.Split(s[1:], ":")
	if len(parts) > 3 {
		return 0, false
	}
	var v [3]int32
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || p == "" || len(p) > 3 {
			return 0, false
		}
		v[i] = int32(n)
	}
	if v[0] > 24 || v[1] > 59 || v[2] > 59 {
		return 0, false
	}
	return sign * (v[0]*3600 + v[1]*60 + v[2]), true
}

// SessionZone resolves a value of the TimeZone setting (SET TIME ZONE,
// SET timezone) as PostgreSQL's check_timezone does: a number is hours
// east of UTC (the SQL convention, unlike AT TIME ZONE's POSIX one), an
// INTERVAL a fixed offset, anything else a zone name or POSIX spec. The
// zone's Name is what SHOW TimeZone says.
func SessionZone(value string) (*Zone, error) {
	v := strings.TrimSpace(value)
	if strings.HasPrefix(strings.ToLower(v), "interval") {
		return nil, Errorf(CodeFeatureNotSupported, "an interval as the TimeZone setting is not supported by gpusql; use a number of hours or a zone name")
	}
	if h, err := strconv.ParseFloat(v, 64); err == nil && v != "" && (v[0] >= '0' && v[0] <= '9' || v[0] == '+' || v[0] == '-' || v[0] == '.') {
		secs := int64(h * 3600)
		if secs <= -24*3600 || secs >= 24*3600 {
			return nil, Errorf(CodeInvalidParameterValue, "invalid value for parameter \"TimeZone\": %q", value)
		}
		return FixedZone(int32(secs)), nil
	}
	if v != "" && (v[0] == '+' || v[0] == '-') {
		// not a number: a POSIX offset, positive west
		if west, ok := parsePOSIXOffset(v); ok {
			return &Zone{Name: v, off: -west, abbrev: string(AppendZoneOffset(nil, -west))}, nil
		}
	}
	if v == "" || v[0] == '+' || v[0] == '-' || v[0] >= '0' && v[0] <= '9' {
		return nil, Errorf(CodeInvalidParameterValue, "invalid value for parameter \"TimeZone\": %q", value)
	}
	if z, err := lookupLocation(v); err == nil {
		return z, nil
	}
	if east, abbrev, ok := parsePOSIXFixed(v); ok {
		return &Zone{Name: strings.ToUpper(v), off: east, abbrev: abbrev}, nil
	}
	return nil, Errorf(CodeInvalidParameterValue, "invalid value for parameter \"TimeZone\": %q", value)
}

// AppendZoneOffset writes an offset (seconds east of UTC) as PostgreSQL's
// EncodeTimezone: +HH, +HH:MM or +HH:MM:SS.
func AppendZoneOffset(dst []byte, east int32) []byte {
	sign := byte('+')
	if east < 0 {
		sign = '-'
		east = -east
	}
	dst = append(dst, sign)
	h, m, s := east/3600, east/60%60, east%60
	dst = appendPad(dst, int(h), 2)
	if m != 0 || s != 0 {
		dst = append(dst, ':')
		dst = appendPad(dst, int(m), 2)
	}
	if s != 0 {
		dst = append(dst, ':')
		dst = appendPad(dst, int(s), 2)
	}
	return dst
}

// abbrevOffset is PostgreSQL's pg_interpret_timezone_abbrev: the offset
// of the latest period of loc at or before t that used the abbreviation,
// else of the earliest one after t.
func abbrevOffset(loc *time.Location, abbrev string, t int64) int32 {
	at := time.Unix(t, 0).In(loc)
	for k := 0; k < 10000; k++ {
		name, off := at.Zone()
		if strings.EqualFold(name, abbrev) {
			return int32(off)
		}
		start, _ := at.ZoneBounds()
		if start.IsZero() {
			break
		}
		at = start.Add(-time.Second).In(loc)
	}
	at = time.Unix(t, 0).In(loc)
	for k := 0; k < 10000; k++ {
		_, end := at.ZoneBounds()
		if end.IsZero() {
			break
		}
		at = end.In(loc)
		if name, off := at.Zone(); strings.EqualFold(name, abbrev) {
			return int32(off)
		}
	}
	_, off := time.Unix(t, 0).In(loc).Zone()
	return int32(off)
}
