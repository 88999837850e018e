package engine

// Durability: with a Durable attached (Catalog.Attach), every change to
// schema public's tables and views is written to stable storage before
// it becomes visible, and a restart brings the catalog back (package
// persist). Temporary schemas are never written.
//
// There is one commit point for all of them: the catalog's state, a
// DurableState naming every public table's data file and every public
// view, is committed whole by Durable.Commit (persist writes it to a
// temporary file and renames it over the previous one). A change first
// saves any new table data to a file of its own (Durable.Save, outside
// the catalog's locks, so that writers of different tables write at
// once), then, holding commitMu, builds the state as it will be after the
// change, commits it, and only then publishes the change in memory. A
// crash before the commit leaves the previous state, whose files are
// untouched; a crash after it leaves the new one. commitMu orders the
// commits as the changes are published.
//
// Lock order: Table.writeMu, then Catalog.commitMu, then Catalog.mu, then
// Table.mu.

// Durable keeps a catalog's public relations in stable storage.
type Durable interface {
	// Save writes table data d of table name to a new file, not yet part
	// of the committed state, and returns the file's name.
	Save(name string, d TableData) (file string, err error)
	// Discard removes a file Save wrote that no committed state names.
	Discard(file string)
	// Commit makes s the committed state, atomically, then removes the
	// files that the previous state named and s does not.
	Commit(s *DurableState) error
}

// DurableState is the committed state of a catalog's schema public.
type DurableState struct {
	NextOID uint32
	Tables  []DurableTable
	Views   []*View
}

// DurableTable is one table of a DurableState: its data is in File (""
// when the table has no data).
type DurableTable struct {
	Name    string
	OID     uint32
	Columns []ColumnDef
	File    string
	Rows    int64
}

// Downloader is table data that can copy its rows to host memory, as
// they are stored (each column of its stored type).
type Downloader interface {
	Download() (*HostTable, error)
}

// ColumnDownloader is table data that can also copy its columns to host
// memory one at a time (each as Download has it), so that a writer can
// store one column while the next is copied.
type ColumnDownloader interface {
	Downloader
	NumColumns() int
	DownloadColumn(k int) (*Column, error)
}

// Download is h itself.
func (h *HostTable) Download() (*HostTable, error) { return h, nil }

// Restored is a table to put back into the catalog at startup: its
// definition, and its data (nil: none) read from File.
type Restored struct {
	DurableTable
	Data TableData
}

// Attach fills the empty catalog with tables and views restored from d's
// committed state, makes d the catalog's durable store and commits the
// catalog's state once (which drops from the state the tables that could
// not be restored). The catalog owns the tables' data, also on failure.
func (c *Catalog) Attach(d Durable, nextOID uint32, tables []Restored, views []*View) error {
	c.commitMu.Lock()
	defer c.commitMu.Unlock()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.nextOID = max(c.nextOID, nextOID)
	for _, r := range tables {
		t := &Table{Name: r.Name, Columns: r.Columns, OID: r.OID, live: &c.live, cat: c, counters: newTableCounters(c)}
		if r.Data != nil {
			t.cur = newVersion(r.Data, t.live)
			t.cur.file = r.File
		}
		c.tables[r.Name] = t
		c.nextOID = max(c.nextOID, r.OID+1)
	}
	for _, v := range views {
		c.views[v.Name] = v
		c.nextOID = max(c.nextOID, v.OID+1)
	}
	c.dur = d
	return c.commitLocked(nil)
}

// Detach stops writing the catalog's changes, and returns the durable
// store it wrote them to (nil if none), for the caller to close: what a
// closing engine does before it frees its tables.
func (c *Catalog) Detach() Durable {
	c.commitMu.Lock()
	defer c.commitMu.Unlock()
	d := c.dur
	c.dur = nil
	return d
}

// durable is the catalog's durable store for public table t, nil when
// there is none or t is temporary.
func (t *Table) durable() Durable {
	if t.cat == nil || t.Schema != "" {
		return nil
	}
	c := t.cat
	c.commitMu.Lock()
	defer c.commitMu.Unlock()
	return c.dur
}

// save writes data for t through d, if d is set and data is not nil.
func save(d Durable, name string, data TableData) (string, error) {
	if d == nil || data == nil {
		return "", nil
	}
	f, err := d.Save(name, data)
	if err != nil {
		return "", Errorf(CodeIOError, "could not write table %q to the data directory: %v", name, err)
	}
	return f, nil
}

// pending is a table's new data in a change being committed: its file
// ("" for none) and row count.
type pending struct {
	file string
	rows int64
}

// stateLocked is the catalog's state with the data of the tables in
// files replaced. The caller holds commitMu and c.mu.
func (c *Catalog) stateLocked(files map[*Table]pending) *DurableState {
	s := &DurableState{NextOID: c.nextOID}
	for _, t := range c.tables {
		dt := DurableTable{Name: t.Name, OID: t.OID, Columns: t.Columns}
		if p, ok := files[t]; ok {
			dt.File, dt.Rows = p.file, p.rows
		} else {
			t.mu.Lock()
			if t.cur != nil {
				dt.File, dt.Rows = t.cur.file, t.cur.data.Rows()
			}
			t.mu.Unlock()
		}
		s.Tables = append(s.Tables, dt)
	}
	for _, v := range c.views {
		s.Views = append(s.Views, v)
	}
	return s
}

// commitLocked commits the catalog's state (stateLocked(files)) when a
// durable store is attached. The caller holds commitMu and c.mu (read or
// write).
func (c *Catalog) commitLocked(files map[*Table]pending) error {
	if c.dur == nil {
		return nil
	}
	if err := c.dur.Commit(c.stateLocked(files)); err != nil {
		return Errorf(CodeIOError, "could not write the catalog to the data directory: %v", err)
	}
	return nil
}

// snapshotLocked copies the maps of schema public and returns what puts
// them back, for undoing a change whose commit failed. The caller holds
// c.mu.
func (c *Catalog) snapshotLocked() func() {
	if c.dur == nil {
		return func() {}
	}
	tables, views, next := make(map[string]*Table, len(c.tables)), make(map[string]*View, len(c.views)), c.nextOID
	for k, v := range c.tables {
		tables[k] = v
	}
	for k, v := range c.views {
		views[k] = v
	}
	// A rename rewrites the temporary views that read what it renames.
	temp := map[*tempSchema]map[string]*View{}
	for _, ts := range c.temp {
		m := make(map[string]*View, len(ts.views))
		for k, v := range ts.views {
			m[k] = v
		}
		temp[ts] = m
	}
	return func() {
		c.tables, c.views, c.nextOID = tables, views, next
		for ts, m := range temp {
			ts.views = m
		}
	}
}

// commitTables commits new data for public tables (files), then runs
// publish; if the commit fails nothing is published, the files are
// discarded and the error is returned. Tables no longer in the catalog
// (dropped since their writer began) are left out and their files
// discarded. The caller holds the tables' writeMu.
func (c *Catalog) commitTables(files map[*Table]pending, publish func()) error {
	c.commitMu.Lock()
	defer c.commitMu.Unlock()
	d := c.dur
	if d == nil || len(files) == 0 {
		publish()
		return nil
	}
	c.mu.RLock()
	for t, p := range files {
		if c.tables[t.Name] != t {
			delete(files, t)
			if p.file != "" {
				d.Discard(p.file)
			}
		}
	}
	err := c.commitLocked(files)
	c.mu.RUnlock()
	if err != nil {
		for _, p := range files {
			if p.file != "" {
				d.Discard(p.file)
			}
		}
		return err
	}
	publish()
	return nil
}
