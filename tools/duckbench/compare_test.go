package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestCompareAnswer(t *testing.T) {
	const answer = "GERMANY                  |25.5751546114546921|0.000000000000000000000000\n" +
		"FRANCE                   |2|1\n"
	for _, c := range []struct {
		name, got, want string // want: "" or a substring of the difference
	}{
		{"char padding and float digits", "GERMANY|25.575154611454693|0\nFRANCE|2|1\n", ""},
		{"rows tied in another order", "FRANCE|2|1\nGERMANY|25.575154611454693|0\n", ""},
		{"a number off", "GERMANY|25.58|0\nFRANCE|2|1\n", `row 1: field 2 is "25.58"`},
		{"a text off", "GERMANY|25.5751546114546921|0\nSPAIN|2|1\n", `row 2: field 1 is "SPAIN"`},
		{"a row missing", "GERMANY|25.5751546114546921|0\n", "1 rows, answer has 2"},
		{"a field missing", "GERMANY|25.5751546114546921\nFRANCE|2\n", "2 fields, answer has 3"},
		{"leading blanks count", " GERMANY|25.5751546114546921|0\nFRANCE|2|1\n", "field 1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := compareAnswer(c.got, answer, 1e-9)
			if (c.want == "") != (d == "") || !strings.Contains(d, c.want) {
				t.Errorf("compareAnswer = %q, want %q", d, c.want)
			}
		})
	}
	// An empty line is one row with one NULL field (Q17 at SF 0.01).
	if d := compareAnswer("\n", "\n", 1e-9); d != "" {
		t.Errorf("NULL row: %s", d)
	}
	if d := compareAnswer("", "\n", 1e-9); d == "" {
		t.Error("no rows matched one NULL row")
	}
}

func TestParseLoad(t *testing.T) {
	l, err := parseLoad("t=schema.sql:data/t.csv")
	if err != nil || l != (tableLoad{Table: "t", Schema: "schema.sql", File: "data/t.csv"}) {
		t.Errorf("parseLoad = %+v, %v", l, err)
	}
	l, err = parseLoad("t=t.csv")
	if err != nil || l != (tableLoad{Table: "t", File: "t.csv"}) {
		t.Errorf("parseLoad = %+v, %v", l, err)
	}
	for _, bad := range []string{"t", "=x.csv", "t="} {
		if _, err := parseLoad(bad); err == nil {
			t.Errorf("parseLoad(%q) accepted", bad)
		}
	}
}

func TestCompareKeyed(t *testing.T) {
	// ORDER BY c DESC LIMIT 4 (c is column 2): the 3s tie and LIMIT cuts
	// them, the 5s tie inside the output.
	const sql = "SELECT k, c FROM t GROUP BY k ORDER BY c DESC LIMIT 4"
	const answer = "a|5\nb|5\nc|3\nd|3\n"
	for _, c := range []struct {
		name, sql, got, want string // want: "" or a substring of the difference
	}{
		{"same", sql, answer, ""},
		{"ties in another order", sql, "b|5\na|5\nd|3\nc|3\n", ""},
		{"another row of the cut tie", sql, "a|5\nb|5\nc|3\ne|3\n", ""},
		{"another row inside", sql, "a|5\ne|5\nc|3\nd|3\n", "rows 1 to 2"},
		{"keys differ", sql, "a|5\nb|5\nc|3\nd|2\n", "ORDER BY column 2"},
		{"no LIMIT: the last tie is whole", "SELECT k, c FROM t ORDER BY c DESC", "a|5\nb|5\nc|3\ne|3\n", "rows 3 to 4"},
		{"OFFSET cuts the first tie", sql + " OFFSET 1", "e|5\nb|5\nc|3\nf|3\n", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := compareAnswer(c.got, answer, 1e-9)
			if d != "" {
				d = compareKeyed(c.sql, c.got, answer, []int{1}, 1e-9)
			}
			if (c.want == "") != (d == "") || !strings.Contains(d, c.want) {
				t.Errorf("compare = %q, want %q", d, c.want)
			}
		})
	}
	// No ORDER BY (no keys): any rows.
	if d := compareKeyed("SELECT k FROM t LIMIT 2", "x\ny\n", "a\nb\n", nil, 1e-9); d != "" {
		t.Errorf("LIMIT without ORDER BY: %s", d)
	}
}

func TestReadOrderKeys(t *testing.T) {
	p := filepath.Join(t.TempDir(), "keys.txt")
	if err := os.WriteFile(p, []byte("# comment\nq08 2\nq33 3,1 # two\nq17 -\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	k, err := readOrderKeys(p)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(k["q08"], []int{1}) || !slices.Equal(k["q33"], []int{2, 0}) || len(k) != 3 {
		t.Errorf("keys %v", k)
	}
	if _, ok := k["q17"]; !ok {
		t.Errorf("q17 missing: %v", k)
	}
}
