package query

import (
	"io"
	"log/slog"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/cpu"
	"github.com/gpusql/gpusql/loader"
)

// catalogSession is a session over a server with tables t (every type)
// and lineitem, created in that order (OIDs 16384 and 16385).
func catalogSession(t *testing.T) *Session {
	t.Helper()
	srv, err := NewServer(Options{
		FileRoot: t.TempDir(), Backend: cpu.New(loader.NewCPU(loader.Config{}), 1),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := srv.cat.Create("t", []engine.ColumnDef{
		{Name: "a", Type: engine.Int32, NotNull: true}, {Name: "d", Type: engine.NumericType(12, 2)},
		{Name: "i", Type: engine.Type{Kind: engine.KindChar, Len: 3}}, {Name: "j", Type: engine.Type{Kind: engine.KindVarchar, Len: 10}},
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := srv.cat.Create("Mixed Case", []engine.ColumnDef{{Name: "x", Type: engine.Int64}}); err != nil {
		t.Fatal(err)
	}
	return newSession(srv, engine.SessionParams{User: "tester", Database: "gpusql"})
}

// Values checked on PostgreSQL 15.20.
func TestRegOID(t *testing.T) {
	s := catalogSession(t)
	for _, c := range []struct {
		kind, name string
		want       int64
		code       string
	}{
		{"regclass", "pg_class", 1259, ""},
		{"regclass", "pg_catalog.pg_type", 1247, ""},
		{"regclass", "PG_CLASS", 1259, ""},
		{"regclass", `"pg_class"`, 1259, ""},
		{"regclass", "information_schema.columns", 13295, ""},
		{"regclass", "columns", 0, "42P01"},
		{"regclass", "t", 16384, ""},
		{"regclass", "public.t", 16384, ""},
		{"regclass", "gpusql.public.t", 16384, ""},
		{"regclass", `"Mixed Case"`, 16385, ""},
		{"regclass", "Mixed Case", 0, "42P01"},
		{"regclass", "nosuch", 0, "42P01"},
		{"regclass", "16384", 16384, ""},
		{"regclass", "a.b.c.d", 0, "22P02"},
		{"regtype", "integer", 23, ""},
		{"regtype", "int4", 23, ""},
		{"regtype", "character varying", 1043, ""},
		{"regtype", "varchar(10)", 1043, ""},
		{"regtype", "double precision", 701, ""},
		{"regtype", "int8[]", 1016, ""},
		{"regtype", "_int4", 1007, ""},
		{"regtype", `"char"`, 18, ""},
		{"regtype", "name", 19, ""},
		{"regtype", "pg_catalog.oid", 26, ""},
		{"regtype", "information_schema.sql_identifier", 13226, ""},
		{"regtype", "nosuch", 0, "42704"},
		{"regnamespace", "pg_catalog", 11, ""},
		{"regnamespace", "public", 2200, ""},
		{"regnamespace", "nosuch", 0, "42704"},
		{"regrole", "tester", 10, ""},
		{"regrole", "pg_database_owner", 6171, ""},
		{"regrole", "nobody", 0, "42704"},
		{"regproc", "format_type", 1081, ""},
		{"regproc", "pg_catalog.version", 89, ""},
		{"regproc", "nosuch", 0, "42883"},
	} {
		got, err := s.regOID(c.kind, c.name)
		if c.code != "" {
			if engine.Code(err) != c.code {
				t.Errorf("%s %q: got %d, %v; want error %s", c.kind, c.name, got, err, c.code)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%s %q: got %d, %v; want %d", c.kind, c.name, got, err, c.want)
		}
	}
}

func TestRegName(t *testing.T) {
	s := catalogSession(t)
	for _, c := range []struct {
		kind string
		oid  int64
		want string
	}{
		{"regclass", 1259, "pg_class"},
		{"regclass", 13295, "information_schema.columns"},
		{"regclass", 16384, "t"},
		{"regclass", 16385, `"Mixed Case"`},
		{"regclass", 99999, "99999"},
		{"regclass", 0, "-"},
		{"regtype", 23, "integer"},
		{"regtype", 1042, "character"},
		{"regtype", 1014, "character[]"},
		{"regtype", 18, `"char"`},
		{"regtype", 13226, "information_schema.sql_identifier"},
		{"regtype", 99999, "99999"},
		{"regnamespace", 11, "pg_catalog"},
		{"regnamespace", 13207, "information_schema"},
		{"regrole", 10, "tester"},
		{"regproc", 1081, "format_type"},
		{"regprocedure", 1081, "format_type(oid,integer)"},
	} {
		got, err := s.regName(c.kind, c.oid)
		if err != nil || got != c.want {
			t.Errorf("%s %d: got %q, %v; want %q", c.kind, c.oid, got, err, c.want)
		}
	}
}

// Values checked on PostgreSQL 15.20 with select format_type(oid, typmod).
func TestFormatType(t *testing.T) {
	for _, c := range []struct {
		oid    int64
		typmod int32
		null   bool
		want   string
	}{
		{1042, -1, false, "bpchar"},
		{1042, 0, true, "character"},
		{1042, 7, false, "character(3)"},
		{1042, 4, false, "character"},
		{1043, 0, true, "character varying"},
		{1043, 14, false, "character varying(10)"},
		{1014, 7, false, "character(3)[]"},
		{1015, -1, false, "character varying[]"},
		{1009, 0, true, "text[]"},
		{1114, 3, false, "timestamp(3) without time zone"},
		{1114, -1, false, "timestamp without time zone"},
		{1184, 0, true, "timestamp with time zone"},
		{1083, -1, false, "time without time zone"},
		{18, -1, false, `"char"`},
		{19, -1, false, "name"},
		{13221, -1, false, "information_schema.cardinal_number"},
		{99999, -1, false, "???"},
		{0, -1, false, "-"},
		{1700, 786438, false, "numeric(12,2)"},
		{1700, -1, false, "numeric"},
		{1186, -1, false, "interval"},
		{2277, -1, false, "anyarray"},
		{16, -1, false, "boolean"},
		{701, -1, false, "double precision"},
	} {
		if got := formatType(c.oid, c.typmod, !c.null); got != c.want {
			t.Errorf("format_type(%d, %d, null=%v) = %q, want %q", c.oid, c.typmod, c.null, got, c.want)
		}
	}
}

// Every relation builds, with the columns PostgreSQL 15 declares.
func TestCatalogRelationsBuild(t *testing.T) {
	s := catalogSession(t)
	for _, rel := range pgData().rels {
		src, ok, err := s.catalogSource(rel.schema, rel.name)
		if err != nil || !ok {
			t.Fatalf("%s.%s: %v %v", rel.schema, rel.name, ok, err)
		}
		if len(src.cols) != len(pgData().cols[rel.oid]) || src.oid != uint32(rel.oid) {
			t.Errorf("%s.%s: %d columns, oid %d", rel.schema, rel.name, len(src.cols), src.oid)
		}
		if !isSystemTable(src.name) {
			t.Errorf("%s is not run on the host", src.name)
		}
	}
	if _, ok, _ := s.catalogSource("", "tables"); ok {
		t.Error("unqualified tables resolved to information_schema")
	}
	if _, ok, _ := s.catalogSource("public", "pg_class"); ok {
		t.Error("public.pg_class resolved to the catalog")
	}
}
