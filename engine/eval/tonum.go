package eval

import (
	"math"
	"strconv"
	"strings"

	"github.com/gpusql/gpusql/engine"
)

// to_char over numbers and to_number, with PostgreSQL's numeric
// template patterns: 9 (a digit, blank where insignificant), 0 (a digit,
// zero where insignificant), . and D (the decimal point), , and G (the
// group separator, blank before the first digit), FM (no padding, no
// trailing zeros at 9 positions), S before the digits (a sign, + or -),
// MI after them (- or a blank) and PR (<negative>). Other patterns
// (EEEE, RN, V, L, PL, SG, TH) are refused with 0A000.

type numFormat struct {
	items     []numItem
	pre, post int
	zeroStart int // index of the first 0 among the integer positions (pre if none)
	fm        bool
	sign      byte // 0 (floating - or blank), 'S', 'M' (MI), 'P' (PR)
	trailingS bool
	err       error
}

type numItem struct {
	kind byte // '9', '0', '.', ',', 'S', 'M', 'P', 't' (text)
	text string
}

func parseNumFormat(f string) numFormat {
	var nf numFormat
	nf.zeroStart = -1
	afterDot := false
	bad := func(what string) numFormat {
		nf.err = engine.Errorf(engine.CodeFeatureNotSupported, "the to_char pattern %q is not supported by gpusql", what)
		return nf
	}
	for i := 0; i < len(f); {
		up := strings.ToUpper(f[i:])
		switch {
		case strings.HasPrefix(up, "FM"):
			nf.fm = true
			i += 2
		case f[i] == '9' || f[i] == '0':
			if afterDot {
				nf.post++
			} else {
				if f[i] == '0' && nf.zeroStart < 0 {
					nf.zeroStart = nf.pre
				}
				nf.pre++
			}
			nf.items = append(nf.items, numItem{kind: f[i]})
			i++
		case f[i] == '.' || up[0] == 'D':
			if afterDot {
				nf.err = engine.Errorf(engine.CodeSyntaxError, "multiple decimal points")
				return nf
			}
			afterDot = true
			nf.items = append(nf.items, numItem{kind: '.'})
			i++
		case f[i] == ',' || up[0] == 'G':
			nf.items = append(nf.items, numItem{kind: ','})
			i++
		case up[0] == 'S' && !strings.HasPrefix(up, "SG") && !strings.HasPrefix(up, "SP"):
			if nf.pre+nf.post > 0 {
				nf.trailingS = true // to_number reads it; to_char refuses it
			}
			nf.sign = 'S'
			nf.items = append(nf.items, numItem{kind: 'S'})
			i++
		case strings.HasPrefix(up, "MI"):
			nf.sign = 'M'
			nf.items = append(nf.items, numItem{kind: 'M'})
			i += 2
		case strings.HasPrefix(up, "PR"):
			nf.sign = 'P'
			nf.items = append(nf.items, numItem{kind: 'P'})
			i += 2
		case strings.HasPrefix(up, "EEEE"), strings.HasPrefix(up, "RN"), up[0] == 'V', up[0] == 'L',
			strings.HasPrefix(up, "PL"), strings.HasPrefix(up, "SG"), strings.HasPrefix(up, "TH"):
			return bad(f[i : i+min(2, len(f)-i)])
		case f[i] == '"':
			i++
			var b strings.Builder
			for i < len(f) && f[i] != '"' {
				if f[i] == '\\' && i+1 < len(f) {
					i++
				}
				b.WriteByte(f[i])
				i++
			}
			i++
			nf.items = append(nf.items, numItem{kind: 't', text: b.String()})
		default:
			_, size := decodeRune(f[i:])
			nf.items = append(nf.items, numItem{kind: 't', text: f[i : i+size]})
			i += size
		}
	}
	if nf.zeroStart < 0 {
		nf.zeroStart = nf.pre
	}
	return nf
}

// toCharNum formats a number given as its absolute value's digits
// (intPart without sign, fracPart of exactly post digits) and sign.
func toCharNum(dst []byte, nf *numFormat, neg bool, intPart, fracPart string) []byte {
	overflow := len(intPart) > nf.pre
	if nf.post > 0 && intPart == "0" {
		intPart = "" // 0.5 is written .5
	}
	// the last fraction digit FM keeps at a 9 position
	lastRel := len(fracPart)
	if nf.fm {
		for lastRel > 0 && fracPart[lastRel-1] == '0' {
			lastRel--
		}
	}
	signCh := func() string {
		switch {
		case nf.sign == 'S':
			if neg {
				return "-"
			}
			return "+"
		case nf.sign == 'P':
			if neg {
				return "<"
			}
			if nf.fm {
				return ""
			}
			return " "
		case nf.sign == 'M':
			return ""
		case neg:
			return "-"
		case nf.fm:
			return ""
		}
		return " "
	}
	wroteSign := false
	writeSign := func() {
		if !wroteSign {
			dst = append(dst, signCh()...)
			wroteSign = true
		}
	}
	pos, frac, printed := 0, 0, false
	firstInt := nf.pre - len(intPart) // the position of the first significant digit
	if firstInt > nf.zeroStart {
		firstInt = nf.zeroStart
	}
	fmZero := nf.fm && intPart == "" && lastRel == 0 && nf.zeroStart >= nf.pre && nf.pre > 0
	if fmZero {
		firstInt = nf.pre - 1
	}
	for _, it := range nf.items {
		switch it.kind {
		case '9', '0':
			if pos < nf.pre {
				i := pos
				pos++
				switch {
				case overflow:
					if i == 0 {
						writeSign()
					}
					dst = append(dst, '#')
				case i < firstInt:
					if !nf.fm {
						dst = append(dst, ' ')
					}
				default:
					writeSign()
					k := i - (nf.pre - len(intPart))
					if k < 0 || fmZero {
						dst = append(dst, '0')
					} else {
						dst = append(dst, intPart[k])
					}
					printed = true
				}
				continue
			}
			j := frac
			frac++
			switch {
			case overflow:
				dst = append(dst, '#')
			case j >= len(fracPart): // a double's digits ran out
			case nf.fm && it.kind == '9' && j >= lastRel:
			default:
				dst = append(dst, fracPart[j])
			}
		case '.':
			if !printed && !overflow {
				writeSign()
			}
			if overflow {
				if nf.pre == 0 {
					writeSign()
				}
			}
			dst = append(dst, '.')
		case ',':
			switch {
			case overflow:
				dst = append(dst, ',')
			case printed:
				dst = append(dst, ',')
			case !nf.fm:
				dst = append(dst, ' ')
			}
		case 'S':
		case 'M':
			switch {
			case neg:
				dst = append(dst, '-')
			case !nf.fm:
				dst = append(dst, ' ')
			}
		case 'P':
			switch {
			case neg:
				dst = append(dst, '>')
			case !nf.fm:
				dst = append(dst, ' ')
			}
		case 't':
			dst = append(dst, it.text...)
		}
	}
	return dst
}

// numDigits splits a value's decimal text ("-12.50") into sign, integer
// and fraction digits.
func numDigits(s string) (neg bool, intPart, fracPart string) {
	if strings.HasPrefix(s, "-") {
		neg, s = true, s[1:]
	}
	intPart, fracPart, _ = strings.Cut(s, ".")
	if intPart == "" {
		intPart = "0"
	}
	return neg, intPart, fracPart
}

// toCharDec formats a numeric, rounded half away from zero.
func toCharDec(dst []byte, nf *numFormat, d engine.Dec) []byte {
	if d.Scale > int32(nf.post) {
		d = d.Round(int32(nf.post))
	}
	neg, ip, fp := numDigits(d.String())
	fp += strings.Repeat("0", nf.post-len(fp))
	if strings.Trim(ip+fp, "0") == "" {
		neg = false
	}
	return toCharNum(dst, nf, neg, ip, fp)
}

// toCharFloat formats a double as PostgreSQL does: %.*f with at most
// digits significant digits (15 for double precision, 6 for real).
func toCharFloat(dst []byte, nf *numFormat, f float64, digits int) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		// PostgreSQL fills the digit positions with #
		nf2 := *nf
		return toCharNum(dst, &nf2, false, strings.Repeat("9", nf.pre+1), strings.Repeat("0", nf.post))
	}
	a := math.Abs(f)
	intLen := len(strconv.FormatFloat(a, 'f', 0, 64))
	post := min(nf.post, max(0, digits-intLen))
	s := strconv.FormatFloat(a, 'f', post, 64)
	_, ip, fp := numDigits(s)
	neg := f < 0 && strings.Trim(ip+fp, "0") != ""
	return toCharNum(dst, nf, neg, ip, fp)
}

// toNumber reads s by the template leniently: digits, the decimal
// point, and a minus sign or angle brackets anywhere make the value;
// at most the template's number of digits are read on either side.
func toNumber(s string, nf *numFormat) (engine.Dec, error) {
	var b strings.Builder
	neg := false
	seenDot := false
	intDigits, fracDigits := 0, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isDigit(c):
			if seenDot {
				if fracDigits < nf.post {
					b.WriteByte(c)
					fracDigits++
				}
			} else if intDigits < nf.pre {
				b.WriteByte(c)
				intDigits++
			}
		case c == '.' && nf.post > 0 && !seenDot:
			seenDot = true
			b.WriteByte('.')
		case c == '-' || c == '<':
			neg = true
		}
	}
	txt := b.String()
	if strings.Trim(txt, ".") == "" {
		return engine.Dec{}, engine.Errorf(engine.CodeInvalidTextRepresent, "invalid input syntax for type numeric: \" \"")
	}
	if neg {
		txt = "-" + txt
	}
	d, ok := engine.ParseDecLiteral(txt)
	if !ok {
		return engine.Dec{}, engine.Errorf(engine.CodeInvalidTextRepresent, "invalid input syntax for type numeric: %q", txt)
	}
	return d, nil
}
