package engine

import (
	"sync/atomic"
	"time"
)

// DatabaseCounters count what the sessions did in the database, for
// pg_stat_database: the catalog holds them (Catalog.DatabaseCounters),
// as gpusql serves one database, and a server start begins them at zero.
// They are atomic: every session counts into them at once, with no lock
// and no allocation.
type DatabaseCounters struct {
	// XactCommit and XactRollback count the top-level transactions
	// that ended, as PostgreSQL counts them (query/xactstats.go).
	XactCommit, XactRollback atomic.Int64
	// TupReturned sums the rows the scans of user tables read (the
	// tables' SeqTupRead), TupInserted the rows inserted into them
	// (their TupIns); TableCounters.Scanned and Inserted count both.
	TupReturned, TupInserted atomic.Int64
	// Sessions counts the sessions ever started; the others those that
	// ended by the client vanishing, by a FATAL error, and by the server
	// ending them (SessionEnd).
	Sessions, SessionsAbandoned, SessionsFatal, SessionsKilled atomic.Int64
	// SessionMicros sums the lifetimes of the ended sessions, ActiveMicros
	// the time sessions spent running statements, IdleInTxMicros the time
	// they spent waiting for their client inside a transaction block; in
	// microseconds, ended periods only.
	SessionMicros, ActiveMicros, IdleInTxMicros atomic.Int64
	// StatsReset is when the counters were last reset (pg_stat_reset),
	// or a table's (pg_stat_reset_single_table_counters), in Unix
	// microseconds; 0: never.
	StatsReset atomic.Int64
}

// Reset sets every counter to zero, as pg_stat_reset does, and notes
// the time. Sessions counting at the same moment may land on either
// side of it, as in PostgreSQL.
func (d *DatabaseCounters) Reset(now time.Time) {
	for _, c := range []*atomic.Int64{&d.XactCommit, &d.XactRollback, &d.TupReturned, &d.TupInserted,
		&d.Sessions, &d.SessionsAbandoned, &d.SessionsFatal, &d.SessionsKilled,
		&d.SessionMicros, &d.ActiveMicros, &d.IdleInTxMicros} {
		c.Store(0)
	}
	d.StatsReset.Store(now.UnixMicro())
}

// ResetTime is when the counters were last reset; zero: never.
func (d *DatabaseCounters) ResetTime() time.Time {
	if us := d.StatsReset.Load(); us != 0 {
		return time.UnixMicro(us)
	}
	return time.Time{}
}

// DatabaseCounters are the database's activity counters.
func (c *Catalog) DatabaseCounters() *DatabaseCounters { return &c.dbStats }

// SessionEnd is how a session ended, as pg_stat_database tells them apart.
type SessionEnd int

const (
	// EndNormal: the client said goodbye (Terminate), or the session was
	// embedded and closed.
	EndNormal SessionEnd = iota
	// EndAbandoned: the client's connection ended without Terminate.
	EndAbandoned
	// EndFatal: the server ended the session with a FATAL error (an idle
	// timeout, a protocol violation, a client that stopped reading).
	EndFatal
	// EndKilled: the server ended the session because it shuts down.
	EndKilled
)

// EndNoter is an optional interface of a Session: the protocol tells it
// how it ends, before Close.
type EndNoter interface {
	NoteEnd(SessionEnd)
}

// ImplicitTx is an optional interface of a Session, for the transactions
// pg_stat_database counts. In the extended protocol, as in PostgreSQL,
// the messages from a Parse, Bind, Describe or Execute up to the next
// Sync run in one implicit transaction, unless a transaction block is
// open.
type ImplicitTx interface {
	// BeginImplicit: a Parse, Bind, Describe or Execute message starts
	// the implicit transaction, if none is open.
	BeginImplicit()
	// Sync ends it: it commits, unless an error rolled it back already
	// or a block (BEGIN) took it over.
	Sync()
}
