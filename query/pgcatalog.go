package query

import (
	"strconv"
	"strings"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/query/parse"
)

// This file is the boundary between the binder and the PostgreSQL catalog
// emulation (pg_catalog, information_schema and the catalog functions).
// The binder calls these; the catalog side implements them
// (pgcatalog_*.go for the relations, pgfunc*.go for the functions).

// catalogSource resolves a relation of pg_catalog or information_schema
// (schema may be "" when the name is unqualified). ok is false when
// schema.name is not a catalog relation.
func (s *Session) catalogSource(schema, name string) (src source, ok bool, err error) {
	rel := catalogRelation(schema, name)
	if rel == nil {
		return source{}, false, nil
	}
	src, err = catalogTable(rel, s.rowsOf(rel))
	return src, err == nil, err
}

// regOID resolves a name to an OID for a reg* type: kind is "regclass",
// "regtype", "regnamespace", "regproc", "regprocedure" or "regrole". An
// unknown name is an error with PostgreSQL's SQLSTATE (42P01 for a
// relation, 42704 for a type).
func (s *Session) regOID(kind, name string) (int64, error) {
	name = strings.TrimSpace(name)
	if n, err := strconv.ParseInt(name, 10, 64); err == nil && n >= 0 {
		return n, nil // a numeric OID is taken as it is, as PostgreSQL does
	}
	switch kind {
	case "regclass":
		parts, err := parseQualified(name)
		if err != nil || len(parts) > 3 {
			return 0, engine.Errorf(engine.CodeInvalidTextRepresent, "invalid name syntax")
		}
		if len(parts) == 3 {
			if parts[0] != s.params.Database {
				return 0, engine.Errorf(engine.CodeFeatureNotSupported, "cross-database references are not implemented: %s", name)
			}
			parts = parts[1:]
		}
		if oid, ok := s.relationOID(parts); ok {
			return oid, nil
		}
		return 0, engine.Errorf(engine.CodeUndefinedTable, "relation %q does not exist", name)
	case "regtype":
		if oid, ok := typeOIDByName(name); ok {
			return oid, nil
		}
		return 0, engine.Errorf(engine.CodeUndefinedObject, "type %q does not exist", name)
	case "regnamespace":
		parts, err := parseQualified(name)
		if err != nil || len(parts) != 1 {
			return 0, engine.Errorf(engine.CodeInvalidTextRepresent, "invalid name syntax")
		}
		for _, n := range s.pgNamespaceRows() {
			if n["nspname"] == parts[0] {
				return toInt64(n["oid"]), nil
			}
		}
		return 0, engine.Errorf(engine.CodeUndefinedObject, "schema %q does not exist", parts[0])
	case "regrole":
		parts, err := parseQualified(name)
		if err != nil || len(parts) != 1 {
			return 0, engine.Errorf(engine.CodeInvalidTextRepresent, "invalid name syntax")
		}
		for _, r := range s.roles() {
			if r.name == parts[0] {
				return r.oid, nil
			}
		}
		return 0, engine.Errorf(engine.CodeUndefinedObject, "role %q does not exist", parts[0])
	case "regproc", "regprocedure":
		fn, argList, hasArgs := strings.Cut(name, "(")
		if kind == "regproc" {
			fn, hasArgs = name, false
		}
		// regprocedure names the overload by its argument types.
		var want []string
		if hasArgs {
			types, ok := procArgTypes(argList)
			if !ok {
				return 0, engine.Errorf(engine.CodeUndefinedFunction, "function %q does not exist", name)
			}
			want = types
		}
		parts, err := parseQualified(strings.TrimSpace(fn))
		if err != nil || len(parts) > 2 || len(parts) == 2 && parts[0] != "pg_catalog" {
			return 0, engine.Errorf(engine.CodeUndefinedFunction, "function %q does not exist", name)
		}
		var found []int64
		for _, p := range pgProcs {
			if p.name == parts[len(parts)-1] && (!hasArgs || p.argtypes == strings.Join(want, " ")) {
				found = append(found, p.oid)
			}
		}
		switch {
		case len(found) == 1:
			return found[0], nil
		case len(found) > 1 && kind == "regproc":
			return 0, engine.Errorf(engine.CodeAmbiguousFunction, "more than one function named %q", name)
		case len(found) > 1:
			return found[0], nil
		}
		return 0, engine.Errorf(engine.CodeUndefinedFunction, "function %q does not exist", name)
	case "regoper", "regoperator":
		return operOID(kind, name)
	}
	return 0, engine.Errorf(engine.CodeFeatureNotSupported, "type %s is not supported", kind)
}

// operOID resolves an operator's name (regoper: "+", unique among
// gpusql's operators) or its name and operand types (regoperator:
// "+(integer,bigint)", NONE for a prefix operator's missing left operand),
// optionally qualified with pg_catalog.
func operOID(kind, name string) (int64, error) {
	op, args, hasArgs := strings.Cut(name, "(")
	if kind == "regoper" {
		op, hasArgs = name, false
	}
	op = strings.TrimSpace(op)
	if q, ok := strings.CutPrefix(op, "pg_catalog."); ok {
		op = q
	}
	var left, right int64
	if kind == "regoperator" {
		if !hasArgs || !strings.HasSuffix(strings.TrimSpace(args), ")") {
			return 0, engine.Errorf(engine.CodeInvalidTextRepresent, "expected a left parenthesis")
		}
		l, r, ok := strings.Cut(strings.TrimSuffix(strings.TrimSpace(args), ")"), ",")
		if !ok {
			return 0, engine.Errorf(engine.CodeUndefinedFunction, "missing argument")
		}
		for i, t := range []string{l, r} {
			var oid int64
			if !strings.EqualFold(strings.TrimSpace(t), "none") {
				o, ok := typeOIDByName(t)
				if !ok {
					return 0, engine.Errorf(engine.CodeUndefinedObject, "type %q does not exist", strings.TrimSpace(t))
				}
				oid = o
			}
			if i == 0 {
				left = oid
			} else {
				right = oid
			}
		}
	}
	var found []int64
	for i := range pgOperators {
		o := &pgOperators[i]
		if o.name == op && (kind == "regoper" || o.left == left && o.right == right) {
			found = append(found, o.oid)
		}
	}
	switch {
	case len(found) == 1:
		return found[0], nil
	case len(found) > 1:
		return 0, engine.Errorf(engine.CodeAmbiguousFunction, "more than one operator named %s", op)
	case kind == "regoperator":
		return 0, engine.Errorf(engine.CodeUndefinedFunction, "operator does not exist: %s", name)
	}
	return 0, engine.Errorf(engine.CodeUndefinedFunction, "operator does not exist: %s", op)
}

// procArgTypes resolves regprocedure's argument list ("int, text)") to
// type OIDs; ok is false for an unknown type or a missing ")".
func procArgTypes(list string) ([]string, bool) {
	list = strings.TrimSpace(list)
	if !strings.HasSuffix(list, ")") {
		return nil, false
	}
	list = strings.TrimSpace(strings.TrimSuffix(list, ")"))
	if list == "" {
		return []string{}, true
	}
	// Split at the commas outside parentheses (numeric(10,2)).
	var out []string
	depth, start := 0, 0
	for i := 0; i <= len(list); i++ {
		if i < len(list) {
			switch list[i] {
			case '(':
				depth++
				continue
			case ')':
				depth--
				continue
			case ',':
				if depth > 0 {
					continue
				}
			default:
				continue
			}
		}
		oid, ok := typeOIDByName(list[start:i])
		if !ok {
			return nil, false
		}
		out = append(out, strconv.FormatInt(oid, 10))
		start = i + 1
	}
	return out, true
}

// regName renders an OID as a reg* type's text form (what oid::regclass
// prints): the name, schema-qualified when not visible, or the number
// itself when no object has that OID.
func (s *Session) regName(kind string, oid int64) (string, error) {
	num := strconv.FormatInt(oid, 10)
	if oid == 0 {
		return "-", nil
	}
	switch kind {
	case "regclass":
		if schema, name, ok := s.relationName(oid); ok {
			if schema == "information_schema" {
				return pgQuoteIdent(schema) + "." + pgQuoteIdent(name), nil
			}
			return pgQuoteIdent(name), nil
		}
	case "regtype":
		if _, ok := pgData().types[oid]; ok {
			return formatType(oid, 0, false), nil
		}
	case "regnamespace":
		if n := nspName(oid); n != "" {
			return pgQuoteIdent(n), nil
		}
	case "regrole":
		for _, r := range s.roles() {
			if r.oid == oid {
				return pgQuoteIdent(r.name), nil
			}
		}
	case "regproc", "regprocedure":
		if p, ok := pgData().procs[oid]; ok {
			if kind == "regproc" {
				return p.name, nil
			}
			var args []string
			for _, a := range strings.Fields(p.argtypes) {
				n, _ := strconv.ParseInt(a, 10, 64)
				args = append(args, formatType(n, 0, false))
			}
			return p.name + "(" + strings.Join(args, ",") + ")", nil
		}
	case "regoper", "regoperator":
		if o, ok := pgData().ops[oid]; ok {
			if kind == "regoperator" {
				// PostgreSQL's format_operator: the operand types, NONE
				// for a prefix operator's left.
				l := "NONE"
				if o.left != 0 {
					l = formatType(o.left, 0, false)
				}
				return o.name + "(" + l + "," + formatType(o.right, 0, false) + ")", nil
			}
			// The bare name where it is unique, else qualified.
			n := 0
			for i := range pgOperators {
				if pgOperators[i].name == o.name {
					n++
				}
			}
			if n == 1 {
				return o.name, nil
			}
			return "pg_catalog." + o.name, nil
		}
	default:
		return "", engine.Errorf(engine.CodeFeatureNotSupported, "type %s is not supported", kind)
	}
	return num, nil
}

// relationOID finds a relation by its (unquoted) name parts, [schema,]
// name, searching pg_catalog and then public when unqualified.
func (s *Session) relationOID(parts []string) (int64, bool) {
	name := parts[len(parts)-1]
	schema := ""
	if len(parts) == 2 {
		schema = parts[0]
	}
	if schema == "" || schema == "pg_catalog" || schema == "information_schema" {
		if rel := catalogRelation(schema, name); rel != nil {
			return rel.oid, true
		}
	}
	if schema != "pg_catalog" && schema != "information_schema" {
		if t, v := s.userRelation(schema, name); t != nil {
			return int64(t.OID), true
		} else if v != nil {
			return int64(v.OID), true
		}
	}
	return 0, false
}

// relationName finds a relation's schema and name by OID.
func (s *Session) relationName(oid int64) (schema, name string, ok bool) {
	if rel, ok := pgData().byOID[oid]; ok {
		return rel.schema, rel.name, true
	}
	if r, ok := s.userRelByOID(oid); ok {
		return r.schema, r.name, true
	}
	return "", "", false
}

// typeOIDByName resolves a type name as regtype's input does: SQL
// spellings (integer, character varying(10), double precision), pg_type
// names (int4, bpchar, _int4), "char", and a trailing [].
func typeOIDByName(name string) (int64, bool) {
	d := pgData()
	n := strings.TrimSpace(name)
	if strings.HasSuffix(n, "[]") {
		elem, ok := typeOIDByName(strings.TrimSuffix(n, "[]"))
		if !ok {
			return 0, false
		}
		if t := d.types[elem]; t != nil && t.array != 0 {
			return t.array, true
		}
		return 0, false
	}
	parts, err := parseQualified(n)
	if err == nil && len(parts) <= 2 {
		for _, t := range d.typeOrd {
			if t.name == parts[len(parts)-1] && (len(parts) == 1 && t.nsp == oidPgCatalog || len(parts) == 2 && nspName(t.nsp) == parts[0]) {
				return t.oid, true
			}
		}
	}
	if t, err := parse.ParseType(n); err == nil {
		return typeOIDOf(t), true
	}
	return 0, false
}

// parseQualified splits a possibly qualified, possibly quoted name
// (a.b, "A".b) into its parts, folding unquoted parts to lower case.
func parseQualified(s string) ([]string, error) {
	var parts []string
	for {
		s = strings.TrimSpace(s)
		if s == "" {
			return nil, engine.Errorf(engine.CodeInvalidTextRepresent, "invalid name syntax")
		}
		var part string
		if s[0] == '"' {
			var b strings.Builder
			i := 1
			for ; i < len(s); i++ {
				if s[i] == '"' {
					if i+1 < len(s) && s[i+1] == '"' {
						b.WriteByte('"')
						i++
						continue
					}
					break
				}
				b.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, engine.Errorf(engine.CodeInvalidTextRepresent, "invalid name syntax")
			}
			part, s = b.String(), s[i+1:]
		} else {
			end := strings.IndexByte(s, '.')
			if end < 0 {
				end = len(s)
			}
			part, s = engine.FoldIdent(strings.TrimSpace(s[:end])), s[end:]
		}
		parts = append(parts, part)
		s = strings.TrimSpace(s)
		if s == "" {
			return parts, nil
		}
		if s[0] != '.' {
			return nil, engine.Errorf(engine.CodeInvalidTextRepresent, "invalid name syntax")
		}
		s = s[1:]
	}
}

func toInt64(v any) int64 {
	switch x := v.(type) {
	case int:
		return int64(x)
	case int64:
		return x
	case uint32:
		return int64(x)
	}
	return 0
}
