package main

import (
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
