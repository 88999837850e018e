package main

// The captured client statements of testdata/introspection replayed
// against gpusql and PostgreSQL 15 (same lineitem table): each statement
// must run on gpusql, and give PostgreSQL's rows unless
// introspectionDiffers says why they may differ.

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

// captureOID is the OID PostgreSQL gave lineitem when the statements were
// captured; it appears in some of them.
const captureOID = "16384"

// introspectionDiffers lists "file:statement" whose rows may differ from
// PostgreSQL's, and why; they must still run.
var introspectionDiffers = map[string]string{
	"sqlalchemy_connect.sql:5": "version() names gpusql",
	"sqlalchemy_tables.sql:5":  "version() names gpusql",
	"sqlalchemy_columns.sql:5": "version() names gpusql",
	"grafana_connect.sql:1":    "server_version_num",
	"psql_l.sql:1":             "PostgreSQL also has template0 and template1",
	"jdbc_getschemas.sql:1":    "PostgreSQL has pg_toast",
	"metabase_tables.sql:2":    "estimated_row_count is PostgreSQL's statistics",
	"metabase_connect.sql:2":   "the session time zone",
	"dbeaver_connect.sql:2":    "datfrozenxid is PostgreSQL's transaction counter",
	"dbeaver_connect.sql:6":    "pg_settings' category and descriptions are PostgreSQL's",
	"dbeaver_connect.sql:7":    "version() names gpusql",
	"dbeaver_connect.sql:10":   "pg_type lists the types gpusql has, not all of PostgreSQL's, and typdefaultbin (a pg_node_tree) as NULL",
	"dbeaver_tables.sql:2":     "every public table's columns: the other client tests' tables have other OIDs in each server, and rows of one attnum come in no set order (dbeaver_columns.sql:1 compares lineitem's)",
	"datagrip_connect.sql:1":   "version() names gpusql",
	"dbeaver_tables.sql:1":     "relpages, relfrozenxid and relminmxid are PostgreSQL's storage and transaction state; gpusql gives tables no row type (reltype 0)",
}

// introspectionSubset lists "file:statement" whose rows must all be
// PostgreSQL's rows (in any order), but may be fewer, and why; a row equal
// to gpusql's version() is let through too. The rows of must have to be
// there (the drivers' type loading: a base type, an array of it known by
// its array_recv, a domain over it).
var introspectionSubset = map[string]struct {
	why  string
	must []string
}{
	"npgsql_connect.sql:1": {"pg_type lists the types gpusql has, not all of PostgreSQL's; version() names gpusql", []string{
		"pg_catalog | 23 | int4 | b | f | NULL", "pg_catalog | 1007 | _int4 | a | f | 23",
		"pg_catalog | 2249 | record | p | f | NULL", "information_schema | 13221 | cardinal_number | d | f | 23"}},
	"powerbi_connect.sql:1": {"pg_type lists the types gpusql has, not all of PostgreSQL's", []string{
		"pg_catalog | int4 | 23 | 0 | 0 | b | 0 | 0", "pg_catalog | _int4 | 1007 | 0 | 0 | a | 23 | 3",
		"information_schema | cardinal_number | 13221 | 0 | 23 | d | 0 | 1"}},
}

type capturedStmt struct {
	n      int
	sql    string
	params [][]byte
}

var (
	stmtHeader = regexp.MustCompile(`(?m)^-- statement (\d+) .*\n`)
	paramRE    = regexp.MustCompile(`\$\d+ = (NULL|'((?:[^']|'')*)')`)
)

// parseCaptured splits a testdata/introspection file into statements.
func parseCaptured(text string) []capturedStmt {
	locs := stmtHeader.FindAllStringSubmatchIndex(text, -1)
	var out []capturedStmt
	for i, l := range locs {
		end := len(text)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		body := text[l[1]:end]
		st := capturedStmt{}
		st.n, _ = strconv.Atoi(text[l[2]:l[3]])
		if strings.HasPrefix(body, "-- parameters: ") {
			nl := strings.IndexByte(body, '\n')
			for _, m := range paramRE.FindAllStringSubmatch(body[:nl], -1) {
				if m[1] == "NULL" {
					st.params = append(st.params, nil)
				} else {
					st.params = append(st.params, []byte(strings.ReplaceAll(m[2], "''", "'")))
				}
			}
			body = body[nl+1:]
		}
		body = strings.TrimRight(body, " \n")
		st.sql = strings.TrimSuffix(body, ";")
		out = append(out, st)
	}
	return out
}

// runCaptured runs one statement and returns its result as text (rows or
// COPY data), with oid (the server's OID of lineitem) written as
// <lineitem>.
func runCaptured(ctx context.Context, c *pgconn.PgConn, st capturedStmt, oid string) (string, error) {
	sql := strings.ReplaceAll(st.sql, captureOID, oid)
	upper := strings.ToUpper(strings.TrimSpace(sql))
	if strings.HasPrefix(upper, "COPY") && strings.Contains(upper, "TO STDOUT") {
		var b bytes.Buffer
		if _, err := c.CopyTo(ctx, &b, sql); err != nil {
			return "", err
		}
		// Without ORDER BY, rows come in scan order: compare them sorted.
		lines := strings.SplitAfter(b.String(), "\n")
		sort.Strings(lines)
		return strings.Join(lines, ""), nil
	}
	var b strings.Builder
	var rows [][][]byte
	if st.params != nil {
		r := c.ExecParams(ctx, sql, st.params, nil, nil, nil).Read()
		if r.Err != nil {
			return "", r.Err
		}
		rows = r.Rows
	} else {
		res, err := c.Exec(ctx, sql).ReadAll()
		if err != nil {
			return "", err
		}
		for _, r := range res {
			rows = append(rows, r.Rows...)
		}
	}
	// Without ORDER BY, the row order is the server's: compare sorted.
	if !strings.Contains(upper, "ORDER BY") {
		sort.Slice(rows, func(i, j int) bool {
			return bytes.Compare(bytes.Join(rows[i], []byte{0}), bytes.Join(rows[j], []byte{0})) < 0
		})
	}
	for _, row := range rows {
		for i, v := range row {
			if i > 0 {
				b.WriteString(" | ")
			}
			switch {
			case v == nil:
				b.WriteString("NULL")
			case string(v) == oid:
				b.WriteString("<lineitem>")
			default:
				b.Write(v)
			}
		}
		b.WriteByte('\n')
	}
	return b.String(), nil
}

func testIntrospection(t *testing.T, e *clientEnv) {
	dir := filepath.Join(e.repo, "testdata", "introspection")
	files, err := filepath.Glob(filepath.Join(dir, "*.sql"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no captured statements in %s (%v)", dir, err)
	}
	sort.Strings(files)
	ctx := context.Background()
	oidOf := func(c *pgconn.PgConn) string {
		out, err := pgExec(ctx, c, "SELECT 'lineitem'::regclass::oid")
		if err != nil {
			return "(unknown)"
		}
		return strings.TrimSpace(out)
	}
	for _, f := range files {
		name := filepath.Base(f)
		subtest(t, strings.TrimSuffix(name, ".sql"), func(t testing.TB) {
			text, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			stmts := parseCaptured(string(text))
			if len(stmts) == 0 {
				t.Fatalf("%s: no statements", name)
			}
			gc, pc := e.connectBoth(t)
			gOID, pOID := oidOf(gc), oidOf(pc)
			for _, st := range stmts {
				want, err := runCaptured(ctx, pc, st, pOID)
				if err != nil {
					t.Fatalf("%s statement %d fails on PostgreSQL: %s", name, st.n, pgErrText(err))
				}
				got, err := runCaptured(ctx, gc, st, gOID)
				if err != nil {
					t.Errorf("%s statement %d: gpusql: %s\n%s", name, st.n, pgErrText(err), firstLines(st.sql, 8))
					// A failed statement aborts the transaction on both
					// servers alike only if both failed; start over.
					gc.Exec(ctx, "ROLLBACK").ReadAll()
					continue
				}
				key := name + ":" + strconv.Itoa(st.n)
				if why, ok := introspectionDiffers[key]; ok {
					t.Logf("%s: rows may differ (%s); gpusql:\n%s", key, why, firstLines(got, 10))
					continue
				}
				if sub, ok := introspectionSubset[key]; ok {
					version, _ := pgExec(ctx, gc, "SELECT version()")
					if extra := rowsNotIn(got, want, strings.TrimSpace(version)); extra != "" {
						t.Errorf("%s statement %d: gpusql lists rows that PostgreSQL does not (%s):\n%s", name, st.n, sub.why, extra)
					}
					for _, r := range sub.must {
						if !strings.Contains("\n"+got, "\n"+r+"\n") {
							t.Errorf("%s statement %d: gpusql does not list %q", name, st.n, r)
						}
					}
					continue
				}
				if got != want {
					t.Errorf("%s statement %d: rows differ from PostgreSQL's\n%s\n%s", name, st.n, firstLines(st.sql, 8), lineDiff(got, want))
				}
			}
		})
	}
}

// rowsNotIn lists the lines of got that are not lines of want (each line
// of want matching one of got), other than skip; at most 40.
func rowsNotIn(got, want, skip string) string {
	left := map[string]int{}
	for _, l := range strings.Split(want, "\n") {
		left[l]++
	}
	var b strings.Builder
	n := 0
	for _, l := range strings.Split(got, "\n") {
		if l == skip {
			continue
		}
		if left[l] > 0 {
			left[l]--
			continue
		}
		if n++; n <= 40 {
			b.WriteString("  " + l + "\n")
		}
	}
	return b.String()
}
