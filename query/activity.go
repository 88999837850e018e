package query

import (
	"sort"
	"strings"
	"sync"
	"time"
)

// pg_stat_activity: the server keeps its live sessions, and each session
// what it is doing, as PostgreSQL reports it: state, the current (or
// last) query and when things started. Times are UTC.

// activity is one session's row; mu guards it, since other sessions read
// it.
type activity struct {
	mu           sync.Mutex
	backendStart time.Time
	xactStart    time.Time // zero: no transaction
	queryStart   time.Time
	stateChange  time.Time
	state        string
	query        string
	app          string // application_name
	depth        int    // nested runs (EXECUTE runs its statement): only the outer one counts
}

// sessionSet is the server's live sessions.
type sessionSet struct {
	mu sync.Mutex
	m  map[*Session]struct{}
}

func (ss *sessionSet) add(s *Session) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.m == nil {
		ss.m = map[*Session]struct{}{}
	}
	ss.m[s] = struct{}{}
}

func (ss *sessionSet) remove(s *Session) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	delete(ss.m, s)
}

// count is the number of live sessions.
func (ss *sessionSet) count() int {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return len(ss.m)
}

func (ss *sessionSet) list() []*Session {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	out := make([]*Session, 0, len(ss.m))
	for s := range ss.m {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].params.BackendPID < out[j].params.BackendPID })
	return out
}

// startActivity records that the session starts running sql.
func (s *Session) startActivity(sql string) {
	now := time.Now()
	a := &s.act
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.depth++; a.depth > 1 {
		return
	}
	if strings.HasPrefix(a.state, "idle in transaction") {
		s.dbStats().IdleInTxMicros.Add(now.Sub(a.stateChange).Microseconds())
	}
	a.query, a.state, a.queryStart, a.stateChange = sql, "active", now, now
	a.app = s.setting("application_name")
	if a.xactStart.IsZero() {
		a.xactStart = now // the statement's own transaction, or a block's
	}
}

// endActivity records that the session waits for the client again.
func (s *Session) endActivity() {
	now := time.Now()
	a := &s.act
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.depth--; a.depth > 0 {
		return
	}
	s.dbStats().ActiveMicros.Add(now.Sub(a.queryStart).Microseconds())
	a.stateChange = now
	switch {
	case s.failedTx:
		a.state = "idle in transaction (aborted)"
	case s.inTx:
		a.state = "idle in transaction"
	default:
		a.state = "idle"
		a.xactStart = time.Time{}
	}
}

func micros(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UTC().UnixMicro()
}

// pgStatActivityRows lists the live sessions. As in PostgreSQL, a role
// that is no superuser sees only who the other roles' sessions are
// (database, process ID, user, application name): what they do, and
// since when, is NULL, and their query reads "<insufficient privilege>".
func (s *Session) pgStatActivityRows() []row {
	var rows []row
	roles, super := s.srv.opts.Roles.State(), s.superuser()
	for _, o := range s.srv.sessions.list() {
		uid := int64(oidSuperuser) // a user that names no role stands for the bootstrap superuser
		if r, found := roles.Role(o.params.User); found {
			uid = int64(r.OID)
		}
		a := &o.act
		a.mu.Lock()
		r := row{
			"datid": oidDatabase, "datname": o.params.Database, "pid": int64(o.params.BackendPID),
			"usesysid": uid, "usename": o.params.User, "application_name": a.app,
		}
		if super || o.params.User == s.params.User {
			r["backend_start"], r["xact_start"] = micros(a.backendStart), micros(a.xactStart)
			r["query_start"], r["state_change"] = micros(a.queryStart), micros(a.stateChange)
			r["state"], r["query"], r["backend_type"] = a.state, a.query, "client backend"
			if a.state == "" {
				r["state"] = "idle"
			}
		} else {
			r["query"] = "<insufficient privilege>"
		}
		a.mu.Unlock()
		rows = append(rows, r)
	}
	return rows
}
