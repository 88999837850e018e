package query_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"testing"

	"github.com/gpusql/gpusql/auth"
	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/cpu"
	"github.com/gpusql/gpusql/loader"
	"github.com/gpusql/gpusql/query"
)

// TestRoleStatementsInBlock: a block's role statements are seen by the
// block only; other sessions and logins (the store) see them at COMMIT,
// which writes them to the data directory, and never after a ROLLBACK.
// A COMMIT whose change another session's commit made impossible fails
// and keeps none of the block's writes.
func TestRoleStatementsInBlock(t *testing.T) {
	dir := t.TempDir()
	store, err := auth.Open(dir, auth.SCRAM)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := query.NewServer(query.Options{
		FileRoot: t.TempDir(), Roles: store,
		Backend: cpu.New(loader.NewCPU(loader.Config{}), 2),
		Logger:  slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	session := func() engine.Session {
		s, err := srv.NewSession(engine.SessionParams{User: auth.Bootstrap, Database: "gpusql"})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	a, b := session(), session()
	run := func(s engine.Session, sql string) (*recorder, error) {
		var r recorder
		return &r, s.Query(context.Background(), sql, &r)
	}
	must := func(s engine.Session, sql string) *recorder {
		t.Helper()
		r, err := run(s, sql)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		return r
	}
	count := func(s engine.Session, role string) string {
		t.Helper()
		return must(s, "SELECT count(*) FROM pg_roles WHERE rolname = '"+role+"'").rows[0]
	}
	// reopened is the store as a restart (or a crash now) would find it.
	reopened := func(role string) bool {
		t.Helper()
		st, err := auth.Open(dir, auth.SCRAM)
		if err != nil {
			t.Fatal(err)
		}
		_, ok := st.Role(role)
		return ok
	}

	must(a, "CREATE TABLE t (x int)")
	must(a, "BEGIN")
	must(a, "CREATE ROLE ann LOGIN PASSWORD 'secret'")
	must(a, "GRANT SELECT ON t TO ann")
	must(a, "INSERT INTO t VALUES (1)")
	if got := count(a, "ann"); got != "1" {
		t.Errorf("the block sees %s roles ann, want 1", got)
	}
	if got := count(b, "ann"); got != "0" {
		t.Errorf("another session sees %s roles ann before COMMIT, want 0", got)
	}
	if _, ok := store.LoginVerifier("ann"); ok || reopened("ann") {
		t.Error("a login, or the data directory, has role ann before COMMIT")
	}
	must(a, "COMMIT")
	if got := count(b, "ann"); got != "1" {
		t.Errorf("another session sees %s roles ann after COMMIT, want 1", got)
	}
	if v, ok := store.LoginVerifier("ann"); !ok || !auth.IsSCRAM(v) || !reopened("ann") {
		t.Error("after COMMIT, ann cannot log in or is not in the data directory")
	}
	if r := must(b, "SELECT has_table_privilege('ann', 't', 'SELECT'), count(*) FROM t"); r.rows[0] != "t|1" {
		t.Errorf("after COMMIT: %s, want t|1", r.rows[0])
	}

	// ROLLBACK: nothing reaches the store or the data directory.
	must(a, "BEGIN")
	must(a, "DROP ROLE IF EXISTS nobody")
	must(a, "REVOKE SELECT ON t FROM ann")
	must(a, "DROP ROLE ann")
	if got := count(a, "ann"); got != "0" {
		t.Errorf("the block still sees ann after dropping it")
	}
	must(a, "ROLLBACK")
	if got := count(a, "ann"); got != "1" || !reopened("ann") || !store.HasSelect("ann", "t") {
		t.Error("ROLLBACK did not keep role ann and its grant")
	}

	// Both sessions create role bo in a block: the second COMMIT fails
	// (42710) and its block's insert is not kept either.
	must(a, "BEGIN")
	must(a, "CREATE ROLE bo")
	must(b, "BEGIN")
	must(b, "CREATE ROLE bo")
	must(b, "INSERT INTO t VALUES (2)")
	must(a, "COMMIT")
	if _, err := run(b, "COMMIT"); engine.Code(err) != engine.CodeDuplicateObject {
		t.Errorf("the second COMMIT creating bo: %v, want 42710", err)
	}
	if r := must(b, "SELECT count(*) FROM t"); r.rows[0] != "1" {
		t.Errorf("the failed COMMIT's insert was kept: %s rows", r.rows[0])
	}
	if got := count(b, "bo"); got != "1" || !reopened("bo") {
		t.Error("role bo is not there once")
	}

	// A table dropped in a block takes its grants along at once (DROP
	// TABLE takes effect at once), also the ones the block granted.
	must(a, "CREATE TABLE u (x int)")
	must(a, "BEGIN")
	must(a, "GRANT SELECT ON u TO bo")
	must(a, "DROP TABLE u")
	must(a, "COMMIT")
	must(a, "CREATE TABLE u (x int)")
	if store.HasSelect("bo", "u") {
		t.Error("a new table u inherits a grant of the dropped one")
	}
}

// TestRoleBlocksConcurrent: sessions run blocks of role statements at
// once, half committing and half rolling back, while another session
// creates and drops tables (whose grants the store forgets meanwhile);
// afterwards the store, and the data directory, hold exactly the
// committed roles and their grants.
func TestRoleBlocksConcurrent(t *testing.T) {
	dir := t.TempDir()
	store, err := auth.Open(dir, auth.SCRAM)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := query.NewServer(query.Options{
		FileRoot: t.TempDir(), Roles: store,
		Backend: cpu.New(loader.NewCPU(loader.Config{}), 2),
		Logger:  slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	exec := func(s engine.Session, sql string) error {
		var r recorder
		return s.Query(context.Background(), sql, &r)
	}
	newSession := func() engine.Session {
		s, err := srv.NewSession(engine.SessionParams{User: auth.Bootstrap, Database: "gpusql"})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	setup := newSession()
	if err := exec(setup, "CREATE TABLE t (x int)"); err != nil {
		t.Fatal(err)
	}
	setup.Close()
	const sessions, rounds = 8, 10
	var wg sync.WaitGroup
	for g := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := newSession()
			defer s.Close()
			for i := range rounds {
				end := "COMMIT"
				if (g+i)%2 == 1 {
					end = "ROLLBACK"
				}
				sql := fmt.Sprintf("BEGIN; CREATE ROLE r%d_%d LOGIN; GRANT SELECT ON t TO r%d_%d; SAVEPOINT a; CREATE ROLE x%d_%d; ROLLBACK TO a; %s",
					g, i, g, i, g, i, end)
				if err := exec(s, sql); err != nil {
					t.Errorf("%s: %v", sql, err)
					return
				}
			}
		}()
	}
	wg.Add(1)
	go func() { // tables come and go meanwhile
		defer wg.Done()
		s := newSession()
		defer s.Close()
		for i := range 20 {
			if err := exec(s, fmt.Sprintf("CREATE TABLE u%d (x int); DROP TABLE u%d", i, i)); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	wg.Wait()
	reopened, err := auth.Open(dir, auth.SCRAM)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range []*auth.Store{store, reopened} {
		for g := range sessions {
			for i := range rounds {
				name := fmt.Sprintf("r%d_%d", g, i)
				_, has := st.Role(name)
				if want := (g+i)%2 == 0; has != want || st.HasSelect(name, "t") != want {
					t.Errorf("role %s: exists %v, SELECT on t %v; want %v", name, has, st.HasSelect(name, "t"), want)
				}
				if _, has := st.Role(fmt.Sprintf("x%d_%d", g, i)); has {
					t.Errorf("role x%d_%d, rolled back to its savepoint, exists", g, i)
				}
			}
		}
	}
}
