package main

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"
)

// TestLoadAndRun loads a table through a schema and one by type
// detection, from '|'-separated CSV with a NULL and an empty string, and
// checks a query's rows in answer format.
func TestLoadAndRun(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	schema := write("schema.sql", "CREATE TABLE t (k integer, price numeric(15,2), flag char(3), note varchar(10), d date);")
	write("t.csv", "1|10.50|A|x|1995-03-15\n2|0.05|B||1996-01-01\n3|-1.00|C|\"\"|1997-12-31\n")
	other := write("u.csv", "1|one\n2|two\n")

	ctx := context.Background()
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	loads, counts, err := load(ctx, conn, loadPlan{
		Schemas: []string{schema},
		DataDir: dir,
		Loads:   []tableLoad{{Table: "u", File: other}},
		CSV:     csvOptions{Delim: "|"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(loads) != 2 || loads[0].Table != "t" || counts[0] != 3 || loads[1].Table != "u" || counts[1] != 2 {
		t.Fatalf("loaded %+v, counts %v", loads, counts)
	}
	q := query{Name: "q", SQL: "select k, price, sum(price) over () * 1.5 as s, flag, note, note is null as isnull, d, d + interval '1 day' as ts, avg(k) over () as a, (select count(*) from u) as n from t order by k"}
	tm, err := runQuery(ctx, conn, q, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := "1|10.50|14.325|A|x|f|1995-03-15|1995-03-16 00:00:00|2|2\n" +
		"2|0.05|14.325|B||t|1996-01-01|1996-01-02 00:00:00|2|2\n" +
		"3|-1.00|14.325|C||f|1997-12-31|1998-01-01 00:00:00|2|2\n"
	if tm.Rows != 3 || string(tm.Text) != want || len(tm.Runs) != 2 {
		t.Errorf("rows %d, runs %d, text\n%s\nwant\n%s", tm.Rows, len(tm.Runs), tm.Text, want)
	}
}

// TestLoadText loads PostgreSQL's text format: tabs, no quoting (a quote
// is a character), \N is NULL and an empty field the empty string.
func TestLoadText(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "t.tsv"), []byte("1\tsay \"hi\"\t\n2\t\\N\tx,y\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	schema := filepath.Join(dir, "schema.sql")
	if err := os.WriteFile(schema, []byte("CREATE TABLE t (k integer, a text, b text);"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, _, err := load(ctx, conn, loadPlan{Schemas: []string{schema}, DataDir: dir, CSV: csvOptions{Text: true}}); err != nil {
		t.Fatal(err)
	}
	tm, err := runQuery(ctx, conn, query{Name: "q", SQL: "select k, a, a is null, b, b = '' from t order by k"}, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if want := "1|say \"hi\"|f||t\n2||t|x,y|f\n"; string(tm.Text) != want {
		t.Errorf("text\n%s\nwant\n%s", tm.Text, want)
	}
}
