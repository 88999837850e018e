package main

// pg_stat_user_tables against PostgreSQL 15: the same statements, each its
// own Query message, leave the same scan and insert counts on both.

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

// pgStatSequence is testdata/pgstat/sequence.sql's statements.
func pgStatSequence(t *testing.T) []string {
	t.Helper()
	seq, err := os.ReadFile("../../testdata/pgstat/sequence.sql")
	if err != nil {
		t.Fatal(err)
	}
	var stmts []string
	for _, l := range strings.Split(string(seq), "\n") {
		if l != "" && !strings.HasPrefix(l, "--") {
			stmts = append(stmts, l)
		}
	}
	return stmts
}

// pgStatAfter runs the sequence on a new connection, then flush (if
// any), and returns pg_stat_user_tables' counters. n_dead_tup, the
// vacuum and analyze counters and times are left out: gpusql has no dead
// rows, VACUUM or ANALYZE, and PostgreSQL's autovacuum may run at any
// time.
func pgStatAfter(t *testing.T, connect func(context.Context) (*pgconn.PgConn, error), flush string) []string {
	t.Helper()
	ctx := context.Background()
	c, err := connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	for _, sql := range pgStatSequence(t) {
		if _, err := c.Exec(ctx, sql).ReadAll(); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	if flush != "" {
		pgDumpRows(t, c, flush)
	}
	return pgDumpRows(t, c, `SELECT relname, seq_scan, seq_tup_read, n_tup_ins, n_tup_upd, n_tup_del, n_live_tup, n_mod_since_analyze,
		pg_stat_get_numscans(relid), pg_stat_get_tuples_returned(relid), pg_stat_get_tuples_inserted(relid)
		FROM pg_stat_user_tables ORDER BY relname`)
}

func pgStatCompare(t *testing.T, got, want []string, with string) {
	t.Helper()
	if len(want) != 3 {
		t.Fatalf("%s lists %d tables:\n%s", with, len(want), strings.Join(want, "\n"))
	}
	if !slices.Equal(got, want) {
		t.Errorf("pg_stat_user_tables differs from %s's (relname, seq_scan, seq_tup_read, n_tup_ins, n_tup_upd, n_tup_del, n_live_tup, n_mod_since_analyze, numscans, tuples_returned, tuples_inserted)\n%s",
			with, lineDiff(strings.Join(got, "\n"), strings.Join(want, "\n")))
	}
}

func TestPgStatUserTablesVsPostgres(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: starts PostgreSQL")
	}
	binDir := requirePG(t)
	// PostgreSQL's backends send their counts to the shared statistics
	// when idle, at most once a second, unless told to at the end of
	// the next statement: then the query after it sees them all.
	want := pgStatAfter(t, startPG(t, binDir).connect, "SELECT pg_stat_force_next_flush()")
	pgStatCompare(t, pgStatAfter(t, startGpusql(t, t.TempDir()).connect, ""), want, "PostgreSQL")
}

// TestPgStatUserTablesDevice: the GPU backend counts as the CPU backend
// does (which TestPgStatUserTablesVsPostgres compares with PostgreSQL).
func TestPgStatUserTablesDevice(t *testing.T) {
	requireGPU(t)
	want := pgStatAfter(t, startGpusqlOn(t, t.TempDir(), "cpu").connect, "")
	pgStatCompare(t, pgStatAfter(t, startGpusqlOn(t, t.TempDir(), "cuda").connect, ""), want, "the CPU backend")
}
