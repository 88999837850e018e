package main

// The differential test's corpus (testdata/diff/*.sql, format in
// testdata/diff/README.md) and the comparison of two servers' results.

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

const diffCorpusDir = "../../testdata/diff"

type diffQuery struct {
	Name    string
	File    string
	Line    int  // line of the "-- name:" marker
	Ordered bool // compare rows in order
	Error   bool // the query must fail on both servers
	Code    string
	// Known is set by "-- gpusql-error SQLSTATE": a documented difference.
	// PostgreSQL must succeed and gpusql must fail with exactly Known.
	Known string
	// Session is set by "-- session": the entry runs on a connection of
	// its own, closed afterwards, so that its temporary tables and views
	// go with it (see README.md).
	Session bool
	SQL     string
}

var (
	diffNameRe  = regexp.MustCompile(`^--\s*name:\s*([A-Za-z0-9_]+)\s*$`)
	diffErrorRe = regexp.MustCompile(`^--\s*error(?:\s+([0-9A-Z]{5}))?\s*$`)
	diffOrderRe = regexp.MustCompile(`^--\s*ordered\s*$`)
	diffKnownRe = regexp.MustCompile(`^--\s*gpusql-error\s+([0-9A-Z]{5})\s*$`)
	diffSessRe  = regexp.MustCompile(`^--\s*session\s*$`)
)

// loadDiffCorpus reads every *.sql file of dir in name order.
func loadDiffCorpus(dir string) ([]*diffQuery, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.sql"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no *.sql files in %s", dir)
	}
	sort.Strings(files)
	var all []*diffQuery
	seen := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		qs, err := parseDiffCorpus(filepath.Base(f), string(b))
		if err != nil {
			return nil, err
		}
		for _, q := range qs {
			if prev, ok := seen[q.Name]; ok {
				return nil, fmt.Errorf("%s:%d: query name %s already used in %s", q.File, q.Line, q.Name, prev)
			}
			seen[q.Name] = fmt.Sprintf("%s:%d", q.File, q.Line)
		}
		all = append(all, qs...)
	}
	return all, nil
}

// parseDiffCorpus splits one file into entries. An entry starts at a
// "-- name: NAME" line; "-- ordered" and "-- error [SQLSTATE]" lines in it
// are markers, other "--" lines are comments, and the rest is the SQL.
func parseDiffCorpus(file, text string) ([]*diffQuery, error) {
	var out []*diffQuery
	var cur *diffQuery
	var sql []string
	flush := func() error {
		if cur == nil {
			return nil
		}
		// Trailing comment lines belong to what follows, not to this SQL.
		for len(sql) > 0 {
			last := strings.TrimSpace(sql[len(sql)-1])
			if last != "" && !strings.HasPrefix(last, "--") {
				break
			}
			sql = sql[:len(sql)-1]
		}
		cur.SQL = strings.TrimSpace(strings.Join(sql, "\n"))
		if cur.SQL == "" {
			return fmt.Errorf("%s:%d: entry %s has no SQL", file, cur.Line, cur.Name)
		}
		if cur.Error && cur.Ordered {
			return fmt.Errorf("%s:%d: entry %s is marked both error and ordered", file, cur.Line, cur.Name)
		}
		out = append(out, cur)
		cur, sql = nil, nil
		return nil
	}
	for i, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		if m := diffNameRe.FindStringSubmatch(trimmed); m != nil {
			if err := flush(); err != nil {
				return nil, err
			}
			cur = &diffQuery{Name: m[1], File: file, Line: i + 1}
			continue
		}
		if cur == nil {
			if trimmed != "" && !strings.HasPrefix(trimmed, "--") {
				return nil, fmt.Errorf("%s:%d: SQL before the first -- name: line", file, i+1)
			}
			continue
		}
		switch {
		case diffOrderRe.MatchString(trimmed):
			cur.Ordered = true
		case diffSessRe.MatchString(trimmed) && len(sql) == 0:
			cur.Session = true
		case diffKnownRe.MatchString(trimmed):
			cur.Known = diffKnownRe.FindStringSubmatch(trimmed)[1]
		case diffErrorRe.MatchString(trimmed):
			cur.Error = true
			cur.Code = diffErrorRe.FindStringSubmatch(trimmed)[1]
		case strings.HasPrefix(trimmed, "--") && len(sql) == 0:
			// a comment in the entry's header
		default:
			sql = append(sql, line)
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return out, nil
}

// diffOutcome is what one server answered to one query.
type diffOutcome struct {
	Results []*pgconn.Result
	Err     error // the first statement error or connection error
}

func (o *diffOutcome) errCode() string {
	if o.Err == nil {
		return ""
	}
	return pgErrCode(o.Err)
}

// diffCompare returns the differences between want (PostgreSQL) and
// got (gpusql) for q, or nil if they match.
func diffCompare(q *diffQuery, want, got *diffOutcome) []string {
	var diffs []string
	if want.Err != nil || got.Err != nil {
		switch {
		case got.Err == nil:
			diffs = append(diffs, fmt.Sprintf("PostgreSQL failed with %s, gpusql succeeded", pgErrText(want.Err)))
		case want.Err == nil:
			diffs = append(diffs, fmt.Sprintf("gpusql failed with %s, PostgreSQL succeeded", pgErrText(got.Err)))
		case want.errCode() != got.errCode():
			diffs = append(diffs, fmt.Sprintf("SQLSTATE differs: PostgreSQL %s, gpusql %s",
				pgErrText(want.Err), pgErrText(got.Err)))
		}
		return diffs
	}
	if len(want.Results) != len(got.Results) {
		return []string{fmt.Sprintf("PostgreSQL returned %d results, gpusql %d", len(want.Results), len(got.Results))}
	}
	for i := range want.Results {
		prefix := ""
		if len(want.Results) > 1 {
			prefix = fmt.Sprintf("statement %d: ", i+1)
		}
		for _, d := range diffCompareResult(q, want.Results[i], got.Results[i]) {
			diffs = append(diffs, prefix+d)
		}
	}
	return diffs
}

const diffMaxRowDiffs = 5

func diffCompareResult(q *diffQuery, want, got *pgconn.Result) []string {
	var diffs []string
	wf, gf := want.FieldDescriptions, got.FieldDescriptions
	if len(wf) != len(gf) {
		diffs = append(diffs, fmt.Sprintf("columns: PostgreSQL %s, gpusql %s", diffDescribeFields(wf), diffDescribeFields(gf)))
		diffs = append(diffs, fmt.Sprintf("command tag: PostgreSQL %q (%d rows), gpusql %q (%d rows)",
			want.CommandTag.String(), len(want.Rows), got.CommandTag.String(), len(got.Rows)))
		return diffs
	}
	for i := range wf {
		if wf[i].Name != gf[i].Name || wf[i].DataTypeOID != gf[i].DataTypeOID {
			diffs = append(diffs, fmt.Sprintf("column %d: PostgreSQL %q (type %s), gpusql %q (type %s)",
				i+1, wf[i].Name, diffOIDName(wf[i].DataTypeOID), gf[i].Name, diffOIDName(gf[i].DataTypeOID)))
		}
	}
	if want.CommandTag.String() != got.CommandTag.String() {
		diffs = append(diffs, fmt.Sprintf("command tag: PostgreSQL %q, gpusql %q", want.CommandTag.String(), got.CommandTag.String()))
	}
	wr, gr := want.Rows, got.Rows
	if !q.Ordered {
		wr, gr = diffSortedRows(wr), diffSortedRows(gr)
	}
	if len(wr) != len(gr) {
		diffs = append(diffs, fmt.Sprintf("row count: PostgreSQL %d, gpusql %d", len(wr), len(gr)))
	}
	n := 0
	for i := 0; i < len(wr) && i < len(gr); i++ {
		if diffRowKey(wr[i]) == diffRowKey(gr[i]) {
			continue
		}
		if n++; n > diffMaxRowDiffs {
			diffs = append(diffs, "... (more differing rows)")
			break
		}
		where := "row"
		if !q.Ordered {
			where = "sorted row"
		}
		if len(wr[i]) == len(gr[i]) && len(wf) == len(wr[i]) && len(wr[i]) > 3 {
			// Wide rows: name the differing columns.
			var cols []string
			for k := range wr[i] {
				if diffRowKey(wr[i][k:k+1]) != diffRowKey(gr[i][k:k+1]) {
					cols = append(cols, fmt.Sprintf("column %d %q: PostgreSQL %s, gpusql %s", k+1, wf[k].Name,
						diffFormatRow(wr[i][k:k+1]), diffFormatRow(gr[i][k:k+1])))
				}
			}
			diffs = append(diffs, fmt.Sprintf("%s %d: %s", where, i+1, strings.Join(cols, "; ")))
			continue
		}
		diffs = append(diffs, fmt.Sprintf("%s %d: PostgreSQL %s, gpusql %s", where, i+1, diffFormatRow(wr[i]), diffFormatRow(gr[i])))
	}
	if n == 0 && len(wr) != len(gr) {
		// Show the surplus rows.
		long, who := wr, "only in PostgreSQL"
		if len(gr) > len(wr) {
			long, who = gr, "only in gpusql"
		}
		for i := min(len(wr), len(gr)); i < len(long) && i < min(len(wr), len(gr))+diffMaxRowDiffs; i++ {
			diffs = append(diffs, fmt.Sprintf("%s: %s", who, diffFormatRow(long[i])))
		}
	}
	return diffs
}

func diffDescribeFields(fs []pgconn.FieldDescription) string {
	var parts []string
	for _, f := range fs {
		parts = append(parts, fmt.Sprintf("%s %s", f.Name, diffOIDName(f.DataTypeOID)))
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

var diffOIDNames = map[uint32]string{
	16: "boolean", 20: "bigint", 21: "smallint", 23: "integer", 25: "text", 700: "real",
	701: "double precision", 705: "unknown", 1042: "character", 1043: "character varying",
	1082: "date", 1114: "timestamp", 1186: "interval", 1700: "numeric",
}

func diffOIDName(oid uint32) string {
	if n, ok := diffOIDNames[oid]; ok {
		return fmt.Sprintf("%s/%d", n, oid)
	}
	return fmt.Sprint(oid)
}

// diffRowKey is an injective encoding of a row: NULL and the empty string differ.
func diffRowKey(r [][]byte) string {
	var b bytes.Buffer
	for _, v := range r {
		if v == nil {
			b.WriteByte('N')
		} else {
			fmt.Fprintf(&b, "V%d:", len(v))
			b.Write(v)
		}
	}
	return b.String()
}

func diffSortedRows(rows [][][]byte) [][][]byte {
	out := append([][][]byte(nil), rows...)
	keys := make(map[int]string, len(out))
	idx := make([]int, len(out))
	for i := range out {
		idx[i] = i
		keys[i] = diffRowKey(out[i])
	}
	sort.SliceStable(idx, func(a, b int) bool { return keys[idx[a]] < keys[idx[b]] })
	sorted := make([][][]byte, len(out))
	for i, k := range idx {
		sorted[i] = out[k]
	}
	return sorted
}

func diffFormatRow(r [][]byte) string {
	parts := make([]string, len(r))
	for i, v := range r {
		if v == nil {
			parts[i] = "NULL"
		} else {
			parts[i] = fmt.Sprintf("%q", v)
		}
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// TestDiffCorpus checks the corpus files themselves; it needs no server.
func TestDiffCorpus(t *testing.T) {
	qs, err := loadDiffCorpus(diffCorpusDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) < 80 {
		t.Errorf("corpus has %d queries, want at least 80", len(qs))
	}
	// a statement that writes, at the start of a line
	writes := regexp.MustCompile(`(?im)^\s*(create|insert|drop|truncate|alter)\b`)
	for _, q := range qs {
		if q.Ordered && !regexp.MustCompile(`(?is)\border\s+by\b`).MatchString(q.SQL) {
			t.Errorf("%s:%d: %s is marked ordered but has no ORDER BY", q.File, q.Line, q.Name)
		}
		if !q.Session && writes.MatchString(q.SQL) {
			t.Errorf("%s:%d: %s writes, but is not marked -- session (see README.md)", q.File, q.Line, q.Name)
		}
	}
}

func TestDiffCorpusParse(t *testing.T) {
	text := `-- header comment
-- name: a
SELECT 1;
-- name: b
-- ordered
-- what it checks
SELECT 2
 ORDER BY 1;

-- name: c
-- error 22012
SELECT 1/0;
-- name: d
-- error
-- session
SELECT x
  -- a comment inside the SQL
  FROM t
-- trailing comments are dropped
`
	qs, err := parseDiffCorpus("t.sql", text)
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 4 {
		t.Fatalf("got %d entries", len(qs))
	}
	want := []diffQuery{
		{Name: "a", Line: 2, SQL: "SELECT 1;"},
		{Name: "b", Line: 4, Ordered: true, SQL: "SELECT 2\n ORDER BY 1;"},
		{Name: "c", Line: 10, Error: true, Code: "22012", SQL: "SELECT 1/0;"},
		{Name: "d", Line: 13, Error: true, Session: true, SQL: "SELECT x\n  -- a comment inside the SQL\n  FROM t"},
	}
	for i, w := range want {
		g := qs[i]
		if g.Name != w.Name || g.Line != w.Line || g.Ordered != w.Ordered || g.Error != w.Error || g.Code != w.Code || g.SQL != w.SQL || g.Session != w.Session {
			t.Errorf("entry %d: got %+v, want %+v", i, *g, w)
		}
	}
	if _, err := parseDiffCorpus("t.sql", "SELECT 1\n"); err == nil {
		t.Error("SQL before the first name: no error")
	}
	if _, err := parseDiffCorpus("t.sql", "-- name: x\n-- ordered\n-- error\nSELECT 1 ORDER BY 1\n"); err == nil {
		t.Error("ordered+error: no error")
	}

	// Comparison: order-insensitive unless ordered; NULL is not ''.
	res := func(rows ...[][]byte) *diffOutcome {
		return &diffOutcome{Results: []*pgconn.Result{{
			FieldDescriptions: []pgconn.FieldDescription{{Name: "x", DataTypeOID: 25}},
			Rows:              rows,
			CommandTag:        pgconn.NewCommandTag(fmt.Sprintf("SELECT %d", len(rows))),
		}}}
	}
	a, b, null := [][]byte{[]byte("a")}, [][]byte{[]byte("b")}, [][]byte{nil}
	empty := [][]byte{[]byte("")}
	if d := diffCompare(&diffQuery{}, res(a, b), res(b, a)); d != nil {
		t.Errorf("unordered: %v", d)
	}
	if d := diffCompare(&diffQuery{Ordered: true}, res(a, b), res(b, a)); d == nil {
		t.Error("ordered: no difference found")
	}
	if d := diffCompare(&diffQuery{}, res(null), res(empty)); d == nil {
		t.Error("NULL vs '': no difference found")
	}
	if d := diffCompare(&diffQuery{}, res(a, a, b), res(a, b, b)); d == nil {
		t.Error("multiset: no difference found")
	}
}
