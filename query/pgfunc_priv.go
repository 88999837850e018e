package query

import (
	"strings"

	"github.com/gpusql/gpusql/engine"
)

// The has_*_privilege functions. Superusers hold every privilege; other
// roles what roles.go lets them do: SELECT on the public relations granted
// to them and on the catalogs, everything on their session's temporary
// relations, USAGE on the schemas and CONNECT and TEMPORARY on the
// database. The objects and privilege names are checked as PostgreSQL
// checks them.

type privKind uint8

const (
	privTable privKind = iota
	privColumn
	privAnyColumn
	privSchema
	privDatabase
)

// privNames are the privilege words each kind accepts.
var privNames = [...][]string{
	privTable:     {"SELECT", "INSERT", "UPDATE", "DELETE", "TRUNCATE", "REFERENCES", "TRIGGER"},
	privColumn:    {"SELECT", "INSERT", "UPDATE", "REFERENCES"},
	privAnyColumn: {"SELECT", "INSERT", "UPDATE", "REFERENCES"},
	privSchema:    {"CREATE", "USAGE"},
	privDatabase:  {"CREATE", "CONNECT", "TEMPORARY", "TEMP"},
}

// privFunc is has_<kind>_privilege([user,] object[, column], privilege).
func privFunc(k privKind) pgFunc {
	n := 2 // object, privilege
	if k == privColumn {
		n = 3
	}
	args := []argKind{argObj, argObj, argObj, argObj}[:n+1]
	args[n] = argText
	return pgFunc{args: args, min: n, ret: engine.Bool, strict: true, fn: func(s *Session, a []fval) (fval, error) {
		var user *catRole
		roles := s.roles()
		if len(a) > n {
			u := a[0]
			a = a[1:]
			if u.isText {
				if _, err := s.regOID("regrole", pgQuoteIdent(u.s)); err != nil {
					return fval{}, err
				}
			}
			for i := range roles {
				if u.isText && roles[i].name == u.s || !u.isText && roles[i].oid == u.i {
					user = &roles[i]
				}
			}
			if user == nil {
				return fnull(), nil // an unknown role OID
			}
		} else {
			for i := range roles {
				if roles[i].name == s.params.User {
					user = &roles[i]
				}
			}
		}
		privs, err := checkPrivs(k, a[len(a)-1].s)
		if err != nil {
			return fval{}, err
		}
		ok, err := s.privObject(k, a[0], a[1:len(a)-1])
		if err != nil || !ok {
			return fnull(), err
		}
		if user.super {
			return fbool(true), nil
		}
		for _, p := range privs {
			if s.holds(user, k, a[0], p) {
				return fbool(true), nil
			}
		}
		return fbool(false), nil
	}}
}

// holds reports whether a role that is not a superuser holds privilege p
// on an existing object (see roles.go for what roles may do).
func (s *Session) holds(user *catRole, k privKind, obj fval, p string) bool {
	switch k {
	case privSchema:
		if p == "USAGE" {
			return true
		}
		if obj.isText {
			return s.isTempSchema(obj.s) && user.name == s.params.User
		}
		return s.temp != "" && obj.i == int64(s.tempOIDs[0]) && user.name == s.params.User
	case privDatabase:
		return p != "CREATE"
	}
	oid, _, _ := s.objOID(obj)
	if r, ok := s.userRelByOID(oid); ok {
		if r.temp {
			return user.name == s.params.User
		}
		return p == "SELECT" && s.roleState().HasSelect(user.name, r.name)
	}
	// A catalog relation: everyone may read it.
	return p == "SELECT"
}

// checkPrivs validates a privilege list such as "SELECT, INSERT WITH
// GRANT OPTION".
func checkPrivs(k privKind, list string) ([]string, error) {
	var out []string
	for _, p := range strings.Split(list, ",") {
		w := strings.ToUpper(strings.TrimSpace(p))
		w = strings.TrimSpace(strings.TrimSuffix(w, "WITH GRANT OPTION"))
		found := false
		for _, n := range privNames[k] {
			found = found || w == n
		}
		if !found {
			return nil, engine.Errorf(engine.CodeInvalidParameterValue, "unrecognized privilege type: %q", strings.TrimSpace(p))
		}
		if w == "TEMP" {
			w = "TEMPORARY"
		}
		out = append(out, w)
	}
	return out, nil
}

// privObject checks that the object exists: false (the functions return
// NULL) for an unknown OID or column number, an error for an unknown name.
func (s *Session) privObject(k privKind, obj fval, col []fval) (bool, error) {
	switch k {
	case privSchema:
		if obj.isText {
			if _, err := s.regOID("regnamespace", pgQuoteIdent(obj.s)); err != nil {
				return false, engine.Errorf(engine.CodeInvalidSchemaName, "schema %q does not exist", obj.s)
			}
			return true, nil
		}
		return nspName(obj.i) != "", nil
	case privDatabase:
		if obj.isText {
			if obj.s != s.params.Database {
				return false, engine.Errorf(engine.CodeUndefinedObject, "database %q does not exist", obj.s)
			}
			return true, nil
		}
		return obj.i == oidDatabase, nil
	}
	oid, ok, err := s.objOID(obj)
	if err != nil || !ok || k != privColumn {
		return ok, err
	}
	cols := s.relationColumns(oid)
	c := col[0]
	if c.isText {
		for _, n := range cols {
			if n == c.s {
				return true, nil
			}
		}
		_, rel, _ := s.relationName(oid)
		return false, engine.Errorf(engine.CodeUndefinedColumn, "column %q of relation %q does not exist", c.s, rel)
	}
	return c.i >= 1 && c.i <= int64(len(cols)), nil
}

// relationColumns lists a relation's column names.
func (s *Session) relationColumns(oid int64) []string {
	var out []string
	if cols, ok := pgData().cols[oid]; ok {
		for _, c := range cols {
			out = append(out, c.name)
		}
		return out
	}
	if r, ok := s.userRelByOID(oid); ok {
		for _, c := range r.cols {
			out = append(out, c.Name)
		}
	}
	return out
}
