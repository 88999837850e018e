package engine

import "sync/atomic"

// TableCounters count what statements did to one table, for
// pg_stat_user_tables. They belong to the table for as long as it exists:
// a rename keeps them (Catalog.Alter hands them to the successor), DROP
// forgets them, and a server start begins them at zero. They are atomic:
// any number of sessions count into them at once.
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
}

// Counters are t's activity counters, shared with the tables that rename
// t.
func (t *Table) Counters() *TableCounters {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.counters == nil {
		t.counters = &TableCounters{}
	}
	return t.counters
}
