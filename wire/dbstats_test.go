package wire_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/wire"
	"github.com/jackc/pgx/v5/pgproto3"
)

// lastSession is the harness's latest session, once it has closed.
func (h *harness) lastSession() *fakeSession {
	h.t.Helper()
	h.eng.mu.Lock()
	s := h.eng.sessions[len(h.eng.sessions)-1]
	h.eng.mu.Unlock()
	<-s.closed
	return s
}

// TestSessionEndCauses: the session learns how it ended, which
// pg_stat_database counts (engine.EndNoter).
func TestSessionEndCauses(t *testing.T) {
	h := newHarness(t, wire.Config{})

	c := h.connect()
	c.send(&pgproto3.Terminate{})
	c.expectEOF()
	if got := h.lastSession().end; got != engine.EndNormal {
		t.Errorf("Terminate: end %d, want EndNormal", got)
	}

	c = h.connect()
	c.nc.Close()
	if got := h.lastSession().end; got != engine.EndAbandoned {
		t.Errorf("a closed socket: end %d, want EndAbandoned", got)
	}

	c = h.connect()
	c.nc.Write([]byte{'!', 0, 0, 0, 4})
	c.recv() // FATAL 08P01
	c.expectEOF()
	if got := h.lastSession().end; got != engine.EndFatal {
		t.Errorf("a protocol violation: end %d, want EndFatal", got)
	}

	c = h.connect()
	if err := h.srv.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	c.recv() // FATAL 57P01
	c.expectEOF()
	if got := h.lastSession().end; got != engine.EndKilled {
		t.Errorf("shutdown: end %d, want EndKilled", got)
	}
}

// TestImplicitTxMessages: Parse, Bind, Describe and Execute begin the
// extended protocol's implicit transaction (engine.ImplicitTx), as they
// start one in PostgreSQL; a Bind or Execute that finds no statement or
// portal does not; Sync ends it, errors or not; Flush and Close do
// neither.
func TestImplicitTxMessages(t *testing.T) {
	h := newHarness(t, wire.Config{})
	c := h.connect()
	c.send(&pgproto3.Parse{Query: "select 1"}, &pgproto3.Bind{}, &pgproto3.Describe{ObjectType: 'P'},
		&pgproto3.Execute{}, &pgproto3.Flush{}, &pgproto3.Close{ObjectType: 'P'}, &pgproto3.Sync{})
	for {
		if _, ok := c.recv().(*pgproto3.ReadyForQuery); ok {
			break
		}
	}
	c.send(&pgproto3.Sync{})
	c.recv() // ReadyForQuery
	c.send(&pgproto3.Bind{PreparedStatement: "nope"}, &pgproto3.Execute{Portal: "nope"}, &pgproto3.Sync{})
	c.recv() // the Bind's error; the Execute is skipped
	c.recv() // ReadyForQuery
	c.send(&pgproto3.Execute{Portal: "nope"}, &pgproto3.Sync{})
	c.recv()
	c.recv()
	c.send(&pgproto3.Terminate{})
	c.expectEOF()
	if got, want := strings.Join(h.lastSession().tx, ""), "bbbbs"+"s"+"s"+"s"; got != want {
		t.Errorf("BeginImplicit (b) and Sync (s) calls: %q, want %q", got, want)
	}
}
