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

// Joins, semi and anti joins, decorrelated subqueries, derived tables and
// set operations on the device, compared with the CPU backend (the GPU
// join's twin) over tables with NULL and duplicate keys, strings of
// several widths, numerics of two scales, -0 and NaN, and an empty table.
var joinQueries = []string{
	`SELECT a.id, b.id FROM ja a JOIN jb b ON a.k = b.k`,
	`SELECT a.id, b.id, a.s, b.s FROM ja a JOIN jb b ON a.s = b.s WHERE a.k > 100`,
	`SELECT a.id, b.id FROM ja a JOIN jb b ON a.c = b.c WHERE a.id < 40 AND b.id < 300`,
	`SELECT a.id, b.id FROM ja a JOIN jb b ON a.c = b.s WHERE a.id < 40`,
	`SELECT a.id, b.id FROM ja a JOIN jb b ON a.n = b.n0 WHERE a.id < 500`,
	`SELECT a.id, b.id FROM ja a JOIN jb b ON a.f = b.f WHERE a.id < 30 AND b.id < 400`,
	`SELECT a.id, b.id FROM ja a JOIN jb b ON a.d = b.d AND a.k = b.k`,
	`SELECT a.id, b.id FROM ja a JOIN jb b ON a.k8 = b.k`,
	`SELECT a.id, b.id FROM ja a JOIN jb b ON a.k + 1 = b.k AND lower(a.s) = b.s`,
	`SELECT a.id, b.id, a.n, b.n FROM ja a JOIN jb b ON a.k = b.k AND a.n > b.n`,
	`SELECT a.id, b.id, b.s FROM ja a LEFT JOIN jb b ON a.k = b.k`,
	`SELECT a.id, b.id, b.s FROM ja a LEFT JOIN jb b ON a.k = b.k AND b.n < 50`,
	`SELECT a.id, b.id FROM ja a RIGHT JOIN jb b ON a.k = b.k`,
	`SELECT a.id, b.id FROM ja a FULL JOIN jb b ON a.k = b.k`,
	`SELECT a.id, b.id FROM ja a FULL JOIN jb b ON a.k = b.k AND a.d < b.d`,
	`SELECT a.id, b.id FROM ja a, jb b WHERE a.k = b.k AND a.flag AND b.n BETWEEN 10 AND 60`,
	`SELECT a.id FROM ja a WHERE EXISTS (SELECT 1 FROM jb b WHERE b.k = a.k)`,
	`SELECT a.id FROM ja a WHERE NOT EXISTS (SELECT 1 FROM jb b WHERE b.k = a.k)`,
	`SELECT a.id FROM ja a WHERE EXISTS (SELECT 1 FROM jb b WHERE b.k = a.k AND b.id <> a.id)`,
	`SELECT a.id FROM ja a WHERE NOT EXISTS (SELECT 1 FROM jb b WHERE b.k = a.k AND b.n > a.n)`,
	`SELECT a.id FROM ja a WHERE a.k IN (SELECT k FROM jb WHERE n > 20)`,
	`SELECT a.id FROM ja a WHERE a.k NOT IN (SELECT k FROM jb WHERE n > 20)`,
	`SELECT a.id FROM ja a WHERE a.k NOT IN (SELECT k FROM jb WHERE k IS NOT NULL)`,
	`SELECT a.id FROM ja a WHERE a.k NOT IN (SELECT k FROM je)`,
	`SELECT a.id, (SELECT count(*) FROM jb b WHERE b.k = a.k) FROM ja a`,
	`SELECT a.id FROM ja a WHERE a.n > (SELECT avg(b.n) FROM jb b WHERE b.k = a.k)`,
	`SELECT a.id, (SELECT max(b.s) FROM jb b WHERE b.k = a.k AND b.d = a.d) FROM ja a`,
	`SELECT a.id, b.id FROM ja a JOIN je b ON a.k = b.k`,
	`SELECT a.id, b.id FROM ja a LEFT JOIN je b ON a.k = b.k`,
	`SELECT a.id, b.id FROM (SELECT * FROM ja WHERE id < 30) a CROSS JOIN (SELECT * FROM jb WHERE id < 20) b`,
	`SELECT a.id, b.id FROM ja a JOIN jb b ON a.id < b.id AND a.id + 3 > b.id WHERE a.id < 300`,
	`SELECT x.k, x.v, y.id FROM (SELECT k, n * 2 AS v, upper(s) AS u FROM ja WHERE flag) x JOIN jb y ON x.k = y.k AND x.u = upper(y.s)`,
	`WITH q AS (SELECT k, sum(n) AS t, count(*) AS c FROM jb GROUP BY k) SELECT a.id, q.t, q.c FROM ja a JOIN q ON q.k = a.k`,
	`WITH q AS (SELECT k FROM jb WHERE n > 50) SELECT count(*) FROM q q1 JOIN q q2 ON q1.k = q2.k`,
	`SELECT a.k, count(*), sum(b.n), min(b.s), max(a.d) FROM ja a JOIN jb b ON a.k = b.k GROUP BY a.k`,
	`SELECT count(*), count(b.id), sum(b.n) FROM ja a LEFT JOIN jb b ON a.k = b.k`,
	`SELECT a.id, a2.id FROM ja a JOIN ja a2 ON a.k = a2.k AND a.id < a2.id`,
	`SELECT a.id, b.id, c.id FROM ja a JOIN jb b ON a.k = b.k JOIN ja c ON c.s = b.s WHERE a.id < 200`,
	`SELECT k, s FROM ja UNION ALL SELECT k, s FROM jb`,
	`SELECT k, s FROM ja UNION SELECT k, s FROM jb`,
	`SELECT k, s FROM ja INTERSECT SELECT k, s FROM jb`,
	`SELECT a.id, b.id FROM ja a JOIN jb b ON a.s = b.s WHERE a.id < 100`,
	`SELECT k, s FROM ja EXCEPT SELECT k, s FROM jb`,
	`SELECT n FROM ja UNION ALL SELECT n0 FROM jb`,
	// gathers of every row width (jw), and of no row (LEFT JOIN's -1)
	`SELECT a.id, w.* FROM ja a JOIN jw w ON a.k = w.k`,
	`SELECT a.id, w.id, w.h, w.b, w.s3, w.s25, w.s65, w.s101 FROM ja a LEFT JOIN jw w ON a.k = w.k AND w.id % 3 = 0`,
	`SELECT w.s12, w.s24, w.s64, w.s100, b.s FROM jw w JOIN jb b ON w.k = b.k AND w.g > 0`,
	// counts of duplicates: NULLs, -0 and NaN, strings, an empty side
	`SELECT k, s FROM ja INTERSECT ALL SELECT k, s FROM jb`,
	`SELECT k, s FROM ja EXCEPT ALL SELECT k, s FROM jb`,
	// (f + 0 turns -0 into 0: a group of -0 and 0 shows either, on both
	// backends as in PostgreSQL, which shows the one its hash table met first)
	`SELECT k % 5, c, f + 0 FROM jb INTERSECT ALL SELECT k % 5, c, f + 0 FROM ja`,
	`SELECT k % 5, c, f::text FROM jb EXCEPT ALL SELECT k % 5, c, f::text FROM ja`,
	`SELECT n, d FROM ja EXCEPT ALL SELECT n0, d FROM jb`,
	`SELECT k FROM ja INTERSECT ALL SELECT k FROM je`,
	`SELECT k FROM ja EXCEPT ALL SELECT k FROM je`,
	`SELECT k FROM je EXCEPT ALL SELECT k FROM ja`,
	`SELECT a.id, b.id FROM ja a JOIN jb b ON a.k = b.k ORDER BY a.id, b.id LIMIT 25`,
	`SELECT a.id, b.s FROM ja a JOIN jb b ON a.k = b.k WHERE b.s LIKE 'w1%' OR a.n < 5`,
	// semi and anti joins of a few left rows: built on the left (markLeft)
	`SELECT a.id FROM ja a WHERE a.id < 40 AND EXISTS (SELECT 1 FROM jb b WHERE b.k = a.k)`,
	`SELECT a.id FROM ja a WHERE a.id < 40 AND NOT EXISTS (SELECT 1 FROM jb b WHERE b.k = a.k)`,
	`SELECT a.id FROM ja a WHERE a.id < 40 AND EXISTS (SELECT 1 FROM jb b WHERE b.k = a.k AND b.s = a.s)`,
	`SELECT a.id FROM ja a WHERE a.id < 40 AND NOT EXISTS (SELECT 1 FROM jb b WHERE b.c = a.c AND b.d = a.d)`,
	`SELECT a.id FROM ja a WHERE a.id < 40 AND a.k IN (SELECT k FROM jb)`,
	`SELECT a.id FROM ja a WHERE a.id < 40 AND a.n IN (SELECT n0 FROM jb)`,
	`SELECT a.id FROM ja a WHERE a.id < 40 AND a.k NOT IN (SELECT k FROM jb WHERE k IS NOT NULL)`,
	`SELECT a.id FROM ja a WHERE a.id < 40 AND a.k NOT IN (SELECT k FROM jb)`,
	`SELECT a.id FROM ja a WHERE a.id < 40 AND a.f NOT IN (SELECT f FROM jb WHERE f IS NOT NULL)`,
	// ... and with a residual: the candidate pairs come from the right rows
	`SELECT a.id FROM ja a WHERE a.id < 40 AND EXISTS (SELECT 1 FROM jb b WHERE b.k = a.k AND b.id <> a.id)`,
	`SELECT a.id FROM ja a WHERE a.id < 40 AND NOT EXISTS (SELECT 1 FROM jb b WHERE b.k = a.k AND b.n > a.n)`,
	`SELECT a.id FROM ja a WHERE a.id < 40 AND EXISTS (SELECT 1 FROM jb b WHERE b.s = a.s AND b.d <> a.d)`,
	`SELECT a.id, a.k FROM ja a WHERE a.id < 60 AND EXISTS (SELECT 1 FROM ja a2 WHERE a2.k = a.k AND a2.id <> a.id) AND NOT EXISTS (SELECT 1 FROM ja a3 WHERE a3.k = a.k AND a3.id <> a.id AND a3.n > a.n)`,
}

// writeJoinTable writes n rows of the join tables' columns: id, k (keys
// 0..keys-1 with duplicates, NULLs), k8, s (text of 0 to 9 bytes), c
// (char(5)), n (numeric(10,2)), n0 (numeric(8,0)), d (date), f (double:
// -0, NaN, Infinity among them), flag.
func writeJoinTable(t *testing.T, path string, n, keys int, rng *rand.Rand) {
	var b strings.Builder
	floats := []string{"0", "-0", "NaN", "1.5", "-2.25", "Infinity", "3"}
	for i := 0; i < n; i++ {
		null := func(s string, p int) string {
			if rng.Intn(p) == 0 {
				return ""
			}
			return s
		}
		k := rng.Intn(keys)
		fmt.Fprintf(&b, "%d,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", i,
			null(fmt.Sprint(k), 9),
			null(fmt.Sprint(k), 11),
			null(`"`+strings.Repeat(string(rune('v'+k%3)), k%10)+fmt.Sprint(k%7)+`"`, 8),
			null(fmt.Sprintf("c%d", k%4), 10),
			null(fmt.Sprintf("%d.%02d", rng.Intn(100), []int{0, 50, 25, 1}[rng.Intn(4)]), 12),
			null(fmt.Sprint(rng.Intn(100)), 12),
			null(fmt.Sprintf("2024-0%d-1%d", 1+k%3, rng.Intn(3)), 10),
			null(floats[rng.Intn(len(floats))], 10),
			null([]string{"t", "f"}[rng.Intn(2)], 13))
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// wideCols are table jw's: strings as wide as their widest value (3, 12,
// 24, 25, 64, 65, 100 and 101 bytes), besides 1-, 2-, 4- and 8-byte
// values, so that the join's gather meets every width class (join.cu).
const wideCols = `(id integer, k integer, h smallint, b boolean, g bigint, s3 text, s12 text, s24 text, s25 text, s64 text, s65 text, s100 text, s101 text)`

// writeWideTable writes n rows of jw: keys as writeJoinTable's, each
// string column holding values of every length up to its width (the
// first row at the full width), a tenth of the values NULL.
func writeWideTable(t *testing.T, path string, n, keys int, rng *rand.Rand) {
	var b strings.Builder
	widths := []int{3, 12, 24, 25, 64, 65, 100, 101}
	for i := 0; i < n; i++ {
		null := func(s string) string {
			if i > 0 && rng.Intn(10) == 0 {
				return ""
			}
			return s
		}
		fmt.Fprintf(&b, "%d,%s,%s,%s,%s", i, null(fmt.Sprint(rng.Intn(keys))), null(fmt.Sprint(rng.Intn(60000)-30000)),
			null([]string{"t", "f"}[rng.Intn(2)]), null(fmt.Sprint(rng.Int63()-rng.Int63())))
		for _, w := range widths {
			l := w
			if i > 0 {
				l = rng.Intn(w + 1)
			}
			v := make([]byte, l)
			for j := range v {
				v[j] = byte('a' + rng.Intn(26))
			}
			fmt.Fprintf(&b, ",%s", null(`"`+string(v)+`"`))
		}
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestJoinsMatchCPU runs joinQueries on both backends at several sizes,
// the device's pool poisoned before each query. Every query must run on
// the device (no 0A000) and give the CPU backend's rows (compared as
// sorted lists, but for ORDER BY ... LIMIT).
//
// The CPU results are computed first, so that the queries are bound and
// run where no GPU exists too.
func TestJoinsMatchCPU(t *testing.T) {
	skipCPUHalfUnderRace(t)
	host := loader.NewCPU(loader.Config{})
	const cols = `(id integer, k integer, k8 bigint, s text, c char(5), n numeric(10,2), n0 numeric(8,0), d date, f double precision, flag boolean)`
	for _, size := range []struct{ a, b, keys int }{{1, 1, 1}, {200, 150, 40}, {5000, 3000, 700}, {60000, 20000, 9000}} {
		t.Run(fmt.Sprintf("%dx%d", size.a, size.b), func(t *testing.T) {
			dir := t.TempDir()
			rng := rand.New(rand.NewSource(int64(size.a)))
			writeJoinTable(t, filepath.Join(dir, "ja.csv"), size.a, size.keys, rng)
			writeJoinTable(t, filepath.Join(dir, "jb.csv"), size.b, size.keys, rng)
			if err := os.WriteFile(filepath.Join(dir, "je.csv"), nil, 0o644); err != nil {
				t.Fatal(err)
			}
			writeWideTable(t, filepath.Join(dir, "jw.csv"), size.b, size.keys, rng)
			ddl := []string{
				"CREATE TABLE ja " + cols + " FROM CSV 'ja.csv'",
				"CREATE TABLE jb " + cols + " FROM CSV 'jb.csv'",
				"CREATE TABLE je " + cols + " FROM CSV 'je.csv'",
				"CREATE TABLE jw " + wideCols + " FROM CSV 'jw.csv'",
			}
			cs := newSession(t, dir, cpu.New(host, 0), ddl...)
			type result struct {
				rows []string
				err  error
			}
			cpuRes := make([]result, len(joinQueries))
			for i, q := range joinQueries {
				rows, err := runSQL(t, cs, q)
				if engine.Code(err) == engine.CodeFeatureNotSupported || engine.Code(err) == engine.CodeInternalError {
					t.Errorf("%s: on the CPU: %v", q, err)
				}
				cpuRes[i] = result{rows, err}
			}
			dev := openDev(t)
			gs := newSession(t, dir, gpu.New(dev, gpu.HostLoader{Dev: dev, Host: host}), ddl...)
			for i, q := range joinQueries {
				want, werr := cpuRes[i].rows, cpuRes[i].err
				poisonPool(t, dev)
				got, gerr := runSQL(t, gs, q)
				if gerr != nil && engine.Code(gerr) == engine.CodeFeatureNotSupported {
					t.Errorf("%s: not run on the GPU: %v", q, gerr)
					continue
				}
				if engine.Code(werr) != engine.Code(gerr) {
					t.Errorf("%s\n cpu error %v\n gpu error %v", q, werr, gerr)
					continue
				}
				if !ordered(q) {
					sort.Strings(want)
					sort.Strings(got)
				}
				if d := rowDiff(want, got); d != "" {
					t.Errorf("%s: %s", q, d)
				}
			}
			if n := dev.Usage()[""]; n > 0 {
				t.Errorf("%d bytes of query scratch still held after the queries", n)
			}
		})
	}
}
