package query

import (
	"strings"

	"github.com/gpusql/gpusql/auth"
	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/query/parse"
)

// Roles and privileges. The roles live in an auth.Store (the data
// directory's roles.json). What a role may do:
//
//   - A superuser may do everything. So may a session whose user names no
//     role, which only --auth trust lets connect: it stands for the
//     bootstrap superuser under the name it gave (gpusql's behaviour
//     before roles, kept for trust).
//   - Any other role reads the catalogs, the public tables and views it
//     holds SELECT on, and its own temporary tables; it may create
//     temporary tables and views and write them. Schema public is the
//     superusers': a non-superuser creates, drops, alters, inserts into
//     or truncates nothing there (as PostgreSQL 15's public schema,
//     owned by pg_database_owner, which grants CREATE to no one).
//   - Reading server files (COPY FROM 'file', CREATE TABLE ... FROM CSV)
//     needs membership in pg_read_server_files; writing them (COPY TO
//     'file') membership in pg_write_server_files.
//
// A view reads its tables with its owner's rights, as in PostgreSQL: the
// owner of a public view is a superuser, so SELECT on the view is
// enough. Temporary views are their session's own.

// role is the session's role; found is false for a name that is no role.
func (s *Session) role() (auth.Role, bool) {
	return s.roleState().Role(s.params.User)
}

// superuser reports whether the session has every privilege.
func (s *Session) superuser() bool {
	r, found := s.role()
	return !found || r.Superuser
}

// Superuser is superuser for the wire server (its is_superuser report).
func (s *Session) Superuser() bool { return s.superuser() }

// canReadFiles reports whether the session may load files from the
// file root.
func (s *Session) canReadFiles() bool {
	r, found := s.role()
	return !found || r.Superuser || r.ReadFiles
}

func errPermissionTable(kind, name string) error {
	return engine.Errorf(engine.CodeInsufficientPrivilege, "permission denied for %s %s", kind, name)
}

func errMustBeOwner(kind, name string) error {
	return engine.Errorf(engine.CodeInsufficientPrivilege, "must be owner of %s %s", kind, name)
}

func errNotSuperuser(what string) error {
	return engine.Errorf(engine.CodeInsufficientPrivilege, "permission denied to %s", what).
		WithDetail("Only superusers may %s.", what)
}

// checkSelect checks SELECT on public relation name (t, a table, or a
// view when t is nil).
func (s *Session) checkSelect(name string, isView bool) error {
	if s.roleState().HasSelect(s.params.User, name) || s.superuser() {
		return nil
	}
	if isView {
		return errPermissionTable("view", name)
	}
	return errPermissionTable("table", name)
}

// canWriteFiles reports whether the session may write files under the
// file root.
func (s *Session) canWriteFiles() bool {
	r, found := s.role()
	return !found || r.Superuser || r.WriteFiles
}

// checkFileWrite checks the right to write server files.
func (s *Session) checkFileWrite() error {
	if s.canWriteFiles() {
		return nil
	}
	return engine.Errorf(engine.CodeInsufficientPrivilege, "permission denied to COPY to a file").
		WithDetail("Only roles with privileges of the \"pg_write_server_files\" role may COPY to a file.").
		WithHint("Anyone can COPY to stdout or from stdin. psql's \\copy command also works for anyone.")
}

// checkFileRead checks the right to read server files.
func (s *Session) checkFileRead() error {
	if s.canReadFiles() {
		return nil
	}
	return engine.Errorf(engine.CodeInsufficientPrivilege, "permission denied to COPY from a file").
		WithDetail("Only roles with privileges of the \"pg_read_server_files\" role may COPY from a file, or create a table from one.")
}

// checkStatement checks the statement-level rights of a non-superuser
// (see the file comment); reads of tables are checked as they bind.
func (s *Session) checkStatement(st parse.Stmt) error {
	if s.superuser() {
		return nil
	}
	// public reports whether schema.name resolves to a relation of
	// schema public.
	public := func(schema, name string) (bool, string) {
		t, v := s.userRelation(schema, name)
		switch {
		case t != nil:
			return t.Schema == "", "table"
		case v != nil:
			return v.Schema == "", "view"
		}
		return false, ""
	}
	inPublic := func(schema string, temp bool) error {
		if in, err := s.createIn(schema, temp); err == nil && in == "" {
			return engine.Errorf(engine.CodeInsufficientPrivilege, "permission denied for schema public")
		}
		return nil
	}
	switch st := st.(type) {
	case *parse.CreateRole, *parse.AlterRole, *parse.DropRole, *parse.Grant:
		return errNotSuperuser("manage roles and privileges")
	case *parse.CreateTable:
		if st.CSV != nil {
			if err := s.checkFileRead(); err != nil {
				return err
			}
		}
		return inPublic(st.Schema, st.Temp)
	case *parse.CreateTableAs:
		return inPublic(st.Schema, st.Temp)
	case *parse.CreateView:
		return inPublic(st.Schema, st.Temp)
	case *parse.Insert:
		if p, kind := public(st.Schema, st.Table); p {
			return errPermissionTable(kind, st.Table)
		}
	case *parse.Copy:
		switch {
		case st.To && st.Path != "":
			if err := s.checkFileWrite(); err != nil {
				return err
			}
			if st.Table != "" {
				if p, kind := public(st.Schema, st.Table); p {
					return s.checkSelect(st.Table, kind == "view")
				}
			}
		case st.To && st.Table != "":
			if p, kind := public(st.Schema, st.Table); p {
				return s.checkSelect(st.Table, kind == "view")
			}
		case !st.To:
			if st.Path != "" {
				if err := s.checkFileRead(); err != nil {
					return err
				}
			}
			if p, kind := public(st.Schema, st.Table); p {
				return errPermissionTable(kind, st.Table)
			}
		}
	case *parse.DropTable:
		for i, n := range st.Names {
			if p, _ := public(schemaAt(st.Schemas, i), n); p {
				return errMustBeOwner("table", n)
			}
		}
	case *parse.DropView:
		for i, n := range st.Names {
			if p, _ := public(schemaAt(st.Schemas, i), n); p {
				return errMustBeOwner("view", n)
			}
		}
	case *parse.Truncate:
		for i, n := range st.Names {
			if p, kind := public(schemaAt(st.Schemas, i), n); p {
				return errPermissionTable(kind, n)
			}
		}
	case *parse.AlterRename:
		if p, kind := public(st.Schema, st.Table); p {
			return errMustBeOwner(kind, st.Table)
		}
	}
	return nil
}

func schemaAt(schemas []string, i int) string {
	if i < len(schemas) {
		return schemas[i]
	}
	return ""
}

// roleStmt runs CREATE, ALTER and DROP ROLE, GRANT and REVOKE.
func (s *Session) roleStmt(st parse.Stmt, w engine.ResultWriter) error {
	store := s.roleWriter()
	opts := func(o parse.RoleOptions) auth.Options {
		return auth.Options{Login: o.Login, Superuser: o.Superuser, Password: o.Password}
	}
	switch st := st.(type) {
	case *parse.CreateRole:
		if err := store.Create(st.Name, opts(st.Options)); err != nil {
			return err
		}
		return w.Complete("CREATE ROLE")
	case *parse.AlterRole:
		if st.RenameTo != "" {
			if st.Name == s.params.User {
				return engine.Errorf(engine.CodeFeatureNotSupported, "session user cannot be renamed")
			}
			cleared, err := store.Rename(st.Name, st.RenameTo)
			if err != nil {
				return err
			}
			if cleared {
				notice(w, engine.CodeSuccessfulCompletion, "MD5 password cleared because of role rename")
			}
			return w.Complete("ALTER ROLE")
		}
		if err := store.Alter(st.Name, opts(st.Options)); err != nil {
			return err
		}
		return w.Complete("ALTER ROLE")
	case *parse.DropRole:
		for _, n := range st.Names {
			if n == s.params.User {
				return engine.Errorf(engine.CodeObjectInUse, "current user cannot be dropped")
			}
			if err := store.Drop(n); err != nil {
				if engine.Code(err) == engine.CodeUndefinedObject && st.IfExists {
					notice(w, engine.CodeSuccessfulCompletion, "role %q does not exist, skipping", n)
					continue
				}
				return err
			}
		}
		return w.Complete("DROP ROLE")
	case *parse.Grant:
		return s.grant(st, w)
	}
	return engine.Errorf(engine.CodeInternalError, "not a role statement: %T", st)
}

func (s *Session) grant(st *parse.Grant, w engine.ResultWriter) error {
	store := s.roleWriter()
	state := s.roleState()
	tag := "GRANT"
	if st.Revoke {
		tag = "REVOKE"
	}
	for _, r := range st.To {
		if _, ok := state.Role(r); !ok {
			return engine.Errorf(engine.CodeUndefinedObject, "role %q does not exist", r)
		}
	}
	if st.Role != "" {
		set := store.SetReadFiles
		switch st.Role {
		case auth.ReadFilesRole:
		case auth.WriteFilesRole:
			set = store.SetWriteFiles
		default:
			if _, ok := state.Role(st.Role); !ok {
				return engine.Errorf(engine.CodeUndefinedObject, "role %q does not exist", st.Role)
			}
			return engine.Errorf(engine.CodeFeatureNotSupported, "granting membership in role %q is not supported by gpusql", st.Role).
				WithHint("gpusql has two predefined roles that can be granted: pg_read_server_files and pg_write_server_files.")
		}
		for _, r := range st.To {
			if err := set(r, !st.Revoke); err != nil {
				return err
			}
		}
		return w.Complete(tag)
	}
	// Check every table before granting on any.
	for i, n := range st.Tables {
		schema := schemaAt(st.Schemas, i)
		t, v := s.userRelation(schema, n)
		switch {
		case t == nil && v == nil:
			return engine.Errorf(engine.CodeUndefinedTable, "relation %q does not exist", n)
		case t != nil && t.Schema != "" || v != nil && v.Schema != "":
			return engine.Errorf(engine.CodeFeatureNotSupported, "%q is a temporary relation: it is its session's own, and grants apply to relations of schema public", n)
		}
	}
	for _, n := range st.Tables {
		for _, r := range st.To {
			if err := store.Grant(n, r, !st.Revoke); err != nil {
				return err
			}
		}
	}
	return w.Complete(tag)
}

// roleChanger makes role changes: an auth.Store commits each at once,
// an auth.Tx keeps them for its block's COMMIT.
type roleChanger interface {
	Create(name string, o auth.Options) error
	Alter(name string, o auth.Options) error
	Rename(name, to string) (cleared bool, err error)
	Drop(name string) error
	SetReadFiles(name string, on bool) error
	SetWriteFiles(name string, on bool) error
	Grant(table, role string, on bool) error
	TableDropped(table string) error
	TableRenamed(from, to string) error
}

// Role statements in a transaction block (or the implicit block of a
// Query message) are transactional, as PostgreSQL's: the block sees its
// changes at once, other sessions (and logins) at its COMMIT, and a
// ROLLBACK or ROLLBACK TO SAVEPOINT undoes them. The changes are kept as
// an auth.Tx, which COMMIT replays on the role store as it is then, with
// the block's table writes (commitTx); a change that no longer applies
// (another session created the same role meanwhile) fails the COMMIT,
// and then none of the block's writes is kept.

// roleWriter is where the session's role statements go.
func (s *Session) roleWriter() roleChanger {
	if !s.inBlock() {
		return s.srv.opts.Roles
	}
	if s.tx.roles == nil {
		s.tx.roles = s.srv.opts.Roles.Begin()
	}
	return s.tx.roles
}

// roleState is the roles and grants as the session sees them: the
// committed ones with its block's changes.
func (s *Session) roleState() auth.State {
	if s.tx.roles != nil {
		return s.tx.roles.State()
	}
	return s.srv.opts.Roles.State()
}

// relationDropped forgets the grants on dropped public relation name. A
// table's drop takes effect at once, so do its grants' (also in the
// block's changes, which may have granted on it). A view's drop in a
// block is undone by a rollback, and so is the loss of its grants.
func (s *Session) relationDropped(name string, view bool) error {
	store := s.srv.opts.Roles
	had := store.Grantees(name)
	if err := store.TableDropped(name); err != nil {
		return err
	}
	if !s.inBlock() {
		return nil
	}
	if view && len(had) > 0 {
		s.logUndo(func() { _ = store.RestoreGrants(name, had) })
	}
	return s.roleWriter().TableDropped(name)
}

// relationRenamed moves the grants of a public relation renamed from
// from to to. The rename takes effect at once and a rollback undoes it,
// so the grants move at once and back on a rollback.
func (s *Session) relationRenamed(from, to string) error {
	store := s.srv.opts.Roles
	if err := store.TableRenamed(from, to); err != nil {
		return err
	}
	if !s.inBlock() {
		return nil
	}
	s.logUndo(func() { _ = store.TableRenamed(to, from) })
	return s.roleWriter().TableRenamed(from, to)
}

// isRoleStmt reports whether st is a statement of roles and privileges.
func isRoleStmt(st parse.Stmt) bool {
	switch st.(type) {
	case *parse.CreateRole, *parse.AlterRole, *parse.DropRole, *parse.Grant:
		return true
	}
	return false
}

// aclOf is a public relation's ACL as pg_class.relacl shows it
// ("{owner=arwdDxt/owner,role=r/owner}"), or "" (NULL) when nobody but
// its owner holds a privilege on it.
func (s *Session) aclOf(name string) string {
	gr := s.roleState().Grantees(name)
	if len(gr) == 0 {
		return ""
	}
	owner := s.ownerName()
	items := []string{pgACLName(owner) + "=arwdDxt/" + pgACLName(owner)}
	for _, r := range gr {
		items = append(items, pgACLName(r)+"=r/"+pgACLName(owner))
	}
	return "{" + strings.Join(items, ",") + "}"
}

// ownerName is the name of OID 10, the owner of every public relation:
// the bootstrap superuser, or the session's name when it names no role.
func (s *Session) ownerName() string {
	if _, found := s.role(); !found {
		return s.params.User
	}
	return auth.Bootstrap
}

func pgACLName(n string) string {
	if pgQuoteIdent(n) != n {
		return `"` + strings.ReplaceAll(n, `"`, `""`) + `"`
	}
	return n
}
