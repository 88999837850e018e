// Package answer compares a query's rows with a reference answer in the
// text format of psql -A -t -F '|' (testdata/tpch/README.md,
// testdata/clickbench/README.md), allowing what other engines may
// legitimately do differently: char padding, the last digits of a
// quotient, and the order and choice of rows that tie in the ORDER BY.
// cmd/gpusql-tpch and TestClickBench use it; tools/duckbench, a module of
// its own, has a copy of the same rules.
package answer

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

// Compare's rules: the rows agree when they are the answer byte for byte
// ("ok"), or else when, field by field, values are equal after trailing
// blanks are removed (char padding) or are numbers equal to within tol
// relative (another engine's avg), and rows differ only where ties allow:
//
//   - without order keys, the same rows in another order;
//   - with order keys (the output columns the query's ORDER BY sorts by,
//     from a keys file), the keys of every row equal in order, the rows of
//     each run of equal keys the same set, except the run that LIMIT cuts
//     (the last) and the one OFFSET cuts (the first), where another
//     engine may pick other rows of the tie.

// OrderKeys maps a query name to its ORDER BY columns (0-based); a query
// mapped to an empty list has no ORDER BY, so its rows are all one tie.
type OrderKeys map[string][]int

// ReadOrderKeys reads a keys file: a line per query, "q08 2" or
// "q33 3,1" (1-based output columns) or "q17 -" (no ORDER BY); # starts a
// comment.
func ReadOrderKeys(path string) (OrderKeys, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	keys := OrderKeys{}
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

// Compare compares got with want, the rows of query sql; keys are its
// order keys, and listed says whether the keys file lists it. It returns
// "ok" when they are the same bytes, "ok (...)" saying what it allowed,
// or "differs..." saying what differs. Numbers agree to within tol
// relative.
func Compare(sql, got, want string, keys []int, listed bool, tol float64) string {
	if got == want {
		return "ok"
	}
	g, w := splitRows(got), splitRows(want)
	if len(g) != len(w) {
		return fmt.Sprintf("differs: %d rows, answer has %d", len(g), len(w))
	}
	inOrder := ""
	for i := range g {
		if d := compareRow(g[i], w[i], tol); d != "" {
			inOrder = fmt.Sprintf("differs at row %d: %s", i+1, d)
			break
		}
	}
	if inOrder == "" {
		return "ok (equal but for char padding and rounding)"
	}
	if !listed {
		if sameRows(g, w, tol) {
			return "ok (rows in another order)"
		}
		return inOrder
	}
	// Keys in order.
	for i := range g {
		gf, wf := strings.Split(g[i], "|"), strings.Split(w[i], "|")
		if len(gf) != len(wf) {
			return fmt.Sprintf("differs at row %d: %d fields, answer has %d", i+1, len(gf), len(wf))
		}
		for _, k := range keys {
			if k >= len(wf) {
				return fmt.Sprintf("keys file: column %d of %d", k+1, len(wf))
			}
			if !sameField(gf[k], wf[k], tol) {
				return fmt.Sprintf("differs at row %d: ORDER BY column %d is %q, answer has %q", i+1, k+1, gf[k], wf[k])
			}
		}
	}
	limited, offset := limitRE.MatchString(sql), offsetRE.MatchString(sql)
	cut := false
	for a := 0; a < len(w); {
		b := a + 1
		for b < len(w) && sameKeys(w[a], w[b], keys) {
			b++
		}
		switch {
		case (limited && b == len(w)) || (offset && a == 0):
			if !sameRows(g[a:b], w[a:b], tol) {
				cut = true
			}
		case !sameRows(g[a:b], w[a:b], tol):
			return fmt.Sprintf("differs in rows %d to %d (equal ORDER BY keys): other rows", a+1, b)
		}
		a = b
	}
	if cut {
		return "ok (other rows of a tie that LIMIT or OFFSET cuts)"
	}
	return "ok (ties in another order)"
}

func splitRows(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
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
	norm := func(rows []string) []string {
		s := slices.Clone(rows)
		for i := range s {
			f := strings.Split(s[i], "|")
			for j := range f {
				f[j] = strings.TrimRight(f[j], " ")
			}
			s[i] = strings.Join(f, "|")
		}
		slices.Sort(s)
		return s
	}
	gs, ws := norm(g), norm(w)
	for i := range gs {
		if compareRow(gs[i], ws[i], tol) != "" {
			return false
		}
	}
	return true
}

// compareRow compares one row field by field: "" when they agree.
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
