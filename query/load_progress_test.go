package query_test

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/cpu"
	"github.com/gpusql/gpusql/loader"
	"github.com/gpusql/gpusql/query"
)

// slowCopy is a recorder whose client sends COPY data slowly: its rows,
// then a pause before CopyDone.
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

// TestLoadProgressNotice: a load that runs past Options.ProgressEvery
// tells the client how far it got (bytes, and the rate), as a NOTICE; a
// load shorter than it does not. The intervals are an hour (no load here
// takes that long) and a millisecond (the client pauses 50 ms), so the
// answer never depends on the machine's speed.
func TestLoadProgressNotice(t *testing.T) {
	var rows strings.Builder
	for i := 0; i < 1000; i++ {
		rows.WriteString("1\tx\n")
	}
	for _, tc := range []struct {
		every  time.Duration
		notice bool
	}{{time.Hour, false}, {time.Millisecond, true}} {
		srv, err := query.NewServer(query.Options{
			FileRoot:      t.TempDir(),
			ProgressEvery: tc.every,
			Backend:       cpu.New(loader.NewCPU(loader.Config{}), 2),
			Logger:        slog.New(slog.NewTextHandler(io.Discard, nil)),
		})
		if err != nil {
			t.Fatal(err)
		}
		sess, err := srv.NewSession(engine.SessionParams{User: "tester", Database: "gpusql"})
		if err != nil {
			t.Fatal(err)
		}
		if err := sess.Query(context.Background(), "CREATE TABLE p (a integer, b text)", &recorder{}); err != nil {
			t.Fatal(err)
		}
		w := &slowCopy{data: rows.String(), pause: 50 * time.Millisecond}
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
			t.Fatalf("every %v: progress notices %q (all notices %q), want some: %v", tc.every, progress, w.notices, tc.notice)
		}
		if tc.notice && !strings.Contains(progress[0], "4.0 kB") || tc.notice && !strings.HasSuffix(progress[0], "/s") {
			t.Fatalf("progress notice %q: want the bytes loaded (4.0 kB) and a rate", progress[0])
		}
	}
}
