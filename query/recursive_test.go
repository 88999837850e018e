package query_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/cpu"
	"github.com/gpusql/gpusql/loader"
	"github.com/gpusql/gpusql/query"
)

// TestRecursiveRunaway: a WITH RECURSIVE query that never stops, where
// PostgreSQL would loop for ever, ends with an error: 54000 once its
// rows pass the host row limit, 53200 once they pass the statement's
// memory limit (strings that double each round), 57014 at the
// statement timeout (one row a round); the session then runs
// a recursive query that ends, also as a prepared statement whose
// parameter bounds the recursion.
func TestRecursiveRunaway(t *testing.T) {
	session := func(memory int64) func(string) (*recorder, error) {
		srv, err := query.NewServer(query.Options{
			FileRoot: t.TempDir(), MaxQueryMemory: memory,
			Backend: cpu.New(loader.NewCPU(loader.Config{}), 2),
			Logger:  slog.New(slog.NewTextHandler(io.Discard, nil)),
		})
		if err != nil {
			t.Fatal(err)
		}
		sess, err := srv.NewSession(engine.SessionParams{User: "tester", Database: "gpusql"})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { sess.Close() })
		return func(sql string) (*recorder, error) {
			var r recorder
			return &r, sess.Query(context.Background(), sql, &r)
		}
	}
	unlimited, run := session(0), session(64<<20)
	// 1, then 1100, then 1210000 rows: past the 2^20 row limit
	_, err := unlimited("WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT t.n + g FROM t, generate_series(1, 1100) AS g) SELECT count(*) FROM t")
	var pe *engine.Error
	if !errors.As(err, &pe) || pe.Code != engine.CodeProgramLimitExceeded || !strings.Contains(pe.Message, `recursive query "t"`) {
		t.Errorf("rows without end: %v, want 54000 naming the recursive query", err)
	}
	_, err = run("WITH RECURSIVE t(s) AS (SELECT 'ab' UNION ALL SELECT s || s FROM t) SELECT count(*) FROM t")
	if !errors.As(err, &pe) || pe.Code != engine.CodeOutOfMemory {
		t.Errorf("doubling strings: %v, want 53200", err)
	}
	// one row a round for ever: statement_timeout ends it (or, on a
	// machine fast enough, the row limit)
	if _, err := run("SET statement_timeout = '300ms'"); err != nil {
		t.Fatal(err)
	}
	_, err = run("WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t) SELECT count(*) FROM t")
	if !errors.As(err, &pe) || pe.Code != engine.CodeQueryCanceled && pe.Code != engine.CodeProgramLimitExceeded {
		t.Errorf("one row a round: %v, want 57014 or 54000", err)
	}
	if _, err := run("RESET statement_timeout"); err != nil {
		t.Fatal(err)
	}
	r, err := run("WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 20000) SELECT count(*), sum(n) FROM t")
	if err != nil || len(r.rows) != 1 || r.rows[0] != "20000|200010000" {
		t.Fatalf("series after the failures: %v %v", r, err)
	}
	if _, err := run("PREPARE p(int) AS WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < $1) SELECT count(*), max(n) FROM t"); err != nil {
		t.Fatal(err)
	}
	for arg, want := range map[string]string{"5": "5|5", "0": "1|1", "300": "300|300"} {
		r, err := run("EXECUTE p(" + arg + ")")
		if err != nil || len(r.rows) != 1 || r.rows[0] != want {
			t.Errorf("EXECUTE p(%s): %v %v, want %s", arg, r.rows, err, want)
		}
	}
}
