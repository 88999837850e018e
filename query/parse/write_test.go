package parse_test

import (
	"errors"
	"testing"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/query/parse"
)

// selectFields is the number of items in a query's select list, and of
// one-row SELECTs in a UNION ALL (VALUES).
func selectShape(n ast.Node) (rows, fields int) {
	switch n := n.(type) {
	case *ast.SelectStmt:
		return 1, len(n.Fields.Fields)
	case *ast.SetOprStmt:
		for _, s := range n.SelectList.Selects {
			r, f := selectShape(s)
			rows, fields = rows+r, f
		}
	}
	return rows, fields
}

func TestCreateTableAs(t *testing.T) {
	tests := []struct {
		sql  string
		want parse.CreateTableAs
	}{
		{`create table t as select 1`, parse.CreateTableAs{Name: "t"}},
		{`CREATE TEMP TABLE IF NOT EXISTS T (a, "B") AS SELECT 1, 2 WITH NO DATA`,
			parse.CreateTableAs{Name: "t", Temp: true, IfNotExists: true, NoData: true, Columns: []string{"a", "B"}}},
		{`create local temporary table t on commit preserve rows as with w as (select 1) select * from w with data`, parse.CreateTableAs{Name: "t", Temp: true}},
		{`create unlogged table t as table u`, parse.CreateTableAs{Name: "t"}},
		{`select a, b into t from u where a in (select 1 from v)`, parse.CreateTableAs{Name: "t", Into: true}},
		{`select * into temporary table public.t from u union select * from v`, parse.CreateTableAs{Name: "t", Into: true, Temp: true}},
		{`with w as (select 1 as a) select a into unlogged t from w`, parse.CreateTableAs{Name: "t", Into: true}},
	}
	for _, tt := range tests {
		st := parseOne(t, tt.sql)
		got, ok := st.(*parse.CreateTableAs)
		if !ok {
			t.Errorf("Parse(%q) = %T, want *parse.CreateTableAs", tt.sql, st)
			continue
		}
		if got.Query == nil || got.Text != tt.sql || got.Name != tt.want.Name || got.Temp != tt.want.Temp || got.IfNotExists != tt.want.IfNotExists ||
			got.NoData != tt.want.NoData || got.Into != tt.want.Into || len(got.Columns) != len(tt.want.Columns) {
			t.Errorf("Parse(%q) = %+v, want %+v", tt.sql, *got, tt.want)
			continue
		}
		for i := range got.Columns {
			if got.Columns[i] != tt.want.Columns[i] {
				t.Errorf("Parse(%q): columns %v, want %v", tt.sql, got.Columns, tt.want.Columns)
			}
		}
	}
}

func TestInsert(t *testing.T) {
	tests := []struct {
		sql            string
		table          string
		cols           []string
		rows, fields   int // VALUES rows (0 for a query), select items
		defaultValues  bool
		queryRows      int // one-row SELECTs of the parsed query
		wantQueryItems int
	}{
		{sql: `insert into t values (1, 'a')`, table: "t", rows: 1, fields: 2},
		{sql: `INSERT INTO public.T AS x (A, "b") VALUES (1, DEFAULT), (DEFAULT, 2), (3, (4))`, table: "t", cols: []string{"a", "b"}, rows: 3, fields: 2},
		{sql: `insert into t select * from u`, table: "t", fields: 1},
		{sql: `insert into t (a) (select a from u)`, table: "t", cols: []string{"a"}, fields: 1},
		{sql: `insert into t with w as (select 1, 2) select * from w`, table: "t", fields: 1},
		{sql: `insert into t default values`, table: "t", defaultValues: true},
	}
	for _, tt := range tests {
		st := parseOne(t, tt.sql)
		got, ok := st.(*parse.Insert)
		if !ok {
			t.Errorf("Parse(%q) = %T, want *parse.Insert", tt.sql, st)
			continue
		}
		if got.Table != tt.table || len(got.Columns) != len(tt.cols) || got.Rows != tt.rows || got.DefaultValues != tt.defaultValues {
			t.Errorf("Parse(%q) = %+v", tt.sql, *got)
			continue
		}
		for i := range tt.cols {
			if got.Columns[i] != tt.cols[i] {
				t.Errorf("Parse(%q): columns %v, want %v", tt.sql, got.Columns, tt.cols)
			}
		}
		if tt.defaultValues {
			continue
		}
		rows, fields := selectShape(got.Query.AST)
		if tt.rows > 0 && (rows != tt.rows || fields != tt.fields) {
			t.Errorf("Parse(%q): VALUES parsed as %d rows of %d, want %d of %d", tt.sql, rows, fields, tt.rows, tt.fields)
		}
	}
}

func TestViewsAndAlter(t *testing.T) {
	st := parseOne(t, `CREATE OR REPLACE TEMP VIEW V (x, "Y") AS SELECT a, b FROM t -- note`)
	v, ok := st.(*parse.CreateView)
	if !ok || v.Name != "v" || !v.Replace || !v.Temp || len(v.Columns) != 2 || v.Columns[1] != "Y" || v.QueryText != "SELECT a, b FROM t" {
		t.Errorf("CREATE VIEW: %+v", st)
	}
	st = parseOne(t, `drop view if exists a, b cascade`)
	if d, ok := st.(*parse.DropView); !ok || len(d.Names) != 2 || !d.IfExists || !d.Cascade {
		t.Errorf("DROP VIEW: %+v", st)
	}
	st = parseOne(t, `truncate table only a, b * restart identity restrict`)
	if tr, ok := st.(*parse.Truncate); !ok || len(tr.Names) != 2 || tr.Names[1] != "b" {
		t.Errorf("TRUNCATE: %+v", st)
	}
	for _, tt := range []struct {
		sql  string
		want parse.AlterRename
	}{
		{`alter table t rename to u`, parse.AlterRename{Table: "t", NewName: "u"}},
		{`ALTER TABLE IF EXISTS ONLY t RENAME COLUMN a TO "B"`, parse.AlterRename{Table: "t", IfExists: true, Column: "a", NewName: "B"}},
		{`alter view v rename a to b`, parse.AlterRename{Table: "v", View: true, Column: "a", NewName: "b"}},
	} {
		st := parseOne(t, tt.sql)
		tt.want.Text = tt.sql
		if got, ok := st.(*parse.AlterRename); !ok || *got != tt.want {
			t.Errorf("Parse(%q) = %+v, want %+v", tt.sql, st, tt.want)
		}
	}
}

func TestWriteErrors(t *testing.T) {
	tests := []struct {
		sql, code, msg string
		pos            int
	}{
		{`insert into t values (1), (1, 2)`, "42601", "VALUES lists must all be the same length", 27},
		{`insert into t values (1,)`, "42601", `syntax error at or near ")"`, 25},
		{`insert into t values (1) (2)`, "42601", `syntax error at or near "("`, 26},
		{`insert into t values`, "42601", "syntax error at end of input", 21},
		{`insert into t values (1),`, "42601", "syntax error at end of input", 26},
		{`insert into t values (1) on conflict do nothing`, "0A000", "INSERT ... ON CONFLICT is not supported by gpusql", 26},
		{`insert into t overriding system value values (1)`, "0A000", "INSERT ... OVERRIDING is not supported by gpusql", 15},
		{`insert t values (1)`, "42601", `syntax error at or near "t"`, 8},
		{`delete from t`, "0A000", "DELETE is not supported by gpusql: tables change only by loads, INSERT, TRUNCATE and DROP", 1},
		{`merge into t using u on true when matched then delete`, "0A000", "MERGE is not supported by gpusql: tables change only by loads, INSERT, TRUNCATE and DROP", 1},
		{`alter table t add column x int`, "0A000", "ALTER TABLE ... ADD is not supported by gpusql: only RENAME", 15},
		{`alter index i rename to j`, "0A000", "ALTER INDEX is not supported by gpusql", 1},
		{`alter table t rename constraint a to b`, "0A000", "ALTER TABLE ... RENAME CONSTRAINT is not supported by gpusql", 22},
		{`create view v with (security_barrier) as select 1`, "0A000", "CREATE VIEW ... WITH (options) is not supported by gpusql", 15},
		{`create view v as select 1 with local check option`, "0A000", "WITH CHECK OPTION is not supported by gpusql", 27},
		{`create view v as values (1)`, "0A000", "VALUES is not supported by gpusql", 18},
		{`select 1 into t into u`, "42601", `syntax error at or near "into"`, 17},
		{`truncate`, "42601", "syntax error at end of input", 9},
	}
	for _, tt := range tests {
		_, err := parse.Parse(tt.sql)
		var e *engine.Error
		if !errors.As(err, &e) {
			t.Errorf("Parse(%q): error %v, want *engine.Error", tt.sql, err)
			continue
		}
		if e.Code != tt.code || e.Message != tt.msg || e.Position != tt.pos {
			t.Errorf("Parse(%q) = %s %q at %d, want %s %q at %d", tt.sql, e.Code, e.Message, e.Position, tt.code, tt.msg, tt.pos)
		}
	}
}
