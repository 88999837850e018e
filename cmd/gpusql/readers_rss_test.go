package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// rssBytes is the process's resident set size (/proc/self/statm's
// second field, in pages), after a garbage collection that returns freed
// memory to the operating system.
func rssBytes(t *testing.T) int64 {
	t.Helper()
	debug.FreeOSMemory()
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		t.Skipf("no /proc/self/statm: %v", err)
	}
	f := strings.Fields(string(b))
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		t.Fatalf("/proc/self/statm %q: %v", b, err)
	}
	return pages * int64(os.Getpagesize())
}

// rssBound is how far above its baseline the process's RSS may end: the
// readers' connections, goroutines and results are freed by then, and a
// leak of the table's versions (each of the 15 written is 1.6 to 4.8 MB)
// or of the 64 connections' buffers would pass it.
const rssBound = 24 << 20

// TestManyWireReadersWithPersistence: 64 pgx connections read table r
// while another connection creates it from a CSV file, appends to it
// with COPY and drops it, three times, with every change kept in the
// data directory (the server's default). Every answer must be one
// committed state of r (each state has a row count and sum no other has)
// or "relation does not exist"; nothing else. Afterwards the process's
// RSS returns to within rssBound of where it was before the readers
// connected.
//
// No timing: reader g's i-th query waits until the writer has done a
// share (i + g/readers)/perReader of its statements, so the reads spread
// over the writes whatever the speeds, and any interleaving must give
// committed states.
func TestManyWireReadersWithPersistence(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	s := startFlags(t, "", "--max-connections", "80")
	ctx := context.Background()
	dsn := s.dsn("gpusql", "", "")

	const baseRows, parts, partRows, rounds, readers, perReader = 100_000, 4, 50_000, 3, 64, 12
	type state struct{ count, sum int64 }
	valid := map[state]bool{}
	var cur state
	writeRows := func(name string, first, n int) {
		var b strings.Builder
		for i := first; i < first+n; i++ {
			fmt.Fprintf(&b, "%d,%d\n", i, i%97+1)
			cur.count++
			cur.sum += int64(i%97 + 1)
		}
		if err := os.WriteFile(filepath.Join(s.dataDir, name), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		valid[cur] = true
	}
	writeRows("base.csv", 1, baseRows)
	for k := 1; k <= parts; k++ {
		writeRows(fmt.Sprintf("part%d.csv", k), baseRows+(k-1)*partRows+1, partRows)
	}
	const create = `CREATE TABLE r (id bigint, amount bigint) FROM CSV 'base.csv'`
	var ops []string
	for range rounds {
		ops = append(ops, create)
		for k := 1; k <= parts; k++ {
			ops = append(ops, fmt.Sprintf(`COPY r FROM 'part%d.csv' WITH (FORMAT csv)`, k))
		}
		ops = append(ops, `DROP TABLE r`)
	}
	queries := []struct {
		sql  string
		args []any
	}{
		{sql: `SELECT count(*), sum(amount) FROM r`},
		{sql: `SELECT (SELECT count(*) FROM r), (SELECT sum(amount) FROM r)`},
		{sql: `SELECT count(*), sum(amount) FROM r WHERE amount >= $1`, args: []any{int64(1)}},
		{sql: `SELECT sum(n), sum(s) FROM (SELECT amount, count(*) AS n, sum(amount) AS s FROM r GROUP BY amount) g`},
	}
	read := func(c *pgx.Conn, sql string, args []any) (state, error) {
		var st state
		err := c.QueryRow(ctx, sql, args...).Scan(&st.count, &st.sum)
		return st, err
	}

	writer, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer writer.Close(ctx)
	// One round first, so that what stays allocated for good (the
	// writer's connection, caches, the data directory's first files) is
	// in the baseline.
	for _, sql := range []string{create, `COPY r FROM 'part1.csv' WITH (FORMAT csv)`} {
		if _, err := writer.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	for _, q := range queries {
		if _, err := read(writer, q.sql, q.args); err != nil {
			t.Fatalf("%s: %v", q.sql, err)
		}
	}
	if _, err := writer.Exec(ctx, `DROP TABLE r`); err != nil {
		t.Fatal(err)
	}
	base := rssBytes(t)

	conns := make([]*pgx.Conn, readers)
	for g := range conns {
		if conns[g], err = pgx.Connect(ctx, dsn); err != nil {
			t.Fatalf("reader %d: %v", g, err)
		}
	}
	// done counts the writer's finished statements.
	var mu sync.Mutex
	cond := sync.NewCond(&mu)
	done := 0
	seen := map[string]int{}
	var wg sync.WaitGroup
	for g, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer c.Close(ctx)
			for i := range perReader {
				mu.Lock()
				for done < (i*len(ops)+g*len(ops)/readers)/perReader {
					cond.Wait()
				}
				mu.Unlock()
				q := queries[(g+i)%len(queries)]
				st, err := read(c, q.sql, q.args)
				var what string
				var pe *pgconn.PgError
				switch {
				case err != nil && errors.As(err, &pe) && pe.Code == "42P01":
					what = "dropped"
				case err != nil:
					t.Errorf("reader %d: %s: %v", g, q.sql, err)
					return
				case !valid[st]:
					t.Errorf("reader %d: %s: %v is no committed state of r", g, q.sql, st)
					return
				default:
					what = fmt.Sprintf("%d rows", st.count)
				}
				mu.Lock()
				seen[what]++
				mu.Unlock()
			}
		}()
	}
	for _, sql := range ops {
		if _, err := writer.Exec(ctx, sql); err != nil {
			t.Errorf("writer: %s: %v", sql, err)
		}
		mu.Lock()
		done++
		cond.Broadcast()
		mu.Unlock()
	}
	wg.Wait()
	t.Logf("answers: %v", seen)
	if n := seen["dropped"]; n == readers*perReader {
		t.Error("every answer was \"dropped\"")
	}
	after := rssBytes(t)
	t.Logf("RSS %d MiB before the readers connected, %d MiB after they closed (bound +%d MiB)", base>>20, after>>20, rssBound>>20)
	if raceDetector {
		t.Log("the race detector's shadow memory stays resident: RSS not checked")
	} else if after > base+rssBound {
		t.Errorf("RSS %d MiB after the readers closed, more than %d MiB above the baseline %d MiB", after>>20, rssBound>>20, base>>20)
	}
}
