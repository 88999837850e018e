package query

import (
	"strconv"
	"strings"
	"time"

	"github.com/gpusql/gpusql/engine"
)

// Parameters of type timestamp with time zone. gpusql has no such type:
// a timestamptz parameter is read as the timestamp that PostgreSQL would
// compare it with, the instant's wall-clock time in the session's
// TimeZone (timestamp columns are taken to be in that zone, as
// PostgreSQL takes them when it compares the two types). A value without
// an offset is already such a wall-clock time.

// zonedParam converts a timestamptz (or timestamptz[]) parameter value
// to that wall-clock time; other values are returned as they are.
func (s *Session) zonedParam(oid uint32, p engine.Param) (engine.Param, error) {
	if p.Null || oid != engine.OIDTimestamptz && oid != engine.ArrayOID(engine.OIDTimestamptz) {
		return p, nil
	}
	loc := s.location()
	if oid == engine.OIDTimestamptz {
		v, err := wallClock(string(p.Value), loc)
		if err != nil {
			return p, err
		}
		return engine.Param{Value: []byte(v)}, nil
	}
	els, err := parseTextArray(string(p.Value))
	if err != nil {
		return p, err
	}
	out := []byte{'{'}
	for i, e := range els {
		if i > 0 {
			out = append(out, ',')
		}
		if e == nil {
			out = append(out, "NULL"...)
			continue
		}
		v, err := wallClock(*e, loc)
		if err != nil {
			return p, err
		}
		out = appendArrayElem(out, []byte(v))
	}
	return engine.Param{Value: append(out, '}')}, nil
}

// location is the session's TimeZone; a zone Go cannot load reads as UTC.
func (s *Session) location() *time.Location {
	name := s.setting("timezone")
	if name == "" || strings.EqualFold(name, "utc") {
		return time.UTC
	}
	if loc, err := time.LoadLocation(name); err == nil {
		return loc
	}
	return time.UTC
}

// wallClock converts timestamptz text to the wall-clock time of its
// instant in loc, as timestamp text. Text without an offset, and the
// infinities, are returned unchanged.
func wallClock(v string, loc *time.Location) (string, error) {
	s := strings.TrimSpace(v)
	body, off, ok := splitOffset(s)
	if !ok {
		return v, nil
	}
	us, st := engine.ParseTimestamp([]byte(body))
	if st != engine.ParseOK {
		e := engine.InputError(engine.Timestamp, st, []byte(v))
		e.Message = strings.Replace(e.Message, "type timestamp", "type timestamp with time zone", 1)
		return "", e
	}
	t := time.UnixMicro(us - int64(off)*1e6).In(loc)
	_, zoneOff := t.Zone()
	wall := time.UnixMicro(t.UnixMicro() + int64(zoneOff)*1e6).UTC()
	y := wall.Year()
	if y < 1 || y > 9999 {
		return "", engine.Errorf(engine.CodeDatetimeFieldOverflow, "timestamp out of range: %q", v)
	}
	return wall.Format("2006-01-02 15:04:05.999999"), nil
}

// splitOffset finds a UTC offset at the end of timestamp text s: Z, UTC,
// GMT or +HH[:MM[:SS]], -HHMM. It returns the text before it and the
// offset in seconds east of UTC; ok is false when s has none.
func splitOffset(s string) (body string, off int, ok bool) {
	lower := strings.ToLower(s)
	switch {
	case strings.HasSuffix(lower, "z"):
		return strings.TrimSpace(s[:len(s)-1]), 0, true
	case strings.HasSuffix(lower, "utc"), strings.HasSuffix(lower, "gmt"):
		return strings.TrimSpace(s[:len(s)-3]), 0, true
	}
	// The offset's sign comes after the time of day, whose first colon
	// it must follow (a date's '-' must not be taken for one).
	colon := strings.IndexByte(s, ':')
	if colon < 0 {
		return s, 0, false
	}
	k := strings.LastIndexAny(s, "+-")
	if k <= colon {
		return s, 0, false
	}
	sign := 1
	if s[k] == '-' {
		sign = -1
	}
	z := s[k+1:]
	var parts []string
	if strings.Contains(z, ":") {
		parts = strings.Split(z, ":")
	} else {
		switch len(z) {
		case 1, 2:
			parts = []string{z}
		case 4:
			parts = []string{z[:2], z[2:]}
		case 6:
			parts = []string{z[:2], z[2:4], z[4:]}
		default:
			return s, 0, false
		}
	}
	if len(parts) > 3 {
		return s, 0, false
	}
	mult := []int{3600, 60, 1}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || len(p) > 2 {
			return s, 0, false
		}
		off += n * mult[i]
	}
	return strings.TrimSpace(s[:k]), sign * off, true
}
