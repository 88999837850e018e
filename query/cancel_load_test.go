package query_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// cancelOnNotice is a COPY FROM STDIN client whose statement is
// cancelled by the first notice it gets: with ON_ERROR ignore and a bad
// row, that is the skipped-rows notice, sent after the loader has read
// and parsed everything and before the COPY commits. It must still
// commit nothing.
type cancelOnNotice struct {
	recorder
	data   string
	cancel context.CancelFunc
}

func (w *cancelOnNotice) CopyIn(ctx context.Context, format int8, ncols int) (io.Reader, error) {
	return strings.NewReader(w.data), nil
}

func (w *cancelOnNotice) CopyOut(format int8, ncols int) (io.Writer, error) { return io.Discard, nil }

func (w *cancelOnNotice) Notice(n engine.Notice) error {
	w.cancel()
	return w.recorder.Notice(n)
}

func rowsOf(t *testing.T, srv interface{ Catalog() *engine.Catalog }, table string) int64 {
	t.Helper()
	tb, ok := srv.Catalog().Lookup(table)
	if !ok {
		t.Fatalf("no table %s", table)
	}
	return tb.Rows()
}

// A load cancelled at any point, even after the last byte was read,
// commits nothing: COPY FROM STDIN, COPY FROM a file, CREATE TABLE ...
// FROM CSV.
func TestCancelledLoadCommitsNothing(t *testing.T) {
	srv, root := newTestServer(t)
	sess, err := srv.NewSession(engine.SessionParams{User: "tester", Database: "gpusql"})
	if err != nil {
		t.Fatal(err)
	}
	bg := context.Background()
	if err := sess.Query(bg, "CREATE TABLE p (a integer, b text)", &recorder{}); err != nil {
		t.Fatal(err)
	}
	if err := sess.Query(bg, "COPY p FROM STDIN", &cancelOnNotice{data: "1\tx\n2\ty\n", cancel: func() {}}); err != nil {
		t.Fatal(err)
	}
	if n := rowsOf(t, srv, "p"); n != 2 {
		t.Fatalf("p has %d rows, want 2", n)
	}

	t.Run("stdin", func(t *testing.T) {
		ctx, cancel := context.WithCancel(bg)
		defer cancel()
		w := &cancelOnNotice{data: strings.Repeat("3\tz\n", 1000) + "bad\trow\n", cancel: cancel}
		err := sess.Query(ctx, "COPY p FROM STDIN WITH (ON_ERROR ignore)", w)
		if engine.Code(err) != engine.CodeQueryCanceled {
			t.Fatalf("got %v, want 57014", err)
		}
		if n := rowsOf(t, srv, "p"); n != 2 {
			t.Fatalf("p has %d rows after the cancelled COPY, want 2", n)
		}
		if errs := srv.Catalog().LoadErrors(); len(errs) != 0 {
			t.Fatalf("the cancelled COPY recorded its skipped rows: %v", errs)
		}
	})

	// A named pipe lets the test cancel while the load reads the file.
	pipe := func(t *testing.T) (string, func(string), func()) {
		t.Helper()
		name := "pipe.csv"
		path := filepath.Join(root, name)
		os.Remove(path)
		if err := syscall.Mkfifo(path, 0o600); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
		var f *os.File
		opened := make(chan struct{})
		go func() {
			var err error
			f, err = os.OpenFile(path, os.O_WRONLY, 0)
			if err != nil {
				t.Error(err)
			}
			close(opened)
		}()
		writeRows := func(s string) {
			<-opened
			if _, err := f.WriteString(s); err != nil {
				t.Error(err)
			}
		}
		return name, writeRows, func() { <-opened; f.Close() }
	}
	for _, tc := range []struct{ name, sql, table string }{
		{"copy file", "COPY p FROM '%s'", "p"},
		{"create table from csv", "CREATE TABLE c (a integer, b text) FROM CSV '%s' WITH (DELIMITER E'\\t')", "c"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			name, writeRows, closeWriter := pipe(t)
			ctx, cancel := context.WithCancel(bg)
			defer cancel()
			done := make(chan error, 1)
			go func() { done <- sess.Query(ctx, strings.Replace(tc.sql, "%s", name, 1), &recorder{}) }()
			writeRows(strings.Repeat("4\tw\n", 1000))
			cancel()
			closeWriter()
			if err := <-done; engine.Code(err) != engine.CodeQueryCanceled {
				t.Fatalf("got %v, want 57014", err)
			}
			if tc.table == "c" {
				if _, ok := srv.Catalog().Lookup("c"); ok {
					t.Fatal("table c exists after its cancelled CREATE TABLE ... FROM CSV")
				}
			} else if n := rowsOf(t, srv, "p"); n != 2 {
				t.Fatalf("p has %d rows after the cancelled COPY, want 2", n)
			}
		})
	}
	t.Run("pipe loads when not cancelled", func(t *testing.T) {
		name, writeRows, closeWriter := pipe(t)
		done := make(chan error, 1)
		go func() { done <- sess.Query(bg, "COPY p FROM '"+name+"'", &recorder{}) }()
		writeRows(strings.Repeat("5\tv\n", 1000))
		closeWriter()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if n := rowsOf(t, srv, "p"); n != 1002 {
			t.Fatalf("p has %d rows, want 1002", n)
		}
	})
}
