package query_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// TestPgStatUserTablesCounters runs a sequence of statements and checks
// pg_stat_user_tables' counters after it, exactly. The numbers of the
// first part are those PostgreSQL 15 shows after the same statements
// (testdata/pgstat/sequence.sql; TestPgStatUserTablesVsPostgres in
// cmd/gpusql compares them live).
func TestPgStatUserTablesCounters(t *testing.T) {
	srv, root := newTestServer(t)
	if err := os.WriteFile(filepath.Join(root, "stats.csv"), []byte("a,b\n10,p\n11,q\n12,r\n13,s\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := testSession(t, srv, engine.SessionParams{})
	q := func(sql string) []string { t.Helper(); return queryRows(t, s, sql) }
	stats := func(rel string) string {
		t.Helper()
		rows := q("SELECT seq_scan, seq_tup_read, n_tup_ins, n_live_tup, n_mod_since_analyze, n_ins_since_vacuum, " +
			"pg_stat_get_numscans(relid), pg_stat_get_tuples_returned(relid), pg_stat_get_tuples_inserted(relid) " +
			"FROM pg_stat_user_tables WHERE relname = '" + rel + "'")
		if len(rows) != 1 {
			t.Fatalf("%s: %d rows in pg_stat_user_tables", rel, len(rows))
		}
		return rows[0]
	}
	expect := func(rel, want string) {
		t.Helper()
		if got := stats(rel); got != want {
			t.Fatalf("%s: seq_scan|seq_tup_read|n_tup_ins|n_live_tup|n_mod_since_analyze|n_ins_since_vacuum|numscans|returned|inserted\ngot  %s\nwant %s", rel, got, want)
		}
	}

	// Part 1: the statements TestPgStatUserTablesVsPostgres runs.
	seq, err := os.ReadFile("../testdata/pgstat/sequence.sql")
	if err != nil {
		t.Fatal(err)
	}
	for _, sql := range strings.Split(string(seq), "\n") {
		if sql != "" && !strings.HasPrefix(sql, "--") {
			q(sql)
		}
	}
	expect("t", "6|10|7|1|4|7|6|10|7")
	expect("c2", "1|1|1|1|1|1|1|1|1")
	expect("e", "2|1|4|1|1|4|2|1|4")

	// Part 2: loads, savepoints, EXPLAIN, DROP.
	q("CREATE TABLE f (a int, b text) FROM CSV 'stats.csv' WITH (HEADER true)")
	expect("f", "0|0|4|4|4|4|0|0|4")
	q("COPY f FROM 'stats.csv' WITH (FORMAT csv, HEADER true)")
	expect("f", "0|0|8|8|8|8|0|0|8")
	// A rolled-back savepoint's rows count as inserted, not as changed.
	q("BEGIN")
	q("INSERT INTO f VALUES (1, 'a')")
	q("SAVEPOINT s")
	q("INSERT INTO f VALUES (2, 'b'), (3, 'c')")
	q("ROLLBACK TO SAVEPOINT s")
	q("SELECT count(*) FROM f") // 9 rows: the block's
	q("COMMIT")
	expect("f", "1|9|11|9|9|11|1|9|11")
	// A plain EXPLAIN scans nothing, EXPLAIN ANALYZE does.
	q("EXPLAIN SELECT * FROM f a JOIN f b ON a.a = b.a")
	expect("f", "1|9|11|9|9|11|1|9|11")
	q("EXPLAIN ANALYZE SELECT * FROM f WHERE a > 10")
	expect("f", "2|18|11|9|9|11|2|18|11")
	// One Query message of several statements is one transaction.
	q("INSERT INTO f VALUES (4, 'd'); SELECT * FROM f; SELECT * FROM f")
	expect("f", "4|38|12|10|10|12|4|38|12")
	// A TRUNCATE outside a block keeps the counts; COPY TO scans.
	q("TRUNCATE f")
	q("COPY f TO 'stats-out.csv'")
	expect("f", "5|38|12|0|10|12|5|38|12")
	// DROP forgets them: a new table of the name starts at zero.
	q("DROP TABLE f")
	q("CREATE TABLE f (a int)")
	expect("f", "0|0|0|0|0|0|0|0|0")
}

// TestPgStatUserTablesConcurrent: sessions that scan and insert at once
// lose no count.
func TestPgStatUserTablesConcurrent(t *testing.T) {
	srv, _ := newTestServer(t)
	setup := testSession(t, srv, engine.SessionParams{})
	queryRows(t, setup, "CREATE TABLE w (a int)")
	queryRows(t, setup, "INSERT INTO w VALUES (1), (2)")
	const sessions, rounds = 4, 25
	var wg sync.WaitGroup
	for i := 0; i < sessions; i++ {
		s := testSession(t, srv, engine.SessionParams{})
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < rounds; j++ {
				var r recorder
				if err := s.Query(context.Background(), "SELECT count(*) FROM w", &r); err != nil {
					t.Error(err)
					return
				}
				if err := s.Query(context.Background(), "INSERT INTO w VALUES (3)", &r); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	// Every scan read 2 rows and those inserted before it: the sum of
	// what the scans read depends on the order, the counts do not.
	got := queryRows(t, setup, "SELECT seq_scan, n_tup_ins, n_live_tup FROM pg_stat_user_tables WHERE relname = 'w'")
	want := fmt.Sprintf("%d|%d|%d", sessions*rounds, 2+sessions*rounds, 2+sessions*rounds)
	if len(got) != 1 || got[0] != want {
		t.Fatalf("seq_scan|n_tup_ins|n_live_tup: got %v, want %s", got, want)
	}
}
