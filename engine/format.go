package engine

import (
	"strconv"
	"unicode/utf8"
)

// AppendText appends row i of v in PostgreSQL's text output format. The
// caller handles NULL.
func AppendText(dst []byte, v *Vec, i int) []byte {
	switch v.T.Kind {
	case KindBool:
		if v.I[i] != 0 {
			return append(dst, 't')
		}
		return append(dst, 'f')
	case KindInt16, KindInt32, KindInt64:
		return strconv.AppendInt(dst, v.I[i], 10)
	case KindFloat32:
		return AppendFloat(dst, v.F[i], 32)
	case KindFloat64:
		return AppendFloat(dst, v.F[i], 64)
	case KindNumeric:
		return v.D[i].AppendText(dst)
	case KindDate:
		return AppendDate(dst, int32(v.I[i]))
	case KindTimestamp:
		return AppendTimestamp(dst, v.I[i])
	case KindTimestampTZ:
		return AppendTimestampTZ(dst, v.I[i], UTCZone)
	case KindTime:
		return AppendTime(dst, v.I[i])
	case KindInterval:
		return AppendInterval(dst, v.V[i])
	case KindChar:
		dst = append(dst, v.S[i]...)
		if v.T.Len > 0 {
			for n := utf8.RuneCount(v.S[i]); n < v.T.Len; n++ {
				dst = append(dst, ' ')
			}
		}
		return dst
	default:
		return append(dst, v.S[i]...)
	}
}

// AppendFloat formats f as PostgreSQL does with extra_float_digits = 1:
// the shortest exact representation, in fixed notation when the decimal
// exponent is in [-4, 15) (float8) or [-4, 6) (float4), else exponential.
func AppendFloat(dst []byte, f float64, bitSize int) []byte {
	switch {
	case f != f:
		return append(dst, "NaN"...)
	case f > 0 && f*0.5 == f:
		return append(dst, "Infinity"...)
	case f < 0 && f*0.5 == f:
		return append(dst, "-Infinity"...)
	}
	if bitSize == 32 && (f == 0x1p-12 || f == -0x1p-12) {
		// the one real whose two shortest candidates tie exactly; Go 1.26's
		// strconv rounds it up, PostgreSQL (Ryu) to the even digit
		if f < 0 {
			dst = append(dst, '-')
		}
		return append(dst, "0.00024414062"...)
	}
	var tmp [40]byte
	e := strconv.AppendFloat(tmp[:0], f, 'e', -1, bitSize)
	exp := 0
	for k := len(e) - 1; k >= 0; k-- {
		if e[k] == 'e' {
			exp, _ = strconv.Atoi(string(e[k+1:]))
			break
		}
	}
	limit := 15
	if bitSize == 32 {
		limit = 6
	}
	if exp >= -4 && exp < limit {
		return strconv.AppendFloat(dst, f, 'f', -1, bitSize)
	}
	return append(dst, e...)
}

const (
	usPerSec = 1_000_000
	usPerDay = 86_400 * usPerSec
)

// AppendDate formats days since 1970-01-01 as YYYY-MM-DD (with " BC"
// for years before 1).
func AppendDate(dst []byte, days int32) []byte {
	y, m, d := CivilFromDays(days)
	dst = appendYMD(dst, y, m, d)
	if y <= 0 {
		dst = append(dst, " BC"...)
	}
	return dst
}

// appendYMD writes YYYY-MM-DD; years before 1 are written as their BC
// number (year 0 is 1 BC), the caller adding the era.
func appendYMD(dst []byte, y, m, d int) []byte {
	if y <= 0 {
		y = 1 - y
	}
	dst = appendPad(dst, y, 4)
	dst = append(dst, '-')
	dst = appendPad(dst, m, 2)
	dst = append(dst, '-')
	return appendPad(dst, d, 2)
}

func appendPad(dst []byte, v, width int) []byte {
	var tmp [20]byte
	s := strconv.AppendInt(tmp[:0], int64(v), 10)
	for k := len(s); k < width; k++ {
		dst = append(dst, '0')
	}
	return append(dst, s...)
}

// AppendTimestamp formats µs since 1970-01-01 as YYYY-MM-DD HH:MM:SS[.f]
// (with " BC" after the time for years before 1).
func AppendTimestamp(dst []byte, us int64) []byte {
	days := floorDiv64(us, usPerDay)
	y, m, d := CivilFromDays(int32(days))
	dst = appendYMD(dst, y, m, d)
	dst = append(dst, ' ')
	dst = appendClock(dst, us-days*usPerDay)
	if y <= 0 {
		dst = append(dst, " BC"...)
	}
	return dst
}

// appendClock writes HH:MM:SS[.ffffff] with trailing zeros trimmed.
func appendClock(dst []byte, t int64) []byte {
	sec := t / usPerSec
	frac := t % usPerSec
	dst = appendPad(dst, int(sec/3600), 2)
	dst = append(dst, ':')
	dst = appendPad(dst, int(sec/60%60), 2)
	dst = append(dst, ':')
	dst = appendPad(dst, int(sec%60), 2)
	if frac != 0 {
		dst = append(dst, '.')
		var tmp [6]byte
		for k := 5; k >= 0; k-- {
			tmp[k] = byte('0' + frac%10)
			frac /= 10
		}
		n := 6
		for n > 0 && tmp[n-1] == '0' {
			n--
		}
		dst = append(dst, tmp[:n]...)
	}
	return dst
}

// AppendInterval formats an interval in PostgreSQL's "postgres" style,
// e.g. "1 year 2 mons 3 days 04:05:06". After a negative field, positive
// fields carry an explicit '+', as PostgreSQL writes them.
func AppendInterval(dst []byte, iv IntervalVal) []byte {
	start := len(dst)
	before := false // the field just written was negative
	unit := func(v int64, name string) {
		if v == 0 {
			return
		}
		if len(dst) > start {
			dst = append(dst, ' ')
		}
		if before && v > 0 {
			dst = append(dst, '+')
		}
		dst = strconv.AppendInt(dst, v, 10)
		dst = append(dst, ' ')
		dst = append(dst, name...)
		if v != 1 {
			dst = append(dst, 's')
		}
		before = v < 0
	}
	unit(int64(iv.Months/12), "year")
	unit(int64(iv.Months%12), "mon")
	unit(int64(iv.Days), "day")
	if iv.Micros != 0 || len(dst) == start {
		if len(dst) > start {
			dst = append(dst, ' ')
		}
		t := iv.Micros
		switch {
		case t < 0:
			dst = append(dst, '-')
			t = -t
		case before:
			dst = append(dst, '+')
		}
		dst = appendClock(dst, t)
	}
	return dst
}

func floorDiv64(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}
