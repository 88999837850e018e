package eval

import (
	"unicode/utf8"

	"github.com/gpusql/gpusql/engine"
)

// arena collects the bytes of a batch's computed strings in one buffer, so
// string functions allocate per batch, not per row.
type arena struct {
	buf  []byte
	offs []int
}

func newArena(n int) *arena { return &arena{offs: make([]int, 1, n+1)} }

func (a *arena) end() { a.offs = append(a.offs, len(a.buf)) }

// finish slices the buffer into out.S for the non-NULL rows.
func (a *arena) finish(out *engine.Vec) {
	for i := 0; i < out.N; i++ {
		if !out.IsNull(i) {
			out.S[i] = a.buf[a.offs[i]:a.offs[i+1]:a.offs[i+1]]
		}
	}
}

func evalString(e *engine.Call, args []*engine.Vec, n int) (*engine.Vec, error) {
	out := engine.NewVec(e.T, n)
	out.Null = orNulls(n, args...)
	null := func(i int) bool { return out.Null != nil && out.Null[i] }
	switch e.Op {
	case engine.OpLength:
		for i := 0; i < n; i++ {
			if !null(i) {
				out.I[i] = int64(utf8.RuneCount(args[0].S[i]))
			}
		}
		return out, nil
	case engine.OpUpper, engine.OpLower:
		a := newArena(n)
		up := e.Op == engine.OpUpper
		for i := 0; i < n; i++ {
			if !null(i) {
				for _, c := range args[0].S[i] {
					if up && c >= 'a' && c <= 'z' {
						c -= 'a' - 'A'
					} else if !up && c >= 'A' && c <= 'Z' {
						c += 'a' - 'A'
					}
					a.buf = append(a.buf, c)
				}
			}
			a.end()
		}
		a.finish(out)
		return out, nil
	case engine.OpPadChar:
		a := newArena(n)
		width := e.Args[0].Type().Len
		for i := 0; i < n; i++ {
			if !null(i) {
				s := args[0].S[i]
				a.buf = append(a.buf, s...)
				for c := utf8.RuneCount(s); c < width; c++ {
					a.buf = append(a.buf, ' ')
				}
			}
			a.end()
		}
		a.finish(out)
		return out, nil
	case engine.OpConcat:
		a := newArena(n)
		for i := 0; i < n; i++ {
			if !null(i) {
				a.buf = append(a.buf, args[0].S[i]...)
				a.buf = append(a.buf, args[1].S[i]...)
			}
			a.end()
		}
		a.finish(out)
		return out, nil
	case engine.OpSubstr:
		for i := 0; i < n; i++ {
			if null(i) {
				continue
			}
			s := args[0].S[i]
			start := args[1].I[i]
			var r []byte
			if len(args) > 2 {
				cnt := args[2].I[i]
				if cnt < 0 {
					return nil, engine.Errorf(engine.CodeSubstringError, "negative substring length not allowed")
				}
				r = substr(s, start, start+cnt)
			} else {
				r = substr(s, start, 1<<62)
			}
			out.S[i] = r
		}
		return out, nil
	}
	return nil, engine.Errorf(engine.CodeInternalError, "eval: string op %s", e.Op)
}

// substr returns the characters at 1-based positions [from, to).
func substr(s []byte, from, to int64) []byte {
	if from < 1 {
		from = 1
	}
	if to <= from {
		return s[:0]
	}
	pos := int64(1)
	startByte, endByte := len(s), len(s)
	for k := range string(s) {
		if pos == from {
			startByte = k
		}
		if pos == to {
			endByte = k
			break
		}
		pos++
	}
	if startByte > endByte {
		return s[:0]
	}
	return s[startByte:endByte]
}

// likeMatcher matches SQL LIKE patterns: % any run, _ one character, and
// the escape character (default backslash) quoting the next one.
type likeMatcher struct {
	pat    []byte
	escape int // -1: none
	fold   bool
}

func fold(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func (m *likeMatcher) match(s []byte) bool { return m.matchAt(s, m.pat) }

func (m *likeMatcher) matchAt(s, p []byte) bool {
	for len(p) > 0 {
		c := p[0]
		switch {
		case m.escape >= 0 && int(c) == m.escape:
			if len(p) < 2 {
				return false
			}
			p = p[1:]
			if len(s) == 0 || !m.eqByte(s[0], p[0]) {
				return false
			}
			s, p = s[1:], p[1:]
		case c == '%':
			for len(p) > 0 && p[0] == '%' {
				p = p[1:]
			}
			if len(p) == 0 {
				return true
			}
			for k := 0; k <= len(s); k++ {
				if k > 0 && k < len(s) && !utf8.RuneStart(s[k]) {
					continue
				}
				if m.matchAt(s[k:], p) {
					return true
				}
			}
			return false
		case c == '_':
			if len(s) == 0 {
				return false
			}
			_, size := utf8.DecodeRune(s)
			s, p = s[size:], p[1:]
		default:
			if len(s) == 0 || !m.eqByte(s[0], c) {
				return false
			}
			s, p = s[1:], p[1:]
		}
	}
	return len(s) == 0
}

func (m *likeMatcher) eqByte(a, b byte) bool {
	if m.fold {
		return fold(a) == fold(b)
	}
	return a == b
}

func evalLike(e *engine.Call, args []*engine.Vec, n int) (*engine.Vec, error) {
	out := engine.NewVec(engine.Bool, n)
	out.Null = orNulls(n, args...)
	m := likeMatcher{escape: '\\', fold: e.Op == engine.OpILike}
	for i := 0; i < n; i++ {
		if out.Null != nil && out.Null[i] {
			continue
		}
		if len(args) > 2 {
			esc := args[2].S[i]
			switch utf8.RuneCount(esc) {
			case 0:
				m.escape = -1
			case 1:
				m.escape = int(esc[0])
			default:
				return nil, engine.Errorf(engine.CodeInvalidEscapeSequence, "invalid escape string").WithDetail("Escape string must be empty or one character.")
			}
		}
		m.pat = args[1].S[i]
		if m.match(args[0].S[i]) {
			out.I[i] = 1
		}
	}
	return out, nil
}
