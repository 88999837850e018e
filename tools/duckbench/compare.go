package main

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Comparison of a result with a reference answer in the same text format
// (testdata/tpch/README.md): fields equal after trailing blanks are
// removed (PostgreSQL pads char(n), DuckDB does not), or both numbers
// equal to within tol relative (an avg or a quotient has other digits in
// another engine). Rows may differ where ties allow: without order keys,
// the same rows may come in another order; with them (the output columns
// of the query's ORDER BY, from a keys file such as
// testdata/clickbench/keys.txt), every row's keys must equal the answer's
// in order, each run of equal keys must hold the same rows, except the run
// that LIMIT cuts (the last) and the one OFFSET cuts (the first), where
// an engine may pick other rows of the tie. cmd/gpusql-tpch compares the
// same way.

// orderKeys maps a query name to its ORDER BY columns (0-based); an empty
// list is a query with no ORDER BY, whose rows are all one tie.
type orderKeys map[string][]int

// readOrderKeys reads a keys file: a line per query, "q08 2" or
// "q33 3,1" (1-based output columns) or "q17 -" (no ORDER BY); # starts a
// comment.
func readOrderKeys(path string) (orderKeys, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	keys := orderKeys{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		if len(fields) != 2 {
			return nil, fmt.Errorf("%s:%d: want a query name and its key columns", path, n)
		}
		var cols []int
		if fields[1] != "-" {
			for _, c := range strings.Split(fields[1], ",") {
				k, err := strconv.Atoi(c)
				if err != nil || k < 1 {
					return nil, fmt.Errorf("%s:%d: bad column %q", path, n, c)
				}
				cols = append(cols, k-1)
			}
		}
		keys[fields[0]] = cols
	}
	return keys, sc.Err()
}

var (
	limitRE  = regexp.MustCompile(`(?i)\blimit\b`)
	offsetRE = regexp.MustCompile(`(?i)\boffset\b`)
)

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
	if first == "" || sameRows(g, w, tol) {
		return ""
	}
	return first
}

// compareKeyed is compareAnswer for a query (text sql) with order keys.
func compareKeyed(sql, got, want string, keys []int, tol float64) string {
	g, w := splitRows(got), splitRows(want)
	if len(g) != len(w) {
		return fmt.Sprintf("%d rows, answer has %d", len(g), len(w))
	}
	for i := range g {
		gf, wf := strings.Split(g[i], "|"), strings.Split(w[i], "|")
		if len(gf) != len(wf) {
			return fmt.Sprintf("row %d: %d fields, answer has %d", i+1, len(gf), len(wf))
		}
		for _, k := range keys {
			if k >= len(wf) {
				return fmt.Sprintf("keys file: column %d of %d", k+1, len(wf))
			}
			if !sameField(gf[k], wf[k], tol) {
				return fmt.Sprintf("row %d: ORDER BY column %d is %q, answer has %q", i+1, k+1, gf[k], wf[k])
			}
		}
	}
	limited, offset := limitRE.MatchString(sql), offsetRE.MatchString(sql)
	for a := 0; a < len(w); {
		b := a + 1
		for b < len(w) && sameKeys(w[a], w[b], keys) {
			b++
		}
		cut := (limited && b == len(w)) || (offset && a == 0)
		if !cut && !sameRows(g[a:b], w[a:b], tol) {
			return fmt.Sprintf("rows %d to %d (equal ORDER BY keys): other rows", a+1, b)
		}
		a = b
	}
	return ""
}

func sameKeys(a, b string, keys []int) bool {
	af, bf := strings.Split(a, "|"), strings.Split(b, "|")
	for _, k := range keys {
		if k >= len(af) || k >= len(bf) || strings.TrimRight(af[k], " ") != strings.TrimRight(bf[k], " ") {
			return false
		}
	}
	return true
}

// sameRows reports whether g and w hold the same rows in any order.
func sameRows(g, w []string, tol float64) bool {
	if len(g) != len(w) {
		return false
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
			return false
		}
	}
	return true
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
