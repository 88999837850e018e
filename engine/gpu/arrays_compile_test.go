package gpu

import (
	"context"
	"math/rand"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/cpu"
	"github.com/gpusql/gpusql/query"
)

// arraySession is a CPU session over an empty table ar (the device
// test's columns) that records the plans it runs.
func arraySession(t *testing.T) (*planRecorder, func(string) error, []*Column) {
	rec, exec := recordingSession(t, "", `CREATE TABLE ar (id bigint, a text, g boolean, s text, d varchar(4), x text, i integer, c char(3))`)
	cols := []*Column{{Type: engine.Int64}, {Type: engine.Text, Width: 40}, {Type: engine.Bool}, {Type: engine.Text, Width: 30},
		{Type: engine.Type{Kind: engine.KindVarchar, Len: 4}, Width: 4}, {Type: engine.Text, Width: 8}, {Type: engine.Int32},
		{Type: engine.Type{Kind: engine.KindChar, Len: 3}, Width: 3}}
	return rec, exec, cols
}

// TestArraysCompile binds the array functions over ar's columns and
// checks that they compile to register programs (TestArraysMatchCPU runs
// them on a device), and that char(n) arrays stay on the host.
func TestArraysCompile(t *testing.T) {
	rec, exec, cols := arraySession(t)
	cases := []struct {
		sql string
		ok  bool
	}{
		{`SELECT string_to_array(s, d), string_to_array(s, NULL), string_to_array(s, ''), string_to_array(x, 'ab') FROM ar`, true},
		{`SELECT array_length(a, 1), array_upper(a, i), array_lower(a, 1), a[1], a[i] FROM ar`, true},
		{`SELECT x = ANY (a), x <> ALL (a), array_to_string(a, d), array_to_string(a, ',', x) FROM ar`, true},
		{`SELECT a || ARRAY(SELECT 'z'), upper(a[2]), array_to_string(string_to_array(s, d), '|') FROM ar`, true},
		{`SELECT string_to_array(c, ',') FROM ar`, false},
		{`SELECT c[1] FROM ar`, false},
	}
	for _, tc := range cases {
		rec.plan = nil
		if err := exec(tc.sql); err != nil {
			t.Fatalf("%s: %v", tc.sql, err)
		}
		if rec.plan == nil {
			t.Fatalf("%s: no plan ran", tc.sql)
		}
		c := &compiler{p: newProgram(), cols: cols}
		_, err := c.compileOutputs(rec.plan.Project, 0)
		if tc.ok && err != nil || !tc.ok && engine.Code(err) != engine.CodeFeatureNotSupported {
			t.Errorf("%s: %v", tc.sql, err)
		}
	}
}

// TestArrayWidths checks stringToArrayWidth and arrayToStringWidth
// against the CPU backend's results (constant arguments fold through the
// same functions) over random strings of the characters that cost the
// most (quotes, backslashes, blanks, braces, commas, NULL spellings,
// multibyte characters), and the worst cases: a bound no result passes.
func TestArrayWidths(t *testing.T) {
	srv, err := query.NewServer(query.Options{FileRoot: t.TempDir(), DataDir: t.TempDir(), Backend: cpu.New(nil, 1)})
	if err != nil {
		t.Fatal(err)
	}
	s, err := srv.NewSession(engine.SessionParams{User: "t", Database: "t"})
	if err != nil {
		t.Fatal(err)
	}
	one := func(q string) string {
		var w oneValue
		if err := s.Query(context.Background(), q, &w); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return w.v
	}
	lit := func(v string) string { return "'" + strings.ReplaceAll(v, "'", "''") + "'" }
	alphabet := []string{`"`, `\`, " ", "{", "}", ",", "n", "u", "l", "N", "é", "日", "\t", "a", "🙂"}
	rng := rand.New(rand.NewSource(1))
	delims := []string{"NULL", "''", "','", "'\"'", "' '", "'ab'", `'\'`}
	for k := 0; k < 300; k++ {
		var b strings.Builder
		for n := rng.Intn(12); n > 0; n-- {
			b.WriteString(alphabet[rng.Intn(len(alphabet))])
		}
		if k < len(alphabet) { // the worst cases: one expensive character repeated
			b.Reset()
			b.WriteString(strings.Repeat(alphabet[k], 9))
		}
		v := b.String()
		for _, d := range delims {
			arr := one(`SELECT string_to_array(` + lit(v) + `, ` + d + `)`)
			dc := &engine.Const{T: engine.Text, Null: d == "NULL", S: strings.Trim(d, "'")}
			if w := stringToArrayWidth(len(v), dc); len(arr) > w {
				t.Errorf("string_to_array(%q, %s) = %q: %d bytes, bound %d", v, d, arr, len(arr), w)
			}
			if w := stringToArrayWidth(len(v), &engine.ColRef{T: engine.Text}); len(arr) > w {
				t.Errorf("string_to_array(%q, column %s) = %q: %d bytes, bound %d", v, d, arr, len(arr), w)
			}
			for _, sep := range []string{"", "--", "|"} {
				for _, ns := range []string{"", "NULL", "nil!"} {
					q := `SELECT array_to_string(` + lit(arr) + `, ` + lit(sep)
					if ns != "" {
						q += `, ` + lit(ns)
					}
					got := one(q + `)`)
					if w := arrayToStringWidth(len(arr), len(sep), len(ns)); len(got) > w {
						t.Errorf("%s) = %q: %d bytes, bound %d", q, got, len(got), w)
					}
				}
			}
		}
	}
	// the bounds are reached: every element a quoted, escaped character
	if got, w := one(`SELECT string_to_array('""""', NULL)`), stringToArrayWidth(4, &engine.Const{T: engine.Text, Null: true}); len(got) != w-1 {
		t.Errorf("string_to_array of 4 quotes: %q, bound %d", got, w)
	}
	if got, w := one(`SELECT string_to_array(',,,,', ',')`), stringToArrayWidth(4, &engine.Const{T: engine.Text, S: ","}); len(got) != w {
		t.Errorf("string_to_array of commas: %q, bound %d", got, w)
	}
}

// oneValue keeps the first column of the last row.
type oneValue struct{ v string }

func (*oneValue) Describe([]engine.ResultColumn) error { return nil }
func (o *oneValue) Row(r [][]byte) error               { o.v = string(r[0]); return nil }
func (*oneValue) Complete(string) error                { return nil }
func (*oneValue) Notice(engine.Notice) error           { return nil }
func (*oneValue) EmptyQuery() error                    { return nil }
