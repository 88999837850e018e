package parse_test

import (
	"testing"

	"github.com/gpusql/gpusql/query/parse"
)

// TestRewrite checks the text handed to tidb, and that tidb parses it.
func TestRewrite(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		// identifiers
		{"fold unquoted", `SELECT Foo, "Bar", t.BAZ FROM T`, `select foo, "Bar", t.baz from t`},
		{"quoted keeps case and quotes", `select "a""b" from "My Table"`, `select "a""b" from "My Table"`},
		{"database-qualified relations", `SELECT x.a, s.t.c FROM "Db"."public"."m1" x JOIN db.public.t2 ON x.a = s.t.c, db.pg_temp.t3 WHERE a.b.c = 1`,
			"select x.a, s.t.c from \"Db\x1fpublic\".\"m1\" x join \"db\x1fpublic\".t2 on x.a = s.t.c, \"db\x1fpg_temp\".t3 where a.b.c = 1"},
		{"database-qualified in a subquery", `select * from (select 1 from d.public.t) q`, "select * from (select 1 from \"d\x1fpublic\".t) q"},
		{"tidb-only reserved names quoted", `select key, range, mod(a, 2), t.index from t`, `select "key", "range", __gpusql_mod(a, 2), t."index" from t`},

		// literals
		{"string with doubled quote", `select 'it''s'`, `select 'it''s'`},
		{"string with :: and ;", `select 'a::int; b'`, `select 'a::int; b'`},
		{"backslash literal", `select 'a\b'`, `select 'a\b'`},
		{"escape string", `select E'it\'s\n\t\\x\101\x41\u00e9'`, "select 'it''s\n\t\\xAAé'"},
		{"escape string doubled quote", `select e'a''b'`, `select 'a''b'`},
		{"dollar quote", `select $$it's ; -- not a comment$$`, `select 'it''s ; -- not a comment'`},
		{"tagged dollar quote", `select $fn$a $$ b$fn$`, `select 'a $$ b'`},
		{"comments dropped", "select /* a; /* nested; */ b */ 1 -- x;\n, 2", `select 1, 2`},
		{"parameter", `select a from t where b = $1 and c = $12`, `select a from t where b = __gpusql_param(1) and c = __gpusql_param(12)`},

		// :: casts
		{"cast column", `select a::int from t`, `select __gpusql_cast(a, 'integer') from t`},
		{"cast qualified", `select t.a::bigint from t`, `select __gpusql_cast(t.a, 'bigint') from t`},
		{"cast chained", `select x::text::int from t`, `select __gpusql_cast(__gpusql_cast(x, 'text'), 'integer') from t`},
		{"cast binds tighter than +", `select a + b::int from t`, `select a + __gpusql_cast(b, 'integer') from t`},
		{"cast binds tighter than unary minus", `select -1::int`, `select - __gpusql_cast(1, 'integer')`},
		{"cast group", `select (a + b)::numeric(10,2) from t`, `select __gpusql_cast((a + b), 'numeric(10,2)') from t`},
		{"cast function call", `select sum(a)::float8, lower(s)::varchar(3) from t`, `select __gpusql_cast(sum(a), 'double precision'), __gpusql_cast(lower(s), 'character varying(3)') from t`},
		{"cast window call", `select rank() over (order by a)::text, sum(a) over w::int from t window w as (order by a)`,
			`select __gpusql_cast(rank() over (order by a), 'text'), __gpusql_cast(sum(a) over w, 'integer') from t window w as (order by a)`},

		// derived tables
		{"values in from", `select * from (values (1, 'a'), (2, 'b')) v`, `select * from (select 1 as "column1", 'a' as "column2" union all select 2, 'b') v`},
		{"derived column aliases", `select * from (select a, b from t) as s (x, "Y")`,
			`select * from(with "__gpusql_derived_s" (x, "Y") as (select a, b from t) select * from "__gpusql_derived_s") as "s"`},
		{"cast inside function args", `select coalesce(a::text, 'x') from t`, `select coalesce(__gpusql_cast(a, 'text'), 'x') from t`},
		{"cast in IN list", `select a from t where a in (1::int, '2'::int)`, `select a from t where a in (__gpusql_cast(1, 'integer'), __gpusql_cast('2', 'integer'))`},
		{"cast in ORDER BY", `select a from t order by a::text`, `select a from t order by __gpusql_cast(a, 'text')`},
		{"cast multi-word types", `select a::double precision, b::character varying, c::timestamp without time zone, d::character(2) from t`,
			`select __gpusql_cast(a, 'double precision'), __gpusql_cast(b, 'character varying'), __gpusql_cast(c, 'timestamp without time zone'), __gpusql_cast(d, 'character(2)') from t`},
		{"cast string literal", `select '2024-01-02'::date`, `select __gpusql_cast('2024-01-02', 'date')`},
		{"cast null and bool", `select null::int, true::text`, `select __gpusql_cast(null, 'integer'), __gpusql_cast(true, 'text')`},
		{"cast case", `select case when a then 1 else 2 end::text from t`, `select __gpusql_cast(case when a then 1 else 2 end, 'text') from t`},
		{"cast nested case", `select case when a then case when b then 1 end end::int from t`, `select __gpusql_cast(case when a then case when b then 1 end end, 'integer') from t`},
		{"cast quoted column", `select "A"::int from t`, `select __gpusql_cast("A", 'integer') from t`},
		{"cast pg_catalog type", `select a::pg_catalog.int4 from t`, `select __gpusql_cast(a, 'integer') from t`},
		{"cast then operator", `select a::int4 * 2 from t where a::int > 1`, `select __gpusql_cast(a, 'integer') * 2 from t where __gpusql_cast(a, 'integer') > 1`},
		{"rows, row, range, groups, partition as names", `select rows, row, range, groups, partition, t.rows from t order by rows`,
			`select "rows", "row", "range", "groups", "partition", t."rows" from t order by "rows"`},
		{"window words stay keywords", `select sum(a) over (partition by b order by c rows between unbounded preceding and current row) from t`,
			`select sum(a) over (partition by b order by c rows between unbounded preceding and current row) from t`},
		{"cast unreserved-keyword column", `select first::text, last from t`, `select __gpusql_cast(first, 'text'), last from t`},
		{"cast param", `select $1::int`, `select __gpusql_cast(__gpusql_param(1), 'integer')`},

		// CAST(...)
		{"CAST", `select cast(a as int) from t`, `select __gpusql_cast(a, 'integer') from t`},
		{"CAST pg types", `select CAST(a AS double precision), cast(b as text), cast(c as int8) from t`,
			`select __gpusql_cast(a, 'double precision'), __gpusql_cast(b, 'text'), __gpusql_cast(c, 'bigint') from t`},
		{"CAST nested", `select cast(cast(a as int) as text) from t`, `select __gpusql_cast(__gpusql_cast(a, 'integer'), 'text') from t`},
		{"CAST of ::", `select cast(a::int + 1 as numeric(5,1)) from t`, `select __gpusql_cast(__gpusql_cast(a, 'integer') + 1, 'numeric(5,1)') from t`},
		{"CAST then ::", `select cast(a as int)::text from t`, `select __gpusql_cast(__gpusql_cast(a, 'integer'), 'text') from t`},

		// typed literals
		{"DATE literal", `select DATE '2024-01-02'`, `select __gpusql_cast('2024-01-02', 'date')`},
		{"TIMESTAMP literal", `select timestamp '2024-01-02 03:04:05'`, `select __gpusql_cast('2024-01-02 03:04:05', 'timestamp without time zone')`},
		{"TIMESTAMP WITHOUT TIME ZONE literal", `select timestamp without time zone '2024-01-02'`, `select __gpusql_cast('2024-01-02', 'timestamp without time zone')`},
		{"INTERVAL literal", `select interval '1 day 2 hours'`, `select __gpusql_cast('1 day 2 hours', 'interval')`},
		{"INTERVAL with unit", `select INTERVAL '3' DAY, interval '2' month`, `select __gpusql_cast('3', 'interval day'), __gpusql_cast('2', 'interval month')`},
		{"AT TIME ZONE", `select ts at time zone 'UTC', t::timestamp AT TIME ZONE z + 1, -x at time zone 'a' at time zone 'b' from t`,
			`select __gpusql_at_zone(ts, 'UTC'), __gpusql_at_zone(__gpusql_cast(t, 'timestamp without time zone'), z) + 1, __gpusql_at_zone(__gpusql_at_zone(- x, 'a'), 'b') from t`},
		{"AT TIME ZONE an interval", `select now() at time zone interval '+05:00'`, `select __gpusql_at_zone(now(), __gpusql_cast('+05:00', 'interval'))`},
		{"named arguments", `select make_interval(days => 10, hours => 2 + 1)`, `select make_interval(__gpusql_named('days', 10), __gpusql_named('hours', 2 + 1))`},
		{"INTERVAL with a field range", `select interval '1 2' year to month, interval '1' second(2)`, `select __gpusql_cast('1 2', 'interval year to month'), __gpusql_cast('1', 'interval second(2)')`},
		{"other typed literals", `select integer '5', numeric '1.5', bool 't'`, `select __gpusql_cast('5', 'integer'), __gpusql_cast('1.5', 'numeric'), __gpusql_cast('t', 'boolean')`},
		{"date arithmetic", `select d + interval '1 day', date '2024-01-01' + 7 from t`, `select d + __gpusql_cast('1 day', 'interval'), __gpusql_cast('2024-01-01', 'date') + 7 from t`},
		{"typed literal then ::", `select date '2024-01-01'::text`, `select __gpusql_cast(__gpusql_cast('2024-01-01', 'date'), 'text')`},
		{"date column is not a literal", `select date, date(x) from t`, `select date, date(x) from t`},

		// EXTRACT
		{"extract year", `select extract(year from d) from t`, `select __gpusql_extract('year', d) from t`},
		{"extract units", `select extract(EPOCH from ts), extract(dow from d), extract(doy from d), extract(quarter from d), extract(hour from ts), extract(minute from ts), extract(second from ts) from t`,
			`select __gpusql_extract('epoch', ts), __gpusql_extract('dow', d), __gpusql_extract('doy', d), __gpusql_extract('quarter', d), __gpusql_extract('hour', ts), __gpusql_extract('minute', ts), __gpusql_extract('second', ts) from t`},
		{"extract string field and expr", `select extract('Month' from d + 1) from t`, `select __gpusql_extract('month', d + 1) from t`},
		{"extract of cast", `select extract(year from '2024-05-01'::date)`, `select __gpusql_extract('year', __gpusql_cast('2024-05-01', 'date'))`},

		// ORDER BY ... NULLS
		{"nulls first", `select a from t order by a nulls first`, `select a from t order by __gpusql_nulls_first(a)`},
		{"nulls last desc", `select a from t order by a desc nulls last, b`, `select a from t order by __gpusql_nulls_last(a) desc, b`},
		{"nulls position", `select a, b from t order by 2 nulls last, 1 asc nulls first`, `select a, b from t order by __gpusql_nulls_last(2), __gpusql_nulls_first(1) asc`},
		{"nulls expr then limit", `select a from t order by a + b desc nulls first limit 3`, `select a from t order by __gpusql_nulls_first(a + b) desc limit 3`},
		{"nulls in subquery group", `select * from (select a from t order by a nulls first) s`, `select * from (select a from t order by __gpusql_nulls_first(a)) s`},
		{"nulls on union", `select a from t union select b from u order by 1 nulls first`, `select a from t union select b from u order by __gpusql_nulls_first(1)`},

		// IS [NOT] DISTINCT FROM
		{"is distinct", `select a is distinct from b from t`, `select __gpusql_is_distinct(a, b) from t`},
		{"is not distinct", `select * from t where a is not distinct from null`, `select * from t where not __gpusql_is_distinct(a, null)`},
		{"is distinct arithmetic operands", `select a + 1 is distinct from b * 2 from t`, `select __gpusql_is_distinct(a + 1, b * 2) from t`},
		{"is distinct unary minus", `select -a is distinct from -1 from t`, `select __gpusql_is_distinct(- a, - 1) from t`},
		{"is distinct with and", `select * from t where x = 1 and a is not distinct from b or c`, `select * from t where x = 1 and not __gpusql_is_distinct(a, b) or c`},
		{"is distinct casts and calls", `select lower(a)::text is distinct from 'x'::text from t`, `select __gpusql_is_distinct(__gpusql_cast(lower(a), 'text'), __gpusql_cast('x', 'text')) from t`},
		{"is distinct parenthesised", `select (a = b) is distinct from (c < d) from t`, `select __gpusql_is_distinct((a = b), (c < d)) from t`},

		// LIMIT / OFFSET / FETCH
		{"offset alone", `select a from t offset 5`, `select a from t limit 18446744073709551615 offset 5`},
		{"offset rows", `select a from t offset 5 rows`, `select a from t limit 18446744073709551615 offset 5`},
		{"limit all", `select a from t limit all`, `select a from t`},
		{"limit all offset", `select a from t limit all offset 2`, `select a from t limit 18446744073709551615 offset 2`},
		{"offset before limit", `select a from t offset 2 limit 3`, `select a from t limit 3 offset 2`},
		{"fetch first", `select a from t fetch first 3 rows only`, `select a from t limit 3`},
		{"fetch next row", `select a from t offset 1 row fetch next row only`, `select a from t limit 1 offset 1`},
		{"limit offset unchanged", `select a from t order by a limit 10 offset 20`, `select a from t order by a limit 10 offset 20`},
		{"limit in subquery", `select * from (select a from t offset 1) s limit 1`, `select * from (select a from t limit 18446744073709551615 offset 1) s limit 1`},

		// things tidb parses natively are left alone
		{"ilike", `select a from t where a ilike 'x%' and b not ilike 'y'`, `select a from t where a ilike 'x%' and b not ilike 'y'`},
		{"substring", `select substring(s from 2 for 3), substring(s, 1, 2) from t`, `select substring(s from 2 for 3), substring(s, 1, 2) from t`},
		{"concat", `select a || 'x' from t`, `select a || 'x' from t`},
		{"operators", `select a<>b, a!=b, a<=-1, 5%2 from t`, `select a <> b, a != b, a <= - 1, 5 % 2 from t`},
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
			stmts, err := parse.Parse(tt.in)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.in, err)
			}
			if len(stmts) != 1 {
				t.Fatalf("Parse(%q): %d statements", tt.in, len(stmts))
			}
			if _, ok := stmts[0].(*parse.Select); !ok {
				t.Fatalf("Parse(%q): %T, want *parse.Select", tt.in, stmts[0])
			}
		})
	}
}
