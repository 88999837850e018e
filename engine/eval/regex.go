package eval

import (
	"errors"
	"regexp"
	"regexp/syntax"

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
