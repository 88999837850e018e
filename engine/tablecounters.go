package engine

import "sync/atomic"

// TableCounters count what statements did to one table, for
// pg_stat_user_tables. They belong to the table for as long as it exists:
// a rename keeps them (Catalog.Alter hands them to the successor), DROP
// forgets them, and a server start begins them at zero. They are atomic:
// any number of sessions count into them at once.
//
// The counts that pg_stat_database sums over the database (tup_returned,
// tup_inserted) go through Scanned and Inserted, which count into the
// table's catalog's DatabaseCounters as well: the database's sums outlive
// the tables that made them, as in PostgreSQL.
type TableCounters struct {
	// SeqScan counts the scans of the table that statements ran (one a
	// scan node of a plan that ran), SeqTupRead the rows those scans read.
	SeqScan, SeqTupRead atomic.Int64
	// TupIns counts the rows inserted (INSERT, COPY FROM, CREATE TABLE
	// AS, CREATE TABLE ... FROM), whether their transaction committed or
	// not, as PostgreSQL counts attempted inserts.
	TupIns atomic.Int64
	// ModSinceAnalyze counts the committed inserted rows (gpusql has no
	// ANALYZE that would reset it).
	ModSinceAnalyze atomic.Int64
	// db is the database's counters (nil for a table made outside a
	// catalog).
	db *DatabaseCounters
}

// Scanned counts one scan of the table that read rows rows.
func (c *TableCounters) Scanned(rows int64) {
	c.SeqScan.Add(1)
	c.SeqTupRead.Add(rows)
	if c.db != nil {
		c.db.TupReturned.Add(rows)
	}
}

// Inserted counts n rows inserted into the table (n_tup_ins).
func (c *TableCounters) Inserted(n int64) {
	c.TupIns.Add(n)
	if c.db != nil {
		c.db.TupInserted.Add(n)
	}
}

// Reset sets the table's counters to zero (pg_stat_reset,
// pg_stat_reset_single_table_counters); the database's keep theirs.
func (c *TableCounters) Reset() {
	c.SeqScan.Store(0)
	c.SeqTupRead.Store(0)
	c.TupIns.Store(0)
	c.ModSinceAnalyze.Store(0)
}

// newTableCounters are the counters of a new table of catalog cat (nil:
// none).
func newTableCounters(cat *Catalog) *TableCounters {
	c := &TableCounters{}
	if cat != nil {
		c.db = &cat.dbStats
	}
	return c
}

// Counters are t's activity counters, shared with the tables that rename
// t.
func (t *Table) Counters() *TableCounters {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.counters == nil {
		t.counters = newTableCounters(t.cat)
	}
	return t.counters
}
