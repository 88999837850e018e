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

// encodeParams writes args as the text-format values of parameters $1,
// $2... whose types the engine inferred (oids, from
// engine.Prepared.ParamOIDs), as a PostgreSQL driver does. The values
// are first converted as database/sql converts arguments (driver.Valuer,
// pointers, every integer and float kind), except *big.Rat and big.Rat,
// written as exact decimals. A count that does not match is left to
// Prepared.Run, which reports it (08P01).
func encodeParams(args []any, oids []uint32) ([]engine.Param, error) {
	params := make([]engine.Param, len(args))
	for i, a := range args {
		var oid uint32
		if i < len(oids) {
			oid = oids[i]
		}
		p, err := encodeParam(a, oid)
		if err != nil {
			e := engine.AsError(err)
			e.Message = "gpusql: parameter $" + strconv.Itoa(i+1) + ": " + e.Message
			return nil, e
		}
		params[i] = p
	}
	return params, nil
}

func encodeParam(a any, oid uint32) (engine.Param, error) {
	switch r := a.(type) {
	case *big.Rat:
		if r == nil {
			return engine.Param{Null: true}, nil
		}
		return ratText(r)
	case big.Rat:
		return ratText(&r)
	}
	v, err := driver.DefaultParameterConverter.ConvertValue(a)
	if err != nil {
		return engine.Param{}, engine.Errorf(engine.CodeInvalidParameterValue, "%v", err)
	}
	text := func(s string) (engine.Param, error) { return engine.Param{Value: []byte(s)}, nil }
	switch v := v.(type) {
	case nil:
		return engine.Param{Null: true}, nil
	case int64:
		return text(strconv.FormatInt(v, 10))
	case float64:
		switch {
		case math.IsNaN(v):
			return text("NaN")
		case math.IsInf(v, 1):
			return text("Infinity")
		case math.IsInf(v, -1):
			return text("-Infinity")
		}
		// The shortest decimal that reads back as exactly v.
		return text(strconv.FormatFloat(v, 'g', -1, 64))
	case bool:
		return text(strconv.FormatBool(v))
	case string:
		return stringParam(v)
	case []byte:
		return stringParam(string(v))
	case time.Time:
		return text(timeText(v, oid == engine.OIDDate))
	}
	return engine.Param{}, engine.Errorf(engine.CodeInvalidParameterValue, "unsupported type %T", v)
}

// stringParam checks s: PostgreSQL text holds no NUL and only valid UTF-8.
func stringParam(s string) (engine.Param, error) {
	if strings.IndexByte(s, 0) >= 0 {
		return engine.Param{}, engine.Errorf(engine.CodeCharacterNotInRepertoir, `invalid byte sequence for encoding "UTF8": 0x00`)
	}
	if !utf8.ValidString(s) {
		return engine.Param{}, engine.Errorf(engine.CodeCharacterNotInRepertoir, `invalid byte sequence for encoding "UTF8"`)
	}
	return engine.Param{Value: []byte(s)}, nil
}

// ratText writes r as an exact decimal; a fraction without a finite
// decimal form (1/3) is refused rather than rounded.
func ratText(r *big.Rat) (engine.Param, error) {
	den := new(big.Int).Set(r.Denom())
	digits := 0
	for _, p := range []int64{2, 5} {
		bp, rem := big.NewInt(p), new(big.Int)
		n := 0
		for {
			q, m := new(big.Int).QuoRem(den, bp, rem)
			if m.Sign() != 0 {
				break
			}
			den = q
			n++
		}
		digits = max(digits, n)
	}
	if den.Cmp(big.NewInt(1)) != 0 {
		return engine.Param{}, engine.Errorf(engine.CodeInvalidParameterValue, "%s has no exact decimal form", r.String())
	}
	return engine.Param{Value: []byte(r.FloatString(digits))}, nil
}

// timeText writes t's wall clock (in its own location) as PostgreSQL
// writes a timestamp (or, with dateOnly, a date), rounded to microseconds
// as PostgreSQL rounds its input, with " BC" for years before 1.
func timeText(t time.Time, dateOnly bool) string {
	t = t.Round(time.Microsecond)
	y := t.Year()
	bc := y <= 0
	if bc {
		y = 1 - y
	}
	b := make([]byte, 0, 32)
	b = appendPad(b, y, 4)
	b = append(b, '-')
	b = appendPad(b, int(t.Month()), 2)
	b = append(b, '-')
	b = appendPad(b, t.Day(), 2)
	if !dateOnly {
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
	}
	if bc {
		b = append(b, " BC"...)
	}
	return string(b)
}

func appendPad(b []byte, v, width int) []byte {
	s := strconv.Itoa(v)
	for k := len(s); k < width; k++ {
		b = append(b, '0')
	}
	return append(b, s...)
}
