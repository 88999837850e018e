package engine

// PostgreSQL text input for single values. These functions are the one
// implementation of "what does this text mean as a value of type T", used by
// the CSV loader for every field and by SQL casts from strings. They follow
// PostgreSQL 15's input functions (int2in/int4in/int8in, float4in/float8in,
// numeric_in with a typmod, date_in, timestamp_in, boolin) for the formats
// gpusql supports, and they allocate nothing, whether they succeed or fail.
// InputError turns a failed status into PostgreSQL's exact error.

import (
	"math"
	"math/bits"
	"strconv"
	"unsafe"
)

// ParseStatus is the outcome of parsing one value.
type ParseStatus uint8

const (
	ParseOK         ParseStatus = iota
	ParseInvalid                // bad syntax: 22P02 (22007 for dates and timestamps)
	ParseOutOfRange             // well formed but not representable: 22003 (22008 for datetimes)
)

// tpIsSpace is C's isspace in the C locale, which PostgreSQL uses to trim
// input: space, \t, \n, \v, \f and \r.
func tpIsSpace(c byte) bool { return c == ' ' || (c >= '\t' && c <= '\r') }

// tpTrimSpace strips leading and trailing isspace bytes.
func tpTrimSpace(b []byte) []byte {
	i, j := 0, len(b)
	for i < j && tpIsSpace(b[i]) {
		i++
	}
	for j > i && tpIsSpace(b[j-1]) {
		j--
	}
	return b[i:j]
}

func tpIsDigit(c byte) bool { return c-'0' < 10 }

// tpLower folds an ASCII letter to tpLower case.
func tpLower(c byte) byte {
	if c-'A' < 26 {
		return c + 'a' - 'A'
	}
	return c
}

// tpEqualFold reports whether b equals the tpLower-case ASCII word s, ignoring
// case.
func tpEqualFold(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range b {
		if tpLower(b[i]) != s[i] {
			return false
		}
	}
	return true
}

// ParseInt parses a smallint, integer or bigint (k is KindInt16, KindInt32
// or KindInt64) as pg_strtoint does: optional surrounding whitespace, an
// optional sign, then decimal digits only. Overflow is reported as soon as
// the digits exceed the range, even if garbage follows.
func ParseInt(b []byte, k Kind) (int64, ParseStatus) {
	var limit uint64 // magnitude bound for positive values; negatives get one more
	switch k {
	case KindInt16:
		limit = math.MaxInt16
	case KindInt32:
		limit = math.MaxInt32
	default:
		limit = math.MaxInt64
	}
	i, n := 0, len(b)
	for i < n && tpIsSpace(b[i]) {
		i++
	}
	neg := false
	if i < n && (b[i] == '-' || b[i] == '+') {
		neg = b[i] == '-'
		i++
	}
	if neg {
		limit++
	}
	start := i
	var v uint64
	for i < n && tpIsDigit(b[i]) {
		d := uint64(b[i] - '0')
		if v > (limit-d)/10 {
			return 0, ParseOutOfRange
		}
		v = v*10 + d
		i++
	}
	if i == start {
		return 0, ParseInvalid
	}
	for i < n && tpIsSpace(b[i]) {
		i++
	}
	if i != n {
		return 0, ParseInvalid
	}
	if neg {
		return int64(-v), ParseOK // -2^63 wraps to itself, as intended
	}
	return int64(v), ParseOK
}

// tpDecimalSyntax checks [sign] digits [. digits] [(e|E) [sign] digits] with at
// least one mantissa digit, on input without surrounding whitespace. It
// returns whether the syntax is valid, whether any mantissa digit is
// non-zero, and the decimal exponent of the first non-zero digit (1 for
// "5", 0 for ".5"), clamped to avoid overflow.
func tpDecimalSyntax(b []byte) (ok, nonzero bool, mag int) {
	i, n := 0, len(b)
	if i < n && (b[i] == '-' || b[i] == '+') {
		i++
	}
	digits := 0
	intDigits := 0 // significant integer digits
	leadFracZeros := 0
	for i < n && tpIsDigit(b[i]) {
		if b[i] != '0' || nonzero {
			nonzero = true
			intDigits++
		}
		digits++
		i++
	}
	if i < n && b[i] == '.' {
		i++
		for i < n && tpIsDigit(b[i]) {
			if b[i] != '0' {
				nonzero = true
			} else if !nonzero {
				leadFracZeros++
			}
			digits++
			i++
		}
	}
	if digits == 0 {
		return false, false, 0
	}
	exp := 0
	if i < n && (b[i] == 'e' || b[i] == 'E') {
		i++
		eneg := false
		if i < n && (b[i] == '-' || b[i] == '+') {
			eneg = b[i] == '-'
			i++
		}
		if i == n || !tpIsDigit(b[i]) {
			return false, false, 0
		}
		for i < n && tpIsDigit(b[i]) {
			if exp < 100000 {
				exp = exp*10 + int(b[i]-'0')
			}
			i++
		}
		if eneg {
			exp = -exp
		}
	}
	if i != n {
		return false, false, 0
	}
	if intDigits > 0 {
		mag = intDigits + exp
	} else {
		mag = -leadFracZeros + exp
	}
	return true, nonzero, mag
}

// tpFloatSpecial recognises NaN and the infinities as float8in does, case
// insensitively. ok is false if b is not one of them.
func tpFloatSpecial(b []byte) (v float64, ok bool) {
	s := b
	sign := 1.0
	if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
		if s[0] == '-' {
			sign = -1
		}
		s = s[1:]
	}
	switch {
	case tpEqualFold(s, "nan"):
		return math.NaN(), true
	case tpEqualFold(s, "inf"), tpEqualFold(s, "infinity"):
		return math.Inf(int(sign)), true
	}
	return 0, false
}

// ParseFloat parses a real or double precision (k is KindFloat32 or
// KindFloat64) as float4in/float8in do: surrounding whitespace, decimal
// notation with an optional exponent, and NaN, Infinity, inf with optional
// signs, case insensitively. A finite value that overflows, or that
// underflows to zero, is out of range; denormals are accepted. Hexadecimal
// floats, which C's strtod accepts, are not.
func ParseFloat(b []byte, k Kind) (float64, ParseStatus) {
	s := tpTrimSpace(b)
	if len(s) == 0 {
		return 0, ParseInvalid
	}
	if v, ok := tpFloatSpecial(s); ok {
		return v, ParseOK
	}
	ok, nonzero, mag := tpDecimalSyntax(s)
	if !ok {
		return 0, ParseInvalid
	}
	bits := 64
	maxMag, minMag := 310, -330
	if k == KindFloat32 {
		bits = 32
		maxMag, minMag = 40, -47
	}
	if !nonzero {
		if s[0] == '-' {
			return math.Copysign(0, -1), ParseOK
		}
		return 0, ParseOK
	}
	if mag > maxMag || mag < minMag {
		return 0, ParseOutOfRange
	}
	// The syntax is valid, so strconv can only fail on range. The string
	// header aliases b; strconv does not keep it.
	v, err := strconv.ParseFloat(unsafe.String(&s[0], len(s)), bits)
	if err != nil || math.IsInf(v, 0) || v == 0 {
		return 0, ParseOutOfRange
	}
	return v, ParseOK
}

// tpPow10u are the powers of ten that fit in a uint64.
func tpPow10u(n int) uint64 {
	p := uint64(1)
	for ; n > 0; n-- {
		p *= 10
	}
	return p
}

// ParseNumeric parses a numeric(prec, scale) value as numeric_in followed
// by the typmod check: surrounding whitespace, a sign, digits with an
// optional point ('.5' and '5.' are fine) and an optional exponent. The
// result is the value times 10^scale, rounded half away from zero. If
// prec > 0 and the rounded value is not less than 10^(prec-scale) in
// magnitude the status is ParseOutOfRange ("numeric field overflow"); with
// prec == 0 the limit is int64's range. NaN is ParseInvalid (gpusql cannot
// store it) and the infinities are ParseOutOfRange, as for a numeric with
// a typmod in PostgreSQL.
func ParseNumeric(b []byte, prec, scale int) (int64, ParseStatus) {
	s := tpTrimSpace(b)
	lit, st := scanNumeric(s)
	if st != ParseOK {
		return 0, st
	}
	bound := uint64(math.MaxInt64) // largest allowed magnitude
	if prec > 0 && prec <= 18 {
		bound = tpPow10u(prec) - 1
	}
	neg, mStart, mEnd, digits := lit.neg, lit.mStart, lit.mEnd, lit.digits
	// value = int(all digits) * 10^(exp - fracDigits); we want it times
	// 10^scale, so keep the first digits+shift digits and round on the next.
	shift := lit.exp - lit.fracDigits + scale
	keep := digits + shift // digits kept before the rounding digit
	var v uint64
	k := 0 // digit index
	roundUp := false
	for j := mStart; j < mEnd; j++ {
		c := s[j]
		if c == '.' {
			continue
		}
		d := uint64(c - '0')
		if k < keep {
			if v > (bound-d)/10 {
				return 0, ParseOutOfRange
			}
			v = v*10 + d
		} else if k == keep {
			roundUp = d >= 5
			break
		}
		k++
	}
	if shift > 0 && v != 0 {
		for ; shift > 0; shift-- {
			if v > bound/10 {
				return 0, ParseOutOfRange
			}
			v *= 10
		}
	}
	if roundUp {
		if v >= bound {
			return 0, ParseOutOfRange
		}
		v++
	}
	if neg {
		return -int64(v), ParseOK
	}
	return int64(v), ParseOK
}

// numLit is a numeric literal's shape, as scanNumeric finds it in s: a
// sign, the mantissa's extent s[mStart:mEnd] (digits and at most one
// point), its digit counts, and the exponent.
type numLit struct {
	neg                bool
	mStart, mEnd       int
	digits, fracDigits int
	exp                int
}

// scanNumeric checks numeric_in's syntax (s already trimmed). NaN is
// ParseInvalid and the infinities ParseOutOfRange.
func scanNumeric(s []byte) (numLit, ParseStatus) {
	var l numLit
	if len(s) == 0 {
		return l, ParseInvalid
	}
	i, n := 0, len(s)
	if s[0] == '-' || s[0] == '+' {
		l.neg = s[0] == '-'
		i++
	}
	l.mStart = i
	seenPoint := false
	for ; i < n; i++ {
		c := s[i]
		if tpIsDigit(c) {
			l.digits++
			if seenPoint {
				l.fracDigits++
			}
			continue
		}
		if c == '.' && !seenPoint {
			seenPoint = true
			continue
		}
		break
	}
	l.mEnd = i
	if l.digits == 0 {
		if _, ok := tpFloatSpecial(s); ok {
			if tpEqualFold(s, "nan") {
				return l, ParseInvalid
			}
			return l, ParseOutOfRange
		}
		return l, ParseInvalid
	}
	if i < n && (s[i] == 'e' || s[i] == 'E') {
		i++
		eneg := false
		if i < n && (s[i] == '-' || s[i] == '+') {
			eneg = s[i] == '-'
			i++
		}
		if i == n || !tpIsDigit(s[i]) {
			return l, ParseInvalid
		}
		for i < n && tpIsDigit(s[i]) {
			if l.exp < 100000 {
				l.exp = l.exp*10 + int(s[i]-'0')
			}
			i++
		}
		if eneg {
			l.exp = -l.exp
		}
	}
	if i != n {
		return l, ParseInvalid
	}
	return l, ParseOK
}

// ParseNumericOwnScale parses an unconstrained numeric value as numeric_in
// does: at its own display scale, the digits after the point less the
// exponent ("1.50" at 2, "15e-1" at 1, "1.5e3" at 0), exactly. A value of
// more than MaxNumericPrec digits at that scale is ParseOutOfRange (gpusql
// holds 38 where PostgreSQL holds 1000).
func ParseNumericOwnScale(b []byte) (Dec, ParseStatus) {
	lit, st := scanNumeric(tpTrimSpace(b))
	if st != ParseOK {
		return Dec{}, st
	}
	scale := max(0, lit.fracDigits-lit.exp)
	if scale > MaxNumericPrec {
		return Dec{}, ParseOutOfRange
	}
	return ParseNumericWide(b, MaxNumericPrec, scale)
}

// ParseNumericWide is ParseNumeric for a precision past 18 (at most
// MaxNumericPrec): the value as a 128-bit mantissa at scale.
func ParseNumericWide(b []byte, prec, scale int) (Dec, ParseStatus) {
	s := tpTrimSpace(b)
	lit, st := scanNumeric(s)
	if st != ParseOK {
		return Dec{}, st
	}
	// v*10+d stays within 10^prec-1 exactly when v < 10^(prec-1)
	lim := u128pow10(prec - 1)
	shift := lit.exp - lit.fracDigits + scale
	keep := lit.digits + shift
	var v u128
	k := 0
	roundUp := false
	for j := lit.mStart; j < lit.mEnd; j++ {
		c := s[j]
		if c == '.' {
			continue
		}
		if k < keep {
			if !v.less(lim) {
				return Dec{}, ParseOutOfRange
			}
			v = v.mul10add(uint64(c - '0'))
		} else if k == keep {
			roundUp = c >= '5'
			break
		}
		k++
	}
	if shift > 0 && !v.zero() {
		for ; shift > 0; shift-- {
			if !v.less(lim) {
				return Dec{}, ParseOutOfRange
			}
			v = v.mul10add(0)
		}
	}
	if roundUp {
		if !v.less(u128pow10(prec).sub1()) {
			return Dec{}, ParseOutOfRange
		}
		v = v.add1()
	}
	d := Dec{Hi: int64(v.hi), Lo: v.lo, Scale: int32(scale)}
	if lit.neg {
		d = d.neg()
	}
	return d, ParseOK
}

// u128 is an unsigned 128-bit integer, for ParseNumericWide.
type u128 struct{ hi, lo uint64 }

func u128pow10(n int) u128 {
	v := u128{lo: 1}
	for ; n > 0; n-- {
		v = v.mul10add(0)
	}
	return v
}

func (a u128) less(b u128) bool { return a.hi < b.hi || a.hi == b.hi && a.lo < b.lo }
func (a u128) zero() bool       { return a.hi == 0 && a.lo == 0 }

// mul10add is a*10+d; the caller keeps it below 2^128.
func (a u128) mul10add(d uint64) u128 {
	h, l := bits.Mul64(a.lo, 10)
	l, c := bits.Add64(l, d, 0)
	return u128{hi: a.hi*10 + h + c, lo: l}
}

func (a u128) add1() u128 {
	l, c := bits.Add64(a.lo, 1, 0)
	return u128{hi: a.hi + c, lo: l}
}

func (a u128) sub1() u128 {
	l, b := bits.Sub64(a.lo, 1, 0)
	return u128{hi: a.hi - b, lo: l}
}

// ParseBool parses a boolean as boolin does: surrounding whitespace, then
// any unique case-insensitive prefix of true, false, yes, no, or at least
// two letters of on or off, or exactly 1 or 0.
func ParseBool(b []byte) (bool, ParseStatus) {
	s := tpTrimSpace(b)
	if len(s) == 0 {
		return false, ParseInvalid
	}
	prefixOf := func(word string) bool {
		if len(s) > len(word) {
			return false
		}
		for i := range s {
			if tpLower(s[i]) != word[i] {
				return false
			}
		}
		return true
	}
	switch tpLower(s[0]) {
	case 't':
		if prefixOf("true") {
			return true, ParseOK
		}
	case 'f':
		if prefixOf("false") {
			return false, ParseOK
		}
	case 'y':
		if prefixOf("yes") {
			return true, ParseOK
		}
	case 'n':
		if prefixOf("no") {
			return false, ParseOK
		}
	case 'o':
		if len(s) >= 2 && prefixOf("on") {
			return true, ParseOK
		}
		if len(s) >= 2 && prefixOf("off") {
			return false, ParseOK
		}
	case '1':
		if len(s) == 1 {
			return true, ParseOK
		}
	case '0':
		if len(s) == 1 {
			return false, ParseOK
		}
	}
	return false, ParseInvalid
}

// DaysFromCivil returns the days from 1970-01-01 to the proleptic Gregorian
// date y-m-d (m in 1..12, d in 1..31; year 0 is 1 BC).
func DaysFromCivil(y, m, d int) int32 {
	if m <= 2 {
		y--
	}
	era := y
	if era < 0 {
		era -= 399
	}
	era /= 400
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int32(era*146097 + doe - 719468)
}

// CivilFromDays is the inverse of DaysFromCivil. Days of the years
// 1900 to 2099 are looked up in a table (grouping or formatting many
// dates of one era then costs a load each), the others computed.
func CivilFromDays(days int32) (y, m, d int) {
	if k := uint32(days - civilTabFirst); k < uint32(len(civilTab)) {
		p := civilTab[k]
		return int(p >> 9), int(p >> 5 & 15), int(p & 31)
	}
	return civilFromDays(days)
}

// civilTab holds the dates of the days from civilTabFirst (1900-01-01) up
// to 2100-01-01, packed as year<<9 | month<<5 | day.
var (
	civilTabFirst = DaysFromCivil(1900, 1, 1)
	civilTab      = func() []uint32 {
		first, end := DaysFromCivil(1900, 1, 1), DaysFromCivil(2100, 1, 1)
		t := make([]uint32, end-first)
		for i := range t {
			y, m, d := civilFromDays(first + int32(i))
			t[i] = uint32(y)<<9 | uint32(m)<<5 | uint32(d)
		}
		return t
	}()
)

// civilFromDays computes CivilFromDays.
func civilFromDays(days int32) (y, m, d int) {
	z := int(days) + 719468
	era := z
	if era < 0 {
		era -= 146096
	}
	era /= 146097
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y = yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = doy - (153*mp+2)/5 + 1
	if mp < 10 {
		m = mp + 3
	} else {
		m = mp - 9
	}
	if m <= 2 {
		y++
	}
	return y, m, d
}

func tpIsLeap(y int) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }

func tpDaysInMonth(y, m int) int {
	switch m {
	case 2:
		if tpIsLeap(y) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// tpDtResult classifies a datetime parse in more detail than ParseStatus,
// so that InputError can choose PostgreSQL's exact message.
type tpDtResult uint8

const (
	tpDtOK        tpDtResult = iota
	tpDtBad                  // invalid syntax, 22007
	tpDtField                // a field out of range (Feb 30, 25:00), 22008
	tpDtMonthDay             // month or day beyond 12 or 31, 22008 with a datestyle hint
	tpDtDateRange            // beyond date's range, 22008 "date out of range"
	tpDtTimeRange            // beyond timestamp's range, 22008 "timestamp out of range"
)

const (
	tpUsPerDay = 86400 * 1000000
	// tpMaxDateYear and tpMaxTimestampYear are PostgreSQL's upper limits.
	tpMaxDateYear      = 5874897
	tpMaxTimestampYear = 294276
)

// tpDigitsAt reads up to max decimal digits at b[i:], returning the value,
// the new index and how many digits were read.
func tpDigitsAt(b []byte, i, max int) (v, j, n int) {
	j = i
	for j < len(b) && tpIsDigit(b[j]) && n < max {
		v = v*10 + int(b[j]-'0')
		j++
		n++
	}
	return v, j, n
}

// tpParseDate reads "Y-M-D" (year of 3 to 7 digits, month and day of one or
// two) or the 8-digit form YYYYMMDD at the start of s, returning the index
// after it.
func tpParseDate(s []byte) (y, m, d, i int, r tpDtResult) {
	y, i, n := tpDigitsAt(s, 0, 8)
	if n == 8 && (i == len(s) || !tpIsDigit(s[i])) {
		return y / 10000, y / 100 % 100, y % 100, i, tpCheckDate(y/10000, y/100%100, y%100)
	}
	if n < 3 || n > 7 || i >= len(s) || s[i] != '-' {
		return 0, 0, 0, 0, tpDtBad
	}
	m, i, n = tpDigitsAt(s, i+1, 2)
	if n == 0 || i >= len(s) || s[i] != '-' {
		return 0, 0, 0, 0, tpDtBad
	}
	d, i, n = tpDigitsAt(s, i+1, 2)
	if n == 0 || (i < len(s) && tpIsDigit(s[i])) {
		return 0, 0, 0, 0, tpDtBad
	}
	return y, m, d, i, tpCheckDate(y, m, d)
}

func tpCheckDate(y, m, d int) tpDtResult {
	switch {
	case m < 1 || m > 12 || d < 1 || d > 31:
		return tpDtMonthDay
	case y < 1 || d > tpDaysInMonth(y, m):
		return tpDtField
	}
	return tpDtOK
}

// tpParseTime reads H:M[:S[.frac]] at s[i:] and returns µs since midnight
// (up to 24:00:00 plus a leap second's carry) and the index after it.
func tpParseTime(s []byte, i int) (us int64, j int, r tpDtResult) {
	h, j, n := tpDigitsAt(s, i, 9)
	if n == 0 || j >= len(s) || s[j] != ':' {
		return 0, 0, tpDtBad
	}
	mi, j, n := tpDigitsAt(s, j+1, 9)
	if n == 0 {
		return 0, 0, tpDtBad
	}
	sec, frac := 0, int64(0)
	if j < len(s) && s[j] == ':' {
		sec, j, n = tpDigitsAt(s, j+1, 9)
		if n == 0 {
			return 0, 0, tpDtBad
		}
		if j < len(s) && s[j] == '.' {
			frac, j = tpFracMicros(s, j+1)
		}
	}
	if h > 24 || mi > 59 || sec > 60 || (h == 24 && (mi > 0 || sec > 0 || frac > 0)) {
		return 0, j, tpDtField
	}
	return (int64(h)*3600+int64(mi)*60+int64(sec))*1000000 + frac, j, tpDtOK
}

// tpFracMicros converts the digits of a fractional second to microseconds
// as PostgreSQL does: the fraction is read as a double and rint(frac*1e6)
// taken, so halves round to even where the double is exact.
func tpFracMicros(s []byte, i int) (int64, int) {
	var mant uint64
	nd := 0
	j := i
	for ; j < len(s) && tpIsDigit(s[j]); j++ {
		if nd < 15 {
			mant = mant*10 + uint64(s[j]-'0')
			nd++
		}
	}
	if nd <= 6 {
		return int64(mant) * int64(tpPow10u(6-nd)), j
	}
	// mant < 10^15 < 2^53 and 10^nd are exact, so the quotient is the
	// correctly rounded double, as strtod would give.
	frac := float64(mant) / float64(tpPow10u(nd))
	return int64(math.RoundToEven(frac * 1e6)), j
}

// tpSkipZone skips a time zone suffix, which timestamp without time zone
// ignores: Z, UTC, GMT, or +HH[[:]MM] / -HH[[:]MM], optionally after a space.
func tpSkipZone(s []byte, i int) int {
	j := i
	for j < len(s) && s[j] == ' ' {
		j++
	}
	if j >= len(s) {
		return i
	}
	switch {
	case tpLower(s[j]) == 'z' && j+1 == len(s):
		return j + 1
	case j+3 == len(s) && (tpEqualFold(s[j:], "utc") || tpEqualFold(s[j:], "gmt")):
		return j + 3
	case s[j] == '+' || s[j] == '-':
		_, k, n := tpDigitsAt(s, j+1, 4)
		if n == 0 {
			return i
		}
		if k < len(s) && s[k] == ':' {
			_, k2, n2 := tpDigitsAt(s, k+1, 2)
			if n2 == 0 {
				return i
			}
			k = k2
		}
		return k
	}
	return i
}

// tpParseTimestamp parses the formats ParseTimestamp documents.
func tpParseTimestamp(b []byte) (int64, tpDtResult) {
	s := tpTrimSpace(b)
	y, m, d, i, r := tpParseDate(s)
	if r == tpDtBad {
		return 0, r
	}
	var tod int64
	if i < len(s) {
		sep := s[i]
		j := i
		if sep == 'T' || sep == 't' {
			j++
		} else if sep == ' ' {
			for j < len(s) && s[j] == ' ' {
				j++
			}
		}
		if j < len(s) && tpIsDigit(s[j]) && (j > i) {
			var tr tpDtResult
			tod, j, tr = tpParseTime(s, j)
			if tr == tpDtBad {
				return 0, tpDtBad
			}
			if r == tpDtOK {
				r = tr
			}
		} else if j > i && tpSkipZone(s, i) != len(s) {
			return 0, tpDtBad // a separator with no time (or zone) after it
		}
		j = tpSkipZone(s, j)
		if j != len(s) {
			return 0, tpDtBad
		}
	}
	if r != tpDtOK {
		return 0, r
	}
	// PostgreSQL's limit is the end of year 294276, counted from 2000;
	// counted in int64 microseconds from 1970 the limit comes a little
	// earlier, in 294247.
	days := int64(DaysFromCivil(y, m, d))
	if y > tpMaxTimestampYear || days > (math.MaxInt64-tod)/tpUsPerDay {
		return 0, tpDtTimeRange
	}
	return days*tpUsPerDay + tod, tpDtOK
}

func tpDtStatus(r tpDtResult) ParseStatus {
	switch r {
	case tpDtOK:
		return ParseOK
	case tpDtBad:
		return ParseInvalid
	}
	return ParseOutOfRange
}

// tpParseDateValue parses the formats ParseDate documents.
func tpParseDateValue(b []byte) (int32, tpDtResult) {
	s := tpTrimSpace(b)
	if len(s) == 10 && s[4] == '-' && s[7] == '-' { // the common YYYY-MM-DD
		y, _, n1 := tpDigitsAt(s, 0, 4)
		m, _, n2 := tpDigitsAt(s, 5, 2)
		d, _, n3 := tpDigitsAt(s, 8, 2)
		if n1 == 4 && n2 == 2 && n3 == 2 {
			if r := tpCheckDate(y, m, d); r != tpDtOK {
				return 0, r
			}
			return DaysFromCivil(y, m, d), tpDtOK
		}
	}
	if tpEqualFold(s, "epoch") {
		return 0, tpDtOK
	}
	y, m, d, i, r := tpParseDate(s)
	if r == tpDtBad {
		return 0, r
	}
	if i < len(s) { // a time part is checked, then ignored
		if _, tr := tpParseTimestamp(s); tr == tpDtBad {
			return 0, tpDtBad
		} else if r == tpDtOK && tr != tpDtTimeRange {
			r = tr
		}
	}
	if r != tpDtOK {
		return 0, r
	}
	if y > tpMaxDateYear {
		return 0, tpDtDateRange
	}
	return DaysFromCivil(y, m, d), tpDtOK
}

// ParseDate parses a date as date_in does for ISO input: "YYYY-MM-DD"
// (month and day may have one digit, the year 3 to 7), or YYYYMMDD,
// surrounded by whitespace, optionally followed by a time of day that is
// checked and ignored, or the word epoch. The result is days since
// 1970-01-01. An impossible calendar date (2021-02-30, month 13, year 0)
// is ParseOutOfRange, as PostgreSQL's 22008; anything else unparsable is
// ParseInvalid. BC dates, infinity and named months are not supported.
func ParseDate(b []byte) (int32, ParseStatus) {
	v, r := tpParseDateValue(b)
	return v, tpDtStatus(r)
}

// ParseTimestamp parses a timestamp without time zone: a date as ParseDate
// reads it, then optionally a space (or T) and HH:MM[:SS[.ffffff]]. A bare
// date means midnight. More than six fractional digits round as
// PostgreSQL rounds them; seconds may be 60 and 24:00:00 is allowed, both
// carrying into the next minute or day. A trailing time zone (Z, UTC,
// +05:30) is ignored, as PostgreSQL ignores it for this type. The result
// is microseconds since 1970-01-01 00:00:00.
func ParseTimestamp(b []byte) (int64, ParseStatus) {
	v, r := tpParseTimestamp(b)
	return v, tpDtStatus(r)
}

// InputError builds PostgreSQL's error for a value of type t that failed
// to parse with status st; raw is the input text as given.
func InputError(t Type, st ParseStatus, raw []byte) *Error {
	name := t.String()
	switch t.Kind {
	case KindNumeric:
		name = "numeric"
	case KindTimestamp:
		name = "timestamp"
	case KindTimestampTZ:
		name = "timestamp with time zone"
	case KindTime:
		name = "time"
	case KindInterval:
		name = "interval"
	}
	if st != ParseOutOfRange {
		switch t.Kind {
		case KindDate, KindTimestamp, KindTimestampTZ, KindTime:
			return Errorf(CodeInvalidDatetimeFormat, "invalid input syntax for type %s: \"%s\"", name, raw)
		case KindNumeric:
			if s := tpTrimSpace(raw); tpEqualFold(s, "nan") || tpEqualFold(s, "+nan") || tpEqualFold(s, "-nan") {
				return Errorf(CodeFeatureNotSupported, "cannot store NaN in type %s", t)
			}
		}
		return Errorf(CodeInvalidTextRepresent, "invalid input syntax for type %s: \"%s\"", name, raw)
	}
	switch t.Kind {
	case KindInt16, KindInt32, KindInt64:
		return Errorf(CodeNumericValueOutOfRange, "value \"%s\" is out of range for type %s", raw, name)
	case KindFloat32, KindFloat64:
		return Errorf(CodeNumericValueOutOfRange, "\"%s\" is out of range for type %s", raw, name)
	case KindNumeric:
		if _, ok := tpFloatSpecial(tpTrimSpace(raw)); ok {
			if t.Prec > 0 {
				return Errorf(CodeNumericValueOutOfRange, "numeric field overflow").
					WithDetail("A field with precision %d, scale %d cannot hold an infinite value.", t.Prec, t.Scale)
			}
			return Errorf(CodeFeatureNotSupported, "cannot store infinity in type %s", t)
		}
		if t.Prec > 0 && t.Prec <= MaxNumericPrec {
			e := Errorf(CodeNumericValueOutOfRange, "numeric field overflow")
			if digits := t.Prec - t.Scale; digits > 0 {
				return e.WithDetail("A field with precision %d, scale %d must round to an absolute value less than 10^%d.", t.Prec, t.Scale, digits)
			}
			return e.WithDetail("A field with precision %d, scale %d must round to an absolute value less than 1.", t.Prec, t.Scale)
		}
		return Errorf(CodeNumericValueOutOfRange, "value overflows numeric format")
	case KindDate, KindTimestamp, KindTimestampTZ, KindTime:
		var r tpDtResult
		switch t.Kind {
		case KindDate:
			_, r = tpParseDateValue(raw)
		case KindTimestampTZ:
			_, r = tpParseTimestampTZ(raw, UTCZone)
		case KindTime:
			_, r = tpParseTimeValue(raw)
		default:
			_, r = tpParseTimestamp(raw)
		}
		switch r {
		case tpDtZoneRange:
			return Errorf(CodeInvalidTimeZoneDisplacement, "time zone displacement out of range: \"%s\"", raw)
		case tpDtDateRange:
			return Errorf(CodeDatetimeFieldOverflow, "date out of range: \"%s\"", raw)
		case tpDtTimeRange:
			return Errorf(CodeDatetimeFieldOverflow, "timestamp out of range: \"%s\"", raw)
		case tpDtMonthDay:
			e := Errorf(CodeDatetimeFieldOverflow, "date/time field value out of range: \"%s\"", raw)
			e.Hint = `Perhaps you need a different "datestyle" setting.`
			return e
		}
		return Errorf(CodeDatetimeFieldOverflow, "date/time field value out of range: \"%s\"", raw)
	}
	return Errorf(CodeInvalidTextRepresent, "invalid input syntax for type %s: \"%s\"", name, raw)
}
