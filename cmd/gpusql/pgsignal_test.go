package main

// pg_stat_reset and its kin, pg_cancel_backend and pg_terminate_backend
// against PostgreSQL 15: the same script on both servers gives the same
// transcript (results, errors, warnings and the counters after each
// reset and kill). Nothing waits on a clock: each counter is read after
// pg_stat_force_next_flush(), and pg_terminate_backend's timeout makes it
// return once the session it ended is gone, its end counted.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
)

// signalScript runs the script on a server reached by dsn(user) and
// returns its transcript.
func signalScript(t *testing.T, dsn func(user string) string) []string {
	t.Helper()
	ctx := context.Background()
	var out []string
	note := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	connect := func(user string) *pgconn.PgConn {
		t.Helper()
		cfg, err := pgconn.ParseConfig(dsn(user))
		if err != nil {
			t.Fatal(err)
		}
		cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) {
			note("  %s %s %s", n.Severity, n.Code, n.Message)
		}
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		c, err := pgconn.ConnectConfig(cctx, cfg)
		if err != nil {
			t.Fatalf("connect as %s: %v", user, err)
		}
		t.Cleanup(func() { c.Close(context.Background()) })
		return c
	}
	// run records sql's rows, or its error.
	// pids names the sessions in the transcript, whose process IDs
	// differ between the servers: a statement's %s are filled with
	// process IDs, and shown with the names.
	pids := map[string]*pgconn.PgConn{}
	withPIDs := func(format string, names ...string) (sql, shown string) {
		ids, shownIDs := make([]any, len(names)), make([]any, len(names))
		for i, name := range names {
			ids[i], shownIDs[i] = strconv.Itoa(int(pids[name].PID())), name
		}
		return fmt.Sprintf(format, ids...), fmt.Sprintf(format, shownIDs...)
	}
	// runShown records sql's rows, or its error, under the name shown.
	var runShown func(c *pgconn.PgConn, sql, shown string)
	run := func(c *pgconn.PgConn, sql string) { t.Helper(); runShown(c, sql, sql) }
	runPIDs := func(c *pgconn.PgConn, format string, names ...string) {
		t.Helper()
		sql, shown := withPIDs(format, names...)
		runShown(c, sql, shown)
	}
	runShown = func(c *pgconn.PgConn, sql, shown string) {
		t.Helper()
		note("%s", shown)
		res, err := c.Exec(ctx, sql).ReadAll()
		var pe *pgconn.PgError
		switch {
		case errors.As(err, &pe):
			note("  %s %s %s (hint %q)", pe.Severity, pe.Code, pe.Message, pe.Hint)
			return
		case err != nil:
			t.Fatalf("%s: %v", sql, err)
		}
		for _, r := range res {
			for _, row := range r.Rows {
				parts := make([]string, len(row))
				for i, v := range row {
					parts[i] = string(v)
				}
				note("  %s", strings.Join(parts, "|"))
			}
		}
	}
	flushRun := func(c *pgconn.PgConn, sql string) {
		t.Helper()
		if _, err := c.Exec(ctx, "SELECT pg_stat_force_next_flush()").ReadAll(); err != nil {
			t.Fatal(err)
		}
		run(c, sql)
	}
	const tableCounts = "SELECT seq_scan, seq_tup_read, n_tup_ins, n_mod_since_analyze, n_ins_since_vacuum FROM pg_stat_user_tables WHERE relname = 'sr'"
	// numbackends >= 1: an earlier session's backend may still be
	// exiting on PostgreSQL's side, so the exact count depends on timing
	const dbCounts = `SELECT xact_commit, xact_rollback, tup_inserted, sessions, sessions_abandoned, sessions_fatal, sessions_killed,
		numbackends >= 1, (SELECT sum(seq_tup_read) FROM pg_stat_user_tables), stats_reset IS NULL,
		stats_reset = pg_stat_get_db_stat_reset_time(datid), stats_reset <= now()
		FROM pg_stat_database WHERE datname = current_database()`

	c := connect("postgres")
	for _, sql := range []string{"CREATE TABLE sr (a int)", "INSERT INTO sr VALUES (1), (2), (3)", "SELECT * FROM sr",
		"CREATE ROLE nosu LOGIN", "CREATE ROLE nosu2 LOGIN", "GRANT SELECT ON sr TO nosu"} {
		if _, err := c.Exec(ctx, sql).ReadAll(); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	// Never reset: stats_reset is NULL.
	flushRun(c, "SELECT stats_reset IS NULL, pg_stat_get_db_stat_reset_time(datid) IS NULL FROM pg_stat_database WHERE datname = current_database()")
	flushRun(c, tableCounts)
	// One table's counters, which sets the database's stats_reset.
	flushRun(c, "SELECT pg_stat_reset_single_table_counters('sr'::regclass)")
	flushRun(c, tableCounts)
	run(c, "SELECT stats_reset IS NOT NULL, stats_reset <= now() FROM pg_stat_database WHERE datname = current_database()")
	run(c, "SELECT * FROM sr")
	run(c, "INSERT INTO sr VALUES (4)")
	flushRun(c, tableCounts)
	run(c, "SELECT pg_stat_reset_single_table_counters(0), pg_stat_reset_single_table_counters(NULL) IS NULL")
	run(c, "SELECT pg_stat_reset_single_function_counters(0)")
	// The whole database's.
	flushRun(c, "SELECT pg_stat_reset()")
	flushRun(c, dbCounts)
	flushRun(c, tableCounts)
	run(c, "SELECT count(*) FROM sr")
	run(c, "SELECT 1/0")
	// A block's counts reach the shared ones at its end, after its
	// reset.
	flushRun(c, "BEGIN; INSERT INTO sr VALUES (5); SELECT pg_stat_reset(); COMMIT")
	flushRun(c, dbCounts)
	flushRun(c, tableCounts)
	// pg_stat_reset_shared: PostgreSQL's targets, and no other.
	run(c, "SELECT pg_stat_reset_shared('bgwriter'), pg_stat_reset_shared('archiver'), pg_stat_reset_shared('wal'), "+
		"pg_stat_reset_shared('recovery_prefetch'), pg_stat_reset_shared(NULL) IS NULL")
	run(c, "SELECT pg_stat_reset_shared('x')")
	run(c, "SELECT pg_stat_reset_shared('WAL')")

	// Signals: bad process IDs and arguments, one's own query.
	run(c, "SELECT pg_cancel_backend(0), pg_terminate_backend(-5), pg_cancel_backend(NULL) IS NULL, pg_terminate_backend(NULL) IS NULL, "+
		"pg_terminate_backend(1, NULL) IS NULL")
	run(c, "SELECT pg_terminate_backend(pg_backend_pid(), -1)")
	run(c, "SELECT pg_cancel_backend(pg_backend_pid())")
	run(c, "SELECT 1")

	// A role that is no superuser: no resets; signals to its own role's
	// sessions only.
	n := connect("nosu")
	n2 := connect("nosu")
	other := connect("nosu2")
	pids["c"], pids["n"], pids["n2"], pids["other"] = c, n, n2, other
	for _, sql := range []string{"SELECT pg_stat_reset()", "SELECT pg_stat_reset_single_table_counters(0)",
		"SELECT pg_stat_reset_single_table_counters(NULL) IS NULL", "SELECT pg_stat_reset_shared('wal')",
		"SELECT pg_stat_reset_shared(NULL) IS NULL", "SELECT pg_stat_reset_single_function_counters(0)"} {
		run(n, sql)
	}
	for _, q := range []struct{ format, name string }{{"SELECT pg_cancel_backend(%s)", "c"}, {"SELECT pg_terminate_backend(%s)", "c"},
		{"SELECT pg_cancel_backend(%s)", "other"}, {"SELECT pg_terminate_backend(%s)", "other"}, {"SELECT pg_cancel_backend(%s)", "n2"}} {
		runPIDs(n, q.format, q.name)
	}
	// pg_stat_activity shows it who the other roles' sessions are, and
	// no more. (The usesysid of postgres's sessions is not compared:
	// gpusql's trust user that names no role stands for the bootstrap
	// superuser, which pg_roles names after the reading session's user.)
	runPIDs(n, `SELECT usename, application_name, state, CASE WHEN pid = pg_backend_pid() THEN 'mine' ELSE query END,
		backend_type, backend_start IS NULL, xact_start IS NULL, query_start IS NULL, state_change IS NULL,
		usename = 'postgres' OR usesysid = (SELECT oid FROM pg_roles WHERE rolname = usename), datname
		FROM pg_stat_activity WHERE pid IN (%s, %s, %s, %s) ORDER BY usename, pid = pg_backend_pid()`, "c", "other", "n", "n2")
	runPIDs(c, `SELECT usename, state, query, backend_type, backend_start IS NULL,
		usesysid = (SELECT oid FROM pg_roles WHERE rolname = usename) FROM pg_stat_activity WHERE pid IN (%s, %s) ORDER BY usename`, "other", "n2")
	// A session of one's own role ends.
	runPIDs(n, "SELECT pg_terminate_backend(%s, 60000)", "n2")
	victimSays(t, n2, note)

	// A superuser ends the sessions of others, waiting for their client.
	v := connect("postgres")
	pids["v"] = v
	runPIDs(c, "SELECT pg_terminate_backend(%s, 60000)", "v")
	victimSays(t, v, note)
	runPIDs(c, "SELECT pg_terminate_backend(%s, 60000)", "other")
	victimSays(t, other, note)
	if _, err := n.Exec(ctx, "SELECT pg_stat_force_next_flush()").ReadAll(); err != nil {
		t.Fatal(err)
	}
	flushRun(c, dbCounts)

	// One's own session: the statement fails with the FATAL error, and
	// the session ends.
	self := connect("postgres")
	run(self, "SELECT pg_terminate_backend(pg_backend_pid())")
	if !self.IsClosed() {
		if _, err := self.Exec(ctx, "SELECT 1").ReadAll(); err == nil {
			t.Error("the session that terminated itself still runs statements")
		}
	}
	return out
}

// victimSays records what a session that was terminated while it waited
// for its client receives: its FATAL error, then the end.
func victimSays(t *testing.T, c *pgconn.PgConn, note func(string, ...any)) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	msg, err := c.ReceiveMessage(ctx)
	var pe *pgconn.PgError
	switch m := msg.(type) {
	case *pgproto3.ErrorResponse:
		note("  victim: %s %s %s", m.Severity, m.Code, m.Message)
	default:
		if errors.As(err, &pe) {
			note("  victim: %s %s %s", pe.Severity, pe.Code, pe.Message)
		} else {
			note("  victim: %T %v", msg, err)
		}
	}
}

func TestPgSignalVsPostgres(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: starts PostgreSQL")
	}
	binDir := requirePG(t)
	pg := startPG(t, binDir)
	want := signalScript(t, func(user string) string {
		return strings.Replace(pg.connString(), "user=postgres", "user="+user, 1)
	})
	gp := startGpusql(t, t.TempDir())
	got := signalScript(t, func(user string) string {
		return "host=127.0.0.1 port=" + strconv.Itoa(gp.port) + " user=" + user + " dbname=postgres sslmode=disable connect_timeout=10"
	})
	if testing.Verbose() {
		t.Logf("gpusql's transcript:\n%s", strings.Join(got, "\n"))
	}
	if !slices.Equal(got, want) {
		t.Errorf("the transcript differs from PostgreSQL's\n%s\nPostgreSQL's:\n%s", lineDiff(strings.Join(got, "\n"), strings.Join(want, "\n")),
			strings.Join(want, "\n"))
	}
}
