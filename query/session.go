package query

import (
	"context"
	"strings"
	"time"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/query/parse"
)

// Session runs statements for one client.
type Session struct {
	srv      *Server
	params   engine.SessionParams
	settings map[string]string
	// client holds the settings the client gave at startup (options and
	// application_name): RESET returns to them, as in PostgreSQL, and
	// pg_settings shows their source as "client".
	client   map[string]string
	inTx     bool
	failedTx bool
	tx       txState    // the open block's writes and savepoints (tx.go)
	ext      sessionExt // prepared statements and cursors (prepare.go, cursor.go)
	act      activity   // what pg_stat_activity shows (activity.go)
	// xactOpen: a transaction has started that pg_stat_database has not
	// counted yet; syncPending: the extended protocol's messages started
	// it and a Sync ends it; end is how the session ends (xactstats.go).
	xactOpen, syncPending bool
	end                   engine.SessionEnd
	// temp is the session's temporary schema (pg_temp_N), "" until its
	// first temporary table; tempOIDs are the OIDs of it and of its
	// pg_toast_temp_N (relations.go).
	temp     string
	tempOIDs [2]uint32
	// txWrote: a statement of the open transaction block made a change
	// that a ROLLBACK cannot undo (tx.go, claimName).
	txWrote bool
	// txStart is when the transaction block began (now()), µs UTC;
	// zoneCache the resolved TimeZone setting (timezone.go).
	txStart   int64
	zoneCache *engine.Zone
	// notices is the running statement's writer, for the notices of work
	// done while binding (read_csv); nil between statements.
	notices engine.ResultWriter
}

var _ engine.Session = (*Session)(nil)

func newSession(srv *Server, p engine.SessionParams) *Session {
	if p.BackendPID == 0 {
		p.BackendPID = srv.embeddedPIDs.Add(1)
	}
	s := &Session{srv: srv, params: p, settings: map[string]string{}, client: map[string]string{}}
	if p.Application != "" {
		s.client["application_name"] = p.Application
	}
	for k, v := range p.Options {
		k = strings.ToLower(k)
		_, ok := defaultSettings[k]
		switch k {
		case "statement_timeout", "client_connection_check_interval", "idle_session_timeout", "idle_in_transaction_session_timeout":
			ms, valid := parseMillis(v)
			if !valid {
				continue
			}
			ok, v = true, formatMillis(ms)
		case "timezone":
			z, err := canonicalZone(v)
			if err != nil {
				continue
			}
			v = z
		}
		if ok {
			s.client[k] = v
		}
	}
	now := time.Now()
	s.act.backendStart, s.act.stateChange, s.act.state = now, now, "idle"
	s.act.app = s.setting("application_name")
	srv.sessions.add(s)
	s.startStats()
	return s
}

// Close ends the session: an open transaction block is rolled back, and
// its temporary tables and views are dropped.
func (s *Session) Close() error {
	s.srv.sessions.remove(s)
	s.endStats()
	s.endTx()
	s.inTx, s.failedTx = false, false
	s.dropTemp()
	return nil
}

// TxStatus is the ReadyForQuery status.
func (s *Session) TxStatus() byte {
	switch {
	case s.failedTx:
		return 'E'
	case s.inTx:
		return 'T'
	}
	return 'I'
}

// Query runs every statement of sql in order.
func (s *Session) Query(ctx context.Context, sql string, w engine.ResultWriter) (err error) {
	s.startActivity(sql)
	defer s.endActivity()
	s.xactBegin()
	defer func() { s.xactEndImplicit(err) }()
	stmts, err := parse.Parse(sql)
	if err != nil {
		s.fail()
		return err
	}
	if len(stmts) == 0 {
		return w.EmptyQuery()
	}
	implicit := s.implicitBlock(stmts)
	s.tx.implicit = implicit
	end := 0
	for _, st := range stmts {
		var start int
		start, end = stmtSpan(sql, st, end)
		if s.failedTx && !endsFailedTx(st) {
			return errFailedTx()
		}
		s.xactBegin() // after a COMMIT or ROLLBACK of the message
		if err := s.exec(ctx, st, w); err != nil {
			s.fail()
			if implicit {
				s.endTx() // the earlier statements' writes go too
			}
			return withPosition(err, sql, start, end)
		}
	}
	if implicit {
		return s.commitTx()
	}
	return nil
}

// FailBlock fails an open transaction block (engine.BlockFailer).
func (s *Session) FailBlock() { s.fail() }

func (s *Session) fail() {
	s.xactFail()
	if s.inTx {
		s.failedTx = true
	}
}

// DescribeQuery binds a statement without running it and returns its
// result columns (nil when it returns none).
func (s *Session) DescribeQuery(ctx context.Context, sql string) ([]engine.ResultColumn, error) {
	stmts, err := parse.Parse(sql)
	if err != nil {
		return nil, err
	}
	if len(stmts) != 1 {
		return nil, nil
	}
	ctx, unpin := withPins(ctx)
	defer unpin()
	switch st := stmts[0].(type) {
	case *parse.Select:
		_, cols, err := s.describeSelect(ctx, st.AST, nil)
		if err != nil {
			start, end := stmtSpan(sql, st, 0)
			return nil, withPosition(err, sql, start, end)
		}
		return cols, nil
	case *parse.Show:
		return s.showColumns(st.Name), nil
	}
	return nil, nil
}

// execStmt runs one statement; exec (prepare.go) calls it.
func (s *Session) execStmt(ctx context.Context, st parse.Stmt, w engine.ResultWriter) error {
	s.notices = w
	defer func() { s.notices = nil }()
	switch st := st.(type) {
	case *parse.Select:
		return s.runSelect(ctx, st.AST, w)
	case *parse.CreateTable:
		return s.createTable(ctx, st, w)
	case *parse.Copy:
		return s.copyFrom(ctx, st, w)
	case *parse.DropTable:
		return s.dropTable(st, w)
	case *parse.Set:
		return s.set(st, w)
	case *parse.Show:
		return s.show(st, w)
	case *parse.Reset:
		return s.reset(st, w)
	case *parse.Transaction:
		return s.transaction(st, w)
	case *parse.CreateTableAs:
		return s.createTableAs(ctx, st, w)
	case *parse.Insert:
		return s.insert(ctx, st, w, nil)
	case *parse.CreateView:
		return s.createView(ctx, st, w)
	case *parse.DropView:
		return s.dropView(st, w)
	case *parse.Truncate:
		return s.truncate(st, w)
	case *parse.AlterRename:
		return s.alterRename(st, w)
	}
	return engine.Errorf(engine.CodeFeatureNotSupported, "statement is not supported: %s", st.SQL())
}

func (s *Session) transaction(t *parse.Transaction, w engine.ResultWriter) error {
	if t.Kind != "BEGIN" || !s.inTx {
		defer func() { s.txWrote = false }()
	}
	switch t.Kind {
	case "BEGIN":
		if s.inTx {
			_ = w.Notice(engine.Notice{Severity: "WARNING", Code: "25001", Message: "there is already a transaction in progress"})
		}
		if !s.inTx {
			s.txStart = time.Now().UnixMicro()
		}
		s.inTx = true
		return w.Complete("BEGIN")
	case "SAVEPOINT", "RELEASE", "ROLLBACK TO":
		return s.savepointStmt(t, w)
	case "SET TRANSACTION", "SET CHARACTERISTICS":
		return s.setTransaction(t, w)
	case "COMMIT":
		tag := "COMMIT"
		var err error
		switch {
		case s.failedTx:
			tag = "ROLLBACK"
			s.warnWrites(w)
			s.endTx()
			s.xactEnd(false)
		case !s.inTx:
			_ = w.Notice(engine.Notice{Severity: "WARNING", Code: "25P01", Message: "there is no transaction in progress"})
			s.xactEnd(true)
		default:
			err = s.commitTx()
			s.xactEnd(err == nil)
		}
		s.inTx, s.failedTx = false, false
		if err != nil {
			return err
		}
		return w.Complete(tag)
	default:
		if !s.inTx {
			_ = w.Notice(engine.Notice{Severity: "WARNING", Code: "25P01", Message: "there is no transaction in progress"})
		}
		s.warnWrites(w)
		s.endTx()
		s.xactEnd(false)
		s.inTx, s.failedTx = false, false
		return w.Complete("ROLLBACK")
	}
}

// runSelect binds and executes a query, streaming rows; exec applies
// statement_timeout.
func (s *Session) runSelect(ctx context.Context, stmt ast.StmtNode, w engine.ResultWriter) error {
	plan, cols, err := s.bindSelect(ctx, stmt)
	if err != nil {
		return err
	}
	_, err = s.runPlan(ctx, plan, cols, w, true)
	return err
}

func (s *Session) statementTimeout() time.Duration {
	return s.settingDuration("statement_timeout")
}

// ClientCheckInterval is the session's client_connection_check_interval:
// how often the wire server checks, while a statement runs, that the
// client is still connected (wire.ConnChecker); 0 never.
func (s *Session) ClientCheckInterval() time.Duration {
	return s.settingDuration("client_connection_check_interval")
}

// IdleTimeouts are the session's idle_session_timeout and
// idle_in_transaction_session_timeout (wire.IdleTimeouts).
func (s *Session) IdleTimeouts() (session, inTransaction time.Duration) {
	return s.settingDuration("idle_session_timeout"), s.settingDuration("idle_in_transaction_session_timeout")
}

// canceledStatement is the error of a statement whose context ended
// before it could commit; runStatement turns a deadline into the
// statement_timeout message.
func canceledStatement(ctx context.Context) error {
	return &engine.Error{Code: engine.CodeQueryCanceled, Message: "canceling statement due to user request", Err: ctx.Err()}
}
