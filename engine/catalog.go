package engine

import (
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// ColumnDef is one column of a table's schema.
type ColumnDef struct {
	Name    string
	Type    Type
	NotNull bool
}

// Table is a named table: its schema and its current version of data.
//
// Data is versioned. A load, an append or a replacement builds new data
// and publishes it as a new version in one step; nothing changes a
// published version in place. A reader pins the version it reads (Pin)
// and releases it when done; a version's memory, host or device, is freed
// when the table no longer points to it and its last pin is released.
type Table struct {
	Name    string
	Columns []ColumnDef
	OID     uint32
	// Schema is "" for a table of schema public, or a session's
	// temporary schema (pg_temp_N) for a temporary table, which the
	// catalog keeps apart from the public names (relations.go).
	Schema string

	// writeMu serialises writers (Write, Drop), so that an append
	// reads the version it extends and publishes its successor with no
	// other writer in between.
	writeMu sync.Mutex
	// mu guards cur and dropped for readers.
	mu      sync.Mutex
	cur     *version // nil: never loaded
	dropped bool
	// live counts the catalog's versions not yet freed.
	live *atomic.Int64
	// cat is the catalog the table is in (nil for a table made outside
	// one), which writes its versions to stable storage (durable.go).
	cat *Catalog
	// counters are the table's activity counts (tablecounters.go),
	// guarded by mu until set.
	counters *TableCounters
}

// version is one committed state of a table's data. refs counts the
// table's own reference (while it is current) and every Snapshot.
type version struct {
	data TableData
	refs atomic.Int64
	live *atomic.Int64
	// file is the durable copy of data ("" when the catalog keeps
	// none), named as the Durable that wrote it names it.
	file string
}

func newVersion(d TableData, live *atomic.Int64) *version {
	v := &version{data: d, live: live}
	v.refs.Store(1)
	live.Add(1)
	return v
}

func (v *version) unpin() {
	switch n := v.refs.Add(-1); {
	case n == 0:
		v.data.Release()
		v.live.Add(-1)
	case n < 0:
		panic("engine: table version released more often than pinned")
	}
}

// Snapshot is a pinned version of a table's data: it stays valid, and
// unchanged, until Release, whatever loads, appends and drops happen
// meanwhile.
type Snapshot struct {
	v    *version
	done atomic.Bool
}

// Data is the pinned data; nil if the table had never been loaded.
func (s *Snapshot) Data() TableData {
	if s == nil || s.v == nil {
		return nil
	}
	return s.v.data
}

// Release unpins the version. It is idempotent; Data must not be used
// afterwards.
func (s *Snapshot) Release() {
	if s == nil || s.v == nil || !s.done.CompareAndSwap(false, true) {
		return
	}
	s.v.unpin()
}

// Pin pins the table's current version. The caller releases it.
func (t *Table) Pin() *Snapshot {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cur == nil {
		return &Snapshot{}
	}
	t.cur.refs.Add(1)
	return &Snapshot{v: t.cur}
}

// PinLive is Pin for a statement about to read t, which it looked up
// before: ok is false when t has been dropped since, so that the statement
// reports the relation missing (as if it had looked after the drop)
// instead of reading no rows, a state t never had.
func (t *Table) PinLive() (s *Snapshot, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.dropped {
		return nil, false
	}
	if t.cur == nil {
		return &Snapshot{}, true
	}
	t.cur.refs.Add(1)
	return &Snapshot{v: t.cur}, true
}

// Stats reports the current version's row count and storage size.
func (t *Table) Stats() (rows, bytes int64) {
	s := t.Pin()
	defer s.Release()
	if d := s.Data(); d != nil {
		return d.Rows(), d.DeviceBytes()
	}
	return 0, 0
}

// Placement is the current version's share on each device, for data
// split over several (nil otherwise).
func (t *Table) Placement() []PartBytes {
	s := t.Pin()
	defer s.Release()
	if p, ok := s.Data().(Placed); ok {
		return p.Placement()
	}
	return nil
}

// Rows is the number of rows now visible.
func (t *Table) Rows() int64 {
	n, _ := t.Stats()
	return n
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

// publish makes data the current version (nil: none), kept durably in
// file, and unpins the old one. The caller holds writeMu.
func (t *Table) publish(data TableData, file string) {
	t.mu.Lock()
	old := t.cur
	t.cur = nil
	if data != nil {
		t.cur = newVersion(data, t.live)
		t.cur.file = file
	}
	t.mu.Unlock()
	if old != nil {
		old.unpin()
	}
}

// commitData makes data (nil: none) t's new version: written to stable
// storage first when the catalog keeps t there (durable.go), and then
// published. On failure nothing changes and the caller still owns data.
// The caller holds writeMu.
func (t *Table) commitData(data TableData) error {
	d := t.durable()
	if d == nil {
		t.publish(data, "")
		return nil
	}
	f, err := save(d, t.Name, data)
	if err != nil {
		return err
	}
	var rows int64
	if data != nil {
		rows = data.Rows()
	}
	return t.cat.commitTables(map[*Table]pending{t: {f, rows}}, func() { t.publish(data, f) })
}

// Write is the commit point of a load or an append: it publishes add,
// or with merge set what merge builds from the current data and add, as
// the table's new version (merge may return cur itself to keep the
// current version). It holds the table's writer lock, so the
// current data merge sees (nil if none; valid only during the call) is
// the version it replaces. Write owns add: it is released if anything
// fails, and after a merge (whose result must not share add's storage).
// If the table was dropped, nothing is published and Write fails with
// 42P01. If merge fails, nothing changes.
func (t *Table) Write(add TableData, merge func(cur, add TableData) (TableData, error)) error {
	t.writeMu.Lock()
	defer t.writeMu.Unlock()
	t.mu.Lock()
	dropped := t.dropped
	var cur TableData
	if t.cur != nil {
		cur = t.cur.data
	}
	t.mu.Unlock()
	release := func() {
		if add != nil {
			add.Release()
		}
	}
	if dropped {
		release()
		return Errorf(CodeUndefinedTable, "relation %q was dropped during the load", t.Name)
	}
	data := add
	if merge != nil {
		var err error
		if data, err = merge(cur, add); err != nil {
			release()
			return err
		}
		if data != add {
			defer release()
		}
		if cur != nil && data == cur {
			return nil // nothing to add: the current version stays
		}
	}
	if err := t.commitData(data); err != nil {
		if data != add {
			data.Release()
		} else {
			release()
		}
		return err
	}
	return nil
}

// LoadErrorRow is one row of the gpusql_load_errors system table.
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
	// views are schema public's views by name, temp the sessions'
	// temporary schemas (relations.go).
	views map[string]*View
	temp  map[string]*tempSchema
	// MaxLoadErrors caps the rows kept in gpusql_load_errors.
	MaxLoadErrors int
	live          atomic.Int64 // versions not yet freed, of all tables

	// commitMu orders the changes to schema public with their commits
	// to dur, the durable store (nil: none); durable.go.
	commitMu sync.Mutex
	dur      Durable

	// dbStats are the database's activity counters (dbcounters.go).
	dbStats DatabaseCounters
}

// NewCatalog returns an empty catalog.
func NewCatalog() *Catalog {
	return &Catalog{tables: map[string]*Table{}, views: map[string]*View{}, temp: map[string]*tempSchema{},
		nextOID: 16384, MaxLoadErrors: 1 << 20}
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
	return c.CreateWith(name, cols, nil)
}

// CreateWith adds a new table whose first version is data (nil: none),
// in one step: no reader sees the table without its data. On failure
// data is released.
func (c *Catalog) CreateWith(name string, cols []ColumnDef, data TableData) (*Table, error) {
	return c.CreateIn("", name, cols, data)
}

// Drop removes a table from memory (not from a durable store: DROP TABLE
// is DropRelation): what closing an engine does, after Detach. Its data
// is freed once no query holds it.
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
	t.writeMu.Lock()
	defer t.writeMu.Unlock()
	t.mu.Lock()
	old := t.cur
	t.cur, t.dropped = nil, true
	t.mu.Unlock()
	if old != nil {
		old.unpin()
	}
	return nil
}

// LiveVersions is the number of table versions whose data is not yet
// freed: each loaded table's current one, and older ones that running
// statements still pin.
func (c *Catalog) LiveVersions() int64 { return c.live.Load() }

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

// TxWrite is one table's new data from a transaction: Data replaces the
// version whose data was Base (nil: the table had none) when the
// transaction commits.
type TxWrite struct {
	Table *Table
	Base  TableData
	Data  TableData
}

// CommitWrites publishes a transaction's writes, all or none: it takes
// every table's writer lock (in OID order), checks that no other writer
// changed a table since the transaction read it, and only then publishes
// each new version. A table that was dropped meanwhile is skipped, its
// data released. If another writer got in first, nothing is published,
// the caller keeps ownership of every Data, and the error is 40001; on
// success the tables own the data.
func CommitWrites(ws []TxWrite) error {
	ws = append([]TxWrite(nil), ws...)
	sort.Slice(ws, func(i, j int) bool { return ws[i].Table.OID < ws[j].Table.OID })
	for i, w := range ws {
		if i > 0 && ws[i-1].Table == w.Table {
			return Errorf(CodeInternalError, "table %q written twice in one commit", w.Table.Name)
		}
		w.Table.writeMu.Lock()
		defer w.Table.writeMu.Unlock()
	}
	for _, w := range ws {
		t := w.Table
		t.mu.Lock()
		var cur TableData
		if t.cur != nil {
			cur = t.cur.data
		}
		dropped := t.dropped
		t.mu.Unlock()
		if !dropped && cur != w.Base {
			return Errorf(CodeSerializationFailure, "could not serialize access due to concurrent update").
				WithDetail("Table %q was changed by another session while this transaction wrote to it.", t.Name)
		}
	}
	// Save the public tables' new data, then commit them all at once.
	files := map[*Table]pending{}
	var cat *Catalog
	var d Durable
	for _, w := range ws {
		if d == nil {
			if d = w.Table.durable(); d != nil {
				cat = w.Table.cat
			}
		}
	}
	discard := func() {
		for _, p := range files {
			if p.file != "" {
				d.Discard(p.file)
			}
		}
	}
	for _, w := range ws {
		t := w.Table
		if d == nil || t.cat != cat || t.Schema != "" || t.isDropped() {
			continue
		}
		f, err := save(d, t.Name, w.Data)
		if err != nil {
			discard()
			return err
		}
		var rows int64
		if w.Data != nil {
			rows = w.Data.Rows()
		}
		files[t] = pending{f, rows}
	}
	publish := func() {
		for _, w := range ws {
			t := w.Table
			if t.isDropped() {
				w.Data.Release()
				continue
			}
			f := ""
			if p, ok := files[t]; ok {
				f = p.file
			}
			t.publish(w.Data, f)
		}
	}
	if cat == nil {
		publish()
		return nil
	}
	return cat.commitTables(files, publish)
}

func (t *Table) isDropped() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.dropped
}

// ColumnStorage is how a backend holds one column of a table version.
type ColumnStorage struct {
	Bytes    int64  // resident bytes of the values and their NULL bitmap
	RowBytes int    // bytes a row of the values
	Encoding string // "plain", or "dictionary" (codes beside the values)
	// dictionary: its distinct values, the bytes of a code, and the
	// resident bytes of the codes
	Values     int
	CodeBytes  int
	CodesBytes int64
}

// ColumnStorer is table data that describes its columns' storage.
type ColumnStorer interface {
	ColumnStorage(k int) ColumnStorage
}

// Storage is the current version's storage of each column; nil when its
// data does not describe it.
func (t *Table) Storage() []ColumnStorage {
	s := t.Pin()
	defer s.Release()
	cs, ok := s.Data().(ColumnStorer)
	if !ok {
		return nil
	}
	out := make([]ColumnStorage, len(t.Columns))
	for k := range out {
		out[k] = cs.ColumnStorage(k)
	}
	return out
}
