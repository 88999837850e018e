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

func TestPgStatUserTablesVsPostgres(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: starts PostgreSQL")
	}
	binDir := requirePG(t)
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
	// n_dead_tup, the vacuum and analyze counters and times are left
	// out: gpusql has no dead rows, VACUUM or ANALYZE, and PostgreSQL's
	// autovacuum may run at any time.
	const stats = `SELECT relname, seq_scan, seq_tup_read, n_tup_ins, n_tup_upd, n_tup_del, n_live_tup, n_mod_since_analyze,
		pg_stat_get_numscans(relid), pg_stat_get_tuples_returned(relid), pg_stat_get_tuples_inserted(relid)
		FROM pg_stat_user_tables ORDER BY relname`
	ctx := context.Background()
	run := func(connect func(context.Context) (*pgconn.PgConn, error), flush string) []string {
		t.Helper()
		c, err := connect(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close(ctx)
		for _, sql := range stmts {
			if _, err := c.Exec(ctx, sql).ReadAll(); err != nil {
				t.Fatalf("%s: %v", sql, err)
			}
		}
		if flush != "" {
			pgDumpRows(t, c, flush)
		}
		return pgDumpRows(t, c, stats)
	}
	// PostgreSQL's backends send their counts to the shared statistics
	// when idle, at most once a second, unless told to at the end of
	// the next statement: then the query after it sees them all.
	pg := startPG(t, binDir)
	want := run(pg.connect, "SELECT pg_stat_force_next_flush()")
	if len(want) != 3 {
		t.Fatalf("PostgreSQL lists %d tables:\n%s", len(want), strings.Join(want, "\n"))
	}
	for _, device := range []string{"cpu", "cuda"} {
		t.Run(device, func(t *testing.T) {
			if device == "cuda" {
				requireGPU(t)
			}
			got := run(startGpusqlOn(t, t.TempDir(), device).connect, "")
			if !slices.Equal(got, want) {
				t.Errorf("pg_stat_user_tables differs from PostgreSQL's (relname, seq_scan, seq_tup_read, n_tup_ins, n_tup_upd, n_tup_del, n_live_tup, n_mod_since_analyze, numscans, tuples_returned, tuples_inserted)\n%s",
					lineDiff(strings.Join(got, "\n"), strings.Join(want, "\n")))
			}
		})
	}
}
