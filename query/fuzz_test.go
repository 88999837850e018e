package query_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/cpu"
	"github.com/gpusql/gpusql/loader"
	"github.com/gpusql/gpusql/query"
)

// FuzzQuery runs arbitrary SQL in a session over a loaded table and the
// system catalogs. Nothing may panic, and every error must be an
// *engine.Error with a SQLSTATE other than XX000: an internal error is a
// bug. The seeds are the statements real clients send
// (testdata/introspection) and the SQL of testdata/sql, so a plain
// `go test` checks all of them.
func FuzzQuery(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	root := f.TempDir()
	csv := "id,small,big,r,d,n,day,ts,flag,name,txt\n" +
		"1,10,10000000000,1.5,2.25,12.50,1995-03-15,1995-03-15 10:11:12.5,true,apple,alpha\n" +
		"2,-20,-20000000000,-2.5,3.25e300,-7.25,1996-02-29,1996-01-01 00:00:00,false,\"b,anana\",\"β\"\n" +
		"3,,,,,,,,,,\n" +
		"4,0,0,NaN,-0,0.00,2000-01-01,2000-01-01 23:59:59,true,,''\n"
	if err := os.WriteFile(filepath.Join(root, "t.csv"), []byte(csv), 0o644); err != nil {
		f.Fatal(err)
	}
	srv, err := query.NewServer(query.Options{
		FileRoot:     root,
		MaxTextWidth: 256,
		Backend:      cpu.New(loader.NewCPU(loader.Config{}), 2),
		Logger:       slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		f.Fatal(err)
	}
	setup, err := srv.NewSession(engine.SessionParams{User: "tester", Database: "gpusql"})
	if err != nil {
		f.Fatal(err)
	}
	for _, sql := range []string{
		`create table lineitem (l_orderkey bigint, l_quantity numeric(15,2), l_comment varchar(44)) from csv 't.csv' with (header match)`,
		`create table t (id int, small smallint, big bigint, r real, d double precision, n numeric(10,2), day date, ts timestamp, flag boolean, name varchar(20), txt text) from csv 't.csv' with (header true)`,
	} {
		if err := setup.Query(context.Background(), sql, &recorder{}); err != nil {
			// lineitem's HEADER MATCH names columns t.csv lacks: a load
			// error, which is fine; t must load.
			if strings.Contains(sql, "table t ") {
				f.Fatal(err)
			}
		}
	}

	f.Fuzz(func(t *testing.T, sql string) {
		sess, err := srv.NewSession(engine.SessionParams{User: "tester", Database: "gpusql"})
		if err != nil {
			t.Fatal(err)
		}
		defer sess.Close()
		// Statements that change the shared server would make later
		// inputs depend on earlier ones.
		low := strings.ToLower(sql)
		for _, w := range []string{"drop", "create", "copy", "alter", "insert", "truncate"} {
			if strings.Contains(low, w) {
				return
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		err = sess.Query(ctx, sql, &recorder{})
		if err == nil {
			return
		}
		var e *engine.Error
		if !errors.As(err, &e) || e.Code == "" || e.Message == "" {
			t.Fatalf("%q: error without a SQLSTATE: %#v", sql, err)
		}
		if e.Code == engine.CodeInternalError {
			t.Fatalf("%q: internal error: %v", sql, err)
		}
	})
}

// fuzzSeeds are the statements of testdata/introspection/*.sql (split at
// the ";" ending a line) and the SQL of every testdata/sql/*.slt case.
func fuzzSeeds(f *testing.F) []string {
	var out []string
	files, _ := filepath.Glob("../testdata/introspection/*.sql")
	if len(files) == 0 {
		f.Fatal("no testdata/introspection/*.sql")
	}
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		var cur strings.Builder
		for _, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "--") {
				continue
			}
			cur.WriteString(line)
			cur.WriteByte('\n')
			if strings.HasSuffix(strings.TrimSpace(line), ";") {
				if s := strings.TrimSpace(cur.String()); s != ";" {
					out = append(out, s)
				}
				cur.Reset()
			}
		}
	}
	slts, _ := filepath.Glob("../testdata/sql/*.slt")
	for _, file := range slts {
		for _, c := range readCases(f, file) {
			out = append(out, c.sql)
		}
	}
	return out
}
