package query

import (
	"fmt"
	"time"

	"github.com/gpusql/gpusql/engine"
)

// pg_cancel_backend(pid) and pg_terminate_backend(pid [, timeout]), as in
// PostgreSQL 15. The protocol server does the signalling
// (engine.Backends): a cancelled query fails with 57014; a terminated
// session ends with FATAL 57P01 "terminating connection due to
// administrator command" and counts in pg_stat_database's
// sessions_killed.
//
// Who may signal whom: a superuser any session; any other role the
// sessions of its own role, but never a superuser's (gpusql has no
// pg_signal_backend role to grant more). A process ID that is no
// session's gets a warning and false. Signalling one's own session
// fails the statement at once: cancelling with 57014, terminating with
// the FATAL error that ends the session.

var backendSignalFuncs = map[string]pgFunc{
	"pg_cancel_backend": {args: kInt, min: 1, ret: engine.Bool, strict: true, acts: true, fn: func(s *Session, a []fval) (fval, error) {
		return s.signalBackend(a[0].i, false, 0)
	}},
	"pg_terminate_backend": {args: []argKind{argInt, argInt}, min: 1, ret: engine.Bool, strict: true, acts: true, fn: func(s *Session, a []fval) (fval, error) {
		var timeout int64
		if len(a) > 1 {
			timeout = a[1].i
		}
		if timeout < 0 {
			return fval{}, engine.Errorf(engine.CodeNumericValueOutOfRange, `"timeout" must not be negative`)
		}
		return s.signalBackend(a[0].i, true, timeout)
	}},
}

func init() {
	for name, f := range backendSignalFuncs {
		pgFuncs[name] = f
	}
}

// errTerminated is the error of a session that pg_terminate_backend
// ends while it runs a statement (its own).
func errTerminated() error {
	return &engine.Error{Code: engine.CodeAdminShutdown, Severity: "FATAL",
		Message: "terminating connection due to administrator command"}
}

// signalBackend cancels the query of session pid, or terminates the
// session (then waiting up to timeout milliseconds, if positive, for it
// to end).
func (s *Session) signalBackend(pid int64, terminate bool, timeout int64) (fval, error) {
	var target *Session
	for _, o := range s.srv.sessions.list() {
		if int64(o.params.BackendPID) == pid {
			target = o
		}
	}
	if target == nil {
		s.warn(fmt.Sprintf("PID %d is not a PostgreSQL backend process", pid))
		return fbool(false), nil
	}
	if !s.superuser() {
		// the target's role as committed: its session's open block is
		// its own
		r, found := s.srv.opts.Roles.State().Role(target.params.User)
		switch {
		case (!found || r.Superuser) && terminate:
			return fval{}, engine.Errorf(engine.CodeInsufficientPrivilege, "must be a superuser to terminate superuser process")
		case !found || r.Superuser:
			return fval{}, engine.Errorf(engine.CodeInsufficientPrivilege, "must be a superuser to cancel superuser query")
		case target.params.User != s.params.User && terminate:
			return fval{}, engine.Errorf(engine.CodeInsufficientPrivilege,
				"must be a member of the role whose process is being terminated or member of pg_signal_backend")
		case target.params.User != s.params.User:
			return fval{}, engine.Errorf(engine.CodeInsufficientPrivilege,
				"must be a member of the role whose query is being canceled or member of pg_signal_backend")
		}
	}
	if !terminate && target == s {
		return fval{}, engine.Errorf(engine.CodeQueryCanceled, "canceling statement due to user request")
	}
	b := target.params.Backends
	if b == nil {
		return fval{}, engine.Errorf(engine.CodeFeatureNotSupported,
			"session %d has no connection to signal (an embedded session)", pid)
	}
	if !terminate {
		return fbool(b.CancelBackend(uint32(pid))), nil
	}
	done, ok := b.TerminateBackend(uint32(pid))
	switch {
	case !ok:
		// it ended since the lookup
		s.warn(fmt.Sprintf("PID %d is not a PostgreSQL backend process", pid))
		return fbool(false), nil
	case target == s:
		return fval{}, errTerminated()
	case timeout <= 0:
		return fbool(true), nil
	}
	select {
	case <-done:
		return fbool(true), nil
	case <-time.After(time.Duration(timeout) * time.Millisecond):
	}
	s.warn(fmt.Sprintf("backend with PID %d did not terminate within %d milliseconds", pid, timeout))
	return fbool(false), nil
}

// warn sends a WARNING to the client of the running statement.
func (s *Session) warn(msg string) {
	if s.notices != nil {
		_ = s.notices.Notice(engine.Notice{Severity: "WARNING", Code: engine.CodeWarning, Message: msg})
	}
}
