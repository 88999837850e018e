package gpusql_test

import (
	"bufio"
	"cmp"
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpusql/gpusql"
	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/internal/answer"
	"github.com/gpusql/gpusql/tools/hitsgen/hits"
)

// clickbenchGaps are the queries that fail today, with why; each must fail
// with 42883 (no such function) until the function exists. When one
// starts to run, its answer is checked like any other's, and its entry
// should go.
var clickbenchGaps = map[string]string{}

// TestClickBench loads hits made by tools/hitsgen (100,000 rows, or
// GPUSQL_CLICKBENCH_ROWS) and runs ClickBench's 43 queries
// (testdata/clickbench/queries), comparing each answer with PostgreSQL
// 15's (testdata/clickbench/answers) as testdata/clickbench/README.md
// says: the same values, in the same order but where ORDER BY keys tie
// (keys.txt). The file is made once into the temporary directory and
// reused. GPUSQL_TEST_DEVICE=cuda runs it on the GPU backend.
func TestClickBench(t *testing.T) {
	if testing.Short() {
		t.Skip("loads 100,000 hits rows")
	}
	rows := cmp.Or(os.Getenv("GPUSQL_CLICKBENCH_ROWS"), "100000")
	n, err := strconv.ParseInt(rows, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	base := filepath.Join("testdata", "clickbench")
	answers := filepath.Join(base, "answers", "rows"+rows)
	if _, err := os.Stat(answers); err != nil {
		t.Fatalf("no PostgreSQL answers for %s rows: %v", rows, err)
	}
	keys, err := answer.ReadOrderKeys(filepath.Join(base, "keys.txt"))
	if err != nil {
		t.Fatal(err)
	}
	dir := hitsData(t, n)
	db, err := gpusql.Open(gpusql.Options{FileRoot: dir, Device: cmp.Or(os.Getenv("GPUSQL_TEST_DEVICE"), "cpu")})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	schema, err := os.ReadFile(filepath.Join(base, "schema.sql"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := db.Exec(ctx, string(schema)); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := db.Exec(ctx, "COPY hits FROM 'hits.csv' WITH (FORMAT csv)"); err != nil {
		t.Fatal(err)
	}
	t.Logf("loaded %s rows in %v", rows, time.Since(start).Round(time.Millisecond))

	paths, err := filepath.Glob(filepath.Join(base, "queries", "q*.sql"))
	if err != nil || len(paths) != 43 {
		t.Fatalf("%d queries, %v", len(paths), err)
	}
	for _, p := range paths {
		name := strings.TrimSuffix(filepath.Base(p), ".sql")
		t.Run(name, func(t *testing.T) {
			sql, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join(answers, name+".out"))
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			got, err := psqlText(db, string(sql))
			if gap, ok := clickbenchGaps[name]; ok && err != nil {
				if engine.Code(err) != engine.CodeUndefinedFunction {
					t.Errorf("%s: want SQLSTATE 42883, got %v (SQLSTATE %s)", gap, err, engine.Code(err))
				}
				t.Skipf("known gap: %s", gap)
			}
			if err != nil {
				t.Fatalf("%v (SQLSTATE %s)", err, engine.Code(err))
			}
			t.Logf("%s: %d rows in %v", name, strings.Count(got, "\n"), time.Since(start).Round(time.Microsecond))
			k, listed := keys[name]
			if res := answer.Compare(string(sql), got, string(want), k, listed, 1e-9); !strings.HasPrefix(res, "ok") {
				t.Errorf("%s\ngot:\n%s\nwant:\n%s", res, got, want)
			} else if res != "ok" {
				t.Log(res)
			}
		})
	}
}

// hitsData returns a directory holding hits.csv of n rows (seed 1, the
// answers' data), generating it when needed. The directory's name carries
// a hash of the generator's first rows, so a changed generator makes a
// new file.
func hitsData(t *testing.T, n int64) string {
	t.Helper()
	g, err := hits.New(hits.Options{Rows: n, Seed: 1, Format: hits.CSV})
	if err != nil {
		t.Fatal(err)
	}
	var st hits.Stats
	sum := sha256.Sum256(g.AppendRows(nil, 0, min(n, 100), &st))
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("gpusql-hits-%d-%x", n, sum[:4]))
	file := filepath.Join(dir, "hits.csv")
	if _, err := os.Stat(file); err == nil {
		return dir
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	// Made under another name and renamed, so that a test running beside
	// this one never reads half a file.
	f, err := os.CreateTemp(dir, "hits-*.tmp")
	if err != nil {
		t.Fatal(err)
	}
	defer os.Remove(f.Name())
	w := bufio.NewWriterSize(f, 1<<20)
	if _, err := g.Write(w, 4); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(f.Name(), file); err != nil {
		t.Fatal(err)
	}
	return dir
}
