package main

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/duckdb/duckdb-go/v2"
)

// formatRow appends one result row as psql -A -t -F '|' prints it:
// fields joined by '|', no quoting, NULL as the empty string, then '\n'.
// types are the columns' DuckDB type names (ColumnTypeDatabaseTypeName).
func formatRow(dst []byte, vals []any, types []string) []byte {
	for i, v := range vals {
		if i > 0 {
			dst = append(dst, '|')
		}
		dst = appendValue(dst, v, types[i])
	}
	return append(dst, '\n')
}

// appendValue appends v in PostgreSQL's text output form for the nearest
// PostgreSQL type: decimals with all their scale digits, doubles in
// float8out's shortest form, dates as 2006-01-02, booleans as t and f.
func appendValue(dst []byte, v any, typ string) []byte {
	switch x := v.(type) {
	case nil:
		return dst
	case string:
		return append(dst, x...)
	case []byte:
		return append(dst, x...)
	case bool:
		if x {
			return append(dst, 't')
		}
		return append(dst, 'f')
	case int8:
		return strconv.AppendInt(dst, int64(x), 10)
	case int16:
		return strconv.AppendInt(dst, int64(x), 10)
	case int32:
		return strconv.AppendInt(dst, int64(x), 10)
	case int64:
		return strconv.AppendInt(dst, x, 10)
	case uint8:
		return strconv.AppendUint(dst, uint64(x), 10)
	case uint16:
		return strconv.AppendUint(dst, uint64(x), 10)
	case uint32:
		return strconv.AppendUint(dst, uint64(x), 10)
	case uint64:
		return strconv.AppendUint(dst, x, 10)
	case *big.Int:
		return x.Append(dst, 10)
	case float32:
		return appendFloat(dst, float64(x), 32)
	case float64:
		return appendFloat(dst, x, 64)
	case duckdb.Decimal:
		return appendDecimal(dst, x.Value, int(x.Scale))
	case time.Time:
		return appendTime(dst, x, typ)
	default:
		return fmt.Append(dst, x)
	}
}

// appendDecimal appends unscaled / 10^scale with exactly scale fractional
// digits, as PostgreSQL prints a numeric of that scale.
func appendDecimal(dst []byte, unscaled *big.Int, scale int) []byte {
	digits := unscaled.String()
	if unscaled.Sign() < 0 {
		dst = append(dst, '-')
		digits = digits[1:]
	}
	if scale <= 0 {
		return append(dst, digits...)
	}
	if len(digits) <= scale {
		digits = strings.Repeat("0", scale-len(digits)+1) + digits
	}
	dst = append(dst, digits[:len(digits)-scale]...)
	dst = append(dst, '.')
	return append(dst, digits[len(digits)-scale:]...)
}

// appendFloat appends f as PostgreSQL 15's float4out/float8out do with the
// default extra_float_digits = 1: the shortest digits that read back as f,
// in positional notation for decimal exponents from -4 to below 15 (6 for
// real), else as 1.5e+15.
func appendFloat(dst []byte, f float64, bits int) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "NaN"...)
	case math.IsInf(f, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(f, -1):
		return append(dst, "-Infinity"...)
	case f == 0:
		if math.Signbit(f) {
			return append(dst, "-0"...)
		}
		return append(dst, '0')
	}
	e := strconv.FormatFloat(f, 'e', -1, bits)
	mant, expText, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(expText)
	maxExp := 15 // DBL_DIG
	if bits == 32 {
		maxExp = 6 // FLT_DIG
	}
	if exp < -4 || exp >= maxExp {
		dst = append(dst, mant...)
		dst = append(dst, 'e')
		if exp < 0 {
			dst = append(dst, '-')
			exp = -exp
		} else {
			dst = append(dst, '+')
		}
		if exp < 10 {
			dst = append(dst, '0')
		}
		return strconv.AppendInt(dst, int64(exp), 10)
	}
	return strconv.AppendFloat(dst, f, 'f', -1, bits)
}

// appendTime appends a DATE, TIME or TIMESTAMP as PostgreSQL's ISO
// DateStyle prints it.
func appendTime(dst []byte, t time.Time, typ string) []byte {
	switch typ {
	case "DATE":
		return t.AppendFormat(dst, "2006-01-02")
	case "TIME":
		return t.AppendFormat(dst, "15:04:05.999999")
	case "TIMESTAMP_TZ", "TIMESTAMPTZ":
		return t.AppendFormat(dst, "2006-01-02 15:04:05.999999-07")
	default:
		return t.AppendFormat(dst, "2006-01-02 15:04:05.999999")
	}
}
