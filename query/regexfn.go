package query

import (
	"unicode/utf8"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/eval"
)

// The regular-expression functions that return what a pattern matched:
// regexp_replace, regexp_match and substring(x FROM pattern), with
// PostgreSQL's arguments, flags and replacement escapes over Go's RE2
// (eval.PGRegex says how the match is chosen). Each binds to a
// HostFunc over whole vectors: the CPU backend runs it per row, the GPU
// backend as a host step over the distinct argument tuples
// (engine/gpu/hoststep.go). Constant arguments fold at bind time.

// regexCache compiles each (pattern, flags) once in a run of equal ones.
type regexCache struct {
	pat, flags string
	set        bool
	re         *eval.PGRegex
	opts       eval.RegexOpts
}

func (c *regexCache) get(pat, flags []byte) (*eval.PGRegex, eval.RegexOpts, error) {
	if c.set && c.pat == string(pat) && c.flags == string(flags) {
		return c.re, c.opts, nil
	}
	opts, err := eval.ParseRegexOpts(string(flags))
	if err != nil {
		return nil, opts, err
	}
	re, err := eval.CompilePGRegex(string(pat), opts.Fold)
	if err != nil {
		return nil, opts, err
	}
	*c = regexCache{pat: string(pat), flags: string(flags), set: true, re: re, opts: opts}
	return re, opts, nil
}

// regexFunc binds name when it is one of these functions; ok is false
// otherwise. substring comes here only with a text pattern.
func (b *binder) regexFunc(name string, args []engine.Expr) (engine.Expr, bool, error) {
	var ret engine.Type = engine.Text
	var fn func(vs []*engine.Vec, n int) (*engine.Vec, error)
	// which arguments are text (the others int)
	var text []bool
	switch name {
	case "regexp_replace":
		switch {
		case len(args) == 3:
			text = []bool{true, true, true}
		case len(args) == 4 && (isUnknown(args[3]) || args[3].Type().IsString()):
			text = []bool{true, true, true, true}
		case len(args) >= 4 && len(args) <= 6:
			text = []bool{true, true, true, false, false, true}[:len(args)]
		default:
			return nil, true, b.noRegexFunc(name, args)
		}
		fn = regexpReplace(len(args) == 4 && text[3], len(args) >= 4 && !text[3])
	case "regexp_match":
		if len(args) != 2 && len(args) != 3 {
			return nil, true, b.noRegexFunc(name, args)
		}
		text = []bool{true, true, true}[:len(args)]
		fn = regexpMatch
	case "substring":
		text = []bool{true, true}
		fn = regexpSubstring
	case "regexp_split_to_array":
		if len(args) != 2 && len(args) != 3 {
			return nil, true, b.noRegexFunc(name, args)
		}
		text = []bool{true, true, true}[:len(args)]
		fn = regexpSplitArray // srf.go
	default:
		return nil, false, nil
	}
	allConst := true
	for i, a := range args {
		var err error
		if text[i] {
			a, err = b.strArg(a, name)
		} else {
			a, err = b.asInt(a, name)
		}
		if err != nil {
			return nil, true, err
		}
		args[i] = a
		if _, ok := a.(*engine.Const); !ok {
			allConst = false
		}
	}
	if allConst {
		vs := make([]*engine.Vec, len(args))
		for i, a := range args {
			c := a.(*engine.Const)
			vs[i] = engine.NewVec(c.T, 1)
			setSlot(vs[i], 0, c)
		}
		v, err := fn(vs, 1)
		if err != nil {
			return nil, true, err
		}
		return constOf(v, 0), true, nil
	}
	// each call compiles its own patterns (regexCache): calls may run at once
	return &engine.HostFunc{Name: name, Args: args, T: ret, Fn: fn, Parallel: true}, true, nil
}

func (b *binder) noRegexFunc(name string, args []engine.Expr) error {
	ts := ""
	for i, a := range args {
		if i > 0 {
			ts += ", "
		}
		ts += a.Type().String()
	}
	return engine.Errorf(engine.CodeUndefinedFunction, "function %s(%s) does not exist", name, ts).
		WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
}

// anyNull reports whether row i of any of vs is NULL.
func anyNull(vs []*engine.Vec, i int) bool {
	for _, v := range vs {
		if v.IsNull(i) {
			return true
		}
	}
	return false
}

// regexpReplace is regexp_replace(src, pat, rep [, flags]) (flags) or
// regexp_replace(src, pat, rep, start [, n [, flags]]) (extended).
func regexpReplace(flags, extended bool) func(vs []*engine.Vec, n int) (*engine.Vec, error) {
	return func(vs []*engine.Vec, n int) (*engine.Vec, error) {
		out := engine.NewVec(engine.Text, n)
		var cache regexCache
		var buf []byte // the results, back to back
		var ms [][]int
		for i := 0; i < n; i++ {
			if anyNull(vs, i) {
				out.SetNull(i)
				continue
			}
			src, pat, rep := vs[0].S[i], vs[1].S[i], vs[2].S[i]
			var fl []byte
			start, nth := 1, -1 // nth: replace the nth match only; 0 every one
			switch {
			case flags:
				fl = vs[3].S[i]
			case extended:
				start = int(vs[3].I[i])
				if start <= 0 {
					return nil, engine.Errorf(engine.CodeInvalidParameterValue, "invalid value for parameter \"start\": %d", start)
				}
				if len(vs) > 4 {
					if nth = int(vs[4].I[i]); nth < 0 {
						return nil, engine.Errorf(engine.CodeInvalidParameterValue, "invalid value for parameter \"n\": %d", nth)
					}
				}
				if len(vs) > 5 {
					fl = vs[5].S[i]
				}
			}
			re, opts, err := cache.get(pat, fl)
			if err != nil {
				return nil, err
			}
			if nth < 0 {
				nth = 1
				if opts.Global {
					nth = 0
				}
			}
			from := charOffset(src, start-1)
			at := len(buf)
			buf, ms = re.Replace(buf, src, rep, from, nth, ms)
			out.S[i] = buf[at:len(buf):len(buf)]
		}
		return out, nil
	}
}

// charOffset is the byte offset of character k of s (len(s) past its end).
func charOffset(s []byte, k int) int {
	off := 0
	for ; k > 0 && off < len(s); k-- {
		_, w := utf8.DecodeRune(s[off:])
		off += w
	}
	return off
}

// regexpMatch is regexp_match(src, pat [, flags]): the first match's
// groups (or the whole match when there are none) as a text[] in its text
// form, NULL without a match.
func regexpMatch(vs []*engine.Vec, n int) (*engine.Vec, error) {
	out := engine.NewVec(engine.Text, n)
	var cache regexCache
	var buf []byte
	var ms [][]int
	for i := 0; i < n; i++ {
		if anyNull(vs, i) {
			out.SetNull(i)
			continue
		}
		var fl []byte
		if len(vs) > 2 {
			fl = vs[2].S[i]
		}
		re, opts, err := cache.get(vs[1].S[i], fl)
		if err != nil {
			return nil, err
		}
		if opts.Global {
			return nil, engine.Errorf(engine.CodeInvalidParameterValue, "regexp_match() does not support the \"global\" option").
				WithHint("Use the regexp_matches function instead.")
		}
		src := vs[0].S[i]
		ms = re.Find(src, 0, 1, ms[:0])
		if len(ms) == 0 {
			out.SetNull(i)
			continue
		}
		m := ms[0]
		at := len(buf)
		buf = append(buf, '{')
		if re.NumGroups() == 0 {
			buf = appendArrayElem(buf, src[m[0]:m[1]])
		}
		for k := 1; k <= re.NumGroups(); k++ {
			if k > 1 {
				buf = append(buf, ',')
			}
			if m[2*k] < 0 {
				buf = append(buf, "NULL"...)
			} else {
				buf = appendArrayElem(buf, src[m[2*k]:m[2*k+1]])
			}
		}
		buf = append(buf, '}')
		out.S[i] = buf[at:len(buf):len(buf)]
	}
	return out, nil
}

// regexpSubstring is substring(src FROM pat): the part of the first match
// that the first group matched (the whole match when there is no group),
// NULL without a match or when that group took no part.
func regexpSubstring(vs []*engine.Vec, n int) (*engine.Vec, error) {
	out := engine.NewVec(engine.Text, n)
	var cache regexCache
	var ms [][]int
	for i := 0; i < n; i++ {
		if anyNull(vs, i) {
			out.SetNull(i)
			continue
		}
		re, _, err := cache.get(vs[1].S[i], nil)
		if err != nil {
			return nil, err
		}
		src := vs[0].S[i]
		ms = re.Find(src, 0, 1, ms[:0])
		if len(ms) == 0 {
			out.SetNull(i)
			continue
		}
		m := ms[0]
		if re.NumGroups() > 0 {
			m = m[2:]
		}
		if m[0] < 0 {
			out.SetNull(i)
			continue
		}
		out.S[i] = src[m[0]:m[1]] // a part of the input
	}
	return out, nil
}
