// Package query turns SQL text into results: it parses (query/parse),
// binds to a typed plan (engine.Plan), and runs the plan on the engine's
// backend, streaming rows to the client's ResultWriter.
package query

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/gpusql/gpusql/auth"
	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/cpu"
)

// Version is gpusql's release.
const Version = "0.1.0"

// PGVersion is the PostgreSQL version gpusql speaks for.
const PGVersion = "15.0"

// DefaultClientCheckInterval is how often, by default, the server checks
// that the client of a running statement is still connected. PostgreSQL
// checks never by default; gpusql's statements share one GPU, and a
// check is one poll(2) of a socket, so it checks four times a second: a
// vanished client's statement stops within half a second.
const DefaultClientCheckInterval = 250 * time.Millisecond

// Options configure a Server. They are validated by the caller (the
// command line) and by NewServer.
type Options struct {
	// FileRoot is the only directory tree that server-side COPY FROM and
	// CREATE TABLE ... FROM CSV may read, and COPY TO may write.
	FileRoot string
	// DataDir is where the server keeps its files.
	DataDir string
	// MaxTextWidth bounds the stored byte width of text values.
	MaxTextWidth int
	// ProgressEvery is how long a load runs before its first progress
	// NOTICE and between two of them: 0 means a second.
	ProgressEvery time.Duration
	// Backend runs loads and queries.
	Backend engine.Backend
	// ClientCheckInterval is the default of client_connection_check_interval
	// (see Session.ClientCheckInterval): 0 means DefaultClientCheckInterval,
	// negative means off.
	ClientCheckInterval time.Duration
	Logger              *slog.Logger

	// Roles are the roles, their passwords and grants; nil gives an
	// in-memory store holding only the bootstrap superuser.
	Roles *auth.Store
	// StatementTimeout, IdleSessionTimeout and IdleInTxTimeout are the
	// defaults of statement_timeout, idle_session_timeout and
	// idle_in_transaction_session_timeout; 0 is none.
	StatementTimeout, IdleSessionTimeout, IdleInTxTimeout time.Duration
	// MaxPrepared and MaxCursors bound a session's named prepared
	// statements and its cursors; 0 means DefaultMaxNamed.
	MaxPrepared, MaxCursors int
	// MaxQueryMemory bounds the host memory one statement may hold in
	// the results it materialises (see memory.go); 0 is no limit.
	MaxQueryMemory int64
}

// DefaultMaxNamed is the default bound on a session's named prepared
// statements and on its cursors.
const DefaultMaxNamed = 10000

// Server is the SQL engine shared by all sessions.
type Server struct {
	opts    Options
	cat     *engine.Catalog
	backend engine.Backend
	// host runs plans over the system tables, which are built in host
	// memory from the catalog; user tables always run on backend.
	host engine.Backend
	log  *slog.Logger
	// embeddedPIDs numbers the sessions that come without a process ID
	// (embedded use), for pg_backend_pid().
	embeddedPIDs atomic.Uint32
	// sessions are the live sessions, for pg_stat_activity.
	sessions sessionSet
}

var _ engine.Server = (*Server)(nil)

// NewServer makes a server with an empty catalog.
func NewServer(opts Options) (*Server, error) {
	if opts.Backend == nil {
		return nil, fmt.Errorf("query: no backend")
	}
	if opts.FileRoot == "" {
		return nil, fmt.Errorf("query: no file root")
	}
	root, err := filepath.Abs(opts.FileRoot)
	if err != nil {
		return nil, err
	}
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	opts.FileRoot = root
	switch {
	case opts.ClientCheckInterval == 0:
		opts.ClientCheckInterval = DefaultClientCheckInterval
	case opts.ClientCheckInterval < 0:
		opts.ClientCheckInterval = 0
	}
	if opts.MaxTextWidth <= 0 {
		opts.MaxTextWidth = engine.DefaultCSVOptions().MaxTextWidth
	}
	if opts.ProgressEvery <= 0 {
		opts.ProgressEvery = time.Second
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Roles == nil {
		opts.Roles, _ = auth.Open("", auth.SCRAM) // in memory: cannot fail
	}
	if opts.MaxPrepared <= 0 {
		opts.MaxPrepared = DefaultMaxNamed
	}
	if opts.MaxCursors <= 0 {
		opts.MaxCursors = DefaultMaxNamed
	}
	return &Server{opts: opts, cat: engine.NewCatalog(), backend: opts.Backend, host: cpu.New(nil, 1), log: opts.Logger}, nil
}

// executor is the backend that runs plan: the host executor when every
// table it reads is a system table (catalog metadata) or rows the binder
// built, the server's backend when it reads a user table.
func (s *Server) executor(plan *engine.Plan) engine.Backend {
	if planIsHost(plan) {
		return s.host
	}
	return s.backend
}

// Backend is the backend that loads and runs user tables.
func (s *Server) Backend() engine.Backend { return s.backend }

// columnStats describes column col of table data, for the planner: from
// the data itself, or through the backend that holds it.
func (s *Server) columnStats(d engine.TableData, col int) engine.ColumnStats {
	if st, ok := d.(engine.Statser); ok {
		return st.ColumnStats(col)
	}
	if src, ok := s.backend.(engine.StatsSource); ok {
		return src.ColumnStats(d, col)
	}
	return engine.ColumnStats{}
}

// gatherStats computes and keeps the planner's statistics of every column
// of freshly loaded data (a sample of its rows each), so that the first
// query over the table plans without waiting for them.
func (s *Server) gatherStats(d engine.TableData) {
	if d == nil || d.Rows() == 0 {
		return
	}
	n := 0
	switch t := d.(type) {
	case *engine.HostTable:
		n = len(t.Cols)
	default:
		if c, ok := d.(interface{ NumColumns() int }); ok {
			n = c.NumColumns()
		}
	}
	for i := 0; i < n; i++ {
		s.columnStats(d, i)
	}
}

// run plans a bound plan (optimize.go) and runs it on its executor.
func (s *Server) run(ctx context.Context, plan *engine.Plan, sink engine.BatchSink) error {
	plan = lowerZones(plan, clockOf(ctx).zone).(*engine.Plan) // timezone.go
	plan, err := optimize(plan, s.columnStats)
	if err != nil {
		return err
	}
	engine.OpLogOf(ctx).SetRoot(plan) // EXPLAIN ANALYZE prints the tree that ran
	s.countScans(ctx, plan)
	return s.executor(plan).Execute(ctx, plan, sink)
}

// countScans counts the scans of user tables in plan, which is about to
// run, into their tables' counters (pg_stat_user_tables; snapshot.go).
// A plain EXPLAIN's binding runs no scan of the statement's.
func (s *Server) countScans(ctx context.Context, plan *engine.Plan) {
	if p := pinsOf(ctx); p != nil && !explainOnly(ctx) {
		p.countScans(plan)
	}
}

// Catalog exposes the server's tables (for embedding and tests).
func (s *Server) Catalog() *engine.Catalog { return s.cat }

// ServerVersion is reported to clients as server_version.
func (s *Server) ServerVersion() string { return PGVersion + " (gpusql " + Version + ")" }

func (s *Server) version() string {
	return fmt.Sprintf("PostgreSQL %s (gpusql %s, %s backend) on %s-%s, compiled by %s",
		PGVersion, Version, s.backend.Name(), runtime.GOARCH, runtime.GOOS, runtime.Version())
}

// NewSession starts a session.
func (s *Server) NewSession(p engine.SessionParams) (engine.Session, error) {
	return newSession(s, p), nil
}
