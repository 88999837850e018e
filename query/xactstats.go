package query

// pg_stat_database: the transactions and sessions of the database, counted
// as PostgreSQL 15 counts them, into the catalog's counters
// (engine.DatabaseCounters).
//
// A transaction starts with the first statement of a Query message, or
// with a Parse, Bind, Describe or Execute message of the extended
// protocol, unless one is open; a transaction block (BEGIN) takes over
// the open one. It ends:
//   - outside a block, at the end of the Query message, or at Sync: a
//     commit, so that a Query message of several statements, or the
//     messages up to a Sync, count one;
//   - at COMMIT (a commit, or a rollback if the block failed) and at
//     ROLLBACK (a rollback), inside a block or out of one, where
//     PostgreSQL warns and ends the statement's own transaction;
//   - at an error: outside a block, the statement's (or the messages')
//     transaction rolls back; in a block with no savepoint the block's
//     transaction is rolled back at once, and the COMMIT or ROLLBACK that
//     ends the failed block counts nothing more. With a savepoint, the
//     error rolls back only the subtransaction: ROLLBACK TO SAVEPOINT
//     recovers the block, and whatever ends it counts;
//   - when the session ends with one open: a rollback.
//
// A session's start counts a commit, as PostgreSQL's backend reads the
// catalogs in a transaction of its own as it starts.
//
// A statement that runs in a failed block (25P02) starts nothing: the
// block's transaction has ended.

import (
	"time"

	"github.com/gpusql/gpusql/engine"
)

// dbStats are the counters of the session's database.
func (s *Session) dbStats() *engine.DatabaseCounters { return s.srv.cat.DatabaseCounters() }

// xactBegin starts a transaction, unless one is open or the failed block
// holds the session.
func (s *Session) xactBegin() {
	if !s.xactOpen && !s.failedTx {
		s.xactOpen = true
	}
}

// xactEnd ends the open transaction, if any: a commit or a rollback.
func (s *Session) xactEnd(commit bool) {
	if !s.xactOpen {
		return
	}
	s.xactOpen = false
	if commit {
		s.dbStats().XactCommit.Add(1)
	} else {
		s.dbStats().XactRollback.Add(1)
	}
}

// xactEndImplicit ends the transaction of a Query message or of the
// extended protocol's messages up to Sync: it commits unless err (a
// failed commit) or a block holds it.
func (s *Session) xactEndImplicit(err error) {
	if !s.inTx {
		s.xactEnd(err == nil)
	}
}

// xactFail counts an error: the transaction it rolls back, if it rolls
// one back (see the top of this file). fail calls it before it marks
// the block failed.
func (s *Session) xactFail() {
	if s.inTx && (s.failedTx || len(s.tx.savepoints) > 0) {
		return
	}
	s.xactEnd(false)
}

// BeginImplicit starts the implicit transaction of the extended
// protocol's messages up to the next Sync (engine.ImplicitTx).
func (s *Session) BeginImplicit() {
	s.syncPending = true
	s.xactBegin()
}

// Sync ends the extended protocol's implicit transaction
// (engine.ImplicitTx).
func (s *Session) Sync() {
	s.syncPending = false
	s.xactEndImplicit(nil)
}

// NoteEnd records how the session ends (engine.EndNoter), for Close.
func (s *Session) NoteEnd(e engine.SessionEnd) { s.end = e }

// startStats counts a new session, and the transaction in which
// PostgreSQL's backend reads the catalogs as it starts: a commit.
func (s *Session) startStats() {
	d := s.dbStats()
	d.Sessions.Add(1)
	d.XactCommit.Add(1)
}

// endStats counts the end of the session: the transaction it leaves
// open rolls back, and its lifetime and how it ended are added up.
func (s *Session) endStats() {
	s.xactEnd(false)
	d := s.dbStats()
	d.SessionMicros.Add(time.Since(s.act.backendStart).Microseconds())
	switch s.end {
	case engine.EndAbandoned:
		d.SessionsAbandoned.Add(1)
	case engine.EndFatal:
		d.SessionsFatal.Add(1)
	case engine.EndKilled:
		d.SessionsKilled.Add(1)
	}
}

// pgStatDatabaseRows lists pg_stat_database: the row of the objects
// shared by the databases (datid 0), which gpusql has none of, and the
// database's. The counters gpusql has no source for are those of an idle
// PostgreSQL (docs/compatibility.md): no block I/O to read, time or
// checksum (checksums are off: NULL), no temporary files, conflicts,
// deadlocks, UPDATE or DELETE, and no index fetches. stats_reset is
// the last pg_stat_reset (statreset.go).
func (s *Session) pgStatDatabaseRows() []row {
	zero := func(r row) row {
		for _, c := range []string{"xact_commit", "xact_rollback", "blks_read", "blks_hit", "tup_returned", "tup_fetched",
			"tup_inserted", "tup_updated", "tup_deleted", "conflicts", "temp_files", "temp_bytes", "deadlocks",
			"sessions", "sessions_abandoned", "sessions_fatal", "sessions_killed"} {
			r[c] = int64(0)
		}
		for _, c := range []string{"blk_read_time", "blk_write_time", "session_time", "active_time", "idle_in_transaction_time"} {
			r[c] = float64(0)
		}
		return r
	}
	shared := zero(row{"datid": int64(0), "numbackends": int32(0)})
	d := s.dbStats()
	live := s.srv.sessions.list()
	now, reset := time.Now(), d.ResetTime()
	sessionMicros := d.SessionMicros.Load()
	for _, o := range live {
		// a live session's time counts from the last reset (statreset.go)
		sessionMicros += now.Sub(later(o.act.backendStart, reset)).Microseconds()
	}
	r := zero(row{"datid": int64(oidDatabase), "datname": s.params.Database, "numbackends": int32(len(live))})
	r["xact_commit"], r["xact_rollback"] = d.XactCommit.Load(), d.XactRollback.Load()
	r["tup_returned"], r["tup_inserted"] = d.TupReturned.Load(), d.TupInserted.Load()
	r["sessions"], r["sessions_abandoned"] = d.Sessions.Load(), d.SessionsAbandoned.Load()
	r["sessions_fatal"], r["sessions_killed"] = d.SessionsFatal.Load(), d.SessionsKilled.Load()
	r["session_time"] = float64(sessionMicros) / 1000
	r["active_time"] = float64(d.ActiveMicros.Load()) / 1000
	r["idle_in_transaction_time"] = float64(d.IdleInTxMicros.Load()) / 1000
	r["stats_reset"] = micros(reset)
	return []row{shared, r}
}

// later is the later of a and b.
func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// dbCounter is pg_stat_get_db_*(oid) of one of the database's counters;
// 0 for any other OID, as in PostgreSQL for a database with no
// statistics.
func dbCounter(get func(s *Session, d *engine.DatabaseCounters) int64) pgFunc {
	return pgFunc{args: kInt, min: 1, ret: engine.Int64, strict: true, fn: func(s *Session, a []fval) (fval, error) {
		if a[0].i != oidDatabase {
			return fint(0), nil
		}
		return fint(get(s, s.dbStats())), nil
	}}
}

// dbZero is pg_stat_get_db_*(oid) of a counter gpusql has no source for.
func dbZero() pgFunc {
	return dbCounter(func(*Session, *engine.DatabaseCounters) int64 { return 0 })
}
