package gpu_test

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeNumCSV writes rows of numerics of every magnitude for the division
// tests: huge (18 digits, scale 0), tiny (scale 17), money-like (scale 2),
// small integers with zeros, signs and NULLs.
func writeNumCSV(t *testing.T, path string, n int, rng *rand.Rand) {
	var b strings.Builder
	digits := func(k int) string {
		s := fmt.Sprint(1 + rng.Intn(9))
		for len(s) < k {
			s += fmt.Sprint(rng.Intn(10))
		}
		return s
	}
	sign := func() string {
		if rng.Intn(2) == 0 {
			return "-"
		}
		return ""
	}
	null := func(s string) string {
		if rng.Intn(9) == 0 {
			return ""
		}
		return s
	}
	for i := 0; i < n; i++ {
		huge := sign() + digits(1+rng.Intn(18))
		tiny := sign() + "0." + strings.Repeat("0", rng.Intn(16)) + digits(1)
		if rng.Intn(5) == 0 {
			tiny = sign() + "9." + digits(17)[1:]
		}
		money := sign() + digits(1+rng.Intn(8)) + "." + fmt.Sprintf("%02d", rng.Intn(100))
		small := fmt.Sprint(rng.Intn(7) - 3)
		switch rng.Intn(12) {
		case 0:
			huge = "0"
		case 1:
			money = "0.00"
		case 2:
			tiny = "0"
		}
		fmt.Fprintf(&b, "%d,%s,%s,%s,%s\n", i, null(huge), null(tiny), null(money), null(small))
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// numDivQueries: numeric / and % (per-row scales: select_div_scale), the
// operators over their results, errors masked by CASE and AND, sums over
// per-row scales, ORDER BY beside them.
var numDivQueries = []string{
	`SELECT id, h / NULLIF(m, 0), m / NULLIF(i, 0), t / NULLIF(h, 0), h / NULLIF(t, 0) FROM nd WHERE abs(h) < 1e12 ORDER BY id`,
	`SELECT id, CASE WHEN i <> 0 THEN m / i END, CASE WHEN t <> 0 THEN m / t END, CASE WHEN m <> 0 THEN t / m END FROM nd ORDER BY id`,
	`SELECT id, CASE WHEN t <> 0 THEN h / t END FROM nd ORDER BY id`,
	`SELECT id, CASE WHEN m <> 0 THEN h % m END, CASE WHEN t <> 0 THEN m % t END, CASE WHEN i <> 0 THEN h % i END FROM nd ORDER BY id`,
	`SELECT id, m / 7, m / 7.000, 1 / NULLIF(m, 0), 0 / NULLIF(m, 0), m / 0.001, m % 0.03, -m / 3 FROM nd ORDER BY id`,
	`SELECT id, m / 7 + t, m / 7 - m / 3, (m / 7) * m, -(m / 7), abs(m / 7), round(m / 7, 3), round(m / 7) FROM nd ORDER BY id`,
	`SELECT id, (m / 7)::numeric(20,4), (m / 3)::integer, (m / 7)::bigint, (h / 7) % NULLIF(m, 0) FROM nd ORDER BY id`,
	`SELECT id, CASE WHEN i > 0 THEN m ELSE t END, CASE WHEN i > 0 THEN m / 3 WHEN i < 0 THEN h END FROM nd ORDER BY id`,
	`SELECT count(*) FROM nd WHERE m / 7 > t`,
	`SELECT count(*) FROM nd WHERE i <> 0 AND m / i > 10`,
	`SELECT id FROM nd WHERE m / 3 = m / 3.0 ORDER BY id`,
	`SELECT count(*) FROM nd WHERE CASE WHEN i > 0 THEN m ELSE t END > 1`,
	`SELECT sum(m / 7), avg(m / 3), count(m / 7) FROM nd`,
	`SELECT i, sum(CASE WHEN i <> 0 THEN m / i END), avg(t / 3), sum(CASE WHEN m > 0 THEN m ELSE t END) FROM nd GROUP BY i`,
	`SELECT sum(CASE WHEN i = 0 THEN NULL ELSE m / i END) FROM nd`,
	`SELECT sum(m / 7) FROM nd WHERE i IS NULL`,
	// errors: division by zero, overflow, a zero divisor masked by CASE
	`SELECT m / i FROM nd`,
	`SELECT m % i FROM nd`,
	`SELECT sum(m / i) FROM nd`,
	`SELECT count(*) FROM nd WHERE m / i > 0`,
	`SELECT h / t FROM nd WHERE t <> 0`,
	`SELECT h * 1e20 / NULLIF(t, 0) FROM nd`,
	`SELECT CASE WHEN i = 0 THEN 0 ELSE m / i END FROM nd`,
}

func TestNumericDivisionMatchesCPU(t *testing.T) {
	dev := openDev(t)
	dir := t.TempDir()
	writeNumCSV(t, filepath.Join(dir, "nd.csv"), 20000, rand.New(rand.NewSource(11)))
	cs, gs := twinSessions(t, dev, dir, `CREATE TABLE nd (id bigint, h numeric(18,0), t numeric(18,17), m numeric(10,2), i integer) FROM CSV 'nd.csv'`)
	refused := compareSessions(t, cs, gs, numDivQueries, twinOpts{ordered: ordered})
	for _, q := range refused {
		t.Errorf("refused: %s", q)
	}
	t.Logf("%d of %d queries matched the CPU backend; %d refused", len(numDivQueries)-len(refused), len(numDivQueries), len(refused))
}
