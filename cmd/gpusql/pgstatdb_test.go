package main

// pg_stat_database against PostgreSQL 15: the same statements and
// protocol messages, on both, change the database's counters by the same
// amounts.

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

// pgStatDBColumns are the counters the test reads, in its snapshots'
// order; seq_tup_read is the sum of pg_stat_user_tables' column.
// PostgreSQL's tup_returned counts the rows it reads from its own
// catalogs as well, which gpusql has none of to read: what both count is
// the rows that scans of the user's tables read, which gpusql's
// tup_returned is (the test checks that the two are equal on gpusql).
var pgStatDBColumns = []string{"xact_commit", "xact_rollback", "tup_returned", "tup_inserted", "tup_updated", "tup_deleted",
	"conflicts", "temp_files", "temp_bytes", "deadlocks", "sessions", "numbackends",
	"(SELECT sum(seq_tup_read) FROM pg_stat_user_tables) AS seq_tup_read"}

// pgStatDBCompared are the counters whose changes are compared.
var pgStatDBCompared = []string{"xact_commit", "xact_rollback", "seq_tup_read", "tup_inserted", "tup_updated", "tup_deleted",
	"conflicts", "temp_files", "temp_bytes", "deadlocks", "sessions", "numbackends"}

// pgStatDBWindowB are the counters compared over the second connection's
// window.
var pgStatDBWindowB = []string{"xact_commit", "xact_rollback", "seq_tup_read", "tup_inserted", "sessions"}

// pgStatDBDeltas runs the test's statements on a new connection and
// returns the counters' changes over them; the columns that must be the
// same whenever they are read (the NULLs of an idle PostgreSQL with
// checksums off, and the row of shared objects); and the changes of
// tup_returned and of seq_tup_read (a sum of pg_stat_user_tables').
func pgStatDBDeltas(t *testing.T, connect func(context.Context) (*pgconn.PgConn, error)) (deltas, fixed []string, returned [2]int64) {
	t.Helper()
	ctx := context.Background()
	c, err := connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	exec := func(sql string) {
		t.Helper()
		if _, err := c.Exec(ctx, sql).ReadAll(); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	fails := func(sql string) {
		t.Helper()
		if _, err := c.Exec(ctx, sql).ReadAll(); err == nil {
			t.Fatalf("%s: no error", sql)
		}
	}
	params := func(sql string, fail bool, args ...string) {
		t.Helper()
		vals := make([][]byte, len(args))
		oids := make([]uint32, len(args))
		for i, a := range args {
			vals[i], oids[i] = []byte(a), 23
		}
		_, err := c.ExecParams(ctx, sql, vals, oids, nil, nil).Close()
		if (err != nil) != fail {
			t.Fatalf("%s: error %v, want one: %v", sql, err, fail)
		}
	}
	// snap flushes (PostgreSQL's counts reach the shared statistics when
	// the next statement ends; gpusql's at once, and the flush is a
	// no-op there), then reads the counters. Both statements count as
	// transactions, alike on both servers.
	snap := func() map[string]int64 {
		t.Helper()
		exec("SELECT pg_stat_force_next_flush()")
		rows := pgDumpRows(t, c, "SELECT "+strings.Join(pgStatDBColumns, ", ")+
			" FROM pg_stat_database WHERE datname = current_database()")
		if len(rows) != 1 {
			t.Fatalf("pg_stat_database has %d rows for the current database", len(rows))
		}
		m := map[string]int64{}
		for i, v := range strings.Split(rows[0], "|") {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				t.Fatalf("%s = %q", pgStatDBColumns[i], v)
			}
			k := pgStatDBColumns[i]
			m[k[strings.LastIndex(k, " ")+1:]] = n
		}
		return m
	}
	delta := func(window string, a, b map[string]int64, cols []string) {
		for _, k := range cols {
			deltas = append(deltas, fmt.Sprintf("%s %s %+d", window, k, b[k]-a[k]))
		}
	}

	// Setup, outside the windows: the tables, and a first run of each
	// kind of statement, whose catalog lookups PostgreSQL then caches.
	exec("CREATE TABLE sd (a int, b text)")
	exec("INSERT INTO sd VALUES (1, 'x'), (2, 'y'), (3, 'z')")
	exec("SELECT * FROM sd")
	params("SELECT a FROM sd WHERE a > $1", false, "1")
	params("INSERT INTO sd VALUES ($1, 'w')", false, "0")
	s0 := snap()

	// Window A: simple and extended protocol, blocks, errors.
	exec("SELECT count(*) FROM sd")
	exec("INSERT INTO sd VALUES (4, 'w')")
	exec("")                                  // an empty query is a transaction too
	exec("SELECT 1; SELECT a FROM sd")        // one transaction
	fails("SELECT 1/0")                       // rolled back
	fails("SELEC 1")                          // a syntax error too
	exec("COMMIT")                            // no block: a warning, and a commit
	exec("ROLLBACK")                          // no block: a warning, and a rollback
	exec("BEGIN; SELECT 1; COMMIT; SELECT 2") // two
	fails("SELECT 1; SELECT 1/0")             // one rollback
	fails("INSERT INTO sd VALUES (5, 'v'); SELECT 1/0")
	for _, sql := range []string{"BEGIN", "INSERT INTO sd VALUES (6, 'u')", "SELECT * FROM sd", "COMMIT"} {
		exec(sql)
	}
	for _, sql := range []string{"BEGIN", "INSERT INTO sd VALUES (7, 't'), (8, 's')", "ROLLBACK"} {
		exec(sql)
	}
	// A failed block is rolled back once, at its error.
	exec("BEGIN")
	fails("SELECT 1/0")
	fails("SELECT 1")
	exec("ROLLBACK")
	exec("BEGIN")
	fails("SELECT 1/0")
	exec("COMMIT")
	// An error after a savepoint rolls back the subtransaction only.
	exec("BEGIN")
	exec("SAVEPOINT a")
	fails("SELECT 1/0")
	exec("ROLLBACK TO SAVEPOINT a")
	exec("INSERT INTO sd VALUES (9, 'r')")
	exec("COMMIT")
	exec("BEGIN")
	exec("SAVEPOINT a")
	fails("SELECT 1/0")
	exec("COMMIT")
	// The extended protocol: up to Sync is one transaction.
	params("SELECT a FROM sd WHERE a > $1", false, "2")
	params("SELECT 1 / $1", true, "0")
	params("SELEC $1", true, "1")
	params("BEGIN", false)
	params("INSERT INTO sd VALUES ($1, 'q')", false, "10")
	params("COMMIT", false)
	if _, err := c.Prepare(ctx, "ins", "INSERT INTO sd VALUES ($1, 'p')", []uint32{23}); err != nil {
		t.Fatal(err) // Parse, Describe, Sync: a transaction
	}
	if _, err := c.ExecPrepared(ctx, "ins", [][]byte{[]byte("11")}, nil, nil).Close(); err != nil {
		t.Fatal(err)
	}
	p := c.StartPipeline(ctx)
	p.SendQueryPrepared("ins", [][]byte{[]byte("12")}, nil, nil)
	p.SendQueryPrepared("ins", [][]byte{[]byte("13")}, nil, nil)
	p.SendQueryParams("SELECT count(*) FROM sd", nil, nil, nil, nil)
	if err := p.Sync(); err != nil {
		t.Fatal(err)
	}
	for done := false; !done; {
		res, err := p.GetResults()
		if err != nil {
			t.Fatal(err)
		}
		switch r := res.(type) {
		case *pgconn.ResultReader:
			if _, err := r.Close(); err != nil {
				t.Fatal(err)
			}
		case *pgconn.PipelineSync:
			done = true
		case nil:
			t.Fatal("pipeline: no PipelineSync")
		}
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CopyFrom(ctx, strings.NewReader("14\to\n15\tn\n"), "COPY sd FROM STDIN"); err != nil {
		t.Fatal(err)
	}
	s1 := snap()
	delta("A", s0, s1, pgStatDBCompared)
	returned = [2]int64{s1["tup_returned"] - s0["tup_returned"], s1["seq_tup_read"] - s0["seq_tup_read"]}

	// Window B: a second session, which counts when it starts (sessions),
	// and its statements.
	c2, err := connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c2.Exec(ctx, "INSERT INTO sd VALUES (16, 'm'); SELECT pg_stat_force_next_flush()").ReadAll(); err != nil {
		t.Fatal(err)
	}
	fixed = pgDumpRows(t, c, `SELECT datid, datname IS NULL, numbackends, checksum_failures IS NULL, checksum_last_failure IS NULL,
		stats_reset IS NULL, blk_read_time, blk_write_time, datid = 0 OR pg_stat_get_db_numbackends(datid) = numbackends,
		pg_stat_get_db_xact_commit(datid) = xact_commit, pg_stat_get_db_xact_rollback(datid) = xact_rollback,
		pg_stat_get_db_tuples_inserted(datid) = tup_inserted, pg_stat_get_db_tuples_returned(datid) = tup_returned
		FROM pg_stat_database WHERE datid = 0 OR datname = current_database() ORDER BY datid`)
	c2.Close(ctx) // its end is counted when it has ended, at a time the test does not know
	s2 := snap()
	delta("B", s1, s2, pgStatDBWindowB)
	return deltas, fixed, returned
}

func TestPgStatDatabaseVsPostgres(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: starts PostgreSQL")
	}
	binDir := requirePG(t)
	want, wantFixed, _ := pgStatDBDeltas(t, startPG(t, binDir).connect)
	got, gotFixed, returned := pgStatDBDeltas(t, startGpusql(t, t.TempDir()).connect)
	if !slices.Equal(got, want) {
		t.Errorf("pg_stat_database's changes differ from PostgreSQL's\n%s", lineDiff(strings.Join(got, "\n"), strings.Join(want, "\n")))
	}
	if !slices.Equal(gotFixed, wantFixed) {
		t.Errorf("pg_stat_database's fixed columns differ from PostgreSQL's (datid, datname IS NULL, numbackends, checksum_failures IS NULL, "+
			"checksum_last_failure IS NULL, stats_reset IS NULL, blk_read_time, blk_write_time, and the pg_stat_get_db_* functions)\n%s",
			lineDiff(strings.Join(gotFixed, "\n"), strings.Join(wantFixed, "\n")))
	}
	if returned[0] != returned[1] {
		t.Errorf("gpusql's tup_returned changed by %d, the sum of pg_stat_user_tables' seq_tup_read by %d", returned[0], returned[1])
	}
}

// TestPgStatDatabaseDevice: the GPU backend counts as the CPU backend
// does (which TestPgStatDatabaseVsPostgres compares with PostgreSQL).
func TestPgStatDatabaseDevice(t *testing.T) {
	requireGPU(t)
	want, wantFixed, wantReturned := pgStatDBDeltas(t, startGpusqlOn(t, t.TempDir(), "cpu").connect)
	got, gotFixed, returned := pgStatDBDeltas(t, startGpusqlOn(t, t.TempDir(), "cuda").connect)
	if !slices.Equal(got, want) || !slices.Equal(gotFixed, wantFixed) || returned != wantReturned {
		t.Errorf("pg_stat_database differs from the CPU backend's\n%s\n%s\ntup_returned, seq_tup_read: %v, want %v",
			lineDiff(strings.Join(got, "\n"), strings.Join(want, "\n")),
			lineDiff(strings.Join(gotFixed, "\n"), strings.Join(wantFixed, "\n")), returned, wantReturned)
	}
}
