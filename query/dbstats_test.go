package query_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// TestPgStatDatabaseTransactions counts the transactions of statements,
// blocks, errors and the extended protocol's messages, as PostgreSQL 15
// counts them (TestPgStatDatabaseVsPostgres in cmd/gpusql compares a
// sequence of them with PostgreSQL live). The counters are read from the
// catalog, which reading them does not change.
func TestPgStatDatabaseTransactions(t *testing.T) {
	srv, _ := newTestServer(t)
	db := srv.Catalog().DatabaseCounters()
	s := testSession(t, srv, engine.SessionParams{})
	queryRows(t, s, "CREATE TABLE x (a int)")
	run := func(sql string) {
		t.Helper()
		var r recorder
		_ = s.Query(context.Background(), sql, &r) // errors are part of the cases
	}
	it := s.(engine.ImplicitTx)
	pr := s.(engine.Preparer)
	// ext sends the extended protocol's messages for sql (Parse, Bind,
	// Execute) as the wire layer does, without the Sync: after an error,
	// the messages up to Sync are skipped.
	ignoring := false
	fail := func() {
		s.(engine.BlockFailer).FailBlock() // the wire layer's extError
		ignoring = true
	}
	syncMsg := func() { ignoring = false; it.Sync() }
	ext := func(sql string, params ...string) {
		t.Helper()
		if ignoring {
			return
		}
		it.BeginImplicit()
		p, err := pr.Prepare(context.Background(), sql, nil)
		if err != nil {
			fail()
			return
		}
		ps := make([]engine.Param, len(params))
		for i, v := range params {
			ps[i].Value = []byte(v)
		}
		it.BeginImplicit()
		var r recorder
		if err := p.Run(context.Background(), ps, &r); err != nil {
			fail()
		}
	}
	for _, c := range []struct {
		name             string
		do               func()
		commits, rollbks int64
	}{
		{"one statement", func() { run("SELECT 1") }, 1, 0},
		{"an empty query", func() { run("") }, 1, 0},
		{"a Query message of several statements", func() { run("SELECT 1; INSERT INTO x VALUES (1); SELECT 2") }, 1, 0},
		{"an error", func() { run("SELECT 1/0") }, 0, 1},
		{"a syntax error", func() { run("SELEC 1") }, 0, 1},
		{"an error in a message of several", func() { run("INSERT INTO x VALUES (1); SELECT 1/0; SELECT 3") }, 0, 1},
		{"COMMIT outside a block", func() { run("COMMIT") }, 1, 0},
		{"ROLLBACK outside a block", func() { run("ROLLBACK") }, 0, 1},
		{"a block", func() { run("BEGIN"); run("INSERT INTO x VALUES (2)"); run("SELECT * FROM x"); run("COMMIT") }, 1, 0},
		{"a block in one message, then a statement", func() { run("BEGIN; SELECT 1; COMMIT; SELECT 2") }, 2, 0},
		{"a rolled-back block", func() { run("BEGIN"); run("INSERT INTO x VALUES (3)"); run("ROLLBACK") }, 0, 1},
		{"a failed block, rolled back", func() { run("BEGIN"); run("SELECT 1/0"); run("SELECT 1"); run("ROLLBACK") }, 0, 1},
		{"a failed block, committed", func() { run("BEGIN"); run("SELECT 1/0"); run("COMMIT") }, 0, 1},
		{"a failed block, ended in a message that goes on", func() { run("BEGIN"); run("SELECT 1/0"); run("ROLLBACK; SELECT 1") }, 1, 1},
		{"a savepoint's error recovered", func() {
			run("BEGIN")
			run("SAVEPOINT a")
			run("SELECT 1/0")
			run("ROLLBACK TO SAVEPOINT a")
			run("COMMIT")
		}, 1, 0},
		{"a savepoint's error, committed", func() { run("BEGIN"); run("SAVEPOINT a"); run("SELECT 1/0"); run("COMMIT") }, 0, 1},
		{"a released savepoint's block fails at once", func() {
			run("BEGIN")
			run("SAVEPOINT a")
			run("RELEASE a")
			run("SELECT 1/0")
			run("ROLLBACK")
		}, 0, 1},
		{"EXECUTE in a message", func() { run("PREPARE q AS SELECT 1; EXECUTE q; DEALLOCATE q") }, 1, 0},
		{"extended: messages up to Sync", func() {
			ext("SELECT $1::int", "1")
			ext("INSERT INTO x VALUES ($1)", "4")
			syncMsg()
		}, 1, 0},
		{"extended: Parse alone", func() {
			it.BeginImplicit()
			if _, err := pr.Prepare(context.Background(), "SELECT 1", nil); err != nil {
				t.Fatal(err)
			}
			syncMsg()
		}, 1, 0},
		{"extended: a Sync alone", func() { syncMsg() }, 0, 0},
		{"extended: an error at Execute", func() { ext("SELECT 1 / $1::int", "0"); ext("SELECT 2"); syncMsg() }, 0, 1},
		{"extended: a bad parameter", func() { ext("SELECT $1::int", "x"); syncMsg() }, 0, 1},
		{"extended: a syntax error", func() { ext("SELEC $1", "1"); syncMsg() }, 0, 1},
		{"extended: a block over several Syncs", func() {
			ext("BEGIN")
			syncMsg()
			ext("INSERT INTO x VALUES ($1)", "5")
			syncMsg()
			ext("COMMIT")
			ext("SELECT 1") // after the COMMIT: a transaction of its own
			syncMsg()
		}, 2, 0},
		{"extended, then a Query message before Sync", func() { ext("SELECT 1"); run("SELECT 2"); syncMsg() }, 1, 0},
	} {
		c0, r0 := db.XactCommit.Load(), db.XactRollback.Load()
		c.do()
		if got := [2]int64{db.XactCommit.Load() - c0, db.XactRollback.Load() - r0}; got != [2]int64{c.commits, c.rollbks} {
			t.Errorf("%s: commits, rollbacks %v, want %v", c.name, got, [2]int64{c.commits, c.rollbks})
		}
		if st := s.TxStatus(); st != 'I' {
			t.Fatalf("%s: the session is left in status %c", c.name, st)
		}
	}

	// Embedded use: a prepared statement run with no protocol around it
	// is a transaction of its own.
	c0 := db.XactCommit.Load()
	p, err := pr.Prepare(context.Background(), "SELECT $1::int", nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		var r recorder
		if err := p.Run(context.Background(), []engine.Param{{Value: []byte("7")}}, &r); err != nil {
			t.Fatal(err)
		}
	}
	if got := db.XactCommit.Load() - c0; got != 3 {
		t.Errorf("embedded runs: %d commits, want 3", got)
	}

	// A session that ends in a block rolls it back; its start was a
	// commit.
	c0, r0 := db.XactCommit.Load(), db.XactRollback.Load()
	s2 := testSession(t, srv, engine.SessionParams{})
	queryRows(t, s2, "BEGIN")
	s2.Close()
	if got := [2]int64{db.XactCommit.Load() - c0, db.XactRollback.Load() - r0}; got != [2]int64{1, 1} {
		t.Errorf("a session that ends in a block: commits, rollbacks %v, want [1 1]", got)
	}
}

// TestPgStatDatabaseView: the view's row of the database holds the
// counters, the functions agree with it, and the tuple counts are the
// sums of the tables' (which outlive a DROP); sessions, numbackends and
// how sessions ended.
func TestPgStatDatabaseView(t *testing.T) {
	srv, _ := newTestServer(t)
	s := testSession(t, srv, engine.SessionParams{Database: "stats"})
	q := func(sql string) []string { t.Helper(); return queryRows(t, s, sql) }
	row := func() string {
		t.Helper()
		rows := q(`SELECT datid, numbackends, tup_returned, tup_inserted, tup_fetched, tup_updated, tup_deleted, sessions,
			sessions_abandoned, sessions_fatal, sessions_killed, checksum_failures IS NULL, stats_reset IS NULL,
			pg_stat_get_db_xact_commit(datid) = xact_commit, pg_stat_get_db_xact_rollback(datid) = xact_rollback,
			pg_stat_get_db_numbackends(datid) = numbackends, pg_stat_get_db_tuples_returned(datid) = tup_returned,
			pg_stat_get_db_tuples_inserted(datid) = tup_inserted, session_time >= active_time, active_time >= 0,
			idle_in_transaction_time >= 0
			FROM pg_stat_database WHERE datname = current_database()`)
		if len(rows) != 1 {
			t.Fatalf("pg_stat_database: %d rows for the database", len(rows))
		}
		return rows[0]
	}
	expect := func(want string) {
		t.Helper()
		if got := row(); got != want {
			t.Fatalf("datid|numbackends|tup_returned|tup_inserted|tup_fetched|tup_updated|tup_deleted|sessions|abandoned|fatal|killed|...\ngot  %s\nwant %s", got, want)
		}
	}
	expect("5|1|0|0|0|0|0|1|0|0|0|t|t|t|t|t|t|t|t|t|t")
	q("CREATE TABLE a (v int)")
	q("INSERT INTO a VALUES (1), (2), (3)")
	q("SELECT * FROM a")
	q("CREATE TABLE b AS SELECT * FROM a")
	q("SELECT * FROM a JOIN b ON a.v = b.v")
	expect("5|1|12|6|0|0|0|1|0|0|0|t|t|t|t|t|t|t|t|t|t")
	if got := q("SELECT sum(seq_tup_read), sum(n_tup_ins) FROM pg_stat_user_tables"); len(got) != 1 || got[0] != "12|6" {
		t.Fatalf("pg_stat_user_tables' sums: %v, want 12|6", got)
	}
	q("DROP TABLE a")
	expect("5|1|12|6|0|0|0|1|0|0|0|t|t|t|t|t|t|t|t|t|t")

	// Other sessions: live ones count in numbackends, every one in
	// sessions, and each end in its column.
	for _, end := range []engine.SessionEnd{engine.EndNormal, engine.EndAbandoned, engine.EndFatal, engine.EndFatal, engine.EndKilled} {
		o := testSession(t, srv, engine.SessionParams{})
		o.(engine.EndNoter).NoteEnd(end)
		o.Close()
	}
	live := testSession(t, srv, engine.SessionParams{})
	expect("5|2|12|6|0|0|0|7|1|2|1|t|t|t|t|t|t|t|t|t|t")
	live.Close()
	expect("5|1|12|6|0|0|0|7|1|2|1|t|t|t|t|t|t|t|t|t|t")

	// The row of shared objects, first, as in PostgreSQL.
	if got := q("SELECT datid, datname IS NULL, numbackends, xact_commit, sessions FROM pg_stat_database"); len(got) != 2 || got[0] != "0|t|0|0|0" {
		t.Fatalf("pg_stat_database: %v", got)
	}
	// Another database's OID has no counts.
	if got := q("SELECT pg_stat_get_db_xact_commit(1), pg_stat_get_db_numbackends(1), pg_stat_get_db_tuples_inserted(1)"); got[0] != "0|0|0" {
		t.Fatalf("another database's counters: %v", got)
	}
}

// TestPgStatDatabaseConcurrent: sessions that run statements at once lose
// no count.
func TestPgStatDatabaseConcurrent(t *testing.T) {
	srv, _ := newTestServer(t)
	db := srv.Catalog().DatabaseCounters()
	setup := testSession(t, srv, engine.SessionParams{})
	queryRows(t, setup, "CREATE TABLE w (a int)")
	c0, r0, i0 := db.XactCommit.Load(), db.XactRollback.Load(), db.TupInserted.Load()
	const sessions, rounds = 4, 25
	var wg sync.WaitGroup
	for i := 0; i < sessions; i++ {
		s := testSession(t, srv, engine.SessionParams{})
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < rounds; j++ {
				var r recorder
				if err := s.Query(context.Background(), "INSERT INTO w VALUES (1)", &r); err != nil {
					t.Error(err)
					return
				}
				if err := s.Query(context.Background(), "SELECT 1/0", &r); err == nil {
					t.Error("1/0: no error")
					return
				}
			}
		}()
	}
	wg.Wait()
	got := fmt.Sprint(db.XactCommit.Load()-c0, db.XactRollback.Load()-r0, db.TupInserted.Load()-i0)
	// each session's start is a commit too
	if want := fmt.Sprint(sessions*rounds+sessions, sessions*rounds, sessions*rounds); got != want {
		t.Fatalf("commits, rollbacks, inserted: got %s, want %s", got, want)
	}
}
