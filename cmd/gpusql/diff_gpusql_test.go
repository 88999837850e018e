package main

// gpusql, in process, for the differential test: the engine is built by
// newEngine (engine.go), as the command builds it, and served by the wire
// package on a free loopback port.

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"testing"
	"time"

	"github.com/gpusql/gpusql"
	"github.com/gpusql/gpusql/wire"
	"github.com/jackc/pgx/v5/pgconn"
)

type gpusqlServer struct {
	port int
}

// gpusqlPath is how a CSV file of the data dir is named in gpusql's
// CREATE TABLE ... FROM CSV and COPY ... FROM: relative to the file root.
func gpusqlPath(name string) string { return name }

// startGpusql starts a gpusql server whose file root is fileRoot; it stops
// when the test ends. Its log is discarded unless GPUSQL_DIFF_LOG is set
// (then it goes to stderr).
func startGpusql(t *testing.T, fileRoot string) *gpusqlServer {
	t.Helper()
	return startGpusqlOn(t, fileRoot, "cpu")
}

// startGpusqlOn is startGpusql with a --device value.
func startGpusqlOn(t *testing.T, fileRoot, device string) *gpusqlServer {
	t.Helper()
	return startGpusqlWith(t, fileRoot, func(o *options) { o.device = device })
}

// startGpusqlWith starts a server whose options set changes.
func startGpusqlWith(t *testing.T, fileRoot string, set func(*options)) *gpusqlServer {
	t.Helper()
	var logw io.Writer = io.Discard
	if os.Getenv("GPUSQL_DIFF_LOG") != "" {
		logw = os.Stderr
	}
	logger := slog.New(slog.NewTextHandler(logw, &slog.HandlerOptions{Level: slog.LevelDebug}))

	dataDir, err := gpusql.ResolveDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root, err := gpusql.ResolveDir(fileRoot)
	if err != nil {
		t.Fatal(err)
	}
	o := &options{
		listen:       "127.0.0.1:0",
		dataDir:      dataDir,
		fileRoot:     root,
		maxTextWidth: 4096,
		logLevel:     slog.LevelDebug,
	}
	set(o)
	eng, _, err := newEngine(o, logger, nil)
	if err != nil {
		t.Fatalf("gpusql: newEngine: %v", err)
	}
	ln, err := net.Listen("tcp", o.listen)
	if err != nil {
		t.Fatal(err)
	}
	srv := wire.NewServer(wire.Config{Listen: o.listen, Logger: logger}, eng)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			t.Errorf("gpusql server did not shut down within 15s")
		}
	})
	return &gpusqlServer{port: ln.Addr().(*net.TCPAddr).Port}
}

func (s *gpusqlServer) connect(ctx context.Context) (*pgconn.PgConn, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return pgconn.Connect(ctx, fmt.Sprintf(
		"host=127.0.0.1 port=%d user=postgres dbname=postgres sslmode=disable connect_timeout=10", s.port))
}
