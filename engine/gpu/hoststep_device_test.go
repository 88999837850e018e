package gpu_test

import (
	"fmt"
	"math/rand"
	"os"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// writeStepCSV writes hs: type OIDs (known, unknown, NULL), relation
// names (system, user, missing, quoted, upper case, empty, multibyte,
// NULL), role OIDs and sizes.
func writeStepCSV(t *testing.T, path string, n int, rng *rand.Rand) {
	os_ := []string{"16", "20", "23", "25", "1043", "1700", "0", "99999", "", "2205", "1259"}
	rs := []string{"pg_class", "pg_type", "hs", "nosuch", "PG_CLASS", `"pg_class"`, "pg_catalog.pg_namespace", `""`, "", "é", "pg_attribute"}
	us := []string{"10", "0", "99", "", "1"}
	szs := []string{"0", "1", "1023", "1024", "10240", "123456789", "-5", "9223372036854775807", "", "10485760", "-99999999999"}
	pick := func(s []string) string { return s[rng.Intn(len(s))] }
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "%d,%s,%s,%s,%s\n", i, pick(os_), pick(rs), pick(us), pick(szs))
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// known are the names of rs the regclass casts resolve.
const known = `('pg_class', 'pg_type', 'hs', 'PG_CLASS', '"pg_class"', 'pg_catalog.pg_namespace', 'pg_attribute')`

// stepQueries run host steps over user columns: catalog functions in the
// select list, WHERE, GROUP BY, aggregate arguments and ORDER BY, reg*
// casts of a text and of an integer column (one raising 42P01 on the
// missing relation), correlated subqueries over pg_class, host functions
// under CASE, AND and OR whose other rows would fail, nested host
// functions and device functions over their results. stepErrors marks the
// queries that fail, on both backends alike.
var stepQueries = []string{
	`SELECT id, format_type(o, NULL), pg_size_pretty(sz), pg_get_userbyid(u) FROM hs ORDER BY id`,
	`SELECT id, to_regclass(r)::text, to_regtype(r)::text FROM hs WHERE r <> '""' ORDER BY id`,
	`SELECT id, r::regclass::text FROM hs WHERE r IN ` + known + ` ORDER BY id`,
	`SELECT id, r::regclass::text FROM hs ORDER BY id`,
	`SELECT id, o::regtype::text, o::regclass::text FROM hs ORDER BY id`,
	`SELECT id, (SELECT relname FROM pg_class c WHERE c.relname = hs.r) FROM hs ORDER BY id`,
	`SELECT id FROM hs WHERE EXISTS (SELECT 1 FROM pg_class c WHERE c.relname = hs.r) ORDER BY id`,
	`SELECT id, CASE WHEN r IN ` + known + ` THEN r::regclass::text ELSE 'none' END FROM hs ORDER BY id`,
	`SELECT id, CASE WHEN to_regclass(r) IS NULL THEN 'missing' ELSE r::regclass::text END FROM hs WHERE r <> '""' ORDER BY id`,
	`SELECT count(*) FROM hs WHERE format_type(o, NULL) = 'integer'`,
	`SELECT count(*) FROM hs WHERE r IN ` + known + ` AND r::regclass::text <> 'pg_type'`,
	`SELECT count(*) FROM hs WHERE r NOT IN ` + known + ` OR r::regclass::text <> 'pg_type'`,
	`SELECT format_type(o, NULL), count(*) FROM hs GROUP BY 1`,
	`SELECT pg_get_userbyid(u), max(sz) FROM hs WHERE id % 2 = 0 GROUP BY 1`,
	`SELECT max(pg_size_pretty(sz)), count(DISTINCT format_type(o, NULL)), min(length(pg_get_userbyid(u))) FROM hs`,
	`SELECT string_agg(pg_size_pretty(sz), ',' ORDER BY id) FROM hs WHERE id < 60`,
	`SELECT id, upper(format_type(o, NULL)), length(pg_size_pretty(sz)), to_regtype(format_type(o, NULL))::text FROM hs ORDER BY id`,
	`SELECT id, pg_size_pretty(sz) FROM hs ORDER BY pg_size_pretty(sz), id`,
	`SELECT id, CASE WHEN r IN ` + known + ` THEN r::regclass::text END FROM hs WHERE id % 3 = 0 LIMIT 7`,
	`SELECT id, pg_size_pretty(sz) FROM hs WHERE id % 3 = 1 LIMIT 5`,
	`SELECT id, has_table_privilege(r, 'SELECT') FROM hs WHERE r IN ('pg_class', 'hs', 'pg_type') ORDER BY id`,
	`SELECT id, quote_literal(o), quote_ident(r) FROM hs ORDER BY id`,
	`SELECT id, CASE WHEN o = 99999 THEN 'x' WHEN format_type(o, NULL) LIKE 'int%' THEN pg_size_pretty(sz) ELSE format_type(o, 7) END FROM hs ORDER BY id`,
}

// stepErrors: the query of stepQueries raising 42P01 (relation "nosuch"
// does not exist) on both backends.
var stepErrors = map[int]bool{3: true}

// TestHostStepsMatchCPU compares stepQueries on the device with the CPU
// backend (1 and 8 workers) at 1, 3,000 and 20,000 rows, the device's
// pool poisoned before each query: rows, and errors by SQLSTATE and
// message.
func TestHostStepsMatchCPU(t *testing.T) {
	skipCPUHalfUnderRace(t)
	sizes := []int{1, 3000, 20000}
	sizedTwins{
		sizes:   sizes,
		write:   csvWriter("hs.csv", 3, writeStepCSV),
		ddl:     `CREATE TABLE hs (id bigint, o integer, r text, u integer, sz bigint) FROM CSV 'hs.csv'`,
		queries: stepQueries,
		checkCPU: func(t *testing.T, n, k int, q string, err error) {
			if (err != nil) != (stepErrors[k] && n > 1) {
				t.Errorf("%d rows: %s: %v", n, q, err)
			}
		},
		opts: twinOpts{sameMessage: true, ordered: orderedByIDOrLimited},
		afterGPU: func(t *testing.T, n int, gs engine.Session) {
			if n == sizes[len(sizes)-1] {
				checkStepPlans(t, gs)
			}
		},
	}.run(t)
}

// checkStepPlans checks that host steps are never silent: EXPLAIN names
// each step, EXPLAIN ANALYZE counts what it sent.
func checkStepPlans(t *testing.T, gs engine.Session) {
	for q, want := range map[string][]string{
		`EXPLAIN SELECT pg_get_userbyid(u), upper(format_type(o, NULL)) FROM hs`: {
			"Host Step: pg_get_userbyid(#3(u))", "Host Step: format_type(#1(o), NULL::bigint)"},
		`EXPLAIN ANALYZE SELECT pg_get_userbyid(u) FROM hs WHERE id < 100`: {
			"Host Step: pg_get_userbyid(#3(u)) (rows=100 distinct=5)"},
		`EXPLAIN SELECT quote_ident(r) FROM hs`: nil,
	} {
		rows, err := runSQL(t, gs, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		var steps []string
		for _, l := range rows {
			if strings.HasPrefix(l, "Host Step") {
				steps = append(steps, l)
			}
		}
		if fmt.Sprint(steps) != fmt.Sprint(want) {
			t.Errorf("%s:\n got %q\n want %q", q, steps, want)
		}
	}
}
