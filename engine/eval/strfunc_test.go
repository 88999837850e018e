package eval

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

func like(s, pat string) *engine.Call {
	return call(engine.OpLike, engine.Bool, ctext(s), ctext(pat))
}
func likeEsc(s, pat, esc string) *engine.Call {
	return call(engine.OpLike, engine.Bool, ctext(s), ctext(pat), ctext(esc))
}
func ilike(s, pat string) *engine.Call {
	return call(engine.OpILike, engine.Bool, ctext(s), ctext(pat))
}

func TestLike(t *testing.T) {
	runCases(t, []exprCase{
		{`'abc' like 'a%'`, like("abc", "a%"), "t"},
		{`'abc' like '%'`, like("abc", "%"), "t"},
		{`'' like '%'`, like("", "%"), "t"},
		{`'' like '_'`, like("", "_"), "f"},
		{`'' like ''`, like("", ""), "t"},
		{`'abc' like 'a_c'`, like("abc", "a_c"), "t"},
		{`'abc' like 'a_'`, like("abc", "a_"), "f"},
		{`'a%c' like 'a\%c'`, like("a%c", `a\%c`), "t"},
		{`'abc' like 'a\%c'`, like("abc", `a\%c`), "f"},
		{`'a_c' like 'a\_c'`, like("a_c", `a\_c`), "t"},
		{`'abc' like 'a\_c'`, like("abc", `a\_c`), "f"},
		{`'a\c' like 'a\\c'`, like(`a\c`, `a\\c`), "t"},
		{`'héllo' like 'h_llo'`, like("héllo", "h_llo"), "t"},
		{`'héllo' like 'h__llo'`, like("héllo", "h__llo"), "f"},
		{`'日本語' like '__語'`, like("日本語", "__語"), "t"},
		{`'日本語' like '%語'`, like("日本語", "%語"), "t"},
		{`'日本語' like '%本%'`, like("日本語", "%本%"), "t"},
		{`'abc' like 'ABC'`, like("abc", "ABC"), "f"},
		{`'abc' like 'ab'`, like("abc", "ab"), "f"},
		{`'abc' like 'abc%'`, like("abc", "abc%"), "t"},
		{`'abc' like 'abc%%'`, like("abc", "abc%%"), "t"},
		{`'ab' like '%b%'`, like("ab", "%b%"), "t"},
		{`'abc' like 'a%c%'`, like("abc", "a%c%"), "t"},
		{`'aXbXc' like '%X%X%'`, like("aXbXc", "%X%X%"), "t"},
		{`'mississippi' like '%iss%ppi'`, like("mississippi", "%iss%ppi"), "t"},
		{`'a#b' like 'a##b' escape '#'`, likeEsc("a#b", "a##b", "#"), "t"},
		{`'a%b' like 'a#%b' escape '#'`, likeEsc("a%b", "a#%b", "#"), "t"},
		{`'axb' like 'a#%b' escape '#'`, likeEsc("axb", "a#%b", "#"), "f"},
		{`'a\b' like 'a\b' escape ''`, likeEsc(`a\b`, `a\b`, ""), "t"},
		{`'a_b' like 'a%' escape ''`, likeEsc("a_b", "a%", ""), "t"},
		{`'a' like 'a' escape 'ab'`, likeEsc("a", "a", "ab"), "ERROR 22025: invalid escape string DETAIL: Escape string must be empty or one character."},
		{`'abc' ilike 'ABC'`, ilike("abc", "ABC"), "t"},
		{`'ÄBC' ilike 'äbc'`, ilike("ÄBC", "äbc"), "f"},
		{`'abc' ilike 'a%C'`, ilike("abc", "a%C"), "t"},
		{`'ABC' ilike '_b_'`, ilike("ABC", "_b_"), "t"},
		{`NULL like 'a'`, call(engine.OpLike, engine.Bool, cnull(engine.Text), ctext("a")), "NULL"},
		{`'a' like NULL`, call(engine.OpLike, engine.Bool, ctext("a"), cnull(engine.Text)), "NULL"},
	})
}

// TestLikeTrailingEscape: PostgreSQL raises the error only when matching
// reaches the trailing escape while text remains; a pattern that fails or
// runs out of text earlier just does not match.
func TestLikeTrailingEscape(t *testing.T) {
	runCases(t, []exprCase{
		{`'ab' like 'a\'`, like("ab", `a\`), "ERROR 22025: LIKE pattern must not end with escape character"},
		{`'ab' like 'a#' escape '#'`, likeEsc("ab", "a#", "#"), "ERROR 22025: LIKE pattern must not end with escape character"},
		{`'abc' like '%\'`, like("abc", `%\`), "ERROR 22025: LIKE pattern must not end with escape character"},
		{`'a' like '\'`, like("a", `\`), "ERROR 22025: LIKE pattern must not end with escape character"},
		{`'xy' like '_\'`, like("xy", `_\`), "ERROR 22025: LIKE pattern must not end with escape character"},
		{`'a' like 'a\'`, like("a", `a\`), "f"},
		{`'b' like 'a\'`, like("b", `a\`), "f"},
		{`'' like '\'`, like("", `\`), "f"},
		{`'x' like '_\'`, like("x", `_\`), "f"},
		{`'a' like 'a%\'`, like("a", `a%\`), "f"},
	})
}

func TestLikeMultibyteEscape(t *testing.T) {
	runCases(t, []exprCase{
		{`'a_' like 'aé_' escape 'é'`, likeEsc("a_", "aé_", "é"), "t"},
		{`'ax' like 'aé_' escape 'é'`, likeEsc("ax", "aé_", "é"), "f"},
		{`'aé' like 'a_' escape 'é'`, likeEsc("aé", "a_", "é"), "t"},
	})
}

func TestStringFunctions(t *testing.T) {
	tx, i4 := engine.Text, engine.Int32
	sub3 := func(s string, from, n int64) *engine.Call {
		return call(engine.OpSubstr, tx, ctext(s), ci4(from), ci4(n))
	}
	sub2 := func(s string, from int64) *engine.Call {
		return call(engine.OpSubstr, tx, ctext(s), ci4(from))
	}
	runCases(t, []exprCase{
		{"substring('hello', 0, 3)", sub3("hello", 0, 3), "he"},
		{"substring('hello', -1, 3)", sub3("hello", -1, 3), "h"},
		{"substring('hello', -5, 3)", sub3("hello", -5, 3), ""},
		{"substring('hello', 2, 0)", sub3("hello", 2, 0), ""},
		{"substring('hello', 2, -1)", sub3("hello", 2, -1), "ERROR 22011: negative substring length not allowed"},
		{"substring('hello', 2)", sub2("hello", 2), "ello"},
		{"substring('hello', 0)", sub2("hello", 0), "hello"},
		{"substring('hello', -3)", sub2("hello", -3), "hello"},
		{"substring('hello', 5, 10)", sub3("hello", 5, 10), "o"},
		{"substring('hello', 6)", sub2("hello", 6), ""},
		{"substring('hello', 10, 2)", sub3("hello", 10, 2), ""},
		{"substring('héllo', 2, 2)", sub3("héllo", 2, 2), "él"},
		{"substring('日本語テキスト', 3, 2)", sub3("日本語テキスト", 3, 2), "語テ"},
		{"substring('hello', 1, 2147483647)", sub3("hello", 1, 2147483647), "hello"},
		{"substring('hello', 2147483647, 2147483647)", sub3("hello", 2147483647, 2147483647), ""},
		{"substring(NULL, 1, 2)", call(engine.OpSubstr, tx, cnull(tx), ci4(1), ci4(2)), "NULL"},
		{"length('héllo')", call(engine.OpLength, i4, ctext("héllo")), "5"},
		{"length('日本語')", call(engine.OpLength, i4, ctext("日本語")), "3"},
		{"length('')", call(engine.OpLength, i4, ctext("")), "0"},
		{"upper('héllo wörld')", call(engine.OpUpper, tx, ctext("héllo wörld")), "HéLLO WöRLD"},
		{"lower('HÉLLO ÀB')", call(engine.OpLower, tx, ctext("HÉLLO ÀB")), "hÉllo Àb"},
		{"upper('abc123xyz')", call(engine.OpUpper, tx, ctext("abc123xyz")), "ABC123XYZ"},
		{"lower('[@AZ`]')", call(engine.OpLower, tx, ctext("[@AZ`]")), "[@az`]"},
		{"'ab' || 'cd'", call(engine.OpConcat, tx, ctext("ab"), ctext("cd")), "abcd"},
		{"'ab' || NULL", call(engine.OpConcat, tx, ctext("ab"), cnull(tx)), "NULL"},
		{"'' || 'é'", call(engine.OpConcat, tx, ctext(""), ctext("é")), "é"},
	})
	// Over a column with NULLs and several rows: each row's result is its own.
	s := svec("héllo", nil, "ab", "")
	in := batch(s)
	S := col(0, tx)
	if got := evalRows(call(engine.OpUpper, tx, S), in); got != "HéLLO,NULL,AB," {
		t.Errorf("upper(column): got %q", got)
	}
	if got := evalRows(call(engine.OpSubstr, tx, S, ci4(2), ci4(3)), in); got != "éll,NULL,b," {
		t.Errorf("substring(column, 2, 3): got %q", got)
	}
	if got := evalRows(call(engine.OpConcat, tx, S, S), in); got != "héllohéllo,NULL,abab," {
		t.Errorf("column || column: got %q", got)
	}
	if got := evalRows(call(engine.OpLike, engine.Bool, S, ctext("%l%")), in); got != "t,NULL,f,f" {
		t.Errorf("column LIKE '%%l%%': got %q", got)
	}
	// A per-row pattern.
	pats := svec("h_llo", "x", nil, "%")
	if got := evalRows(call(engine.OpLike, engine.Bool, S, col(1, tx)), batch(s, pats)); got != "t,NULL,NULL,t" {
		t.Errorf("column LIKE column: got %q", got)
	}
}

// TestLikeShapesMatchMatcher checks the byte-comparison shortcuts of
// LIKE and ILIKE ('%lit%', 'lit%', '%lit', 'lit') against the general
// matcher, over random strings of ASCII letters of both cases, blanks
// and multibyte characters.
func TestLikeShapesMatchMatcher(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	alpha := []string{"a", "A", "b", "B", " ", "é", "É", "ab", "%", "_", "\\"}
	word := func(k int) string {
		var b strings.Builder
		for i := 0; i < k; i++ {
			b.WriteString(alpha[rng.Intn(len(alpha))])
		}
		return b.String()
	}
	var vals []string
	for i := 0; i < 300; i++ {
		vals = append(vals, word(rng.Intn(7)))
	}
	n := len(vals)
	sv := engine.NewVec(engine.Text, n)
	for i, v := range vals {
		sv.S[i] = []byte(v)
	}
	for k := 0; k < 400; k++ {
		lit := word(1 + rng.Intn(3))
		pat := []string{"%" + lit + "%", lit + "%", "%" + lit, lit, "%%" + lit + "%%"}[rng.Intn(5)]
		for _, op := range []engine.Op{engine.OpLike, engine.OpILike} {
			pv := engine.NewVec(engine.Text, n)
			for i := range pv.S {
				pv.S[i] = []byte(pat)
			}
			got, err := evalLike(&engine.Call{Op: op, T: engine.Bool}, []*engine.Vec{sv, pv}, n)
			m := likeMatcher{escape: []byte{'\\'}, fold: op == engine.OpILike, pat: []byte(pat)}
			want := make([]bool, n)
			var werr error
			for i, v := range vals {
				if want[i], werr = m.match([]byte(v)); werr != nil {
					break // raised for the whole vector
				}
			}
			if (err != nil) != (werr != nil) {
				t.Fatalf("%v %q: error %v, want %v", op, pat, err, werr)
			}
			for i, v := range vals {
				if err == nil && (got.I[i] == 1) != want[i] {
					t.Errorf("%q %v %q: got %v, want %v", v, op, pat, got.I[i] == 1, want[i])
				}
			}
		}
	}
}
