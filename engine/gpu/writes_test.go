package gpu_test

import (
	"fmt"
	"math/rand"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/cpu"
	"github.com/gpusql/gpusql/engine/gpu"
	"github.com/gpusql/gpusql/loader"
)

// writeStatements are TestWritesMatchCPU's script: CREATE TABLE AS,
// SELECT INTO, INSERT of queries and of VALUES (a longer string than any
// stored widens the column; NULLs at row counts off the bitmap words),
// unconstrained numerics at two scales, UNION ALL of strings of two
// widths, TRUNCATE, renames and a temporary table.
var writeStatements = []string{
	`CREATE TABLE a AS SELECT * FROM src WHERE id % 3 = 0`,
	`INSERT INTO a SELECT * FROM src WHERE id % 3 = 1 AND qty > 5`,
	`INSERT INTO a VALUES (-1, 1, 1.5, 0.1, 'Z', '2024-02-29', 1.25, 'a name longer than any name in the file'), (-2, NULL, NULL, NULL, NULL, NULL, NULL, NULL)`,
	`INSERT INTO a (id, name) SELECT id, name FROM src WHERE id < 70`,
	`INSERT INTO a (id, flag) VALUES (-3, 'Q')`,
	`SELECT id, flag, price * qty AS amount, name || '!' AS tagged, ship + 1 AS next INTO b FROM a WHERE qty IS NOT NULL`,
	`CREATE TABLE c AS SELECT flag, count(*) AS n, sum(price) AS total, avg(f) AS mean FROM a GROUP BY flag`,
	`INSERT INTO c SELECT flag, count(*), sum(price * 2), avg(f) FROM src GROUP BY flag`,
	`INSERT INTO c VALUES ('X', 1, 1.125, 0)`,
	`CREATE TABLE e AS SELECT * FROM src WITH NO DATA`,
	`INSERT INTO e SELECT * FROM src WHERE id < 10`,
	`INSERT INTO e SELECT * FROM e`,
	`CREATE TABLE u AS SELECT id, name FROM src WHERE id < 100 UNION ALL SELECT id, name || ' with a much longer suffix' FROM src WHERE id >= 100 AND id < 150`,
	`INSERT INTO u SELECT id, name FROM u WHERE id < 10`,
	`TRUNCATE a`,
	`INSERT INTO a SELECT * FROM src WHERE id < 5`,
	`ALTER TABLE b RENAME TO b2`,
	`ALTER TABLE b2 RENAME COLUMN amount TO amt`,
	`CREATE TEMP TABLE tt AS SELECT id, name FROM src WHERE name IS NOT NULL ORDER BY id LIMIT 3`,
	`INSERT INTO tt SELECT id, name FROM src WHERE id BETWEEN 200 AND 260`,
}

// writeTables are the tables writeStatements leave, read after each
// statement.
var writeTables = []string{"a", "b2", "c", "e", "u", "tt"}

// TestWritesMatchCPU runs writeStatements on the CPU backend and on the
// GPU backend as the server builds it (the GPU loader, whose Concat
// appends on the device), the pool poisoned before each statement, and
// compares every table's rows after each statement. Dropping the tables
// returns the device memory to its baseline, measured after a first
// round.
func TestWritesMatchCPU(t *testing.T) {
	dir := t.TempDir()
	writeCSV(t, filepath.Join(dir, "src.csv"), 3000, rand.New(rand.NewSource(11)))
	ddl := `CREATE TABLE src (id bigint, qty integer, price numeric(12,2), disc numeric(4,2), flag char(1), ship date, f double precision, name text) FROM CSV 'src.csv'`
	host := loader.NewCPU(loader.Config{})
	drop := []string{`DROP TABLE a, b2, c, e, u`, `DISCARD TEMP`}
	// read is every table's rows, sorted (or its SQLSTATE).
	read := func(run func(string) ([]string, error)) string {
		var b strings.Builder
		for _, name := range writeTables {
			rows, err := run(`SELECT * FROM ` + name)
			if err != nil {
				fmt.Fprintf(&b, "%s: %s\n", name, engine.Code(err))
				continue
			}
			sort.Strings(rows)
			fmt.Fprintf(&b, "%s: %d rows\n%s\n", name, len(rows), strings.Join(rows, "\n"))
		}
		return b.String()
	}

	cs := newSession(t, dir, cpu.New(host, 4), ddl)
	want := make([]string, len(writeStatements))
	for k, sql := range writeStatements {
		if _, err := runSQL(t, cs, sql); err != nil {
			t.Fatalf("cpu: %s: %v", sql, err)
		}
		want[k] = read(func(q string) ([]string, error) { return runSQL(t, cs, q) })
	}

	dev := openDev(t)
	b := gpu.New(dev, loader.NewGPU(dev, loader.GPUConfig{}))
	gs := newSession(t, dir, b, ddl)
	for round := 0; round < 2; round++ {
		base := b.DeviceMemoryInUse()
		for k, sql := range writeStatements {
			poisonPool(t, dev)
			if _, err := runSQL(t, gs, sql); err != nil {
				t.Fatalf("round %d: gpu: %s: %v", round, sql, err)
			}
			if k == 0 && dev.Usage()["a"] == 0 {
				t.Fatalf("%s: no device memory is charged to table a", sql)
			}
			got := read(func(q string) ([]string, error) { return runSQL(t, gs, q) })
			if got != want[k] {
				t.Fatalf("round %d: after %s\n%s", round, sql, firstDifference(want[k], got))
			}
		}
		for _, sql := range drop {
			if _, err := runSQL(t, gs, sql); err != nil {
				t.Fatalf("gpu: %s: %v", sql, err)
			}
		}
		if m := b.DeviceMemoryInUse(); round > 0 && m != base {
			t.Errorf("round %d: %d bytes of device memory in use after the DROPs, want the baseline %d", round, m, base)
		}
	}
}

// firstDifference shows the first line where got differs from want.
func firstDifference(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return fmt.Sprintf("line %d\n cpu: %s\n gpu: %s", i+1, a, b)
		}
	}
	return ""
}
