package main

// The kill -9 harness: the server runs as a child process (this test
// binary, re-executed as the gpusql command) on one data directory and is
// killed at random points of loads, COPY, CREATE TABLE AS, INSERT, DROP,
// RENAME, TRUNCATE and transaction blocks, again and again. After every restart each
// table must be whole, in the state before the killed statement or the
// state after it (after it, if the client had been told it committed),
// and no other table may be visible. The assertions hold wherever the
// kill lands, so the test does not depend on timing.

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// childServeEnv makes the test binary run the gpusql command instead of
// the tests.
const childServeEnv = "GPUSQL_TEST_SERVE_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childServeEnv) == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// killRow is one row of a harness table: (a bigint, b text).
type killRow struct {
	a int64
	b *string
}

// killState is the harness's tables by name (absent: no table).
type killState map[string][]killRow

func (s killState) clone() killState {
	out := killState{}
	for k, v := range s {
		out[k] = slices.Clone(v)
	}
	return out
}

func sortRows(rs []killRow) {
	slices.SortFunc(rs, func(x, y killRow) int {
		if x.a != y.a {
			if x.a < y.a {
				return -1
			}
			return 1
		}
		switch {
		case x.b == nil && y.b == nil:
			return 0
		case x.b == nil:
			return 1 // NULLS LAST, as ORDER BY b does
		case y.b == nil:
			return -1
		}
		return strings.Compare(*x.b, *y.b)
	})
}

func equalState(x, y killState) bool {
	if len(x) != len(y) {
		return false
	}
	for k, xv := range x {
		yv, ok := y[k]
		if !ok || len(xv) != len(yv) {
			return false
		}
		xv, yv = slices.Clone(xv), slices.Clone(yv)
		sortRows(xv)
		sortRows(yv)
		for i := range xv {
			if xv[i].a != yv[i].a || (xv[i].b == nil) != (yv[i].b == nil) || xv[i].b != nil && *xv[i].b != *yv[i].b {
				return false
			}
		}
	}
	return true
}

func describe(s killState) string {
	var names []string
	for k, v := range s {
		names = append(names, fmt.Sprintf("%s(%d rows)", k, len(v)))
	}
	slices.Sort(names)
	return strings.Join(names, " ")
}

// killChild is one run of the server as a child process.
type killChild struct {
	cmd  *exec.Cmd
	port int
}

func startChild(t *testing.T, dataDir string) *killChild {
	t.Helper()
	cmd := exec.Command(os.Args[0], "--data-dir", dataDir, "--listen", "127.0.0.1:0", "--device", "cpu", "--log-level", "warn")
	cmd.Env = append(os.Environ(), childServeEnv+"=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(out)
	for lines.Scan() {
		// "gpusql VERSION listening on 127.0.0.1:PORT (backend: cpu)"
		_, rest, ok := strings.Cut(lines.Text(), " listening on ")
		if !ok {
			continue
		}
		addr, _, _ := strings.Cut(rest, " ")
		_, p, _ := strings.Cut(addr, ":")
		port, err := strconv.Atoi(p)
		if err != nil {
			t.Fatalf("banner %q", lines.Text())
		}
		go func() { // drain the rest
			for lines.Scan() {
			}
		}()
		return &killChild{cmd: cmd, port: port}
	}
	_ = cmd.Wait()
	t.Fatalf("the server exited before it listened: %v", lines.Err())
	return nil
}

func (k *killChild) kill() {
	_ = k.cmd.Process.Signal(syscall.SIGKILL)
	_ = k.cmd.Wait()
}

func (k *killChild) connect(t *testing.T) *pgconn.PgConn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := pgconn.Connect(ctx, "host=127.0.0.1 port="+strconv.Itoa(k.port)+" user=gpusql dbname=gpusql sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var killTables = []string{"t0", "t1", "t2", "t3"}

// observe reads every harness table the server has.
func observe(t *testing.T, c *pgconn.PgConn) killState {
	t.Helper()
	s := killState{}
	for _, name := range killTables {
		res, err := c.Exec(context.Background(), "SELECT a, b FROM "+name).ReadAll()
		var pe *pgconn.PgError
		if errors.As(err, &pe) && pe.Code == "42P01" {
			continue
		}
		if err != nil {
			t.Fatalf("reading %s: %v", name, err)
		}
		rows := []killRow{}
		for _, r := range res[0].Rows {
			a, err := strconv.ParseInt(string(r[0]), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			row := killRow{a: a}
			if r[1] != nil {
				b := string(r[1])
				row.b = &b
			}
			rows = append(rows, row)
		}
		s[name] = rows
	}
	return s
}

// killOp is a statement (or block) the harness runs and kills, with the
// state it leaves.
type killOp struct {
	sql   string
	after killState
}

// genRows makes n rows with a in [from, from+n) and some NULL b.
func genRows(rng *rand.Rand, from int64, n int) []killRow {
	rows := make([]killRow, n)
	for i := range rows {
		rows[i].a = from + int64(i)
		if rng.Intn(7) != 0 {
			b := fmt.Sprintf("v%d-%s", rows[i].a, strings.Repeat("x", rng.Intn(20)))
			rows[i].b = &b
		}
	}
	return rows
}

func writeKillCSV(t *testing.T, path string, rows []killRow) {
	t.Helper()
	var sb strings.Builder
	for _, r := range rows {
		sb.WriteString(strconv.FormatInt(r.a, 10))
		sb.WriteByte(',')
		if r.b != nil {
			sb.WriteString(`"` + *r.b + `"`)
		}
		sb.WriteByte('\n')
	}
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// nextOp picks a statement that can succeed in state s.
func nextOp(t *testing.T, rng *rand.Rand, s killState, dir string, i int) killOp {
	t.Helper()
	var have, free []string
	for _, n := range killTables {
		if _, ok := s[n]; ok {
			have = append(have, n)
		} else {
			free = append(free, n)
		}
	}
	after := s.clone()
	pick := func(xs []string) string { return xs[rng.Intn(len(xs))] }
	for {
		switch rng.Intn(9) {
		case 0, 1: // a load
			if len(free) == 0 {
				continue
			}
			name := pick(free)
			rows := genRows(rng, int64(i)*100000, 200+rng.Intn(3000))
			file := fmt.Sprintf("load%d.csv", i)
			writeKillCSV(t, filepath.Join(dir, file), rows)
			after[name] = rows
			return killOp{fmt.Sprintf("CREATE TABLE %s (a bigint, b text) FROM CSV '%s' WITH (FORMAT csv)", name, file), after}
		case 2: // COPY appends
			if len(have) == 0 {
				continue
			}
			name := pick(have)
			rows := genRows(rng, int64(i)*100000, 100+rng.Intn(2000))
			file := fmt.Sprintf("copy%d.csv", i)
			writeKillCSV(t, filepath.Join(dir, file), rows)
			after[name] = append(after[name], rows...)
			return killOp{fmt.Sprintf("COPY %s FROM '%s' WITH (FORMAT csv)", name, file), after}
		case 3: // CREATE TABLE AS
			if len(have) == 0 || len(free) == 0 {
				continue
			}
			from, name := pick(have), pick(free)
			var rows []killRow
			for _, r := range s[from] {
				if r.a%3 != 0 {
					rows = append(rows, killRow{r.a + 1, r.b})
				}
			}
			after[name] = append([]killRow{}, rows...)
			return killOp{fmt.Sprintf("CREATE TABLE %s AS SELECT a + 1 AS a, b FROM %s WHERE a %% 3 <> 0", name, from), after}
		case 4: // INSERT ... SELECT, maybe from itself
			if len(have) == 0 {
				continue
			}
			from, into := pick(have), pick(have)
			if len(s[from])+len(s[into]) > 20000 {
				continue
			}
			for _, r := range s[from] {
				after[into] = append(after[into], killRow{r.a * 2, r.b})
			}
			return killOp{fmt.Sprintf("INSERT INTO %s SELECT a * 2, b FROM %s", into, from), after}
		case 5: // DROP
			if len(have) == 0 {
				continue
			}
			name := pick(have)
			delete(after, name)
			return killOp{"DROP TABLE " + name, after}
		case 6: // a block's writes: all of them or none (its DDL, such
			// as a DROP, commits when it runs, as in memory)
			if len(have) < 2 {
				continue
			}
			x, y := pick(have), pick(have)
			if x == y || len(s[x])+len(s[y]) > 20000 {
				continue
			}
			b := fmt.Sprintf("block%d", i)
			after[x] = append(after[x], killRow{-int64(i), &b})
			for _, r := range s[x] {
				after[y] = append(after[y], killRow{r.a + 7, r.b})
			}
			return killOp{fmt.Sprintf("BEGIN; INSERT INTO %s SELECT a + 7, b FROM %s; INSERT INTO %s VALUES (%d, '%s'); COMMIT", y, x, x, -i, b), after}
		case 7: // RENAME
			if len(have) == 0 || len(free) == 0 {
				continue
			}
			from, to := pick(have), pick(free)
			after[to] = after[from]
			delete(after, from)
			return killOp{fmt.Sprintf("ALTER TABLE %s RENAME TO %s", from, to), after}
		case 8: // TRUNCATE
			if len(have) == 0 {
				continue
			}
			name := pick(have)
			after[name] = []killRow{}
			return killOp{"TRUNCATE " + name, after}
		}
	}
}

// TestPersistKill9 kills the server during writes and checks after each
// restart that the catalog holds one of the two consistent states.
func TestPersistKill9(t *testing.T) {
	runs := 50
	if testing.Short() {
		runs = 12
	}
	dir := t.TempDir()
	rng := rand.New(rand.NewSource(time.Now().UnixNano()))
	seed := rng.Int63()
	rng = rand.New(rand.NewSource(seed))
	t.Logf("seed %d", seed)

	model := killState{}
	var pending *killOp // the killed statement: model before, pending.after after
	acked := false
	afterSeen, beforeSeen := 0, 0
	for i := 0; i < runs; i++ {
		child := startChild(t, dir)
		c := child.connect(t)
		got := observe(t, c)
		switch {
		case pending != nil && equalState(got, pending.after):
			model = pending.after
			afterSeen++
		case pending != nil && acked:
			child.kill()
			t.Fatalf("run %d: %q was acknowledged, but after the restart the tables are %s, want %s",
				i, pending.sql, describe(got), describe(pending.after))
		case equalState(got, model):
			if pending != nil {
				beforeSeen++
			}
		default:
			child.kill()
			want := describe(model)
			if pending != nil {
				want += " or " + describe(pending.after)
			}
			what := "nothing"
			if pending != nil {
				what = pending.sql
			}
			t.Fatalf("run %d: after killing %q the tables are %s, want %s", i, what, describe(got), want)
		}
		op := nextOp(t, rng, model, dir, i)
		pending, acked = &op, false
		done := make(chan error, 1)
		go func() {
			_, err := c.Exec(context.Background(), op.sql).ReadAll()
			done <- err
		}()
		// Kill at a random point: at once, during the statement, or
		// after it finished.
		wait := time.Duration(rng.Intn(40000)) * time.Microsecond
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("run %d: %s: %v", i, op.sql, err)
			}
			acked = true
			time.Sleep(time.Duration(rng.Intn(2000)) * time.Microsecond)
		case <-time.After(wait):
		}
		child.kill()
		if !acked {
			if err := <-done; err == nil {
				acked = true
			}
		}
		c.Close(context.Background())
	}
	// The last statement's outcome, and the final state, are checked too.
	child := startChild(t, dir)
	defer child.kill()
	c := child.connect(t)
	defer c.Close(context.Background())
	got := observe(t, c)
	if !equalState(got, pending.after) && (acked || !equalState(got, model)) {
		t.Fatalf("final: tables are %s", describe(got))
	}
	t.Logf("%d kills: %d found the statement committed, %d found it not", runs, afterSeen, beforeSeen)
}
