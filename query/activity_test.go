package query_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

func TestPgStatActivity(t *testing.T) {
	srv, _ := newTestServer(t)
	open := func(pid uint32, app string) engine.Session {
		s, err := srv.NewSession(engine.SessionParams{User: "tester", Database: "gpusql", BackendPID: pid,
			Options: map[string]string{"application_name": app}})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	a, b := open(101, "app-a"), open(102, "app-b")
	defer a.Close()
	q := func(s engine.Session, sql string) []string {
		t.Helper()
		var r recorder
		if err := s.Query(context.Background(), sql, &r); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		return r.rows
	}
	q(b, "BEGIN")
	const list = "SELECT pid, application_name, state, query, xact_start IS NOT NULL, backend_type FROM pg_stat_activity ORDER BY pid"
	got := strings.Join(q(a, list), "\n")
	want := "101|app-a|active|" + list + "|t|client backend\n102|app-b|idle in transaction|BEGIN|t|client backend"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	b.Query(context.Background(), "SELECT 1/0", &recorder{})
	if got := q(a, "SELECT state FROM pg_stat_activity WHERE pid = 102"); len(got) != 1 || got[0] != "idle in transaction (aborted)" {
		t.Fatalf("failed block: %v", got)
	}
	q(b, "ROLLBACK")
	if got := q(a, "SELECT state, query, xact_start IS NULL FROM pg_stat_activity WHERE pid = 102"); len(got) != 1 || got[0] != "idle|ROLLBACK|t" {
		t.Fatalf("after ROLLBACK: %v", got)
	}
	b.Close()
	if got := q(a, "SELECT count(*) FROM pg_stat_activity"); got[0] != "1" {
		t.Fatalf("%s sessions after one closed", got[0])
	}
}
