package gpusql_test

import (
	"cmp"
	"context"
	"os"
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
