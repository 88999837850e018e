package query_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/cpu"
	"github.com/gpusql/gpusql/loader"
	"github.com/gpusql/gpusql/query"
)

// recorder collects what a session writes, in a plain text form that the
// .test files spell out.
type recorder struct {
	cols    []string
	rows    []string
	tags    []string
	notices []string
}

func (r *recorder) Describe(cols []engine.ResultColumn) error {
	r.cols = r.cols[:0]
	for _, c := range cols {
		r.cols = append(r.cols, c.Name)
	}
	return nil
}

func (r *recorder) Row(v [][]byte) error {
	parts := make([]string, len(v))
	for i, x := range v {
		if x == nil {
			parts[i] = "NULL"
		} else {
			parts[i] = string(x)
		}
	}
	r.rows = append(r.rows, strings.Join(parts, "|"))
	return nil
}

func (r *recorder) Complete(tag string) error { r.tags = append(r.tags, tag); return nil }
func (r *recorder) Notice(n engine.Notice) error {
	r.notices = append(r.notices, n.Message)
	return nil
}
func (r *recorder) EmptyQuery() error { r.tags = append(r.tags, "EMPTY"); return nil }

// A case in a .slt file is one of:
//
//	statement ok            the SQL runs without error
//	statement error CODE    the SQL fails with SQLSTATE CODE
//	query                   the SQL's rows, after ----, a header line of
//	                        column names and then rows as a|b|NULL
//	notice TEXT             the SQL runs and some notice contains TEXT
//	tag TEXT                the SQL runs and its command tags, joined
//	                        by commas, are TEXT
//
// followed by the SQL on the next lines, up to a blank line (or ---- for
// query). Lines starting with # are comments.
type sqlCase struct {
	file, kind, arg, sql string
	line                 int
	want                 []string
}

func readCases(t testing.TB, path string) []sqlCase {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []sqlCase
	sc := bufio.NewScanner(f)
	ln := 0
	var cur *sqlCase
	state := "" // "sql" or "want"
	flush := func() {
		if cur != nil {
			cur.sql = strings.TrimSpace(cur.sql)
			out = append(out, *cur)
		}
		cur, state = nil, ""
	}
	for sc.Scan() {
		ln++
		line := sc.Text()
		switch {
		case cur == nil && (strings.HasPrefix(line, "#") || strings.TrimSpace(line) == ""):
		case cur == nil:
			f := strings.SplitN(line, " ", 2)
			cur = &sqlCase{file: filepath.Base(path), line: ln, kind: f[0]}
			if len(f) > 1 {
				cur.arg = f[1]
			}
			state = "sql"
		case state == "sql" && line == "----":
			state = "want"
		case state == "sql" && strings.TrimSpace(line) == "":
			flush()
		case state == "sql":
			cur.sql += line + "\n"
		case state == "want" && strings.TrimSpace(line) == "":
			flush()
		case state == "want":
			cur.want = append(cur.want, line)
		}
	}
	flush()
	return out
}

func newTestServer(t *testing.T) (*query.Server, string) {
	root := t.TempDir()
	src, _ := filepath.Abs("../testdata/sql/files")
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A link that leads out of the file root must be refused.
	outside := filepath.Join(t.TempDir(), "secret.csv")
	os.WriteFile(outside, []byte("1\n"), 0o644)
	os.Symlink(outside, filepath.Join(root, "escape.csv"))
	srv, err := query.NewServer(query.Options{
		FileRoot:     root,
		MaxTextWidth: 256,
		Backend:      cpu.New(loader.NewCPU(loader.Config{}), 2),
		Logger:       slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	return srv, root
}

// testSession opens a session on srv, of user tester in database gpusql
// unless p names others; it is closed when t ends.
func testSession(t *testing.T, srv *query.Server, p engine.SessionParams) engine.Session {
	t.Helper()
	if p.User == "" {
		p.User = "tester"
	}
	if p.Database == "" {
		p.Database = "gpusql"
	}
	s, err := srv.NewSession(p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// queryRows runs sql in s and returns its rows, the columns joined by
// '|'; an error fails t.
func queryRows(t testing.TB, s engine.Session, sql string) []string {
	t.Helper()
	var r recorder
	if err := s.Query(context.Background(), sql, &r); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return r.rows
}

func TestSQLCases(t *testing.T) {
	files, _ := filepath.Glob("../testdata/sql/*.slt")
	if len(files) == 0 {
		t.Fatal("no testdata/sql/*.slt files")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			srv, _ := newTestServer(t)
			sess, err := srv.NewSession(engine.SessionParams{User: "tester", Database: "gpusql"})
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range readCases(t, file) {
				runCase(t, sess, c)
			}
		})
	}
}

func runCase(t *testing.T, sess engine.Session, c sqlCase) {
	t.Helper()
	var r recorder
	err := sess.Query(context.Background(), c.sql, &r)
	where := c.file + ":" + strconv.Itoa(c.line)
	switch c.kind {
	case "statement":
		if c.arg == "ok" {
			if err != nil {
				t.Errorf("%s: %s\nunexpected error: %v", where, c.sql, err)
			}
			return
		}
		code := strings.TrimPrefix(c.arg, "error ")
		var pe *engine.Error
		if err == nil {
			t.Errorf("%s: %s\nwant error %s, got success", where, c.sql, code)
		} else if !errors.As(err, &pe) || pe.Code != code {
			t.Errorf("%s: %s\nwant error %s, got %s: %v", where, c.sql, code, engine.Code(err), err)
		}
	case "notice":
		if err != nil {
			t.Errorf("%s: %s\nunexpected error: %v", where, c.sql, err)
			return
		}
		for _, n := range r.notices {
			if strings.Contains(n, c.arg) {
				return
			}
		}
		t.Errorf("%s: %s\nno notice containing %q; got %q", where, c.sql, c.arg, r.notices)
	case "tag":
		if err != nil {
			t.Errorf("%s: %s\nunexpected error: %v", where, c.sql, err)
			return
		}
		if got := strings.Join(r.tags, ","); got != c.arg {
			t.Errorf("%s: %s\ncommand tags %q, want %q", where, c.sql, got, c.arg)
		}
	case "query":
		if err != nil {
			t.Errorf("%s: %s\nunexpected error: %v", where, c.sql, err)
			return
		}
		got := append([]string{strings.Join(r.cols, "|")}, r.rows...)
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s: %s\n--- want\n%s\n--- got\n%s", where, c.sql, strings.Join(c.want, "\n"), strings.Join(got, "\n"))
		}
	default:
		t.Fatalf("%s: unknown case kind %q", where, c.kind)
	}
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			break
		}
	}
	return string(b[i:])
}
