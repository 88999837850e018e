package query_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/cpu"
	"github.com/gpusql/gpusql/loader"
	"github.com/gpusql/gpusql/query"
)

// gateBackend is the CPU backend with a gate in front of the scans of one
// user table: such a scan announces itself on started and then waits
// until its context is done before running. Binding runs uncorrelated
// subqueries, derived tables and set operations first, so a query whose
// subquery reads the gated table is certain to be inside that subquery
// when the test cancels it: the test needs no timing.
type gateBackend struct {
	*cpu.Backend
	table   string
	mu      sync.Mutex
	started chan struct{}
}

func (g *gateBackend) arm() chan struct{} {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.started = make(chan struct{})
	return g.started
}

func (g *gateBackend) Execute(ctx context.Context, p *engine.Plan, sink engine.BatchSink) error {
	gated := false
	for _, leaf := range engine.Leaves(p) {
		gated = gated || leaf.Table == g.table
	}
	if gated {
		g.mu.Lock()
		if g.started != nil {
			close(g.started)
			g.started = nil
		}
		g.mu.Unlock()
		select {
		case <-ctx.Done():
		case <-time.After(30 * time.Second):
			return errors.New("gate: the subquery's context was never cancelled")
		}
	}
	return g.Backend.Execute(ctx, p, sink)
}

// Subqueries that binding runs (folded into constants or kept as host
// tables) run under the statement's context: a cancel request and
// statement_timeout stop them with 57014, and the session goes on.
func TestSubqueryCancel(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "gate.csv"), []byte("1\n2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gate := &gateBackend{Backend: cpu.New(loader.NewCPU(loader.Config{}), 1), table: "gate"}
	srv, err := query.NewServer(query.Options{FileRoot: root, Backend: gate, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	s, err := srv.NewSession(engine.SessionParams{User: "tester", Database: "gpusql"})
	if err != nil {
		t.Fatal(err)
	}
	run := func(ctx context.Context, sql string) error {
		var r recorder
		return s.Query(ctx, sql, &r)
	}
	for _, sql := range []string{
		"CREATE TABLE gate (x int) FROM CSV 'gate.csv'",
		"CREATE TABLE t (x int) FROM CSV 'gate.csv'",
	} {
		if err := run(context.Background(), sql); err != nil {
			t.Fatal(err)
		}
	}
	queries := []struct{ name, sql string }{
		{"scalar", "SELECT (SELECT max(x) FROM gate)"},
		{"in", "SELECT x FROM t WHERE x IN (SELECT x FROM gate)"},
		{"exists", "SELECT x FROM t WHERE EXISTS (SELECT 1 FROM gate WHERE x > 1)"},
		{"any", "SELECT x FROM t WHERE x > ALL (SELECT x FROM gate)"},
		{"derived table", "SELECT count(*) FROM (SELECT x FROM gate) g"},
		{"with", "WITH g AS (SELECT x FROM gate) SELECT * FROM g"},
		{"array", "SELECT ARRAY(SELECT x FROM gate)"},
		{"union", "SELECT x FROM t UNION SELECT x FROM gate"},
	}
	check := func(t *testing.T, err error, msg string) {
		t.Helper()
		var e *engine.Error
		if !errors.As(err, &e) || e.Code != engine.CodeQueryCanceled || e.Message != msg {
			t.Fatalf("got %v, want 57014 %q", err, msg)
		}
		if err := run(context.Background(), "SELECT count(*) FROM t"); err != nil {
			t.Fatalf("the session after 57014: %v", err)
		}
	}
	for _, q := range queries {
		t.Run("cancel/"+q.name, func(t *testing.T) {
			started := gate.arm()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan error, 1)
			go func() { done <- run(ctx, q.sql) }()
			select {
			case <-started:
			case err := <-done:
				t.Fatalf("the query ended without reading the gated table: %v", err)
			}
			cancel() // what the wire layer does on a CancelRequest
			check(t, <-done, "canceling statement due to user request")
		})
		t.Run("statement_timeout/"+q.name, func(t *testing.T) {
			gate.arm()
			if err := run(context.Background(), "SET statement_timeout = 20"); err != nil {
				t.Fatal(err)
			}
			err := run(context.Background(), q.sql)
			if err2 := run(context.Background(), "SET statement_timeout = 0"); err2 != nil {
				t.Fatal(err2)
			}
			check(t, err, "canceling statement due to statement timeout")
		})
	}
}
