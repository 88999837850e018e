package wire

// White-box test of the vanished-client watch (watch.go): the test reads
// the connection's check counter, so it asserts in checks, not seconds.

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/gpusql/gpusql/engine"
	"github.com/jackc/pgx/v5/pgproto3"
)

// blockingEngine's statements block until their context ends, and
// report it on ended.
type blockingEngine struct {
	every   time.Duration
	started chan struct{}
	ended   chan error // the statement context's cause
}

func (e *blockingEngine) NewSession(engine.SessionParams) (engine.Session, error) {
	return &blockingSession{e: e}, nil
}
func (e *blockingEngine) ServerVersion() string { return "15.0 (gpusql test)" }

type blockingSession struct{ e *blockingEngine }

func (s *blockingSession) Query(ctx context.Context, _ string, _ engine.ResultWriter) error {
	s.e.started <- struct{}{}
	<-ctx.Done()
	s.e.ended <- context.Cause(ctx)
	return engine.Errorf(engine.CodeQueryCanceled, "canceling statement due to user request")
}
func (s *blockingSession) TxStatus() byte                     { return 'I' }
func (s *blockingSession) Close() error                       { return nil }
func (s *blockingSession) ClientCheckInterval() time.Duration { return s.e.every }

// startBlocked serves one TCP connection whose client has sent a query
// that blocks; it returns once the statement runs.
func startBlocked(t *testing.T, every time.Duration) (e *blockingEngine, nc net.Conn, c *conn, served chan struct{}) {
	t.Helper()
	e = &blockingEngine{every: every, started: make(chan struct{}, 1), ended: make(chan error, 1)}
	srv := NewServer(Config{}, e)
	t.Cleanup(func() { srv.Close() })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if nc, err = net.Dial("tcp", ln.Addr().String()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	sc, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	served = make(chan struct{})
	go func() { defer close(served); srv.ServeConn(sc) }()
	fe := pgproto3.NewFrontend(nc, nc)
	fe.Send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30, Parameters: map[string]string{"user": "u"}})
	fe.Send(&pgproto3.Query{String: "a long query"})
	if err := fe.Flush(); err != nil {
		t.Fatal(err)
	}
	<-e.started
	srv.mu.Lock()
	for k := range srv.conns {
		c = k
	}
	srv.mu.Unlock()
	return e, nc, c, served
}

// A client that closes (FIN) or resets (RST) its connection while its
// statement runs has the statement cancelled by the next check, or at
// worst the one after: within twice the check interval.
func TestVanishedClientCancelsStatement(t *testing.T) {
	for _, how := range []string{"FIN", "RST"} {
		t.Run(how, func(t *testing.T) {
			e, nc, c, served := startBlocked(t, 20*time.Millisecond)
			before := c.watch.checks.Load()
			closed := time.Now()
			if how == "RST" {
				if err := nc.(*net.TCPConn).SetLinger(0); err != nil {
					t.Fatal(err)
				}
			}
			nc.Close()
			cause := <-e.ended
			took := time.Since(closed)
			<-served
			if !errors.Is(cause, errClientGone) {
				t.Fatalf("statement ended by %v, want errClientGone", cause)
			}
			gone := c.watch.goneAt.Load()
			if gone == 0 || gone-before > 2 {
				t.Fatalf("found gone at check %d; the client closed after check %d: want within 2 checks", gone, before)
			}
			t.Logf("%s: cancelled at check %d after the close at check %d, %v after it (interval %v)", how, gone, before, took, e.every)
		})
	}
}

// With the interval at 0 the connection is never polled, and a client's
// close does not cancel its statement.
func TestNoCheckWhenIntervalZero(t *testing.T) {
	e, nc, c, served := startBlocked(t, 0)
	nc.Close()
	c.cancelQuery(errCancelRequest)
	if cause := <-e.ended; !errors.Is(cause, errCancelRequest) {
		t.Fatalf("statement ended by %v, want the cancel request", cause)
	}
	<-served
	if n := c.watch.checks.Load(); n != 0 {
		t.Fatalf("%d checks with the interval at 0", n)
	}
}
