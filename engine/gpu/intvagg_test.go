package gpu_test

import (
	"fmt"
	"math/rand"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// writeIntvCSV writes iv's columns: an id, a group key with NULLs, a
// small integer and two timestamps (NULLs, fractional seconds, the ends
// of the range) whose differences are intervals of days and microseconds.
func writeIntvCSV(t *testing.T, path string, n int, rng *rand.Rand) {
	ts := []string{"2020-01-01 00:00:00", "2020-01-31 00:00:00.5", "2020-03-01 12:00:00", "2019-12-02 23:59:59.999999", "2020-01-01 00:00:00.000001",
		"", "1970-01-01 00:00:00", "2000-02-29 13:14:15.161718"}
	far := []string{"0001-01-01 00:00:00", "9999-12-31 23:59:59.999999"} // one row in 500: day sums stay in range
	pick := func() string {
		if rng.Intn(500) == 0 {
			return far[rng.Intn(len(far))]
		}
		return ts[rng.Intn(len(ts))]
	}
	gs := []string{"1", "2", "3", "", "-7", "1000"}
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "%d,%s,%d,%s,%s\n", i, gs[rng.Intn(len(gs))], rng.Intn(7)-3, pick(), pick())
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// ivQueries: sum and avg over intervals plain, grouped, filtered, beside
// other aggregates, in HAVING and ORDER BY, over CASEs of intervals with
// months (avg's fractions cascade), all-NULL and empty inputs, and sums
// past each field's range (22008).
var ivQueries = []string{
	`SELECT sum(t1 - t0), avg(t1 - t0), count(t1 - t0) FROM iv`,
	`SELECT g, sum(t1 - t0), avg(t0 - t1), min(t1 - t0), sum(k), avg(t1 - timestamp '2020-01-01 00:00:00') FROM iv GROUP BY g`,
	`SELECT k, sum(CASE WHEN k = 0 THEN interval '1 mon 2 days' WHEN k < 0 THEN interval '-2 mons 7 hours' WHEN k = 1 THEN NULL ELSE interval '1 year 3 mons 4 days 00:00:00.000001' END),
	  avg(CASE WHEN k = 0 THEN interval '1 mon 2 days' WHEN k < 0 THEN interval '-2 mons 7 hours' WHEN k = 1 THEN NULL ELSE interval '1 year 3 mons 4 days 00:00:00.000001' END) FROM iv GROUP BY k`,
	`SELECT avg((t1 - t0) + interval '7 mons 13 days'), sum((t1 - t1) + interval '1 day') FROM iv WHERE id % 3 = 1`,
	`SELECT g, k, avg(interval '1 mon' + (t1 - t0)) FROM iv WHERE t0 > timestamp '1999-01-01 00:00:00' GROUP BY g, k`,
	`SELECT g, sum(t1 - t0) FROM iv GROUP BY g HAVING avg(t1 - t0) > interval '-100 days' ORDER BY sum(t1 - t0) DESC NULLS LAST, g`,
	`SELECT sum(t1 - t0), avg(t1 - t0) FROM iv WHERE t0 IS NULL`,
	`SELECT sum(t1 - t0), avg(t1 - t0), count(*) FROM iv WHERE id < 0`,
	`SELECT g, avg(t1 - t0) + interval '1 day', timestamp '2020-01-01 00:00:00' + avg(t1 - timestamp '2020-01-01 00:00:00') FROM iv WHERE t1 < timestamp '9000-01-01 00:00:00' GROUP BY g`,
	`SELECT sum(interval '2000000000 days' + (t1 - t1)) FROM iv`,
	`SELECT g, sum(interval '100000000 years' + (t1 - t1)) FROM iv GROUP BY g`,
	`SELECT avg(interval '2000000000 hours' + (t1 - t1)) FROM iv`,
	`SELECT g, avg(interval '-1000 hours' + (t1 - t1)), sum(interval '-50000 days' + (t1 - t1)) FROM iv GROUP BY g`,
}

// TestIntervalAggMatchesCPU compares ivQueries on the device with the CPU
// backend (1 and 8 workers) at 1, 5,000 and 70,000 rows, the device's
// pool poisoned before each query; the CPU results are computed first,
// so the queries are checked where no GPU exists too.
func TestIntervalAggMatchesCPU(t *testing.T) {
	sizedTwins{
		sizes:       []int{1, 5000, 70000},
		write:       csvWriter("iv.csv", 29, writeIntvCSV),
		ddl:         `CREATE TABLE iv (id bigint, g integer, k integer, t0 timestamp, t1 timestamp) FROM CSV 'iv.csv'`,
		queries:     ivQueries,
		sortWorkers: true,
		checkCPU: func(t *testing.T, n, k int, q string, err error) {
			erring := strings.Contains(q, "2000000000") || strings.Contains(q, "100000000 years")
			if (err != nil) != (erring && n > 1) {
				t.Errorf("%d rows: %s: error %v", n, q, err)
			}
			if err != nil && engine.Code(err) != engine.CodeDatetimeFieldOverflow {
				t.Errorf("%d rows: %s: %v, want 22008", n, q, err)
			}
		},
		opts: twinOpts{sameMessage: true, ordered: ordered},
	}.run(t)
}

// ordered reports whether q orders its result: an ORDER BY outside any
// parentheses, not one inside an aggregate's or a subquery's.
func ordered(q string) bool {
	depth := 0
	for i := 0; i < len(q); i++ {
		switch q[i] {
		case '(':
			depth++
		case ')':
			depth--
		case 'O', 'o':
			if depth == 0 && len(q)-i >= 8 && strings.EqualFold(q[i:i+8], "ORDER BY") {
				return true
			}
		}
	}
	return false
}

func sorted(rows []string) []string {
	r := append([]string(nil), rows...)
	sort.Strings(r)
	return r
}
