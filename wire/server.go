// Package wire serves gpusql over the PostgreSQL frontend/backend protocol,
// version 3.0, so that psql and ordinary PostgreSQL drivers connect
// unchanged.
//
// The package owns connections and protocol state: startup, the simple
// query cycle, a parameterless form of the extended query protocol,
// cancellation and shutdown. It knows nothing of SQL; every statement is
// handed to an engine.Session, and results come back through an
// engine.ResultWriter that encodes them straight into the connection's
// output buffer.
//
// Messages are decoded and encoded with github.com/jackc/pgx/v5/pgproto3.
// Everything a client controls is bounded: the startup packet (10 KiB), a
// message body (Config.MaxMessageSize), the number of prepared statements
// and portals, and the rows a portal may buffer.
package wire

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"crypto/tls"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gpusql/gpusql/auth"
	"github.com/gpusql/gpusql/engine"
)

// Defaults for Config fields left zero.
const (
	DefaultListen          = "127.0.0.1:5433"
	DefaultMaxMessageSize  = 64 << 20 // 64 MiB: a large multi-statement script fits
	DefaultShutdownTimeout = 10 * time.Second
	DefaultMaxPortalBuffer = 256 << 20 // rows a portal may hold for Execute with a row limit
)

// Config configures a Server. The zero value of every field means its
// default.
type Config struct {
	// Listen is the TCP address ListenAndServe listens on.
	Listen string
	// MaxMessageSize bounds the body of one client message, in bytes. A
	// larger message ends the connection with 08P01.
	MaxMessageSize int
	// ShutdownTimeout is how long Close, and Serve when its context ends,
	// let running queries finish before cancelling them.
	ShutdownTimeout time.Duration
	// MaxPortalBuffer bounds the bytes of rows that one extended-protocol
	// portal may hold in memory (see extended.go for when it does).
	MaxPortalBuffer int
	// Logger receives connection events at debug and errors at info.
	// Nil discards.
	Logger *slog.Logger

	// Auth is how clients prove who they are: auth.Trust (also ""),
	// auth.SCRAM or auth.MD5. Roles finds their verifiers.
	Auth  auth.Method
	Roles Verifiers
	// TLS, when set, is offered to clients that send SSLRequest;
	// TLSRequired refuses clients that do not (28000).
	TLS         *tls.Config
	TLSRequired bool
	// MaxConnections bounds the sessions at once; one more is refused
	// with 53300. Zero: no limit.
	MaxConnections int
	// MaxStatements and MaxPortals bound the named prepared statements
	// and the portals of one session that the wire keeps (the engine's
	// session keeps its own, see query.Options). Zero: 10000 each.
	MaxStatements, MaxPortals int
}

func (c Config) withDefaults() Config {
	if c.Listen == "" {
		c.Listen = DefaultListen
	}
	if c.MaxMessageSize <= 0 {
		c.MaxMessageSize = DefaultMaxMessageSize
	}
	if c.ShutdownTimeout <= 0 {
		c.ShutdownTimeout = DefaultShutdownTimeout
	}
	if c.MaxPortalBuffer <= 0 {
		c.MaxPortalBuffer = DefaultMaxPortalBuffer
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.MaxStatements <= 0 {
		c.MaxStatements = defaultMaxStatements
	}
	if c.MaxPortals <= 0 {
		c.MaxPortals = defaultMaxPortals
	}
	return c
}

// ErrServerClosed is returned by Serve and ListenAndServe when they are
// called after the server has been shut down.
var ErrServerClosed = errors.New("wire: server closed")

// errShutdown is the cancellation cause of queries stopped by shutdown.
var errShutdown = errors.New("wire: server shutting down")

// errCancelRequest is the cancellation cause of a client's CancelRequest
// and of pg_cancel_backend.
var errCancelRequest = errors.New("wire: cancel request")

// errTerminate is the cancellation cause of pg_terminate_backend.
var errTerminate = errors.New("wire: session terminated")

// Server accepts PostgreSQL connections and runs them against an
// engine.Server. It is safe for concurrent use.
type Server struct {
	cfg Config
	eng engine.Server
	log *slog.Logger

	// hardCtx is the parent of every query context. It is cancelled, with
	// cause errShutdown, when a shutdown's grace period ends.
	hardCtx    context.Context
	hardCancel context.CancelCauseFunc

	nextPID atomic.Uint32

	sessionsIn atomic.Int64 // sessions holding a MaxConnections slot

	closing atomic.Bool // set once shutdown begins; read on every message

	mu        sync.Mutex
	shutting  bool
	listeners map[net.Listener]struct{}
	conns     map[*conn]struct{}
	byPID     map[uint32]*conn
	active    sync.WaitGroup // one per conn in conns
	addr      net.Addr

	stopOnce sync.Once
	stopped  chan struct{} // closed when shutdown has finished
	stopErr  error
}

// NewServer returns a server that runs sessions of eng.
func NewServer(cfg Config, eng engine.Server) *Server {
	cfg = cfg.withDefaults()
	hard, cancel := context.WithCancelCause(context.Background())
	return &Server{
		cfg:        cfg,
		eng:        eng,
		log:        cfg.Logger,
		hardCtx:    hard,
		hardCancel: cancel,
		listeners:  map[net.Listener]struct{}{},
		conns:      map[*conn]struct{}{},
		byPID:      map[uint32]*conn{},
		stopped:    make(chan struct{}),
	}
}

// Addr is the address of the listener Serve was most recently given, or
// nil before that.
func (s *Server) Addr() net.Addr {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addr
}

// ListenAndServe listens on Config.Listen and calls Serve.
func (s *Server) ListenAndServe(ctx context.Context) error {
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", s.cfg.Listen)
	if err != nil {
		return err
	}
	return s.Serve(ctx, ln)
}

// Serve accepts connections on ln, one goroutine each, until ctx ends or
// Shutdown or Close is called. When ctx ends, Serve shuts the server down
// as Close does. Serve closes ln. It returns once shutdown has finished:
// nil when every connection ended within the grace period, otherwise the
// shutdown's error, or the listener's error if accepting failed.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	s.mu.Lock()
	if s.shutting {
		s.mu.Unlock()
		ln.Close()
		return ErrServerClosed
	}
	s.listeners[ln] = struct{}{}
	s.addr = ln.Addr()
	s.mu.Unlock()

	watchDone := make(chan struct{})
	defer close(watchDone)
	go func() {
		select {
		case <-ctx.Done():
			s.Close()
		case <-watchDone:
		}
	}()

	var backoff time.Duration
	for {
		nc, err := ln.Accept()
		if err != nil {
			if s.isShutting() {
				<-s.stopped
				return s.stopErr
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				// A transient accept failure (e.g. too many open files):
				// back off as net/http does rather than spin.
				backoff = min(max(2*backoff, 5*time.Millisecond), time.Second)
				s.log.Info("accept failed; retrying", "err", err, "in", backoff)
				time.Sleep(backoff)
				continue
			}
			s.mu.Lock()
			delete(s.listeners, ln)
			s.mu.Unlock()
			ln.Close()
			return err
		}
		backoff = 0
		go s.ServeConn(nc)
	}
}

// ServeConn serves one accepted connection and returns when it has ended.
// It closes nc. Serve calls it for each connection; tests may call it
// directly with any net.Conn.
func (s *Server) ServeConn(nc net.Conn) {
	c := newConn(s, nc)
	s.mu.Lock()
	if s.shutting {
		s.mu.Unlock()
		c.refuseShutdown()
		nc.Close()
		return
	}
	s.conns[c] = struct{}{}
	s.active.Add(1)
	s.mu.Unlock()

	defer func() {
		s.mu.Lock()
		delete(s.conns, c)
		if c.slot {
			s.releaseSlot()
		}
		if c.pid != 0 {
			delete(s.byPID, c.pid)
		}
		s.mu.Unlock()
		s.active.Done()
	}()
	c.serve()
}

func (s *Server) isShutting() bool { return s.closing.Load() }

// register gives c a process ID and secret key for BackendKeyData and
// CancelRequest.
func (s *Server) register(c *conn) error {
	var secret [4]byte
	if _, err := rand.Read(secret[:]); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		pid := s.nextPID.Add(1)
		if _, taken := s.byPID[pid]; pid != 0 && !taken {
			c.pid, c.secret = pid, binary.BigEndian.Uint32(secret[:])
			s.byPID[pid] = c
			return nil
		}
	}
}

// cancel handles a CancelRequest: it cancels the running query of the
// session with that key, if any. Like PostgreSQL, it reports nothing back.
func (s *Server) cancel(pid uint32, secret []byte) {
	s.mu.Lock()
	c := s.byPID[pid]
	s.mu.Unlock()
	if c == nil || len(secret) != 4 {
		s.log.Debug("cancel request for unknown session", "pid", pid)
		return
	}
	var want [4]byte
	binary.BigEndian.PutUint32(want[:], c.secret)
	if subtle.ConstantTimeCompare(want[:], secret) != 1 {
		s.log.Info("cancel request with wrong secret key", "pid", pid)
		return
	}
	c.cancelQuery(errCancelRequest)
}

// byProcessID is the session with process ID pid, or nil.
func (s *Server) byProcessID(pid uint32) *conn {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.byPID[pid]
}

// CancelBackend cancels the running query of session pid
// (pg_cancel_backend; engine.Backends).
func (s *Server) CancelBackend(pid uint32) bool {
	c := s.byProcessID(pid)
	if c == nil {
		return false
	}
	c.cancelQuery(errCancelRequest)
	return true
}

// TerminateBackend ends session pid with 57P01 (pg_terminate_backend;
// engine.Backends): a session waiting for its client is woken, a running
// query cancelled, and either ends the session as shutdown does, but
// alone. pg_stat_database counts it killed.
func (s *Server) TerminateBackend(pid uint32) (<-chan struct{}, bool) {
	c := s.byProcessID(pid)
	if c == nil {
		return nil, false
	}
	select {
	case <-c.done: // ended, not yet forgotten by ServeConn
		return nil, false
	default:
	}
	c.killed.Store(true)
	c.cancelQuery(errTerminate)
	c.wake()
	return c.done, true
}

// Close shuts the server down, giving running queries Config.ShutdownTimeout
// to finish. See Shutdown.
func (s *Server) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.ShutdownTimeout)
	defer cancel()
	return s.Shutdown(ctx)
}

// Shutdown stops the server: it closes the listeners, ends idle sessions at
// once, and lets running queries finish until ctx ends. Then it cancels
// the queries still running. Every session it ends receives FATAL 57P01
// "terminating connection due to administrator command". Shutdown returns
// ctx's error if some connection had to be cancelled or closed by force.
// Only the first call does the work; later calls wait for it.
func (s *Server) Shutdown(ctx context.Context) error {
	s.stopOnce.Do(func() {
		s.stopErr = s.shutdown(ctx)
		close(s.stopped)
	})
	<-s.stopped
	return s.stopErr
}

func (s *Server) shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.shutting = true
	s.closing.Store(true)
	for ln := range s.listeners {
		ln.Close()
	}
	conns := make([]*conn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
	}
	s.mu.Unlock()
	s.log.Info("shutting down", "sessions", len(conns))

	// Wake every connection blocked reading: an idle session sees the
	// shutdown flag and terminates; a busy one notices it after its
	// current message.
	for _, c := range conns {
		c.wake()
	}
	done := make(chan struct{})
	go func() { s.active.Wait(); close(done) }()
	select {
	case <-done:
		s.hardCancel(errShutdown)
		return nil
	case <-ctx.Done():
	}

	// Grace is over: cancel running queries, so each session reports 57P01
	// and ends. Give them a moment to say so, then close by force.
	s.hardCancel(errShutdown)
	s.log.Info("shutdown grace period over; cancelling running queries")
	select {
	case <-done:
		return ctx.Err()
	case <-time.After(forceCloseAfter):
	}
	s.mu.Lock()
	for c := range s.conns {
		c.nc.Close()
	}
	n := len(s.conns)
	s.mu.Unlock()
	s.log.Info("closed connections by force", "count", n)
	select {
	case <-done:
		return ctx.Err()
	case <-time.After(forceCloseAfter):
		return fmt.Errorf("wire: %d sessions still running after shutdown: %w", n, ctx.Err())
	}
}

// forceCloseAfter is how long shutdown waits, after cancelling queries,
// for sessions to say goodbye before it closes their sockets; and after
// that, for their goroutines to return. A query that ignores cancellation
// is not waited for longer.
const forceCloseAfter = 2 * time.Second
