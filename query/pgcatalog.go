package query

import "github.com/gpusql/gpusql/engine"

// This file is the boundary between the binder and the PostgreSQL catalog
// emulation (pg_catalog, information_schema and the catalog functions).
// The binder calls these; the catalog side implements them.

// catalogSource resolves a relation of pg_catalog or information_schema
// (schema may be "" when the name is unqualified). ok is false when
// schema.name is not a catalog relation.
func (s *Session) catalogSource(schema, name string) (src source, ok bool, err error) {
	return source{}, false, nil
}

// catalogFunc binds a catalog function (format_type, pg_get_userbyid,
// pg_table_is_visible, current_setting, ...) over bound arguments. name is
// lower case without a pg_catalog qualifier. ok is false when name is not
// a catalog function.
func (b *binder) catalogFunc(name string, args []engine.Expr) (e engine.Expr, ok bool, err error) {
	return nil, false, nil
}

// regOID resolves a name to an OID for a reg* type: kind is "regclass",
// "regtype", "regnamespace", "regproc", "regprocedure" or "regrole". An
// unknown name is an error with PostgreSQL's SQLSTATE (42P01 for a
// relation, 42704 for a type).
func (s *Session) regOID(kind, name string) (int64, error) {
	return 0, engine.Errorf(engine.CodeFeatureNotSupported, "%s is not supported yet", kind)
}

// regName renders an OID as a reg* type's text form (what oid::regclass
// prints): the name, schema-qualified when not visible, or the number
// itself when no object has that OID.
func (s *Session) regName(kind string, oid int64) (string, error) {
	return "", engine.Errorf(engine.CodeFeatureNotSupported, "%s is not supported yet", kind)
}
