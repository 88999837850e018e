package eval

import (
	"bytes"
	"context"
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
	escape []byte // the escape character's UTF-8 bytes; empty: none
	fold   bool
}

func fold(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// Results of matching, as PostgreSQL's like_match.c: a mismatch after a
// '%' stops the whole search (abort), and an escape at the end of the
// pattern is an error only when matching reaches it.
const (
	likeFalse = iota
	likeTrue
	likeAbort
	likeError
)

func (m *likeMatcher) match(s []byte) (bool, error) {
	switch m.matchAt(s, m.pat) {
	case likeTrue:
		return true, nil
	case likeError:
		return false, engine.Errorf(engine.CodeInvalidEscapeSequence, "LIKE pattern must not end with escape character")
	}
	return false, nil
}

func (m *likeMatcher) matchAt(s, p []byte) int {
	for len(s) > 0 && len(p) > 0 {
		c := p[0]
		switch {
		case len(m.escape) > 0 && bytes.HasPrefix(p, m.escape):
			p = p[len(m.escape):]
			if len(p) == 0 {
				return likeError
			}
			_, size := utf8.DecodeRune(p)
			if len(s) < size {
				return likeFalse
			}
			for k := 0; k < size; k++ {
				if !m.eqByte(s[k], p[k]) {
					return likeFalse
				}
			}
			s, p = s[size:], p[size:]
		case c == '%':
			for len(p) > 0 && p[0] == '%' {
				p = p[1:]
			}
			if len(p) == 0 {
				return likeTrue
			}
			for len(s) > 0 {
				if r := m.matchAt(s, p); r != likeFalse {
					return r
				}
				_, size := utf8.DecodeRune(s)
				s = s[size:]
			}
			return likeAbort
		case c == '_':
			_, size := utf8.DecodeRune(s)
			s, p = s[size:], p[1:]
		default:
			if !m.eqByte(s[0], c) {
				return likeFalse
			}
			s, p = s[1:], p[1:]
		}
	}
	if len(s) > 0 {
		return likeFalse
	}
	for len(p) > 0 && p[0] == '%' {
		p = p[1:]
	}
	if len(p) == 0 {
		return likeTrue
	}
	return likeAbort
}

func (m *likeMatcher) eqByte(a, b byte) bool {
	if m.fold {
		return fold(a) == fold(b)
	}
	return a == b
}

// likeShape is a pattern that is one literal with % at either end or
// both (no _, no escape character): then LIKE is a byte comparison, which
// the bytes package does with vector instructions. A literal starting
// with a UTF-8 continuation byte is left to the matcher, which only tries
// matches at character boundaries.
type likeShape struct {
	pat    []byte // the pattern this describes
	kind   int    // shapeNone, shapeContains, shapePrefix, shapeSuffix, shapeEqual
	lit    []byte // folded when the match folds
	folded []byte // scratch: a folded value
}

const (
	shapeNone = iota
	shapeContains
	shapePrefix
	shapeSuffix
	shapeEqual
)

func (sh *likeShape) set(m *likeMatcher) {
	sh.pat, sh.kind, sh.lit = append(sh.pat[:0], m.pat...), shapeNone, sh.lit[:0]
	p := m.pat
	lead, trail := false, false
	for len(p) > 0 && p[0] == '%' {
		p, lead = p[1:], true
	}
	for len(p) > 0 && p[len(p)-1] == '%' {
		p, trail = p[:len(p)-1], true
	}
	if len(p) == 0 || bytes.ContainsAny(p, "%_") || len(m.escape) > 0 && bytes.Contains(p, m.escape) ||
		p[0] >= 0x80 && p[0] < 0xC0 {
		return
	}
	for _, c := range p {
		if m.fold {
			c = fold(c)
		}
		sh.lit = append(sh.lit, c)
	}
	switch {
	case lead && trail:
		sh.kind = shapeContains
	case trail:
		sh.kind = shapePrefix
	case lead:
		sh.kind = shapeSuffix
	default:
		sh.kind = shapeEqual
	}
}

// match is the shape's answer for s.
func (sh *likeShape) match(s []byte, folds bool) bool {
	if folds {
		if cap(sh.folded) < len(s) {
			sh.folded = make([]byte, len(s), 2*len(s))
		}
		f := sh.folded[:len(s)]
		for k, c := range s {
			f[k] = fold(c)
		}
		s = f
	}
	switch sh.kind {
	case shapeContains:
		return bytes.Contains(s, sh.lit)
	case shapePrefix:
		return bytes.HasPrefix(s, sh.lit)
	case shapeSuffix:
		return bytes.HasSuffix(s, sh.lit)
	}
	return bytes.Equal(s, sh.lit)
}

// evalLikeConst is LIKE and ILIKE with a constant pattern and escape, the
// usual case: the pattern is read once instead of once a row, and neither
// it nor the escape is broadcast. A char(n) value padded by pad_char is
// padded into one scratch buffer instead of a new vector. Other forms (a
// NULL or invalid constant escape, whose error depends on the rows being
// non-NULL) return ok false for evalLike.
func evalLikeConst(ctx context.Context, e *engine.Call, in *engine.Batch) (out *engine.Vec, ok bool, err error) {
	pc, isConst := e.Args[1].(*engine.Const)
	if len(e.Args) < 2 || len(e.Args) > 3 || !isConst || pc.Null {
		return nil, false, nil
	}
	m := likeMatcher{pat: []byte(pc.S), escape: []byte{'\\'}, fold: e.Op == engine.OpILike}
	if len(e.Args) == 3 {
		ec, isConst := e.Args[2].(*engine.Const)
		if !isConst || ec.Null {
			return nil, false, nil
		}
		switch utf8.RuneCountInString(ec.S) {
		case 0:
			m.escape = nil
		case 1:
			m.escape = []byte(ec.S)
		default:
			return nil, false, nil
		}
	}
	arg, width := e.Args[0], -1
	if pad, isPad := arg.(*engine.Call); isPad && pad.Op == engine.OpPadChar && len(pad.Args) == 1 {
		arg, width = pad.Args[0], pad.Args[0].Type().Len
	}
	if engine.PhysOf(arg.Type().Kind) != engine.PhysStr || e.T.Kind != engine.KindBool {
		return nil, false, nil
	}
	src, err := Eval(ctx, arg, in)
	if err != nil {
		return nil, true, err
	}
	n := in.N
	out = engine.NewVec(engine.Bool, n)
	out.Null = copyNulls(src.Null)
	var shape likeShape
	shape.set(&m)
	var padded []byte
	for i, s := range src.S[:n] {
		if out.Null != nil && out.Null[i] {
			continue
		}
		if width >= 0 && !(shape.kind == shapePrefix && len(s) >= len(shape.lit)) {
			// (padding cannot change a prefix test that s decides)
			padded = append(padded[:0], s...)
			for c := utf8.RuneCount(s); c < width; c++ {
				padded = append(padded, ' ')
			}
			s = padded
		}
		if shape.kind != shapeNone {
			if shape.match(s, m.fold) {
				out.I[i] = 1
			}
			continue
		}
		ok, err := m.match(s)
		if err != nil {
			return nil, true, err
		}
		if ok {
			out.I[i] = 1
		}
	}
	return out, true, nil
}

func evalLike(e *engine.Call, args []*engine.Vec, n int) (*engine.Vec, error) {
	out := engine.NewVec(engine.Bool, n)
	out.Null = orNulls(n, args...)
	m := likeMatcher{escape: []byte{'\\'}, fold: e.Op == engine.OpILike}
	var shape likeShape
	shaped := false
	for i := 0; i < n; i++ {
		if out.Null != nil && out.Null[i] {
			continue
		}
		if len(args) > 2 {
			esc := args[2].S[i]
			switch utf8.RuneCount(esc) {
			case 0:
				m.escape = nil
			case 1:
				m.escape = esc
			default:
				return nil, engine.Errorf(engine.CodeInvalidEscapeSequence, "invalid escape string").WithDetail("Escape string must be empty or one character.")
			}
		}
		m.pat = args[1].S[i]
		if !shaped || !bytes.Equal(shape.pat, m.pat) || len(args) > 2 {
			shape.set(&m)
			shaped = true
		}
		if shape.kind != shapeNone {
			if shape.match(args[0].S[i], m.fold) {
				out.I[i] = 1
			}
			continue
		}
		ok, err := m.match(args[0].S[i])
		if err != nil {
			return nil, err
		}
		if ok {
			out.I[i] = 1
		}
	}
	return out, nil
}
