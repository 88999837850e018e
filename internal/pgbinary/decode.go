// Package pgbinary decodes values in PostgreSQL's binary send format
// (what a type's send function writes, and its receive function reads)
// into the text PostgreSQL prints for them, which gpusql's loaders and
// parameter parser read. Binary COPY (engine/copybin) and binary Bind
// parameters (wire) both decode with it. The other way, both binary COPY
// TO and binary result columns (wire) encode numerics with AppendNumeric.
//
// A bad value is an *Error of a Kind; each caller maps the kinds to its
// own SQLSTATEs and messages (COPY reports a short field as 08P01, as
// PostgreSQL's receive functions do, Bind all size errors as 22P03 "in
// bind parameter n").
package pgbinary

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gpusql/gpusql/engine"
)

// Kind classifies a decoding error.
type Kind uint8

const (
	// NoData: the value is empty where a byte is needed ("no data left
	// in message").
	NoData Kind = iota + 1
	// Short: the value ends early ("insufficient data left in message").
	Short
	// Trailing: bytes are left over after the value.
	Trailing
	// Invalid: a malformed value (a numeric's sign, scale or digit, an
	// array's header); Msg says what.
	Invalid
	// Range: the value is outside its type's range ("date out of range").
	Range
	// Encoding: a string that is not valid UTF-8 (NUL included); Msg
	// shows the bad bytes as PostgreSQL does.
	Encoding
	// Mismatch: an array's element type is not the expected one.
	Mismatch
	// Unsupported: no decoder for the type.
	Unsupported
)

// Error is a value that does not decode.
type Error struct {
	Kind Kind
	Msg  string
}

func (e *Error) Error() string { return e.Msg }

func fail(k Kind, format string, args ...any) *Error {
	return &Error{Kind: k, Msg: fmt.Sprintf(format, args...)}
}

var (
	errNoData   = &Error{Kind: NoData, Msg: "no data left in message"}
	errShort    = &Error{Kind: Short, Msg: "insufficient data left in message"}
	errTrailing = &Error{Kind: Trailing, Msg: "incorrect binary data format"}
)

// PostgreSQL's binary dates and timestamps count from 2000-01-01;
// gpusql's from 1970-01-01.
const (
	EpochDays   = 10957
	EpochMicros = EpochDays * 86_400_000_000
)

// size checks that v holds exactly n bytes.
func size(v []byte, n int) error {
	switch {
	case len(v) < n:
		return errShort
	case len(v) > n:
		return errTrailing
	}
	return nil
}

// AppendText appends the text form of v, a value of the type with OID
// oid in its binary form, to dst. Strings are appended as they are
// (checked to be UTF-8); a timestamptz is written in UTC with its offset.
func AppendText(dst []byte, oid uint32, v []byte) ([]byte, error) {
	switch oid {
	case engine.OIDText, engine.OIDVarchar, engine.OIDBpchar, engine.OIDUnknown, 0:
		if i := InvalidUTF8(v); i >= 0 {
			return dst, fail(Encoding, "invalid byte sequence for encoding \"UTF8\": %s", badBytes(v, i))
		}
		return append(dst, v...), nil
	case engine.OIDBool:
		if len(v) == 0 {
			return dst, errNoData
		}
		if err := size(v, 1); err != nil {
			return dst, err
		}
		if v[0] != 0 {
			return append(dst, 't'), nil
		}
		return append(dst, 'f'), nil
	case engine.OIDInt2:
		if err := size(v, 2); err != nil {
			return dst, err
		}
		return strconv.AppendInt(dst, int64(int16(binary.BigEndian.Uint16(v))), 10), nil
	case engine.OIDInt4:
		if err := size(v, 4); err != nil {
			return dst, err
		}
		return strconv.AppendInt(dst, int64(int32(binary.BigEndian.Uint32(v))), 10), nil
	case engine.OIDInt8:
		if err := size(v, 8); err != nil {
			return dst, err
		}
		return strconv.AppendInt(dst, int64(binary.BigEndian.Uint64(v)), 10), nil
	case engine.OIDFloat4:
		if err := size(v, 4); err != nil {
			return dst, err
		}
		return engine.AppendFloat(dst, float64(math.Float32frombits(binary.BigEndian.Uint32(v))), 32), nil
	case engine.OIDFloat8:
		if err := size(v, 8); err != nil {
			return dst, err
		}
		return engine.AppendFloat(dst, math.Float64frombits(binary.BigEndian.Uint64(v)), 64), nil
	case engine.OIDNumeric:
		return appendNumeric(dst, v)
	case engine.OIDDate:
		if err := size(v, 4); err != nil {
			return dst, err
		}
		d := int32(binary.BigEndian.Uint32(v))
		switch {
		case d == math.MaxInt32:
			return append(dst, "infinity"...), nil
		case d == math.MinInt32:
			return append(dst, "-infinity"...), nil
		case d < -2451545 || d >= 2147483494-2451545:
			return dst, fail(Range, "date out of range")
		}
		return engine.AppendDate(dst, d+EpochDays), nil
	case engine.OIDTimestamp, engine.OIDTimestampTZ:
		if err := size(v, 8); err != nil {
			return dst, err
		}
		t := int64(binary.BigEndian.Uint64(v))
		switch {
		case t == math.MaxInt64:
			return append(dst, "infinity"...), nil
		case t == math.MinInt64:
			return append(dst, "-infinity"...), nil
		case t < -211813488000000000 || t >= 9223371331200000000:
			return dst, fail(Range, "timestamp out of range")
		}
		if oid == engine.OIDTimestamp {
			return engine.AppendTimestamp(dst, t+EpochMicros), nil
		}
		return engine.AppendTimestampTZ(dst, t+EpochMicros, engine.UTCZone), nil
	case engine.OIDTime:
		if err := size(v, 8); err != nil {
			return dst, err
		}
		t := int64(binary.BigEndian.Uint64(v))
		if t < 0 || t > 86_400_000_000 {
			return dst, fail(Range, "time out of range")
		}
		return engine.AppendTime(dst, t), nil
	case engine.OIDInterval:
		if err := size(v, 16); err != nil {
			return dst, err
		}
		us := int64(binary.BigEndian.Uint64(v[0:8]))
		days := int32(binary.BigEndian.Uint32(v[8:12]))
		months := int32(binary.BigEndian.Uint32(v[12:16]))
		dst = strconv.AppendInt(dst, int64(months), 10)
		dst = append(dst, " mons "...)
		dst = strconv.AppendInt(dst, int64(days), 10)
		dst = append(dst, " days "...)
		dst = strconv.AppendInt(dst, us, 10)
		return append(dst, " microseconds"...), nil
	}
	if elem := engine.ElemOID(oid); elem != 0 {
		return appendArray(dst, elem, v)
	}
	return dst, fail(Unsupported, "no binary decoder for type OID %d", oid)
}

// Numeric signs in the binary format.
const (
	numericPos  = 0x0000
	numericNeg  = 0x4000
	numericNaN  = 0xC000
	numericPInf = 0xD000
	numericNInf = 0xF000
)

// appendNumeric reads numeric_send's form: digit count, weight, sign and
// display scale, then base-10000 digits, the first worth 10000^weight.
// The value is written with exactly dscale fraction digits (digits the
// display scale hides are cut off, as PostgreSQL's numeric_recv does),
// without leading zeros and without the sign of a zero.
func appendNumeric(dst, v []byte) ([]byte, error) {
	if len(v) < 8 {
		return dst, errShort
	}
	ndigits := int(binary.BigEndian.Uint16(v[0:]))
	weight := int(int16(binary.BigEndian.Uint16(v[2:])))
	sign := binary.BigEndian.Uint16(v[4:])
	dscale := int(binary.BigEndian.Uint16(v[6:]))
	switch sign {
	case numericPos, numericNeg, numericNaN, numericPInf, numericNInf:
	default:
		return dst, fail(Invalid, "invalid sign in external \"numeric\" value")
	}
	if dscale&0x3FFF != dscale {
		return dst, fail(Invalid, "invalid scale in external \"numeric\" value")
	}
	if len(v) < 8+2*ndigits {
		return dst, errShort
	}
	digits := v[8 : 8+2*ndigits]
	for k := 0; k < ndigits; k++ {
		if d := int16(binary.BigEndian.Uint16(digits[2*k:])); d < 0 || d >= 10000 {
			return dst, fail(Invalid, "invalid digit in external \"numeric\" value")
		}
	}
	if len(v) > 8+2*ndigits {
		return dst, errTrailing
	}
	switch sign {
	case numericNaN:
		return append(dst, "NaN"...), nil
	case numericPInf:
		return append(dst, "Infinity"...), nil
	case numericNInf:
		return append(dst, "-Infinity"...), nil
	}
	// digit returns decimal digit k of the value, k = 0 the units digit,
	// k > 0 to the left of the point, k < 0 to the right.
	digit := func(k int) byte {
		// Base-10000 digit j is worth 10000^(weight-j); decimal digit k
		// lies in base digit weight - floor(k/4).
		q := k >> 2 // floor division for negative k too
		j := weight - q
		if j < 0 || j >= ndigits {
			return '0'
		}
		d := int(binary.BigEndian.Uint16(digits[2*j:]))
		for m := k - q*4; m > 0; m-- {
			d /= 10
		}
		return byte('0' + d%10)
	}
	// The highest nonzero decimal digit sets where the integer part
	// starts; a value below 1 writes a single 0 there.
	top := 0
	if ndigits > 0 && weight >= 0 {
		top = 4*weight + 3
		for top > 0 && digit(top) == '0' {
			top--
		}
	}
	neg := sign == numericNeg
	mark := len(dst)
	if neg {
		dst = append(dst, '-')
	}
	nonzero := false
	for k := top; k >= -dscale; k-- {
		if k == -1 {
			dst = append(dst, '.')
		}
		d := digit(k)
		nonzero = nonzero || d != '0'
		dst = append(dst, d)
	}
	if neg && !nonzero {
		// -0 after the cut is 0.
		dst = append(dst[:mark], dst[mark+1:]...)
	}
	return dst, nil
}

// appendArray appends the text form ({a,b}, {{1,2},{3,4}}) of a binary
// array whose elements are of type elem: a header of dimension count, a
// has-nulls flag, the element type and each dimension's length and lower
// bound, then each element as a length (-1: NULL) and bytes.
func appendArray(dst []byte, elem uint32, v []byte) ([]byte, error) {
	bad := func() error { return fail(Invalid, "invalid array header") }
	if len(v) < 12 {
		return dst, errShort
	}
	ndim := int(int32(binary.BigEndian.Uint32(v[0:4])))
	flags := binary.BigEndian.Uint32(v[4:8])
	if ndim < 0 || ndim > 6 || flags > 1 {
		return dst, bad()
	}
	if len(v) < 12+8*ndim {
		return dst, errShort
	}
	if got := binary.BigEndian.Uint32(v[8:12]); got != elem && got != 0 {
		return dst, fail(Mismatch, "binary data has array element type %d instead of expected %d", got, elem)
	}
	if ndim == 0 {
		if len(v) > 12 {
			return dst, errTrailing
		}
		return append(dst, "{}"...), nil
	}
	dims := make([]int, ndim)
	total := 1
	for i := range dims {
		n := int(int32(binary.BigEndian.Uint32(v[12+8*i:])))
		if n < 0 || n > 1<<27 || total*n > 1<<27 {
			return dst, bad()
		}
		dims[i] = n
		total *= n
	}
	rest := v[12+8*ndim:]
	var scratch []byte
	var walk func(d int) error
	walk = func(d int) error {
		dst = append(dst, '{')
		for i := 0; i < dims[d]; i++ {
			if i > 0 {
				dst = append(dst, ',')
			}
			if d+1 < ndim {
				if err := walk(d + 1); err != nil {
					return err
				}
				continue
			}
			if len(rest) < 4 {
				return errShort
			}
			n := int(int32(binary.BigEndian.Uint32(rest)))
			rest = rest[4:]
			if n == -1 {
				dst = append(dst, "NULL"...)
				continue
			}
			if n < 0 {
				return bad()
			}
			if n > len(rest) {
				return errShort
			}
			var err error
			if scratch, err = AppendText(scratch[:0], elem, rest[:n]); err != nil {
				return err
			}
			rest = rest[n:]
			dst = appendArrayElem(dst, scratch)
		}
		dst = append(dst, '}')
		return nil
	}
	if err := walk(0); err != nil {
		return dst, err
	}
	if len(rest) != 0 {
		return dst, errTrailing
	}
	return dst, nil
}

// appendArrayElem appends one element of an array's text form, quoted
// when it must be.
func appendArrayElem(dst, e []byte) []byte {
	quote := len(e) == 0 || strings.EqualFold(string(e), "null")
	for _, c := range e {
		if c == '{' || c == '}' || c == ',' || c == '"' || c == '\\' || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' {
			quote = true
			break
		}
	}
	if !quote {
		return append(dst, e...)
	}
	dst = append(dst, '"')
	for _, c := range e {
		if c == '"' || c == '\\' {
			dst = append(dst, '\\')
		}
		dst = append(dst, c)
	}
	return append(dst, '"')
}

// InvalidUTF8 returns the index of the first byte of v that PostgreSQL's
// UTF8 check rejects (NUL included), or -1.
func InvalidUTF8(v []byte) int {
	for i := 0; i < len(v); {
		c := v[i]
		if c < utf8.RuneSelf {
			if c == 0 {
				return i
			}
			i++
			continue
		}
		rr, n := utf8.DecodeRune(v[i:])
		if rr == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return -1
}

// badBytes shows the invalid sequence at v[i:] as PostgreSQL does: as many
// bytes as its lead byte announces, in hex.
func badBytes(v []byte, i int) string {
	n := 1
	switch c := v[i]; {
	case c&0xe0 == 0xc0:
		n = 2
	case c&0xf0 == 0xe0:
		n = 3
	case c&0xf8 == 0xf0:
		n = 4
	}
	n = min(n, len(v)-i)
	parts := make([]string, n)
	for k := range parts {
		parts[k] = fmt.Sprintf("0x%02x", v[i+k])
	}
	return strings.Join(parts, " ")
}
