package gpu_test

import (
	"fmt"
	"math/rand"
	"os"
	"strings"
	"testing"
)

// fmtGood are formats the CPU accepts with three arguments; fmtBad adds
// the ones it rejects (too few arguments, unterminated, unrecognized
// conversions, argument 0).
var (
	fmtGood = []string{"%s", "%3$I|%1$L", "%%", "%2$s-%1$s", "%3$s", "abc", "", "%1$L%1$L", "é%sé", "%s %s %s",
		"%L%L%L%3$L%2$L%1$L%L%L%%", "'%s'", `\%L\`, "%3$I"}
	fmtBad = []string{"%s%", "%5s", "%4$s", "%0$s", "%s %s %s %s", "%d", "%é", "%1$"}
)

// writeFmtCSV writes t3's columns: a format that is always valid (f),
// one that may fail (g), strings from tailStrings, numerics, integers
// (zeros and NULLs), timestamps, booleans, doubles and char(4).
func writeFmtCSV(t *testing.T, path string, n int, rng *rand.Rand) {
	as := []string{"1.50", "-1.50", "0.00", "2.00", "0.10", "", "99999999.99", "-99999999.99", "0.01", "3.00"}
	cs := []string{"-3", "-2", "-1", "0", "1", "2", "3", "", "7", "-32768"}
	ts := []string{"2020-01-01 00:00:00", "2020-01-31 00:00:00", "2020-03-01 12:00:00", "2019-12-02 00:00:00", "2020-01-01 00:00:00.000001", "", "0001-01-01 00:00:00", "9999-12-31 23:59:59.999999"}
	ds := []string{"1.5", "-0.25", "0", "-0", "1e-05", "", "3", "123.125", "7e-3"}
	bs := []string{"t", "f", ""}
	chs := []string{"ab", "ÄÖ", "x", "a b", "it's", `\`, "user", "NULL", " y", ""}
	pick := func(s []string) string { return s[rng.Intn(len(s))] }
	q := func(s string, null bool) string {
		if null {
			return ""
		}
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	str := func() string {
		s := pick(tailStrings)
		return q(s, s == "")
	}
	var b strings.Builder
	for i := 0; i < n; i++ {
		g := fmtGood
		if rng.Intn(50) == 0 {
			g = fmtBad
		}
		f := pick(fmtGood)
		fmt.Fprintf(&b, "%d,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", i, q(f, rng.Intn(20) == 0), q(pick(g), false), str(), str(),
			pick(as), pick(cs), pick(ts), pick(ts), pick(bs), pick(ds), q(pick(chs), rng.Intn(9) == 0))
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// fmtQueries: quote_literal/quote_nullable of every type's text form,
// format() of non-string arguments, with more than 8 conversions, with a
// format from a column, its errors, and numerics whose scale passes 1000
// as text.
var fmtQueries = []string{
	`SELECT id, quote_literal(id), quote_nullable(a), quote_nullable(c), quote_nullable(t0), quote_literal(t1 - t0), quote_nullable(fl), quote_literal(t0::date), quote_nullable(d), quote_nullable(d::real), quote_literal(ch), quote_nullable(ch) FROM t3 ORDER BY id`,
	`SELECT id, quote_nullable(a / nullif(c, 0)), quote_literal(a * c / 7), quote_nullable(v::char(3)), quote_ident(ch) FROM t3 ORDER BY id`,
	`SELECT id, format('%s|%L|%s|%L|%s|%s|%I', id, a, fl, t1 - t0, t0, d, coalesce(ch, 'x')) FROM t3 ORDER BY id`,
	`SELECT id, format('%s%s%s%s%s%s%s%s%s%s%s%1$L%L', s, v, id, a, c, fl, t0, t1, s, v, d) FROM t3 ORDER BY id`,
	`SELECT id, format(f, s, v, id), format(f || '%3$L', a, fl, coalesce(t1 - t0, interval '1 day')) FROM t3 ORDER BY id`,
	`SELECT id, format(coalesce(s, '%%') || '|%s|%2$L', v, id) FROM t3 ORDER BY id`,
	`SELECT format(f, ch, c, coalesce(fl, true)), count(*) FROM t3 GROUP BY 1`,
	`SELECT count(*) FROM t3 WHERE format(f, s, v, id) LIKE '%b%' OR quote_nullable(a) = 'NULL'`,
	`SELECT id, format(g, s, v, id) FROM t3 ORDER BY id`,
	`SELECT id, format(CASE WHEN c = 3 THEN '%s %s' WHEN c = -3 THEN '%I' ELSE '%L' END, v) FROM t3 ORDER BY id`,
	`SELECT id, CASE WHEN c = 3 THEN format(g, v) END FROM t3 ORDER BY id`,
	`SELECT format('%s %s', s) FROM t3`,
	`SELECT format('%s %s', s) FROM t3 WHERE id < 0`,
	`SELECT format('%s %z', s, v) FROM t3`,
	`SELECT format('%I', s) FROM t3`,
	`SELECT string_agg(format('%L=%s', fl, t1 - t0), ',' ORDER BY id) FROM t3 WHERE id < 300`,
	`SELECT id, ((c * 1e-300::float8)::numeric * (c * 1e-300::float8)::numeric * (c * 1e-300::float8)::numeric * (3e-300::float8)::numeric)::text FROM t3 ORDER BY id`,
	`SELECT id, (a / nullif(c, 0) * (d * 1e-300::float8)::numeric * (d * 1e-300::float8)::numeric)::text, quote_literal((d * 1e-300::float8)::numeric * (c * 1e-300::float8)::numeric * (c * 1e-300::float8)::numeric * (c * 1e-300::float8)::numeric) FROM t3 ORDER BY id`,
	`SELECT id, CASE WHEN c > 0 THEN (c * 1e-300::float8)::numeric * (c * 1e-300::float8)::numeric * (c * 1e-300::float8)::numeric * (c * 1e-300::float8)::numeric ELSE a END::text FROM t3 ORDER BY id`,
	`SELECT id, quote_literal(fl), quote_nullable(fl), format('%s|%L|%s|%L|%s', ch, ch, fl, fl, ch::varchar(2)), quote_literal(ch::char(6)), format('%s', 'ab'::char(3)) FROM t3 ORDER BY id`,
}

// TestFormatMatchesCPU compares fmtQueries on the device with the CPU
// backend (1 and 8 workers) at 1, 5,000 and 70,000 rows, the device's
// pool poisoned before each query; the CPU results are computed first,
// so the queries are checked where no GPU exists too.
func TestFormatMatchesCPU(t *testing.T) {
	skipCPUHalfUnderRace(t)
	sizedTwins{
		sizes:   []int{1, 5000, 70000},
		write:   csvWriter("t3.csv", 11, writeFmtCSV),
		ddl:     `CREATE TABLE t3 (id bigint, f text, g text, s text, v varchar(12), a numeric(10,2), c integer, t0 timestamp, t1 timestamp, fl boolean, d double precision, ch char(4)) FROM CSV 't3.csv'`,
		queries: fmtQueries,
		checkCPU: func(t *testing.T, n, k int, q string, err error) {
			erring := strings.Contains(q, "(g,") || strings.Contains(q, "'%s %s', s") && !strings.Contains(q, "id < 0") ||
				strings.Contains(q, "%z") || strings.Contains(q, "'%I', s") || strings.Contains(q, "'%I' ELSE")
			if err != nil && !erring && n > 1 {
				t.Errorf("%d rows: %s: %v", n, q, err)
			}
		},
		// the same SQLSTATE and message (format()'s errors name the
		// conversion)
		opts: twinOpts{sameMessage: true, ordered: orderedByID},
	}.run(t)
}
