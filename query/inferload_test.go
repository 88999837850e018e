package query_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// TestInferWidening: a value beyond the sample that an inferred type
// rejects makes the column wider and the load run again; the table holds
// every row as written, and a failed statement leaves nothing.
func TestInferWidening(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 1,000,000-row files")
	}
	srv, root := newTestServer(t)
	sess, err := srv.NewSession(engine.SessionParams{User: "tester", Database: "gpusql"})
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, n int, bad func(i int) (string, bool)) {
		f, err := os.Create(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		w := bufio.NewWriter(f)
		w.WriteString("id,n,name\n")
		for i := 1; i <= n; i++ {
			v := fmt.Sprint(i % 1000)
			if b, ok := bad(i); ok {
				v = b
			}
			fmt.Fprintf(w, "%d,%s,name %d\n", i, v, i%7)
		}
		w.Flush()
		f.Close()
	}
	run := func(sql string) (*recorder, error) {
		var r recorder
		err := sess.Query(context.Background(), sql, &r)
		return &r, err
	}
	mustRows := func(sql string, want ...string) {
		t.Helper()
		r, err := run(sql)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		if strings.Join(r.rows, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s:\n got %q\nwant %q", sql, r.rows, want)
		}
	}
	// A typo in row 1,000,000: n becomes text.
	write("typo.csv", 1100000, func(i int) (string, bool) { return "12x", i == 1000000 })
	r, err := run(`CREATE TABLE typo FROM CSV 'typo.csv'`)
	if err != nil {
		t.Fatal(err)
	}
	notes := strings.Join(r.notices, "\n")
	if !strings.Contains(notes, "sampled records: (id integer, n integer, name text)") ||
		!strings.Contains(notes, `column n of typo becomes text: invalid input syntax for type integer: "12x"; loading again`) {
		t.Errorf("notices:\n%s", notes)
	}
	mustRows(`SELECT data_type FROM information_schema.columns WHERE table_name = 'typo' ORDER BY ordinal_position`, "integer", "text", "text")
	mustRows(`SELECT count(*), count(DISTINCT n), max(id) FROM typo`, "1100000|1001|1100000")
	mustRows(`SELECT n FROM typo WHERE id = 1000000`, "12x")
	mustRows(`SELECT n FROM typo WHERE id = 999`, "999")

	// Beyond integer: bigint; then a decimal: numeric.
	write("wide.csv", 1000000, func(i int) (string, bool) {
		switch i {
		case 700000:
			return "5000000000", true
		case 900000:
			return "-0.25", true
		}
		return "", false
	})
	r, err = run(`CREATE TABLE wide FROM CSV 'wide.csv'`)
	if err != nil {
		t.Fatal(err)
	}
	notes = strings.Join(r.notices, "\n")
	if !strings.Contains(notes, "column n of wide becomes bigint") || !strings.Contains(notes, "column n of wide becomes numeric(18,2)") {
		t.Errorf("notices:\n%s", notes)
	}
	mustRows(`SELECT sum(n), min(n), max(n) FROM wide WHERE id IN (1, 700000, 900000)`, "5000000000.75|-0.25|5000000000.00")

	// ON_ERROR ignore keeps the inferred type and skips the row.
	r, err = run(`CREATE TABLE typo2 FROM CSV 'typo.csv' WITH (ON_ERROR ignore)`)
	if err != nil {
		t.Fatal(err)
	}
	mustRows(`SELECT count(*), sum(n) FROM typo2`, "1099999|549450000")
	mustRows(`SELECT file_name, line, column_name FROM gpusql_load_errors WHERE table_name = 'typo2'`, "typo.csv|1000001|n")

	// A row with a missing field cannot be cured by a type: the load fails
	// with the reader's error and leaves no table.
	write("short.csv", 1000000, func(i int) (string, bool) { return "1\n", i == 800000 })
	if _, err := run(`CREATE TABLE short FROM CSV 'short.csv'`); engine.Code(err) != engine.CodeBadCopyFileFormat {
		t.Errorf("short row: %v", err)
	}
	if _, err := run(`SELECT * FROM short`); engine.Code(err) != "42P01" {
		t.Errorf("table after a failed load: %v", err)
	}
}
