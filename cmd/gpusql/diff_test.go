package main

// The differential test: the same CSV files are loaded into a real
// PostgreSQL 15 and into an in-process gpusql, every query of
// testdata/diff/*.sql runs on both, and the results must be identical:
// column names and type OIDs, command tags, row values as text (NULL is
// not ''), row order when the entry is marked "-- ordered" (otherwise rows
// compare as multisets), and the SQLSTATE of queries marked "-- error".
//
// Environment:
//
//	GPUSQL_DIFF_PG_ONLY=1  run the corpus on PostgreSQL only (to check the
//	                       corpus itself: markers, that every query runs)
//	GPUSQL_DIFF_SHOW=1     log every query's PostgreSQL result (with -v),
//	                       and gpusql's where it differs
//	GPUSQL_DIFF_LOG=1      gpusql's log to stderr
//	GPUSQL_PG_BINDIR=dir   PostgreSQL 15 binaries (default
//	                       /usr/lib/postgresql/15/bin)
//	CI=...                 missing PostgreSQL fails the test instead of
//	                       skipping it
//
// Run one query: go test ./cmd/gpusql -run 'TestDiff$/q010_name' -v

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

const diffQueryTimeout = 30 * time.Second

// diffClient is a connection that reconnects after a query broke it.
type diffClient struct {
	name    string
	connect func(context.Context) (*pgconn.PgConn, error)
	conn    *pgconn.PgConn
	// refused holds the tables (GPURefuses) that the server refused to
	// load with 0A000 (loadTables); compareCorpus leaves out the entries
	// that read them.
	refused map[string]bool
}

func (c *diffClient) run(sql string) *diffOutcome {
	ctx, cancel := context.WithTimeout(context.Background(), diffQueryTimeout)
	defer cancel()
	if c.conn == nil || c.conn.IsClosed() {
		conn, err := c.connect(ctx)
		if err != nil {
			return &diffOutcome{Err: fmt.Errorf("connecting to %s: %w", c.name, err)}
		}
		c.conn = conn
	}
	results, err := c.conn.Exec(ctx, sql).ReadAll()
	o := &diffOutcome{Results: results, Err: err}
	for _, r := range results {
		if r.Err != nil && o.Err == nil {
			o.Err = r.Err
		}
	}
	return o
}

func (c *diffClient) close() {
	if c.conn != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		c.conn.Close(ctx)
	}
}

func diffMustExec(t *testing.T, c *diffClient, sql string) {
	t.Helper()
	if o := c.run(sql); o.Err != nil {
		t.Fatalf("%s: %s: %s", c.name, diffFirstLine(sql), pgErrText(o.Err))
	}
}

func diffFirstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " ..."
	}
	return s
}

// loadPG creates and fills the tables in PostgreSQL through COPY FROM
// STDIN (the server runs as another user and does not read our files).
// It returns each table's COPY tag.
func loadPG(t *testing.T, c *diffClient, dataDir string) map[string]string {
	t.Helper()
	tags := map[string]string{}
	for _, tb := range diffTables {
		diffMustExec(t, c, fmt.Sprintf("CREATE TABLE %s (%s)", tb.Name, tb.Columns))
		f, err := os.Open(filepath.Join(dataDir, tb.File))
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		tag, err := c.conn.CopyFrom(ctx, f, fmt.Sprintf("COPY %s FROM STDIN WITH (FORMAT csv, HEADER true)", tb.Name))
		cancel()
		f.Close()
		if err != nil {
			t.Fatalf("PostgreSQL: COPY %s: %s", tb.Name, pgErrText(err))
		}
		tags[tb.Name] = tag.String()
	}
	diffMustExec(t, c, "ANALYZE")
	return tags
}

// loadGpusql loads the same files into gpusql: lineitem with CREATE TABLE
// ... FROM CSV, obs with CREATE TABLE then COPY ... FROM 'file'. A failed
// load is reported and the corpus still runs (queries on that table fail).
func loadGpusql(t *testing.T, c *diffClient, pgTags map[string]string) {
	t.Helper()
	for _, tb := range diffTables {
		var stmts []string
		if tb.ViaCopy {
			stmts = []string{
				fmt.Sprintf("CREATE TABLE %s (%s)", tb.Name, tb.Columns),
				fmt.Sprintf("COPY %s FROM '%s' WITH (FORMAT csv, HEADER true)", tb.Name, gpusqlPath(tb.File)),
			}
		} else {
			stmts = []string{fmt.Sprintf("CREATE TABLE %s (%s) FROM CSV '%s' WITH (FORMAT csv, HEADER true)",
				tb.Name, tb.Columns, gpusqlPath(tb.File))}
		}
		for _, sql := range stmts {
			o := c.run(sql)
			if o.Err != nil {
				t.Errorf("gpusql: loading %s: %s: %s", tb.Name, diffFirstLine(sql), pgErrText(o.Err))
				break
			}
			if strings.HasPrefix(sql, "COPY") {
				if got := o.Results[0].CommandTag.String(); got != pgTags[tb.Name] {
					t.Errorf("gpusql: COPY %s: command tag %q, PostgreSQL %q", tb.Name, got, pgTags[tb.Name])
				}
			}
		}
	}
}

func TestDiff(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping the differential test in -short mode")
	}
	start := time.Now()
	qs, err := loadDiffCorpus(diffCorpusDir)
	if err != nil {
		t.Fatal(err)
	}
	binDir := requirePG(t)
	pgOnly := os.Getenv("GPUSQL_DIFF_PG_ONLY") != ""
	show := os.Getenv("GPUSQL_DIFF_SHOW") != ""

	dataDir := t.TempDir()
	if err := writeDiffData(dataDir); err != nil {
		t.Fatal(err)
	}
	pg := startPG(t, binDir)
	pgc := &diffClient{name: "PostgreSQL", connect: pg.connect}
	defer pgc.close()
	tags := loadPG(t, pgc, dataDir)
	t.Logf("PostgreSQL ready and loaded in %v", time.Since(start).Round(time.Millisecond))

	var gpc *diffClient
	if !pgOnly {
		gp := startGpusql(t, dataDir)
		gpc = &diffClient{name: "gpusql", connect: gp.connect}
		defer gpc.close()
		loadStart := time.Now()
		loadGpusql(t, gpc, tags)
		t.Logf("gpusql loaded in %v", time.Since(loadStart).Round(time.Millisecond))
	}

	var failed, known []string
	for _, q := range qs {
		ok := t.Run(q.Name, func(t *testing.T) {
			if diffSetsSession(q.SQL) {
				// an entry may SET a parameter (TimeZone) for itself
				defer diffResetSession(pgc, gpc)
			}
			where := fmt.Sprintf("%s:%d", q.File, q.Line)
			pgc, gpc := pgc, gpc
			if q.Session {
				pgc = &diffClient{name: pgc.name, connect: pgc.connect}
				defer pgc.close()
				if gpc != nil {
					gpc = &diffClient{name: gpc.name, connect: gpc.connect}
					defer gpc.close()
				}
			}
			want := pgc.run(q.SQL)
			if show {
				t.Logf("%s\n%s\n%s", where, q.SQL, diffFormatOutcome(want))
			}
			// The corpus itself must be right about PostgreSQL.
			switch {
			case q.Error && want.Err == nil:
				t.Fatalf("corpus %s: marked error but PostgreSQL succeeded", where)
			case !q.Error && want.Err != nil:
				t.Fatalf("corpus %s: PostgreSQL failed: %s", where, pgErrText(want.Err))
			case q.Error && q.Code != "" && want.errCode() != q.Code:
				t.Fatalf("corpus %s: marked error %s but PostgreSQL says %s", where, q.Code, pgErrText(want.Err))
			}
			if gpc == nil {
				return
			}
			got := gpc.run(q.SQL)
			if q.Known != "" {
				if got.Err == nil || got.errCode() != q.Known {
					t.Errorf("%s: documented difference: gpusql should fail with %s, got %s\n%s", where, q.Known, diffFormatOutcome(got), q.SQL)
				}
				known = append(known, q.Name)
				return
			}
			if diffs := diffCompare(q, want, got); diffs != nil {
				t.Errorf("%s: gpusql differs from PostgreSQL\n%s\n  %s", where, q.SQL, strings.Join(diffs, "\n  "))
				if show {
					t.Logf("gpusql answered:\n%s", diffFormatOutcome(got))
				}
			}
		})
		if !ok {
			failed = append(failed, q.Name)
		}
	}
	mode := "PostgreSQL vs gpusql"
	if pgOnly {
		mode = "PostgreSQL only (GPUSQL_DIFF_PG_ONLY)"
	}
	t.Logf("differential test, %s: %d queries, %d passed, %d failed in %v",
		mode, len(qs), len(qs)-len(failed), len(failed), time.Since(start).Round(time.Millisecond))
	if len(known) > 0 {
		t.Logf("documented differences (gpusql fails as expected): %s", strings.Join(known, " "))
	}
	if len(failed) > 0 {
		sort.Strings(failed)
		t.Logf("failed: %s", strings.Join(failed, " "))
	}
}

// diffFormatOutcome renders a result for GPUSQL_DIFF_SHOW.
func diffFormatOutcome(o *diffOutcome) string {
	if o.Err != nil {
		return pgErrText(o.Err)
	}
	var b bytes.Buffer
	for _, r := range o.Results {
		b.WriteString(diffDescribeFields(r.FieldDescriptions))
		for i, row := range r.Rows {
			if i == 20 {
				fmt.Fprintf(&b, "\n  ... %d rows", len(r.Rows))
				break
			}
			b.WriteString("\n  " + diffFormatRow(row))
		}
		b.WriteString("\n  " + r.CommandTag.String())
	}
	return b.String()
}

// TestDiffVersion: version() differs from PostgreSQL's by design, so it is
// checked here instead of in the corpus.
func TestDiffVersion(t *testing.T) {
	gp := startGpusql(t, t.TempDir())
	c := &diffClient{name: "gpusql", connect: gp.connect}
	defer c.close()
	o := c.run("SELECT version()")
	if o.Err != nil {
		t.Fatalf("SELECT version(): %s", pgErrText(o.Err))
	}
	r := o.Results[0]
	if len(r.FieldDescriptions) != 1 || r.FieldDescriptions[0].Name != "version" || r.FieldDescriptions[0].DataTypeOID != 25 {
		t.Errorf("SELECT version(): columns %s, want (version text/25)", diffDescribeFields(r.FieldDescriptions))
	}
	if len(r.Rows) != 1 || len(r.Rows[0]) != 1 {
		t.Fatalf("SELECT version(): %d rows", len(r.Rows))
	}
	v := string(r.Rows[0][0])
	if !strings.HasPrefix(v, "PostgreSQL 15.") || !strings.Contains(v, "gpusql") {
		t.Errorf("version() = %q, want it to start with \"PostgreSQL 15.\" and contain \"gpusql\"", v)
	}
	if sv := c.conn.ParameterStatus("server_version"); !strings.HasPrefix(sv, "15.") {
		t.Errorf("server_version parameter = %q, want 15.x", sv)
	}
}

var diffSetRe = regexp.MustCompile(`(?i)(^|;)\s*(set|begin|start)\b`)

// diffSetsSession reports whether an entry changes its session (SET
// TimeZone ..., BEGIN): the harness resets both sessions after it.
func diffSetsSession(sql string) bool { return diffSetRe.MatchString(sql) }

// diffResetSession ends any transaction block and resets every
// parameter on both servers.
func diffResetSession(cs ...*diffClient) {
	for _, c := range cs {
		if c != nil {
			c.run("ROLLBACK; RESET ALL")
		}
	}
}
