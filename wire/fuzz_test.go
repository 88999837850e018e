package wire_test

import (
	"bytes"
	"net"
	"testing"
	"time"

	"github.com/gpusql/gpusql/wire"
	"github.com/jackc/pgx/v5/pgproto3"
)

// streamConn is a net.Conn whose client side is a fixed byte stream: reads
// return the stream then EOF; writes are discarded.
type streamConn struct {
	r *bytes.Reader
}

func (c *streamConn) Read(b []byte) (int, error)       { return c.r.Read(b) }
func (c *streamConn) Write(b []byte) (int, error)      { return len(b), nil }
func (c *streamConn) Close() error                     { return nil }
func (c *streamConn) LocalAddr() net.Addr              { return &net.TCPAddr{} }
func (c *streamConn) RemoteAddr() net.Addr             { return &net.TCPAddr{} }
func (c *streamConn) SetDeadline(time.Time) error      { return nil }
func (c *streamConn) SetReadDeadline(time.Time) error  { return nil }
func (c *streamConn) SetWriteDeadline(time.Time) error { return nil }

// encode renders frontend messages as the bytes a client sends.
func encode(msgs ...pgproto3.FrontendMessage) []byte {
	var b []byte
	for _, m := range msgs {
		var err error
		if b, err = m.Encode(b); err != nil {
			panic(err)
		}
	}
	return b
}

// FuzzDecode feeds arbitrary bytes to the session loop as a client's
// stream. The loop must neither panic nor hang: each input ends in EOF,
// which must end the session.
func FuzzDecode(f *testing.F) {
	start := encode(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30,
		Parameters: map[string]string{"user": "u", "database": "d"}})
	f.Add(start)
	f.Add(append(encode(&pgproto3.SSLRequest{}), start...))
	f.Add(append(append([]byte(nil), start...), encode(&pgproto3.Query{String: "select 1; select two; fail; select null"})...))
	f.Add(append(append([]byte(nil), start...), encode(&pgproto3.Query{String: ""}, &pgproto3.Query{String: "notice"})...))
	f.Add(append(append([]byte(nil), start...), encode(
		&pgproto3.Parse{Name: "s", Query: "select two"}, &pgproto3.Describe{ObjectType: 'S', Name: "s"},
		&pgproto3.Bind{PreparedStatement: "s", DestinationPortal: "p", ResultFormatCodes: []int16{1}},
		&pgproto3.Describe{ObjectType: 'P', Name: "p"}, &pgproto3.Flush{},
		&pgproto3.Execute{Portal: "p", MaxRows: 1}, &pgproto3.Execute{Portal: "p"},
		&pgproto3.Close{ObjectType: 'P', Name: "p"}, &pgproto3.Sync{},
		&pgproto3.Parse{Query: "select $1"}, &pgproto3.Bind{Parameters: [][]byte{[]byte("1")}}, &pgproto3.Sync{},
		&pgproto3.Terminate{})...))
	f.Add(encode(&pgproto3.CancelRequest{ProcessID: 1, SecretKey: []byte{1, 2, 3, 4}}))
	f.Add(append(append([]byte(nil), start...), 'Q', 0x7f, 0xff, 0xff, 0xff))

	srv := wire.NewServer(wire.Config{MaxMessageSize: 1 << 16, MaxPortalBuffer: 1 << 16}, newFuzzEngine())
	f.Fuzz(func(t *testing.T, in []byte) {
		done := make(chan struct{})
		go func() {
			defer close(done)
			srv.ServeConn(&streamConn{r: bytes.NewReader(in)})
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second): // a bound, not synchronisation
			t.Fatalf("session did not end at EOF of a %d-byte input", len(in))
		}
	})
}

// newFuzzEngine is the fake engine without statements that wait.
func newFuzzEngine() *fakeServer {
	f := newFakeServer()
	delete(f.stmts, "block")
	delete(f.stmts, "endless")
	f.quiet = true
	return f
}
