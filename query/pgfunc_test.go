package query

import (
	"context"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/eval"
)

func ci(i int64) engine.Expr  { return &engine.Const{T: engine.Int64, I: i} }
func cs(s string) engine.Expr { return &engine.Const{T: engine.Unknown, S: s} }
func cb(b bool) engine.Expr   { return &engine.Const{T: engine.Bool, I: boolInt(b)} }
func cnull() engine.Expr      { return &engine.Const{T: engine.Unknown, Null: true} }

// Values checked on PostgreSQL 15.20 (database gpusql, user tester, the
// table t of catalogSession); "NULL" is a NULL result.
func TestCatalogFuncs(t *testing.T) {
	s := catalogSession(t)
	b := &binder{s: s}
	for _, c := range []struct {
		name string
		args []engine.Expr
		want string
		code string
	}{
		{"current_database", nil, "gpusql", ""},
		{"current_schema", nil, "public", ""},
		{"current_schemas", []engine.Expr{cb(true)}, "{pg_catalog,public}", ""},
		{"current_schemas", []engine.Expr{cb(false)}, "{public}", ""},
		{"current_user", nil, "tester", ""},
		{"current_setting", []engine.Expr{cs("DateStyle")}, "ISO, MDY", ""},
		{"current_setting", []engine.Expr{cs("nosuch"), cb(true)}, "NULL", ""},
		{"current_setting", []engine.Expr{cs("nosuch")}, "", "42704"},
		{"set_config", []engine.Expr{cs("application_name"), cs("x"), cb(false)}, "x", ""},
		{"current_setting", []engine.Expr{cs("application_name")}, "x", ""},
		{"set_config", []engine.Expr{cs("server_version"), cs("x"), cb(false)}, "", "55P02"},
		{"pg_table_is_visible", []engine.Expr{ci(1259)}, "t", ""},
		{"pg_table_is_visible", []engine.Expr{ci(13295)}, "f", ""},
		{"pg_table_is_visible", []engine.Expr{ci(16384)}, "t", ""},
		{"pg_table_is_visible", []engine.Expr{ci(99999)}, "NULL", ""},
		{"pg_table_is_visible", []engine.Expr{cnull()}, "NULL", ""},
		{"pg_type_is_visible", []engine.Expr{ci(23)}, "t", ""},
		{"pg_type_is_visible", []engine.Expr{ci(13226)}, "f", ""},
		{"format_type", []engine.Expr{ci(1043), ci(14)}, "character varying(10)", ""},
		{"format_type", []engine.Expr{ci(1042), cnull()}, "character", ""},
		{"format_type", []engine.Expr{cnull(), ci(-1)}, "NULL", ""},
		{"format_type", []engine.Expr{ci(1)}, "", "42883"},
		{"pg_get_userbyid", []engine.Expr{ci(10)}, "tester", ""},
		{"pg_get_userbyid", []engine.Expr{ci(6171)}, "pg_database_owner", ""},
		{"pg_get_userbyid", []engine.Expr{ci(99999)}, "unknown (OID=99999)", ""},
		{"has_table_privilege", []engine.Expr{cs("t"), cs("select")}, "t", ""},
		{"has_table_privilege", []engine.Expr{cs("t"), cs("SELECT, INSERT WITH GRANT OPTION")}, "t", ""},
		{"has_table_privilege", []engine.Expr{ci(99999), cs("select")}, "NULL", ""},
		{"has_table_privilege", []engine.Expr{cs("tester"), cs("t"), cs("select")}, "t", ""},
		{"has_table_privilege", []engine.Expr{cs("pg_database_owner"), cs("t"), cs("select")}, "f", ""},
		{"has_table_privilege", []engine.Expr{cs("t"), cs("foo")}, "", "22023"},
		{"has_table_privilege", []engine.Expr{cs("nosuch"), cs("select")}, "", "42P01"},
		{"has_table_privilege", []engine.Expr{cs("nobody"), cs("t"), cs("select")}, "", "42704"},
		{"has_schema_privilege", []engine.Expr{cs("public"), cs("usage")}, "t", ""},
		{"has_schema_privilege", []engine.Expr{cs("nosuch"), cs("usage")}, "", "3F000"},
		{"has_database_privilege", []engine.Expr{cs("gpusql"), cs("connect")}, "t", ""},
		{"has_column_privilege", []engine.Expr{cs("t"), cs("a"), cs("select")}, "t", ""},
		{"has_column_privilege", []engine.Expr{cs("t"), ci(99), cs("select")}, "NULL", ""},
		{"has_column_privilege", []engine.Expr{cs("t"), cs("zz"), cs("select")}, "", "42703"},
		{"has_any_column_privilege", []engine.Expr{cs("t"), cs("select")}, "t", ""},
		{"pg_get_expr", []engine.Expr{cnull(), ci(16384), cb(true)}, "NULL", ""},
		{"col_description", []engine.Expr{ci(16384), ci(1)}, "NULL", ""},
		{"obj_description", []engine.Expr{ci(16384), cs("pg_class")}, "NULL", ""},
		{"pg_encoding_to_char", []engine.Expr{ci(6)}, "UTF8", ""},
		{"pg_relation_size", []engine.Expr{cs("t")}, "0", ""},
		{"pg_total_relation_size", []engine.Expr{ci(99999)}, "NULL", ""},
		{"pg_size_pretty", []engine.Expr{ci(10239)}, "10239 bytes", ""},
		{"pg_size_pretty", []engine.Expr{ci(10240)}, "10 kB", ""},
		{"pg_size_pretty", []engine.Expr{ci(123456789)}, "118 MB", ""},
		{"pg_size_pretty", []engine.Expr{ci(20971519)}, "20 MB", ""},
		{"pg_size_pretty", []engine.Expr{ci(-123456789)}, "-118 MB", ""},
		{"pg_size_pretty", []engine.Expr{ci(1099511627776)}, "1024 GB", ""},
		{"pg_size_pretty", []engine.Expr{ci(9223372036854775807)}, "8192 PB", ""},
		{"quote_ident", []engine.Expr{cs("Foo")}, `"Foo"`, ""},
		{"quote_ident", []engine.Expr{cs("foo")}, "foo", ""},
		{"quote_ident", []engine.Expr{cs("select")}, `"select"`, ""},
		{"quote_ident", []engine.Expr{cs(`a"b`)}, `"a""b"`, ""},
		{"quote_ident", []engine.Expr{cs("1a")}, `"1a"`, ""},
		{"quote_ident", []engine.Expr{cs("_x1")}, "_x1", ""},
		{"quote_literal", []engine.Expr{cs(`a\b`)}, `E'a\\b'`, ""},
		{"format", []engine.Expr{cs("%I.%I"), cs("public"), cs("My T")}, `public."My T"`, ""},
		{"format", []engine.Expr{cs("%s-%L-%L"), ci(1), cs("it's"), cnull()}, `1-'it''s'-NULL`, ""},
		{"format", []engine.Expr{cs("%2$s %1$s"), cs("a"), cs("b")}, "b a", ""},
		{"pg_relation_is_publishable", []engine.Expr{cs("t")}, "t", ""},
		{"pg_relation_is_publishable", []engine.Expr{cs("pg_class")}, "f", ""},
		{"pg_is_other_temp_schema", []engine.Expr{ci(11)}, "f", ""},
		{"pg_my_temp_schema", nil, "0", ""},
		{"current_setting", []engine.Expr{cs("server_version_num")}, "150000", ""},
		{"array_to_string", []engine.Expr{cs(`{a,NULL,"b,c"}`), cs("/")}, "a/b,c", ""},
		{"array_to_string", []engine.Expr{cs("{a,NULL,b}"), cs("/"), cs("*")}, "a/*/b", ""},
		{"array_to_string", []engine.Expr{cnull(), cs("/")}, "NULL", ""},
		{"json_build_object", []engine.Expr{cs("a"), ci(1), cs("b"), cs("x"), cs("c"), cnull(), cs("d"), cb(true),
			cs("e"), &engine.Const{T: engine.NumericType(3, 2), D: engine.Dec{Lo: 150, Scale: 2}}, cs("f"), cs(`q"z`)},
			`{"a" : 1, "b" : "x", "c" : null, "d" : true, "e" : 1.50, "f" : "q\"z"}`, ""},
		{"json_build_object", nil, "{}", ""},
		{"to_regclass", []engine.Expr{cs("t")}, "16384", ""},
		{"to_regclass", []engine.Expr{cs("nosuch")}, "NULL", ""},
		{"to_regtype", []engine.Expr{cs("integer")}, "23", ""},
		{"to_regnamespace", []engine.Expr{cs("nosuch")}, "NULL", ""},
		{"pg_is_in_recovery", nil, "f", ""},
		{"pg_get_function_result", []engine.Expr{ci(1403)}, "name[]", ""},
		{"pg_get_function_arguments", []engine.Expr{ci(1922)}, "name, text, text", ""},
		{"pg_get_function_arguments", []engine.Expr{ci(3539)}, `text, VARIADIC "any"`, ""},
		{"pg_get_function_arguments", []engine.Expr{ci(99999)}, "NULL", ""},
	} {
		e, ok, err := b.catalogFunc(c.name, c.args)
		if !ok {
			t.Errorf("%s: not a catalog function", c.name)
			continue
		}
		if c.code != "" {
			if engine.Code(err) != c.code {
				t.Errorf("%s%v: got %v, want error %s", c.name, c.args, err, c.code)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s%v: %v", c.name, c.args, err)
			continue
		}
		k, isConst := e.(*engine.Const)
		if !isConst {
			t.Errorf("%s%v: constant arguments did not fold: %s", c.name, c.args, e)
			continue
		}
		got := "NULL"
		if !k.Null {
			got = string(engine.AppendText(nil, eval.Broadcast(k, 1), 0))
		}
		if got != c.want {
			t.Errorf("%s%v = %q, want %q", c.name, c.args, got, c.want)
		}
	}
	if _, ok, _ := b.catalogFunc("no_such_function", nil); ok {
		t.Error("no_such_function is a catalog function")
	}
}

// With column arguments a catalog function is a HostFunc over vectors.
func TestCatalogFuncOverColumns(t *testing.T) {
	s := catalogSession(t)
	b := &binder{s: s}
	oids := &engine.ColRef{Idx: 0, Name: "oid", T: engine.Int64}
	mods := &engine.ColRef{Idx: 1, Name: "typmod", T: engine.Int32}
	e, _, err := b.catalogFunc("format_type", []engine.Expr{oids, mods})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := e.(*engine.HostFunc); !ok {
		t.Fatalf("format_type over columns bound to %T", e)
	}
	in := &engine.Batch{N: 3, Cols: []*engine.Vec{
		{T: engine.Int64, N: 3, I: []int64{1043, 23, 0}, Null: []bool{false, false, true}},
		{T: engine.Int32, N: 3, I: []int64{14, -1, -1}},
	}}
	v, err := eval.Eval(context.Background(), e, in)
	if err != nil {
		t.Fatal(err)
	}
	if string(v.S[0]) != "character varying(10)" || string(v.S[1]) != "integer" || !v.IsNull(2) {
		t.Errorf("got %q %q null=%v", v.S[0], v.S[1], v.IsNull(2))
	}
}
