package sniff

import (
	"bytes"

	"github.com/gpusql/gpusql/engine"
)

// fits is the set of inferable types a value (or every value of a
// column) is read exactly by: a bit per type, and a column's set is the
// intersection of its values' sets.
type fits uint16

const (
	fBool fits = 1 << iota
	fInt32
	fInt64
	fNumeric // numeric(18,s): only where digits and scale allow (colState)
	fFloat
	fDate
	fTimestamp
	fTimestampTZ

	fAll fits = 1<<iota - 1
)

// maxNumericDigits is the most digits an inferred numeric(p,s) column
// holds: up to 18 digits a column is scaled int64s, which every kernel
// reads; wider decimals are inferred as double precision, and a column
// declared numeric(38,s) holds them exactly.
const maxNumericDigits = 18

// value is what one field says about its column's type.
type value struct {
	fits fits
	// intDigits and scale are a decimal's digits before the point
	// (leading zeros not counted) and after it; for integers, scale is 0.
	intDigits, scale int
}

// isSpace is PostgreSQL's scanner_isspace: the input functions skip it
// around a value.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

func trim(b []byte) []byte {
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// classify finds the types that read the non-NULL field b exactly as
// written: each candidate is confirmed with the parser the loader itself
// uses, so a value that classify accepts always loads.
func classify(b []byte) value {
	s := trim(b)
	if len(s) == 0 {
		return value{} // empty or blank text: only text holds it
	}
	switch c := s[0]; {
	case isDigit(c) || c == '-' || c == '+' || c == '.':
		if v, ok := number(s); ok {
			return v
		}
		if isDigit(c) {
			return temporal(s)
		}
		if len(s) < 4 || (c != '-' && c != '+') {
			return value{}
		}
		fallthrough
	case c == 'N' || c == 'n' || c == 'I' || c == 'i':
		if _, st := engine.ParseFloat(s, engine.KindFloat64); st == engine.ParseOK && len(s) >= 3 {
			return value{fits: fFloat} // NaN, Infinity, inf, with a sign
		}
	}
	if isBoolWord(s) {
		return value{fits: fBool}
	}
	return value{}
}

// boolWords are the spellings read as boolean: the full words and t/f.
// PostgreSQL also reads 1/0, on/off and prefixes such as "y"; those are
// left to integer and text, where they are more likely meant.
var boolWords = []string{"true", "false", "t", "f", "yes", "no"}

func isBoolWord(s []byte) bool {
	for _, w := range boolWords {
		if len(s) == len(w) && bytes.EqualFold(s, []byte(w)) {
			return true
		}
	}
	return false
}

// number classifies a number: an integer, a plain decimal or a float with
// an exponent. Integers and decimals with leading zeros ("007", "00.5")
// are identifiers or codes, not numbers: they stay text so the zeros are
// kept.
func number(s []byte) (value, bool) {
	i := 0
	if s[0] == '-' || s[0] == '+' {
		i++
	}
	start := i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	intPart := s[start:i]
	point, frac := false, 0
	if i < len(s) && s[i] == '.' {
		point = true
		i++
		for i < len(s) && isDigit(s[i]) {
			i++
			frac++
		}
	}
	if len(intPart) == 0 && frac == 0 {
		return value{}, false
	}
	if len(intPart) > 1 && intPart[0] == '0' {
		return value{}, false
	}
	exp := false
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		exp = true
		i++
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		d := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == d {
			return value{}, false
		}
	}
	if i != len(s) {
		return value{}, false
	}
	if exp {
		if _, st := engine.ParseFloat(s, engine.KindFloat64); st != engine.ParseOK {
			return value{}, true // beyond double precision: text
		}
		return value{fits: fFloat}, true
	}
	digits := len(intPart)
	if digits == 1 && intPart[0] == '0' {
		digits = 0
	}
	if !point {
		if _, st := engine.ParseInt(s, engine.KindInt32); st == engine.ParseOK {
			return value{fits: fInt32 | fInt64 | fNumeric | fFloat, intDigits: digits}, true
		}
		if _, st := engine.ParseInt(s, engine.KindInt64); st == engine.ParseOK {
			return value{fits: fInt64 | fNumeric | fFloat, intDigits: digits}, true
		}
		// Beyond bigint: numeric(18,0) cannot hold it either, and a
		// double would lose digits of what is most likely an
		// identifier. Text keeps it as written.
		return value{}, true
	}
	return value{fits: fNumeric | fFloat, intDigits: digits, scale: frac}, true
}

// temporal classifies a value that starts with a digit and is not a
// number: a date (YYYY-MM-DD) or a timestamp (a date, a space or T, then
// HH:MM[:SS[.ffffff]], optionally a zone). Only the ISO forms are taken:
// the loader reads no other order of day and month.
func temporal(s []byte) value {
	// YYYY-M[M]-D[D]
	if len(s) < 8 || !isDigit(s[1]) || !isDigit(s[2]) || !isDigit(s[3]) || s[4] != '-' {
		return value{}
	}
	i := 5
	for n := 0; n < 2 && i < len(s) && isDigit(s[i]); n++ {
		i++
	}
	if i == 5 || i == len(s) || s[i] != '-' {
		return value{}
	}
	i++
	d := i
	for n := 0; n < 2 && i < len(s) && isDigit(s[i]); n++ {
		i++
	}
	if i == d {
		return value{}
	}
	if i == len(s) {
		if _, st := engine.ParseDate(s); st == engine.ParseOK {
			return value{fits: fDate | fTimestamp | fTimestampTZ}
		}
		return value{}
	}
	if s[i] != ' ' && s[i] != 'T' {
		return value{}
	}
	// The time: HH:MM[:SS[.f...]]
	i++
	t := i
	for i < len(s) && (isDigit(s[i]) || s[i] == ':' || s[i] == '.') {
		i++
	}
	if i-t < 4 || bytes.IndexByte(s[t:i], ':') < 0 {
		return value{}
	}
	if i == len(s) {
		if _, st := engine.ParseTimestamp(s); st == engine.ParseOK {
			return value{fits: fTimestamp | fTimestampTZ}
		}
		return value{}
	}
	// A zone: the timestamp column would drop it, so only timestamptz
	// reads the value as written.
	if _, st := engine.ParseTimestampTZ(s, engine.UTCZone); st == engine.ParseOK {
		return value{fits: fTimestampTZ}
	}
	return value{}
}

// colState gathers what a column's sampled values say.
type colState struct {
	fits             fits
	values           int // non-NULL values seen
	nulls            int
	intDigits, scale int
	// emptyNull counts unquoted empty fields (NULL unless the NULL
	// string is something else).
	emptyNull int
	// tokens counts the NULL-like words (NA, NULL, ...) seen, which are
	// kept apart until the file's NULL string is chosen.
	tokens map[string]int
}

func newColState() *colState { return &colState{fits: fAll} }

func (c *colState) add(v value) {
	c.values++
	c.fits &= v.fits
	c.intDigits = max(c.intDigits, v.intDigits)
	c.scale = max(c.scale, v.scale)
}

// typ is the narrowest type that reads every value of the column seen.
func (c *colState) typ() engine.Type {
	f := c.fits
	if c.values == 0 {
		return engine.Text // only NULLs: nothing to go by
	}
	if f&fNumeric != 0 && (c.intDigits+c.scale > maxNumericDigits) {
		f &^= fNumeric
	}
	switch {
	case f&fBool != 0:
		return engine.Bool
	case f&fInt32 != 0:
		return engine.Int32
	case f&fInt64 != 0:
		return engine.Int64
	case f&fNumeric != 0:
		return engine.NumericType(maxNumericDigits, c.scale)
	case f&fFloat != 0:
		return engine.Float64
	case f&fDate != 0:
		return engine.Date
	case f&fTimestamp != 0:
		return engine.Timestamp
	case f&fTimestampTZ != 0:
		return engine.TimestampTZ
	}
	return engine.Text
}

// typeFits is the set of values a column of inferred type t reads
// exactly: what a value must fit to keep t.
func typeFits(t engine.Type) fits {
	switch t.Kind {
	case engine.KindBool:
		return fBool
	case engine.KindInt32:
		return fInt32 | fInt64 | fNumeric | fFloat
	case engine.KindInt64:
		return fInt64 | fNumeric | fFloat
	case engine.KindNumeric:
		return fNumeric | fFloat
	case engine.KindFloat64:
		return fFloat
	case engine.KindDate:
		return fDate | fTimestamp | fTimestampTZ
	case engine.KindTimestamp:
		return fTimestamp | fTimestampTZ
	case engine.KindTimestampTZ:
		return fTimestampTZ
	}
	return 0
}

// Widen is the type a column inferred as t becomes when value v (shown
// in full) does not load into it: the narrowest type that reads both the
// values t read and v. It is always wider than t; text in the end.
func Widen(t engine.Type, v []byte) engine.Type {
	c := &colState{fits: typeFits(t), values: 1}
	if t.Kind == engine.KindNumeric {
		c.intDigits, c.scale = t.Prec-t.Scale, t.Scale
	}
	c.add(classify(v))
	w := c.typ()
	if w == t {
		return engine.Text
	}
	return w
}

// Join is the narrowest inferable type that reads every value that a
// column inferred as a and one inferred as b read: the type of two files'
// column loaded into one table.
func Join(a, b engine.Type) engine.Type {
	if a == b {
		return a
	}
	c := &colState{fits: typeFits(a) & typeFits(b), values: 1}
	for _, t := range []engine.Type{a, b} {
		if t.Kind == engine.KindNumeric {
			c.intDigits, c.scale = max(c.intDigits, t.Prec-t.Scale), max(c.scale, t.Scale)
		}
	}
	return c.typ()
}
