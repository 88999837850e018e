package wire_test

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/cpu"
	"github.com/gpusql/gpusql/loader"
	gpuquery "github.com/gpusql/gpusql/query"
	"github.com/gpusql/gpusql/wire"
	"github.com/jackc/pgx/v5/pgproto3"
)

// copyAbortServer serves the real engine with table r of 1000 rows. Each
// connection is served by the test itself (serve), so that the test can
// wait until the server has finished with it: no sleeping.
type copyAbortServer struct {
	t   *testing.T
	ln  net.Listener
	srv *wire.Server
	qs  *gpuquery.Server
}

func newCopyAbortServer(t *testing.T) *copyAbortServer {
	t.Helper()
	dir := t.TempDir()
	var b strings.Builder
	for i := 1; i <= 1000; i++ {
		fmt.Fprintf(&b, "%d,%d\n", i, i%10)
	}
	if err := os.WriteFile(filepath.Join(dir, "r.csv"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	qs, err := gpuquery.NewServer(gpuquery.Options{FileRoot: dir, Backend: cpu.New(loader.NewCPU(loader.Config{}), 0)})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	s := &copyAbortServer{t: t, ln: ln, srv: wire.NewServer(wire.Config{}, qs), qs: qs}
	t.Cleanup(func() { s.srv.Close() })
	c, done := s.serve(t)
	c.send(&pgproto3.Query{String: "CREATE TABLE r (id bigint, v int) FROM CSV 'r.csv'"})
	c.expectCommand("CREATE TABLE")
	c.nc.Close()
	<-done
	s.wantRows(t, 1000)
	return s
}

// serve dials the server, serves the accepted connection, and completes
// startup; done closes when the server has finished with the connection.
func (s *copyAbortServer) serve(t *testing.T) (*client, chan struct{}) {
	t.Helper()
	c, done := s.dialRaw(t)
	c.startup(map[string]string{"user": "alice", "database": "db"})
	return c, done
}

func (s *copyAbortServer) dialRaw(t *testing.T) (*client, chan struct{}) {
	t.Helper()
	nc, err := net.Dial("tcp", s.ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	sc, err := s.ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.srv.ServeConn(sc)
	}()
	nc.SetDeadline(time.Now().Add(safetyDeadline))
	t.Cleanup(func() { nc.Close() })
	return &client{t: t, nc: nc, fe: pgproto3.NewFrontend(nc, nc), params: map[string]string{}}, done
}

func (s *copyAbortServer) wantRows(t *testing.T, want int64) {
	t.Helper()
	tb, ok := s.qs.Catalog().Lookup("r")
	if !ok {
		t.Fatal("table r is gone")
	}
	if n := tb.Rows(); n != want {
		t.Fatalf("r has %d rows, want %d", n, want)
	}
}

// expectCommand reads up to ReadyForQuery and checks the command tag.
func (c *client) expectCommand(tag string) {
	c.t.Helper()
	for {
		switch m := c.recv().(type) {
		case *pgproto3.CommandComplete:
			if string(m.CommandTag) != tag {
				c.t.Fatalf("command %q, want %q", m.CommandTag, tag)
			}
		case *pgproto3.ErrorResponse:
			c.t.Fatalf("error %s %s", m.Code, m.Message)
		case *pgproto3.ReadyForQuery:
			return
		}
	}
}

// expectError reads up to ReadyForQuery and checks the error's SQLSTATE
// and that its message contains msg.
func (c *client) expectError(code, msg string) {
	c.t.Helper()
	var got *pgproto3.ErrorResponse
	for {
		switch m := c.recv().(type) {
		case *pgproto3.ErrorResponse:
			e := *m
			got = &e
		case *pgproto3.CommandComplete:
			c.t.Fatalf("command completed (%s), want error %s", m.CommandTag, code)
		case *pgproto3.ReadyForQuery:
			if got == nil {
				c.t.Fatalf("no error, want %s", code)
			}
			if got.Code != code || !strings.Contains(got.Message, msg) {
				c.t.Fatalf("error %s %q, want %s containing %q", got.Code, got.Message, code, msg)
			}
			return
		}
	}
}

// half is the first half of a COPY: 5000 complete rows and a partial one.
func half() []byte {
	var b strings.Builder
	for i := 1; i <= 5000; i++ {
		fmt.Fprintf(&b, "%d,%d\n", 100000+i, i%10)
	}
	b.WriteString("105001,")
	return []byte(b.String())
}

// startCopy starts COPY r FROM STDIN on c and sends half of the data.
func startCopy(c *client) {
	c.t.Helper()
	c.send(&pgproto3.Query{String: "COPY r FROM STDIN WITH (FORMAT csv)"})
	if _, ok := c.recv().(*pgproto3.CopyInResponse); !ok {
		c.t.Fatal("want CopyInResponse")
	}
	c.send(&pgproto3.CopyData{Data: half()})
}

// A COPY FROM STDIN commits only on CopyDone: whatever else ends it
// leaves r as it was.
func TestCopyFromStdinAborts(t *testing.T) {
	s := newCopyAbortServer(t)
	t.Run("FIN", func(t *testing.T) {
		// The client process dies: the kernel closes its socket with FIN.
		c, done := s.serve(t)
		startCopy(c)
		c.nc.Close()
		<-done
		s.wantRows(t, 1000)
	})
	t.Run("RST", func(t *testing.T) {
		c, done := s.serve(t)
		startCopy(c)
		if err := c.nc.(*net.TCPConn).SetLinger(0); err != nil {
			t.Fatal(err)
		}
		c.nc.Close()
		<-done
		s.wantRows(t, 1000)
	})
	t.Run("half-close", func(t *testing.T) {
		// FIN while the client still reads: it is told why.
		c, done := s.serve(t)
		startCopy(c)
		if err := c.nc.(*net.TCPConn).CloseWrite(); err != nil {
			t.Fatal(err)
		}
		// the COPY's read or the connection check, whichever sees the
		// FIN first, fails it
		c.expectError(engine.CodeConnectionFailure, "")
		<-done
		s.wantRows(t, 1000)
	})
	t.Run("CopyFail", func(t *testing.T) {
		c, done := s.serve(t)
		startCopy(c)
		c.send(&pgproto3.CopyFail{Message: "client gave up"})
		c.expectError(engine.CodeQueryCanceled, "client gave up")
		s.wantRows(t, 1000)
		c.nc.Close()
		<-done
	})
	t.Run("protocol error", func(t *testing.T) {
		c, done := s.serve(t)
		startCopy(c)
		c.send(&pgproto3.Query{String: "SELECT 1"})
		c.expectError(engine.CodeProtocolViolation, "unexpected message")
		s.wantRows(t, 1000)
		c.nc.Close()
		<-done
	})
	t.Run("cancel", func(t *testing.T) {
		c, done := s.serve(t)
		startCopy(c)
		k, kdone := s.dialRaw(t)
		k.send(&pgproto3.CancelRequest{ProcessID: c.key.ProcessID, SecretKey: c.key.SecretKey})
		k.nc.Close()
		<-kdone
		c.expectError(engine.CodeQueryCanceled, "user request")
		s.wantRows(t, 1000)
		c.nc.Close()
		<-done
	})
	t.Run("statement_timeout", func(t *testing.T) {
		c, done := s.serve(t)
		c.send(&pgproto3.Query{String: "SET statement_timeout = '50ms'"})
		c.expectCommand("SET")
		startCopy(c)
		c.expectError(engine.CodeQueryCanceled, "statement timeout")
		s.wantRows(t, 1000)
		c.nc.Close()
		<-done
	})
	t.Run("CopyDone", func(t *testing.T) {
		// The control: the same COPY finished commits its rows.
		c, done := s.serve(t)
		startCopy(c)
		c.send(&pgproto3.CopyData{Data: []byte("9\n")}, &pgproto3.CopyDone{})
		c.expectCommand("COPY 5001")
		s.wantRows(t, 6001)
		c.nc.Close()
		<-done
	})
}
