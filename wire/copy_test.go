package wire_test

import (
	"testing"

	"github.com/gpusql/gpusql/wire"
	"github.com/jackc/pgx/v5/pgproto3"
)

func copyInResponse() *pgproto3.CopyInResponse {
	return &pgproto3.CopyInResponse{OverallFormat: 0, ColumnFormatCodes: []uint16{0, 0}}
}

func TestCopyProtocol(t *testing.T) {
	h := newHarness(t, wire.Config{})
	c := h.connect()
	copied := func(t *testing.T, want string) {
		t.Helper()
		if got := <-h.eng.copied; got != want {
			t.Fatalf("session read %q, want %q", got, want)
		}
	}
	t.Run("in", func(t *testing.T) {
		c := c.with(t)
		c.send(query("copy in"))
		c.expect(copyInResponse())
		// Flush and Sync are ignored during COPY IN, as in PostgreSQL.
		c.send(&pgproto3.CopyData{Data: []byte("1\ta\n2")}, &pgproto3.Flush{}, &pgproto3.CopyData{Data: []byte("\tb\n")},
			&pgproto3.Sync{}, &pgproto3.CopyDone{})
		copied(t, "1\ta\n2\tb\n")
		c.expect(complete("COPY 8"), ready())
	})
	t.Run("fail", func(t *testing.T) {
		c := c.with(t)
		c.send(query("copy in"))
		c.expect(copyInResponse())
		c.send(&pgproto3.CopyData{Data: []byte("1\ta\n")}, &pgproto3.CopyFail{Message: "aborted by user"})
		copied(t, "1\ta\n")
		c.expect(pgErr("ERROR", "57014", "COPY from stdin failed: aborted by user"), ready())
		c.send(query("select 1"))
		c.expect(rowDesc(int4Col("one")), row("1"), complete("SELECT 1"), ready())
	})
	t.Run("error part way", func(t *testing.T) {
		// The session fails after reading a little: the error comes at
		// once and the rest of the client's copy stream is discarded.
		c := c.with(t)
		c.send(query("copy in bad row"))
		c.expect(copyInResponse())
		c.send(&pgproto3.CopyData{Data: []byte("1\ta\tx\n")})
		copied(t, "1")
		c.expect(pgErr("ERROR", "22P04", "extra data after last expected column"), ready())
		c.send(&pgproto3.CopyData{Data: []byte("more\n")}, &pgproto3.CopyDone{}, query("select 1"))
		c.expect(rowDesc(int4Col("one")), row("1"), complete("SELECT 1"), ready())
	})
	t.Run("stops early", func(t *testing.T) {
		// The session stops reading (an end-of-data marker): the server
		// reads on to CopyDone before completing.
		c := c.with(t)
		c.send(query("copy in head"))
		c.expect(copyInResponse())
		c.send(&pgproto3.CopyData{Data: []byte("ab")}, &pgproto3.CopyData{Data: []byte("cd")}, &pgproto3.CopyDone{})
		copied(t, "ab")
		c.expect(complete("COPY 2"), ready())
	})
	t.Run("fail after early stop", func(t *testing.T) {
		c := c.with(t)
		c.send(query("copy in head"))
		c.expect(copyInResponse())
		c.send(&pgproto3.CopyData{Data: []byte("abcd")}, &pgproto3.CopyFail{Message: "no"})
		copied(t, "ab")
		c.expect(pgErr("ERROR", "57014", "COPY from stdin failed: no"), ready())
	})
	t.Run("unexpected message", func(t *testing.T) {
		c := c.with(t)
		c.send(query("copy in"))
		c.expect(copyInResponse())
		c.send(&pgproto3.CopyData{Data: []byte("x")}, query("select 1"))
		copied(t, "x")
		c.expect(pgErr("ERROR", "08P01", "unexpected message type 0x51 during COPY from stdin"), ready())
		c.send(query("select 1"))
		c.expect(rowDesc(int4Col("one")), row("1"), complete("SELECT 1"), ready())
	})
	t.Run("out", func(t *testing.T) {
		c := c.with(t)
		c.send(query("copy out"))
		c.expect(&pgproto3.CopyOutResponse{OverallFormat: 0, ColumnFormatCodes: []uint16{0, 0}},
			&pgproto3.CopyData{Data: []byte("1\ta\n")}, &pgproto3.CopyData{Data: []byte("2\tb\n")},
			&pgproto3.CopyDone{}, complete("COPY 2"), ready())
	})
	t.Run("copy messages outside COPY are ignored", func(t *testing.T) {
		c := c.with(t)
		c.send(&pgproto3.CopyData{Data: []byte("x")}, &pgproto3.CopyDone{}, &pgproto3.CopyFail{Message: "x"}, query("select 1"))
		c.expect(rowDesc(int4Col("one")), row("1"), complete("SELECT 1"), ready())
	})
}
