package parse_test

import (
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/query/parse"
)

func TestFetchDirections(t *testing.T) {
	for _, tc := range []struct {
		sql   string
		dir   string
		count int64
		move  bool
	}{
		{`fetch c`, "forward", 1, false},
		{`fetch next from c`, "forward", 1, false},
		{`fetch prior in c`, "backward", 1, false},
		{`fetch first c`, "absolute", 1, false},
		{`fetch last c`, "absolute", -1, false},
		{`fetch absolute -3 c`, "absolute", -3, false},
		{`fetch relative 0 c`, "relative", 0, false},
		{`fetch relative +2 c`, "relative", 2, false},
		{`fetch 5 c`, "forward", 5, false},
		{`fetch -5 c`, "backward", 5, false},
		{`fetch all c`, "forward", -1, false},
		{`fetch forward c`, "forward", 1, false},
		{`fetch forward all c`, "forward", -1, false},
		{`fetch backward 3 c`, "backward", 3, false},
		{`move backward all in c`, "backward", -1, true},
	} {
		f, ok := parseOne(t, tc.sql).(*parse.Fetch)
		if !ok || f.Dir != tc.dir || f.Count != tc.count || f.Move != tc.move || f.Cursor != "c" {
			t.Errorf("%s: %+v", tc.sql, f)
		}
	}
	for _, sql := range []string{`fetch absolute c`, `fetch relative from c`, `fetch backward -1 c`, `fetch prior`} {
		_, err := parse.Parse(sql)
		if engine.Code(err) != engine.CodeSyntaxError {
			t.Errorf("%s: %v, want a syntax error", sql, err)
		}
	}
}
