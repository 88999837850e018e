package gpu

import (
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/eval"
)

// Patterns for the automaton tests: alternation, classes, ranges,
// anchors, "." over multibyte characters, case folding beyond ASCII,
// repetition counts, word boundaries, (?m), empty patterns.
var regexPatterns = []string{
	``, `a`, `abc`, `a|b|cd`, `^$`, `^`, `$`, `^a`, `a$`, `^abc$`, `^(a|ab)c$`, `x*`, `a+b+`, `(ab)+$`,
	`a.c`, `^.$`, `^..$`, `^...$`, `.`, `^.*$`, `[a-c]+`, `[^a-c]`, `^[^a]*$`, `[é-ü]`, `[^é]`, `^[^x]$`,
	`\d{3}`, `\d{2,4}$`, `^\w+$`, `\W`, `\s`, `\S+\s`, `[[:alpha:]]+`, `[[:^digit:]]`, `\pL`, `^\p{Greek}+$`,
	`\PL`, `\p{Han}`, `日本`, `本.の`, `🙂`, `^🙂`, `🙂$`, `.🙂`, `[🙂a]`, `\x{FFFD}`, `^\x{FFFD}$`, `[\x{80}-\x{10FFFF}]`,
	`(?i)straße`, `(?i)STRASSE`, `(?i)k`, `(?i)ǅ`, `(?i)σ`, `(?i)Σ+`, `(?i)é`, `(?i)[a-f]+`, `(?i)[^k]`, `(?i)ſ`,
	`(?i)ÄÖÜ`, `(?i)kelvin`, `\bfoo\b`, `\Bo`, `\b`, `\B`, `^\b`, `\b$`, `(?m)^b`, `(?m)a$`, `(?m)^$`, `(?m)^x$\n^y`,
	`a{3}`, `a{2,}`, `^a{0,2}$`, `(a|b){3,5}c`, `(?:ab){2}`, `a{1,3}?b`, `(a*)*b`, `(a|)+c`, `()`, `(|a)`, `a\nb`,
	`\.`, `\\`, `\$`, `a\*`, `[.]`, `[\]]`, `x?y?z?$`, `\Aabc`, `abc\z`, `(?U)a+`, `(?s:.)`, `[\d\s]+`, `(foo|foobar)$`,
	`hi|\bhi\b`, `ab*c|ad`, `^(?:a|b)*abb$`, `[^\n]+`, `.\n.`, `(?i)x\w*y`, `(?-s:.)`, `(?i)[[:upper:]]`, `\x00`,
}

// nasty strings: empty, multibyte, invalid UTF-8 (cut-off, overlong,
// surrogates, past U+10FFFF), newlines, near-matches
var regexStrings = []string{
	"", "a", "abc", "ab", "abcd", "xabcx", "aaa", "aaaa", "aabbb", "ababab", "ac", "abbc", "ad", "b", "cd",
	"é", "ée", "aéc", "日本語のテキスト", "本の", "🙂", "🙂🙂", "a🙂", "straße", "STRASSE", "Straße", "STRAßE",
	"K", "k", "\u212a", "ǅ", "ǆ", "Ǆ", "ς", "σ", "Σ", "ΣΑΣ", "ſ", "s", "S", "äöü", "ÄÖÜ", "KELVIN", "\u212aelvin",
	"foo", "a foo b", "foobar", "xfoo", "hi", "this", "a\nb", "\n", "\n\n", "x\ny", "b\nb", "a\n", "\nb",
	"123", "12", "12345", "a1b2c3", " ", "\t", "tab\there", "x y", "____", "αβγ", "Ωmega", "漢字",
	"\xff", "a\xffc", "\xc3", "a\xc3", "\xc3\x28", "\xe2\x82", "\xe2\x82\xac", "\xf0\x9f\x99", "\xf0\x9f\x99\x82x",
	"\xed\xa0\x80", "\xc0\xaf", "\xf4\x90\x80\x80", "\xef\xbf\xbd", "\x80", "\x80\x80\x80\x80\x80", "é\xff",
	"abcabcabc", "aaabbbccc", "xyz", "XYZ", "xYz", "x__y", "a.c", "a*", "\\", "$", "]", "abb", "babb", "aabb",
}

func TestRegexRuneDecode(t *testing.T) {
	check := func(s []byte) {
		r, w := dfaRune(s)
		gr, gw := utf8.DecodeRune(s)
		if r != gr || w != gw {
			t.Fatalf("% x: got %U/%d, want %U/%d", s, r, w, gr, gw)
		}
	}
	for a := 0; a < 256; a++ {
		check([]byte{byte(a)})
		for b := 0; b < 256; b++ {
			check([]byte{byte(a), byte(b)})
			check([]byte{byte(a), byte(b), 0x80, 0x80})
			check([]byte{byte(a), byte(b), 0xBF})
		}
	}
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 200000; i++ {
		s := make([]byte, 1+rng.Intn(4))
		for k := range s {
			s[k] = byte(0x70 + rng.Intn(0x90))
		}
		check(s)
	}
}

// checkRegex compares the automaton (through its blob and the kernel's
// loop) with Go's regexp on every string; it returns false when the
// pattern is refused.
func checkRegex(t *testing.T, pat, flags string, strs []string) bool {
	t.Helper()
	re, err := eval.CompileRegex(pat, flags)
	if err != nil {
		t.Fatalf("%q: %v", pat, err)
	}
	d, err := compileRegexDFA(pat, flags)
	if err != nil {
		if engine.Code(err) != engine.CodeFeatureNotSupported {
			t.Fatalf("%q: %v", pat, err)
		}
		return false
	}
	blob := d.blob()
	for _, s := range strs {
		if got, want := dfaMatchBlob(blob, []byte(s)), re.MatchString(s); got != want {
			t.Errorf("%q (flags %q) on %q: automaton %v, regexp %v", pat, flags, s, got, want)
		}
	}
	return true
}

func TestRegexDFAMatchesGo(t *testing.T) {
	for _, flags := range []string{"", "i"} {
		for _, pat := range regexPatterns {
			if !checkRegex(t, pat, flags, regexStrings) {
				t.Errorf("%q refused", pat)
			}
		}
	}
}

// TestRegexDFARandom compares random patterns from a small grammar over
// random strings of an alphabet with multibyte, folding and invalid
// characters.
func TestRegexDFARandom(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	atoms := []string{"a", "b", "k", "K", "é", "É", "ß", "σ", "🙂", ".", "\\n", "[a-c]", "[^b]", "[é-ü]", "\\d", "\\w", "\\s",
		"\\W", "\\pL", "[[:upper:]]", "^", "$", "\\b", "\\B", "\\x{FFFD}", "\\A", "\\z", "(?i:k)", "(?m:^)", "(?m:$)"}
	var gen func(depth int) string
	gen = func(depth int) string {
		if depth > 3 || rng.Intn(3) == 0 {
			return atoms[rng.Intn(len(atoms))]
		}
		switch rng.Intn(6) {
		case 0:
			return gen(depth+1) + "|" + gen(depth+1)
		case 1:
			return "(" + gen(depth+1) + ")" + []string{"*", "+", "?", "{2}", "{1,3}", "{0,2}?"}[rng.Intn(6)]
		case 2:
			return "(?i:" + gen(depth+1) + ")"
		default:
			return gen(depth+1) + gen(depth+1)
		}
	}
	alpha := []string{"a", "b", "c", "k", "K", "\u212a", "é", "É", "ß", "ss", "σ", "ς", "Σ", "🙂", "\n", " ", "1", "_",
		"\xff", "\xc3", "\xef\xbf\xbd", "\xe2\x82"}
	strs := []string{""}
	for i := 0; i < 300; i++ {
		var b strings.Builder
		for n := rng.Intn(8); n > 0; n-- {
			b.WriteString(alpha[rng.Intn(len(alpha))])
		}
		strs = append(strs, b.String())
	}
	refused := 0
	const n = 3000
	for i := 0; i < n; i++ {
		pat := gen(0)
		flags := ""
		if rng.Intn(3) == 0 {
			flags = "i"
		}
		if !checkRegex(t, pat, flags, strs) {
			refused++
		}
		if t.Failed() {
			return
		}
	}
	t.Logf("%d random patterns, %d refused", n, refused)
	if refused > n/100 {
		t.Errorf("%d of %d refused", refused, n)
	}
}

// TestRegexDFALimits: automata past the state cap are refused with 0A000.
func TestRegexDFALimits(t *testing.T) {
	_, err := compileRegexDFA(`(a|b)*a(a|b){15}`, "")
	if engine.Code(err) != engine.CodeFeatureNotSupported {
		t.Fatalf("got %v, want 0A000", err)
	}
	_, err = compileRegexDFA(`(`, "")
	if engine.Code(err) != engine.CodeInvalidRegularExpr {
		t.Fatalf("got %v, want 2201B", err)
	}
	if !checkRegex(t, `(a|b)*a(a|b){8}`, "", []string{"", "a", "aaaaaaaaaa", "abbbbbbbbb", "bbbbbbbbbb", "babababababab"}) {
		t.Fatal("refused")
	}
}

// trimTwin is OP_TRIMU's loop (cuda/query.cu) in Go.
func trimTwin(s, set []byte, mode int) []byte {
	inSet := func(r rune) bool {
		for k := 0; k < len(set); {
			c, w := dfaRune(set[k:])
			if c == r {
				return true
			}
			k += w
		}
		return false
	}
	lastRune := func(s []byte) (rune, int) { // reLastRune
		n := len(s)
		if s[n-1] < 0x80 {
			return rune(s[n-1]), 1
		}
		lim, st := max(0, n-4), n-2
		for ; st >= lim; st-- {
			if s[st]&0xC0 != 0x80 {
				break
			}
		}
		st = max(st, 0)
		r, w := dfaRune(s[st:])
		if st+w != n {
			return utf8.RuneError, 1
		}
		return r, w
	}
	st, n := 0, len(s)
	if mode&1 != 0 {
		for st < n {
			r, w := dfaRune(s[st:n])
			if !inSet(r) {
				break
			}
			st += w
		}
	}
	if mode&2 != 0 {
		for n > st {
			r, w := lastRune(s[st:n])
			if !inSet(r) {
				break
			}
			n -= w
		}
	}
	return s[st:n]
}

// TestTrimTwin compares OP_TRIMU's loop with strings.TrimLeft/TrimRight
// (the CPU's trim) over nasty strings and sets, invalid UTF-8 included.
func TestTrimTwin(t *testing.T) {
	sets := []string{"", " ", "x", "ab", "é", "é ", "日本", "🙂", "\xff", "\xc3", "\xef\xbf\xbd", "a\xff", "\x80", "\xbf", "ß", "\xe2\x82"}
	strs := append([]string{}, regexStrings...)
	rng := rand.New(rand.NewSource(5))
	alpha := []string{"a", "b", "x", " ", "é", "日", "本", "🙂", "\xff", "\xc3", "\x80", "\xbf", "\xef\xbf\xbd", "\xe2\x82", "\xac", "ß"}
	for i := 0; i < 3000; i++ {
		var b strings.Builder
		for n := rng.Intn(7); n > 0; n-- {
			b.WriteString(alpha[rng.Intn(len(alpha))])
		}
		strs = append(strs, b.String())
		if i%10 == 0 {
			sets = append(sets, b.String())
		}
	}
	for _, set := range sets {
		for _, s := range strs {
			for mode := 1; mode <= 3; mode++ {
				want := s
				if mode&1 != 0 {
					want = strings.TrimLeft(want, set)
				}
				if mode&2 != 0 {
					want = strings.TrimRight(want, set)
				}
				if got := string(trimTwin([]byte(s), []byte(set), mode)); got != want {
					t.Fatalf("trim %q by %q (mode %d): got %q, want %q", s, set, mode, got, want)
				}
			}
		}
	}
}
