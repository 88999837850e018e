package gpu_test

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCmpFilterMatchesCPU compares filters that q_cmpfilter runs
// (comparisons of integer, date, timestamp and time columns with
// constants, under AND) with the CPU backend, over columns with NULLs
// and each type's extremes, with constants at and beyond them.
func TestCmpFilterMatchesCPU(t *testing.T) {
	dev := openDev(t)
	dir := t.TempDir()
	rng := rand.New(rand.NewSource(17))
	pick := func(vals ...string) string { return vals[rng.Intn(len(vals))] }
	var b strings.Builder
	const n = 300000
	for i := 0; i < n; i++ {
		null := func(s string) string {
			if rng.Intn(10) == 0 {
				return ""
			}
			return s
		}
		fmt.Fprintf(&b, "%d,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", i,
			null(pick("-32768", "32767", "0", "-1", fmt.Sprint(rng.Intn(200)-100))),
			null(pick("-2147483648", "2147483647", "0", fmt.Sprint(rng.Int31()-1<<30))),
			null(pick("-9223372036854775808", "9223372036854775807", "1000004", fmt.Sprint(rng.Int63()-1<<62), fmt.Sprint(rng.Intn(1000)))),
			null(pick("0001-01-01", "9999-12-31", "1994-01-01", fmt.Sprintf("199%d-%02d-%02d", rng.Intn(10), rng.Intn(12)+1, rng.Intn(28)+1))),
			null(pick("0001-01-01 00:00:00", "9999-12-31 23:59:59.999999", "2000-01-01 10:00:00",
				fmt.Sprintf("20%02d-%02d-%02d %02d:%02d:%02d.%06d", rng.Intn(30), rng.Intn(12)+1, rng.Intn(28)+1, rng.Intn(24), rng.Intn(60), rng.Intn(60), rng.Intn(1000000)))),
			null(pick("00:00:00", "24:00:00", "12:00:00", fmt.Sprintf("%02d:%02d:%02d", rng.Intn(24), rng.Intn(60), rng.Intn(60)))),
			null(pick("-0", "0", "NaN", "Infinity", "-Infinity", "1e308", "-2.5", fmt.Sprint(rng.NormFloat64()))),
			null(pick("-0", "NaN", "3.4e38", "1.5", fmt.Sprint(float32(rng.NormFloat64())))),
			null(pick("-9999999999.99", "9999999999.99", "0.00", fmt.Sprintf("%d.%02d", rng.Intn(2000)-1000, rng.Intn(100)))),
			null(pick("true", "false")))
	}
	if err := os.WriteFile(filepath.Join(dir, "ct.csv"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cs, gs := twinSessions(t, dev, dir, `CREATE TABLE ct (id bigint, a smallint, b integer, c bigint, d date, ts timestamp, tm time, f double precision, r real, m numeric(12,2), g boolean) FROM CSV 'ct.csv'`)
	wheres := []string{
		`c = 1000004`, `1000004 = c`, `c <> 1000004`, `c < 0`, `c >= 9223372036854775807`, `c <= -9223372036854775808`,
		`a = -32768`, `a > 32766`, `a < 40000`, `a >= -40000`, `-1 >= a`, `a <> 0 AND a > -5 AND a < 5`,
		`b = 2147483647`, `b < -2147483647`, `b >= 9000000000`, `b <> 9000000000`, `b > 0 AND c > 0`,
		`d >= date '1994-01-01' AND d < date '1995-01-01'`, `d = date '0001-01-01'`, `d > date '9999-12-30'`,
		`ts > timestamp '2000-01-01 10:00:00'`, `ts <= timestamp '0001-01-01 00:00:00'`, `ts >= timestamp '9999-12-31 23:59:59.999999'`,
		`tm = time '24:00:00'`, `tm < time '00:00:01'`, `tm >= time '12:00' AND tm <> time '12:00:00'`,
		`a > 0 AND b > 0 AND c > 0 AND d > date '1990-06-01' AND ts > timestamp '2010-01-01' AND tm > time '06:00'`,
		`id >= 1000 AND id < 1200`, `id = -1`,
	}
	// sorts by plain columns (q_colkeys) over every row
	compareSessions(t, cs, gs, []string{
		"SELECT id, a, b FROM ct ORDER BY a NULLS FIRST, b DESC NULLS LAST, id LIMIT 100",
		"SELECT id, f FROM ct ORDER BY f DESC, id LIMIT 100",
		"SELECT id, r, g FROM ct ORDER BY r, g DESC, id LIMIT 100",
		"SELECT m, id FROM ct ORDER BY m DESC NULLS LAST, id OFFSET 1000 LIMIT 100",
		"SELECT d, ts, tm, id FROM ct ORDER BY d, ts DESC, tm, id LIMIT 100",
		"SELECT id, c FROM ct ORDER BY c, id",
	}, twinOpts{noErrors: true})
	for _, w := range wheres {
		compareSessions(t, cs, gs, []string{
			"SELECT id, a, b, c, d, ts, tm FROM ct WHERE " + w + " ORDER BY id",
			"SELECT id FROM ct WHERE " + w + " ORDER BY c DESC, id LIMIT 7",
			"SELECT id, f, m FROM ct WHERE " + w + " ORDER BY f NULLS FIRST, m DESC, id LIMIT 50",
		}, twinOpts{noErrors: true})
	}
}
