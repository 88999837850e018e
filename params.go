package gpusql

import (
	"database/sql/driver"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gpusql/gpusql/engine"
)

// bindArgs fills the parameters $1, $2... of sql with args.
//
// The engine's binder does not take parameter values yet, so each value
// is written into the SQL text as a literal that means exactly that
// value: strings and byte slices quoted (so nothing in them is read as
// SQL), integers and exact decimals as numeric constants, floats in their
// shortest exact form, times as timestamp literals. A literal is, like a
// parameter without a declared type, typed by its context where it can
// be (a quoted string compared with a date column is a date).
//
// sql without args is returned unchanged. With args, len(args) must
// equal the highest $n, as PostgreSQL requires of a Bind message.
func bindArgs(sql string, args []any) (string, error) {
	if len(args) == 0 {
		return sql, nil
	}
	lits := make([]string, len(args))
	for i, a := range args {
		lit, err := literal(a)
		if err != nil {
			return "", engine.Errorf(engine.CodeInvalidParameterValue, "gpusql: parameter $%d: %s", i+1, err.(*engine.Error).Message)
		}
		lits[i] = lit
	}
	var b strings.Builder
	b.Grow(len(sql) + 16*len(args))
	maxN := 0
	last := 0
	err := scanParams(sql, func(start, end, n int) error {
		if n == 0 || n > len(args) {
			return engine.Errorf(engine.CodeProtocolViolation,
				"bind message supplies %d parameters, but the statement refers to $%d", len(args), n)
		}
		maxN = max(maxN, n)
		b.WriteString(sql[last:start])
		b.WriteString(lits[n-1])
		last = end
		return nil
	})
	if err != nil {
		return "", err
	}
	if maxN != len(args) {
		return "", engine.Errorf(engine.CodeProtocolViolation,
			"bind message supplies %d parameters, but prepared statement requires %d", len(args), maxN)
	}
	b.WriteString(sql[last:])
	return b.String(), nil
}

// countParams returns the highest $n in sql (0 if none), or -1 if sql
// cannot be scanned (an unterminated quote or comment: the engine will
// report it).
func countParams(sql string) int {
	maxN := 0
	if err := scanParams(sql, func(_, _, n int) error { maxN = max(maxN, n); return nil }); err != nil {
		return -1
	}
	return maxN
}

// scanParams calls fn for every parameter $n of sql, with its byte range,
// skipping what PostgreSQL's lexer skips: string literals ('...', E'...'
// with backslash escapes, $tag$...$tag$), quoted identifiers, comments
// (-- and nested /* */), and identifiers, which may contain '$'.
func scanParams(sql string, fn func(start, end, n int) error) error {
	unterminated := func(what string) error {
		return engine.Errorf(engine.CodeSyntaxError, "unterminated %s", what)
	}
	for i := 0; i < len(sql); {
		c := sql[i]
		switch {
		case c == '\'' || c == '"':
			escapes := c == '\'' && i > 0 && (sql[i-1] == 'e' || sql[i-1] == 'E') && (i < 2 || !isIdentCont(sql[i-2]))
			j := i + 1
			for ; j < len(sql); j++ {
				if escapes && sql[j] == '\\' {
					j++
					continue
				}
				if sql[j] == c {
					if j+1 < len(sql) && sql[j+1] == c {
						j++ // a doubled quote stands for one
						continue
					}
					break
				}
			}
			if j >= len(sql) {
				if c == '"' {
					return unterminated("quoted identifier")
				}
				return unterminated("quoted string")
			}
			i = j + 1
		case c == '-' && strings.HasPrefix(sql[i:], "--"):
			j := strings.IndexByte(sql[i:], '\n')
			if j < 0 {
				return nil
			}
			i += j + 1
		case c == '/' && strings.HasPrefix(sql[i:], "/*"):
			depth := 0
			for {
				if i >= len(sql) {
					return unterminated("/* comment")
				}
				if strings.HasPrefix(sql[i:], "/*") {
					depth++
					i += 2
				} else if strings.HasPrefix(sql[i:], "*/") {
					depth--
					i += 2
					if depth == 0 {
						break
					}
				} else {
					i++
				}
			}
		case c == '$':
			j := i + 1
			for j < len(sql) && isDigit(sql[j]) {
				j++
			}
			if j > i+1 {
				n, err := strconv.Atoi(sql[i+1 : j])
				if err != nil || n > math.MaxUint16 {
					return engine.Errorf(engine.CodeSyntaxError, "parameter number too large: %s", sql[i:j])
				}
				if err := fn(i, j, n); err != nil {
					return err
				}
				i = j
				continue
			}
			// $tag$...$tag$ or $$...$$
			for j < len(sql) && isIdentCont(sql[j]) && sql[j] != '$' {
				j++
			}
			if j < len(sql) && sql[j] == '$' {
				tag := sql[i : j+1]
				k := strings.Index(sql[j+1:], tag)
				if k < 0 {
					return unterminated("dollar-quoted string")
				}
				i = j + 1 + k + len(tag)
				continue
			}
			i++
		case isIdentStart(c) || isDigit(c):
			for i < len(sql) && isIdentCont(sql[i]) {
				i++
			}
		default:
			i++
		}
	}
	return nil
}

func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= 0x80
}

func isIdentCont(c byte) bool { return isIdentStart(c) || isDigit(c) || c == '$' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// literal writes one parameter value as SQL. Values are first converted
// as database/sql converts arguments (driver.Valuer, pointers, every
// integer and float kind), except *big.Rat and big.Rat, written as exact
// decimals.
func literal(a any) (string, error) {
	switch r := a.(type) {
	case *big.Rat:
		if r == nil {
			return "NULL", nil
		}
		return ratLiteral(r)
	case big.Rat:
		return ratLiteral(&r)
	}
	v, err := driver.DefaultParameterConverter.ConvertValue(a)
	if err != nil {
		return "", engine.Errorf(engine.CodeInvalidParameterValue, "%v", err)
	}
	switch v := v.(type) {
	case nil:
		return "NULL", nil
	case int64:
		s := strconv.FormatInt(v, 10)
		if v == math.MinInt64 {
			// 9223372036854775808 alone is a numeric constant.
			return "(" + s + ")::bigint", nil
		}
		if v < 0 {
			return "(" + s + ")", nil // so that "x-$1" does not become "x--1", a comment
		}
		return s, nil
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			s := "NaN"
			if math.IsInf(v, 1) {
				s = "Infinity"
			} else if math.IsInf(v, -1) {
				s = "-Infinity"
			}
			return "'" + s + "'::double precision", nil
		}
		// The shortest decimal that reads back as exactly v.
		s := strconv.FormatFloat(v, 'g', -1, 64)
		if v < 0 || v == 0 && math.Signbit(v) {
			return "(" + s + ")", nil
		}
		return s, nil
	case bool:
		if v {
			return "true", nil
		}
		return "false", nil
	case string:
		return quoteString(v)
	case []byte:
		return quoteString(string(v))
	case time.Time:
		return timestampLiteral(v), nil
	}
	return "", engine.Errorf(engine.CodeInvalidParameterValue, "unsupported type %T", v)
}

// quoteString quotes s as a SQL string literal. PostgreSQL text holds no
// NUL and only valid UTF-8.
func quoteString(s string) (string, error) {
	if strings.IndexByte(s, 0) >= 0 {
		return "", engine.Errorf(engine.CodeCharacterNotInRepertoir, `invalid byte sequence for encoding "UTF8": 0x00`)
	}
	if !utf8.ValidString(s) {
		return "", engine.Errorf(engine.CodeCharacterNotInRepertoir, `invalid byte sequence for encoding "UTF8"`)
	}
	return "'" + strings.ReplaceAll(s, "'", "''") + "'", nil
}

// ratLiteral writes r as an exact decimal constant; a fraction without a
// finite decimal form (1/3) is refused rather than rounded.
func ratLiteral(r *big.Rat) (string, error) {
	den := new(big.Int).Set(r.Denom())
	digits := 0
	for _, p := range []int64{2, 5} {
		bp := big.NewInt(p)
		n := 0
		m := new(big.Int)
		for {
			q, rem := new(big.Int).QuoRem(den, bp, m)
			if rem.Sign() != 0 {
				break
			}
			den = q
			n++
		}
		digits = max(digits, n)
	}
	if den.Cmp(big.NewInt(1)) != 0 {
		return "", engine.Errorf(engine.CodeInvalidParameterValue, "%s has no exact decimal form", r.String())
	}
	s := r.FloatString(digits)
	if r.Sign() < 0 {
		return "(" + s + ")", nil
	}
	return s, nil
}

// timestampLiteral writes t's wall clock (in its own location) as a
// timestamp literal, rounded to microseconds as PostgreSQL rounds its
// input, with " BC" for years before 1.
func timestampLiteral(t time.Time) string {
	t = t.Round(time.Microsecond)
	y := t.Year()
	bc := y <= 0
	if bc {
		y = 1 - y
	}
	var b []byte
	b = append(b, '\'')
	b = appendPad(b, y, 4)
	b = append(b, '-')
	b = appendPad(b, int(t.Month()), 2)
	b = append(b, '-')
	b = appendPad(b, t.Day(), 2)
	b = append(b, ' ')
	b = appendPad(b, t.Hour(), 2)
	b = append(b, ':')
	b = appendPad(b, t.Minute(), 2)
	b = append(b, ':')
	b = appendPad(b, t.Second(), 2)
	if us := t.Nanosecond() / 1000; us != 0 {
		b = append(b, '.')
		b = appendPad(b, us, 6)
	}
	if bc {
		b = append(b, " BC"...)
	}
	b = append(b, "'::timestamp"...)
	return string(b)
}

func appendPad(b []byte, v, width int) []byte {
	s := strconv.Itoa(v)
	for k := len(s); k < width; k++ {
		b = append(b, '0')
	}
	return append(b, s...)
}
