package wire

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gpusql/gpusql/engine"
	"github.com/jackc/pgx/v5/pgproto3"
)

// Output buffering. Messages are appended to conn.out and written when a
// response is complete, or as soon as the buffer passes flushThreshold
// while rows stream. A buffer that grew past maxRetainedOut (one huge row)
// is dropped after the write rather than kept for the session's life.
const (
	flushThreshold = 64 << 10
	maxRetainedOut = 1 << 20
)

// conn is one client connection. Everything but cancelFn, killed and
// done is owned by the connection's goroutine.
type conn struct {
	srv *Server
	nc  net.Conn
	log *slog.Logger
	be  *pgproto3.Backend

	out      []byte // pending output, see flush
	writeErr error  // first write error; the client is gone

	pid, secret uint32
	sess        engine.Session
	user        string
	tls         bool // the connection is encrypted
	slot        bool // holds a Config.MaxConnections slot

	ext extState
	// reported holds the parameter values last sent in ParameterStatus.
	reported map[string]string

	watch watchState // checks of a vanished client (watch.go)
	// end is how the session ends, for pg_stat_database (engine.EndNoter).
	end engine.SessionEnd

	mu       sync.Mutex
	cancelFn context.CancelCauseFunc // the running query's, nil when idle

	// killed is set by pg_terminate_backend (Server.TerminateBackend):
	// the session ends with 57P01 as soon as it notices. done is closed
	// when the session has ended.
	killed atomic.Bool
	done   chan struct{}
}

func newConn(s *Server, nc net.Conn) *conn {
	return &conn{
		srv:  s,
		nc:   nc,
		log:  s.log.With("remote", nc.RemoteAddr().String()),
		out:  make([]byte, 0, flushThreshold+flushThreshold/4),
		done: make(chan struct{}),
	}
}

// wake interrupts a blocked read so that the session notices shutdown.
func (c *conn) wake() { c.nc.SetReadDeadline(time.Now()) }

// cancelQuery cancels the running query, if there is one.
func (c *conn) cancelQuery(cause error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cancelFn != nil {
		c.log.Debug("cancelling query", "pid", c.pid, "cause", cause)
		c.cancelFn(cause)
	}
}

func (c *conn) serve() {
	defer close(c.done)
	defer c.nc.Close()
	c.log.Debug("connection opened")
	if !c.startup() {
		c.log.Debug("connection closed during startup")
		return
	}
	defer func() {
		if c.writeErr != nil && c.end == engine.EndNormal {
			c.end = engine.EndFatal // PostgreSQL's "connection to client lost"
		}
		if n, ok := c.sess.(engine.EndNoter); ok {
			n.NoteEnd(c.end)
		}
		if err := c.sess.Close(); err != nil {
			c.log.Info("closing session", "pid", c.pid, "err", err)
		}
		c.log.Debug("session ended", "pid", c.pid, "user", c.user)
	}()
	if c.be == nil { // authentication may have made it
		c.be = pgproto3.NewBackend(c.nc, c.nc) // writes go through c.out, never be.Send
	}
	c.be.SetMaxBodyLen(c.srv.cfg.MaxMessageSize)
	for {
		if c.srv.isShutting() || c.killed.Load() {
			c.terminate()
			return
		}
		idle, code, why := c.idleTimeout()
		if idle > 0 {
			c.nc.SetReadDeadline(time.Now().Add(idle))
			if c.srv.isShutting() || c.killed.Load() { // shutdown's or a kill's wake may have come before
				c.terminate()
				return
			}
		}
		msg, err := c.be.Receive()
		if idle > 0 {
			c.nc.SetReadDeadline(time.Time{})
		}
		if err != nil {
			if idle > 0 && errors.Is(err, os.ErrDeadlineExceeded) && !c.srv.isShutting() && !c.killed.Load() {
				c.fatal(code, why)
				return
			}
			c.readFailed(err)
			return
		}
		if !c.handle(msg) {
			return
		}
	}
}

// IdleTimeouts is an optional interface of an engine.Session: how long
// the session may wait for its client's next message, outside a
// transaction block (idle_session_timeout) and inside one
// (idle_in_transaction_session_timeout); 0 is forever.
type IdleTimeouts interface {
	IdleTimeouts() (session, inTransaction time.Duration)
}

// idleTimeout is how long the session waits for its next message now,
// and the FATAL error it ends with after that.
func (c *conn) idleTimeout() (time.Duration, string, string) {
	it, ok := c.sess.(IdleTimeouts)
	if !ok {
		return 0, "", ""
	}
	idle, inTx := it.IdleTimeouts()
	if c.sess.TxStatus() == 'I' {
		return idle, engine.CodeIdleSessionTimeout, "terminating connection due to idle-session timeout"
	}
	return inTx, engine.CodeIdleInTxTimeout, "terminating connection due to idle-in-transaction timeout"
}

// readFailed reports why the message loop stops.
func (c *conn) readFailed(err error) {
	var tooBig *pgproto3.ExceededMaxBodyLenErr
	switch {
	case c.srv.isShutting(), c.killed.Load():
		c.terminate()
	case errors.As(err, &tooBig):
		c.fatal(engine.CodeProtocolViolation, fmt.Sprintf(
			"message of %d bytes exceeds the maximum message size of %d bytes", tooBig.ActualBodyLen, tooBig.MaxExpectedBodyLen))
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, net.ErrClosed),
		errors.Is(err, os.ErrDeadlineExceeded):
		c.log.Debug("client disconnected", "pid", c.pid)
		c.end = engine.EndAbandoned
	default:
		c.fatal(engine.CodeProtocolViolation, "invalid frontend message: "+err.Error())
	}
}

// handle processes one message and reports whether the session goes on.
func (c *conn) handle(msg pgproto3.FrontendMessage) bool {
	switch m := msg.(type) {
	case *pgproto3.Query:
		if c.ext.ignoring {
			return true
		}
		if !c.resolvePending() {
			return c.writeErr == nil
		}
		return c.simpleQuery(m.String)
	case *pgproto3.Parse, *pgproto3.Bind, *pgproto3.Describe, *pgproto3.Execute,
		*pgproto3.Sync, *pgproto3.Close, *pgproto3.Flush:
		return c.extended(m)
	case *pgproto3.Terminate:
		c.log.Debug("client terminated session", "pid", c.pid)
		return false
	case *pgproto3.CopyData, *pgproto3.CopyDone, *pgproto3.CopyFail:
		// PostgreSQL ignores these outside COPY, so a client that aborts
		// a COPY does not lose its session.
		return true
	case *pgproto3.FunctionCall:
		c.sendError(engine.Errorf(engine.CodeFeatureNotSupported, "the function call protocol is not supported"))
		c.readyForQuery()
		return c.flush() == nil
	default:
		c.fatal(engine.CodeProtocolViolation, fmt.Sprintf("unexpected message %T after startup", msg))
		return false
	}
}

// simpleQuery runs a Query message: every statement in sql, results
// streamed, then ReadyForQuery.
func (c *conn) simpleQuery(sql string) bool {
	w := &streamWriter{c: c, describe: true}
	err, shutdown := c.runQuery(sql, w)
	if c.writeErr != nil {
		c.log.Debug("client gone while sending results", "pid", c.pid, "err", c.writeErr)
		return false
	}
	if shutdown {
		c.terminate()
		return false
	}
	if err != nil {
		c.sendError(err)
	}
	c.readyForQuery()
	return c.flush() == nil
}

// runQuery runs sql with a context that CancelRequest and shutdown can
// cancel. shutdown reports that the query was stopped by shutdown, in
// which case the session must end with 57P01.
func (c *conn) runQuery(sql string, w engine.ResultWriter) (err error, shutdown bool) {
	return c.runFunc(func(ctx context.Context) error { return c.sess.Query(ctx, sql, w) })
}

func (c *conn) readyForQuery() {
	c.reportChanges()
	tx := c.sess.TxStatus()
	c.send(&pgproto3.ReadyForQuery{TxStatus: tx})
	if tx == 'I' {
		c.ext.endTransaction()
	}
}

// send appends msg to the output buffer. An encoding error (a message over
// PostgreSQL's 1 GiB limit) leaves the buffer as it was.
func (c *conn) send(msg pgproto3.BackendMessage) error {
	b, err := msg.Encode(c.out)
	if err != nil {
		c.log.Info("encoding message", "type", fmt.Sprintf("%T", msg), "err", err)
		return engine.Errorf(engine.CodeProgramLimitExceeded, "%s", err.Error())
	}
	c.out = b
	return nil
}

// flush writes the buffered output. After a write error every later flush
// fails at once: the client is gone.
func (c *conn) flush() error {
	if c.writeErr != nil {
		return c.writeErr
	}
	if len(c.out) == 0 {
		return nil
	}
	_, err := c.nc.Write(c.out)
	if cap(c.out) > maxRetainedOut {
		c.out = make([]byte, 0, flushThreshold+flushThreshold/4)
	} else {
		c.out = c.out[:0]
	}
	if err != nil {
		c.writeErr = err
	}
	return err
}

// maybeFlush writes the buffer once it passes flushThreshold.
func (c *conn) maybeFlush() error {
	if len(c.out) >= flushThreshold {
		return c.flush()
	}
	return c.writeErr
}

// errorResponse renders err as PostgreSQL reports it.
func errorResponse(err error, severity string) *pgproto3.ErrorResponse {
	e := engine.AsError(err)
	if severity == "" {
		severity = e.Severity
	}
	if severity == "" {
		severity = "ERROR"
	}
	return &pgproto3.ErrorResponse{
		Severity:            severity,
		SeverityUnlocalized: severity,
		Code:                e.Code,
		Message:             e.Message,
		Detail:              e.Detail,
		Hint:                e.Hint,
		Where:               e.Where,
		Position:            int32(min(max(e.Position, 0), 1<<30)),
	}
}

// sendError sends err as an ErrorResponse.
func (c *conn) sendError(err error) {
	r := errorResponse(err, "")
	c.log.Info("statement failed", "pid", c.pid, "code", r.Code, "err", r.Message)
	c.send(r)
}

// fatal sends a FATAL error and flushes; the caller then ends the session.
func (c *conn) fatal(code, msg string) {
	if c.end == engine.EndNormal {
		c.end = engine.EndFatal
	}
	c.log.Info("closing connection", "pid", c.pid, "code", code, "err", msg)
	c.send(&pgproto3.ErrorResponse{Severity: "FATAL", SeverityUnlocalized: "FATAL", Code: code, Message: msg})
	c.nc.SetWriteDeadline(time.Now().Add(fatalWriteTimeout))
	c.flush()
}

// fatalWriteTimeout bounds the last write to a client that may not read.
const fatalWriteTimeout = 5 * time.Second

// terminate ends the session because the server is shutting down, or
// pg_terminate_backend ended it.
func (c *conn) terminate() {
	c.end = engine.EndKilled
	c.fatal(engine.CodeAdminShutdown, "terminating connection due to administrator command")
}

// refuseShutdown answers a connection that arrives during shutdown.
func (c *conn) refuseShutdown() {
	c.fatal(engine.CodeAdminShutdown, "the database system is shutting down")
}
