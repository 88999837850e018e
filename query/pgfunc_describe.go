package query

import (
	"strconv"
	"strings"

	"github.com/gpusql/gpusql/engine"
)

// The functions psql's describe commands call beyond the catalogs:
// \sf (pg_get_functiondef), \l+ (pg_database_size, shobj_description),
// \dn+ (obj_description of a schema), \do and \dd (the *_is_visible
// functions).

// functionDef is pg_get_functiondef of a built-in function, laid out as
// PostgreSQL 15 lays it out: the header, RETURNS, LANGUAGE, a line of the
// options that differ from CREATE FUNCTION's defaults, then the body
// (dollar-quoted prosrc, or the SQL-standard body).
func functionDef(p *pgProcRow) (string, error) {
	if p.kind == 'a' {
		return "", engine.Errorf(engine.CodeWrongObjectType, "%q is an aggregate function", p.name)
	}
	var b strings.Builder
	what := "FUNCTION"
	if p.kind == 'p' {
		what = "PROCEDURE"
	}
	b.WriteString("CREATE OR REPLACE " + what + " pg_catalog." + pgQuoteIdent(p.name) + "(" + p.args + ")\n")
	if p.kind != 'p' {
		b.WriteString(" RETURNS " + p.result + "\n")
	}
	b.WriteString(" LANGUAGE " + pgQuoteIdent(langName(p.lang)) + "\n")
	var opts strings.Builder
	if p.kind == 'w' {
		opts.WriteString(" WINDOW")
	}
	switch p.volatile {
	case 'i':
		opts.WriteString(" IMMUTABLE")
	case 's':
		opts.WriteString(" STABLE")
	}
	switch p.parallel {
	case 's':
		opts.WriteString(" PARALLEL SAFE")
	case 'r':
		opts.WriteString(" PARALLEL RESTRICTED")
	}
	if p.strict {
		opts.WriteString(" STRICT")
	}
	if p.secdef {
		opts.WriteString(" SECURITY DEFINER")
	}
	if p.leakproof {
		opts.WriteString(" LEAKPROOF")
	}
	// CREATE FUNCTION's default cost: 1 for internal and C functions,
	// 100 for the others.
	defCost := float32(100)
	if p.lang == 12 || p.lang == 13 {
		defCost = 1
	}
	if p.cost != defCost {
		opts.WriteString(" COST " + strconv.FormatFloat(float64(p.cost), 'g', -1, 32))
	}
	if p.rows > 0 && p.rows != 1000 {
		opts.WriteString(" ROWS " + strconv.FormatFloat(float64(p.rows), 'g', -1, 32))
	}
	if p.support != "" && p.support != "-" {
		opts.WriteString(" SUPPORT " + p.support)
	}
	if opts.Len() > 0 {
		b.WriteString(opts.String())
		b.WriteByte('\n')
	}
	if p.sqlbody != nil {
		b.WriteString(*p.sqlbody)
	} else {
		// The dollar quote grows until the source does not contain it.
		dq := "$function"
		if p.kind == 'p' {
			dq = "$procedure"
		}
		for strings.Contains(p.src, dq) {
			dq += "x"
		}
		dq += "$"
		b.WriteString("AS " + dq + p.src + dq)
	}
	b.WriteByte('\n')
	return b.String(), nil
}

// langName is a pg_language row's name (pgcatalog_rels.go lists them).
func langName(oid int64) string {
	switch oid {
	case 12:
		return "internal"
	case 13:
		return "c"
	case 14:
		return "sql"
	}
	return strconv.FormatInt(oid, 10)
}

// namespaceDescriptions are initdb's comments on the schemas gpusql
// has (information_schema has none).
var namespaceDescriptions = map[int64]string{
	oidPgCatalog: "system catalog schema",
	oidPgToast:   "reserved schema for TOAST tables",
	oidPublic:    "standard public schema",
}

// databaseDescription is initdb's comment on the postgres database;
// other databases have none.
func (s *Session) databaseDescription(oid int64) string {
	if oid == oidDatabase && s.params.Database == "postgres" {
		return "default administrative connection database"
	}
	return ""
}

// databaseSize is pg_database_size: the bytes of the session's
// database's tables (gpusql's data lives in them; PostgreSQL also counts
// its catalogs and files). A database named that does not exist is
// 3D000; an OID that names none gives NULL.
func (s *Session) databaseSize(v fval) (fval, error) {
	if v.isText {
		if v.s != s.params.Database {
			return fval{}, engine.Errorf(engine.CodeInvalidCatalogName, "database %q does not exist", v.s)
		}
	} else if v.i != oidDatabase {
		return fnull(), nil
	}
	var n int64
	for _, r := range s.userRels() {
		if r.table != nil {
			n += tableBytes(r.table)
		}
	}
	return fint(n), nil
}

// tablespaceSize is pg_tablespace_size: pg_default (1663) holds every
// table, so its size is the database's; nothing lives in pg_global
// (1664). An unknown name is 42704; an OID that names no tablespace gives
// NULL.
func (s *Session) tablespaceSize(v fval) (fval, error) {
	oid := v.i
	if v.isText {
		switch v.s {
		case "pg_default":
			oid = 1663
		case "pg_global":
			oid = 1664
		default:
			return fval{}, engine.Errorf(engine.CodeUndefinedObject, "tablespace %q does not exist", v.s)
		}
	}
	switch oid {
	case 1663:
		return s.databaseSize(fval{i: oidDatabase})
	case 1664:
		return fint(0), nil
	}
	return fnull(), nil
}

// inPgCatalog is pg_opclass_is_visible and the like for catalogs whose
// rows all live in pg_catalog, which is always on the search path: true
// for an OID that has, NULL for any other.
func inPgCatalog(has func(oid int64) bool) pgFunc {
	return pgFunc{args: kInt, min: 1, ret: engine.Bool, strict: true, fn: func(_ *Session, a []fval) (fval, error) {
		if has(a[0].i) {
			return fbool(true), nil
		}
		return fnull(), nil
	}}
}

// notInCatalog is pg_opclass_is_visible and the like for catalogs that
// gpusql leaves empty: no OID names a row, so the answer is NULL, as
// PostgreSQL's for an OID it does not have.
func notInCatalog() pgFunc {
	return pgFunc{args: kInt, min: 1, ret: engine.Bool, strict: true, fn: func(*Session, []fval) (fval, error) {
		return fnull(), nil
	}}
}
