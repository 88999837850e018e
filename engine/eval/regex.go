package eval

import (
	"errors"
	"regexp"
	"regexp/syntax"
	"unicode/utf8"

	"github.com/gpusql/gpusql/engine"
)

// evalRegex is x ~ pattern (flags "i" for ~*). Patterns are Go RE2
// expressions run so that "." also matches a newline, as PostgreSQL's
// advanced regular expressions do by default; a pattern is compiled once
// per run of equal patterns (usually the one constant of a query).
func evalRegex(args []*engine.Vec, n int) (*engine.Vec, error) {
	out := engine.NewVec(engine.Bool, n)
	out.Null = orNulls(n, args...)
	var re *regexp.Regexp
	var last string
	for i := 0; i < n; i++ {
		if out.Null != nil && out.Null[i] {
			continue
		}
		pat := string(args[1].S[i])
		flags := string(args[2].S[i])
		if re == nil || pat+"\x00"+flags != last {
			var err error
			if re, err = CompileRegex(pat, flags); err != nil {
				return nil, err
			}
			last = pat + "\x00" + flags
		}
		if re.Match(args[0].S[i]) {
			out.I[i] = 1
		}
	}
	return out, nil
}

// CompileRegex compiles a PostgreSQL regular expression with flags ("i":
// case-insensitive) as Go RE2, reporting a bad pattern as PostgreSQL does
// (SQLSTATE 2201B).
func CompileRegex(pat, flags string) (*regexp.Regexp, error) {
	prefix := "(?s)"
	if flags == "i" {
		prefix = "(?is)"
	}
	re, err := regexp.Compile(prefix + pat)
	if err != nil {
		msg := err.Error()
		var se *syntax.Error
		if errors.As(err, &se) {
			msg = se.Code.String()
		}
		return nil, engine.Errorf(engine.CodeInvalidRegularExpr, "invalid regular expression: %s", msg)
	}
	return re, nil
}

// RegexOpts are the flags of regexp_replace, regexp_match and
// regexp_matches that gpusql runs: g (every match), i (case-insensitive)
// and c, s (the defaults: case-sensitive, "." matches a newline).
type RegexOpts struct {
	Global bool
	Fold   bool
}

// ParseRegexOpts reads a flags argument as PostgreSQL does, the last of i
// and c winning. An unknown flag is 22023, as there; PostgreSQL's other
// flags (n, m, p, w, x, b, e, q, t), which change the syntax or newline
// handling, are 0A000.
func ParseRegexOpts(flags string) (RegexOpts, error) {
	var o RegexOpts
	for _, c := range flags {
		switch c {
		case 'g':
			o.Global = true
		case 'i':
			o.Fold = true
		case 'c':
			o.Fold = false
		case 's':
		case 'n', 'm', 'p', 'w', 'x', 'b', 'e', 'q', 't':
			return o, engine.Errorf(engine.CodeFeatureNotSupported, "regular expression option %q is not supported by gpusql", string(c))
		default:
			return o, engine.Errorf(engine.CodeInvalidParameterValue, "invalid regular expression option: %q", string(c))
		}
	}
	return o, nil
}

// PGRegex is a pattern compiled for the functions that return what it
// matched, with PostgreSQL's choice among the matches that start at the
// leftmost position: the longest when the expression is greedy (its first
// quantifier that has a greediness is greedy, or it is an alternation at
// the top), as Go's leftmost-longest mode picks it; Go's leftmost-first
// choice otherwise (PostgreSQL takes the shortest there: a documented
// difference, docs/sql.md).
type PGRegex struct {
	re *regexp.Regexp
	// ctx: an assertion of the pattern looks at the character before the
	// match (^, \b, \B), so it cannot be searched for in a suffix of the
	// text
	ctx bool
	// longest: leftmost-longest (Go's Longest mode)
	longest bool
}

// CompilePGRegex compiles pat for regexp_replace and its kind.
func CompilePGRegex(pat string, fold bool) (*PGRegex, error) {
	flags := ""
	if fold {
		flags = "i"
	}
	re, err := CompileRegex(pat, flags)
	if err != nil {
		return nil, err
	}
	tree, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return nil, engine.Errorf(engine.CodeInvalidRegularExpr, "invalid regular expression: %s", err)
	}
	r := &PGRegex{re: re}
	if greediness(tree) >= 0 {
		re.Longest()
		r.longest = true
	}
	var walk func(t *syntax.Regexp)
	walk = func(t *syntax.Regexp) {
		switch t.Op {
		case syntax.OpBeginLine, syntax.OpBeginText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
			r.ctx = true
		}
		for _, s := range t.Sub {
			walk(s)
		}
	}
	walk(tree)
	return r, nil
}

// greediness is 1 for a greedy expression, -1 for a non-greedy one and 0
// for one without a quantifier that has a greediness (PostgreSQL's rules,
// "Regular Expression Matching Rules").
func greediness(t *syntax.Regexp) int {
	switch t.Op {
	case syntax.OpAlternate:
		return 1
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		if t.Op == syntax.OpRepeat && t.Min == t.Max {
			return greediness(t.Sub[0]) // {m}: as the atom
		}
		if t.Flags&syntax.NonGreedy != 0 {
			return -1
		}
		return 1
	case syntax.OpCapture:
		return greediness(t.Sub[0])
	case syntax.OpConcat:
		for _, s := range t.Sub {
			if g := greediness(s); g != 0 {
				return g
			}
		}
	}
	return 0
}

// Longest reports whether the match is chosen leftmost-longest (Go's
// Longest mode); otherwise leftmost-first.
func (r *PGRegex) Longest() bool { return r.longest }

// Context reports whether an assertion of the pattern looks at the
// character before the match, so that Find searches the whole text.
func (r *PGRegex) Context() bool { return r.ctx }

// NumGroups is the number of capturing groups.
func (r *PGRegex) NumGroups() int { return r.re.NumSubexp() }

// Find returns the submatch indexes of the matches that start at byte
// from or later, in order, at most limit of them (limit < 0: all), as
// PostgreSQL finds them: the search goes on where a match ends, one
// character further after an empty match, and an empty match may follow
// a non-empty one. (A pattern whose assertions look at the character
// before the match is searched for over the whole text, with Go's rule
// that an empty match right after a match is skipped.)
func (r *PGRegex) Find(src []byte, from, limit int, dst [][]int) [][]int {
	if r.ctx {
		for _, m := range r.re.FindAllSubmatchIndex(src, -1) {
			if limit >= 0 && len(dst) >= limit {
				break
			}
			if m[0] >= from {
				dst = append(dst, m)
			}
		}
		return dst
	}
	pos := from
	for pos <= len(src) && (limit < 0 || len(dst) < limit) {
		m := r.re.FindSubmatchIndex(src[pos:])
		if m == nil {
			break
		}
		for k := range m {
			if m[k] >= 0 {
				m[k] += pos
			}
		}
		dst = append(dst, m)
		if m[1] > m[0] {
			pos = m[1]
			continue
		}
		if m[1] >= len(src) {
			break
		}
		_, w := utf8.DecodeRune(src[m[1]:])
		pos = m[1] + w
	}
	return dst
}

// Replace appends to dst what regexp_replace makes of src: the matches
// that Find gives from byte from on, the nth only (nth >= 1) or every
// one (nth == 0), each replaced by rep with its escapes expanded. ms is
// scratch, returned for reuse.
func (r *PGRegex) Replace(dst, src, rep []byte, from, nth int, ms [][]int) ([]byte, [][]int) {
	limit := -1
	if nth > 0 {
		limit = nth
	}
	ms = r.Find(src, from, limit, ms[:0])
	if nth > 0 {
		if len(ms) < nth {
			return append(dst, src...), ms
		}
		ms = ms[nth-1:]
	}
	prev := 0
	for _, m := range ms {
		dst = append(dst, src[prev:m[0]]...)
		dst = AppendReplacement(dst, src, rep, m)
		prev = m[1]
	}
	return append(dst, src[prev:]...), ms
}

// AppendReplacement appends rep with its escapes expanded for the match m
// of src: \1 to \9 the groups (empty where a group took no part or does
// not exist), \& the whole match, \\ a backslash; another backslash is
// itself.
func AppendReplacement(dst, src, rep []byte, m []int) []byte {
	for i := 0; i < len(rep); i++ {
		c := rep[i]
		if c != '\\' || i+1 == len(rep) {
			dst = append(dst, c)
			continue
		}
		n := rep[i+1]
		switch {
		case n >= '1' && n <= '9':
			k := int(n - '0')
			if 2*k+1 < len(m) && m[2*k] >= 0 {
				dst = append(dst, src[m[2*k]:m[2*k+1]]...)
			}
			i++
		case n == '&':
			dst = append(dst, src[m[0]:m[1]]...)
			i++
		case n == '\\':
			dst = append(dst, '\\')
			i++
		default:
			dst = append(dst, '\\')
		}
	}
	return dst
}
