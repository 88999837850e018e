package gpu_test

import (
	"fmt"
	"math/rand"
	"os"
	"strings"
	"testing"
)

// tailStrings are nasty inputs of the quote functions: plain identifiers,
// reserved keywords (quoted by quote_ident) and unreserved ones (not),
// upper case, a leading digit, quotes, backslashes, empty strings,
// multibyte text and NULLs (the empty field).
var tailStrings = []string{
	"abc", "_x1", "select", "user", "Select", "1abc", "a b", `a"b`, `""`, "it's", `a\b`, `\'`, `\\`,
	"''", "é", "日本語", "abort", "xmltable", "xmltables", "al", "all", "a-b", "", "\"\"\"\"", "zz9_", "NULL",
}

// writeTailCSV writes rowkeys' columns (ties across scales and interval
// forms) and two string columns from tailStrings, CSV-quoted.
func writeTailCSV(t *testing.T, path string, n int, rng *rand.Rand) {
	as := []string{"1.50", "-1.50", "0.00", "2.00", "0.10", "", "99999999.99", "-99999999.99", "0.01", "3.00"}
	bs := []string{"1.5000", "-1.5000", "0.0000", "2.0000", "0.1000", "0.0001", "", "99999999.9999", "-0.0001", "3"}
	cs := []string{"-3", "-2", "-1", "0", "1", "2", "3", "", "1", "2"}
	ts := []string{"2020-01-01 00:00:00", "2020-01-31 00:00:00", "2020-03-01 12:00:00", "2019-12-02 00:00:00", "2020-01-01 00:00:00.000001", ""}
	pick := func(s []string) string { return s[rng.Intn(len(s))] }
	str := func() string {
		s := pick(tailStrings)
		if s == "" {
			return "" // NULL
		}
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "%d,%s,%s,%s,%s,%s,%s,%s\n", i, pick(as), pick(bs), pick(cs), pick(ts), pick(ts), str(), str())
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// tailQueries: nullif() over intervals, string_agg ORDER BY intervals and
// numerics whose scale varies by row, quote_ident/quote_literal/
// quote_nullable over string columns, format() with %s, %I, %L, %% and
// positions (a NULL %I raises 22004 on both backends; iv and sq as in
// rowkeys_test.go).
var tailQueries = []string{
	`SELECT id, nullif(` + iv + `, interval '30 days'), nullif(t1 - t0, ` + iv + `), nullif(t1 - t0, interval '1 mon') FROM tl ORDER BY id`,
	`SELECT count(nullif(` + iv + `, interval '720 hours')), count(*) FROM tl`,
	`SELECT c, string_agg(id::text, ',' ORDER BY ` + iv + `, id DESC) FROM tl GROUP BY c`,
	`SELECT string_agg(id::text, ',' ORDER BY ` + iv + ` DESC NULLS LAST) FROM tl WHERE id < 400`,
	`SELECT c, string_agg(s, '|' ORDER BY a / NULLIF(c, 0) DESC NULLS FIRST) FROM tl GROUP BY c`,
	`SELECT string_agg(v, ',' ORDER BY ` + sq + `, t1 - t0 DESC, id) FROM tl WHERE id % 3 = 1`,
	`SELECT c, string_agg(DISTINCT v, ';' ORDER BY v) , string_agg(id::text, '+' ORDER BY ` + sq + ` NULLS FIRST) FROM tl GROUP BY c`,
	`SELECT string_agg(id::text, ',' ORDER BY a / c) FROM tl`,
	`SELECT id, quote_ident(s), quote_literal(s), quote_nullable(s), quote_nullable(v), quote_ident(v), quote_literal(v) FROM tl ORDER BY id`,
	`SELECT quote_ident(s), count(*) FROM tl GROUP BY 1`,
	`SELECT count(*) FROM tl WHERE quote_literal(s) LIKE 'E%' OR quote_ident(v) = v`,
	`SELECT id, quote_literal(upper(s)) || quote_ident(lower(v)), length(quote_nullable(s || v)) FROM tl ORDER BY id`,
	`SELECT string_agg(quote_nullable(s), ',' ORDER BY id) FROM tl WHERE id < 500`,
	`SELECT id, quote_nullable(nullif(s, 'abc')), quote_ident(trim(v)) FROM tl ORDER BY 2, 1 LIMIT 20`,
	`SELECT id, format('%s = %L and %I', s, v, coalesce(v, 'zz')), format('%%%2$s|%1$s|%s;', s, v), format('[%L]', s) FROM tl ORDER BY id`,
	`SELECT id, format('%I.%I', v, s) FROM tl WHERE id < 40 ORDER BY id`,
	`SELECT format('%1$L%1$s', v), count(*) FROM tl GROUP BY 1`,
}

// TestTailMatchesCPU compares tailQueries on the device with the CPU
// backend (1 and 8 workers) at 1, 5,000 and 70,000 rows, the device's
// pool poisoned before each query. The CPU results are computed first, so
// that the queries are checked where no GPU exists too.
func TestTailMatchesCPU(t *testing.T) {
	skipCPUHalfUnderRace(t)
	sizedTwins{
		sizes:   []int{1, 5000, 70000},
		write:   csvWriter("tl.csv", 7, writeTailCSV),
		ddl:     `CREATE TABLE tl (id bigint, a numeric(10,2), b numeric(12,4), c integer, t0 timestamp, t1 timestamp, s text, v varchar(12)) FROM CSV 'tl.csv'`,
		queries: tailQueries,
		checkCPU: func(t *testing.T, n, k int, q string, err error) {
			if err != nil && !strings.Contains(q, "a / c") && !strings.Contains(q, "'%I.%I'") {
				t.Errorf("%d rows: %s: %v", n, q, err)
			}
		},
		opts: twinOpts{ordered: orderedByIDOrLimited},
	}.run(t)
}
