package wire

// Binary result format. The engine produces PostgreSQL text; a client
// that asks for binary columns (pgx does, for the types it knows) gets the
// text converted here, per value. Only Bind can ask for binary, so the
// simple protocol never pays for this.

import (
	"encoding/binary"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/internal/pgbinary"
)

// binaryEncoder appends the binary form of the text value v to dst.
type binaryEncoder func(dst, v []byte) ([]byte, error)

// binaryEncoderFor returns the encoder for a type OID, or 0A000.
func binaryEncoderFor(oid uint32) (binaryEncoder, error) {
	switch oid {
	case engine.OIDText, engine.OIDVarchar, engine.OIDBpchar, engine.OIDUnknown, 19 /* name */ :
		return func(dst, v []byte) ([]byte, error) { return append(dst, v...), nil }, nil
	case engine.OIDBool:
		return encodeBool, nil
	case engine.OIDInt2:
		return intEncoder(16), nil
	case engine.OIDInt4:
		return intEncoder(32), nil
	case engine.OIDInt8:
		return intEncoder(64), nil
	case engine.OIDFloat4:
		return encodeFloat4, nil
	case engine.OIDFloat8:
		return encodeFloat8, nil
	case engine.OIDDate:
		return encodeDate, nil
	case engine.OIDTimestamp:
		return encodeTimestamp, nil
	case engine.OIDTimestampTZ:
		return encodeTimestampTZ, nil
	case engine.OIDTime:
		return encodeTime, nil
	case engine.OIDInterval:
		return encodeInterval, nil
	case engine.OIDNumeric:
		return encodeNumeric, nil
	}
	return nil, engine.Errorf(engine.CodeFeatureNotSupported,
		"binary result format is not supported for type OID %d", oid).WithDetail("%s", "request the text format for this column")
}

func badText(v []byte, what string) error {
	return engine.Errorf(engine.CodeInvalidTextRepresent, "cannot send %q in binary %s format", v, what)
}

func encodeBool(dst, v []byte) ([]byte, error) {
	switch string(v) {
	case "t", "true":
		return append(dst, 1), nil
	case "f", "false":
		return append(dst, 0), nil
	}
	return dst, badText(v, "boolean")
}

func intEncoder(bits int) binaryEncoder {
	return func(dst, v []byte) ([]byte, error) {
		n, err := strconv.ParseInt(string(v), 10, bits)
		if err != nil {
			return dst, badText(v, "integer")
		}
		switch bits {
		case 16:
			return binary.BigEndian.AppendUint16(dst, uint16(n)), nil
		case 32:
			return binary.BigEndian.AppendUint32(dst, uint32(n)), nil
		}
		return binary.BigEndian.AppendUint64(dst, uint64(n)), nil
	}
}

func encodeFloat4(dst, v []byte) ([]byte, error) {
	f, err := strconv.ParseFloat(string(v), 32)
	if err != nil {
		return dst, badText(v, "real")
	}
	return binary.BigEndian.AppendUint32(dst, math.Float32bits(float32(f))), nil
}

func encodeFloat8(dst, v []byte) ([]byte, error) {
	f, err := strconv.ParseFloat(string(v), 64)
	if err != nil {
		return dst, badText(v, "double precision")
	}
	return binary.BigEndian.AppendUint64(dst, math.Float64bits(f)), nil
}

// PostgreSQL's binary dates and timestamps count from 2000-01-01.
const pgEpoch = pgbinary.EpochDays * 86400

// parseDate parses YYYY-MM-DD with an optional " BC".
func parseDate(s string) (time.Time, bool) {
	bc := strings.HasSuffix(s, " BC")
	s = strings.TrimSuffix(s, " BC")
	y, rest, ok := strings.Cut(s, "-")
	m, d, ok2 := strings.Cut(rest, "-")
	if !ok || !ok2 {
		return time.Time{}, false
	}
	yi, e1 := strconv.Atoi(y)
	mi, e2 := strconv.Atoi(m)
	di, e3 := strconv.Atoi(d)
	if e1 != nil || e2 != nil || e3 != nil || mi < 1 || mi > 12 || di < 1 || di > 31 || yi < 0 {
		return time.Time{}, false
	}
	if bc {
		yi = 1 - yi
	}
	return time.Date(yi, time.Month(mi), di, 0, 0, 0, 0, time.UTC), true
}

func encodeDate(dst, v []byte) ([]byte, error) {
	switch string(v) {
	case "infinity":
		return binary.BigEndian.AppendUint32(dst, math.MaxInt32), nil
	case "-infinity":
		return binary.BigEndian.AppendUint32(dst, 1<<31), nil
	}
	t, ok := parseDate(string(v))
	if !ok {
		return dst, badText(v, "date")
	}
	days := (t.Unix() - pgEpoch) / 86400
	return binary.BigEndian.AppendUint32(dst, uint32(int32(days))), nil
}

// encodeTimestampTZ sends a timestamptz's text (which carries its UTC
// offset) as microseconds since 2000-01-01 UTC.
func encodeTimestampTZ(dst, v []byte) ([]byte, error) {
	us, st := engine.ParseTimestampTZ(v, engine.UTCZone)
	if st != engine.ParseOK {
		return dst, badText(v, "timestamptz")
	}
	return binary.BigEndian.AppendUint64(dst, uint64(us-pgEpoch*1_000_000)), nil
}

// encodeTime sends a time of day as microseconds since midnight.
func encodeTime(dst, v []byte) ([]byte, error) {
	us, st := engine.ParseTime(v)
	if st != engine.ParseOK {
		return dst, badText(v, "time")
	}
	return binary.BigEndian.AppendUint64(dst, uint64(us)), nil
}

func encodeTimestamp(dst, v []byte) ([]byte, error) {
	s := string(v)
	switch s {
	case "infinity":
		return binary.BigEndian.AppendUint64(dst, math.MaxInt64), nil
	case "-infinity":
		return binary.BigEndian.AppendUint64(dst, 1<<63), nil
	}
	bc := strings.HasSuffix(s, " BC")
	s = strings.TrimSuffix(s, " BC")
	ds, ts, ok := strings.Cut(s, " ")
	if !ok {
		return dst, badText(v, "timestamp")
	}
	if bc {
		ds += " BC"
	}
	day, ok := parseDate(ds)
	us, ok2 := parseClock(ts)
	if !ok || !ok2 {
		return dst, badText(v, "timestamp")
	}
	micros := (day.Unix()-pgEpoch)*1_000_000 + us
	return binary.BigEndian.AppendUint64(dst, uint64(micros)), nil
}

// parseClock parses HH:MM:SS[.ffffff] into microseconds.
func parseClock(s string) (int64, bool) {
	h, rest, ok := strings.Cut(s, ":")
	m, sec, ok2 := strings.Cut(rest, ":")
	if !ok || !ok2 {
		return 0, false
	}
	whole, frac, _ := strings.Cut(sec, ".")
	hi, e1 := strconv.ParseInt(h, 10, 64)
	mi, e2 := strconv.ParseInt(m, 10, 64)
	si, e3 := strconv.ParseInt(whole, 10, 64)
	if e1 != nil || e2 != nil || e3 != nil || hi < 0 || mi < 0 || si < 0 || len(frac) > 6 {
		return 0, false
	}
	var us int64
	if frac != "" {
		f, err := strconv.ParseInt(frac+strings.Repeat("0", 6-len(frac)), 10, 64)
		if err != nil || f < 0 {
			return 0, false
		}
		us = f
	}
	return ((hi*60+mi)*60+si)*1_000_000 + us, true
}

// encodeInterval converts IntervalStyle postgres output, e.g.
// "1 year 2 mons -3 days -04:05:06.5", to microseconds, days, months.
func encodeInterval(dst, v []byte) ([]byte, error) {
	var months, days int64
	var micros int64
	f := strings.Fields(string(v))
	for i := 0; i < len(f); i++ {
		tok := f[i]
		if strings.Contains(tok, ":") {
			neg := strings.HasPrefix(tok, "-")
			us, ok := parseClock(strings.TrimLeft(tok, "+-"))
			if !ok {
				return dst, badText(v, "interval")
			}
			if neg {
				us = -us
			}
			micros += us
			continue
		}
		n, err := strconv.ParseInt(tok, 10, 64)
		if err != nil || i+1 >= len(f) {
			return dst, badText(v, "interval")
		}
		i++
		switch strings.TrimSuffix(f[i], "s") {
		case "year":
			months += 12 * n
		case "mon":
			months += n
		case "day":
			days += n
		default:
			return dst, badText(v, "interval")
		}
	}
	dst = binary.BigEndian.AppendUint64(dst, uint64(micros))
	dst = binary.BigEndian.AppendUint32(dst, uint32(int32(days)))
	return binary.BigEndian.AppendUint32(dst, uint32(int32(months))), nil
}

// encodeNumeric converts a plain decimal ("-12.3400", "NaN", "Infinity")
// to PostgreSQL's binary numeric, as binary COPY does.
func encodeNumeric(dst, v []byte) ([]byte, error) {
	out, err := pgbinary.AppendNumeric(dst, v)
	if err != nil {
		return dst, badText(v, "numeric")
	}
	return out, nil
}
