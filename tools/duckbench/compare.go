package main

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Comparison of a result with a reference answer in the same text format
// (testdata/tpch/README.md): fields equal after trailing blanks are
// removed (PostgreSQL pads char(n), DuckDB does not), or both numbers
// equal to within tol relative (an avg or a quotient has other digits in
// another engine).

// compareAnswer returns "" when got (formatted rows) agrees with want
// (the answer file's content), or why not. Rows are compared in order
// first; if that fails but they agree once both sides are sorted, it
// says so, since rows whose ORDER BY keys tie may come in any order.
func compareAnswer(got, want string, tol float64) string {
	g, w := splitRows(got), splitRows(want)
	if len(g) != len(w) {
		return fmt.Sprintf("%d rows, answer has %d", len(g), len(w))
	}
	first := ""
	for i := range g {
		if d := compareRow(g[i], w[i], tol); d != "" {
			first = fmt.Sprintf("row %d: %s", i+1, d)
			break
		}
	}
	if first == "" {
		return ""
	}
	sort := func(rows []string) []string {
		s := slices.Clone(rows)
		for i := range s {
			s[i] = trimFields(s[i])
		}
		slices.Sort(s)
		return s
	}
	gs, ws := sort(g), sort(w)
	for i := range gs {
		if compareRow(gs[i], ws[i], tol) != "" {
			return first
		}
	}
	return "" // same rows in another order: ties in the ORDER BY keys
}

func splitRows(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

func trimFields(row string) string {
	f := strings.Split(row, "|")
	for i := range f {
		f[i] = strings.TrimRight(f[i], " ")
	}
	return strings.Join(f, "|")
}

// compareRow compares one row field by field.
func compareRow(got, want string, tol float64) string {
	g, w := strings.Split(got, "|"), strings.Split(want, "|")
	if len(g) != len(w) {
		return fmt.Sprintf("%d fields, answer has %d", len(g), len(w))
	}
	for i := range g {
		if !sameField(g[i], w[i], tol) {
			return fmt.Sprintf("field %d is %q, answer has %q", i+1, g[i], w[i])
		}
	}
	return ""
}

func sameField(got, want string, tol float64) bool {
	got, want = strings.TrimRight(got, " "), strings.TrimRight(want, " ")
	if got == want {
		return true
	}
	a, errA := strconv.ParseFloat(got, 64)
	b, errB := strconv.ParseFloat(want, 64)
	if errA != nil || errB != nil {
		return false
	}
	return math.Abs(a-b) <= tol*math.Max(math.Abs(a), math.Abs(b))
}
