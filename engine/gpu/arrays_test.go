package gpu_test

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/cpu"
	"github.com/gpusql/gpusql/engine/gpu"
	"github.com/gpusql/gpusql/loader"
)

// Nasty inputs of the array functions. arrGood are arrays' text forms
// that parseTextArray reads: blanks around braces and elements, quotes
// and backslash escapes, NULL in any case and quoted, empty elements, a
// trailing comma, text after a closing quote, multibyte characters and
// Unicode blanks (U+00A0, U+3000) that the CPU trims from unquoted
// elements. arrBad are malformed (22P02).
var (
	arrGood = []string{"{a,b,c}", "{}", "  {1, 2 ,3}  ", `{"a b","c,d",NULL,null,"NULL"}`, `{"esc\"q","back\\s"}`, "{ }",
		"{a,}", "{,}", `{x\,y,z\\}`, `{日本," 語 x", ü}`, `{"a"b,c}`, "{NULL}", `{"",""}`, "{ a b , c }",
		"{\u00a0x\u00a0,\u3000y}", `{a\}`, `{"}"}`, "{b}", `{ "q" ,\"p\"}`, "{nULl,NuLLx}", "{{a},b}", "\t{z}\n"}
	arrBad = []string{"abc", "{abc", "abc}", "", `{"abc}`, "{", "}", "x{}", `{"a\"}`, " { ", "{a}x"}
	arrStr = []string{"a,b,c", "", "a", "a,,b,", ",", "héllo wörld", "日本語", `q"uo\te`, "  sp  ", "null", "NULL x",
		"x{y}z", "ab", "abab", "aab", "tab\there", "new\nline", "a, b", "🙂,🙂"}
	arrDelim = []string{",", "", " ", "ab", "本", "b", ",,", "🙂"}
)

// writeArraysCSV writes id, a (an array's text, malformed in about one
// row of 400 when bad), g (a is well-formed), s, d (a delimiter), x (a
// value to look for), i (a subscript), NULLs in every column but id and g.
func writeArraysCSV(t *testing.T, path string, n int, bad bool, rng *rand.Rand) {
	q := func(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
	pick := func(s []string) string {
		if rng.Intn(12) == 0 {
			return "" // NULL
		}
		return q(s[rng.Intn(len(s))])
	}
	xs := []string{"a", "b", "c", "", "NULL", "a b", "c,d", `esc"q`, "日本", "x,y", "1", "z\\", "ü"}
	var b strings.Builder
	for i := 0; i < n; i++ {
		a, g := pick(arrGood), "t"
		if bad && rng.Intn(400) == 0 {
			a, g = q(arrBad[rng.Intn(len(arrBad))]), "f"
		}
		idx := fmt.Sprint(rng.Intn(7) - 1)
		if rng.Intn(10) == 0 {
			idx = ""
		}
		fmt.Fprintf(&b, "%d,%s,%s,%s,%s,%s,%s\n", i, a, g, pick(arrStr), pick(arrDelim), pick(xs), idx)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// arrayQueries run over ar; those without "WHERE g" (or a CASE on g)
// fail on tables with malformed rows, with the first one's text.
var arrayQueries = []string{
	`SELECT id, string_to_array(s, d), string_to_array(s, ','), string_to_array(s, NULL), string_to_array(s, ''),
	        string_to_array(s, ' '), string_to_array(s, 'ab') FROM ar ORDER BY id`,
	`SELECT id, array_length(a, 1), array_upper(a, 1), array_lower(a, 1), array_length(a, 2), array_lower(a, i), array_upper(a, NULL)
	 FROM ar WHERE g ORDER BY id`,
	`SELECT id, a[1], a[2], a[i], a[0], a[-1], a[NULL] FROM ar WHERE g ORDER BY id`,
	`SELECT id, x = ANY (a), 'b' = ANY (a), NULL = ANY (a), x <> ALL (a), '' = ANY (a) FROM ar WHERE g ORDER BY id`,
	`SELECT id, array_to_string(a, ','), array_to_string(a, d), array_to_string(a, '|', '*'), array_to_string(a, d, x),
	        array_to_string(a, NULL), array_to_string(a, '', NULL) FROM ar WHERE g ORDER BY id`,
	`SELECT id, a || ARRAY(SELECT 'p q' UNION ALL SELECT 'r'), ARRAY(SELECT 'z') || a, a || ARRAY(SELECT s FROM ar WHERE false)
	 FROM ar WHERE g ORDER BY id`,
	`SELECT id, array_to_string(string_to_array(s, d), '|', '?'), array_length(string_to_array(s, d), 1),
	        (string_to_array(s, ','))[2], x = ANY (string_to_array(s, d)) FROM ar ORDER BY id`,
	`SELECT id, upper(a[1]), a[1] || '!', length(a[2]), coalesce(a[i], '-') FROM ar WHERE g ORDER BY id`,
	`SELECT array_length(string_to_array(s, d), 1), count(*) FROM ar GROUP BY 1`,
	`SELECT count(*) FROM ar WHERE g AND a[1] = 'a'`,
	`SELECT id FROM ar WHERE g AND array_length(a, 1) > 2 ORDER BY id`,
	`SELECT id, CASE WHEN g THEN array_length(a, 1) END, CASE WHEN g THEN array_to_string(a, '+') ELSE 'bad' END FROM ar ORDER BY id`,
	`SELECT id, string_to_array(s, d) FROM ar ORDER BY string_to_array(s, d), id LIMIT 50`,
	// malformed arrays: the error of the first failing row
	`SELECT id, array_length(a, 1) FROM ar ORDER BY id`,
	`SELECT count(*) FROM ar WHERE x = ANY (a)`,
	`SELECT id, a[2] FROM ar ORDER BY id`,
	`SELECT id, array_to_string(a, ',') FROM ar ORDER BY id`,
	`SELECT id, array_length(a, 2), a[NULL] IS NULL FROM ar ORDER BY id`,
}

// TestArraysMatchCPU compares arrayQueries on the device with the CPU
// backend (1 and 8 workers), results and errors (SQLSTATE and message),
// at 1, 5,000 and 70,000 rows with and without malformed arrays, the
// device's pool poisoned before each query.
func TestArraysMatchCPU(t *testing.T) {
	skipCPUHalfUnderRace(t)
	host := loader.NewCPU(loader.Config{})
	mk := func(dir string, b engine.Backend) engine.Session {
		return newSession(t, dir, b, `CREATE TABLE ar (id bigint, a text, g boolean, s text, d varchar(4), x text, i integer) FROM CSV 'ar.csv'`)
	}
	type result struct {
		rows []string
		err  error
	}
	type setup struct {
		n   int
		bad bool
	}
	setups := []setup{{1, false}, {5000, false}, {5000, true}, {70000, true}}
	dirs := make([]string, len(setups))
	want := make([][]result, len(setups))
	for si, su := range setups {
		dirs[si] = t.TempDir()
		writeArraysCSV(t, filepath.Join(dirs[si], "ar.csv"), su.n, su.bad, rand.New(rand.NewSource(int64(su.n)*3+int64(si))))
		c1, c8 := mk(dirs[si], cpu.New(host, 1)), mk(dirs[si], cpu.New(host, 8))
		for _, q := range arrayQueries {
			r1, e1 := runSQL(t, c1, q)
			r8, e8 := runSQL(t, c8, q)
			if fmt.Sprint(e1) != fmt.Sprint(e8) || fmt.Sprint(r1) != fmt.Sprint(r8) {
				t.Errorf("%d rows: the CPU backend with 1 and 8 workers differ: %s", su.n, q)
			}
			if e1 != nil && (!su.bad || engine.Code(e1) != engine.CodeInvalidTextRepresent) {
				t.Errorf("%d rows: %s: %v", su.n, q, e1)
			}
			want[si] = append(want[si], result{r1, e1})
		}
	}
	dev := openDev(t)
	for si, su := range setups {
		gs := mk(dirs[si], gpu.New(dev, gpu.HostLoader{Dev: dev, Host: host}))
		same, errs := 0, 0
		for k, q := range arrayQueries {
			poisonPool(t, dev)
			w := want[si][k]
			got, gerr := runSQL(t, gs, q)
			if fmt.Sprint(w.err) != fmt.Sprint(gerr) {
				t.Errorf("%d rows (bad %v): %s\n cpu error %v\n gpu error %v", su.n, su.bad, q, w.err, gerr)
				continue
			}
			wr := append([]string(nil), w.rows...)
			if !ordered(q) {
				sort.Strings(wr)
				sort.Strings(got)
			}
			if d := rowDiff(wr, got); d != "" {
				t.Errorf("%d rows (bad %v): %s\n %s", su.n, su.bad, q, d)
			}
			same++
			if gerr != nil {
				errs++
			}
		}
		t.Logf("%d rows (malformed rows: %v): %d of %d queries identical to the CPU backend, %d of them the same error", su.n, su.bad, same, len(arrayQueries), errs)
	}
}
