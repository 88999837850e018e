package gpu

import (
	"bytes"
	"math/rand"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/eval"
)

// checkVMReplace compares the kernel's twin with the CPU backend's
// regexp_replace (eval.PGRegex.Replace, which query's regexp_replace
// runs) for one pattern, replacement and flags over strs. It reports
// false when the compiler refuses the pattern.
func checkVMReplace(t *testing.T, pat, rep, flags string, start, nth int, strs []string) bool {
	t.Helper()
	opts, err := eval.ParseRegexOpts(flags)
	if err != nil {
		t.Fatalf("flags %q: %v", flags, err)
	}
	re, err := eval.CompilePGRegex(pat, opts.Fold)
	if err != nil {
		return false
	}
	if nth < 0 {
		nth = 1
		if opts.Global {
			nth = 0
		}
	}
	ws := 0
	for _, s := range strs {
		ws = max(ws, len(s))
	}
	vm, err := compileRegexVM(pat, rep, opts.Fold, start-1, nth, ws)
	if err != nil {
		if engine.Code(err) != engine.CodeFeatureNotSupported {
			t.Errorf("%q: %v", pat, err)
		}
		return false
	}
	for _, s := range strs {
		from := 0
		for k := start - 1; k > 0 && from < len(s); k-- {
			from += dfaRuneW([]byte(s[from:]))
		}
		want, _ := re.Replace(nil, []byte(s), []byte(rep), from, nth, nil)
		got := vmReplace(vm.blob, []byte(s))
		if !bytes.Equal(got, want) {
			t.Errorf("regexp_replace(%q, %q, %q, start %d, n %d, %q)\n got  %q\n want %q", s, pat, rep, start, nth, flags, got, want)
			return true
		}
		if len(got) > vm.outW {
			t.Errorf("regexp_replace(%q, %q, %q): %d bytes past the bound %d", s, pat, rep, len(got), vm.outW)
		}
	}
	return true
}

// vmCase is one regexp_replace: pattern, replacement, flags, start and
// n (-1: the flags decide).
type vmCase struct {
	pat, rep, flags string
	start, nth      int
}

// clickBenchVMCases are ClickBench's q28 expression and the shapes
// around it: groups, empty matches, assertions that look back, every
// escape of the replacement.
func clickBenchVMCases() ([]vmCase, []string) {
	strs := append([]string{
		"http://example.com/a/b", "https://www.example.com/", "https://www.example.com", "http://x/", "http:///",
		"https://www.www.a.b/c?d=e", "ftp://a.b/", "http://日本.jp/パス", "http://a.b/\n/c", "HTTP://A.B/C",
		"https://www.ex\xffample.com/x", "http://", "http://a", "", "/just/a/path",
	}, regexStrings...)
	var cs []vmCase
	for _, c := range []struct{ pat, rep, flags string }{
		{`^https?://(?:www\.)?([^/]+)/.*$`, `\1`, ""},
		{`^https?://(?:www\.)?([^/]+)/.*$`, `\1`, "i"},
		{`^https?://(?:www\.)?([^/]+)/.*$`, `<\&>[\1]\2\\`, "g"},
		{`(a)(b)?`, `\2\1\0\9`, "g"},
		{`a*`, `-`, "g"},
		{`a*?`, `-`, "g"},
		{`\b`, `|`, "g"},
		{`^`, `>`, "g"},
		{`$`, `<`, "g"},
		{`(?m)^`, `>`, "g"},
		{`x*`, `\&\&`, "g"},
		{`(é|e)+`, `E`, "gi"},
		{`(foo|foobar)`, `[\1]`, ""},
		{`(a|ab)(c|bcd)(d*)`, `\1,\2,\3`, "g"},
		{`[^/]+$`, ``, ""},
		{`\s+`, ` `, "g"},
	} {
		for _, sn := range [][2]int{{1, -1}, {3, -1}, {2, 2}, {1, 0}} {
			cs = append(cs, vmCase{c.pat, c.rep, c.flags, sn[0], sn[1]})
		}
	}
	return cs, strs
}

// randomVMCases are random patterns with groups, greedy and lazy, and
// random strings with multibyte, folding and invalid characters.
func randomVMCases(seed int64, n int) ([]vmCase, []string) {
	rng := rand.New(rand.NewSource(seed))
	atoms := []string{"a", "b", "k", "K", "é", "ß", "σ", "🙂", ".", "\\n", "[a-c]", "[^b]", "[é-ü]", "\\d", "\\w", "\\s",
		"\\W", "\\pL", "^", "$", "\\b", "\\B", "\\x{FFFD}", "\\A", "\\z", "(?i:k)", "(?m:^)", "(?m:$)", ""}
	var gen func(depth int) string
	gen = func(depth int) string {
		if depth > 3 || rng.Intn(3) == 0 {
			return atoms[rng.Intn(len(atoms))]
		}
		switch rng.Intn(7) {
		case 0:
			return gen(depth+1) + "|" + gen(depth+1)
		case 1:
			return "(" + gen(depth+1) + ")" + []string{"*", "+", "?", "{2}", "{1,3}", "{0,2}?", "*?", "+?", ""}[rng.Intn(9)]
		case 2:
			return "(?:" + gen(depth+1) + ")" + []string{"*", "+", "?", "*?"}[rng.Intn(4)]
		case 3:
			return "(?i:" + gen(depth+1) + ")"
		default:
			return gen(depth+1) + gen(depth+1)
		}
	}
	alpha := []string{"a", "b", "c", "k", "K", "\u212a", "é", "É", "ß", "σ", "ς", "🙂", "\n", " ", "1", "_",
		"\xff", "\xc3", "\xef\xbf\xbd", "\xe2\x82", "ab", "aab"}
	strs := []string{""}
	for i := 0; i < 120; i++ {
		var b strings.Builder
		for n := rng.Intn(12); n > 0; n-- {
			b.WriteString(alpha[rng.Intn(len(alpha))])
		}
		strs = append(strs, b.String())
	}
	reps := []string{"", "X", `\1`, `\&`, `[\2|\1]`, `\\`, `\`, `a\9b`, `\0`, "日"}
	var cs []vmCase
	for i := 0; i < n; i++ {
		c := vmCase{pat: gen(0), rep: reps[rng.Intn(len(reps))], flags: []string{"", "g", "i", "gi", "c"}[rng.Intn(5)], start: 1, nth: -1}
		if rng.Intn(4) == 0 {
			c.start, c.nth = 1+rng.Intn(4), rng.Intn(3)
		}
		cs = append(cs, c)
	}
	return cs, strs
}

// TestVMReplaceClickBench compares the twin with the CPU on
// clickBenchVMCases.
func TestVMReplaceClickBench(t *testing.T) {
	cs, strs := clickBenchVMCases()
	for _, c := range cs {
		if !checkVMReplace(t, c.pat, c.rep, c.flags, c.start, c.nth, strs) {
			t.Errorf("%q refused", c.pat)
		}
	}
}

// TestVMReplaceRandom compares the twin with the CPU on randomVMCases.
func TestVMReplaceRandom(t *testing.T) {
	cs, strs := randomVMCases(21, 2500)
	refused := 0
	for _, c := range cs {
		if !checkVMReplace(t, c.pat, c.rep, c.flags, c.start, c.nth, strs) {
			refused++
		}
		if t.Failed() {
			return
		}
	}
	t.Logf("%d random patterns, %d refused", len(cs), refused)
	if refused > len(cs)/100 {
		t.Errorf("%d of %d refused", refused, len(cs))
	}
}

// TestVMReplaceLimits: too many instructions, or a pattern that does
// not compile, are refused with 0A000 (the host step runs them, and
// raises the CPU's error).
func TestVMReplaceLimits(t *testing.T) {
	for _, c := range []struct{ pat, rep string }{
		{strings.Repeat(`(?:ab|cd|ef)`, 400), `x`},
		{`a(`, `x`},
	} {
		_, err := compileRegexVM(c.pat, c.rep, false, 0, 1, 100)
		if engine.Code(err) != engine.CodeFeatureNotSupported {
			t.Errorf("%.40q: got %v, want 0A000", c.pat, err)
		}
	}
	vm, err := compileRegexVM(`(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)`, `\9\1`, false, 0, 1, 100)
	if err != nil {
		t.Fatalf("nine groups kept: %v", err)
	}
	if got := vmReplace(vm.blob, []byte("xabcdefghijy")); string(got) != "xiay" {
		t.Errorf("got %q, want %q", got, "xiay")
	}
}

// TestRegexpReplaceCompiles binds regexp_replace over ar's text columns
// and checks which forms the register programs take (the device test
// runs them): constant patterns, replacements, flags, start and n; a
// pattern from a column, a bad pattern, a bad flag and a start the CPU
// rejects stay host steps, which raise the CPU's errors.
func TestRegexpReplaceCompiles(t *testing.T) {
	rec, exec, cols := arraySession(t)
	cases := []struct {
		sql string
		ok  bool
	}{
		{`SELECT regexp_replace(s, '^https?://(?:www\.)?([^/]+)/.*$', '\1') FROM ar`, true},
		{`SELECT regexp_replace(s, 'a', 'b', 'gi'), regexp_replace(x, 'a+', '\&', 2), regexp_replace(s, 'a', 'b', 1, 3, 'i') FROM ar`, true},
		{`SELECT upper(regexp_replace(s || x, '(a)(b)', '\2\1', 'g')) FROM ar`, true},
		{`SELECT regexp_replace(s, x, 'b') FROM ar`, false},
		{`SELECT regexp_replace(s, 'a', x) FROM ar`, false},
		{`SELECT regexp_replace(s, 'a', 'b', 'z') FROM ar`, false},
		{`SELECT regexp_replace(s, 'a', 'b', 0) FROM ar`, false},
		{`SELECT regexp_replace(s, 'a', 'b', 1, -1) FROM ar`, false},
		{`SELECT regexp_replace(s, 'a', 'b', 1, -2, 'g') FROM ar`, false},
	}
	for _, tc := range cases {
		rec.plan = nil
		err := exec(tc.sql)
		if rec.plan == nil {
			if tc.ok {
				t.Fatalf("%s: no plan ran (%v)", tc.sql, err)
			}
			continue // refused at bind or run time, with the CPU's error
		}
		c := &compiler{p: newProgram(), cols: cols}
		_, err = c.compileOutputs(rec.plan.Project, 0)
		if tc.ok && err != nil || !tc.ok && engine.Code(err) != engine.CodeFeatureNotSupported {
			t.Errorf("%s: %v", tc.sql, err)
		}
	}
}
