package wire_test

import (
	"bytes"
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine/cpu"
	"github.com/gpusql/gpusql/loader"
	gpuquery "github.com/gpusql/gpusql/query"
	"github.com/gpusql/gpusql/wire"
)

// findPsql returns a psql binary, or skips the test.
func findPsql(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"/usr/lib/postgresql/15/bin/psql"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath("psql"); err == nil {
		return p
	}
	t.Skip("psql not found: install postgresql-client to run the COPY tests with the real client")
	return ""
}

// TestCopyPsql drives COPY through the real psql (\copy sends COPY ...
// FROM STDIN / TO STDOUT) against the real engine. The pg_* files in
// testdata/copy are PostgreSQL 15.20's output for the same commands on
// the same data; gpusql must write the same bytes.
func TestCopyPsql(t *testing.T) {
	psql := findPsql(t)
	src, err := filepath.Abs(filepath.Join("..", "testdata", "copy"))
	if err != nil {
		t.Fatal(err)
	}
	qs, err := gpuquery.NewServer(gpuquery.Options{FileRoot: t.TempDir(), Backend: cpu.New(loader.NewCPU(loader.Config{}), 0)})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := wire.NewServer(wire.Config{}, qs)
	go srv.Serve(context.Background(), ln)
	t.Cleanup(func() { srv.Close() })
	host, port, _ := net.SplitHostPort(ln.Addr().String())
	out := t.TempDir()
	run := func(t *testing.T, cmds ...string) (string, error) {
		t.Helper()
		args := []string{"-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", host, "-p", port, "-U", "tester", "-d", "db"}
		for _, c := range cmds {
			args = append(args, "-c", c)
		}
		cmd := exec.Command(psql, args...)
		cmd.Env = append(os.Environ(), "PGCONNECT_TIMEOUT=10", "PGAPPNAME=copytest")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		return stderr.String(), err
	}
	const schema = "(id int, name text, price numeric(10,2), d date, flag boolean, note varchar(20))"
	in := filepath.Join(src, "in.csv")
	if msg, err := run(t, "create table t "+schema, `\copy t from '`+in+`' csv header`); err != nil {
		t.Fatalf("load: %v: %s", err, msg)
	}
	same := func(t *testing.T, got, want string) {
		t.Helper()
		g, err := os.ReadFile(got)
		if err != nil {
			t.Fatal(err)
		}
		w, err := os.ReadFile(want)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(g, w) {
			t.Fatalf("%s differs from PostgreSQL's %s:\n got %q\nwant %q", got, want, g, w)
		}
	}
	for _, tc := range []struct{ name, copy, golden string }{
		{"csv header", `\copy t to '%s' csv header`, "pg_out.csv"},
		{"text", `\copy t to '%s'`, "pg_out.txt"},
		{"query with options", `\copy (select id, name, note from t where id > 1 order by id desc) to '%s' with (format csv, force_quote (id), null 'NULL', delimiter ';')`, "pg_q.csv"},
		{"one column csv", `\copy (select name from t order by id) to '%s' csv`, "pg_one.csv"},
		{"column list text header", `\copy t (note, id) to '%s' with (header, null '', delimiter '|')`, "pg_cols.txt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := filepath.Join(out, tc.golden)
			if msg, err := run(t, strings.Replace(tc.copy, "%s", f, 1)); err != nil {
				t.Fatalf("%v: %s", err, msg)
			}
			same(t, f, filepath.Join(src, tc.golden))
		})
	}
	t.Run("round trip", func(t *testing.T) {
		// COPY TO then COPY FROM gives the same table, in both formats.
		for i, form := range []string{"csv header", "(format text)"} {
			tbl := []string{"rt_csv", "rt_text"}[i]
			a, b := filepath.Join(out, tbl+"_a"), filepath.Join(out, tbl+"_b")
			msg, err := run(t, `\copy t to '`+a+`' `+form, "create table "+tbl+" "+schema,
				`\copy `+tbl+` from '`+a+`' `+form, `\copy `+tbl+` to '`+b+`' `+form)
			if err != nil {
				t.Fatalf("%s: %v: %s", form, err, msg)
			}
			same(t, b, a)
		}
	})
	t.Run("bad row", func(t *testing.T) {
		msg, err := run(t, `\copy t from '`+filepath.Join(src, "bad.txt")+`'`)
		want := "ERROR:  invalid input syntax for type integer: \"x\"\nCONTEXT:  COPY t, line 2, column id: \"x\"\n"
		if err == nil || !strings.HasSuffix(msg, want) {
			t.Fatalf("got %v: %q, want %q", err, msg, want)
		}
		// The load is atomic: the good first row was not added.
		f := filepath.Join(out, "after_bad.txt")
		if msg, err := run(t, `\copy t to '`+f+`'`); err != nil {
			t.Fatalf("%v: %s", err, msg)
		}
		same(t, f, filepath.Join(src, "pg_out.txt"))
	})
	t.Run("copy from stdin in a script", func(t *testing.T) {
		cmd := exec.Command(psql, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", host, "-p", port, "-U", "tester", "-d", "db", "-At")
		cmd.Stdin = strings.NewReader("create table s (a int, b text);\ncopy s from stdin;\n1\tx\\ty\n2\t\\N\n\\.\nselect a, coalesce(b, 'null') from s order by a;\n")
		got, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %s", err, got)
		}
		if want := "1|x\ty\n2|null\n"; string(got) != want {
			t.Fatalf("got %q, want %q", got, want)
		}
	})
}
