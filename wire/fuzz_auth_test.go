package wire_test

import (
	"bytes"
	"crypto/tls"
	"testing"
	"time"

	"github.com/gpusql/gpusql/auth"
	"github.com/gpusql/gpusql/wire"
	"github.com/jackc/pgx/v5/pgproto3"
)

// FuzzAuthStartup feeds arbitrary bytes to a server that asks for a
// password (SCRAM-SHA-256 for role "u", md5 for role "m") and offers
// TLS: the startup packet, SSLRequest and GSSENCRequest negotiation,
// and the SASL and password messages. The session must neither panic
// nor hang, and no input may pass authentication without the password.
func FuzzAuthStartup(f *testing.F) {
	store, err := auth.Open("", auth.SCRAM)
	if err != nil {
		f.Fatal(err)
	}
	pw := "secret"
	if err := store.Create("u", auth.Options{Login: ptr(true), Password: &pw}); err != nil {
		f.Fatal(err)
	}
	md5pw := auth.MD5Verifier("m", pw)
	if err := store.Create("m", auth.Options{Login: ptr(true), Password: &md5pw}); err != nil {
		f.Fatal(err)
	}
	start := func(user string) []byte {
		return encode(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30,
			Parameters: map[string]string{"user": user, "database": "d"}})
	}
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	f.Add(start("u"))
	f.Add(cat(encode(&pgproto3.GSSEncRequest{}), start("u")))
	f.Add(cat(encode(&pgproto3.SSLRequest{}), []byte{0x16, 3, 1, 0, 5, 1, 0, 0, 1, 0}))
	f.Add(cat(start("u"), encode(&pgproto3.SASLInitialResponse{AuthMechanism: "SCRAM-SHA-256", Data: []byte("n,,n=,r=abcdef")}),
		encode(&pgproto3.SASLResponse{Data: []byte("c=biws,r=abcdefXYZ,p=AAAA")})))
	f.Add(cat(start("u"), encode(&pgproto3.SASLInitialResponse{AuthMechanism: "SCRAM-SHA-1", Data: []byte("p=tls-server-end-point,,n=,r=x")})))
	f.Add(cat(start("u"), encode(&pgproto3.SASLInitialResponse{AuthMechanism: "SCRAM-SHA-256", Data: []byte("y,a=x,n=u,r=\x7f")})))
	f.Add(cat(start("m"), encode(&pgproto3.PasswordMessage{Password: "md5" + "00000000000000000000000000000000"})))
	f.Add(cat(start("nobody"), encode(&pgproto3.PasswordMessage{Password: "x"})))
	f.Add(cat(start("u"), encode(&pgproto3.Query{String: "select 1"})))

	srv := wire.NewServer(wire.Config{
		MaxMessageSize: 1 << 16, Auth: auth.SCRAM, Roles: store,
		TLS: &tls.Config{Certificates: []tls.Certificate{testCert(f)}},
	}, newFuzzEngine())
	f.Fuzz(func(t *testing.T, in []byte) {
		c := &recordConn{streamConn: streamConn{r: bytes.NewReader(in)}}
		done := make(chan struct{})
		go func() {
			defer close(done)
			srv.ServeConn(c)
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second): // a bound, not synchronisation
			t.Fatalf("session did not end at EOF of a %d-byte input", len(in))
		}
		// AuthenticationOk is 'R', length 8, code 0; ReadyForQuery only
		// follows it. No input knows the password's proof.
		if bytes.Contains(c.out.Bytes(), []byte{'Z', 0, 0, 0, 5}) {
			t.Fatalf("a session became ready without the password; input %q", in)
		}
	})
}

func ptr[T any](v T) *T { return &v }

// recordConn is a streamConn that keeps what the server wrote.
type recordConn struct {
	streamConn
	out bytes.Buffer
}

func (c *recordConn) Write(b []byte) (int, error) { return c.out.Write(b) }
