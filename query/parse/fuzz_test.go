package parse_test

import (
	"testing"
	"unicode/utf8"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/query/parse"
)

// FuzzParse checks that Parse and ParseType never panic and that errors
// point inside the query.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`select a::int, cast(b as numeric(10,2)), date '2024-01-01' from t order by 1 desc nulls last offset 3`,
		`select a is not distinct from b + 1, extract(year from d), E'x\n', $$y$$, $1 from t fetch first 2 rows only`,
		`create table t (a int not null, b varchar(3)) from csv 'f' with (header match, delimiter '|')`,
		`copy t (a) from stdin with csv header null ''; set x to 1; show all; reset all; begin; commit`,
		`select case when a then 1 end::text, interval '3' day, (select 1 limit all) from t where a in (1::int)`,
		`drop table if exists a, b; select 'it''s ; ::' -- c ; d`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, sql string) {
		if _, err := parse.Parse(sql); err != nil {
			e, ok := err.(*engine.Error)
			if !ok || e.Message == "" || e.Code == "" {
				t.Fatalf("Parse(%q): bad error %#v", sql, err)
			}
			if e.Position < 0 || e.Position > utf8.RuneCountInString(sql)+1 {
				t.Fatalf("Parse(%q): position %d out of range", sql, e.Position)
			}
		}
		_, _ = parse.ParseType(sql)
	})
}
