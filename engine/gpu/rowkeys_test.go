package gpu_test

import (
	"fmt"
	"math/rand"
	"os"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/cuda"
)

// writeRowKeysCSV writes few distinct values, so that ties are common:
// numerics that tie across scales (1.50 in a, 1.5000 in b, 1.5 as a
// double), zeros, signs, extremes, NULLs, and timestamps whose
// differences repeat (equal spans).
func writeRowKeysCSV(t *testing.T, path string, n int, rng *rand.Rand) {
	as := []string{"1.50", "-1.50", "0.00", "2.00", "0.10", "", "99999999.99", "-99999999.99", "0.01", "3.00"}
	bs := []string{"1.5000", "-1.5000", "0.0000", "2.0000", "0.1000", "0.0001", "", "99999999.9999", "-0.0001", "3"}
	fs := []string{"1.5", "-1.5", "0", "2", "0.1", "1e-300", "1e20", "", "-2.5e-7", "123456789012345"}
	cs := []string{"-3", "-2", "-1", "0", "1", "2", "3", "", "1", "2"}
	ts := []string{"2020-01-01 00:00:00", "2020-01-31 00:00:00", "2020-03-01 12:00:00", "2019-12-02 00:00:00", "2020-01-01 00:00:00.000001", ""}
	var b strings.Builder
	pick := func(s []string) string { return s[rng.Intn(len(s))] }
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "%d,%s,%s,%s,%s,%s,%s\n", i, pick(as), pick(bs), pick(fs), pick(cs), pick(ts), pick(ts))
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// iv is an interval column made of spans that are equal in several forms
// ('1 mon', '30 days', '720 hours'), timestamp differences (negative
// ones too), negatives and NULLs.
const iv = `CASE WHEN c = 1 THEN interval '1 mon' WHEN c = 2 THEN interval '30 days' WHEN c = 3 THEN interval '720 hours' WHEN c = 0 THEN -interval '1 mon' WHEN c < 0 THEN t1 - t0 END`

// sq is a numeric whose scale varies by row: a CASE over scales 2 and 4.
const sq = `CASE WHEN c > 0 THEN a ELSE b END`

// rowKeyQueries: numerics whose scale varies by row (quotients, CASE over
// scales, double to numeric) as ORDER BY and GROUP BY keys, in coalesce()
// and as text; intervals as GROUP BY keys, in min/max, CASE and coalesce.
var rowKeyQueries = []string{
	`SELECT id, a / NULLIF(c, 0) FROM rk ORDER BY 2`,
	`SELECT id, a / NULLIF(c, 0) AS q FROM rk ORDER BY q DESC NULLS FIRST, id`,
	`SELECT id, ` + sq + ` FROM rk ORDER BY 2 DESC`,
	`SELECT id, ` + sq + ` FROM rk ORDER BY 2 NULLS FIRST LIMIT 7`,
	`SELECT id, f::numeric FROM rk ORDER BY 2, id DESC`,
	`SELECT id, b / NULLIF(a, 0) FROM rk ORDER BY 2 DESC LIMIT 5 OFFSET 3`,
	`SELECT id, coalesce(a / NULLIF(c, 0), 0) FROM rk ORDER BY 2, 1`,
	`SELECT id, coalesce(a / NULLIF(c, 0), 0), coalesce(b, a), coalesce(a, b, 0), coalesce(NULLIF(a, 0), f::numeric, b / 3) FROM rk ORDER BY id`,
	`SELECT count(*) FROM rk WHERE coalesce(a, b) = 1.5`,
	`SELECT id, a / c FROM rk ORDER BY 2`,
	`SELECT ` + sq + ` AS v, count(*), sum(c) FROM rk GROUP BY 1`,
	`SELECT a / NULLIF(c, 0) AS q, count(*) FROM rk GROUP BY 1 ORDER BY 1`,
	`SELECT f::numeric, c, count(*), min(a) FROM rk GROUP BY 1, 2`,
	`SELECT coalesce(a, b), count(*) FROM rk GROUP BY 1 HAVING count(*) > 1`,
	`SELECT ` + sq + `, count(DISTINCT c), count(DISTINCT ` + sq + `) FROM rk GROUP BY 1`,
	`SELECT count(DISTINCT f::numeric), count(DISTINCT a / NULLIF(c, 0)) FROM rk`,
	`SELECT sum(DISTINCT a), avg(DISTINCT a / NULLIF(c, 0)), sum(DISTINCT t1 - t0), avg(DISTINCT t1 - t0) FROM rk`,
	`SELECT c % 5, sum(DISTINCT a / NULLIF(c, 0)), avg(DISTINCT b) FROM rk GROUP BY 1`,
	`SELECT id, (a / NULLIF(c, 0))::text, (f::numeric)::text, (` + sq + `)::text, coalesce(a, b)::varchar(6) FROM rk ORDER BY id`,
	`SELECT count(*) FROM rk WHERE (a / NULLIF(c, 0))::text LIKE '%5%'`,
	`SELECT ` + iv + `, count(*) FROM rk GROUP BY 1`,
	`SELECT t1 - t0, count(*), min(c) FROM rk GROUP BY 1`,
	`SELECT c, min(t1 - t0), max(t1 - t0), min(` + iv + `), max(` + iv + `) FROM rk GROUP BY c`,
	`SELECT min(` + iv + `), max(` + iv + `), count(` + iv + `) FROM rk`,
	`SELECT min(t1 - t0) FROM rk WHERE id < 0`,
	`SELECT id, coalesce(CASE WHEN c > 0 THEN t1 - t0 END, interval '1 mon'), CASE WHEN c IS NULL THEN NULL ELSE -(t1 - t0) END, ` + iv + ` FROM rk ORDER BY id`,
	`SELECT id, ` + iv + ` FROM rk ORDER BY 2 DESC, 1`,
	`SELECT count(*) FROM rk WHERE ` + iv + ` = interval '30 days'`,
	`SELECT ` + iv + `, ` + sq + `, count(*) FROM rk GROUP BY 1, 2`,
	`SELECT t0 + coalesce(` + iv + `, interval '1 day') FROM rk ORDER BY 1`,
}

// poisonPool fills blocks of many sizes with 0xAB and gives them back to
// the device's pool, which hands them out again as query scratch: a
// value the kernels fail to write shows as garbage.
func poisonPool(t *testing.T, dev *cuda.Device) {
	for sz := int64(8); sz <= 8<<20; sz *= 2 {
		for k := 0; k < 3; k++ {
			b, err := dev.Alloc("", sz)
			if err != nil {
				t.Fatal(err)
			}
			if err := dev.Memset8(b.Ptr(), 0xAB, sz, nil); err != nil {
				t.Fatal(err)
			}
			defer b.Free()
		}
	}
}

// TestRowKeysMatchCPU compares the queries of rowKeyQueries on the device
// with the CPU backend (1 and 8 workers) at 1, 5,000 and 70,000 rows. The
// CPU results are computed first, so that the queries are checked (bound
// and run) where no GPU exists too.
func TestRowKeysMatchCPU(t *testing.T) {
	skipCPUHalfUnderRace(t)
	sizedTwins{
		sizes:   []int{1, 5000, 70000},
		write:   csvWriter("rk.csv", 0, writeRowKeysCSV),
		ddl:     `CREATE TABLE rk (id bigint, a numeric(10,2), b numeric(12,4), f double precision, c integer, t0 timestamp, t1 timestamp) FROM CSV 'rk.csv'`,
		queries: rowKeyQueries,
		checkCPU: func(t *testing.T, n, k int, q string, err error) {
			if err != nil && !strings.Contains(q, "a / c") {
				t.Errorf("%d rows: %s: %v", n, q, err)
			}
		},
		opts: twinOpts{ordered: ordered},
	}.run(t)
}
