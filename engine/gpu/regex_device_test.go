package gpu_test

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/cpu"
	"github.com/gpusql/gpusql/engine/gpu"
	"github.com/gpusql/gpusql/loader"
	"github.com/gpusql/gpusql/query"
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
	host := loader.NewCPU(loader.Config{})
	mk := func(b engine.Backend) engine.Session {
		srv, err := query.NewServer(query.Options{FileRoot: dir, DataDir: t.TempDir(), Backend: b})
		if err != nil {
			t.Fatal(err)
		}
		s, err := srv.NewSession(engine.SessionParams{User: "t", Database: "t"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := runSQL(t, s, `CREATE TABLE rt (id bigint, s text, c varchar(8), t text) FROM CSV 'rt.csv'`); err != nil {
			t.Fatal(err)
		}
		return s
	}
	cs := mk(cpu.New(host, 0))
	gs := mk(gpu.New(dev, gpu.HostLoader{Dev: dev, Host: host}))
	refused := 0
	qs := regexQueries()
	for _, q := range qs {
		want, werr := runSQL(t, cs, q)
		got, gerr := runSQL(t, gs, q)
		if gerr != nil && engine.Code(gerr) == engine.CodeFeatureNotSupported && engine.Code(werr) != engine.CodeFeatureNotSupported {
			refused++
			t.Logf("refused: %s: %v", q, gerr)
			continue
		}
		if engine.Code(werr) != engine.Code(gerr) {
			t.Errorf("%s\n cpu error %v\n gpu error %v", q, werr, gerr)
			continue
		}
		if len(want) != len(got) {
			t.Errorf("%s\n %d rows on the CPU, %d on the GPU", q, len(want), len(got))
			continue
		}
		for k := range want {
			if want[k] != got[k] {
				t.Errorf("%s\n row %d\n cpu %q\n gpu %q", q, k, want[k], got[k])
				break
			}
		}
	}
	t.Logf("%d queries, %d refused", len(qs), refused)
	if refused != 0 { // s ~ c, a pattern per row, runs as a host step
		t.Errorf("%d refused, want none", refused)
	}
}
