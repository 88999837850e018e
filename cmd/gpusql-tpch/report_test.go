package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseTables(t *testing.T) {
	ts, err := parseTables("region, hits=data/hits.tsv", "text")
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 2 || ts[0] != (tableFile{"region", "region.tsv"}) || ts[1] != (tableFile{"hits", "data/hits.tsv"}) {
		t.Errorf("parseTables = %v", ts)
	}
	for _, bad := range []string{"", "=x.csv", "t="} {
		if _, err := parseTables(bad, "csv"); err == nil {
			t.Errorf("parseTables(%q) accepted", bad)
		}
	}
	c := &config{format: "csv", delim: ",", header: true}
	if got := copyStatement(c, tableFile{"hits", "it's.csv"}); got != "COPY hits FROM 'it''s.csv' WITH (FORMAT csv, DELIMITER ',', HEADER true)" {
		t.Errorf("copyStatement = %s", got)
	}
	c.format = "text"
	if got := copyStatement(c, tableFile{"hits", "hits.tsv"}); got != "COPY hits FROM 'hits.tsv' WITH (FORMAT text)" {
		t.Errorf("copyStatement = %s", got)
	}
}

// TestComparison: speedups, hot sums over the queries every engine ran,
// and the geometric mean over the queries both ran.
func TestComparison(t *testing.T) {
	duck := filepath.Join(t.TempDir(), "duckdb.log")
	log := "duckdb v1.5.6, 2 threads: loaded 1 tables\n" +
		`{"engine":"duckdb","query":"q0","min_ms":10,"median_ms":11,"rows":1}` + "\n" +
		`{"engine":"duckdb","query":"q1","min_ms":40,"median_ms":41,"rows":2}` + "\n" +
		`{"engine":"duckdb","query":"q2","min_ms":5,"median_ms":5,"rows":3}` + "\n" +
		"\nquery rows ...\n"
	if err := os.WriteFile(duck, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := readJSONResults(duck)
	if err != nil || len(d) != 3 {
		t.Fatalf("readJSONResults: %v, %v", d, err)
	}
	qs := []query{{name: "q0"}, {name: "q1"}, {name: "q2"}}
	cpu := []result{
		{Engine: "cpu", Query: "q0", MinMS: 20, Rows: 1, Check: "ok"},
		{Engine: "cpu", Query: "q1", MinMS: 10, Rows: 2, Check: "differs at row 1"},
		{Engine: "cpu", Query: "q2", Error: "function date_trunc does not exist\nmore"},
	}
	var b bytes.Buffer
	printComparison(&b, qs, [][]result{cpu}, d)
	out := b.String()
	for _, want := range []string{
		"0.50x",       // q0: 10 / 20
		"4.00x",       // q1: 40 / 10
		"hot sum (2)", // q2 failed on cpu
		"30.0",        // cpu's sum over q0 and q1
		"50.0",        // DuckDB's
		"1.67x",       // 50 / 30
		"1.41x",       // sqrt(0.5 * 4)
		"cpu: differs at row 1",
		"cpu: function date_trunc does not exist",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "more") {
		t.Errorf("an error's second line is shown:\n%s", out)
	}
}
