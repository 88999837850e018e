package parse_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/gpusql/gpusql/query/parse"
)

// TestSplit checks how a query string splits into statements.
func TestSplit(t *testing.T) {
	tests := []struct {
		name, sql string
		want      []string // "Type: text"
	}{
		{"empty", ``, nil},
		{"whitespace", " \n\t ", nil},
		{"only semicolons", ";;; ;", nil},
		{"only comments", "-- a; b\n/* c; /* d; */ */", nil},
		{"one", `select 1`, []string{"*parse.Select: select 1"}},
		{"trailing semicolon", `select 1;`, []string{"*parse.Select: select 1"}},
		{"two", `select 1; select 2`, []string{"*parse.Select: select 1", "*parse.Select: select 2"}},
		{"empty between", `select 1;;  ; select 2;`, []string{"*parse.Select: select 1", "*parse.Select: select 2"}},
		{"semicolon in string", `select 'a;b'; select 'it''s;'`, []string{"*parse.Select: select 'a;b'", "*parse.Select: select 'it''s;'"}},
		{"semicolon in identifier", `select 1 as "a;b"; select 2`, []string{`*parse.Select: select 1 as "a;b"`, "*parse.Select: select 2"}},
		{"semicolon in comments", "select 1 -- x; y\n; select /* ; /* ; */ ; */ 2", []string{"*parse.Select: select 1", "*parse.Select: select /* ; /* ; */ ; */ 2"}},
		{"semicolon in dollar quote", `select $$a;b$$; select $x$;$$;$x$`, []string{"*parse.Select: select $$a;b$$", "*parse.Select: select $x$;$$;$x$"}},
		{"semicolon in escape string", `select E'a\';b'; select 1`, []string{`*parse.Select: select E'a\';b'`, "*parse.Select: select 1"}},
		{"leading comment not in text", "-- hello\nselect 1 -- bye", []string{"*parse.Select: select 1"}},
		{"mixed", "create table t (a int); copy t from stdin csv; select a from t; drop table t",
			[]string{"*parse.CreateTable: create table t (a int)", "*parse.Copy: copy t from stdin csv", "*parse.Select: select a from t", "*parse.DropTable: drop table t"}},
		{"session", "begin; set x = 1; show x; reset x; commit",
			[]string{"*parse.Transaction: begin", "*parse.Set: set x = 1", "*parse.Show: show x", "*parse.Reset: reset x", "*parse.Transaction: commit"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stmts, err := parse.Parse(tt.sql)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.sql, err)
			}
			var got []string
			for _, s := range stmts {
				got = append(got, fmt.Sprintf("%T: %s", s, s.SQL()))
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Parse(%q)\n got %q\nwant %q", tt.sql, got, tt.want)
			}
		})
	}
}

// TestParseIsReentrant parses from many goroutines at once (run with -race).
func TestParseIsReentrant(t *testing.T) {
	done := make(chan error)
	for i := 0; i < 8; i++ {
		go func(i int) {
			var err error
			for k := 0; k < 50 && err == nil; k++ {
				_, err = parse.Parse(fmt.Sprintf("select a::int + %d from t order by 1 nulls first offset %d", i, k))
			}
			done <- err
		}(i)
	}
	for i := 0; i < 8; i++ {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}
