package parse_test

import (
	"errors"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/query/parse"
)

// TestWindowRewrite checks the window syntax handed to tidb (window.go),
// and that tidb parses it.
func TestWindowRewrite(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"number offsets", `select sum(a) over (order by b rows between 2 preceding and 3 following) from t`,
			`select sum(a) over (order by b rows between interval __gpusql_frame_offset(2) microsecond preceding and interval __gpusql_frame_offset(3) microsecond following) from t`},
		{"one bound", `select sum(a) over (order by b rows 2 preceding) from t`,
			`select sum(a) over (order by b rows between interval __gpusql_frame_offset(2) microsecond preceding and current row) from t`},
		{"one bound unbounded", `select sum(a) over (order by b range unbounded preceding) from t`,
			`select sum(a) over (order by b range between unbounded preceding and current row) from t`},
		{"one bound following", `select sum(a) over (order by b groups 1 following) from t`,
			`select sum(a) over (order by b groups between interval __gpusql_frame_offset(1) microsecond following and current row) from t`},
		{"interval offset", `select count(*) over (order by d range between interval '1 day' preceding and '2 hours'::interval following) from t`,
			`select count(*) over (order by d range between interval __gpusql_frame_offset(__gpusql_cast('1 day', 'interval')) microsecond preceding and interval __gpusql_frame_offset(__gpusql_cast('2 hours', 'interval')) microsecond following) from t`},
		{"expression offset", `select sum(a) over (order by b rows between 1 + 1 preceding and current row) from t`,
			`select sum(a) over (order by b rows between interval __gpusql_frame_offset(1 + 1) microsecond preceding and current row) from t`},
		{"exclude with order by", `select sum(a) over (partition by c order by b rows between unbounded preceding and current row exclude ties) from t`,
			`select sum(a) over (partition by c order by b, __gpusql_window_exclude('ties') rows between unbounded preceding and current row) from t`},
		{"exclude without order by", `select sum(a) over (rows between unbounded preceding and unbounded following exclude current row) from t`,
			`select sum(a) over (order by __gpusql_window_exclude('current row') rows between unbounded preceding and unbounded following) from t`},
		{"exclude no others", `select sum(a) over (order by b groups between current row and current row exclude no others) from t`,
			`select sum(a) over (order by b groups between current row and current row) from t`},
		{"nulls before frame", `select sum(a) over (order by b desc nulls first range between 1 preceding and current row) from t`,
			`select sum(a) over (order by __gpusql_nulls_first(b) desc range between interval __gpusql_frame_offset(1) microsecond preceding and current row) from t`},
		{"named window", `select sum(a) over w from t window w as (order by b rows 1 preceding), v as (w)`,
			`select sum(a) over w from t window w as (order by b rows between interval __gpusql_frame_offset(1) microsecond preceding and current row), v as (w)`},
		{"filter", `select count(*) filter (where a > 1) over (order by b), sum(a + 1) filter (where c) over w, string_agg(s, ',') filter (where c) over () from t`,
			`select count(__gpusql_window_filter(a > 1, 1)) over (order by b), sum(__gpusql_window_filter(c, a + 1)) over w, group_concat(__gpusql_window_filter(c, s), ',' separator '__gpusql_string_agg') over () from t`},
		{"lag offset expression", `select lag(a, -1) over (order by b), lead(a, n + 1, 0) over (order by b), lag(a, 2, 0) over () from t`,
			`select lag(a, 1, __gpusql_lag_args(- 1)) over (order by b), lead(a, 1, __gpusql_lag_args(n + 1, 0)) over (order by b), lag(a, 2, 0) over () from t`},
		{"ntile and nth_value argument", `select ntile(2 + 1) over (), nth_value(a, n * 2) over () from t`,
			`select ntile((2 + 1)) over (), nth_value(a,(n * 2)) over () from t`},
		{"other aggregate", `select bool_and(a) over (order by b) from t`,
			`select group_concat(a separator '__gpusql_agg_bool_and') over (order by b) from t`},
		{"rows as a name", `select sum(rows) over (order by rows) from t`, `select sum("rows") over (order by "rows") from t`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parse.Rewrite(tt.in)
			if err != nil {
				t.Fatalf("Rewrite(%q): %v", tt.in, err)
			}
			if got != tt.want {
				t.Errorf("Rewrite(%q)\n got %s\nwant %s", tt.in, got, tt.want)
			}
			if _, err := parse.Parse(tt.in); err != nil {
				t.Fatalf("Parse(%q): %v", tt.in, err)
			}
		})
	}
}

// TestWindowRewriteErrors checks what the rewrite refuses, as
// PostgreSQL does.
func TestWindowRewriteErrors(t *testing.T) {
	tests := []struct{ in, code string }{
		{`select count(distinct a) over () from t`, "0A000"},
		{`select string_agg(a, ',' order by b) over () from t`, "0A000"},
		{`select sum(a) over (order by b rows between 1 preceding and 1 following exclude) from t`, "42601"},
		{`select sum(a) over (order by b rows between 1 preceding and 1 following exclude others) from t`, "42601"},
	}
	for _, tt := range tests {
		_, err := parse.Parse(tt.in)
		var e *engine.Error
		if !errors.As(err, &e) || e.Code != tt.code {
			t.Errorf("Parse(%q): %v, want SQLSTATE %s", tt.in, err, tt.code)
		}
	}
}
