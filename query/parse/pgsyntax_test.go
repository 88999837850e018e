package parse_test

import (
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/query/parse"
)

// TestPGSyntax checks the rewrites of PostgreSQL syntax used by catalog
// queries, and that tidb parses the result.
func TestPGSyntax(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"regex", `select a from t where a ~ '^x'`, `select a from t where __gpusql_regex(a, '^x', '')`},
		{"regex ci", `select a ~* 'x' from t`, `select __gpusql_regex(a, 'x', 'i') from t`},
		{"regex not", `select a from t where a !~ 'x' and b !~* 'y'`, `select a from t where(not __gpusql_regex(a, 'x', '')) and(not __gpusql_regex(b, 'y', 'i'))`},
		{"regex operands are arithmetic chains", `select a || 'b' ~ 'c' || d = true from t`, `select __gpusql_regex(a || 'b', 'c' || d, '') = true from t`},
		{"regex over casts", `select a::text ~ 'x' from t`, `select __gpusql_regex(__gpusql_cast(a, 'text'), 'x', '') from t`},
		{"OPERATOR()", `select c.relname OPERATOR(pg_catalog.~) '^(t)$' COLLATE pg_catalog.default from c`, `select __gpusql_regex(c.relname, '^(t)$', '') from c`},
		{"OPERATOR() plain", `select a OPERATOR(pg_catalog.=) b, a operator(<) b from t`, `select a = b, a < b from t`},
		{"collate quoted", `select a from t order by a collate "C"`, `select a from t order by a`},
		{"pg_catalog function", `select pg_catalog.format_type(a, b), pg_catalog.lower(x) from t`, `select format_type(a, b), lower(x) from t`},
		{"pg_catalog column kept", `select pg_catalog.pg_class.relname from pg_catalog.pg_class`, `select pg_catalog.pg_class.relname from pg_catalog.pg_class`},
		{"pg_catalog type", `select a::pg_catalog.text, cast(b as pg_catalog.int4) from t`, `select __gpusql_cast(a, 'text'), __gpusql_cast(b, 'integer') from t`},
		{"oid name char types", `select a::oid, b::name, c::"char" from t`, `select __gpusql_cast(a, 'oid'), __gpusql_cast(b, 'name'), __gpusql_cast(c, '"char"') from t`},
		{"regclass", `select 'pg_class'::regclass, c.oid::pg_catalog.regclass::pg_catalog.text from c`, `select __gpusql_regcast('pg_class', 'regclass'), __gpusql_cast(__gpusql_regcast(c.oid, 'regclass'), 'text') from c`},
		{"regtype cast()", `select cast(a as regtype) from t`, `select __gpusql_regcast(a, 'regtype') from t`},
		{"any array", `select a from t where a = ANY (ARRAY['r', 'v'])`, `select a from t where a in ('r', 'v')`},
		{"all array", `select a from t where a <> ALL (ARRAY[1,2])`, `select a from t where a not in (1, 2)`},
		{"array cast is text", `select a::int2[], cast(b as text[]), c::pg_catalog.oid[] from t`, `select __gpusql_cast(a, 'int2[]'), __gpusql_cast(b, 'text'), __gpusql_cast(c, 'oid[]') from t`},
		{"subscript", `select (current_schemas(true))[1], s[i + 1], f(x)[2] from t`, `select __gpusql_subscript((current_schemas(true)), 1), __gpusql_subscript(s, i + 1), __gpusql_subscript(f(x), 2) from t`},
		{"any over array value", `select 'd' = any(stxkind), a <> ALL (b) from t`, `select __gpusql_array_has('d', stxkind),(not __gpusql_array_has(a, b)) from t`},
		{"array subquery", `select array(select a from t order by 1)`, `select __gpusql_array_sub((select a from t order by 1))`},
		{"alias keywords quoted", `select 1 as default, n as schema from t as x`, `select 1 as "default", n as "schema" from t as "x"`},
		{"function in FROM", `select x from pg_catalog.unnest(a) x, generate_series(1, 3) AS i join f() on true`, `select x from(select __gpusql_srf('unnest', a)) x,(select __gpusql_srf('generate_series', 1, 3)) as "i" join(select __gpusql_srf('f')) on true`},
		{"any subquery kept", `select a from t where a = any (select b from u)`, `select a from t where a = any (select b from u)`},
		{"like operators", `select a from t where ((a ~~ 'x%')) and b !~~ 'y' || c or a ~~* 'z' and a !~~* 'w'`, `select a from t where (((a like 'x%'))) and(b not like 'y' || c) or(a ilike 'z') and(a not ilike 'w')`},
		{"concat function", `select concat(a, b, c), pg_catalog.concat(d), a || b from t`, `select __gpusql_concat(a, b, c), __gpusql_concat(d), a || b from t`},
		{"mod function", `select mod(a, 7), a % b, mod from t`, `select __gpusql_mod(a, 7), a % b, "mod" from t`},
		{"string_agg", `select string_agg(a, ', ') from t`, `select group_concat(a, ', ' separator '__gpusql_string_agg') from t`},
		{"string_agg order by", `select pg_catalog.string_agg(distinct a, b order by a desc nulls last) from t`, `select group_concat(distinct a, b order by __gpusql_nulls_last(a) desc separator '__gpusql_string_agg') from t`},
		{"bare user functions", `select user, current_user, session_user, current_role, current_catalog from t`, `select user(), current_user(), session_user(), current_role(), current_catalog() from t`},
		{"quoted user is a name", `select "user", t.user, 1 as user from t where "user" = user`, `select "user", t.user, 1 as "user" from t where "user" = user()`},
		{"full join", `select * from a full join b on a.x = b.y and a.z > 1 where a.x > 0`, `select * from a left join b on __gpusql_full_join(a.x = b.y and a.z > 1) where a.x > 0`},
		{"full outer join chained", `select * from a full outer join b on a.x = b.y left join c on true, d`, `select * from a left join b on __gpusql_full_join(a.x = b.y) left join c on true, d`},
		{"full join condition with left()", `select * from a full join b on left(a.s, 1) = b.s join c on true`, `select * from a left join b on __gpusql_full_join(left(a.s, 1) = b.s) join c on true`},
		{"full join using", `select * from a full join b using (x, y) join c using (z)`, `select * from a left join b on __gpusql_full_using(x, y) join c using (z)`},
		{"join conditions", `select * from a join b join c on c.x = b.x on b.y = a.y cross join d natural join e natural left outer join f inner join g using (x), h left join i on left(i.s, 1) = h.s`, `select * from a join b join c on c.x = b.x on b.y = a.y cross join d natural join e natural left outer join f inner join g using (x), h left join i on left(i.s, 1) = h.s`},
		{"natural full join", `select * from a natural full outer join b as bb, c natural full join d where true`, `select * from a left join b as "bb" on __gpusql_full_natural(), c left join d on __gpusql_full_natural() where true`},
		{"filter", `select count(*) filter (where a > 1), sum(x) FILTER (WHERE b) from t`, `select __gpusql_filter(count(*), a > 1), __gpusql_filter(sum(x), b) from t`},
		{"filter on string_agg", `select string_agg(a, ',' order by a) filter (where a <> 'x') from t`, `select __gpusql_filter(group_concat(a, ',' order by a separator '__gpusql_string_agg'), a <> 'x') from t`},
		{"pg aggregates", `select bool_and(a), pg_catalog.every(b), array_agg(distinct x order by x desc nulls first), corr(y, x), stddev(x)::text from t`, `select group_concat(a separator '__gpusql_agg_bool_and'), group_concat(b separator '__gpusql_agg_every'), group_concat(distinct x order by __gpusql_nulls_first(x) desc separator '__gpusql_agg_array_agg'), group_concat(y, x separator '__gpusql_agg_corr'), __gpusql_cast(group_concat(x separator '__gpusql_agg_stddev'), 'text') from t`},
		{"within group", `select percentile_cont(0.5) within group (order by x), mode() within group (order by y desc) from t`, `select group_concat(0.5 order by x separator '__gpusql_agg_percentile_cont'), group_concat(null order by y desc separator '__gpusql_agg_mode') from t`},
		{"rollup and grouping", `select a, grouping(a, b) from t group by rollup (a, b) having grouping(a) = 0 order by a`, `select a, __gpusql_grouping(a, b) from t group by __gpusql_rollup(a, b) having __gpusql_grouping(a) = 0 order by a`},
		{"grouping sets and cube", `select a from t group by grouping sets ((a, b), (a), ()), cube (c, (d, e)), f`, `select a from t group by __gpusql_grouping_sets((a, b), (a), __gpusql_empty_set()), __gpusql_cube(c, (d, e)), f`},
		{"empty grouping set", `select count(*) from t group by ()`, `select count(*) from t group by __gpusql_empty_set()`},
		{"distinct on", `select distinct on (a, b) a, c from t where x order by a, b, c`, `select a, c, __gpusql_distinct_on(a, b) from t where x order by a, b, c`},
		{"distinct on star", `select distinct on (a) * from t`, `select *, __gpusql_distinct_on(a) from t`},
		{"names kept", `select mode, grouping, cube, rollup, filter from t`, `select mode, grouping, cube, rollup, filter from t`},
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

func TestPGSyntaxErrors(t *testing.T) {
	tests := []struct {
		name, in, code string
	}{
		{"bad OPERATOR", `select a operator(x) b from t`, engine.CodeSyntaxError},
		{"COLLATE without name", `select a collate from t`, engine.CodeSyntaxError},
		{"regex without operand", `select ~ 'x'`, engine.CodeSyntaxError},
		{"> ANY array", `select 1 where 1 > any (array[1])`, engine.CodeFeatureNotSupported},
		{"FULL JOIN USING without columns", `select * from a full join b using where true`, engine.CodeSyntaxError},
		{"NATURAL FULL JOIN without item", `select * from a natural full join`, engine.CodeSyntaxError},
		{"JOIN without condition", `select * from a join b where true`, engine.CodeSyntaxError},
		{"INNER JOIN without condition", `select * from a inner join b, c`, engine.CodeSyntaxError},
		{"nested JOIN without outer condition", `select * from a join b join c on true`, engine.CodeSyntaxError},
		{"FULL JOIN without condition", `select * from a full join b where true`, engine.CodeSyntaxError},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parse.Parse(tt.in)
			e, ok := err.(*engine.Error)
			if !ok || e.Code != tt.code {
				t.Fatalf("Parse(%q): %v, want SQLSTATE %s", tt.in, err, tt.code)
			}
		})
	}
}
