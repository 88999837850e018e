package query

import (
	"time"

	"github.com/gpusql/gpusql/engine"
)

// The statistics reset functions, as PostgreSQL 15 has them. Only
// superusers may call them (PostgreSQL revokes EXECUTE from PUBLIC); a
// NULL argument makes the call NULL before that check, as PostgreSQL
// folds a strict function of a NULL constant while it plans.
//
//   - pg_stat_reset() zeroes the database's counters (pg_stat_database)
//     and every table's (pg_stat_user_tables), and sets stats_reset.
//   - pg_stat_reset_single_table_counters(oid) zeroes one table's
//     counters; any other OID is no error. It sets the database's
//     stats_reset too.
//   - pg_stat_reset_single_function_counters(oid) has no counters to
//     zero (gpusql keeps no function statistics) and sets stats_reset.
//   - pg_stat_reset_shared(target) takes PostgreSQL's targets (archiver,
//     bgwriter, recovery_prefetch, wal): gpusql has none of those
//     processes' statistics, so there is nothing to zero.
//
// A reset does not undo what a session counts later for work it did
// before: an open block's inserts still count at its COMMIT, as
// PostgreSQL's pending counts still reach the shared ones.

// statResetFuncs are the functions, for pgFuncs.
var statResetFuncs = map[string]pgFunc{
	"pg_stat_reset": {args: k0, ret: engine.Text, acts: true, fn: func(s *Session, _ []fval) (fval, error) {
		if err := s.checkStatReset("pg_stat_reset"); err != nil {
			return fval{}, err
		}
		for _, r := range s.userRels() {
			if r.table != nil {
				r.table.Counters().Reset()
			}
		}
		s.dbStats().Reset(time.Now())
		return ftext(""), nil
	}},
	"pg_stat_reset_single_table_counters": {args: kInt, min: 1, ret: engine.Text, strict: true, acts: true, fn: func(s *Session, a []fval) (fval, error) {
		if err := s.checkStatReset("pg_stat_reset_single_table_counters"); err != nil {
			return fval{}, err
		}
		for _, r := range s.userRels() {
			if r.table != nil && int64(r.oid) == a[0].i {
				r.table.Counters().Reset()
			}
		}
		s.dbStats().StatsReset.Store(time.Now().UnixMicro())
		return ftext(""), nil
	}},
	"pg_stat_reset_single_function_counters": {args: kInt, min: 1, ret: engine.Text, strict: true, acts: true, fn: func(s *Session, a []fval) (fval, error) {
		if err := s.checkStatReset("pg_stat_reset_single_function_counters"); err != nil {
			return fval{}, err
		}
		s.dbStats().StatsReset.Store(time.Now().UnixMicro())
		return ftext(""), nil
	}},
	"pg_stat_reset_shared": {args: kText, min: 1, ret: engine.Text, strict: true, acts: true, fn: func(s *Session, a []fval) (fval, error) {
		if err := s.checkStatReset("pg_stat_reset_shared"); err != nil {
			return fval{}, err
		}
		switch a[0].s {
		case "archiver", "bgwriter", "recovery_prefetch", "wal":
			return ftext(""), nil
		}
		return fval{}, engine.Errorf(engine.CodeInvalidParameterValue, "unrecognized reset target: \"%s\"", a[0].s).
			WithHint(`Target must be "archiver", "bgwriter", "recovery_prefetch", or "wal".`)
	}},
	// pg_stat_get_db_stat_reset_time(oid): the database's stats_reset;
	// NULL for any other OID, or before the first reset.
	"pg_stat_get_db_stat_reset_time": {args: kInt, min: 1, ret: engine.TimestampTZ, strict: true, fn: func(s *Session, a []fval) (fval, error) {
		t := s.dbStats().ResetTime()
		if a[0].i != oidDatabase || t.IsZero() {
			return fnull(), nil
		}
		return fint(t.UnixMicro()), nil
	}},
}

// checkStatReset: only a superuser may reset statistics.
func (s *Session) checkStatReset(fn string) error {
	if s.superuser() {
		return nil
	}
	return engine.Errorf(engine.CodeInsufficientPrivilege, "permission denied for function %s", fn)
}

func init() {
	for name, f := range statResetFuncs {
		pgFuncs[name] = f
	}
}
