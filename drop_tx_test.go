package gpusql_test

import (
	"cmp"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gpusql/gpusql"
	"github.com/gpusql/gpusql/engine"
)

// tableFiles lists the table files of a data directory.
func tableFiles(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "catalog", "*.gtab"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestDropTableInBlock: DROP TABLE in a transaction block hides the table
// from the block at once, leaves it, its data and its file to every other
// session until COMMIT, and ROLLBACK or ROLLBACK TO SAVEPOINT bring it
// back; a block closed without COMMIT (the session ends, the server
// closes) keeps it across a restart. Readers in other sessions running
// all the while always see the whole table.
func TestDropTableInBlock(t *testing.T) {
	dir := t.TempDir()
	opts := gpusql.Options{DataDir: dir, Persist: true, Device: cmp.Or(os.Getenv("GPUSQL_TEST_DEVICE"), "cpu")}
	ctx := context.Background()
	db, err := gpusql.Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { db.Close() }()
	exec := func(c *gpusql.Conn, sql string) error {
		t.Helper()
		if c == nil {
			_, err := db.Exec(ctx, sql)
			return err
		}
		_, err := c.Exec(ctx, sql)
		return err
	}
	must := func(c *gpusql.Conn, sql string) {
		t.Helper()
		if err := exec(c, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	// count is the rows of d as c sees it; -1 when it does not exist.
	count := func(c *gpusql.Conn) int64 {
		t.Helper()
		var rows *gpusql.Rows
		var err error
		if c == nil {
			rows, err = db.Query(ctx, "SELECT count(*) FROM d")
		} else {
			rows, err = c.Query(ctx, "SELECT count(*) FROM d")
		}
		if engine.Code(err) == engine.CodeUndefinedTable {
			return -1
		}
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var n int64
		if !rows.Next() {
			t.Fatal(rows.Err())
		}
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	must(nil, "CREATE TABLE d (a int, s text)")
	must(nil, "INSERT INTO d SELECT x, 'v' || x FROM generate_series(1, 500) x")
	files := len(tableFiles(t, dir))

	a, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// readers in other sessions while the block drops and rolls back
	stop := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for r := 0; r < 3; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				rows, err := db.Query(ctx, "SELECT count(*), sum(a) FROM d")
				if err != nil {
					errs <- err
					return
				}
				var n, s int64
				rows.Next()
				err = rows.Scan(&n, &s)
				rows.Close()
				if err != nil || n != 500 || s != 125250 {
					errs <- errors.Join(err, errors.New("a reader saw a partial table"))
					return
				}
			}
		}()
	}
	for i := 0; i < 20; i++ {
		must(a, "BEGIN")
		must(a, "INSERT INTO d VALUES (0, 'block')")
		must(a, "SAVEPOINT s")
		must(a, "DROP TABLE d")
		must(a, "SAVEPOINT s2")
		if got := count(a); got != -1 {
			t.Fatalf("the block still sees d (%d rows) after dropping it", got)
		}
		must(a, "ROLLBACK TO SAVEPOINT s2") // the failed state ends
		if err := exec(a, "DROP TABLE d"); engine.Code(err) != engine.CodeUndefinedTable {
			t.Fatalf("second DROP: %v", err)
		}
		must(a, "ROLLBACK TO SAVEPOINT s")
		if got := count(a); got != 501 {
			t.Fatalf("after ROLLBACK TO the block sees %d rows, want its 501", got)
		}
		must(a, "DROP TABLE d")
		if got := count(nil); got != 500 {
			t.Fatalf("another session sees %d rows while the block drops d", got)
		}
		if n := len(tableFiles(t, dir)); n != files {
			t.Fatalf("%d table files while the drop is pending, want %d", n, files)
		}
		must(a, "ROLLBACK")
		if got := count(a); got != 500 {
			t.Fatalf("after ROLLBACK the block's session sees %d rows", got)
		}
	}
	// an open block when the server closes: the table stays
	must(a, "BEGIN")
	must(a, "DROP TABLE d")
	close(stop)
	wg.Wait()
	select {
	case err := <-errs:
		t.Fatal(err)
	default:
	}
	a.Close()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if db, err = gpusql.Open(opts); err != nil {
		t.Fatal(err)
	}
	if got := count(nil); got != 500 {
		t.Fatalf("after a restart with the drop uncommitted: %d rows", got)
	}
	// COMMIT drops it, with its file
	if a, err = db.Conn(ctx); err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	must(a, "BEGIN")
	must(a, "DROP TABLE d")
	if got := count(nil); got != 500 {
		t.Fatalf("another session sees %d rows before COMMIT", got)
	}
	must(a, "COMMIT")
	if got := count(nil); got != -1 {
		t.Fatalf("d still has %d rows after COMMIT", got)
	}
	if n := len(tableFiles(t, dir)); n != files-1 {
		t.Fatalf("%d table files after COMMIT, want %d", n, files-1)
	}
	db.Close()
	if db, err = gpusql.Open(opts); err != nil {
		t.Fatal(err)
	}
	if got := count(nil); got != -1 {
		t.Fatalf("d came back after a restart (%d rows)", got)
	}
}

// TestDropTableInBlockReuseName: a block that drops a table and then
// gives its name to a new one drops it at that point; a ROLLBACK then
// warns that it could not bring it back, and removes the new one.
func TestDropTableInBlockReuseName(t *testing.T) {
	ctx := context.Background()
	db, err := gpusql.Open(gpusql.Options{FileRoot: t.TempDir(), Device: cmp.Or(os.Getenv("GPUSQL_TEST_DEVICE"), "cpu")})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	c, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, q := range []string{"CREATE TABLE r (a int)", "INSERT INTO r VALUES (1)", "BEGIN", "DROP TABLE r",
		"CREATE TABLE r (b text)", "INSERT INTO r VALUES ('x')"} {
		if _, err := c.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	// the new r is in the catalog (a table a block creates is), the old
	// one is gone
	if _, err := db.Exec(ctx, "SELECT a FROM r"); engine.Code(err) != engine.CodeUndefinedColumn {
		t.Fatalf("the old r after its name was reused: %v", err)
	}
	if _, err := c.Exec(ctx, "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(ctx, "SELECT * FROM r"); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("r after ROLLBACK: %v", err)
	}
}
