package query_test

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/gpusql/gpusql/engine"
)

// slowCopy is a recorder whose client sends COPY data slowly: its rows,
// then a pause before CopyDone, so the load takes longer than a second.
type slowCopy struct {
	recorder
	data  string
	pause time.Duration
}

func (w *slowCopy) CopyIn(ctx context.Context, format int8, ncols int) (io.Reader, error) {
	return io.MultiReader(strings.NewReader(w.data), &pauseReader{d: w.pause}), nil
}

func (w *slowCopy) CopyOut(format int8, ncols int) (io.Writer, error) { return io.Discard, nil }

// pauseReader waits d, then reports the end of the data.
type pauseReader struct{ d time.Duration }

func (p *pauseReader) Read([]byte) (int, error) {
	time.Sleep(p.d)
	return 0, io.EOF
}

// TestLoadProgressNotice: a load that takes more than a second tells the
// client how far it got (bytes, and the rate), as a NOTICE; a quick one
// does not.
func TestLoadProgressNotice(t *testing.T) {
	srv, _ := newTestServer(t)
	sess, err := srv.NewSession(engine.SessionParams{User: "tester", Database: "gpusql"})
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.Query(context.Background(), "CREATE TABLE p (a integer, b text)", &recorder{}); err != nil {
		t.Fatal(err)
	}
	var rows strings.Builder
	for i := 0; i < 1000; i++ {
		rows.WriteString("1\tx\n")
	}
	for _, tc := range []struct {
		pause  time.Duration
		notice bool
	}{{0, false}, {1100 * time.Millisecond, true}} {
		w := &slowCopy{data: rows.String(), pause: tc.pause}
		if err := sess.Query(context.Background(), "COPY p FROM STDIN", w); err != nil {
			t.Fatal(err)
		}
		var progress []string
		for _, n := range w.notices {
			if strings.HasPrefix(n, "loading p: ") {
				progress = append(progress, n)
			}
		}
		if got := len(progress) > 0; got != tc.notice {
			t.Fatalf("pause %v: progress notices %q (all notices %q), want some: %v", tc.pause, progress, w.notices, tc.notice)
		}
		if tc.notice && !strings.Contains(progress[0], "4.0 kB") || tc.notice && !strings.HasSuffix(progress[0], "/s") {
			t.Fatalf("progress notice %q: want the bytes loaded (4.0 kB) and a rate", progress[0])
		}
	}
}
