package gpusql_test

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/gpusql/gpusql"
	"github.com/gpusql/gpusql/engine"
)

// TestReadersSeeCommittedStates runs readers against table r while one
// writer creates, appends to and drops it, a fixed number of operations
// (no timing). Every answer must be exactly one committed state of r,
// known in advance, or "relation does not exist" while it is dropped:
// never a mix of two states, never a half-released table, never XX000.
// When everything is done, every old version has been freed: the
// catalog holds only the live tables' versions and, on the GPU, device
// memory is back where it started.
//
// Under `go test -race` (make test) it checks the CPU backend; with
// GPUSQL_TEST_DEVICE=cuda (make gpu-test) the GPU backend.
func TestReadersSeeCommittedStates(t *testing.T) {
	readersSeeCommittedStates(t, gpusql.Options{}, 6, 40)
}

// TestManyReadersWithPersistence is the same with 64 readers and every
// write kept in the data directory (the server's default), and checks
// that the Go heap returns near where it started too.
func TestManyReadersWithPersistence(t *testing.T) {
	readersSeeCommittedStates(t, gpusql.Options{DataDir: t.TempDir(), Persist: true}, 64, 8)
}

func readersSeeCommittedStates(t *testing.T, opts gpusql.Options, readers, perReader int) {
	db := openDB(t, opts)
	ctx := context.Background()
	root := db.FileRoot()

	// base.csv, then part1..partK appended in turn: state j is base plus
	// parts 1..j, with a row count and sum no other state has.
	const baseRows, parts, partRows, rounds = 2000, 4, 300, 3
	type state struct{ count, sum int64 }
	var states []state
	var cur state
	writeRows := func(name string, first, n int) {
		var b strings.Builder
		for i := first; i < first+n; i++ {
			fmt.Fprintf(&b, "%d,%d\n", i, i%97+1)
			cur.count++
			cur.sum += int64(i%97 + 1)
		}
		write(t, filepath.Join(root, name), b.String())
		states = append(states, cur)
	}
	writeRows("base.csv", 1, baseRows)
	for k := 1; k <= parts; k++ {
		writeRows(fmt.Sprintf("part%d.csv", k), baseRows+(k-1)*partRows+1, partRows)
	}
	valid := map[state]bool{}
	for _, s := range states {
		valid[s] = true
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
	// Two scans of r in one statement must read the same version, as must
	// a prepared statement's Parse and Execute.
	queries := []struct {
		sql  string
		args []any
	}{
		{sql: `SELECT count(*), sum(amount) FROM r`},
		{sql: `SELECT (SELECT count(*) FROM r), (SELECT sum(amount) FROM r)`},
		{sql: `SELECT count(*), sum(amount) FROM r WHERE amount >= $1`, args: []any{int64(1)}},
		{sql: `SELECT sum(n), sum(s) FROM (SELECT amount, count(*) AS n, sum(amount) AS s FROM r GROUP BY amount) g`},
	}

	// One round before measuring, so that what the first use of each
	// kernel allocates for good is part of the baseline.
	for _, sql := range []string{create, `COPY r FROM 'part1.csv' WITH (FORMAT csv)`} {
		if _, err := db.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	for _, q := range queries {
		if _, _, err := readState(ctx, db, q.sql, q.args); err != nil {
			t.Fatalf("%s: %v", q.sql, err)
		}
	}
	if _, err := db.Exec(ctx, `DROP TABLE r`); err != nil {
		t.Fatal(err)
	}
	baseMem, baseVersions := db.DeviceMemoryInUse(), db.Catalog().LiveVersions()
	baseHeap := heapInUse()

	var wg sync.WaitGroup
	var mu sync.Mutex
	seen := map[string]int{}
	for g := range readers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range perReader {
				q := queries[(g+i)%len(queries)]
				n, sum, err := readState(ctx, db, q.sql, q.args)
				var what string
				switch {
				case err != nil && engine.Code(err) == engine.CodeUndefinedTable:
					what = "dropped"
				case err != nil:
					t.Errorf("%s: %v (SQLSTATE %s)", q.sql, err, engine.Code(err))
					return
				case !valid[state{n, sum}]:
					t.Errorf("%s: (%d, %d) is no committed state of r", q.sql, n, sum)
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
	for _, sql := range ops {
		if _, err := db.Exec(ctx, sql); err != nil {
			t.Fatalf("writer: %s: %v", sql, err)
		}
	}
	wg.Wait()
	t.Logf("answers: %v", seen)

	if n := db.Catalog().LiveVersions(); n != baseVersions {
		t.Errorf("%d table versions live after every statement ended, want %d", n, baseVersions)
	}
	if m := db.DeviceMemoryInUse(); m != baseMem {
		t.Errorf("device memory in use %d bytes after every statement ended, want the baseline %d", m, baseMem)
	}
	// The tables' rows are a few hundred kB; a leak of every version or
	// of the readers' results would be tens of MB.
	if h := heapInUse(); h > baseHeap+32<<20 {
		t.Errorf("Go heap %d MB after every statement ended, %d MB before", h>>20, baseHeap>>20)
	}
}

// heapInUse is the Go heap's live bytes after a collection.
func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

// readState runs a query answering (count, sum) in one row.
func readState(ctx context.Context, db *gpusql.DB, sql string, args []any) (n, sum int64, err error) {
	rows, err := db.Query(ctx, sql, args...)
	if err != nil {
		return 0, 0, err
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return 0, 0, err
		}
		return 0, 0, fmt.Errorf("no row")
	}
	var a, b *int64
	if err := rows.Scan(&a, &b); err != nil {
		return 0, 0, err
	}
	if rows.Next() {
		return 0, 0, fmt.Errorf("more than one row")
	}
	if err := rows.Err(); err != nil {
		return 0, 0, err
	}
	if a == nil || b == nil {
		return 0, 0, fmt.Errorf("NULL in (%v, %v)", a, b)
	}
	return *a, *b, nil
}
