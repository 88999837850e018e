package gpu_test

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gpusql/gpusql/engine/gpu"
)

// regexQueries are the device regex and trim/replace queries over rt:
// every pattern of the automaton tests with ~, ~*, !~ and !~*, in
// filters, and trim/replace with column arguments.
func regexQueries() []string {
	var qs []string
	var pats []string
	for _, p := range gpu.RegexPatterns {
		pats = append(pats, "'"+strings.ReplaceAll(p, "'", "''")+"'")
	}
	for i := 0; i < len(pats); i += 6 {
		var cols []string
		for k, p := range pats[i:min(i+6, len(pats))] {
			op := []string{"~", "~*", "!~", "!~*"}[k%4]
			cols = append(cols, "s "+op+" "+p, "c ~* "+p)
		}
		qs = append(qs, "SELECT id, "+strings.Join(cols, ", ")+" FROM rt ORDER BY id")
	}
	qs = append(qs,
		`SELECT count(*), sum(id) FROM rt WHERE s ~ '^[a-c]' OR s ~* 'straße$'`,
		`SELECT s ~ 'é|日本', count(*) FROM rt GROUP BY 1 ORDER BY 1`,
		`SELECT id, upper(s) ~ '^[A-Z]+$', (s || c) ~ 'a.b', CASE WHEN s ~ '\d' THEN 'digit' ELSE s END FROM rt WHERE s !~* 'k' ORDER BY id`,
		`SELECT id FROM rt WHERE s ~ c ORDER BY id`, // a pattern that is not a constant: refused
		`SELECT id, replace(s, c, t), replace(s, 'a', t), replace(s, c, 'XY'), replace(c, c, s), replace(s, '', t), replace(s, c, '')
		   FROM rt ORDER BY id`,
		`SELECT id, btrim(s, c), ltrim(s, c), rtrim(s, c), trim(s, 'é '), ltrim(s, '日🙂'), rtrim(t, s), btrim(s, t), btrim(s, NULL) FROM rt ORDER BY id`,
		`SELECT id, length(replace(s, c, t)), upper(btrim(s, c)) FROM rt WHERE btrim(s, c) <> '' ORDER BY id`,
	)
	return qs
}

// regexDDL creates rt over the file writeRegexCSV writes.
const regexDDL = `CREATE TABLE rt (id bigint, s text, c varchar(8), t text) FROM CSV 'rt.csv'`

func writeRegexCSV(t *testing.T, path string, n int) {
	rng := rand.New(rand.NewSource(11))
	var strs []string
	for _, s := range gpu.RegexStrings {
		if utf8.ValidString(s) && !strings.Contains(s, "\x00") {
			strs = append(strs, s)
		}
	}
	sets := []string{"a", "é", "ab", "日本", " ", "ß", "x ", "k", "é a", "🙂"}
	tos := []string{"", "XYZ", "🙂", "ab", "日本語"}
	quote := func(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
	var b strings.Builder
	for i := 0; i < n; i++ {
		s := strs[rng.Intn(len(strs))]
		if rng.Intn(4) == 0 { // longer strings: several nasty pieces
			s += sets[rng.Intn(len(sets))] + strs[rng.Intn(len(strs))]
		}
		fmt.Fprintf(&b, "%d,%s,%s,%s\n", i, quote(s), quote(sets[rng.Intn(len(sets))]), quote(tos[rng.Intn(len(tos))]))
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRegexMatchesCPU compares regular expressions (the automaton
// kernel) and trim/replace with column arguments with the CPU backend.
func TestRegexMatchesCPU(t *testing.T) {
	dev := openDev(t)
	dir := t.TempDir()
	writeRegexCSV(t, filepath.Join(dir, "rt.csv"), 4000)
	cs, gs := twinSessions(t, dev, dir, regexDDL)
	qs := regexQueries()
	refused := len(compareSessions(t, cs, gs, qs, twinOpts{}))
	t.Logf("%d queries, %d refused", len(qs), refused)
	if refused != 0 { // s ~ c, a pattern per row, runs as a host step
		t.Errorf("%d refused, want none", refused)
	}
}

// TestRegexpReplaceMatchesCPU compares regexp_replace on the device
// (OP_REGEXREP, the Pike VM) with the CPU backend over rt and over a
// table of URLs, ClickBench's q28 among the queries, and checks with
// EXPLAIN that none of them ran as a host step.
func TestRegexpReplaceMatchesCPU(t *testing.T) {
	dev := openDev(t)
	dir := t.TempDir()
	writeRegexCSV(t, filepath.Join(dir, "rt.csv"), 4000)
	rng := rand.New(rand.NewSource(5))
	var b strings.Builder
	hosts := []string{"example.com", "www.example.com", "日本.jp", "a.b", "www.www.x.org", "WWW.Upper.COM", ""}
	for i := 0; i < 20000; i++ {
		u := []string{"http://", "https://", "ftp://", "", "HTTP://"}[rng.Intn(5)] + hosts[rng.Intn(len(hosts))]
		if rng.Intn(5) > 0 {
			u += "/" + strings.Repeat("p", rng.Intn(30)) + []string{"", "?q=1", "/é/", "\n/x"}[rng.Intn(4)]
		}
		fmt.Fprintf(&b, "%d,\"%s\"\n", i, strings.ReplaceAll(u, `"`, `""`))
	}
	if err := os.WriteFile(filepath.Join(dir, "urls.csv"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cs, gs := twinSessions(t, dev, dir, regexDDL, `CREATE TABLE urls (id bigint, u text) FROM CSV 'urls.csv'`)
	qs := []string{
		`SELECT REGEXP_REPLACE(u, '^https?://(?:www\.)?([^/]+)/.*$', '\1') AS k, AVG(length(u)) AS l, COUNT(*) AS c, MIN(u)
		   FROM urls WHERE u <> '' GROUP BY k HAVING COUNT(*) > 10 ORDER BY l DESC, k LIMIT 25`,
		`SELECT id, regexp_replace(u, '^https?://(?:www\.)?([^/]+)/.*$', '\1', 'i'), regexp_replace(u, 'p+', '<\&>', 'g'),
		        regexp_replace(u, '(\w)(\w*)', '\2\1', 'g'), regexp_replace(u, '', '-', 'g'), regexp_replace(u, '\b', '|', 'g')
		   FROM urls ORDER BY id`,
		`SELECT id, regexp_replace(s, 'a|é', 'X'), regexp_replace(s, '(?i)k', '[\&]', 'g'), regexp_replace(s, '^', '>', 'g'),
		        regexp_replace(s, '(a*)(b?)', '\2\1', 'g'), regexp_replace(s, '.', '.', 3, 2), regexp_replace(s, 'x*', 'y', 2, 0, 'i'),
		        regexp_replace(c, '[^a-z]+', '', 'g'), regexp_replace(upper(s), 'S+', 's', 'g')
		   FROM rt ORDER BY id`,
		`SELECT regexp_replace(s, '(.)(.)', '\2\1'), count(*) FROM rt GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 50`,
	}
	for _, q := range qs {
		compareQuery(t, cs, gs, q, twinOpts{noErrors: true})
		plan, err := runSQL(t, gs, "EXPLAIN "+q)
		if err != nil {
			t.Fatal(err)
		}
		if p := strings.Join(plan, "\n"); strings.Contains(p, "Host Step") {
			t.Errorf("%s ran a host step:\n%s", q, p)
		}
	}
}
