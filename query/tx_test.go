package query_test

import (
	"context"
	"errors"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// Two sessions: writes of an open block are the block's own until COMMIT,
// and a COMMIT that another writer overtook fails with 40001 and
// publishes nothing.
func TestTransactionIsolationBetweenSessions(t *testing.T) {
	srv, _ := newTestServer(t)
	newSess := func() engine.Session {
		s, err := srv.NewSession(engine.SessionParams{User: "tester", Database: "gpusql"})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	a, b := newSess(), newSess()
	run := func(s engine.Session, sql string) error {
		t.Helper()
		var r recorder
		return s.Query(context.Background(), sql, &r)
	}
	count := func(s engine.Session) string {
		t.Helper()
		var r recorder
		if err := s.Query(context.Background(), "SELECT count(*) FROM tx", &r); err != nil {
			t.Fatal(err)
		}
		return r.rows[0]
	}
	must := func(s engine.Session, sql string) {
		t.Helper()
		if err := run(s, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	must(a, "CREATE TABLE tx (id int, name text)")
	must(a, "BEGIN; COPY tx FROM 'two.csv' WITH (FORMAT csv)")
	if got := count(a); got != "3" {
		t.Fatalf("block sees %s rows", got)
	}
	if got := count(b); got != "0" {
		t.Fatalf("other session sees %s rows before COMMIT", got)
	}
	must(a, "COMMIT")
	if got := count(b); got != "3" {
		t.Fatalf("other session sees %s rows after COMMIT", got)
	}

	// b commits a COPY while a's block holds one: a's COMMIT fails.
	must(a, "BEGIN; COPY tx FROM 'two.csv' WITH (FORMAT csv)")
	must(b, "COPY tx FROM 'two.csv' WITH (FORMAT csv)")
	err := run(a, "COMMIT")
	var pe *engine.Error
	if !errors.As(err, &pe) || pe.Code != engine.CodeSerializationFailure {
		t.Fatalf("COMMIT: %v", err)
	}
	if a.TxStatus() != 'I' {
		t.Fatalf("status %c after failed COMMIT", a.TxStatus())
	}
	if got := count(a); got != "6" {
		t.Fatalf("%s rows after failed COMMIT, want b's 6", got)
	}
	// Closing a session rolls its block back.
	c := newSess()
	must(c, "BEGIN; COPY tx FROM 'two.csv' WITH (FORMAT csv)")
	c.Close()
	if got := count(a); got != "6" {
		t.Fatalf("%s rows after a session closed in a block", got)
	}
	if n := srv.Catalog().LiveVersions(); n != 1 {
		t.Fatalf("%d live table versions, want 1", n)
	}
}
