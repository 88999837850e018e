package wire

// Parameter values of Bind. The engine reads parameters in PostgreSQL's
// text format, so binary ones are converted here to the text that
// PostgreSQL itself would print for them; the conversions are exact
// (floats print with the fewest digits that read back to the same value).

import (
	"encoding/binary"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gpusql/gpusql/engine"
	"github.com/jackc/pgx/v5/pgproto3"
)

// bindParams converts a Bind's parameter values for a statement with
// parameter types oids. The values are copied: the message's buffer is
// reused by the next Receive.
func bindParams(m *pgproto3.Bind, oids []uint32) ([]engine.Param, error) {
	if len(m.Parameters) != len(oids) {
		return nil, engine.Errorf(engine.CodeProtocolViolation,
			"bind message supplies %d parameters, but prepared statement %q requires %d", len(m.Parameters), m.PreparedStatement, len(oids))
	}
	nf := len(m.ParameterFormatCodes)
	if nf > 1 && nf != len(oids) {
		return nil, engine.Errorf(engine.CodeProtocolViolation,
			"bind message has %d parameter formats but %d parameters", nf, len(oids))
	}
	params := make([]engine.Param, len(oids))
	var buf []byte
	ends := make([]int, len(oids))
	for i, v := range m.Parameters {
		if v == nil {
			params[i].Null = true
			continue
		}
		f := int16(pgproto3.TextFormat)
		if nf == 1 {
			f = m.ParameterFormatCodes[0]
		} else if nf > 1 {
			f = m.ParameterFormatCodes[i]
		}
		var err error
		switch f {
		case pgproto3.TextFormat:
			buf = append(buf, v...)
		case pgproto3.BinaryFormat:
			if buf, err = appendBinaryParam(buf, oids[i], v); err != nil {
				if e, ok := err.(*engine.Error); ok && e.Code == engine.CodeInvalidBinaryRepresent {
					e.Message = "incorrect binary data format in bind parameter " + strconv.Itoa(i+1)
				}
				return nil, err
			}
		default:
			return nil, engine.Errorf(engine.CodeProtocolViolation, "unsupported format code: %d", f)
		}
		ends[i] = len(buf)
	}
	start := 0
	for i := range params {
		if params[i].Null {
			continue
		}
		params[i].Value = buf[start:ends[i]:ends[i]]
		start = ends[i]
	}
	return params, nil
}

func badBinary() error {
	return engine.Errorf(engine.CodeInvalidBinaryRepresent, "incorrect binary data format")
}

// appendBinaryParam appends the text form of the binary value v of type
// oid to dst.
func appendBinaryParam(dst []byte, oid uint32, v []byte) ([]byte, error) {
	need := func(n int) error {
		if len(v) != n {
			return badBinary()
		}
		return nil
	}
	switch oid {
	case engine.OIDText, engine.OIDVarchar, engine.OIDBpchar, engine.OIDUnknown, 0:
		if !utf8.Valid(v) {
			return dst, engine.Errorf(engine.CodeCharacterNotInRepertoir, "invalid byte sequence for encoding \"UTF8\"")
		}
		return append(dst, v...), nil
	case engine.OIDBool:
		if err := need(1); err != nil {
			return dst, err
		}
		if v[0] != 0 {
			return append(dst, 't'), nil
		}
		return append(dst, 'f'), nil
	case engine.OIDInt2:
		if err := need(2); err != nil {
			return dst, err
		}
		return strconv.AppendInt(dst, int64(int16(binary.BigEndian.Uint16(v))), 10), nil
	case engine.OIDInt4:
		if err := need(4); err != nil {
			return dst, err
		}
		return strconv.AppendInt(dst, int64(int32(binary.BigEndian.Uint32(v))), 10), nil
	case engine.OIDInt8:
		if err := need(8); err != nil {
			return dst, err
		}
		return strconv.AppendInt(dst, int64(binary.BigEndian.Uint64(v)), 10), nil
	case engine.OIDFloat4:
		if err := need(4); err != nil {
			return dst, err
		}
		return appendFloat(dst, float64(math.Float32frombits(binary.BigEndian.Uint32(v))), 32), nil
	case engine.OIDFloat8:
		if err := need(8); err != nil {
			return dst, err
		}
		return appendFloat(dst, math.Float64frombits(binary.BigEndian.Uint64(v)), 64), nil
	case engine.OIDNumeric:
		return appendNumericText(dst, v)
	case engine.OIDDate:
		if err := need(4); err != nil {
			return dst, err
		}
		d := int32(binary.BigEndian.Uint32(v))
		switch d {
		case math.MaxInt32:
			return append(dst, "infinity"...), nil
		case math.MinInt32:
			return append(dst, "-infinity"...), nil
		}
		return appendDay(dst, time.Unix(pgEpoch+int64(d)*86400, 0).UTC(), false), nil
	case engine.OIDTimestamp, engine.OIDTimestampTZ:
		if err := need(8); err != nil {
			return dst, err
		}
		us := int64(binary.BigEndian.Uint64(v))
		switch us {
		case math.MaxInt64:
			return append(dst, "infinity"...), nil
		case math.MinInt64:
			return append(dst, "-infinity"...), nil
		}
		t := time.UnixMicro(pgEpoch*1_000_000 + us).UTC()
		if oid == engine.OIDTimestampTZ && t.Year() > 0 {
			// The instant, in UTC; the session reads it in its TimeZone.
			return append(appendDay(dst, t, true), "+00"...), nil
		}
		return appendDay(dst, t, true), nil
	case engine.OIDTime:
		if err := need(8); err != nil {
			return dst, err
		}
		us := int64(binary.BigEndian.Uint64(v))
		if us < 0 || us > 86400*1_000_000 {
			return dst, badBinary()
		}
		return engine.AppendTime(dst, us), nil
	case engine.OIDInterval:
		if err := need(16); err != nil {
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
		return appendBinaryArray(dst, elem, v)
	}
	return dst, engine.Errorf(engine.CodeFeatureNotSupported, "binary format is not supported for parameters of type OID %d", oid)
}

// appendBinaryArray appends the text form ({a,b}, {{1,2},{3,4}}) of a
// binary array whose elements are of type elem: a header of dimension
// count, a has-nulls flag, the element type and each dimension's length
// and lower bound, then each element as a length (-1: NULL) and bytes.
func appendBinaryArray(dst []byte, elem uint32, v []byte) ([]byte, error) {
	if len(v) < 12 {
		return dst, badBinary()
	}
	ndim := int(int32(binary.BigEndian.Uint32(v[0:4])))
	flags := binary.BigEndian.Uint32(v[4:8])
	if ndim < 0 || ndim > 6 || flags > 1 || len(v) < 12+8*ndim {
		return dst, badBinary()
	}
	if got := binary.BigEndian.Uint32(v[8:12]); got != elem && got != 0 {
		return dst, engine.Errorf(engine.CodeDatatypeMismatch, "binary data has array element type %d instead of expected %d", got, elem)
	}
	if ndim == 0 {
		return append(dst, "{}"...), nil
	}
	dims := make([]int, ndim)
	total := 1
	for i := range dims {
		n := int(int32(binary.BigEndian.Uint32(v[12+8*i:])))
		if n < 0 || n > 1<<27 || total*n > 1<<27 {
			return dst, badBinary()
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
				return badBinary()
			}
			n := int(int32(binary.BigEndian.Uint32(rest)))
			rest = rest[4:]
			if n == -1 {
				dst = append(dst, "NULL"...)
				continue
			}
			if n < 0 || n > len(rest) {
				return badBinary()
			}
			var err error
			if scratch, err = appendBinaryParam(scratch[:0], elem, rest[:n]); err != nil {
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
		return dst, badBinary()
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

func appendFloat(dst []byte, f float64, bits int) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "NaN"...)
	case math.IsInf(f, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(f, -1):
		return append(dst, "-Infinity"...)
	}
	return strconv.AppendFloat(dst, f, 'g', -1, bits)
}

// appendDay appends t's date as YYYY-MM-DD, then with clock its time of
// day as HH:MM:SS[.ffffff], then " BC" for years before 1.
func appendDay(dst []byte, t time.Time, clock bool) []byte {
	y := t.Year()
	bc := y <= 0
	if bc {
		y = 1 - y
	}
	if y < 1000 {
		dst = append(dst, strings.Repeat("0", 4-len(strconv.Itoa(y)))...)
	}
	dst = strconv.AppendInt(dst, int64(y), 10)
	dst = append(dst, '-')
	dst = append(dst, byte('0'+int(t.Month())/10), byte('0'+int(t.Month())%10), '-')
	dst = append(dst, byte('0'+t.Day()/10), byte('0'+t.Day()%10))
	if clock {
		dst = t.AppendFormat(append(dst, ' '), "15:04:05.999999")
	}
	if bc {
		dst = append(dst, " BC"...)
	}
	return dst
}

// appendNumericText converts PostgreSQL's binary numeric (see
// encodeNumeric) to decimal text with dscale fraction digits.
func appendNumericText(dst, v []byte) ([]byte, error) {
	if len(v) < 8 {
		return dst, badBinary()
	}
	ndigits := int(binary.BigEndian.Uint16(v[0:2]))
	weight := int(int16(binary.BigEndian.Uint16(v[2:4])))
	sign := int(binary.BigEndian.Uint16(v[4:6]))
	dscale := int(binary.BigEndian.Uint16(v[6:8]))
	if len(v) != 8+2*ndigits || dscale > 0x3FFF {
		return dst, badBinary()
	}
	switch sign {
	case numericNaN:
		return append(dst, "NaN"...), nil
	case numericPInf:
		return append(dst, "Infinity"...), nil
	case numericNInf:
		return append(dst, "-Infinity"...), nil
	case numericPos, numericNeg:
	default:
		return dst, badBinary()
	}
	digit := func(k int) int { // base-10000 digit of weight weight-k
		if k < 0 || k >= ndigits {
			return 0
		}
		d := int(binary.BigEndian.Uint16(v[8+2*k:]))
		return d
	}
	for k := 0; k < ndigits; k++ {
		if digit(k) > 9999 {
			return dst, badBinary()
		}
	}
	if sign == numericNeg && ndigits > 0 {
		dst = append(dst, '-')
	}
	// Integer part: digits of weight weight down to 0.
	if weight < 0 {
		dst = append(dst, '0')
	} else {
		for k := 0; k <= weight; k++ {
			d := digit(k)
			if k == 0 {
				dst = strconv.AppendInt(dst, int64(d), 10)
			} else {
				dst = append(dst, byte('0'+d/1000), byte('0'+d/100%10), byte('0'+d/10%10), byte('0'+d%10))
			}
		}
	}
	if dscale > 0 {
		dst = append(dst, '.')
		for i := 0; i < dscale; i++ {
			// Fraction digit i is in base-10000 digit of weight -(i/4+1).
			k := weight + 1 + i/4
			d := digit(k)
			p := []int{1000, 100, 10, 1}[i%4]
			dst = append(dst, byte('0'+d/p%10))
		}
	}
	return dst, nil
}
