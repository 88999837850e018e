package parse_test

import (
	"errors"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/query/parse"
	"github.com/pingcap/tidb/pkg/parser/ast"
)

// parseOne parses sql, which must be one statement.
func parseOne(t *testing.T, sql string) parse.Stmt {
	t.Helper()
	stmts, err := parse.Parse(sql)
	if err != nil {
		t.Fatalf("Parse(%q): %v", sql, err)
	}
	if len(stmts) != 1 {
		t.Fatalf("Parse(%q): %d statements, want 1", sql, len(stmts))
	}
	return stmts[0]
}

// collect finds the nodes of type T in n.
func collect[T ast.Node](n ast.Node) []T {
	v := &visitor[T]{}
	n.Accept(v)
	return v.found
}

type visitor[T ast.Node] struct{ found []T }

func (v *visitor[T]) Enter(n ast.Node) (ast.Node, bool) {
	if x, ok := n.(T); ok {
		v.found = append(v.found, x)
	}
	return n, false
}

func (v *visitor[T]) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// TestSelectNative checks constructs tidb parses without a rewrite.
func TestSelectNative(t *testing.T) {
	tests := []struct {
		name, sql string
		check     func(t *testing.T, n ast.StmtNode)
	}{
		{"ilike", `select a from t where a ilike 'x%' and b not ilike 'y%'`, func(t *testing.T, n ast.StmtNode) {
			ps := collect[*ast.PatternLikeOrIlikeExpr](n)
			if len(ps) != 2 || ps[0].IsLike || ps[1].IsLike || ps[0].Not || !ps[1].Not {
				t.Errorf("want ILIKE and NOT ILIKE, got %+v", ps)
			}
		}},
		{"like escape", `select a from t where a like 'x!%' escape '!'`, func(t *testing.T, n ast.StmtNode) {
			ps := collect[*ast.PatternLikeOrIlikeExpr](n)
			if len(ps) != 1 || !ps[0].IsLike || ps[0].Escape != '!' {
				t.Errorf("want LIKE ... ESCAPE '!', got %+v", ps)
			}
		}},
		{"aggregates", `select count(*), count(distinct a), sum(a), avg(a), min(a), max(a) from t`, func(t *testing.T, n ast.StmtNode) {
			as := collect[*ast.AggregateFuncExpr](n)
			if len(as) != 6 || as[0].F != "count" || !as[1].Distinct || as[1].F != "count" {
				t.Errorf("aggregates: %+v", as)
			}
		}},
		{"version", `select version()`, func(t *testing.T, n ast.StmtNode) {
			fs := collect[*ast.FuncCallExpr](n)
			if len(fs) != 1 || fs[0].FnName.L != "version" {
				t.Errorf("want version(), got %+v", fs)
			}
		}},
		{"functions", `select length(s), upper(s), lower(s), substring(s from 1 for 2), position('a' in s) from t`, func(t *testing.T, n ast.StmtNode) {
			if fs := collect[*ast.FuncCallExpr](n); len(fs) != 5 {
				t.Errorf("want 5 calls, got %d", len(fs))
			}
		}},
		{"literals", `select true, false, null, 1, 1.5, 'x'`, func(t *testing.T, n ast.StmtNode) {
			if vs := collect[ast.ValueExpr](n); len(vs) != 6 {
				t.Errorf("want 6 literals, got %d", len(vs))
			}
		}},
		{"group by having order by position", `select a, count(*) from t group by 1 having count(*) > 1 order by 2 desc`, func(t *testing.T, n ast.StmtNode) {
			s := n.(*ast.SelectStmt)
			if s.GroupBy == nil || s.Having == nil || s.OrderBy == nil || !s.OrderBy.Items[0].Desc {
				t.Errorf("clauses missing: %+v", s)
			}
		}},
		{"between in case is null", `select case when a between 1 and 2 then 'x' when b in (1, 2) then 'y' else 'z' end from t where c is null and d is not null`, func(t *testing.T, n ast.StmtNode) {
			if len(collect[*ast.BetweenExpr](n)) != 1 || len(collect[*ast.PatternInExpr](n)) != 1 ||
				len(collect[*ast.CaseExpr](n)) != 1 || len(collect[*ast.IsNullExpr](n)) != 2 {
				t.Errorf("missing nodes")
			}
		}},
		{"is true unknown and simple case", `select case a when 1 then 'x' end from t where b is not true and c is unknown and d is false`, func(t *testing.T, n ast.StmtNode) {
			if len(collect[*ast.IsTruthExpr](n)) != 2 || len(collect[*ast.IsNullExpr](n)) != 1 {
				t.Errorf("missing IS TRUE/FALSE/UNKNOWN nodes")
			}
		}},
		{"limit offset", `select a from t offset 3`, func(t *testing.T, n ast.StmtNode) {
			s := n.(*ast.SelectStmt)
			if s.Limit == nil || s.Limit.Offset == nil || s.Limit.Count == nil {
				t.Fatalf("no limit")
			}
			if c := s.Limit.Count.(ast.ValueExpr).GetValue(); c != uint64(18446744073709551615) {
				t.Errorf("count %v (%T)", c, c)
			}
		}},
		{"union", `select a from t union all select b from u`, func(t *testing.T, n ast.StmtNode) {
			if _, ok := n.(*ast.SetOprStmt); !ok {
				t.Errorf("got %T", n)
			}
		}},
		{"quoted names keep case in O", `select "MyCol" from "MyTable"`, func(t *testing.T, n ast.StmtNode) {
			cs := collect[*ast.ColumnNameExpr](n)
			ts := collect[*ast.TableName](n)
			if len(cs) != 1 || cs[0].Name.Name.O != "MyCol" || len(ts) != 1 || ts[0].Name.O != "MyTable" {
				t.Errorf("names: %+v %+v", cs, ts)
			}
		}},
		{"unquoted names folded in O", `select MyCol from public.MyTable`, func(t *testing.T, n ast.StmtNode) {
			cs := collect[*ast.ColumnNameExpr](n)
			ts := collect[*ast.TableName](n)
			if cs[0].Name.Name.O != "mycol" || ts[0].Name.O != "mytable" || ts[0].Schema.O != "public" {
				t.Errorf("names: %+v %+v", cs[0].Name, ts[0])
			}
		}},
		{"cast args", `select a::numeric(10,2) from t`, func(t *testing.T, n ast.StmtNode) {
			fs := collect[*ast.FuncCallExpr](n)
			if len(fs) != 1 || fs[0].FnName.L != "__gpusql_cast" || len(fs[0].Args) != 2 {
				t.Fatalf("calls: %+v", fs)
			}
			if v := fs[0].Args[1].(ast.ValueExpr).GetValue(); v != "numeric(10,2)" {
				t.Errorf("type arg %v", v)
			}
		}},
		{"nulls wrapper", `select a from t order by a desc nulls first`, func(t *testing.T, n ast.StmtNode) {
			it := n.(*ast.SelectStmt).OrderBy.Items[0]
			f, ok := it.Expr.(*ast.FuncCallExpr)
			if !ok || f.FnName.L != "__gpusql_nulls_first" || !it.Desc {
				t.Errorf("order item %+v", it)
			}
		}},
		{"parenthesised select", `(select a from t)`, nil},
		{"with", `with c as (select 1 as x) select x from c`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := parseOne(t, tt.sql)
			s, ok := st.(*parse.Select)
			if !ok {
				t.Fatalf("got %T", st)
			}
			if s.SQL() != tt.sql {
				t.Errorf("SQL() = %q", s.SQL())
			}
			if tt.check != nil {
				tt.check(t, s.AST)
			}
		})
	}
}

// TestErrors checks error codes, messages and positions.
func TestErrors(t *testing.T) {
	tests := []struct {
		sql, code, msg string
		pos            int
	}{
		{`select a, from t`, "42601", `syntax error at or near "from"`, 11},
		{`select a from t where`, "42601", `syntax error at end of input`, 22},
		{`select a from t where; select 1`, "42601", `syntax error at or near ";"`, 22},
		{`select 1; selec 2`, "42601", `syntax error at or near "selec"`, 11},
		{`select 'é', a b c from t`, "42601", `syntax error at or near "c"`, 17},
		{`select a::int + from t`, "42601", `syntax error at or near "from"`, 17},
		{`select (1`, "42601", `syntax error at end of input`, 10},
		{`select 1)`, "42601", `syntax error at or near ")"`, 9},
		{`select 'abc`, "42601", `unterminated quoted string at or near "'abc"`, 8},
		{`select "abc`, "42601", `unterminated quoted identifier at or near ""abc"`, 8},
		{`select 1 /* x`, "42601", `unterminated /* comment at or near "/* x"`, 10},
		{`select $$abc`, "42601", `unterminated dollar-quoted string at or near "$$abc"`, 8},
		{`select ""`, "42601", `zero-length delimited identifier at or near """"`, 8},
		{`select ::int`, "42601", `syntax error at or near "::"`, 8},
		{`select a::foo from t`, "42704", `type "foo" does not exist`, 11},
		{`select a::numeric(50,2) from t`, "0A000", `numeric precision 50 exceeds gpusql's maximum of 38`, 11},
		{`select cast(a as numeric(5,6)) from t`, "22023", `NUMERIC scale 6 must be between 0 and precision 5`, 18},
		{`select cast(a) from t`, "42601", `syntax error at or near ")"`, 14},
		{`select a ^ 2 from t`, "0A000", `operator ^ is not supported by gpusql`, 10},
		{`select a # 2 from t`, "0A000", `operator # is not supported by gpusql`, 10},
		{"select `a` from t", "42601", "syntax error at or near \"`\"", 8},
		{`select x'1f'`, "0A000", `bit-string, hex and Unicode-escape string literals are not supported by gpusql`, 8},
		{`select a from t limit 1 limit 2`, "42601", `multiple LIMIT clauses not allowed`, 25},
		{`select a from t offset 1 offset 2`, "42601", `multiple OFFSET clauses not allowed`, 26},
		{`select a from t fetch first 1 rows with ties`, "0A000", `FETCH ... WITH TIES is not supported by gpusql`, 36},
		{`select a = b is distinct from c from t`, "0A000", `IS DISTINCT FROM next to a comparison, LIKE, IN or BETWEEN needs parentheses in gpusql`, 14},
		{`select extract(year d) from t`, "42601", `syntax error at or near "d"`, 21},
		{`select a from t order by nulls first`, "42601", `syntax error at or near "nulls"`, 26},
		{`select a from t limit 5, 10`, "0A000", `LIMIT #,# syntax is not supported`, 17},
		{`select E'a\0b'`, "22021", `invalid byte sequence for encoding "UTF8": 0x00`, 8},
		{`select E'\xff'`, "22021", `invalid byte sequence for encoding "UTF8": 0xff`, 8},
		{`select a div b from t`, "42601", `syntax error at or near "b"`, 14},
		{`insert into t values (1) returning *`, "0A000", `INSERT ... RETURNING is not supported by gpusql`, 26},
		{`update t set a = 1`, "0A000", `UPDATE is not supported by gpusql: tables change only by loads, INSERT, TRUNCATE and DROP`, 1},
		{`create index i on t (a)`, "0A000", `CREATE INDEX is not supported by gpusql`, 1},
		{`create or replace materialized view v as select 1`, "0A000", `CREATE OR REPLACE MATERIALIZED VIEW is not supported by gpusql`, 1},
		{`drop materialized view v`, "0A000", `DROP MATERIALIZED VIEW is not supported by gpusql`, 1},
		{`explain insert into t values (1)`, "0A000", `INSERT is not supported by gpusql`, 9},
		{`values (1)`, "0A000", `VALUES is not supported by gpusql`, 1},
		{`hello world`, "42601", `syntax error at or near "hello"`, 1},
		{`'x'`, "42601", `syntax error at or near "'x'"`, 1},
		{`select 1; ; garbage`, "42601", `syntax error at or near "garbage"`, 13},
	}
	for _, tt := range tests {
		t.Run(tt.sql, func(t *testing.T) {
			_, err := parse.Parse(tt.sql)
			var e *engine.Error
			if !errors.As(err, &e) {
				t.Fatalf("Parse(%q) error %v (%T), want *engine.Error", tt.sql, err, err)
			}
			if e.Code != tt.code || e.Message != tt.msg || e.Position != tt.pos {
				t.Errorf("Parse(%q) = %s %q at %d, want %s %q at %d", tt.sql, e.Code, e.Message, e.Position, tt.code, tt.msg, tt.pos)
			}
		})
	}
}
