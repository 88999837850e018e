package engine

import (
	"sort"
	"strings"
	"sync"
)

// ColumnDef is one column of a table's schema.
type ColumnDef struct {
	Name    string
	Type    Type
	NotNull bool
}

// Table is a named table: its schema and its current data. Data is
// replaced whole when a load succeeds, so readers that took a snapshot
// keep a consistent view.
type Table struct {
	Name    string
	Columns []ColumnDef
	OID     uint32
	mu      sync.RWMutex
	data    TableData
}

// Data returns the table's current data (nil if never loaded).
func (t *Table) Data() TableData {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.data
}

// Rows is the number of rows now visible.
func (t *Table) Rows() int64 {
	if d := t.Data(); d != nil {
		return d.Rows()
	}
	return 0
}

// Column finds a column by name (names are stored folded as given).
func (t *Table) Column(name string) (int, bool) {
	for i, c := range t.Columns {
		if c.Name == name {
			return i, true
		}
	}
	return -1, false
}

// LoadError rows of the gpusql_load_errors system table.
type LoadErrorRow struct {
	Table string
	LoadError
}

// Catalog is the set of tables. It is safe for concurrent use.
type Catalog struct {
	mu      sync.RWMutex
	tables  map[string]*Table
	nextOID uint32
	errors  []LoadErrorRow
	// MaxLoadErrors caps the rows kept in gpusql_load_errors.
	MaxLoadErrors int
}

// NewCatalog returns an empty catalog.
func NewCatalog() *Catalog {
	return &Catalog{tables: map[string]*Table{}, nextOID: 16384, MaxLoadErrors: 1 << 20}
}

// Lookup finds a table by (already folded) name.
func (c *Catalog) Lookup(name string) (*Table, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	t, ok := c.tables[name]
	return t, ok
}

// Create adds a new empty table.
func (c *Catalog) Create(name string, cols []ColumnDef) (*Table, error) {
	seen := map[string]bool{}
	for _, col := range cols {
		if seen[col.Name] {
			return nil, Errorf(CodeDuplicateColumn, "column %q specified more than once", col.Name)
		}
		seen[col.Name] = true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.tables[name]; ok {
		return nil, Errorf(CodeDuplicateTable, "relation %q already exists", name)
	}
	t := &Table{Name: name, Columns: cols, OID: c.nextOID}
	c.nextOID++
	c.tables[name] = t
	return t, nil
}

// Drop removes a table and releases its data.
func (c *Catalog) Drop(name string) error {
	c.mu.Lock()
	t, ok := c.tables[name]
	if ok {
		delete(c.tables, name)
	}
	c.mu.Unlock()
	if !ok {
		return Errorf(CodeUndefinedTable, "table %q does not exist", name)
	}
	t.mu.Lock()
	if t.data != nil {
		t.data.Release()
		t.data = nil
	}
	t.mu.Unlock()
	return nil
}

// Replace installs data as the table's contents and releases the old
// contents. It is the commit point of a load: before it, readers see the
// old data; after it, the new.
func (c *Catalog) Replace(t *Table, data TableData) {
	t.mu.Lock()
	old := t.data
	t.data = data
	t.mu.Unlock()
	if old != nil {
		old.Release()
	}
}

// Tables lists tables sorted by name.
func (c *Catalog) Tables() []*Table {
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := make([]*Table, 0, len(c.tables))
	for _, t := range c.tables {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// RecordLoadErrors appends rows to gpusql_load_errors.
func (c *Catalog) RecordLoadErrors(table string, errs []LoadError) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, e := range errs {
		if len(c.errors) >= c.MaxLoadErrors {
			return
		}
		c.errors = append(c.errors, LoadErrorRow{Table: table, LoadError: e})
	}
}

// LoadErrors returns a copy of the gpusql_load_errors rows.
func (c *Catalog) LoadErrors() []LoadErrorRow {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return append([]LoadErrorRow(nil), c.errors...)
}

// FoldIdent folds an unquoted identifier to lower case, as PostgreSQL does.
func FoldIdent(s string) string { return strings.ToLower(s) }
