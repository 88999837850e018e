package parse

import (
	"strings"
)

// Roles and privileges: CREATE, ALTER and DROP ROLE (or USER), and
// GRANT and REVOKE of SELECT on tables or of membership in a role.

// RoleOptions are the attributes of CREATE ROLE and ALTER ROLE; nil
// leaves one as it is. Password "" is PASSWORD NULL.
type RoleOptions struct {
	Login, Superuser *bool
	Password         *string
}

// CreateRole is CREATE ROLE | USER name [[WITH] options]. CREATE USER
// implies LOGIN.
type CreateRole struct {
	Text, Name string
	Options    RoleOptions
}

// AlterRole is ALTER ROLE | USER name [WITH] options, or ALTER ROLE name
// RENAME TO new (RenameTo set).
type AlterRole struct {
	Text, Name, RenameTo string
	Options              RoleOptions
}

// DropRole is DROP ROLE | USER [IF EXISTS] names.
type DropRole struct {
	Text     string
	Names    []string
	IfExists bool
}

// Grant is GRANT SELECT ON [TABLE] tables TO roles, or GRANT role TO
// roles (Role set, Tables empty); Revoke is REVOKE ... FROM.
type Grant struct {
	Text    string
	Revoke  bool
	Role    string   // GRANT role TO ...: the role granted
	Tables  []string // GRANT SELECT ON tables
	Schemas []string // each table's schema as written
	To      []string // the grantees
}

func (s *CreateRole) SQL() string { return s.Text }
func (s *AlterRole) SQL() string  { return s.Text }
func (s *DropRole) SQL() string   { return s.Text }
func (s *Grant) SQL() string      { return s.Text }

// parseRoleStmt parses the statements of this file; ok is false when the
// items start none of them.
func parseRoleStmt(c *cursor, text, first string) (st Stmt, ok bool, err error) {
	second := ""
	if len(c.items) > 1 && !c.items[1].group {
		second = c.items[1].tok.text
	}
	isRole := second == "role" || second == "user"
	switch {
	case first == "create" && isRole:
		st, err = parseCreateRole(c, text, second == "user")
	case first == "alter" && isRole:
		st, err = parseAlterRole(c, text)
	case first == "drop" && isRole:
		st, err = parseDropRole(c, text)
	case first == "grant" || first == "revoke":
		st, err = parseGrant(c, text, first == "revoke")
	default:
		return nil, false, nil
	}
	return st, true, err
}

func parseCreateRole(c *cursor, text string, user bool) (Stmt, error) {
	c.i = 2
	name, err := c.ident()
	if err != nil {
		return nil, err
	}
	st := &CreateRole{Text: text, Name: name}
	if user {
		t := true
		st.Options.Login = &t
	}
	c.word("with")
	if err := roleOptions(c, &st.Options); err != nil {
		return nil, err
	}
	return st, nil
}

func parseAlterRole(c *cursor, text string) (Stmt, error) {
	c.i = 2
	name, err := c.ident()
	if err != nil {
		return nil, err
	}
	st := &AlterRole{Text: text, Name: name}
	if c.words("rename", "to") {
		if st.RenameTo, err = c.ident(); err != nil {
			return nil, err
		}
		return st, c.finish()
	}
	if n := c.peek(); n != nil && (n.word("set") || n.word("reset")) {
		return nil, notSupported(c.src, n.tok, "ALTER ROLE ... "+strings.ToUpper(n.tok.text)+" is not supported by gpusql")
	}
	c.word("with")
	if c.done() {
		return nil, c.fail()
	}
	if err := roleOptions(c, &st.Options); err != nil {
		return nil, err
	}
	return st, nil
}

// roleOptions parses the options up to the end of the statement.
func roleOptions(c *cursor, o *RoleOptions) error {
	set := func(p **bool, v bool) { *p = &v }
	for !c.done() {
		n := c.next()
		if n.group || n.tok.kind != kIdent {
			c.i--
			return c.fail()
		}
		switch w := n.tok.text; w {
		case "login":
			set(&o.Login, true)
		case "nologin":
			set(&o.Login, false)
		case "superuser":
			set(&o.Superuser, true)
		case "nosuperuser":
			set(&o.Superuser, false)
		case "encrypted", "password":
			if w == "encrypted" && !c.word("password") {
				return c.fail()
			}
			pw := ""
			if !c.word("null") {
				p, ok := c.stringLit()
				if !ok {
					return c.fail()
				}
				pw = p
			}
			o.Password = &pw
		case "inherit", "nocreatedb", "nocreaterole", "noreplication", "nobypassrls":
			// gpusql's defaults, and the only choice
		default:
			return notSupported(c.src, n.tok, "role option "+strings.ToUpper(w)+" is not supported by gpusql")
		}
	}
	return nil
}

func parseDropRole(c *cursor, text string) (Stmt, error) {
	c.i = 2
	st := &DropRole{Text: text, IfExists: c.words("if", "exists")}
	for {
		name, err := c.ident()
		if err != nil {
			return nil, err
		}
		st.Names = append(st.Names, name)
		if !c.op(",") {
			break
		}
	}
	return st, c.finish()
}

func parseGrant(c *cursor, text string, revoke bool) (Stmt, error) {
	c.i = 1
	st := &Grant{Text: text, Revoke: revoke}
	to := "to"
	if revoke {
		to = "from"
	}
	if c.word("select") {
		if !c.word("on") {
			return nil, notSupported(c.src, c.tok(), "column privileges are not supported by gpusql")
		}
		c.word("table")
		for {
			schema, name, err := c.qualName()
			if err != nil {
				return nil, err
			}
			st.Tables, st.Schemas = append(st.Tables, name), append(st.Schemas, schema)
			if !c.op(",") {
				break
			}
		}
	} else {
		n := c.peek()
		if n == nil || n.group || n.tok.kind != kIdent && n.tok.kind != kQIdent {
			return nil, c.fail()
		}
		if len(c.items) > 2 && (c.items[2].word("on") || c.items[2].op(",") || n.word("all")) {
			return nil, notSupported(c.src, n.tok, "only SELECT on tables, and membership in pg_read_server_files and pg_write_server_files, can be granted in gpusql")
		}
		c.next()
		st.Role = n.tok.text
	}
	if !c.word(to) {
		return nil, c.fail()
	}
	for {
		name, err := c.ident()
		if err != nil {
			return nil, err
		}
		st.To = append(st.To, name)
		if !c.op(",") {
			break
		}
	}
	if c.word("granted") || c.word("with") {
		return nil, notSupported(c.src, c.items[c.i-1].tok, "GRANTED BY and WITH ... OPTION are not supported by gpusql")
	}
	if !revoke {
		return st, c.finish()
	}
	if c.word("cascade") || c.word("restrict") {
		return st, c.finish()
	}
	return st, c.finish()
}
