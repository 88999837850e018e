package query

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/query/parse"
)

// User relations other than public tables: each session's temporary
// schema (CREATE TEMP TABLE), and views, which bind in place of their
// name as a derived table of their query.
//
// Names resolve as PostgreSQL's default search_path does: an unqualified
// name is looked up in the session's temporary schema, then in
// pg_catalog, then in public; "pg_temp" names the temporary schema.

// tempSchemaSeq numbers the temporary schemas (pg_temp_N), as
// PostgreSQL numbers them by backend.
var tempSchemaSeq atomic.Uint32

// tempSchema is the session's temporary schema, made on first use.
func (s *Session) tempSchema() string {
	if s.temp == "" {
		s.temp = fmt.Sprintf("pg_temp_%d", tempSchemaSeq.Add(1)+2)
		s.tempOIDs = [2]uint32{s.srv.cat.NewOID(), s.srv.cat.NewOID()}
	}
	return s.temp
}

// dropTemp drops the session's temporary tables and views (its end,
// DISCARD TEMP, DISCARD ALL).
func (s *Session) dropTemp() {
	if s.temp != "" {
		s.srv.cat.DropSchema(s.temp)
	}
}

// isTempSchema reports whether schema names the session's temporary
// schema.
func (s *Session) isTempSchema(schema string) bool {
	return schema == "pg_temp" || s.temp != "" && schema == s.temp
}

// userRelation resolves schema.name ("" unqualified) to a user table or
// view; both are nil when there is none. An unqualified name that is a
// pg_catalog or information_schema relation is not a user one, unless a
// temporary relation of that name hides it.
func (s *Session) userRelation(schema, name string) (*engine.Table, *engine.View) {
	switch {
	case schema == "":
		if s.temp != "" {
			if t, v := s.lookup(s.temp, name); t != nil || v != nil {
				return t, v
			}
		}
		if catalogRelation("", name) != nil {
			return nil, nil
		}
		return s.lookup("", name)
	case schema == "public":
		return s.lookup("", name)
	case s.isTempSchema(schema):
		if s.temp != "" {
			return s.lookup(s.temp, name)
		}
	}
	return nil, nil
}

// createIn is the catalog schema where a CREATE of schema.name (schema
// as written, "" unqualified) makes its relation: "" for public, or the
// session's temporary schema for TEMP or a pg_temp name, as in
// PostgreSQL.
func (s *Session) createIn(schema string, temp bool) (string, error) {
	switch {
	case schema == "public" && temp:
		return "", engine.Errorf(engine.CodeInvalidTableDefinition, "cannot create temporary relation in non-temporary schema")
	case schema == "public":
		return "", nil
	case schema != "" && !s.isTempSchema(schema):
		return "", engine.Errorf(engine.CodeInvalidSchemaName, "schema %q does not exist", schema)
	case schema != "" || temp:
		return s.tempSchema(), nil
	}
	return "", nil
}

// userTable is userRelation for a table: 42P01 if there is none, 42809
// for a view (what names the statement: "TRUNCATE", "INSERT INTO", ...).
func (s *Session) userTable(schema, name, what string) (*engine.Table, error) {
	t, v := s.userRelation(schema, name)
	switch {
	case v != nil:
		return nil, engine.Errorf(engine.CodeWrongObjectType, "%q is not a table", name).
			WithHint(what + " applies to tables, and " + name + " is a view.")
	case t == nil:
		return nil, engine.Errorf(engine.CodeUndefinedTable, "relation %q does not exist", name)
	}
	return t, nil
}

// publicTable finds a table of schema public.
func (s *Session) publicTable(name string) (*engine.Table, error) {
	if t, _ := s.lookup("", name); t != nil {
		return t, nil
	}
	return nil, engine.Errorf(engine.CodeUndefinedTable, "relation %q does not exist", name)
}

// viewFrame is the view whose query is being bound, in its query's
// context (viewKey): its names resolve to the relations they resolved to
// when the view was created. parent is the view that named it, if any.
type viewFrame struct {
	view   *engine.View
	parent *viewFrame
}

type viewKey struct{}

func viewFrameOf(ctx context.Context) *viewFrame {
	f, _ := ctx.Value(viewKey{}).(*viewFrame)
	return f
}

// userSource binds a temporary table or a view (ok false for other
// names: public tables and the system relations, which table binds). In
// a view's query, a name it read when the view was created reads that
// relation still, whatever it is named now.
func (b *binder) userSource(schema, name string) (source, bool, error) {
	redirected := false
	if f := viewFrameOf(b.st.ctx); f != nil {
		for _, d := range f.view.Deps {
			if d.Name == name && (schema == "" || schema == "public" && d.Rel.Schema == "" || b.s.isTempSchema(schema) && d.Rel.Schema != "") {
				schema, name, redirected = d.Rel.Schema, d.Rel.Name, true
				if schema == "" {
					schema = "public"
				}
				break
			}
		}
	}
	t, v := b.s.userRelation(schema, name)
	switch {
	case v != nil:
		if v.Schema == "" && viewFrameOf(b.st.ctx) == nil {
			if err := b.s.checkSelect(v.Name, true); err != nil {
				return source{}, true, err
			}
		}
		src, err := b.viewSource(v)
		return src, true, err
	case t != nil && t.Schema != "":
		pins := pinsOf(b.st.ctx)
		if pins == nil {
			return source{}, true, engine.Errorf(engine.CodeInternalError, "table %q read outside a statement", name)
		}
		t, data, err := pins.table("\x00temp."+name, func() (*engine.Table, error) { return t, nil })
		if err != nil {
			return source{}, true, err
		}
		if d, ok := b.s.pending(t, txKey(t)); ok {
			data = d // written in the open transaction block
		}
		pins.source(data, t)
		return source{name: name, cols: t.Columns, data: data, oid: t.OID, present: true}, true, nil
	case redirected:
		src, err := b.s.lookupSource(b.st.ctx, "public", name)
		return src, true, err
	}
	return source{}, false, nil
}

// maxViewDepth bounds views read through views.
const maxViewDepth = 64

// viewSource binds view v's query as a derived table named after it.
// The query binds on its own, in the statement (the tables it reads are
// pinned with the statement's), but in no scope of the query that names
// the view: it sees neither its columns nor its WITH queries.
func (b *binder) viewSource(v *engine.View) (source, error) {
	pins := pinsOf(b.st.ctx)
	if pins == nil {
		return source{}, engine.Errorf(engine.CodeInternalError, "view %q read outside a statement", v.Name)
	}
	pins.note(v.Name, v.Ref())
	parent := viewFrameOf(b.st.ctx)
	depth := 0
	for f := parent; f != nil; f = f.parent {
		if depth++; depth > maxViewDepth || f.view.Ref() == v.Ref() {
			return source{}, engine.Errorf(engine.CodeInvalidRecursion, "infinite recursion detected in rules for relation %q", v.Name)
		}
	}
	stmts, err := parse.Parse(v.SQL)
	if err != nil {
		return source{}, err
	}
	sel, ok := stmts[0].(*parse.Select)
	if len(stmts) != 1 || !ok {
		return source{}, engine.Errorf(engine.CodeInternalError, "view %q: its definition is not a query", v.Name)
	}
	ctx := context.WithValue(b.st.ctx, viewKey{}, &viewFrame{view: v, parent: parent})
	sub := &binder{s: b.s, st: &stmtState{ctx: ctx, sources: b.st.sources, describe: b.st.describe}}
	pins.enterView()
	plan, _, err := sub.bindStmt(sel.AST)
	pins.leaveView()
	if err != nil {
		return source{}, err
	}
	if plan.Visible != len(v.Columns) {
		return source{}, engine.Errorf(engine.CodeInternalError, "view %q: its query has %d columns, the view %d", v.Name, plan.Visible, len(v.Columns))
	}
	names := append([]string(nil), plan.Names...)
	for i, c := range v.Columns {
		names[i] = c.Name
	}
	plan.Names = names
	return source{name: v.Name, cols: plan.Columns(), present: true, host: planIsHost(plan), rel: plan}, nil
}

// relationKind names what a relation is in PostgreSQL's messages.
func relationKind(t *engine.Table) string {
	if t != nil {
		return "table"
	}
	return "view"
}

// notice sends a NOTICE.
func notice(w engine.ResultWriter, code, format string, args ...any) {
	_ = w.Notice(engine.Notice{Severity: "NOTICE", Code: code, Message: fmt.Sprintf(format, args...)})
}

// cascadeNotice says which views a CASCADE dropped, as PostgreSQL does.
func cascadeNotice(w engine.ResultWriter, views []*engine.View) {
	switch len(views) {
	case 0:
	case 1:
		notice(w, engine.CodeSuccessfulCompletion, "drop cascades to view %s", viewName(views[0]))
	default:
		var lines []string
		for i := len(views) - 1; i >= 0; i-- { // the views read first come first
			lines = append(lines, "drop cascades to view "+viewName(views[i]))
		}
		_ = w.Notice(engine.Notice{Severity: "NOTICE", Code: engine.CodeSuccessfulCompletion,
			Message: fmt.Sprintf("drop cascades to %d other objects", len(views)), Detail: strings.Join(lines, "\n")})
	}
}

func viewName(v *engine.View) string {
	if v.Schema != "" {
		return v.Schema + "." + v.Name
	}
	return v.Name
}

// inDatabase is schema with the database that qualified it, if any,
// checked and removed: the session's database, as PostgreSQL requires
// (parse.SplitCatalog). name is the relation, for the message.
func (s *Session) inDatabase(schema, name string) (string, error) {
	db, rest, ok := parse.SplitCatalog(schema)
	if !ok {
		return schema, nil
	}
	if db != s.params.Database {
		return "", engine.Errorf(engine.CodeFeatureNotSupported, "cross-database references are not implemented: \"%s.%s.%s\"", db, rest, name)
	}
	return rest, nil
}

// unqualifyDatabases checks and removes the database that qualifies the
// names a statement parsed here writes (db.schema.name), in place.
func (s *Session) unqualifyDatabases(st parse.Stmt) error {
	one := func(schema *string, name string) error {
		var err error
		*schema, err = s.inDatabase(*schema, name)
		return err
	}
	list := func(schemas, names []string) error {
		for i := range schemas {
			if err := one(&schemas[i], names[i]); err != nil {
				return err
			}
		}
		return nil
	}
	switch st := st.(type) {
	case *parse.CreateTable:
		return one(&st.Schema, st.Name)
	case *parse.CreateTableAs:
		return one(&st.Schema, st.Name)
	case *parse.Insert:
		return one(&st.Schema, st.Table)
	case *parse.CreateView:
		return one(&st.Schema, st.Name)
	case *parse.AlterRename:
		return one(&st.Schema, st.Table)
	case *parse.Copy:
		return one(&st.Schema, st.Table)
	case *parse.DropTable:
		return list(st.Schemas, st.Names)
	case *parse.DropView:
		return list(st.Schemas, st.Names)
	case *parse.Truncate:
		return list(st.Schemas, st.Names)
	}
	return nil
}
