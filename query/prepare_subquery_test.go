package query_test

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/cpu"
	"github.com/gpusql/gpusql/loader"
	"github.com/gpusql/gpusql/query"
)

// countBackend is the CPU backend counting the plans that read one table.
type countBackend struct {
	*cpu.Backend
	table string
	mu    sync.Mutex
	n     int
}

// Execute counts the scans of the table in the plan's tree: derived
// tables, WITH queries and set-operation sides are nodes of the tree the
// statement runs.
func (c *countBackend) Execute(ctx context.Context, p *engine.Plan, sink engine.BatchSink) error {
	for _, leaf := range engine.Leaves(p) {
		if leaf.Table == c.table {
			c.mu.Lock()
			c.n++
			c.mu.Unlock()
		}
	}
	return c.Backend.Execute(ctx, p, sink)
}

func (c *countBackend) take() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.n
	c.n = 0
	return n
}

// Preparing a statement (the extended protocol's Parse and Describe)
// binds it only to learn its columns and parameter types: the
// uncorrelated subqueries, derived tables and set-operation sides it
// holds run when it executes, once per execution, and never at Parse. A
// subquery that fails therefore fails at Execute, as in PostgreSQL.
func TestPrepareRunsNoSubquery(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "s.csv"), []byte("1,0.5\n2,1.25\n3,\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	be := &countBackend{Backend: cpu.New(loader.NewCPU(loader.Config{}), 1), table: "s"}
	srv, err := query.NewServer(query.Options{FileRoot: root, Backend: be, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	s, err := srv.NewSession(engine.SessionParams{User: "tester", Database: "gpusql"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, sql := range []string{
		"CREATE TABLE s (x int, d numeric) FROM CSV 's.csv'",
		"CREATE TABLE t (x int, d numeric) FROM CSV 's.csv'",
	} {
		var r recorder
		if err := s.Query(ctx, sql, &r); err != nil {
			t.Fatal(err)
		}
	}
	be.take()
	cases := []struct {
		name, sql string
		params    []engine.Param
		reads     int    // plans over s per execution
		err       string // SQLSTATE the execution raises, if any
	}{
		{"scalar", "SELECT (SELECT max(x) FROM s)", nil, 1, ""},
		{"in", "SELECT x FROM t WHERE x IN (SELECT x FROM s WHERE x > 1)", nil, 1, ""},
		{"exists", "SELECT count(*) FROM t WHERE EXISTS (SELECT 1 FROM s)", nil, 1, ""},
		{"derived", "SELECT y FROM (SELECT d * 3 AS y FROM s) q ORDER BY y", nil, 1, ""},
		{"with", "WITH q AS (SELECT x * 2 AS y FROM s) SELECT sum(y) FROM q", nil, 1, ""},
		{"union", "SELECT x FROM t UNION SELECT x + 10 FROM s ORDER BY 1", nil, 1, ""},
		{"param", "SELECT (SELECT count(*) FROM s WHERE x > $1)", []engine.Param{{Value: []byte("1")}}, 1, ""},
		{"fails", "SELECT (SELECT x / (x - 1) FROM s WHERE x = 1)", nil, 1, "22012"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			be.take()
			p, err := s.(engine.Preparer).Prepare(ctx, c.sql, nil)
			if err != nil {
				t.Fatalf("prepare: %v", err)
			}
			if n := be.take(); n != 0 {
				t.Fatalf("prepare ran %d plans over s, want none", n)
			}
			for run := 0; run < 2; run++ {
				var r recorder
				err := p.Run(ctx, c.params, &r)
				if c.err != "" {
					e, ok := err.(*engine.Error)
					if !ok || e.Code != c.err {
						t.Fatalf("run %d: got %v, want SQLSTATE %s", run, err, c.err)
					}
				} else if err != nil {
					t.Fatalf("run %d: %v", run, err)
				}
				if n := be.take(); n != c.reads {
					t.Fatalf("run %d read s %d times, want %d", run, n, c.reads)
				}
			}
		})
	}
}
