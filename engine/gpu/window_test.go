package gpu_test

import (
	"fmt"
	"math/rand"
	"os"
	"strings"
	"testing"
)

// windowQueries run on the device and must equal the CPU backend's
// results (engine/gpu/window.go, the w_ kernels of cuda/sort.cu).
var windowQueries = []string{
	`SELECT id, row_number() OVER w, rank() OVER w, dense_rank() OVER w, percent_rank() OVER w, cume_dist() OVER w
	 FROM wt WINDOW w AS (PARTITION BY p ORDER BY o)`,
	`SELECT id, rank() OVER (PARTITION BY s ORDER BY o DESC NULLS FIRST, n), dense_rank() OVER (ORDER BY d NULLS FIRST),
	        cume_dist() OVER (PARTITION BY p, s ORDER BY n DESC), percent_rank() OVER (ORDER BY s, o NULLS FIRST) FROM wt`,
	`SELECT id, ntile(3) OVER (PARTITION BY p ORDER BY o, id), ntile(1000) OVER (ORDER BY id), ntile(1) OVER (),
	        ntile(NULL) OVER (ORDER BY id) FROM wt`,
	`SELECT id, lag(o) OVER (PARTITION BY p ORDER BY id), lead(n, 2) OVER (PARTITION BY p ORDER BY id),
	        lag(s, 1, 'zz') OVER (ORDER BY id), lead(o, 3, o) OVER (PARTITION BY p ORDER BY id),
	        lag(d, -2) OVER (ORDER BY id), lag(id, 0) OVER (ORDER BY o), lead(s, NULL) OVER (ORDER BY id) FROM wt`,
	`SELECT id, first_value(o) OVER (PARTITION BY p ORDER BY id), last_value(s) OVER (PARTITION BY p ORDER BY o),
	        nth_value(n, 3) OVER (PARTITION BY p ORDER BY o ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING),
	        first_value(d) OVER (PARTITION BY p) FROM wt`,
	`SELECT id, first_value(id) OVER (PARTITION BY p ORDER BY o ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING EXCLUDE CURRENT ROW),
	        last_value(id) OVER (PARTITION BY p ORDER BY o GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE TIES),
	        nth_value(id, 2) OVER (PARTITION BY p ORDER BY o RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING EXCLUDE GROUP),
	        last_value(s) OVER (ORDER BY o ROWS BETWEEN 3 FOLLOWING AND 1 FOLLOWING),
	        first_value(n) OVER (PARTITION BY p ORDER BY o GROUPS BETWEEN 2 FOLLOWING AND 5 FOLLOWING) FROM wt`,
	`SELECT id, count(*) OVER (PARTITION BY p ORDER BY o), count(o) OVER (PARTITION BY p), sum(o) OVER (PARTITION BY p ORDER BY o),
	        sum(n) OVER (PARTITION BY p ORDER BY id ROWS BETWEEN 3 PRECEDING AND 1 FOLLOWING),
	        min(d) OVER (PARTITION BY p ORDER BY id), max(n) OVER (PARTITION BY s ORDER BY o), min(o) OVER (), max(ts) OVER (ORDER BY o) FROM wt`,
	`SELECT id, sum(o) OVER (PARTITION BY p ORDER BY o GROUPS BETWEEN 2 PRECEDING AND CURRENT ROW),
	        count(n) OVER (ORDER BY o ROWS BETWEEN 5 FOLLOWING AND 10 FOLLOWING), sum(sm) OVER (PARTITION BY s ORDER BY id),
	        sum(big) OVER (PARTITION BY p ORDER BY o RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING),
	        max(sm) OVER (PARTITION BY p ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND 2 PRECEDING) FROM wt`,
	// one huge partition beside single-row ones
	`SELECT id, rank() OVER (PARTITION BY h ORDER BY o), sum(o) OVER (PARTITION BY h ORDER BY id), row_number() OVER (PARTITION BY h ORDER BY n DESC, id)
	 FROM wt`,
	`SELECT id, rank() OVER (), sum(o) OVER (), row_number() OVER (), count(*) OVER (), lag(id) OVER () FROM wt`,
	// top-N per group, a running total
	`SELECT * FROM (SELECT id, p, n, rank() OVER (PARTITION BY p ORDER BY n DESC) AS r FROM wt) x WHERE r <= 3`,
	`SELECT d, sum(o) OVER (ORDER BY d) FROM wt WHERE d IS NOT NULL ORDER BY d, 2`,
	`SELECT p, sum(o), rank() OVER (ORDER BY sum(o) DESC), sum(sum(o)) OVER (ORDER BY p) FROM wt GROUP BY p`,
	// min and max over sliding frames (range queries across blocks of
	// 256 positions), EXCLUDE on aggregates, ties and NULLs
	`SELECT id, min(o) OVER (PARTITION BY p ORDER BY id ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING),
	        max(n) OVER (ORDER BY id ROWS BETWEEN 300 PRECEDING AND 700 FOLLOWING),
	        min(d) OVER (PARTITION BY h ORDER BY o GROUPS BETWEEN 1 FOLLOWING AND 3 FOLLOWING),
	        max(ts) OVER (PARTITION BY p ORDER BY o RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING),
	        min(sm) OVER (ORDER BY o ROWS BETWEEN 5 FOLLOWING AND 2 FOLLOWING),
	        max(big) OVER (PARTITION BY s ORDER BY id ROWS BETWEEN 4000 PRECEDING AND 1 PRECEDING) FROM wt`,
	`SELECT id, sum(o) OVER (PARTITION BY p ORDER BY o ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING EXCLUDE CURRENT ROW),
	        count(n) OVER (PARTITION BY p ORDER BY o GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE GROUP),
	        count(*) OVER (ORDER BY o RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW EXCLUDE TIES),
	        min(n) OVER (PARTITION BY h ORDER BY o ROWS BETWEEN 600 PRECEDING AND 600 FOLLOWING EXCLUDE TIES),
	        max(o) OVER (PARTITION BY p ORDER BY o RANGE UNBOUNDED PRECEDING EXCLUDE GROUP),
	        sum(n) OVER (ORDER BY o GROUPS BETWEEN CURRENT ROW AND 2 FOLLOWING EXCLUDE TIES) FROM wt`,
	// avg (as sum and count), FILTER
	`SELECT id, avg(o) OVER (PARTITION BY p ORDER BY id), avg(n) OVER (ORDER BY o ROWS BETWEEN 3 PRECEDING AND 3 FOLLOWING),
	        avg(sm) OVER (PARTITION BY s), avg(big) OVER (PARTITION BY p ORDER BY o GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW),
	        avg(o) OVER (ORDER BY id ROWS BETWEEN 5 FOLLOWING AND 9 FOLLOWING EXCLUDE CURRENT ROW) FROM wt`,
	`SELECT id, count(*) FILTER (WHERE o > 3) OVER (PARTITION BY p ORDER BY id), sum(n) FILTER (WHERE s <> 'a') OVER (ORDER BY o),
	        min(d) FILTER (WHERE o IS NULL) OVER (PARTITION BY p ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING),
	        avg(o) FILTER (WHERE id % 3 = 0) OVER (PARTITION BY h) FROM wt`,
	// no rows
	`SELECT id, rank() OVER (ORDER BY o), lag(s) OVER (), sum(o) OVER (PARTITION BY p), ntile(0) OVER () FROM wt WHERE id < 0`,
	`SELECT ntile(0) OVER (ORDER BY id) FROM wt`,
	`SELECT nth_value(o, -1) OVER (ORDER BY id) FROM wt`,
	// calls the kernels refuse, run on the host (window_host.go): RANGE
	// offsets, float sums and averages, min/max over floats and
	// strings, string_agg, statistics; alone, beside device calls of the
	// same window and of other windows, first and last
	`SELECT id, avg(f) OVER (ORDER BY id), sum(f) OVER (PARTITION BY p ORDER BY o, id) FROM wt`,
	`SELECT id, sum(o) OVER (ORDER BY o RANGE BETWEEN 2 PRECEDING AND CURRENT ROW), count(*) OVER (ORDER BY o RANGE BETWEEN 1 FOLLOWING AND 3 FOLLOWING),
	        max(n) OVER (PARTITION BY p ORDER BY n RANGE BETWEEN 10.5 PRECEDING AND 2.25 FOLLOWING EXCLUDE CURRENT ROW),
	        min(id) OVER (ORDER BY d RANGE BETWEEN '30 days' PRECEDING AND '1 day' FOLLOWING),
	        count(o) OVER (ORDER BY ts DESC RANGE BETWEEN '1 hour' PRECEDING AND CURRENT ROW),
	        sum(f) OVER (ORDER BY f RANGE BETWEEN 0.5 PRECEDING AND 0.5 FOLLOWING) FROM wt`,
	`SELECT id, min(s) OVER (ORDER BY id), max(s) OVER (PARTITION BY p), max(f) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW),
	        min(f) OVER (PARTITION BY h ORDER BY o GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE GROUP) FROM wt`,
	`SELECT id, row_number() OVER (PARTITION BY p ORDER BY id), string_agg(s, ',') OVER (PARTITION BY p ORDER BY id ROWS 2 PRECEDING),
	        rank() OVER (ORDER BY o), stddev_samp(o) OVER (PARTITION BY s), sum(o) OVER (PARTITION BY p ORDER BY id),
	        avg(f) FILTER (WHERE o > 0) OVER (PARTITION BY p ORDER BY id) FROM wt`,
	`SELECT * FROM (SELECT id, p, f, avg(f) OVER (PARTITION BY p) AS a FROM wt) x WHERE f > a`,
	`SELECT id, sum(f) OVER (), bool_and(o > 0) OVER (PARTITION BY p ORDER BY id), lag(id) OVER (ORDER BY id) FROM wt WHERE id < 0`,
	// a default of another scale makes lag's results numerics of two
	// scales: each row keeps its own on the device (rowScales columns)
	`SELECT id, lag(n, 1, 0) OVER (ORDER BY id), lag(n, 1, 0) OVER (ORDER BY id) + 1 FROM wt`,
}

// writeWindowCSV writes wt: id (row order), p a partition key with NULLs
// and many single-row partitions, o an integer with ties and NULLs, n a
// numeric(12,2), d a date, s text, sm a smallint, big a bigint, h a key
// that is one value for nearly every row, ts a timestamp, f a double.
func writeWindowCSV(t *testing.T, path string, n int, rng *rand.Rand) {
	maybe := func(s string) string {
		if rng.Intn(8) == 0 {
			return ""
		}
		return s
	}
	var b strings.Builder
	for i := 0; i < n; i++ {
		p := fmt.Sprint(rng.Intn(9))
		if rng.Intn(5) == 0 {
			p = fmt.Sprint(1000 + i) // a partition of its own
		}
		h := "1"
		if rng.Intn(1000) == 0 {
			h = fmt.Sprint(2 + rng.Intn(3))
		}
		fmt.Fprintf(&b, "%d,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", i, maybe(p), maybe(fmt.Sprint(rng.Intn(40)-10)),
			maybe(fmt.Sprintf("%d.%02d", rng.Intn(2000)-1000, rng.Intn(100))),
			maybe(fmt.Sprintf("20%02d-%02d-%02d", rng.Intn(30), rng.Intn(12)+1, rng.Intn(28)+1)),
			maybe([]string{"a", "b", "", "cc", "a longer text value"}[rng.Intn(5)]),
			maybe(fmt.Sprint(rng.Intn(65536)-32768)), maybe(fmt.Sprint(rng.Int63n(1<<40)-1<<39)), h,
			maybe(fmt.Sprintf("2024-01-%02d %02d:%02d:00", rng.Intn(28)+1, rng.Intn(24), rng.Intn(60))),
			maybe(fmt.Sprint(float64(rng.Intn(1000))/8)))
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestWindowMatchesCPU compares windowQueries on the device with the CPU
// backend from 1 to 200,000 rows (tiles of the scans are 4,096 rows),
// the device's pool poisoned before each query.
func TestWindowMatchesCPU(t *testing.T) {
	skipCPUHalfUnderRace(t)
	sizedTwins{
		sizes:   []int{1, 2, 7, 1000, 4097, 70000, 200000},
		write:   csvWriter("wt.csv", 7, writeWindowCSV),
		ddl:     windowDDL,
		queries: windowQueries,
		workers: []int{4},
		checkCPU: func(t *testing.T, n, k int, q string, err error) {
			if err != nil && !strings.Contains(q, "ntile(0) OVER (ORDER BY") && !strings.Contains(q, "nth_value(o, -1)") {
				t.Errorf("%d rows: cpu: %s: %v", n, q, err)
			}
		},
		opts: twinOpts{sameMessage: true, ordered: func(q string) bool { return strings.Contains(q, "ORDER BY d, 2") }},
	}.run(t)
}

// windowDDL creates wt over the file writeWindowCSV writes.
const windowDDL = `CREATE TABLE wt (id bigint, p integer, o integer, n numeric(12,2), d date, s text, sm smallint,
	big bigint, h integer, ts timestamp, f double precision) FROM CSV 'wt.csv'`
