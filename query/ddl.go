package query

import (
	"context"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/query/parse"
)

// Views, drops, TRUNCATE and ALTER ... RENAME.

// createView runs CREATE [OR REPLACE] [TEMP] VIEW. The query is bound
// (not run) to learn its columns and the relations it reads; the view
// keeps its text and binds it where a query names the view.
func (s *Session) createView(ctx context.Context, st *parse.CreateView, w engine.ResultWriter) error {
	if !st.Temp && st.Schema == "" && isSystemTable(st.Name) || st.Schema == "public" && isSystemTable(st.Name) {
		return engine.Errorf(engine.CodeDuplicateTable, "relation %q already exists", st.Name)
	}
	if _, err := s.createIn(st.Schema, st.Temp); err != nil {
		return err
	}
	plan, _, err := s.describeSelect(ctx, st.Query.AST, nil)
	if err != nil {
		return err
	}
	deps := pinsOf(ctx).relations()
	cols, err := resultColumns(plan, st.Columns, "CREATE VIEW")
	if err != nil {
		return err
	}
	temp := st.Temp || st.Schema != "" && st.Schema != "public"
	if !temp {
		for _, d := range deps {
			if d.Rel.Schema != "" {
				// a view of a temporary relation is temporary itself
				temp = true
				notice(w, engine.CodeSuccessfulCompletion, "view %q will be a temporary view", st.Name)
				break
			}
		}
	}
	if temp && st.Schema == "public" {
		return engine.Errorf(engine.CodeInvalidTableDefinition, "cannot create temporary relation in non-temporary schema")
	}
	schema := ""
	if temp {
		schema = s.tempSchema()
	}
	if err := s.claimName(schema, st.Name); err != nil {
		return err
	}
	if st.Replace {
		if t, _ := s.srv.cat.LookupIn(schema, st.Name); t != nil {
			return engine.Errorf(engine.CodeWrongObjectType, "%q is not a view", st.Name)
		}
	}
	v := &engine.View{Name: st.Name, Schema: schema, Columns: cols, SQL: st.QueryText, Deps: deps}
	_, old := s.srv.cat.LookupIn(schema, st.Name)
	if err := s.srv.cat.CreateView(v, st.Replace); err != nil {
		return err
	}
	s.logUndo(func() {
		// the view, unless another session replaced it (a rename in
		// the block, undone first, keeps its OID)
		if _, cur := s.srv.cat.LookupIn(v.Schema, v.Name); cur == nil || cur.OID != v.OID {
			return
		}
		if old != nil {
			_ = s.srv.cat.RestoreView(old)
		} else {
			_, _ = s.srv.cat.DropRelation(v.Ref(), true)
		}
	})
	return w.Complete("CREATE VIEW")
}

// dropView runs DROP VIEW.
func (s *Session) dropView(st *parse.DropView, w engine.ResultWriter) error {
	return s.dropRelations(st.Names, st.Schemas, st.IfExists, st.Cascade, true, w)
}

// dropRelations drops the tables (or, with views set, the views) names
// (schemas as written, see parse.SchemaOf). Every name is checked first;
// the relations are dropped together, so that one may depend on another
// of them without CASCADE.
func (s *Session) dropRelations(names, schemas []string, ifExists, cascade, views bool, w engine.ResultWriter) error {
	kind, tag, other := "table", "DROP TABLE", "DROP VIEW to remove a view"
	if views {
		kind, tag, other = "view", "DROP VIEW", "DROP TABLE to remove a table"
	}
	var refs []engine.RelRef
	dropping := map[engine.RelRef]bool{}
	for i, name := range names {
		schema := parse.SchemaOf(schemas, i)
		t, v := s.userRelation(schema, name)
		if !views && t == nil && v == nil && (schema == "" || schema == "public") && isSystemTable(name) {
			return engine.Errorf(engine.CodeInsufficientPrivilege, "permission denied: %q is a system table", name)
		}
		switch {
		case t == nil && v == nil:
			if !ifExists {
				return engine.Errorf(engine.CodeUndefinedTable, "%s %q does not exist", kind, name)
			}
			notice(w, engine.CodeSuccessfulCompletion, "%s %q does not exist, skipping", kind, name)
			continue
		case views && t != nil, !views && v != nil:
			return engine.Errorf(engine.CodeWrongObjectType, "%q is not a %s", name, kind).WithHint("Use " + other + ".")
		}
		r := engine.RelRef{Name: name}
		if t != nil {
			r.Schema = t.Schema
		} else {
			r.Schema = v.Schema
		}
		if !dropping[r] {
			refs = append(refs, r)
			dropping[r] = true
		}
	}
	// Without CASCADE, only views that are dropped too may depend on
	// what is dropped.
	if !cascade {
		for _, r := range refs {
			var outside []*engine.View
			for _, d := range s.srv.cat.Dependents(r) {
				if !dropping[d.Ref()] {
					outside = append(outside, d)
				}
			}
			if len(outside) > 0 {
				return engine.DependencyError(kind, r, s.srv.cat.Dependents(r))
			}
		}
	}
	var cascaded, dropped []*engine.View
	for _, r := range refs {
		if !views && s.inBlock() {
			// in a block: hidden from the block now, dropped at COMMIT;
			// the views CASCADE takes go now, as DROP VIEW's do
			t, _ := s.lookup(r.Schema, r.Name)
			if t == nil {
				continue // dropped meanwhile
			}
			for _, d := range s.srv.cat.Dependents(r) {
				if _, v := s.srv.cat.LookupIn(d.Schema, d.Name); v == nil {
					continue // dropped with an earlier one
				}
				deps, err := s.srv.cat.DropRelation(d.Ref(), true)
				if err != nil {
					return err
				}
				for _, v := range append(deps, d) {
					if v.Schema == "" {
						if err := s.srv.opts.Roles.TableDropped(v.Name); err != nil {
							return err
						}
					}
					if !dropping[v.Ref()] {
						cascaded = append(cascaded, v)
					}
					dropping[v.Ref()] = true
					dropped = append(dropped, v)
				}
			}
			s.tx.dropped = append(s.tx.dropped, droppedTable{table: t, cascade: cascade})
			continue
		}
		if !views {
			s.forgetTable(txKey(&engine.Table{Schema: r.Schema, Name: r.Name}))
		} else if _, v := s.srv.cat.LookupIn(r.Schema, r.Name); v != nil {
			dropped = append(dropped, v)
		}
		deps, err := s.srv.cat.DropRelation(r, true)
		if err != nil {
			if engine.Code(err) == engine.CodeUndefinedTable && ifExists {
				continue // dropped meanwhile, or as a dependent of an earlier one
			}
			if engine.Code(err) == engine.CodeUndefinedTable && dropping[r] {
				continue
			}
			return err
		}
		if r.Schema == "" {
			if err := s.relationDropped(r.Name, views); err != nil {
				return err
			}
		}
		for _, d := range deps {
			if d.Schema == "" {
				if err := s.relationDropped(d.Name, views); err != nil {
					return err
				}
			}
			if !dropping[d.Ref()] {
				cascaded = append(cascaded, d)
			}
			dropping[d.Ref()] = true
		}
		if views {
			dropped = append(dropped, deps...)
		}
	}
	if len(dropped) > 0 {
		// a rollback brings the views back
		s.logUndo(func() {
			for i := len(dropped) - 1; i >= 0; i-- {
				_ = s.srv.cat.RestoreView(dropped[i])
			}
		})
	}
	cascadeNotice(w, cascaded)
	return w.Complete(tag)
}

// truncate runs TRUNCATE: each table's next version is empty (in a
// transaction block, the block's version until COMMIT).
func (s *Session) truncate(st *parse.Truncate, w engine.ResultWriter) error {
	var tables []*engine.Table
	for i, name := range st.Names {
		schema := parse.SchemaOf(st.Schemas, i)
		if t, v := s.userRelation(schema, name); t == nil && v == nil && (schema == "" || schema == "public") && isSystemTable(name) {
			return engine.Errorf(engine.CodeInsufficientPrivilege, "permission denied: %q is a system table", name)
		}
		t, err := s.userTable(schema, name, "TRUNCATE")
		if err != nil {
			return err
		}
		tables = append(tables, t)
	}
	for _, t := range tables {
		// the empty version is the backend's own data (a table with no
		// data at all is one that was never loaded), and in a block it
		// stays the block's until COMMIT
		store, err := s.tableStore()
		if err != nil {
			return err
		}
		empty, err := store.Store(engine.EmptyHost(t.Columns), s.storeOptions(t.Name))
		if err != nil {
			return err
		}
		if err := s.writeTable(t, txKey(t), empty, func(_, add engine.TableData) (engine.TableData, error) { return add, nil }); err != nil {
			return err
		}
		s.countTruncate(t)
	}
	return w.Complete("TRUNCATE TABLE")
}

// alterRename runs ALTER TABLE | VIEW ... RENAME. The views that read a
// renamed relation go on reading it (Catalog.Alter); a column that views
// may read cannot be renamed, as a view keeps its query as text.
func (s *Session) alterRename(st *parse.AlterRename, w engine.ResultWriter) error {
	tag := "ALTER TABLE"
	if st.View {
		tag = "ALTER VIEW"
	}
	t, v := s.userRelation(st.Schema, st.Table)
	switch {
	case t == nil && v == nil:
		if st.IfExists {
			notice(w, engine.CodeSuccessfulCompletion, "relation %q does not exist, skipping", st.Table)
			return w.Complete(tag)
		}
		return engine.Errorf(engine.CodeUndefinedTable, "relation %q does not exist", st.Table)
	case st.View && t != nil:
		return engine.Errorf(engine.CodeWrongObjectType, "%q is not a view", st.Table).WithHint("Use ALTER TABLE instead.")
	}
	ref := engine.RelRef{Name: st.Table}
	cols := []engine.ColumnDef(nil)
	if t != nil {
		ref.Schema, cols = t.Schema, t.Columns
	} else {
		ref.Schema, cols = v.Schema, v.Columns
	}
	if deps := s.srv.cat.Dependents(ref); len(deps) > 0 && st.Column != "" {
		return engine.Errorf(engine.CodeFeatureNotSupported, "cannot rename a column of %s %q: view %s reads it, and gpusql keeps a view's query as its text", relationKind(t), st.Table, viewName(deps[len(deps)-1])).
			WithHint("Drop the views that read it, rename, and create them again.")
	}
	name := st.Table
	if st.Column == "" {
		name = st.NewName
	} else {
		found := -1
		for i, c := range cols {
			if c.Name == st.Column {
				found = i
			}
			if c.Name == st.NewName {
				return engine.Errorf(engine.CodeDuplicateColumn, "column %q of relation %q already exists", st.NewName, st.Table)
			}
		}
		if found < 0 {
			return engine.Errorf(engine.CodeUndefinedColumn, "column %q does not exist", st.Column)
		}
		cols = append([]engine.ColumnDef(nil), cols...)
		cols[found].Name = st.NewName
	}
	if name != st.Table {
		if err := s.claimName(ref.Schema, name); err != nil {
			return err
		}
	}
	if t != nil {
		if _, ok := s.pending(t, txKey(t)); ok {
			return engine.Errorf(engine.CodeFeatureNotSupported, "cannot rename table %q: this transaction block wrote it, and gpusql renames at once", st.Table).
				WithHint("COMMIT the block first.")
		}
		if name != t.Name && t.Schema == "" && isSystemTable(name) {
			return engine.Errorf(engine.CodeDuplicateTable, "relation %q already exists", name)
		}
		nt, err := s.srv.cat.Alter(t, name, cols)
		if err != nil {
			return err
		}
		s.renamedCreated(t, nt)
		s.logUndo(func() {
			if back, err := s.srv.cat.Alter(nt, t.Name, t.Columns); err == nil {
				s.renamedCreated(nt, back)
			}
		})
	} else {
		if err := s.srv.cat.AlterView(v, name, cols); err != nil {
			return err
		}
		if _, nv := s.srv.cat.LookupIn(v.Schema, name); nv != nil {
			s.logUndo(func() { _ = s.srv.cat.AlterView(nv, v.Name, v.Columns) })
		}
	}
	if public := t != nil && t.Schema == "" || v != nil && v.Schema == ""; public && name != st.Table {
		if err := s.relationRenamed(st.Table, name); err != nil {
			return err
		}
	}
	return w.Complete(tag)
}

// warnWrites is the WARNING of a ROLLBACK of a transaction block that
// changed what a rollback does not restore. A block keeps its writes to
// table data (INSERT, COPY, TRUNCATE) and its DROP TABLEs until COMMIT,
// drops the tables it created and reverses its CREATE VIEW, DROP VIEW
// and ALTER ... RENAME (tx.go); only a table it dropped and whose name
// it then gave to another relation was dropped at that point
// (claimName), and a ROLLBACK says so.
func (s *Session) warnWrites(w engine.ResultWriter) {
	if s.txWrote && s.inTx {
		_ = w.Notice(engine.Notice{Severity: "WARNING", Code: engine.CodeWarning,
			Message: "a table this transaction block dropped and whose name it reused was dropped then: ROLLBACK did not bring it back"})
	}
}
