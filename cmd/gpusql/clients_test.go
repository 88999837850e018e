package main

// Real PostgreSQL clients against gpusql (issue 4's "what must be shown"):
// psql, psycopg2, psycopg 3, pgJDBC, node-postgres, lib/pq and postgres_fdw run
// against an in-process gpusql server wired as the command wires it
// (startGpusql) and, for comparison, against a private PostgreSQL 15
// (startPGTCP) holding the same lineitem rows. Most checks run the same
// client program against both servers and want the same output.
//
// The clients are installed by .ci/run. Without one, its check fails when
// $CI is set and is skipped (saying what to install) otherwise.

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

const (
	// clientRows is the size of the lineitem table the clients see.
	clientRows = 20_000
	// clientTimeout bounds one client program's run.
	clientTimeout = 3 * time.Minute
	debianPython  = "/usr/bin/python3"
	debianJDBCJar = "/usr/share/java/postgresql.jar"
	// debianODBCDriver is psqlODBC's Unicode driver (odbc-postgresql).
	debianODBCDriver = "/usr/lib/x86_64-linux-gnu/odbc/psqlodbcw.so"
)

// clientEnv is one gpusql server and one PostgreSQL 15, both holding the
// same lineitem table.
type clientEnv struct {
	gp       *gpusqlServer
	pg       *pgServer
	fileRoot string // gpusql's file root; lineitem.csv is there
	repo     string // the repository root
}

func (e *clientEnv) gpHostPort() (string, string) { return "127.0.0.1", strconv.Itoa(e.gp.port) }
func (e *clientEnv) pgHostPort() (string, string) { return "127.0.0.1", strconv.Itoa(e.pg.port) }

// connectBoth opens a connection to each server, closed when t ends.
func (e *clientEnv) connectBoth(t testing.TB) (gc, pc *pgconn.PgConn) {
	t.Helper()
	ctx := context.Background()
	gc, err := e.gp.connect(ctx)
	if err != nil {
		t.Fatalf("gpusql: %v", err)
	}
	t.Cleanup(func() { gc.Close(ctx) })
	if pc, err = e.pg.connect(ctx); err != nil {
		t.Fatalf("postgres: %v", err)
	}
	t.Cleanup(func() { pc.Close(ctx) })
	return gc, pc
}

// libpq-style DSNs for the Python clients.
func (e *clientEnv) gpDSN() string {
	return fmt.Sprintf("host=127.0.0.1 port=%d user=postgres dbname=postgres sslmode=disable", e.gp.port)
}
func (e *clientEnv) pgDSN() string {
	return fmt.Sprintf("host=127.0.0.1 port=%d user=postgres dbname=postgres sslmode=disable", e.pg.port)
}

func newClientEnv(t *testing.T) *clientEnv {
	t.Helper()
	binDir := requirePG(t)
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	e := &clientEnv{fileRoot: t.TempDir(), repo: repo}
	csvPath := filepath.Join(e.fileRoot, "lineitem.csv")
	f, err := os.Create(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	if err := writeDemoCSV(w, clientRows, 1); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}

	e.gp = startGpusql(t, e.fileRoot)
	e.pg = startPGTCP(t, binDir)
	ctx := context.Background()
	create := "CREATE TABLE lineitem (" + clientColumnDDL() + ")"
	gc, err := e.gp.connect(ctx)
	if err != nil {
		t.Fatalf("gpusql: %v", err)
	}
	defer gc.Close(ctx)
	if _, err := gc.Exec(ctx, create+" FROM CSV "+quoteLiteral(gpusqlPath("lineitem.csv"))+" WITH (HEADER true)").ReadAll(); err != nil {
		t.Fatalf("gpusql: loading lineitem: %v", err)
	}
	pc, err := e.pg.connect(ctx)
	if err != nil {
		t.Fatalf("postgres: %v", err)
	}
	defer pc.Close(ctx)
	if _, err := pc.Exec(ctx, create).ReadAll(); err != nil {
		t.Fatalf("postgres: %v", err)
	}
	in, err := os.Open(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	if _, err := pc.CopyFrom(ctx, in, "COPY lineitem FROM STDIN WITH (FORMAT csv, HEADER true)"); err != nil {
		t.Fatalf("postgres: loading lineitem: %v", err)
	}
	if _, err := pc.Exec(ctx, "ANALYZE lineitem").ReadAll(); err != nil {
		t.Fatalf("postgres: %v", err)
	}
	return e
}

// clientColumnDDL is the demo's lineitem columns as SQL column definitions.
func clientColumnDDL() string {
	var b strings.Builder
	for i, c := range demoColumns() {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(c.Name + " " + c.Type.String())
		if c.NotNull {
			b.WriteString(" NOT NULL")
		}
	}
	return b.String()
}

// requireClient checks that a client program (or file) exists: without it
// the test fails under $CI and is skipped otherwise.
func requireClient(t testing.TB, path, install string) {
	t.Helper()
	if _, err := os.Stat(path); err == nil {
		return
	}
	if _, err := exec.LookPath(path); err == nil {
		return
	}
	msg := fmt.Sprintf("%s not found; install %s (.ci/run does)", path, install)
	if os.Getenv("CI") != "" {
		t.Fatalf("CI is set and the client is required: %s", msg)
	}
	t.Skip(msg)
}

// requirePython checks that Debian's python3 can import module.
func requirePython(t testing.TB, module, pkg string) {
	t.Helper()
	requireClient(t, debianPython, "python3")
	if out, err := exec.Command(debianPython, "-c", "import "+module).CombinedOutput(); err != nil {
		msg := fmt.Sprintf("%s cannot import %s (%v: %s); install %s (.ci/run does)", debianPython, module, err,
			strings.TrimSpace(string(out)), pkg)
		if os.Getenv("CI") != "" {
			t.Fatalf("CI is set and the client is required: %s", msg)
		}
		t.Skip(msg)
	}
}

// runClient runs a client program and returns its stdout; a non-zero exit
// fails the test with its output.
func runClient(t testing.TB, env []string, name string, args ...string) string {
	t.Helper()
	out, stderr, err := runClientErr(t, env, name, args...)
	if err != nil {
		t.Fatalf("%s %s: %v\nstdout:\n%s\nstderr:\n%s", name, strings.Join(args, " "), err, out, stderr)
	}
	return out
}

func runClientErr(t testing.TB, env []string, name string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), clientTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = append(append(os.Environ(), "PGCONNECT_TIMEOUT=10", "TZ=UTC", "PGTZ=UTC", "LC_ALL=C.UTF-8"), env...)
	cmd.Stdin = nil
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	return o.String(), e.String(), err
}

// sameOutput fails unless the client printed the same against both
// servers, showing the first differing lines.
func sameOutput(t testing.TB, what, gp, pg string) {
	t.Helper()
	if gp == pg {
		return
	}
	t.Errorf("%s: gpusql's output differs from PostgreSQL's\n%s", what, lineDiff(gp, pg))
}

// lineDiff lists the lines that differ (by position), at most 40.
func lineDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	var b strings.Builder
	n := 0
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl == wl {
			continue
		}
		fmt.Fprintf(&b, "line %d\n  gpusql:   %q\n  postgres: %q\n", i+1, gl, wl)
		if n++; n == 40 {
			b.WriteString("  ...\n")
			break
		}
	}
	return b.String()
}

// subtest runs f as subtest name.
func subtest(t *testing.T, name string, f func(t testing.TB)) {
	t.Helper()
	t.Run(name, func(t *testing.T) { f(t) })
}

// TestClients runs each real client against gpusql and PostgreSQL 15.
func TestClients(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the client tests start PostgreSQL and run external clients")
	}
	e := newClientEnv(t)
	t.Run("psql", func(t *testing.T) { testClientPsql(t, e) })
	t.Run("psycopg2", func(t *testing.T) { testClientPsycopg(t, e, "psycopg2", "psycopg2", "python3-psycopg2") })
	t.Run("psycopg3", func(t *testing.T) { testClientPsycopg(t, e, "psycopg3", "psycopg", "python3-psycopg") })
	t.Run("jdbc", func(t *testing.T) { testClientJDBC(t, e) })
	t.Run("node", func(t *testing.T) { testClientNode(t, e) })
	t.Run("postgres.js", func(t *testing.T) { testClientPostgresJS(t, e) })
	t.Run("lib/pq", func(t *testing.T) { testClientLibPQ(t, e) })
	t.Run("odbc", func(t *testing.T) { testClientODBC(t, e) })
	t.Run("pgbench", func(t *testing.T) { testClientPgbench(t, e) })
	// Before postgres_fdw, whose foreign tables and schemas would show
	// in PostgreSQL's catalog only.
	t.Run("introspection", func(t *testing.T) { testIntrospection(t, e) })
	t.Run("postgres_fdw", func(t *testing.T) { testClientFDW(t, e) })
	// Last: it leaves a temporary schema in PostgreSQL's catalog.
	t.Run("psql_views", func(t *testing.T) { testClientPsqlViews(t, e) })
}

func testClientPsycopg(t *testing.T, e *clientEnv, driver, module, pkg string) {
	requirePython(t, module, pkg)
	script := filepath.Join(e.repo, "testdata", "clients", "python", "psycopg_client.py")
	for _, part := range []string{"params", "cursor", "copy", "copy_binary", "extras", "pipeline"} {
		subtest(t, part, func(t testing.TB) {
			gp := runClient(t, nil, debianPython, script, driver, e.gpDSN(), part)
			pg := runClient(t, nil, debianPython, script, driver, e.pgDSN(), part)
			sameOutput(t, driver+" "+part, gp, pg)
			t.Logf("%s %s against gpusql:\n%s", driver, part, firstLines(gp, 30))
		})
	}
}

// testClientODBC runs psqlODBC through pyodbc (odbc_client.py) against
// both servers.
func testClientODBC(t *testing.T, e *clientEnv) {
	requirePython(t, "pyodbc", "python3-pyodbc")
	requireClient(t, debianODBCDriver, "odbc-postgresql and unixodbc")
	script := filepath.Join(e.repo, "testdata", "clients", "python", "odbc_client.py")
	for _, part := range []string{"catalog", "escapes", "fetch"} {
		subtest(t, part, func(t testing.TB) {
			gp := runClient(t, nil, debianPython, script, debianODBCDriver, strconv.Itoa(e.gp.port), part)
			pg := runClient(t, nil, debianPython, script, debianODBCDriver, strconv.Itoa(e.pg.port), part)
			sameOutput(t, "psqlODBC "+part, gp, pg)
			t.Logf("psqlODBC %s against gpusql:\n%s", part, firstLines(gp, 30))
		})
	}
}

func testClientJDBC(t *testing.T, e *clientEnv) {
	requireClient(t, "java", "default-jdk-headless")
	requireClient(t, debianJDBCJar, "libpostgresql-jdbc-java")
	run := func(t testing.TB, class string, args ...string) (gp, pg string) {
		src := filepath.Join(e.repo, "testdata", "clients", "java", class+".java")
		url := func(port int) string {
			return fmt.Sprintf("jdbc:postgresql://127.0.0.1:%d/postgres?user=postgres&sslmode=disable", port)
		}
		gp = runClient(t, nil, "java", append([]string{"-cp", debianJDBCJar, src, url(e.gp.port)}, args...)...)
		pg = runClient(t, nil, "java", append([]string{"-cp", debianJDBCJar, src, url(e.pg.port)}, args...)...)
		return gp, pg
	}
	subtest(t, "DatabaseMetaData_keys", func(t testing.TB) {
		gp, pg := run(t, "MetadataTest", "keys")
		compareSections(t, gp, pg, jdbcSubsetSections)
		t.Logf("against gpusql:\n%s", firstLines(gp, 40))
	})
	for _, c := range []struct{ name, class, mode string }{
		{"PreparedStatement", "PreparedTest", "basic"},
		{"PreparedStatement_dates", "PreparedTest", "dates"},
		{"DatabaseMetaData", "MetadataTest", ""},
	} {
		subtest(t, c.name, func(t testing.TB) {
			gp, pg := run(t, c.class, c.mode)
			sameOutput(t, c.name, gp, pg)
			t.Logf("against gpusql:\n%s", firstLines(gp, 40))
		})
	}
}

// jdbcSubsetSections are the results of MetadataTest's keys mode where
// gpusql may list fewer rows than PostgreSQL, each with the reason; the
// rows it lists must be PostgreSQL's, and the engine's types must all be
// there.
var jdbcSubsetSections = map[string]string{
	// pg_type holds the types gpusql has (the engine's, the catalogs'
	// and their arrays), not PostgreSQL's geometric, network, range,
	// text-search or bit-string types.
	"getTypeInfo": "gpusql's pg_type lists only the types gpusql has",
	// PostgreSQL also has upper(anyrange) and upper(anymultirange).
	"getFunctions upper": "gpusql has no range types",
}

// engineTypeNames are the types every type listing must show.
var engineTypeNames = []string{"bool", "int2", "int4", "int8", "float4", "float8", "numeric", "date", "time",
	"timestamp", "timestamptz", "interval", "bpchar", "varchar", "text"}

// compareSections compares client output made of "== name" sections
// (a header line, then one line per row): the same sections in the same
// order, each with the same lines, except that in the sections of subset
// gpusql's rows need only be a subset of PostgreSQL's. A section whose
// name line reports an ERROR fails (PostgreSQL gave none).
func compareSections(t testing.TB, gp, pg string, subset map[string]string) {
	t.Helper()
	type section struct {
		name string
		rows []string
	}
	split := func(s string) []section {
		var out []section
		for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
			if name, ok := strings.CutPrefix(l, "== "); ok {
				out = append(out, section{name: name})
				continue
			}
			if len(out) == 0 {
				out = append(out, section{})
			}
			out[len(out)-1].rows = append(out[len(out)-1].rows, l)
		}
		return out
	}
	g, p := split(gp), split(pg)
	if len(g) != len(p) {
		t.Fatalf("gpusql printed %d sections, PostgreSQL %d\n%s", len(g), len(p), lineDiff(gp, pg))
	}
	for i := range g {
		if g[i].name != p[i].name {
			t.Errorf("section %d: gpusql %q, PostgreSQL %q", i, g[i].name, p[i].name)
			continue
		}
		why, sub := subset[g[i].name]
		if !sub {
			sameOutput(t, g[i].name, strings.Join(g[i].rows, "\n"), strings.Join(p[i].rows, "\n"))
			continue
		}
		if len(g[i].rows) == 0 || len(p[i].rows) == 0 || g[i].rows[0] != p[i].rows[0] {
			t.Errorf("%s: column labels differ\n%s", g[i].name, lineDiff(strings.Join(g[i].rows, "\n"), strings.Join(p[i].rows, "\n")))
			continue
		}
		pgRows := map[string]bool{}
		for _, r := range p[i].rows[1:] {
			pgRows[r] = true
		}
		names := map[string]bool{}
		for _, r := range g[i].rows[1:] {
			if !pgRows[r] {
				t.Errorf("%s: gpusql's row is not among PostgreSQL's (%s):\n  %s", g[i].name, why, r)
			}
			name, _, _ := strings.Cut(r, " | ")
			names[name] = true
		}
		if len(g[i].rows) < 2 {
			t.Errorf("%s: gpusql gave no rows", g[i].name)
		}
		if g[i].name == "getTypeInfo" {
			for _, n := range engineTypeNames {
				if !names[n] {
					t.Errorf("getTypeInfo: no row for the engine's type %s", n)
				}
			}
		}
	}
}

func testClientNode(t *testing.T, e *clientEnv) {
	requireClient(t, "node", "nodejs")
	dir := filepath.Join(e.repo, "testdata", "clients", "node")
	requireClient(t, filepath.Join(dir, "node_modules", "pg", "package.json"),
		"node-postgres with `npm ci` in testdata/clients/node (scripts/clients/npm-install.sh")
	script := filepath.Join(dir, "params.js")
	h, p := e.gpHostPort()
	gp := runClient(t, nil, "node", script, h, p)
	h, p = e.pgHostPort()
	pg := runClient(t, nil, "node", script, h, p)
	sameOutput(t, "node-postgres", gp, pg)
	t.Logf("against gpusql:\n%s", firstLines(gp, 30))
}

// testClientPostgresJS runs postgres.js (postgres_js.js) against both
// servers. The program gives every call a deadline and exits non-zero
// when one passes, so a hang fails the test instead of stalling it.
func testClientPostgresJS(t *testing.T, e *clientEnv) {
	requireClient(t, "node", "nodejs")
	dir := filepath.Join(e.repo, "testdata", "clients", "node")
	requireClient(t, filepath.Join(dir, "node_modules", "postgres", "package.json"),
		"postgres.js with `npm ci` in testdata/clients/node (scripts/clients/npm-install.sh)")
	script := filepath.Join(dir, "postgres_js.js")
	h, p := e.gpHostPort()
	gp := runClient(t, nil, "node", script, h, p)
	h, p = e.pgHostPort()
	pg := runClient(t, nil, "node", script, h, p)
	sameOutput(t, "postgres.js", gp, pg)
	t.Logf("against gpusql:\n%s", firstLines(gp, 30))
}

// pgbenchClients and pgbenchTransactions size TestClients/pgbench: 64
// connections at once, each running the script this many times.
const (
	pgbenchClients      = 64
	pgbenchTransactions = 8
)

// testClientPgbench runs pgbench with 64 clients in each query mode
// against gpusql over a read-only script: every transaction must be
// processed and none may fail. Only counts are checked, never timings.
func testClientPgbench(t *testing.T, e *clientEnv) {
	pgbench := filepath.Join(requirePG(t), "pgbench")
	requireClient(t, pgbench, "postgresql-15")
	script := filepath.Join(e.repo, "testdata", "clients", "pgbench", "readonly.sql")
	h, p := e.gpHostPort()
	for _, mode := range []string{"simple", "extended", "prepared"} {
		subtest(t, mode, func(t testing.TB) {
			out := runClient(t, []string{"PGUSER=postgres", "PGDATABASE=postgres"}, pgbench, "-h", h, "-p", p, "-n",
				"-f", script, "-M", mode, "-c", strconv.Itoa(pgbenchClients), "-j", "4",
				"-t", strconv.Itoa(pgbenchTransactions))
			want := pgbenchClients * pgbenchTransactions
			if !strings.Contains(out, fmt.Sprintf("number of transactions actually processed: %d/%d\n", want, want)) {
				t.Errorf("pgbench -M %s: not every transaction was processed:\n%s", mode, out)
			}
			if !strings.Contains(out, "number of failed transactions: 0 (0.000%)") {
				t.Errorf("pgbench -M %s: failed transactions:\n%s", mode, out)
			}
			if !strings.Contains(out, "query mode: "+mode) || !strings.Contains(out, fmt.Sprintf("number of clients: %d\n", pgbenchClients)) {
				t.Errorf("pgbench -M %s: unexpected report:\n%s", mode, out)
			}
		})
	}
}

func firstLines(s string, n int) string {
	lines := strings.SplitAfter(s, "\n")
	if len(lines) <= n {
		return s
	}
	return strings.Join(lines[:n], "") + fmt.Sprintf("... (%d more lines)\n", len(lines)-n)
}

// pgExec runs sql on c and returns its rows as text (NULL as "NULL"),
// one line per row, columns separated by " | ".
func pgExec(ctx context.Context, c *pgconn.PgConn, sql string) (string, error) {
	res, err := c.Exec(ctx, sql).ReadAll()
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, r := range res {
		for _, row := range r.Rows {
			for i, v := range row {
				if i > 0 {
					b.WriteString(" | ")
				}
				if v == nil {
					b.WriteString("NULL")
				} else {
					b.Write(v)
				}
			}
			b.WriteByte('\n')
		}
	}
	return b.String(), nil
}
