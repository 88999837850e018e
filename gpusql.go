// Package gpusql embeds the gpusql engine in a Go program: the same engine
// that the gpusql server serves over the PostgreSQL wire protocol, called
// directly, with no socket in between.
//
//	db, err := gpusql.Open(gpusql.Options{FileRoot: "/data"})
//	...
//	defer db.Close()
//	_, err = db.Exec(ctx, `CREATE TABLE trips (id bigint, fare numeric(10,2)) FROM CSV 'trips.csv' WITH (HEADER true)`)
//	rows, err := db.Query(ctx, `SELECT id, fare FROM trips WHERE fare > $1`, 10)
//	defer rows.Close()
//	for rows.Next() {
//		var id int64
//		var fare *big.Rat
//		err = rows.Scan(&id, &fare)
//	}
//	err = rows.Err()
//
// The package also registers a database/sql driver named "gpusql" (see
// NewConnector and ParseDSN). Every error that comes from the engine is,
// or wraps, an *engine.Error carrying a SQLSTATE; use errors.As.
package gpusql

import (
	"context"
	"errors"
	"io"
	"sync"
	"sync/atomic"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/query"
)

// DB is an embedded gpusql engine: a catalog of tables and the backend
// that loads and queries them. It is safe for concurrent use by many
// goroutines; each Exec and Query runs in a session of its own. Close it
// to cancel running statements and release every table's memory.
type DB struct {
	srv      *query.Server
	backend  string
	fileRoot string
	notice   func(engine.Notice)

	ctx  context.Context // ends at Close, cancelling running statements
	stop context.CancelCauseFunc

	mu      sync.Mutex // guards closed and the Add of running
	closed  bool
	running sync.WaitGroup // statements and open Rows
}

// Open checks opts and starts an engine.
func Open(opts Options) (*DB, error) {
	o, err := opts.checked()
	if err != nil {
		return nil, err
	}
	srv, backend, err := newEngine(o)
	if err != nil {
		return nil, err
	}
	ctx, stop := context.WithCancelCause(context.Background())
	return &DB{srv: srv, backend: backend, fileRoot: o.FileRoot, notice: o.OnNotice, ctx: ctx, stop: stop}, nil
}

// FileRoot is the directory that paths in COPY FROM and CREATE TABLE ...
// FROM CSV are relative to: Options.FileRoot made absolute, symlinks
// resolved.
func (db *DB) FileRoot() string { return db.fileRoot }

// Backend names the backend that runs queries (as SHOW gpusql.device does).
func (db *DB) Backend() string { return db.backend }

// DeviceMemoryInUse is the GPU memory the engine holds now (the columns
// of every table version still in use, and running statements' scratch);
// 0 on the CPU backend.
func (db *DB) DeviceMemoryInUse() int64 {
	if m, ok := db.srv.Backend().(engine.MemoryReporter); ok {
		return m.DeviceMemoryInUse()
	}
	return 0
}

// Catalog is the engine's catalog of tables.
func (db *DB) Catalog() *engine.Catalog { return db.srv.Catalog() }

var (
	errDBClosed   = errors.New("gpusql: database is closed")
	errRowsClosed = errors.New("gpusql: rows closed")
)

// Close cancels the statements still running (they end with SQLSTATE
// 57P01), waits for them to stop, and drops every table, releasing its
// memory. Later calls fail with 08003. Close is idempotent.
func (db *DB) Close() error {
	db.mu.Lock()
	if db.closed {
		db.mu.Unlock()
		return nil
	}
	db.closed = true
	db.mu.Unlock()
	db.stop(errDBClosed)
	db.running.Wait()
	cat := db.srv.Catalog()
	// Freeing the tables is no DROP: a data dir keeps them.
	if d, ok := cat.Detach().(io.Closer); ok {
		_ = d.Close()
	}
	for _, t := range cat.Tables() {
		_ = cat.Drop(t.Name)
	}
	return nil
}

// begin registers a statement; the caller calls db.running.Done when it
// ends.
func (db *DB) begin() error {
	db.mu.Lock()
	defer db.mu.Unlock()
	if db.closed {
		return &engine.Error{Code: engine.CodeConnectionDoesNotExist, Message: errDBClosed.Error(), Err: errDBClosed}
	}
	db.running.Add(1)
	return nil
}

// Exec runs every statement of sql in a new session and returns the
// command tag of the last one ("CREATE TABLE", "COPY 1000", "SELECT 3"...);
// rows that SELECTs return are discarded. args fill the parameters $1,
// $2... (see Conn.Exec).
func (db *DB) Exec(ctx context.Context, sql string, args ...any) (tag string, err error) {
	c, err := db.Conn(ctx)
	if err != nil {
		return "", err
	}
	defer c.Close()
	return c.Exec(ctx, sql, args...)
}

// Query runs sql in a new session and streams the rows of its first
// result set (see Conn.Query); the session ends when the Rows are closed.
func (db *DB) Query(ctx context.Context, sql string, args ...any) (*Rows, error) {
	c, err := db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	r, err := c.Query(ctx, sql, args...)
	if err != nil {
		c.Close()
		return nil, err
	}
	r.ownConn = true
	return r, nil
}

// Conn returns a session of its own: settings (SET), transaction state
// and the like last from one statement to the next, as on one PostgreSQL
// connection. A Conn runs one statement at a time; it is not for
// concurrent use. Close it when done.
func (db *DB) Conn(ctx context.Context) (*Conn, error) {
	if err := ctx.Err(); err != nil {
		return nil, cancelError(err, context.Cause(ctx))
	}
	db.mu.Lock()
	closed := db.closed
	db.mu.Unlock()
	if closed {
		return nil, &engine.Error{Code: engine.CodeConnectionDoesNotExist, Message: errDBClosed.Error(), Err: errDBClosed}
	}
	sess, err := db.srv.NewSession(engine.SessionParams{User: "gpusql", Database: "gpusql", Application: "embedded"})
	if err != nil {
		return nil, err
	}
	return &Conn{db: db, sess: sess}, nil
}

// Conn is one session of a DB.
type Conn struct {
	db     *DB
	sess   engine.Session
	busy   atomic.Bool // a statement runs or Rows are open
	closed atomic.Bool
}

// acquire takes the session for one statement. release gives it back.
func (c *Conn) acquire() error {
	if c.closed.Load() {
		return engine.Errorf(engine.CodeConnectionDoesNotExist, "gpusql: connection is closed")
	}
	if !c.busy.CompareAndSwap(false, true) {
		return engine.Errorf(engine.CodeObjectNotInPrereqState, "gpusql: connection busy: close the Rows of the previous query first")
	}
	return nil
}

func (c *Conn) release() { c.busy.Store(false) }

// Close ends the session. Rows still open go on until they are closed.
func (c *Conn) Close() error {
	if c.closed.Swap(true) {
		return nil
	}
	return c.sess.Close()
}

// TxStatus is the session's transaction status: 'I' idle, 'T' in a
// transaction block, 'E' in a failed one.
func (c *Conn) TxStatus() byte { return c.sess.TxStatus() }

// statement is one running statement's context: ctx ends when the
// caller's context does, when the DB closes, or at cancel.
type statement struct {
	ctx    context.Context
	cancel context.CancelCauseFunc
	stop   func() bool // detaches ctx from the DB's
	db     *DB
}

func (c *Conn) startStatement(ctx context.Context) (*statement, error) {
	if err := c.db.begin(); err != nil {
		return nil, err
	}
	st := &statement{db: c.db}
	st.ctx, st.cancel = context.WithCancelCause(ctx)
	st.stop = context.AfterFunc(c.db.ctx, func() { st.cancel(errDBClosed) })
	return st, nil
}

// end releases the statement's context; call it once.
func (st *statement) end() {
	st.stop()
	st.cancel(nil)
	st.db.running.Done()
}

// errorOf turns what a session returned into the error callers see: an
// *engine.Error. A cancellation is 57014 (or 57P01 when the DB closed)
// and wraps the context's cause, so errors.Is(err, context.Canceled) and
// errors.Is(err, context.DeadlineExceeded) hold.
func (st *statement) errorOf(err error) error {
	if err == nil {
		return nil
	}
	cause := context.Cause(st.ctx)
	if cause == nil {
		return engine.AsError(err)
	}
	if errors.Is(cause, errDBClosed) {
		return &engine.Error{Code: engine.CodeAdminShutdown, Message: "terminating statement: the database was closed", Err: cause}
	}
	var e *engine.Error
	if errors.As(err, &e) && e.Code != engine.CodeQueryCanceled {
		return err // an error of its own that came first
	}
	return cancelError(err, cause)
}

// cancelError is the 57014 error for a statement stopped by its context.
func cancelError(err, cause error) error {
	var e *engine.Error
	if errors.As(err, &e) && e.Code == engine.CodeQueryCanceled {
		if e.Err == nil {
			e.Err = cause // a fresh error of the statement's own
		}
		return e
	}
	msg := "canceling statement due to user request"
	if errors.Is(cause, context.DeadlineExceeded) {
		msg = "canceling statement due to statement timeout"
	}
	return &engine.Error{Code: engine.CodeQueryCanceled, Message: msg, Err: cause}
}

// runner runs a statement (or several) with its results going to w.
type runner func(ctx context.Context, w engine.ResultWriter) error

// runnerFor is how sql with args runs: without args, every statement of
// sql through the session's Query; with args, sql (one statement) is
// prepared and run with them as parameter values. The session must be
// held (acquire).
func (c *Conn) runnerFor(ctx context.Context, sql string, args []any) (runner, error) {
	if len(args) == 0 {
		return func(ctx context.Context, w engine.ResultWriter) error { return c.sess.Query(ctx, sql, w) }, nil
	}
	p, err := c.prepare(ctx, sql)
	if err != nil {
		return nil, err
	}
	return runnerOf(p, args)
}

func runnerOf(p engine.Prepared, args []any) (runner, error) {
	params, err := encodeParams(args, p.ParamOIDs())
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, w engine.ResultWriter) error { return p.Run(ctx, params, w) }, nil
}

func (c *Conn) prepare(ctx context.Context, sql string) (engine.Prepared, error) {
	pr, ok := c.sess.(engine.Preparer)
	if !ok {
		return nil, engine.Errorf(engine.CodeFeatureNotSupported, "gpusql: this engine's sessions do not take parameters")
	}
	// Every parameter's type is inferred from its context, as for a
	// PostgreSQL driver that sends no types (OID 0).
	return pr.Prepare(ctx, sql, nil)
}

// Exec runs sql and returns the command tag of its last statement
// ("CREATE TABLE", "COPY 1000", "SELECT 3"...); rows that SELECTs return
// are discarded.
//
// Without args, sql may hold several statements. With args, it holds one,
// whose parameters $1, $2... take their types from their context, as
// PostgreSQL infers them ($1 is text where nothing says otherwise: cast
// it, $1::bigint, to choose), and args their values: nil (NULL), integers,
// floats, bool, string, []byte (as text), time.Time (its wall clock in its
// own location), *big.Rat (an exact decimal) and driver.Valuer.
func (c *Conn) Exec(ctx context.Context, sql string, args ...any) (tag string, err error) {
	if err := c.acquire(); err != nil {
		return "", err
	}
	defer c.release()
	st, err := c.startStatement(ctx)
	if err != nil {
		return "", err
	}
	defer st.end()
	run, err := c.runnerFor(st.ctx, sql, args)
	if err != nil {
		return "", st.errorOf(err)
	}
	return c.exec(st, run)
}

func (c *Conn) exec(st *statement, run runner) (string, error) {
	w := &execWriter{notice: c.db.notice}
	err := run(st.ctx, w)
	return w.tag, st.errorOf(err)
}

// execWriter keeps the last command tag and drops rows.
type execWriter struct {
	tag    string
	notice func(engine.Notice)
}

func (w *execWriter) Describe([]engine.ResultColumn) error { return nil }
func (w *execWriter) Row([][]byte) error                   { return nil }
func (w *execWriter) Complete(tag string) error            { w.tag = tag; return nil }
func (w *execWriter) EmptyQuery() error                    { return nil }
func (w *execWriter) Notice(n engine.Notice) error {
	if w.notice != nil {
		w.notice(n)
	}
	return nil
}

// Query runs sql and returns its rows as they are produced: the statements
// run in a goroutine that hands batches of rows to the Rows through a
// bounded queue, so a large result is never held whole, and the query
// waits while the caller does not read. Closing the Rows early cancels the
// rest of the query.
//
// Statements of sql before the first one that returns rows run first;
// errors until then are returned by Query, later ones by Rows.Err. When sql
// holds several queries, Rows.NextResultSet moves on to the next one. args
// are as for Exec.
func (c *Conn) Query(ctx context.Context, sql string, args ...any) (*Rows, error) {
	return c.query(ctx, func(ctx context.Context) (runner, error) { return c.runnerFor(ctx, sql, args) })
}

// query holds the session, makes the runner, and starts it streaming.
func (c *Conn) query(ctx context.Context, prepare func(context.Context) (runner, error)) (*Rows, error) {
	if err := c.acquire(); err != nil {
		return nil, err
	}
	st, err := c.startStatement(ctx)
	if err != nil {
		c.release()
		return nil, err
	}
	run, err := prepare(st.ctx)
	if err != nil {
		err = st.errorOf(err)
		st.end()
		c.release()
		return nil, err
	}
	r := newRows(c, st)
	go r.produce(run)
	if !r.advanceSet() && r.err != nil {
		err := r.err
		r.Close()
		return nil, err
	}
	// Without a result set (no statement returned rows) the Rows have no
	// columns and no rows, and the query has ended.
	return r, nil
}

// Prepare parses and binds sql, one statement, for running many times
// with different parameter values. The Stmt belongs to the Conn.
func (c *Conn) Prepare(ctx context.Context, sql string) (*Stmt, error) {
	if err := c.acquire(); err != nil {
		return nil, err
	}
	defer c.release()
	st, err := c.startStatement(ctx)
	if err != nil {
		return nil, err
	}
	defer st.end()
	p, err := c.prepare(st.ctx, sql)
	if err != nil {
		return nil, st.errorOf(err)
	}
	return &Stmt{c: c, p: p}, nil
}

// Stmt is a prepared statement of a Conn.
type Stmt struct {
	c *Conn
	p engine.Prepared
}

// ParamOIDs are the type OIDs of the parameters $1, $2..., as inferred.
func (s *Stmt) ParamOIDs() []uint32 { return s.p.ParamOIDs() }

// Columns describe the rows the statement returns; nil if none.
func (s *Stmt) Columns() []engine.ResultColumn { return s.p.Columns() }

// Exec runs the statement with args (see Conn.Exec) and returns its
// command tag.
func (s *Stmt) Exec(ctx context.Context, args ...any) (string, error) {
	run, err := runnerOf(s.p, args)
	if err != nil {
		return "", err
	}
	c := s.c
	if err := c.acquire(); err != nil {
		return "", err
	}
	defer c.release()
	st, err := c.startStatement(ctx)
	if err != nil {
		return "", err
	}
	defer st.end()
	return c.exec(st, run)
}

// Query runs the statement with args and streams its rows (see
// Conn.Query).
func (s *Stmt) Query(ctx context.Context, args ...any) (*Rows, error) {
	run, err := runnerOf(s.p, args)
	if err != nil {
		return nil, err
	}
	return s.c.query(ctx, func(context.Context) (runner, error) { return run, nil })
}
