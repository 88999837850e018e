package parse

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gpusql/gpusql/engine"
)

// kind is a token class.
type kind uint8

const (
	kEOF    kind = iota
	kIdent       // unquoted identifier or keyword; text is folded to lower case
	kQIdent      // "quoted identifier"; text is the name with "" undone
	kString      // '...', E'...', $$...$$; text is the value
	kNumber      // 42, 1.5, 1e3; text as written
	kParam       // $1; text is the number
	kOp          // operators and punctuation: ( ) , ; . :: + - ...
)

// token is one lexical token. pos and end are byte offsets into the whole
// query string, so errors can point at the original text.
type token struct {
	kind  kind
	text  string
	pos   int
	end   int
	space bool // whitespace or a comment came before it
	synth bool // made by a rewrite, not read from the query
}

// is reports whether t is the unquoted keyword (or identifier) w.
func (t token) is(w string) bool { return t.kind == kIdent && t.text == w }

// isOp reports whether t is the operator or punctuation op.
func (t token) isOp(op string) bool { return t.kind == kOp && t.text == op }

// lexer splits a query string into tokens, PostgreSQL style.
type lexer struct {
	src  string
	i    int
	toks []token
}

// lex tokenizes src. The result ends with a kEOF token at len(src).
func lex(src string) ([]token, error) {
	l := &lexer{src: src}
	space := false
	for {
		skipped, err := l.skipSpace()
		if err != nil {
			return nil, err
		}
		space = space || skipped
		if l.i >= len(src) {
			l.toks = append(l.toks, token{kind: kEOF, pos: len(src), end: len(src), space: space})
			return l.toks, nil
		}
		t, err := l.next()
		if err != nil {
			return nil, err
		}
		t.space = space
		space = false
		l.toks = append(l.toks, t)
	}
}

// skipSpace skips whitespace and comments, reporting whether it skipped any.
func (l *lexer) skipSpace() (bool, error) {
	start := l.i
	for l.i < len(l.src) {
		c := l.src[l.i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			l.i++
		case strings.HasPrefix(l.src[l.i:], "--"):
			for l.i < len(l.src) && l.src[l.i] != '\n' {
				l.i++
			}
		case strings.HasPrefix(l.src[l.i:], "/*"):
			open := l.i
			depth := 0
			for {
				if l.i >= len(l.src) {
					return false, lexErr(l.src, open, "unterminated /* comment")
				}
				if strings.HasPrefix(l.src[l.i:], "/*") {
					depth++
					l.i += 2
				} else if strings.HasPrefix(l.src[l.i:], "*/") {
					depth--
					l.i += 2
					if depth == 0 {
						break
					}
				} else {
					l.i++
				}
			}
		default:
			return l.i > start, nil
		}
	}
	return l.i > start, nil
}

func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= 0x80
}

func isIdentCont(c byte) bool { return isIdentStart(c) || isDigit(c) || c == '$' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// opChars are the characters PostgreSQL builds operators from.
const opChars = "+-*/<>=~!@#%^&|`?"

func (l *lexer) next() (token, error) {
	src, start := l.src, l.i
	c := src[start]
	tok := func(k kind, text string) (token, error) {
		return token{kind: k, text: text, pos: start, end: l.i}, nil
	}
	switch {
	case (c == 'e' || c == 'E') && start+1 < len(src) && src[start+1] == '\'':
		l.i++
		s, err := l.quoted('\'', true)
		if err != nil {
			return token{}, err
		}
		if err := checkUTF8(src, start, s); err != nil {
			return token{}, err
		}
		return tok(kString, s)
	case (c == 'n' || c == 'N') && start+1 < len(src) && src[start+1] == '\'':
		l.i++ // national character: an ordinary string
		s, err := l.quoted('\'', false)
		if err != nil {
			return token{}, err
		}
		return tok(kString, s)
	case (c == 'b' || c == 'B' || c == 'x' || c == 'X' || c == 'u' || c == 'U') && start+1 < len(src) &&
		(src[start+1] == '\'' || src[start+1] == '&' && (c == 'u' || c == 'U') && start+2 < len(src) && src[start+2] == '\''):
		return token{}, notSupportedAt(src, start, "bit-string, hex and Unicode-escape string literals are not supported by gpusql")
	case isIdentStart(c):
		for l.i < len(src) && isIdentCont(src[l.i]) {
			l.i++
		}
		return tok(kIdent, foldIdent(src[start:l.i]))
	case c == '"':
		s, err := l.quoted('"', false)
		if err != nil {
			return token{}, err
		}
		if s == "" {
			return token{}, syntaxErrAt(src, start, "zero-length delimited identifier", `""`)
		}
		return tok(kQIdent, s)
	case c == '\'':
		s, err := l.quoted('\'', false)
		if err != nil {
			return token{}, err
		}
		return tok(kString, s)
	case c == '$':
		return l.dollar()
	case isDigit(c) || c == '.' && start+1 < len(src) && isDigit(src[start+1]):
		l.number()
		return tok(kNumber, src[start:l.i])
	case strings.IndexByte("(),;[]", c) >= 0:
		l.i++
		return tok(kOp, src[start:l.i])
	case c == '.':
		l.i++
		return tok(kOp, ".")
	case c == ':':
		if strings.HasPrefix(src[start:], "::") {
			l.i += 2
			return tok(kOp, "::")
		}
		l.i++
		return token{}, syntaxErrAt(src, start, "syntax error", ":")
	case strings.IndexByte(opChars, c) >= 0:
		return l.operator()
	}
	_, n := utf8.DecodeRuneInString(src[start:])
	return token{}, syntaxErrAt(src, start, "syntax error", src[start:start+n])
}

// quoted reads a q-quoted string or identifier at l.i (which is at the
// opening quote). A doubled quote stands for one. With escapes, backslash
// sequences are resolved as in PostgreSQL's E'...' strings.
func (l *lexer) quoted(q byte, escapes bool) (string, error) {
	src, open := l.src, l.i
	if escapes {
		open-- // the E
	}
	l.i++
	var b strings.Builder
	for {
		if l.i >= len(src) {
			if q == '"' {
				return "", lexErr(src, open, "unterminated quoted identifier")
			}
			return "", lexErr(src, open, "unterminated quoted string")
		}
		c := src[l.i]
		switch {
		case c == q:
			if l.i+1 < len(src) && src[l.i+1] == q {
				b.WriteByte(q)
				l.i += 2
				continue
			}
			l.i++
			return b.String(), nil
		case c == '\\' && escapes:
			if err := l.escape(&b, open); err != nil {
				return "", err
			}
		default:
			b.WriteByte(c)
			l.i++
		}
	}
}

// escape resolves one backslash escape of an E'...' string.
func (l *lexer) escape(b *strings.Builder, open int) error {
	src := l.src
	l.i++ // the backslash
	if l.i >= len(src) {
		return lexErr(src, open, "unterminated quoted string")
	}
	c := src[l.i]
	l.i++
	digits := func(max int, ok func(byte) bool) string {
		s := l.i
		for l.i < len(src) && l.i-s < max && ok(src[l.i]) {
			l.i++
		}
		return src[s:l.i]
	}
	isOct := func(c byte) bool { return c >= '0' && c <= '7' }
	isHex := func(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }
	switch c {
	case 'b':
		b.WriteByte('\b')
	case 'f':
		b.WriteByte('\f')
	case 'n':
		b.WriteByte('\n')
	case 'r':
		b.WriteByte('\r')
	case 't':
		b.WriteByte('\t')
	case '0', '1', '2', '3', '4', '5', '6', '7':
		l.i--
		v, _ := strconv.ParseUint(digits(3, isOct), 8, 16)
		b.WriteByte(byte(v))
	case 'x':
		h := digits(2, isHex)
		if h == "" {
			b.WriteByte('x')
			break
		}
		v, _ := strconv.ParseUint(h, 16, 8)
		b.WriteByte(byte(v))
	case 'u', 'U':
		n := 4
		if c == 'U' {
			n = 8
		}
		h := digits(n, isHex)
		if len(h) != n {
			return engine.Errorf(engine.CodeSyntaxError, "invalid Unicode escape")
		}
		v, _ := strconv.ParseUint(h, 16, 32)
		if v > utf8.MaxRune || v >= 0xD800 && v <= 0xDFFF {
			return engine.Errorf(engine.CodeSyntaxError, "invalid Unicode escape value")
		}
		b.WriteRune(rune(v))
	default:
		b.WriteByte(c) // \\, \', and any other character stand for themselves
	}
	return nil
}

// dollar reads $1 (a parameter) or a $tag$...$tag$ string.
func (l *lexer) dollar() (token, error) {
	src, start := l.src, l.i
	j := start + 1
	if j < len(src) && isDigit(src[j]) {
		for j < len(src) && isDigit(src[j]) {
			j++
		}
		l.i = j
		return token{kind: kParam, text: src[start+1 : j], pos: start, end: j}, nil
	}
	if j < len(src) && isIdentStart(src[j]) {
		for j < len(src) && isIdentCont(src[j]) && src[j] != '$' {
			j++
		}
	}
	if j >= len(src) || src[j] != '$' {
		return token{}, syntaxErrAt(src, start, "syntax error", "$")
	}
	delim := src[start : j+1]
	body := j + 1
	k := strings.Index(src[body:], delim)
	if k < 0 {
		return token{}, lexErr(src, start, "unterminated dollar-quoted string")
	}
	l.i = body + k + len(delim)
	return token{kind: kString, text: src[body : body+k], pos: start, end: l.i}, nil
}

// number reads a numeric literal.
func (l *lexer) number() {
	src := l.src
	for l.i < len(src) && isDigit(src[l.i]) {
		l.i++
	}
	if l.i < len(src) && src[l.i] == '.' && !strings.HasPrefix(src[l.i:], "..") {
		l.i++
		for l.i < len(src) && isDigit(src[l.i]) {
			l.i++
		}
	}
	if l.i < len(src) && (src[l.i] == 'e' || src[l.i] == 'E') {
		j := l.i + 1
		if j < len(src) && (src[j] == '+' || src[j] == '-') {
			j++
		}
		if j < len(src) && isDigit(src[j]) {
			for j < len(src) && isDigit(src[j]) {
				j++
			}
			l.i = j
		}
	}
}

// operator reads an operator the way PostgreSQL's lexer does: the longest
// run of operator characters, stopping at a comment start, and dropping
// trailing + and - unless the operator has a character that only
// PostgreSQL-specific operators use (so "=-1" is "=" then "-").
func (l *lexer) operator() (token, error) {
	src, start := l.src, l.i
	j := start
	for j < len(src) && strings.IndexByte(opChars, src[j]) >= 0 {
		if j > start && (strings.HasPrefix(src[j:], "--") || strings.HasPrefix(src[j:], "/*")) {
			break
		}
		j++
	}
	op := src[start:j]
	if len(op) > 1 && !strings.ContainsAny(op, "~!@#%^&|`?") {
		for len(op) > 1 && (op[len(op)-1] == '+' || op[len(op)-1] == '-') {
			op = op[:len(op)-1]
		}
	}
	l.i = start + len(op)
	switch op {
	case "+", "-", "*", "/", "%", "=", "<", ">", "<=", ">=", "<>", "!=", "||", "&", "|", "<<", ">>",
		"~", "!~", "~*", "!~*", "~~", "!~~", "~~*", "!~~*", "=>":
		return token{kind: kOp, text: op, pos: start, end: l.i}, nil
	case "`", "?":
		return token{}, syntaxErrAt(src, start, "syntax error", op)
	}
	return token{}, notSupportedAt(src, start, "operator "+op+" is not supported by gpusql")
}

// foldIdent lower-cases an unquoted identifier's ASCII letters, as
// PostgreSQL does.
func foldIdent(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if b[j] >= 'A' && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// checkUTF8 rejects an escape string whose escapes made invalid UTF-8 or
// a zero byte, as PostgreSQL does.
func checkUTF8(src string, off int, s string) error {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == 0 || r == utf8.RuneError && n == 1 {
			return &engine.Error{Code: engine.CodeCharacterNotInRepertoir, Position: position(src, off),
				Message: fmt.Sprintf(`invalid byte sequence for encoding "UTF8": 0x%02x`, s[i])}
		}
		i += n
	}
	return nil
}
