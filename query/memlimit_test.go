package query_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/cpu"
	"github.com/gpusql/gpusql/loader"
	"github.com/gpusql/gpusql/query"
)

// TestMemoryLimitCPUBackend: under a 1 MiB statement memory limit, the
// CPU backend's own working memory counts: a GROUP BY, count(DISTINCT),
// a join, a sort, a set operation and a window over 100000 distinct rows
// each fail with 53200 naming the structure that grew, and the same
// session then runs queries that fit.
func TestMemoryLimitCPUBackend(t *testing.T) {
	root := t.TempDir()
	var b strings.Builder
	b.WriteString("x,s\n")
	const rows = 100_000
	for i := range rows {
		fmt.Fprintf(&b, "%d,row %d\n", i, i)
	}
	if err := os.WriteFile(filepath.Join(root, "t.csv"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	srv, err := query.NewServer(query.Options{
		FileRoot: root, MaxQueryMemory: 1 << 20,
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
	defer sess.Close()
	run := func(sql string) (*recorder, error) {
		var r recorder
		return &r, sess.Query(context.Background(), sql, &r)
	}
	if _, err := run("CREATE TABLE t (x int, s text) FROM CSV 't.csv' WITH (HEADER true)"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ sql, what string }{
		{"SELECT x, count(*) FROM t GROUP BY x", "group table"},
		{"SELECT s, min(x) FROM t GROUP BY s", "group table"},
		{"SELECT count(DISTINCT s) FROM t", "group table"},
		{"SELECT count(*) FROM t a JOIN t b ON a.x = b.x", "join"},
		{"SELECT count(*) FROM (SELECT x FROM t WHERE x < 2000) a, (SELECT x FROM t WHERE x < 2000) b", "join"},
		{"SELECT s FROM t ORDER BY s DESC", "ORDER BY"},
		{"SELECT DISTINCT s FROM t", "DISTINCT"},
		{"SELECT count(*) FROM (SELECT s FROM t UNION SELECT s FROM t) u", "set operation"},
		{"SELECT count(*) FROM (SELECT s || 'x' FROM t EXCEPT SELECT s FROM t) u", "derived table"},
		{"SELECT count(*) FROM (SELECT x, row_number() OVER (ORDER BY s) FROM t) w", "window"},
	} {
		_, err := run(c.sql)
		var pe *engine.Error
		if !errors.As(err, &pe) || pe.Code != engine.CodeOutOfMemory || !strings.Contains(pe.Detail, c.what) {
			t.Errorf("%s: %v, want 53200 over %q", c.sql, err, c.what)
			continue
		}
		if !strings.Contains(pe.Detail, "1.0 MiB") {
			t.Errorf("%s: detail %q does not name the limit", c.sql, pe.Detail)
		}
	}
	for sql, want := range map[string]string{
		"SELECT count(*), sum(x) FROM t":                                               "100000|4999950000",
		"SELECT count(*) FROM (SELECT x % 10, count(*) FROM t GROUP BY 1) g":           "10",
		"SELECT s FROM t ORDER BY x DESC LIMIT 1":                                      "row 99999",
		"SELECT count(*) FROM t a JOIN t b ON a.x = b.x WHERE a.x < 100 AND b.x < 100": "100",
	} {
		r, err := run(sql)
		if err != nil {
			t.Errorf("%s after the failures: %v", sql, err)
		} else if r.rows[0] != want {
			t.Errorf("%s: %v, want %s", sql, r.rows, want)
		}
	}
}
