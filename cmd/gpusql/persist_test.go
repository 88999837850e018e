package main

// Tables that survive a restart (package persist), through the command's
// own wiring: a server on a data directory is stopped and started again,
// and every answer must be the same.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/persist"
	"github.com/gpusql/gpusql/wire"
	"github.com/jackc/pgx/v5/pgconn"
)

// persistServer is a server started from flags on a data directory, which
// a test stops and starts again.
type persistServer struct {
	srv  *wire.Server
	eng  engine.Server
	done chan error
	port int
}

// startPersist starts a server on dataDir with args (after the data
// directory, a free loopback port and the CPU backend), logging to logw
// (nil: nowhere).
func startPersist(t *testing.T, dataDir string, logw io.Writer, args ...string) *persistServer {
	t.Helper()
	o, err := parseFlags(append([]string{"--data-dir", dataDir, "--listen", "127.0.0.1:0", "--device", "cpu"}, args...), io.Discard)
	if err != nil {
		t.Fatalf("flags %q: %v", args, err)
	}
	if logw == nil {
		logw = io.Discard
	}
	logger := slog.New(slog.NewTextHandler(logw, nil))
	roles, err := openRoles(o)
	if err != nil {
		t.Fatal(err)
	}
	eng, _, err := newEngine(o, logger, roles)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", o.listen)
	if err != nil {
		t.Fatal(err)
	}
	s := &persistServer{srv: wire.NewServer(wireConfig(o, logger, roles), eng), eng: eng, done: make(chan error, 1),
		port: ln.Addr().(*net.TCPAddr).Port}
	go func() { s.done <- s.srv.Serve(context.Background(), ln) }()
	t.Cleanup(s.stop)
	return s
}

func (s *persistServer) stop() {
	if s.srv == nil {
		return
	}
	s.srv.Close()
	<-s.done
	releaseDataDir(s.eng)
	s.srv = nil
}

func (s *persistServer) connect(t *testing.T) *pgconn.PgConn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := pgconn.Connect(ctx, "host=127.0.0.1 port="+strconv.Itoa(s.port)+" user=gpusql dbname=gpusql sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

// allTypesCSV has a row of every kind of value and rows of NULLs.
const allTypesCSV = `b,i2,i4,i8,f4,f8,n,d,ts,tz,tm,c,v,tx
true,1,10,100,1.5,2.25,123.456,2024-02-29,2024-02-29 12:34:56.789,2024-02-29 12:34:56+02,12:34:56.5,ab,hello,"a ""quoted"", text"
false,-32768,-2147483648,-9223372036854775808,-0.125,-1e300,-99999999.999,1970-01-01,1970-01-01 00:00:00,1999-12-31 23:59:59.999999+00,00:00:00,abcde,"",é ü 漢字
,,,,,,,,,,,,,
true,32767,2147483647,9223372036854775807,3.4e38,1.7976931348623157e308,0.001,0001-01-01,9999-12-31 23:59:59,2000-01-01 00:00:00+14,24:00:00,x,0123456789,
`

// persistQueries are the answers a restart must keep.
var persistQueries = []string{
	`SELECT * FROM all_types ORDER BY i8 NULLS FIRST, i4`,
	`SELECT * FROM wide ORDER BY 1 NULLS FIRST, 2`,
	`SELECT * FROM renamed ORDER BY 1 NULLS FIRST`,
	`SELECT count(*) FROM truncated`,
	`SELECT * FROM never_loaded`,
	`SELECT * FROM v_all ORDER BY 1 NULLS FIRST`,
	`SELECT * FROM v_on_v ORDER BY 1 NULLS FIRST`,
	`SELECT relname, relkind FROM pg_class WHERE relnamespace = 'public'::regnamespace ORDER BY 1`,
	`SELECT 'all_types'::regclass::oid - 'renamed'::regclass::oid, 'v_on_v'::regclass::oid - 'v_all'::regclass::oid`,
	`SELECT table_name, column_name, data_type, numeric_precision, numeric_scale, character_maximum_length
	   FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`,
}

func answers(t *testing.T, c *pgconn.PgConn, extra ...string) []string {
	t.Helper()
	return answersOf(t, c, append(persistQueries, extra...))
}

func answersOf(t *testing.T, c *pgconn.PgConn, queries []string) []string {
	t.Helper()
	var out []string
	for _, q := range queries {
		a, err := pgExec(context.Background(), c, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		out = append(out, q+"\n"+a)
	}
	return out
}

func sameAnswers(t *testing.T, what string, got, want []string) {
	t.Helper()
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%s: answers differ\n--- before\n%s\n--- after\n%s", what, want[i], got[i])
		}
	}
}

// persistSetup makes tables of every kind in every way a table is made.
var persistSetup = []string{
	`CREATE TABLE all_types (b boolean, i2 smallint, i4 integer, i8 bigint, f4 real, f8 double precision,
		   n numeric(11,3), d date, ts timestamp, tz timestamptz, tm time, c char(5), v varchar(10), tx text)
		   FROM CSV 'all.csv' WITH (FORMAT csv, HEADER true)`,
	`INSERT INTO all_types (i8, tx) VALUES (5, NULL), (6, 'six')`,
	`COPY all_types FROM 'all.csv' WITH (FORMAT csv, HEADER true)`,
	// an unconstrained numeric result beyond 18 digits
	`CREATE TABLE wide AS SELECT i8, n * 1000000000000::numeric * 1000000000000::numeric / 7 AS q, tx FROM all_types`,
	`CREATE TABLE to_rename AS SELECT tx, c, d FROM all_types WHERE b`,
	`ALTER TABLE to_rename RENAME TO renamed`,
	`CREATE TABLE truncated AS SELECT * FROM all_types`,
	`TRUNCATE truncated`,
	`CREATE TABLE never_loaded (a integer, b text)`,
	`CREATE TABLE dropped AS SELECT 1 AS a`,
	`DROP TABLE dropped`,
	`CREATE VIEW v_all AS SELECT i8, tx FROM all_types WHERE i4 IS NOT NULL`,
	`CREATE VIEW v_on_v AS SELECT tx, count(*) AS n FROM v_all GROUP BY tx`,
	`CREATE TEMP TABLE temp_gone AS SELECT 1 AS a`,
	// a block's view DDL, rolled back
	`BEGIN; DROP VIEW v_on_v; CREATE VIEW v_rolled_back AS SELECT 1 AS x; ALTER TABLE never_loaded RENAME TO nl; ROLLBACK`,
}

// TestPersistRestart: tables of every column type with NULLs, made by a
// load, CREATE TABLE AS, INSERT, COPY, TRUNCATE, RENAME and views, come
// back after a restart with the same answers, on one part and split
// into several (engine/multi), and keep taking writes.
func TestPersistRestart(t *testing.T) {
	for _, parts := range []int{1, 3} {
		t.Run(fmt.Sprintf("partitions=%d", parts), func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "all.csv"), []byte(allTypesCSV), 0o644); err != nil {
				t.Fatal(err)
			}
			args := []string{"--partitions", strconv.Itoa(parts), "--split-min-bytes", "64"}
			s := startPersist(t, dir, nil, args...)
			c := s.connect(t)
			for _, q := range persistSetup {
				sq(t, c, q)
			}
			before := answers(t, c)
			s.stop()

			s = startPersist(t, dir, nil, args...)
			c = s.connect(t)
			sameAnswers(t, "first restart", answers(t, c), before)
			if _, err := pgExec(context.Background(), c, "SELECT * FROM temp_gone"); err == nil {
				t.Error("a temporary table came back")
			}
			if _, err := pgExec(context.Background(), c, "SELECT * FROM dropped"); err == nil {
				t.Error("a dropped table came back")
			}
			sq(t, c, `INSERT INTO renamed SELECT tx, c, d FROM all_types WHERE NOT b`)
			sq(t, c, `CREATE TABLE later AS SELECT * FROM v_on_v`)
			extra := []string{`SELECT * FROM later ORDER BY 1 NULLS FIRST`, `SELECT 'later'::regclass::oid > 'v_on_v'::regclass::oid`}
			before = answers(t, c, extra...)
			s.stop()

			s = startPersist(t, dir, nil, args...)
			c = s.connect(t)
			sameAnswers(t, "second restart", answers(t, c, extra...), before)
			s.stop()
			// Exactly the committed tables' files are left.
			m := readManifest(t, dir)
			files := map[string]bool{}
			for _, tb := range m.Tables {
				if tb.File != "" {
					files[tb.File] = true
				}
			}
			ents, _ := os.ReadDir(filepath.Join(dir, persist.SubDir))
			for _, e := range ents {
				if e.Name() != persist.ManifestName && e.Name() != persist.LockName && !files[e.Name()] {
					t.Errorf("stray file %s in the data directory", e.Name())
				}
			}
			// --persist=false: in memory only, and the directory is
			// left alone.
			mb, _ := os.ReadFile(filepath.Join(dir, persist.SubDir, persist.ManifestName))
			s = startPersist(t, dir, nil, append(args, "--persist=false")...)
			c = s.connect(t)
			_, err := pgExec(context.Background(), c, `SELECT * FROM all_types`)
			wantCode(t, err, "42P01", "")
			sq(t, c, `CREATE TABLE scratch AS SELECT 1 AS a`)
			s.stop()
			if mb2, _ := os.ReadFile(filepath.Join(dir, persist.SubDir, persist.ManifestName)); !bytes.Equal(mb, mb2) {
				t.Error("--persist=false changed the manifest")
			}
		})
	}
}

// manifestView is what the tests read of catalog.json.
type manifestView struct {
	Tables []struct {
		Name string `json:"name"`
		File string `json:"file"`
	} `json:"tables"`
}

func readManifest(t *testing.T, dir string) manifestView {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, persist.SubDir, persist.ManifestName))
	if err != nil {
		t.Fatal(err)
	}
	body := b[:bytes.LastIndex(bytes.TrimSuffix(b, []byte("\n")), []byte("\n"))+1]
	var m manifestView
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// syncBuffer is a log destination read while the server writes to it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestPersistCorruptFile: a table file with a flipped byte, and one cut
// short, are reported by name at startup and their tables left out; the
// other tables and a view on them are served, and the server goes on
// taking writes. A corrupt manifest starts an empty catalog and keeps
// the table files.
func TestPersistCorruptFile(t *testing.T) {
	dir := t.TempDir()
	var csv strings.Builder
	for i := 1; i <= 1000; i++ {
		fmt.Fprintf(&csv, "%d\n", i)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.csv"), []byte(csv.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	s := startPersist(t, dir, nil)
	c := s.connect(t)
	for _, q := range []string{
		`CREATE TABLE good (a bigint) FROM CSV 'a.csv'`,
		`CREATE TABLE flipped AS SELECT a, a::text AS b FROM good`,
		`CREATE TABLE cut AS SELECT a * 2 AS a FROM good`,
		`CREATE VIEW v_good AS SELECT sum(a) AS s FROM good`,
		`CREATE VIEW v_cut AS SELECT sum(a) AS s FROM cut`,
	} {
		sq(t, c, q)
	}
	s.stop()
	files := map[string]string{}
	for _, tb := range readManifest(t, dir).Tables {
		files[tb.Name] = filepath.Join(dir, persist.SubDir, tb.File)
	}
	b, err := os.ReadFile(files["flipped"])
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 0x10
	if err := os.WriteFile(files["flipped"], b, 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(files["cut"])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(files["cut"], st.Size()-100); err != nil {
		t.Fatal(err)
	}

	var log syncBuffer
	s = startPersist(t, dir, &log)
	c = s.connect(t)
	for _, f := range []string{files["flipped"], files["cut"]} {
		if !strings.Contains(log.String(), f) {
			t.Errorf("the log does not name %s:\n%s", f, log.String())
		}
	}
	if got := sq(t, c, `SELECT count(*), sum(a) FROM good`); got != "1000 | 500500\n" {
		t.Errorf("good: %q", got)
	}
	if got := sq(t, c, `SELECT s FROM v_good`); got != "500500\n" {
		t.Errorf("v_good: %q", got)
	}
	for _, q := range []string{`SELECT * FROM flipped`, `SELECT * FROM cut`, `SELECT * FROM v_cut`} {
		_, err := pgExec(context.Background(), c, q)
		wantCode(t, err, "42P01", "")
	}
	sq(t, c, `CREATE TABLE flipped AS SELECT 7 AS x`)
	s.stop()
	if _, err := os.Stat(files["flipped"] + ".corrupt"); err != nil {
		t.Errorf("the corrupt file was not kept aside: %v", err)
	}

	// A corrupt manifest: an empty catalog, and the files stay.
	mf := filepath.Join(dir, persist.SubDir, persist.ManifestName)
	mb, err := os.ReadFile(mf)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(mf, bytes.Replace(mb, []byte(`"good"`), []byte(`"gooe"`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	log = syncBuffer{}
	s = startPersist(t, dir, &log)
	c = s.connect(t)
	if !strings.Contains(log.String(), mf) {
		t.Errorf("the log does not name %s:\n%s", mf, log.String())
	}
	_, err = pgExec(context.Background(), c, `SELECT * FROM good`)
	wantCode(t, err, "42P01", "")
	if _, err := os.Stat(files["good"]); err != nil {
		t.Errorf("a table file was removed after its manifest was found corrupt: %v", err)
	}
}

// TestPersistWriteFails: when the data directory cannot be written, a
// statement that changes the catalog fails with 58030 and changes
// nothing, in memory or on disk; once it can be written again, so can
// the catalog.
func TestPersistWriteFails(t *testing.T) {
	dir := t.TempDir()
	s := startPersist(t, dir, nil)
	c := s.connect(t)
	sq(t, c, `CREATE TABLE keep AS SELECT 1 AS a`)
	sq(t, c, `CREATE VIEW v AS SELECT a FROM keep`)
	cat := filepath.Join(dir, persist.SubDir)
	aside := cat + ".aside"
	if err := os.Rename(cat, aside); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`CREATE TABLE lost AS SELECT 2 AS a`,
		`CREATE TABLE lost (a int)`,
		`INSERT INTO keep VALUES (3)`,
		`TRUNCATE keep`,
		`DROP VIEW v`,
		`DROP TABLE keep CASCADE`,
		`ALTER TABLE keep RENAME TO kept`,
		`CREATE VIEW w AS SELECT 1 AS x`,
		`BEGIN; INSERT INTO keep VALUES (4); COMMIT`,
	} {
		_, err := pgExec(context.Background(), c, q)
		wantCode(t, err, "58030", "data directory")
		_, _ = pgExec(context.Background(), c, "ROLLBACK")
	}
	const want = "1\n"
	if got := sq(t, c, `SELECT a FROM keep`); got != want {
		t.Errorf("keep: %q", got)
	}
	if got := sq(t, c, `SELECT a FROM v`); got != want {
		t.Errorf("v: %q", got)
	}
	for _, q := range []string{`SELECT * FROM lost`, `SELECT * FROM kept`, `SELECT * FROM w`} {
		_, err := pgExec(context.Background(), c, q)
		wantCode(t, err, "42P01", "")
	}
	if err := os.Rename(aside, cat); err != nil {
		t.Fatal(err)
	}
	sq(t, c, `INSERT INTO keep VALUES (5)`)
	s.stop()
	s = startPersist(t, dir, nil)
	c = s.connect(t)
	if got := sq(t, c, `SELECT a FROM v ORDER BY a`); got != "1\n5\n" {
		t.Errorf("after the restart: %q", got)
	}
}

// TestPersistRestartCUDA is TestPersistRestart on the GPU: tables come
// back onto the device (one part, and split in two), answer as before,
// and a CPU server reads the same data directory with the same answers.
// It runs on a machine with a GPU (GPUSQL_TEST_DEVICE=cuda).
func TestPersistRestartCUDA(t *testing.T) {
	requireGPU(t)
	for _, parts := range []int{1, 2} {
		t.Run(fmt.Sprintf("partitions=%d", parts), func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "all.csv"), []byte(allTypesCSV), 0o644); err != nil {
				t.Fatal(err)
			}
			args := []string{"--device", "cuda", "--partitions", strconv.Itoa(parts), "--split-min-bytes", "64"}
			s := startPersist(t, dir, nil, args...)
			c := s.connect(t)
			// The GPU stores numerics as 64-bit integers: no table of
			// wide ones.
			without := func(qs []string) (out []string) {
				for _, q := range qs {
					if !strings.Contains(q, "wide") {
						out = append(out, q)
					}
				}
				return out
			}
			queries := without(persistQueries)
			for _, q := range without(persistSetup) {
				sq(t, c, q)
			}
			placement := `SELECT table_name, placement FROM gpusql_tables ORDER BY 1`
			before := answersOf(t, c, queries)
			where := sq(t, c, placement)
			const tableRows = `SELECT table_name, rows FROM gpusql_tables ORDER BY 1`
			rowsBefore := sq(t, c, tableRows)
			s.stop()

			var log syncBuffer
			s = startPersist(t, dir, &log, args...)
			c = s.connect(t)
			sameAnswers(t, "restart on the GPU", answersOf(t, c, queries), before)
			// Every row is back; a split table's rows now sit where the
			// backend's Store puts them.
			t.Logf("placement before the restart:\n%safter:\n%s\nlog:\n%s", where, sq(t, c, placement), log.String())
			if got := sq(t, c, tableRows); got != rowsBefore {
				t.Errorf("gpusql_tables rows after the restart:\n%s\nbefore:\n%s", got, rowsBefore)
			}
			s.stop()

			s = startPersist(t, dir, nil)
			c = s.connect(t)
			sameAnswers(t, "the GPU's files on the CPU", answersOf(t, c, queries), before)
		})
	}
}
