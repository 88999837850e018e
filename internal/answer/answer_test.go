package answer_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/internal/answer"
)

func TestCompare(t *testing.T) {
	// ORDER BY c DESC LIMIT 4 (c is column 2): the 3s tie and LIMIT cuts
	// them; the 5s tie inside the output.
	const sql = "SELECT k, c FROM t GROUP BY k ORDER BY c DESC LIMIT 4"
	const want = "a|5\nb|5\nc|3\nd|3\n"
	keys := []int{1}
	for _, c := range []struct {
		name, sql, got string
		keys           []int
		listed         bool
		want           string // a prefix of the result
	}{
		{"same bytes", sql, want, keys, true, "ok"},
		{"char padding and digits", sql, "a   |5.0000000000001\nb|5\nc|3\nd|3\n", keys, true, "ok (equal but"},
		{"ties in another order", sql, "b|5\na|5\nd|3\nc|3\n", keys, true, "ok (ties in another order)"},
		{"another row of the cut tie", sql, "a|5\nb|5\nc|3\ne|3\n", keys, true, "ok (other rows of a tie"},
		{"another row inside", sql, "a|5\ne|5\nc|3\nd|3\n", keys, true, "differs in rows 1 to 2"},
		{"keys differ", sql, "a|5\nb|5\nc|3\nd|2\n", keys, true, "differs at row 4: ORDER BY column 2"},
		{"a row missing", sql, "a|5\nb|5\nc|3\n", keys, true, "differs: 3 rows"},
		{"no LIMIT: the last tie is whole", "SELECT k, c FROM t ORDER BY c DESC", "a|5\nb|5\nc|3\ne|3\n", keys, true, "differs in rows 3 to 4"},
		{"OFFSET cuts the first tie", sql + " OFFSET 1", "e|5\nb|5\nc|3\nf|3\n", keys, true, "ok (other rows"},
		{"unlisted: another order", sql, "d|3\nc|3\nb|5\na|5\n", nil, false, "ok (rows in another order)"},
		{"unlisted: another row", sql, "a|5\nb|5\nc|3\ne|3\n", nil, false, "differs at row 4: field 1"},
		{"no ORDER BY: any rows", "SELECT k FROM t LIMIT 4", "a|1\nb|1\nx|1\ny|1\n", []int{}, true, "ok (other rows"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := answer.Compare(c.sql, c.got, want, c.keys, c.listed, 1e-9); !strings.HasPrefix(got, c.want) {
				t.Errorf("Compare = %q, want %q...", got, c.want)
			}
		})
	}
}

func TestReadOrderKeys(t *testing.T) {
	p := filepath.Join(t.TempDir(), "keys.txt")
	if err := os.WriteFile(p, []byte("# comment\nq08 2\nq33 3,1 # two\nq17 -\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	k, err := answer.ReadOrderKeys(p)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(k["q08"], []int{1}) || !slices.Equal(k["q33"], []int{2, 0}) || len(k) != 3 {
		t.Errorf("keys %v", k)
	}
	if cols, ok := k["q17"]; !ok || len(cols) != 0 {
		t.Errorf("q17: %v", k)
	}
	if err := os.WriteFile(p, []byte("q08 x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := answer.ReadOrderKeys(p); err == nil {
		t.Error("a bad column was accepted")
	}
}
