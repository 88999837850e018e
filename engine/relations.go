package engine

import (
	"sort"
	"strings"
)

// Relations other than public tables, and the DDL that changes a
// relation without loading it: views, each session's temporary schema,
// renames, TRUNCATE, and drops that respect the views that depend on
// what they drop.
//
// Names: a relation is named by its schema and name (RelRef). Schema ""
// is public; a temporary schema is named pg_temp_N after the session
// that owns it, and only that session resolves names in it. Tables and
// views share each schema's names, as in PostgreSQL.
//
// A Table value's Name, Schema and Columns never change: a rename makes a
// successor Table of the same OID that takes over the current version
// (Catalog.Alter), so a statement that resolved the old one reads
// consistent names, and a writer holding it fails with 42P01 as if the
// table had been dropped.

// RelRef names a relation: Schema "" is public.
type RelRef struct{ Schema, Name string }

// View is a named query: CREATE VIEW. A query that names it binds its
// SQL as a derived table, with Columns' names.
type View struct {
	Name    string
	Schema  string // "" public, or a session's temporary schema
	OID     uint32
	Columns []ColumnDef // names and types, as created
	// SQL is the query's text as written; Deps are the relations its
	// query reads (tables and views, directly).
	SQL  string
	Deps []ViewDep
}

// ViewDep is a relation a view's query reads: Rel, which its query names
// Name. A rename of Rel changes Rel, not the query: the view goes on
// reading the relation it read, as in PostgreSQL.
type ViewDep struct {
	Name string
	Rel  RelRef
}

// reads reports whether v's query reads r directly.
func (v *View) reads(r RelRef) bool {
	for _, d := range v.Deps {
		if d.Rel == r {
			return true
		}
	}
	return false
}

// Ref is the view's name as a RelRef.
func (v *View) Ref() RelRef { return RelRef{v.Schema, v.Name} }

// Ref is the table's name as a RelRef.
func (t *Table) Ref() RelRef { return RelRef{t.Schema, t.Name} }

// tempSchema is one session's temporary tables and views.
type tempSchema struct {
	tables map[string]*Table
	views  map[string]*View
}

// schemaMaps returns the table and view maps of schema; create makes a
// temporary schema's maps on first use. The caller holds c.mu.
func (c *Catalog) schemaMaps(schema string, create bool) (map[string]*Table, map[string]*View) {
	if schema == "" {
		return c.tables, c.views
	}
	ts := c.temp[schema]
	if ts == nil {
		if !create {
			return nil, nil
		}
		ts = &tempSchema{tables: map[string]*Table{}, views: map[string]*View{}}
		c.temp[schema] = ts
	}
	return ts.tables, ts.views
}

// NewOID allocates an object identifier, unique among the catalog's.
func (c *Catalog) NewOID() uint32 {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.nextOID++
	return c.nextOID - 1
}

// LookupIn finds the relation schema.name: a table or a view (both nil
// when there is none).
func (c *Catalog) LookupIn(schema, name string) (*Table, *View) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	tables, views := c.schemaMaps(schema, false)
	return tables[name], views[name]
}

// CreateIn adds a new table to schema ("" public, or a temporary schema)
// whose first version is data (nil: none), in one step: no reader sees
// the table without its data. On failure data is released.
func (c *Catalog) CreateIn(schema, name string, cols []ColumnDef, data TableData) (*Table, error) {
	var d Durable
	file := ""
	fail := func(err error) (*Table, error) {
		if data != nil {
			data.Release()
		}
		if file != "" {
			d.Discard(file)
		}
		return nil, err
	}
	if err := checkColumnNames(cols); err != nil {
		return fail(err)
	}
	if schema == "" {
		c.commitMu.Lock()
		d = c.dur
		c.commitMu.Unlock()
		var err error
		if file, err = save(d, name, data); err != nil {
			return fail(err)
		}
	}
	c.commitMu.Lock()
	defer c.commitMu.Unlock()
	c.mu.Lock()
	defer c.mu.Unlock()
	tables, views := c.schemaMaps(schema, true)
	if tables[name] != nil || views[name] != nil {
		return fail(Errorf(CodeDuplicateTable, "relation %q already exists", name))
	}
	t := &Table{Name: name, Schema: schema, Columns: cols, OID: c.nextOID, live: &c.live, cat: c, counters: newTableCounters(c)}
	undo := c.snapshotLocked()
	c.nextOID++
	tables[name] = t
	if file != "" && c.dur != d { // detached meanwhile
		d.Discard(file)
		file = ""
	}
	if schema == "" && c.dur == d {
		var rows int64
		if data != nil {
			rows = data.Rows()
		}
		if err := c.commitLocked(map[*Table]pending{t: {file, rows}}); err != nil {
			undo()
			return fail(err)
		}
	}
	if data != nil {
		t.cur = newVersion(data, t.live)
		t.cur.file = file
	}
	return t, nil
}

func checkColumnNames(cols []ColumnDef) error {
	seen := map[string]bool{}
	for _, col := range cols {
		if seen[col.Name] {
			return Errorf(CodeDuplicateColumn, "column %q specified more than once", col.Name)
		}
		seen[col.Name] = true
	}
	return nil
}

// CreateView adds view v (its Schema and Name set) and gives it an OID.
// With replace, an existing view of that name is replaced, keeping its
// OID, if v's columns begin with the old view's columns, of the same
// names and types (PostgreSQL's rule for CREATE OR REPLACE VIEW).
func (c *Catalog) CreateView(v *View, replace bool) error {
	if err := checkColumnNames(v.Columns); err != nil {
		return err
	}
	c.commitMu.Lock()
	defer c.commitMu.Unlock()
	c.mu.Lock()
	defer c.mu.Unlock()
	undo := c.snapshotLocked()
	tables, views := c.schemaMaps(v.Schema, true)
	if tables[v.Name] != nil {
		return Errorf(CodeDuplicateTable, "relation %q already exists", v.Name)
	}
	if v.reads(v.Ref()) {
		return Errorf(CodeInvalidRecursion, "infinite recursion detected in rules for relation %q", v.Name)
	}
	old := views[v.Name]
	if old != nil {
		if !replace {
			return Errorf(CodeDuplicateTable, "relation %q already exists", v.Name)
		}
		if len(v.Columns) < len(old.Columns) {
			return Errorf(CodeInvalidTableDefinition, "cannot drop columns from view")
		}
		for i, oc := range old.Columns {
			nc := v.Columns[i]
			if nc.Name != oc.Name {
				return Errorf(CodeInvalidTableDefinition, "cannot change name of view column %q to %q", oc.Name, nc.Name).
					WithHint("Use ALTER VIEW ... RENAME COLUMN ... to change name of view column instead.")
			}
			if nc.Type != oc.Type {
				return Errorf(CodeInvalidTableDefinition, "cannot change data type of view column %q from %s to %s", oc.Name, oc.Type, nc.Type)
			}
		}
		if c.readsLocked(v, old.Ref()) {
			return Errorf(CodeInvalidRecursion, "infinite recursion detected in rules for relation %q", v.Name)
		}
		v.OID = old.OID
	} else {
		v.OID = c.nextOID
		c.nextOID++
	}
	views[v.Name] = v
	if v.Schema == "" {
		if err := c.commitLocked(nil); err != nil {
			undo()
			return err
		}
	}
	return nil
}

// readsLocked reports whether view v reads r, directly or through other
// views. The caller holds c.mu.
func (c *Catalog) readsLocked(v *View, r RelRef) bool {
	seen := map[RelRef]bool{}
	var walk func(v *View) bool
	walk = func(v *View) bool {
		for _, d := range v.Deps {
			if d.Rel == r {
				return true
			}
			if seen[d.Rel] {
				continue
			}
			seen[d.Rel] = true
			_, views := c.schemaMaps(d.Rel.Schema, false)
			if dv := views[d.Rel.Name]; dv != nil && walk(dv) {
				return true
			}
		}
		return false
	}
	return walk(v)
}

// allViewsLocked lists every view of every schema, sorted by schema and
// name. The caller holds c.mu.
func (c *Catalog) allViewsLocked() []*View {
	var out []*View
	for _, v := range c.views {
		out = append(out, v)
	}
	for _, ts := range c.temp {
		for _, v := range ts.views {
			out = append(out, v)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Schema != out[j].Schema {
			return out[i].Schema < out[j].Schema
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// dependentsLocked lists the views that read r, directly or through
// other views, each once, those that depend on others first (the order
// to drop them in). The caller holds c.mu.
func (c *Catalog) dependentsLocked(r RelRef) []*View {
	all := c.allViewsLocked()
	var out []*View
	seen := map[RelRef]bool{}
	var visit func(r RelRef)
	visit = func(r RelRef) {
		for _, v := range all {
			if !seen[v.Ref()] && v.reads(r) {
				seen[v.Ref()] = true
				visit(v.Ref())
				out = append(out, v)
			}
		}
	}
	visit(r)
	return out
}

// Dependents lists the views that read r, directly or through other
// views.
func (c *Catalog) Dependents(r RelRef) []*View {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.dependentsLocked(r)
}

// Views lists schema public's views and those of the temporary schema
// temp ("" none), sorted by schema and name.
func (c *Catalog) Views(temp string) []*View {
	c.mu.RLock()
	defer c.mu.RUnlock()
	var out []*View
	for _, v := range c.allViewsLocked() {
		if v.Schema == "" || v.Schema == temp && temp != "" {
			out = append(out, v)
		}
	}
	return out
}

// TempTables lists the tables of temporary schema temp, sorted by name.
func (c *Catalog) TempTables(temp string) []*Table {
	c.mu.RLock()
	defer c.mu.RUnlock()
	var out []*Table
	if ts := c.temp[temp]; ts != nil {
		for _, t := range ts.tables {
			out = append(out, t)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// DependencyError is 2BP01 for dropping r (what: "table" or "view"),
// which views deps depend on (as Dependents lists them).
func DependencyError(what string, r RelRef, deps []*View) *Error {
	var lines []string
	for i := len(deps) - 1; i >= 0; i-- {
		v := deps[i]
		on := what + " " + qualified(r)
	find:
		for _, d := range v.Deps {
			if d.Rel == r {
				break
			}
			for _, o := range deps {
				if o.Ref() == d.Rel {
					on = "view " + qualified(d.Rel)
					break find
				}
			}
		}
		lines = append(lines, "view "+qualified(v.Ref())+" depends on "+on)
	}
	e := Errorf(CodeDependentObjects, "cannot drop %s %s because other objects depend on it", what, qualified(r))
	e.Detail = strings.Join(lines, "\n")
	e.Hint = "Use DROP ... CASCADE to drop the dependent objects too."
	return e
}

func qualified(r RelRef) string {
	if r.Schema == "" {
		return r.Name
	}
	return r.Schema + "." + r.Name
}

// DropRelation removes relation r, a table or a view, and with cascade
// the views that depend on it, which it returns; without cascade such
// views make it fail with 2BP01. A dropped table's data is freed once no
// statement pins it. It fails with 42P01 when r does not exist.
func (c *Catalog) DropRelation(r RelRef, cascade bool) ([]*View, error) {
	c.commitMu.Lock()
	c.mu.Lock()
	undo := c.snapshotLocked()
	tables, views := c.schemaMaps(r.Schema, false)
	t, v := tables[r.Name], views[r.Name]
	if t == nil && v == nil {
		c.mu.Unlock()
		c.commitMu.Unlock()
		return nil, Errorf(CodeUndefinedTable, "relation %q does not exist", r.Name)
	}
	deps := c.dependentsLocked(r)
	if len(deps) > 0 && !cascade {
		c.mu.Unlock()
		c.commitMu.Unlock()
		what := "table"
		if v != nil {
			what = "view"
		}
		return nil, DependencyError(what, r, deps)
	}
	for _, d := range deps {
		_, dv := c.schemaMaps(d.Schema, false)
		delete(dv, d.Name)
	}
	if t != nil {
		delete(tables, r.Name)
	} else {
		delete(views, r.Name)
	}
	public := r.Schema == ""
	for _, d := range deps {
		public = public || d.Schema == ""
	}
	if public {
		if err := c.commitLocked(nil); err != nil {
			undo()
			c.mu.Unlock()
			c.commitMu.Unlock()
			return nil, err
		}
	}
	c.mu.Unlock()
	// Unlocked before retire, which waits for the table's writer: that
	// writer may be waiting for commitMu (lock order: durable.go).
	c.commitMu.Unlock()
	if t != nil {
		t.retire()
	}
	return deps, nil
}

// RestoreView puts view v back in the catalog as it was: the undo of a
// transaction block's DROP VIEW or CREATE OR REPLACE VIEW. It fails when
// another relation has taken the name meanwhile.
func (c *Catalog) RestoreView(v *View) error {
	c.commitMu.Lock()
	defer c.commitMu.Unlock()
	c.mu.Lock()
	defer c.mu.Unlock()
	undo := c.snapshotLocked()
	tables, views := c.schemaMaps(v.Schema, true)
	if cur := views[v.Name]; tables[v.Name] != nil || cur != nil && cur.OID != v.OID {
		return Errorf(CodeDuplicateTable, "relation %q already exists", v.Name)
	}
	views[v.Name] = v
	if v.Schema == "" {
		if err := c.commitLocked(nil); err != nil {
			undo()
			return err
		}
	}
	return nil
}

// DropSchema drops temporary schema temp with every table and view in
// it (a session's end). Views of other schemas cannot depend on them.
func (c *Catalog) DropSchema(temp string) {
	if temp == "" {
		return
	}
	c.mu.Lock()
	ts := c.temp[temp]
	delete(c.temp, temp)
	c.mu.Unlock()
	if ts == nil {
		return
	}
	for _, t := range ts.tables {
		t.retire()
	}
}

// retire marks t dropped and drops its reference to its current version
// (freed when no statement pins it).
func (t *Table) retire() {
	t.writeMu.Lock()
	defer t.writeMu.Unlock()
	if old := t.detach(); old != nil {
		old.unpin()
	}
}

// detach marks t dropped and returns its current version with the
// table's reference, for the caller to unpin or hand on. The caller
// holds t.writeMu.
func (t *Table) detach() *version {
	t.mu.Lock()
	defer t.mu.Unlock()
	old := t.cur
	t.cur, t.dropped = nil, true
	return old
}

// Alter replaces table t by a successor of the same OID, schema and data,
// named name with columns cols (a rename of the table or of a column).
// Statements that resolved t keep reading what they pinned; a writer
// still holding t fails as on a dropped table. Name conflicts are 42P07.
func (c *Catalog) Alter(t *Table, name string, cols []ColumnDef) (*Table, error) {
	if err := checkColumnNames(cols); err != nil {
		return nil, err
	}
	// Writers lock a table before the catalog (never the other way), so
	// that a rename waits for a running append and the successor gets
	// its version.
	t.writeMu.Lock()
	defer t.writeMu.Unlock()
	c.commitMu.Lock()
	defer c.commitMu.Unlock()
	c.mu.Lock()
	defer c.mu.Unlock()
	tables, views := c.schemaMaps(t.Schema, false)
	if tables[t.Name] != t {
		return nil, Errorf(CodeUndefinedTable, "relation %q does not exist", t.Name)
	}
	if name != t.Name && (tables[name] != nil || views[name] != nil) {
		return nil, Errorf(CodeDuplicateTable, "relation %q already exists", name)
	}
	// The successor takes over the version with its reference, and both
	// names change under c.mu: no reader sees the table without data.
	nt := &Table{Name: name, Schema: t.Schema, Columns: cols, OID: t.OID, live: t.live, cat: c, counters: t.Counters()}
	undo := c.snapshotLocked()
	delete(tables, t.Name)
	tables[name] = nt
	c.renamedLocked(t.Ref(), nt.Ref())
	if t.Schema == "" {
		p := pending{}
		t.mu.Lock()
		if t.cur != nil {
			p = pending{t.cur.file, t.cur.data.Rows()}
		}
		t.mu.Unlock()
		if err := c.commitLocked(map[*Table]pending{nt: p}); err != nil {
			undo()
			return nil, err
		}
	}
	nt.cur = t.detach()
	return nt, nil
}

// renamedLocked makes the views that read relation from read to instead,
// a rename of it. The caller holds c.mu.
func (c *Catalog) renamedLocked(from, to RelRef) {
	if from == to {
		return
	}
	for _, v := range c.allViewsLocked() {
		if !v.reads(from) {
			continue
		}
		nv := *v
		nv.Deps = append([]ViewDep(nil), v.Deps...)
		for i := range nv.Deps {
			if nv.Deps[i].Rel == from {
				nv.Deps[i].Rel = to
			}
		}
		_, views := c.schemaMaps(v.Schema, false)
		views[v.Name] = &nv
	}
}

// AlterView replaces view v by a view of the same OID, query and
// dependencies named name with columns cols.
func (c *Catalog) AlterView(v *View, name string, cols []ColumnDef) error {
	if err := checkColumnNames(cols); err != nil {
		return err
	}
	c.commitMu.Lock()
	defer c.commitMu.Unlock()
	c.mu.Lock()
	defer c.mu.Unlock()
	undo := c.snapshotLocked()
	tables, views := c.schemaMaps(v.Schema, false)
	if views[v.Name] != v {
		return Errorf(CodeUndefinedTable, "relation %q does not exist", v.Name)
	}
	if name != v.Name && (tables[name] != nil || views[name] != nil) {
		return Errorf(CodeDuplicateTable, "relation %q already exists", name)
	}
	nv := *v
	nv.Name, nv.Columns = name, cols
	delete(views, v.Name)
	views[name] = &nv
	c.renamedLocked(v.Ref(), nv.Ref())
	if v.Schema == "" {
		if err := c.commitLocked(nil); err != nil {
			undo()
			return err
		}
	}
	return nil
}

// Truncate publishes an empty version of t: no data, as a table that was
// never loaded. Readers that pinned the old version keep it.
func (t *Table) Truncate() error {
	t.writeMu.Lock()
	defer t.writeMu.Unlock()
	if t.isDropped() {
		return Errorf(CodeUndefinedTable, "relation %q does not exist", t.Name)
	}
	return t.commitData(nil)
}
