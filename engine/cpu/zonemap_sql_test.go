package cpu_test

import (
	"context"
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

type collect struct{ rows []string }

func (c *collect) Describe([]engine.ResultColumn) error { return nil }
func (c *collect) Row(r [][]byte) error {
	f := make([]string, len(r))
	for i, v := range r {
		f[i] = string(v)
	}
	c.rows = append(c.rows, strings.Join(f, "|"))
	return nil
}
func (c *collect) Complete(string) error      { return nil }
func (c *collect) Notice(engine.Notice) error { return nil }
func (c *collect) EmptyQuery() error          { return nil }

// TestZoneMapsFollowWrites: point and range filters and a top-N, which
// skip batches by zone maps, see every write: COPY into a loaded table,
// INSERT (of values and of a query) and TRUNCATE each publish a table whose zone
// maps cover its rows.
func TestZoneMapsFollowWrites(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, lo, hi int) {
		var b strings.Builder
		for i := lo; i <= hi; i++ {
			fmt.Fprintf(&b, "%d,%d\n", i, i%10)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.csv", 1, 20000)
	write("b.csv", 19990, 30000)
	srv, err := query.NewServer(query.Options{FileRoot: dir, Backend: cpu.New(loader.NewCPU(loader.Config{}), 2),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	s, err := srv.NewSession(engine.SessionParams{})
	if err != nil {
		t.Fatal(err)
	}
	q := func(sql string) string {
		t.Helper()
		var c collect
		if err := s.Query(context.Background(), sql, &c); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		return strings.Join(c.rows, ",")
	}
	check := func(sql, want string) {
		t.Helper()
		if got := q(sql); got != want {
			t.Errorf("%s: got %q, want %q", sql, got, want)
		}
	}
	q("CREATE TABLE t (id bigint, v int) FROM CSV 'a.csv'")
	point := "SELECT count(*) FROM t WHERE id = 19995"
	top := "SELECT id FROM t ORDER BY id DESC LIMIT 2"
	rng := "SELECT count(*), min(id), max(id) FROM t WHERE id > 19992 AND id <= 25000"
	check(point, "1")
	check(top, "20000,19999")
	check(rng, "8|19993|20000")
	q("COPY t FROM 'b.csv' WITH (FORMAT csv)")
	check(point, "2")
	check(top, "30000,29999")
	check(rng, "5016|19993|25000")
	q("INSERT INTO t VALUES (19995, 1), (40000, 2)")
	check(point, "3")
	check(top, "40000,30000")
	q("INSERT INTO t SELECT id + 30000, v FROM t WHERE id > 29990")
	check(top, "70000,60000")
	check("SELECT count(*) FROM t WHERE id BETWEEN 59990 AND 60000", "10")
	q("TRUNCATE t")
	check(point, "0")
	check(top, "")
	q("COPY t FROM 'a.csv' WITH (FORMAT csv)")
	check(point, "1")
	check(top, "20000,19999")
}
