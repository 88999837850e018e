package parse_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/query/parse"
)

func TestCreateTable(t *testing.T) {
	col := func(name string, t engine.Type, notNull bool) engine.ColumnDef {
		return engine.ColumnDef{Name: name, Type: t, NotNull: notNull}
	}
	csv := func(path string, mod func(*engine.CSVOptions), given ...string) *parse.CSVSource {
		o := engine.DefaultCSVOptions()
		if mod != nil {
			mod(&o)
		}
		src := &parse.CSVSource{Path: path, Options: o, Format: "csv"}
		if given != nil {
			src.Given = map[string]bool{}
			for _, g := range given {
				src.Given[g] = true
			}
		}
		return src
	}
	tests := []struct {
		sql  string
		want parse.CreateTable
	}{
		{`create table t (a int)`, parse.CreateTable{Name: "t", Columns: []engine.ColumnDef{col("a", engine.Int32, false)}}},
		{`CREATE TABLE IF NOT EXISTS public.T (A INTEGER NOT NULL, "B" text NULL)`, parse.CreateTable{Name: "t", Schema: "public", IfNotExists: true,
			Columns: []engine.ColumnDef{col("a", engine.Int32, true), col("B", engine.Text, false)}}},
		{`create table pg_temp.t (a int)`, parse.CreateTable{Name: "t", Schema: "pg_temp", Columns: []engine.ColumnDef{col("a", engine.Int32, false)}}},
		{`create table pg_catalog.t (a int)`, parse.CreateTable{Name: "t", Columns: []engine.ColumnDef{col("a", engine.Int32, false)}}},
		{`create table "Sales" (amount numeric(12,2), price double precision not null, d date, ts timestamp without time zone, c char(3), v character varying(20), f float4, b boolean, s smallint, g bigint)`,
			parse.CreateTable{Name: "Sales", Columns: []engine.ColumnDef{
				col("amount", engine.NumericType(12, 2), false), col("price", engine.Float64, true), col("d", engine.Date, false),
				col("ts", engine.Timestamp, false), col("c", engine.Type{Kind: engine.KindChar, Len: 3}, false),
				col("v", engine.Type{Kind: engine.KindVarchar, Len: 20}, false), col("f", engine.Float32, false),
				col("b", engine.Bool, false), col("s", engine.Int16, false), col("g", engine.Int64, false)}}},
		{`create table t (a int) from csv '/data/t.csv'`, parse.CreateTable{Name: "t",
			Columns: []engine.ColumnDef{col("a", engine.Int32, false)}, CSV: csv("/data/t.csv", nil)}},
		{`create table t (a int, key text) from csv 'it''s.csv' with (header true, delimiter '|', null 'NA')`, parse.CreateTable{Name: "t",
			Columns: []engine.ColumnDef{col("a", engine.Int32, false), col("key", engine.Text, false)},
			CSV:     csv("it's.csv", func(o *engine.CSVOptions) { o.Header = engine.HeaderSkip; o.Delimiter = '|'; o.Null = "NA" }, "header", "delimiter", "null")}},
		{`create table t (a int) from csv 'x' (header match, on_error ignore)`, parse.CreateTable{Name: "t",
			Columns: []engine.ColumnDef{col("a", engine.Int32, false)},
			CSV:     csv("x", func(o *engine.CSVOptions) { o.Header = engine.HeaderMatch; o.OnError = engine.OnErrorIgnore }, "header", "on_error")}},
		{`create table t ()`, parse.CreateTable{Name: "t"}},
		{`create table t from csv 'x.csv'`, parse.CreateTable{Name: "t", CSV: csv("x.csv", nil)}},
		{`create table t from csv 'x.csv' with (delimiter ';')`, parse.CreateTable{Name: "t",
			CSV: csv("x.csv", func(o *engine.CSVOptions) { o.Delimiter = ';' }, "delimiter")}},
		{`create table t from parquet 'x.parquet'`, parse.CreateTable{Name: "t",
			CSV: &parse.CSVSource{Path: "x.parquet", Options: func() engine.CSVOptions {
				o := engine.DefaultCSVOptions()
				o.Format = engine.FormatParquet
				return o
			}(), Format: "parquet"}}},
	}
	for _, tt := range tests {
		st := parseOne(t, tt.sql)
		got, ok := st.(*parse.CreateTable)
		if !ok {
			t.Errorf("Parse(%q): %T", tt.sql, st)
			continue
		}
		tt.want.Text = tt.sql
		if !reflect.DeepEqual(*got, tt.want) {
			t.Errorf("Parse(%q)\n got %+v %+v\nwant %+v %+v", tt.sql, *got, got.CSV, tt.want, tt.want.CSV)
		}
	}
}

func TestDropTable(t *testing.T) {
	tests := []struct {
		sql  string
		want parse.DropTable
	}{
		{`drop table t`, parse.DropTable{Names: []string{"t"}}},
		{`DROP TABLE IF EXISTS A, "B", public.c CASCADE`, parse.DropTable{Names: []string{"a", "B", "c"}, Schemas: []string{"", "", "public"}, IfExists: true, Cascade: true}},
		{`DROP TABLE pg_temp_3.a, b`, parse.DropTable{Names: []string{"a", "b"}, Schemas: []string{"pg_temp_3", ""}}},
		{`DROP TABLE "Db".public."T"`, parse.DropTable{Names: []string{"T"}, Schemas: []string{"Db" + parse.CatalogSep + "public"}}},
		{`drop table t restrict`, parse.DropTable{Names: []string{"t"}}},
	}
	for _, tt := range tests {
		st := parseOne(t, tt.sql)
		got, ok := st.(*parse.DropTable)
		tt.want.Text = tt.sql
		if !ok || !reflect.DeepEqual(*got, tt.want) {
			t.Errorf("Parse(%q) = %+v, want %+v", tt.sql, st, tt.want)
		}
	}
}

func TestDDLErrors(t *testing.T) {
	tests := []struct {
		sql, code, msg string
		pos            int
	}{
		{`create table t (a int primary key)`, "0A000", "column constraint PRIMARY KEY is not supported by gpusql", 23},
		{`create table t (a int default 1)`, "0A000", "column constraint DEFAULT is not supported by gpusql", 23},
		{`create table t (a int, primary key (a))`, "0A000", "table constraints are not supported by gpusql", 24},
		{`create table t (a int not null null)`, "42601", `conflicting NULL/NOT NULL declarations for column "a" of table "t"`, 32},
		{`create table t (a foo)`, "42704", `type "foo" does not exist`, 19},
		{`create table t (a numeric(40,2))`, "0A000", "numeric precision 40 exceeds gpusql's maximum of 38", 19},
		{`create table t (a int,)`, "42601", `syntax error at or near ")"`, 23},
		{`create table t (select int)`, "42601", `syntax error at or near "select"`, 17},
		{`create table t (a int`, "42601", "syntax error at end of input", 22},
		{`create table t as execute p`, "0A000", "CREATE TABLE ... AS EXECUTE is not supported by gpusql", 19},
		{`create table t (a) as`, "42601", "syntax error at end of input", 22},
		{`create table t (a int) with (fillfactor=70)`, "0A000", "CREATE TABLE ... WITH is not supported by gpusql", 24},
		{`create table t (a int) from csv`, "42601", "syntax error at end of input", 32},
		{`create table t (a int) from csv 'x' with (delimiter 'ab')`, "0A000", "COPY delimiter must be a single one-byte character", 0},
		{`create table other.t (a int)`, "3F000", `schema "other" does not exist`, 14},
		{`create table pg_temp_x.t (a int)`, "3F000", `schema "pg_temp_x" does not exist`, 14},
		{`drop table a.b.c.d`, "42601", "improper qualified name (too many dotted names)", 12},
		{`drop table db.other.t`, "3F000", `schema "other" does not exist`, 12},
		{`create temp table t (a int) on commit drop`, "0A000", "ON COMMIT DELETE ROWS and ON COMMIT DROP are not supported by gpusql", 29},
		{`create table t (a int) on commit preserve rows`, "42P16", "ON COMMIT can only be used on temporary tables", 24},
		{`create materialized view v as select 1`, "0A000", "CREATE MATERIALIZED VIEW is not supported by gpusql", 1},
		{`drop table`, "42601", "syntax error at end of input", 11},
		{`drop table a b`, "42601", `syntax error at or near "b"`, 14},
		{`drop index i`, "0A000", "DROP INDEX is not supported by gpusql", 1},
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
