package wire_test

import (
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/wire"
)

// The server's hold on its sessions (engine.Backends), which
// pg_cancel_backend and pg_terminate_backend use: the test calls it as
// the engine does, by the process ID the client was given.

// TestCancelBackend: a running query fails with 57014 and the session
// goes on; an idle session is left alone; an unknown process ID is
// reported.
func TestCancelBackend(t *testing.T) {
	h := newHarness(t, wire.Config{})
	c := h.connect()
	b := engine.Backends(h.srv)
	if b.CancelBackend(c.key.ProcessID + 1000) {
		t.Error("CancelBackend of an unknown process ID: true")
	}
	if !b.CancelBackend(c.key.ProcessID) {
		t.Fatal("CancelBackend of an idle session: false")
	}
	c.send(query("select 1"))
	c.expect(rowDesc(int4Col("one")), row("1"), complete("SELECT 1"), ready())

	c.send(query("block"))
	<-h.eng.started
	if !b.CancelBackend(c.key.ProcessID) {
		t.Fatal("CancelBackend of a running query: false")
	}
	c.expect(pgErr("ERROR", "57014", "canceling statement due to user request"), ready())
	c.send(query("select 1"))
	c.expect(rowDesc(int4Col("one")), row("1"), complete("SELECT 1"), ready())
}

// TestTerminateBackend: an idle session and one running a query end with
// FATAL 57P01, and the session learns that it was killed; done closes
// once it has ended.
func TestTerminateBackend(t *testing.T) {
	h := newHarness(t, wire.Config{})
	b := engine.Backends(h.srv)
	if _, ok := b.TerminateBackend(12345); ok {
		t.Error("TerminateBackend of an unknown process ID: true")
	}
	for _, running := range []bool{false, true} {
		c := h.connect()
		if running {
			c.send(query("block"))
			<-h.eng.started
		}
		done, ok := b.TerminateBackend(c.key.ProcessID)
		if !ok {
			t.Fatalf("TerminateBackend (running %v): false", running)
		}
		c.expect(pgErr("FATAL", "57P01", "terminating connection due to administrator command"))
		c.expectEOF()
		<-done
		if got := h.lastSession().end; got != engine.EndKilled {
			t.Errorf("running %v: end %d, want EndKilled", running, got)
		}
		if _, ok := b.TerminateBackend(c.key.ProcessID); ok {
			t.Errorf("running %v: TerminateBackend of an ended session: true", running)
		}
	}
	// A session given its process ID through SessionParams.
	c := h.connect()
	var p engine.SessionParams
	for p = range h.eng.params {
		if p.BackendPID == c.key.ProcessID {
			break
		}
	}
	if p.Backends == nil {
		t.Fatal("SessionParams.Backends is nil")
	}
	if _, ok := p.Backends.TerminateBackend(c.key.ProcessID); !ok {
		t.Fatal("TerminateBackend through SessionParams: false")
	}
	c.expect(pgErr("FATAL", "57P01", "terminating connection due to administrator command"))
	c.expectEOF()
}
