package gpusql_test

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/gpusql/gpusql"
)

// TestPersistOption: an embedded engine with Persist keeps its tables
// across Close and Open on the same DataDir (GPUSQL_TEST_DEVICE=cuda:
// back onto the GPU); Close frees them without dropping them.
func TestPersistOption(t *testing.T) {
	dir := t.TempDir()
	write(t, dir+"/t.csv", typesCSV)
	opts := gpusql.Options{DataDir: dir, Persist: true, Device: cmp.Or(os.Getenv("GPUSQL_TEST_DEVICE"), "cpu")}
	ctx := context.Background()
	db, err := gpusql.Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{typesDDL + ` FROM CSV 't.csv' WITH (HEADER true)`,
		`CREATE TABLE t2 AS SELECT i8, s FROM t WHERE i4 IS NOT NULL`, `CREATE VIEW v AS SELECT count(*) AS n FROM t2`} {
		if _, err := db.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	const q = `SELECT (SELECT count(*) FROM t), (SELECT sum(i8) FROM t2), (SELECT n FROM v), (SELECT string_agg(s, ',' ORDER BY s) FROM t)`
	answer := func(db *gpusql.DB) [4]any {
		var a [4]any
		rows, err := db.Query(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		if !rows.Next() {
			t.Fatal(rows.Err())
		}
		var n1, n3 int64
		var s2, s4 *string
		if err := rows.Scan(&n1, &s2, &n3, &s4); err != nil {
			t.Fatal(err)
		}
		a = [4]any{n1, *s2, n3, *s4}
		return a
	}
	before := answer(db)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err = gpusql.Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if got := answer(db); got != before {
		t.Errorf("after reopening: %v, want %v", got, before)
	}
	if _, err := gpusql.Open(gpusql.Options{FileRoot: dir, Persist: true}); err == nil {
		t.Error("Persist without DataDir was accepted")
	}
}

// TestPersistConcurrentWriters: sessions load, append to, create, rename
// and drop tables at once, in and out of transaction blocks, while the
// catalog writes every change; after reopening, the tables are exactly
// what the last engine held.
func TestPersistConcurrentWriters(t *testing.T) {
	dir := t.TempDir()
	write(t, dir+"/rows.csv", "1\n2\n3\n")
	opts := gpusql.Options{DataDir: dir, Persist: true, Device: cmp.Or(os.Getenv("GPUSQL_TEST_DEVICE"), "cpu")}
	ctx := context.Background()
	db, err := gpusql.Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(ctx, `CREATE TABLE shared (a bigint) FROM CSV 'rows.csv'`); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for w := 0; w < 6; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			own := fmt.Sprintf("own%d", w)
			for i := 0; i < 15; i++ {
				// Errors are expected (a table another session
				// dropped or renamed meanwhile); what matters is the
				// state afterwards.
				for _, q := range []string{
					`INSERT INTO shared VALUES (` + fmt.Sprint(w*1000+i) + `)`,
					`CREATE TABLE ` + own + ` AS SELECT a FROM shared`,
					`COPY ` + own + ` FROM 'rows.csv'`,
					`BEGIN; INSERT INTO shared SELECT a FROM ` + own + ` WHERE a < 3; INSERT INTO ` + own + ` VALUES (-1); COMMIT`,
					`ALTER TABLE ` + own + ` RENAME TO ` + own + `x`,
					`CREATE VIEW v` + own + ` AS SELECT count(*) FROM ` + own + `x`,
					`DROP TABLE ` + own + `x CASCADE`,
				} {
					_, _ = db.Exec(ctx, q)
				}
				if i%5 == 4 {
					_, _ = db.Exec(ctx, `CREATE TABLE `+own+` AS SELECT a FROM shared WHERE a % 2 = 0`)
				}
			}
		}()
	}
	wg.Wait()
	state := func(db *gpusql.DB) string {
		rows, err := db.Query(ctx, `SELECT c.relname, c.relkind, (SELECT count(*) FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0)
			FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace ORDER BY 1`)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		var names []string
		for rows.Next() {
			var name, kind string
			var n int64
			if err := rows.Scan(&name, &kind, &n); err != nil {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprintf("%s %s %d", name, kind, n))
			if kind == "r" {
				names = append(names, name)
			}
		}
		rows.Close()
		for _, name := range names {
			r, err := db.Query(ctx, `SELECT count(*), coalesce(sum(a), 0) FROM `+name)
			if err != nil {
				t.Fatal(err)
			}
			r.Next()
			var c, s int64
			if err := r.Scan(&c, &s); err != nil {
				t.Fatal(err)
			}
			r.Close()
			out = append(out, fmt.Sprintf("%s: %d rows, sum %d", name, c, s))
		}
		return strings.Join(out, "\n")
	}
	before := state(db)
	t.Logf("%s", before)
	db.Close()
	db, err = gpusql.Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if got := state(db); got != before {
		t.Errorf("after reopening:\n%s\nwant:\n%s", got, before)
	}
}

// TestPersistWideNumeric: numeric(38,s) columns keep their type and
// exact values across Close and Open, loaded from CSV and appended by
// INSERT (GPUSQL_TEST_DEVICE=cuda: values of 18 digits at their scale,
// which the GPU holds).
func TestPersistWideNumeric(t *testing.T) {
	dir := t.TempDir()
	device := cmp.Or(os.Getenv("GPUSQL_TEST_DEVICE"), "cpu")
	big, neg := "99999999999999999999999999999999999.99", "-1234567890123456789012345678.0123456789"
	if device != "cpu" {
		big, neg = "9999999999999999.99", "-12345678.0123456789"
	}
	write(t, dir+"/w.csv", "1,"+big+","+neg+"\n2,,0.5\n")
	opts := gpusql.Options{DataDir: dir, Persist: true, Device: device}
	ctx := context.Background()
	db, err := gpusql.Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{`CREATE TABLE w (id integer, a numeric(38,2), c numeric(38,10)) FROM CSV 'w.csv'`,
		`INSERT INTO w VALUES (3, -0.01, ` + neg + `)`} {
		if _, err := db.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	const q = `SELECT string_agg(id || ':' || coalesce(a::text, 'NULL') || ':' || c, ' ' ORDER BY id),
		(SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'w'::regclass AND attname = 'c') FROM w`
	answer := func(db *gpusql.DB) string {
		rows, err := db.Query(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		if !rows.Next() {
			t.Fatal(rows.Err())
		}
		var s, ty string
		if err := rows.Scan(&s, &ty); err != nil {
			t.Fatal(err)
		}
		return s + " / " + ty
	}
	before := answer(db)
	if !strings.Contains(before, big) || !strings.Contains(before, neg) || !strings.HasSuffix(before, "numeric(38,10)") {
		t.Fatalf("before closing: %s", before)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if db, err = gpusql.Open(opts); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if got := answer(db); got != before {
		t.Errorf("after reopening: %s, want %s", got, before)
	}
}
