package eval

import (
	"regexp/syntax"

	"github.com/gpusql/gpusql/engine"
	"testing"
)

// replaceAll is regexp_replace(src, pat, rep, flags) over Find and
// AppendReplacement, as query/regexfn.go runs them.
func replaceAll(t *testing.T, src, pat, rep, flags string, start int) string {
	t.Helper()
	o, err := ParseRegexOpts(flags)
	if err != nil {
		t.Fatal(err)
	}
	re, err := CompilePGRegex(pat, o.Fold)
	if err != nil {
		t.Fatal(err)
	}
	limit := 1
	if o.Global {
		limit = -1
	}
	from := 0
	for k := 1; k < start; k++ {
		for from++; from < len(src) && src[from]&0xC0 == 0x80; from++ {
		}
	}
	var out []byte
	prev := 0
	for _, m := range re.Find([]byte(src), from, limit, nil) {
		out = append(out, src[prev:m[0]]...)
		out = AppendReplacement(out, []byte(src), []byte(rep), m)
		prev = m[1]
	}
	return string(append(out, src[prev:]...))
}

// TestPGRegexReplace: PostgreSQL 15's answers to regexp_replace.
func TestPGRegexReplace(t *testing.T) {
	cases := []struct {
		src, pat, rep, flags string
		start                int
		want                 string
	}{
		{"abc", "b*", "-", "g", 1, "-a--c-"}, // an empty match after a non-empty one
		{"abc", "x*", "-", "g", 1, "-a-b-c-"},
		{"xyz", "y?", ".", "g", 1, ".x..z."},
		{"aaa", "a|aa", "X", "", 1, "Xa"}, // the longest of the leftmost
		{"aaa", "a*?", "-", "", 1, "-aaa"},
		{"abcd", `(b)(c)`, `[\2\1\&\\\0\x]`, "", 1, `a[cbbc\\0\x]d`},
		{"abab", `(a)(b)?`, `[\2\1]`, "g", 1, "[ba][ba]"},
		{"abcabc", "^a", "X", "g", 1, "Xbcabc"}, // ^ only at the start of the text
		{"aXbX", "x", "-", "gi", 1, "a-b-"},
		{"abcabc", "b", "X", "", 2, "aXcabc"},
		{"héé", "é", "e", "", 3, "hée"},
		{"a\nb", "a.b", "X", "", 1, "X"}, // . matches a newline
		{"tail\\", "l", `\`, "", 1, `tai\\`},
	}
	for _, c := range cases {
		if got := replaceAll(t, c.src, c.pat, c.rep, c.flags, c.start); got != c.want {
			t.Errorf("regexp_replace(%q, %q, %q, %q) from %d = %q, want %q", c.src, c.pat, c.rep, c.flags, c.start, got, c.want)
		}
	}
}

func TestRegexGreediness(t *testing.T) {
	for pat, want := range map[string]int{
		"abc": 0, "a*": 1, "a*?": -1, "a|b*?": 1, "x(a+?)b*": -1, "xa{3}b*?": -1, "xa{3}?b*": 1,
		"(?:a|b)c": 0, "a|ab": 1, "x(?:a|ab)": 1, "x(?:a|ab)*?": -1, "x(?:a*?|b)": 1, "a{2,3}?": -1, "[ab]+": 1,
	} {
		tree, err := syntax.Parse(pat, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		if got := greediness(tree); got != want {
			t.Errorf("greediness(%q) = %d, want %d", pat, got, want)
		}
	}
}

func TestParseRegexOpts(t *testing.T) {
	if o, err := ParseRegexOpts("gic"); err != nil || !o.Global || o.Fold {
		t.Errorf("gic: %+v %v", o, err)
	}
	if o, err := ParseRegexOpts("ci"); err != nil || !o.Fold {
		t.Errorf("ci: %+v %v", o, err)
	}
	for flags, code := range map[string]string{"z": "22023", "gn": "0A000", "x": "0A000"} {
		if _, err := ParseRegexOpts(flags); err == nil || engine.Code(err) != code {
			t.Errorf("%q: %v, want %s", flags, err, code)
		}
	}
}
