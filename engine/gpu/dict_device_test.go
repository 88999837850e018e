package gpu_test

import (
	"fmt"
	"math/rand"
	"os"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// dictDDL is the table of the dictionary tests: string columns of 5
// values (sm, with ” and trailing blanks), char(10) (ch), exactly 255
// and 256 values (the last 1-byte dictionary and the first 2-byte one),
// exactly 65,535 and 65,536 stored forms (the last dictionary and the
// first column without one), a comment with LIKE's special bytes, and
// random 8-digit hex filling its width (fw).
const dictDDL = `CREATE TABLE dt (id bigint, sm varchar(12), ch char(10), v255 varchar(8), v256 varchar(8),
	v65535 varchar(10), v65536 varchar(10), cm varchar(44), x integer, p numeric(12,2), d date, ts timestamp, fw varchar(8)) FROM CSV 'dt.csv'`

func writeDictCSV(t *testing.T, path string, n int, rng *rand.Rand) {
	t.Helper()
	var b strings.Builder
	sm := []string{"AIR", "RAIL", "", "AIR ", "TRUCK"}
	ch := []string{"AIR", "MAIL", "REG AIR", "AIR  ", "b"}
	words := []string{"furiously", "Packages", "PACKAGES", "al%l", "x_y", `b\c`, "é", "deposits", " ", "fur"}
	null := func(s string) string {
		if rng.Intn(20) == 0 {
			return ""
		}
		return s
	}
	quote := func(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
	for i := 0; i < n; i++ {
		var cm []string
		for k := rng.Intn(5); k >= 0; k-- {
			cm = append(cm, words[rng.Intn(len(words))])
		}
		c := strings.Join(cm, " ")
		if len(c) > 36 {
			c = c[:36]
		}
		c += fmt.Sprintf(" #%d", i) // too many values for a dictionary
		fmt.Fprintf(&b, "%d,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", i,
			null(quote(sm[rng.Intn(len(sm))])),
			null(quote(ch[rng.Intn(len(ch))])),
			null(fmt.Sprintf("k%d", i%255)),
			null(fmt.Sprintf("k%d", i%256)),
			fmt.Sprintf("w%d", i%65535), // no NULLs: exactly 65,535 and 65,536 values at 70,000 rows
			fmt.Sprintf("w%d", i%65536),
			null(quote(c)),
			null(fmt.Sprint(rng.Intn(2000)-1000)),
			null(fmt.Sprintf("%d.%02d", rng.Intn(2000)-1000, rng.Intn(100))),
			null(fmt.Sprintf("199%d-%02d-%02d", 2+rng.Intn(7), 1+rng.Intn(12), 1+rng.Intn(28))),
			null(fmt.Sprintf("20%02d-%02d-%02d %02d:%02d:%02d", rng.Intn(30), 1+rng.Intn(12), 1+rng.Intn(28), rng.Intn(24), rng.Intn(60), rng.Intn(60))),
			null(fmt.Sprintf("%08x", rng.Uint32()))) // the full width: no zero byte between rows
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// dictQuery is a query of the dictionary tests; fused, when set, is a
// line EXPLAIN ANALYZE must show on the device (the fused kernel ran
// with that precomputed value).
type dictQuery struct {
	sql, fused string
}

var dictQueries = []dictQuery{
	{"SELECT sm, count(*), sum(x), min(x), max(p) FROM dt GROUP BY sm ORDER BY sm", "grouped by the dictionary codes of sm"},
	{"SELECT ch, count(*), sum(p) FROM dt GROUP BY ch ORDER BY ch", "grouped by the dictionary codes of ch"},
	{"SELECT v255, count(*), sum(x) FROM dt GROUP BY v255 ORDER BY v255", "(255 values, 1-byte codes)"},
	{"SELECT v256, count(*), sum(x) FROM dt GROUP BY v256 ORDER BY v256", ""}, // 257 groups: past the fused tables
	{"SELECT v65535, count(*) FROM dt GROUP BY v65535 ORDER BY v65535", ""},
	{"SELECT count(*), sum(x) FROM dt WHERE v65535 = 'w65534'", "evaluated over its dictionary (65535 values"},
	{"SELECT count(*), sum(x) FROM dt WHERE v65536 = 'w65535'", ""},
	{"SELECT sm, ch, count(*), sum(x) FROM dt GROUP BY sm, ch ORDER BY sm, ch", "grouped by the dictionary codes of ch"},
	{"SELECT sm, x % 3 AS k, count(*) FROM dt GROUP BY sm, x % 3 ORDER BY sm, k", "grouped by the dictionary codes of sm"},
	{"SELECT count(*), sum(x) FROM dt WHERE sm = 'AIR'", "evaluated over its dictionary"},
	{"SELECT count(*), sum(x) FROM dt WHERE sm = 'AIR '", "evaluated over its dictionary"},
	{"SELECT count(*), sum(x) FROM dt WHERE ch = 'AIR'", "evaluated over its dictionary"},
	{"SELECT count(*) FROM dt WHERE sm <> '' AND ch < 'M'", "evaluated over its dictionary"},
	{"SELECT count(*) FROM dt WHERE sm IN ('RAIL', 'TRUCK') OR sm IS NULL", "evaluated over its dictionary"},
	{"SELECT count(*) FROM dt WHERE sm LIKE 'A%' AND x > 0", "evaluated over its dictionary"},
	{"SELECT count(*) FROM dt WHERE lower(ch) LIKE '%air%'", "evaluated over its dictionary"},
	{"SELECT count(*) FROM dt WHERE length(sm) > 3", "evaluated over its dictionary"},
	{"SELECT sm, sum(CASE WHEN ch = 'AIR' THEN 1 ELSE 0 END) AS a, sum(CASE WHEN p >= 0 THEN x ELSE 0 END) AS b FROM dt GROUP BY sm ORDER BY sm", "evaluated over its dictionary"},
	{"SELECT ch, sum(CASE WHEN sm = 'RAIL' THEN x ELSE 0 END), sum(CASE WHEN sm = 'RAIL' THEN p ELSE 0 END) FROM dt GROUP BY ch ORDER BY ch", ""},
	{"SELECT ch, sum(CASE WHEN sm = 'RAIL' THEN x ELSE 0 END) FROM dt GROUP BY ch ORDER BY ch", "evaluated over its dictionary"},
	{"SELECT count(*) FROM dt WHERE CASE WHEN sm = '' THEN NULL ELSE sm > 'B' END", "evaluated over its dictionary"},
	{"SELECT count(*) FROM dt WHERE v255 = 'k254'", "(255 values, 1-byte codes)"},
	{"SELECT count(*) FROM dt WHERE v256 > 'k99'", "(256 values, 2-byte codes)"},
	// the interpreter's LIKE (plans the fused kernels refuse): a boolean
	// column computed by the LIKE kernels first
	{"SELECT id, cm FROM dt WHERE cm LIKE '%fur%' ORDER BY id LIMIT 50", "computed as a boolean column"},
	{"SELECT cm, count(*) FROM dt WHERE cm ILIKE '%PACK%' GROUP BY cm ORDER BY 2 DESC, 1 LIMIT 5", "computed as a boolean column"},
	{"SELECT min(cm), max(fw) FROM dt WHERE cm LIKE '%x_y%' OR fw LIKE '%ab%'", "computed as a boolean column"},
	{"SELECT id FROM dt WHERE NOT (cm LIKE '%fur%') OR cm IS NULL ORDER BY id LIMIT 20 OFFSET 100", "computed as a boolean column"},
	{"SELECT id, fw FROM dt WHERE fw NOT LIKE '%a%' AND cm LIKE '_ %' ORDER BY id LIMIT 20", "computed as a boolean column"},
	// aggregates the fused kernel refuses (too many groups, wide keys)
	// with a WHERE: the filter runs once and the passing rows are
	// gathered (narrow.go)
	{"SELECT v65536, count(*), sum(x), max(p) FROM dt WHERE x > 900 GROUP BY v65536 ORDER BY 2 DESC, 1 LIMIT 20", "the WHERE ran once"},
	{"SELECT cm, fw, count(*), min(d) FROM dt WHERE sm = 'RAIL' AND p < 0 GROUP BY cm, fw ORDER BY cm, fw LIMIT 30", "the WHERE ran once"},
	{"SELECT v65535, count(*) FROM dt WHERE x > 5000 GROUP BY v65535", "the WHERE ran once"},
	{"SELECT count(*), sum(x) FROM (SELECT v65536, sum(x) AS x FROM dt WHERE d > '1995-01-01' GROUP BY v65536) s WHERE x > 0", ""},
	{"SELECT v65536, count(*) FROM dt WHERE x IS NULL OR p IS NULL GROUP BY v65536 ORDER BY 1 LIMIT 10", "the WHERE ran once"},
	{"SELECT v65536, count(*) FROM dt WHERE id >= 0 GROUP BY v65536 ORDER BY 1 LIMIT 10", ""},
	{"SELECT v65536, count(*) FROM dt WHERE 100 / (x - x) > 0 GROUP BY v65536", ""},
	{"SELECT a.v65536, count(*), sum(b.x) FROM dt a JOIN dt b ON a.id = b.id + 1 WHERE a.x > b.x GROUP BY a.v65536 ORDER BY 2 DESC, 1 LIMIT 10", ""},
	// LIKE in a scan below a join: the scan's filter reads the boolean
	// column too
	{"SELECT count(*), sum(b.x) FROM dt a JOIN dt b ON a.id = b.id WHERE a.cm LIKE '%fur%' AND b.fw NOT LIKE '%a%'", "computed as a boolean column"},
	{"SELECT a.sm, count(*) FROM dt a JOIN dt b ON a.id = b.id + 7 WHERE a.cm ILIKE '%PACK%' OR b.cm IS NULL GROUP BY a.sm ORDER BY 1", ""},
	// string-valued keys over one dictionary column: the results numbered
	{"SELECT upper(sm) AS k, count(*), sum(x) FROM dt GROUP BY 1 ORDER BY 1", "a group key on sm evaluated over its dictionary"},
	{"SELECT CASE WHEN ch IN ('AIR', 'MAIL') THEN 'air/mail' WHEN ch = 'b' THEN NULL ELSE 'other' END AS k, count(*), sum(p) FROM dt GROUP BY 1 ORDER BY 1", "a group key on ch"},
	{"SELECT substr(v256, 1, 2) AS k, sm, count(*) FROM dt GROUP BY 1, 2 ORDER BY 1, 2", "a group key on v256"},
	// extract and date_trunc over a date column of 2,500 days: a table of
	// its values
	{"SELECT extract(year FROM d) AS y, extract(month FROM d) AS m, count(*), sum(x) FROM dt GROUP BY 1, 2 ORDER BY 1, 2", "evaluated over its"},
	{"SELECT date_trunc('month', d) AS m, count(*), sum(p) FROM dt GROUP BY 1 ORDER BY 1", "evaluated over its"},
	{"SELECT count(*) FROM dt WHERE extract(dow FROM d) = 0 AND x > 0", "evaluated over its"},
	{"SELECT sum(extract(day FROM d)), sum(extract(doy FROM d) * x) FROM dt", "evaluated over its"},
	{"SELECT extract(year FROM ts) AS y, count(*) FROM dt GROUP BY 1 ORDER BY 1", ""},
	// sums and averages over numerics whose scale varies by row: added at
	// the largest scale, then each group's sum at its own
	{"SELECT sm, sum(CASE WHEN x > 0 THEN p ELSE 0 END), avg(CASE WHEN x > 0 THEN p ELSE 0 END) FROM dt GROUP BY sm ORDER BY sm", "Fused Kernel: one generated kernel"},
	{"SELECT sm, sum(CASE WHEN x > 990 AND sm = 'RAIL' THEN p ELSE 0 END) FROM dt GROUP BY sm ORDER BY sm", "Fused Kernel: one generated kernel"},
	{"SELECT ch, sum(CASE WHEN x > 500 THEN p * p WHEN x > 0 THEN 1.5 WHEN x < -900 THEN NULL ELSE 0 END) FROM dt GROUP BY ch ORDER BY ch", "Fused Kernel: one generated kernel"},
	// negative integer constants (once refused by the generator as numerics past 64 bits)
	{"SELECT sm, count(*), sum(x), min(x) FROM dt WHERE x < -900 OR x = -1 GROUP BY sm ORDER BY sm", "Fused Kernel: one generated kernel"},
	{"SELECT sum(CASE WHEN x > 2000 THEN p ELSE 0 END), sum(CASE WHEN x > 2000 THEN p END) FROM dt", "Fused Kernel: one generated kernel"},
	// errors for some dictionary values: the interpreter raises them
	{"SELECT count(*) FROM dt WHERE sm::int > 0", ""},
	{"SELECT sum(CASE WHEN sm = 'AIR' THEN 1 ELSE ch::int END) FROM dt", ""},
	// LIKE over a column without a dictionary: a match bitmap
	{"SELECT count(*), sum(x) FROM dt WHERE cm LIKE '%furiously%'", "read from a match bitmap"},
	{"SELECT sm, count(*), sum(x) FROM dt WHERE cm LIKE '%furiously%' GROUP BY sm ORDER BY sm", "read from a match bitmap"},
	{"SELECT count(*) FROM dt WHERE cm ILIKE '%packages%' OR sm LIKE 'TR%'", "read from a match bitmap"},
	{"SELECT count(*) FROM dt WHERE cm NOT LIKE 'fur%'", "read from a match bitmap"},
	{"SELECT count(*) FROM dt WHERE cm LIKE '%al\\%l%'", "read from a match bitmap"},
	{"SELECT count(*) FROM dt WHERE cm LIKE '%x_y%' AND cm LIKE '%b#\\c%' ESCAPE '#'", "read from a match bitmap"},
	{"SELECT count(*) FROM dt WHERE cm LIKE '_ %'", "read from a match bitmap"},
	{"SELECT count(*) FROM dt WHERE cm ILIKE '%É%'", "read from a match bitmap"},
	{"SELECT count(*) FROM dt WHERE cm LIKE '% #1%'", "read from a match bitmap"},
	{"SELECT count(*) FROM dt WHERE v65536 LIKE 'w1%'", "read from a match bitmap"},
	// q_like_sub over values filling their width: no match across rows
	{"SELECT count(*) FROM dt WHERE fw LIKE '%9a%'", "read from a match bitmap"},
	{"SELECT count(*) FROM dt WHERE fw ILIKE '%A0B%' OR fw LIKE '%0000%'", "read from a match bitmap"},
	{"SELECT count(*) FROM dt WHERE fw LIKE '%%ff%%' AND fw NOT LIKE '%f_f%'", "read from a match bitmap"},
}

// TestDictionariesMatchCPU runs dictQueries on the device and on the CPU
// backend at 1, 5,000 and 70,000 rows (the last holds every boundary of
// the dictionaries), the pool poisoned before each query: the same rows
// and errors, and at 70,000 rows EXPLAIN ANALYZE shows that the fused
// kernel ran with the dictionary or bitmap each query names.
func TestDictionariesMatchCPU(t *testing.T) {
	skipCPUHalfUnderRace(t)
	sizes := []int{1, 5000, 70000}
	var qs []string
	for _, q := range dictQueries {
		qs = append(qs, q.sql)
	}
	sizedTwins{
		sizes:   sizes,
		write:   csvWriter("dt.csv", 3, writeDictCSV),
		ddl:     dictDDL,
		queries: qs,
		workers: []int{1},
		checkCPU: func(t *testing.T, n, k int, q string, err error) {
			if err != nil && !strings.Contains(q, "::int") && !strings.Contains(q, "(x - x)") {
				t.Errorf("%d rows: %s: %v", n, q, err)
			}
		},
		opts: twinOpts{sameMessage: true, ordered: orderedUpper},
		afterGPU: func(t *testing.T, n int, gs engine.Session) {
			if n != sizes[len(sizes)-1] {
				return
			}
			for _, q := range dictQueries {
				if q.fused == "" {
					continue
				}
				plan, err := runSQL(t, gs, "EXPLAIN ANALYZE "+q.sql)
				if err != nil {
					t.Errorf("EXPLAIN ANALYZE %s: %v", q.sql, err)
					continue
				}
				if p := strings.Join(plan, "\n"); !strings.Contains(p, q.fused) {
					t.Errorf("%s: EXPLAIN ANALYZE does not show %q:\n%s", q.sql, q.fused, p)
				}
			}
			// gpusql_columns shows the dictionaries the queries built
			got, err := runSQL(t, gs, "SELECT column_name, encoding, encoded_bytes FROM gpusql_columns WHERE table_name = 'dt' AND column_name IN ('sm', 'v256', 'v65536', 'cm') ORDER BY column_name")
			want := []string{"cm|plain|NULL", "sm|dictionary: 5 values, 1-byte codes|70000", "v256|dictionary: 256 values, 2-byte codes|140000", "v65536|plain|NULL"}
			if err != nil || strings.Join(got, ";") != strings.Join(want, ";") {
				t.Errorf("gpusql_columns: %q, %v; want %q", got, err, want)
			}
		},
	}.run(t)
}
