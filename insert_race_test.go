package gpusql_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gpusql/gpusql"
	"github.com/gpusql/gpusql/engine"
)

// TestInsertReadersSeeCommittedStates runs readers against table r and a
// view of it while one writer builds r with CREATE TABLE ... AS, appends
// to it with INSERT (of a query and of VALUES), truncates, renames and
// drops it, a fixed number of operations. Every answer must be exactly
// one committed state of r, known in advance, or "relation does not
// exist" while it is gone: never a mix of two states, never part of an
// INSERT. Then writers append to one table concurrently, and every row of
// every INSERT must land. When everything is done, every old version has
// been freed and, on the GPU, device memory is back at its baseline.
//
// Under `go test -race` it checks the CPU backend; with
// GPUSQL_TEST_DEVICE=cuda the GPU backend.
func TestInsertReadersSeeCommittedStates(t *testing.T) {
	db := openDB(t, gpusql.Options{})
	ctx := context.Background()
	root := db.FileRoot()

	// src holds every row; base and the parts are ranges of its ids.
	const baseRows, parts, partRows, rounds = 1500, 4, 200, 3
	var b strings.Builder
	for i := 1; i <= baseRows+parts*partRows; i++ {
		fmt.Fprintf(&b, "%d,%d\n", i, i%89+1)
	}
	write(t, filepath.Join(root, "src.csv"), b.String())
	if _, err := db.Exec(ctx, `CREATE TABLE src (id bigint, amount bigint) FROM CSV 'src.csv'`); err != nil {
		t.Fatal(err)
	}
	type state struct{ count, sum int64 }
	var states []state
	var cur state
	add := func(first, n int) {
		for i := first; i < first+n; i++ {
			cur.count++
			cur.sum += int64(i%89 + 1)
		}
		states = append(states, cur)
	}
	add(1, baseRows)
	var ops []string
	for k := 1; k <= parts; k++ {
		lo := baseRows + (k-1)*partRows + 1
		add(lo, partRows)
		if k%2 == 1 {
			ops = append(ops, fmt.Sprintf(`INSERT INTO r SELECT id, amount FROM src WHERE id BETWEEN %d AND %d`, lo, lo+partRows-1))
			continue
		}
		var vals []string
		for i := lo; i < lo+partRows; i++ {
			vals = append(vals, fmt.Sprintf("(%d, %d)", i, i%89+1))
		}
		ops = append(ops, `INSERT INTO r (id, amount) VALUES `+strings.Join(vals, ", "))
	}
	valid := map[state]bool{{0, 0}: true} // truncated
	for _, s := range states {
		valid[s] = true
	}
	create := fmt.Sprintf(`CREATE TABLE r AS SELECT id, amount FROM src WHERE id <= %d`, baseRows)
	round := append([]string{create, `CREATE VIEW rv AS SELECT id, amount FROM r WHERE amount > 0`}, ops...)
	round = append(round, `TRUNCATE r`, `ALTER TABLE r RENAME TO r2`, `ALTER TABLE r2 RENAME TO r`, `DROP TABLE r CASCADE`)
	var all []string
	for range rounds {
		all = append(all, round...)
	}
	queries := []string{
		`SELECT count(*), coalesce(sum(amount), 0) FROM r`,
		`SELECT count(*), coalesce(sum(amount), 0) FROM rv`,
		`SELECT (SELECT count(*) FROM r), (SELECT coalesce(sum(amount), 0) FROM rv)`,
		`SELECT count(*), coalesce(sum(a), 0) FROM (SELECT x.amount AS a FROM r x JOIN r y ON x.id = y.id) j`,
	}

	// One round before measuring, so that what first use allocates for
	// good is part of the baseline.
	for _, sql := range round {
		if _, err := db.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	baseMem, baseVersions := db.DeviceMemoryInUse(), db.Catalog().LiveVersions()

	const readers, perReader = 6, 40
	var wg sync.WaitGroup
	var mu sync.Mutex
	seen := map[string]int{}
	for g := range readers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range perReader {
				q := queries[(g+i)%len(queries)]
				n, sum, err := readState(ctx, db, q, nil)
				var what string
				switch {
				case err != nil && engine.Code(err) == engine.CodeUndefinedTable:
					what = "absent"
				case err != nil:
					t.Errorf("%s: %v (SQLSTATE %s)", q, err, engine.Code(err))
					return
				case !valid[state{n, sum}]:
					t.Errorf("%s: (%d, %d) is no committed state of r", q, n, sum)
					return
				default:
					what = fmt.Sprintf("%d rows", n)
				}
				mu.Lock()
				seen[what]++
				mu.Unlock()
			}
		}()
	}
	for _, sql := range all {
		if _, err := db.Exec(ctx, sql); err != nil {
			t.Fatalf("writer: %.60s: %v", sql, err)
		}
	}
	wg.Wait()
	t.Logf("answers: %v", seen)

	// Concurrent INSERTs into one table serialise: all of them land.
	if _, err := db.Exec(ctx, `CREATE TABLE w (id bigint, amount bigint)`); err != nil {
		t.Fatal(err)
	}
	const writers, inserts = 4, 10
	for g := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range inserts {
				sql := `INSERT INTO w SELECT id, amount FROM src WHERE id <= 50`
				if i%2 == 1 {
					sql = fmt.Sprintf(`INSERT INTO w VALUES (%d, 1), (%d, 2)`, g, i)
				}
				if _, err := db.Exec(ctx, sql); err != nil {
					t.Errorf("writer %d: %v", g, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	n, _, err := readState(ctx, db, `SELECT count(*), 0 FROM w`, nil)
	if want := int64(writers * inserts / 2 * (50 + 2)); err != nil || n != want {
		t.Errorf("after concurrent INSERTs: %d rows (%v), want %d", n, err, want)
	}
	if _, err := db.Exec(ctx, `DROP TABLE w`); err != nil {
		t.Fatal(err)
	}

	if n := db.Catalog().LiveVersions(); n != baseVersions {
		t.Errorf("%d table versions live after every statement ended, want %d", n, baseVersions)
	}
	if m := db.DeviceMemoryInUse(); m != baseMem {
		t.Errorf("device memory in use %d bytes after every statement ended, want the baseline %d", m, baseMem)
	}
}
