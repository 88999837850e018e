package wire

// The extended query protocol.
//
// With a session that implements engine.Preparer (gpusql's does), Parse
// prepares the statement: parameter types are given or inferred, and the
// result columns are known. Describe then answers at once, Bind converts
// the parameter values (text or binary) and Execute runs the statement
// with them. Named statements live in the session, so SQL DEALLOCATE and
// DISCARD ALL drop them too.
//
// With any other session, Parse stores the SQL, $n parameters are refused,
// and describing a result without running it needs care:
//
//   - Describe of a portal is deferred. When the next message is an Execute
//     of that portal without a row limit (what JDBC, pgx, psycopg and
//     node-postgres send), the query runs once and streams: RowDescription
//     (or NoData), then the rows, as the simple protocol does. When any
//     other message comes first (Sync, Flush, another Bind...), the portal
//     runs then, its rows are kept in memory (at most
//     Config.MaxPortalBuffer bytes) and the Describe is answered; Execute
//     later sends the kept rows. An Execute with a row limit also keeps
//     the rows, and sends them in pieces with PortalSuspended.
//   - Describe of a statement asks the session, if it implements
//     Describer. Otherwise a statement whose first keyword reads data
//     (SELECT, WITH, VALUES, TABLE, SHOW, EXPLAIN) is run until the engine
//     describes its columns, then stopped: correct, but it costs up to
//     one execution. Any other statement is answered NoData.

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/gpusql/gpusql/engine"
	"github.com/jackc/pgx/v5/pgproto3"
)

// Describer is an optional interface of an engine.Session: it lets
// Describe of a prepared statement learn the result columns without
// running the statement. cols is nil for a statement that returns no rows.
type Describer interface {
	DescribeQuery(ctx context.Context, sql string) (cols []engine.ResultColumn, err error)
}

// Default bounds on what one session may keep (Config.MaxStatements,
// Config.MaxPortals).
const (
	defaultMaxStatements = 10000
	defaultMaxPortals    = 10000
)

type statement struct {
	name string
	sql  string
	prep engine.Prepared // nil: the session is not an engine.Preparer
	// cols is the described result, when known (described true).
	described bool
	cols      []engine.ResultColumn
}

type portal struct {
	name    string
	stmt    *statement
	formats []int16
	params  []engine.Param // for stmt.prep

	// Filled when the portal has run into memory (ran true).
	ran     bool
	cols    []engine.ResultColumn
	desc    *pgproto3.RowDescription // nil: the statement returns no rows
	rows    []byte                   // DataRow messages
	rowEnds []int                    // end offset of each row in rows
	next    int                      // next row to send
	tag     string
	empty   bool
	done    bool // Execute has sent CommandComplete
	// suspended: an Execute has sent PortalSuspended; the tag of a
	// SELECT then counts only the rows of the Execute that completes it.
	suspended bool
}

// pieceTag is the CommandComplete tag of an Execute that sent n of the
// portal's rows: as PostgreSQL, a SELECT's count is the rows of this
// Execute once the portal has been fetched in pieces (or is fetched again
// after it completed).
func (p *portal) pieceTag(n int) string {
	if (p.suspended || p.done) && strings.HasPrefix(p.tag, "SELECT ") {
		return "SELECT " + strconv.Itoa(n)
	}
	return p.tag
}

type extState struct {
	stmts    map[string]*statement
	portals  map[string]*portal
	ignoring bool    // an error happened: skip messages until Sync
	pending  *portal // a Describe of this portal is not yet answered
}

// endTransaction drops the portals, as a transaction's end does.
func (e *extState) endTransaction() {
	if len(e.portals) > 0 {
		clear(e.portals)
	}
}

// extended handles one extended-protocol message.
func (c *conn) extended(msg pgproto3.FrontendMessage) bool {
	e := &c.ext
	if e.stmts == nil {
		e.stmts, e.portals = map[string]*statement{}, map[string]*portal{}
	}
	if _, ok := msg.(*pgproto3.Sync); ok {
		if !e.ignoring {
			c.resolvePending()
		}
		e.ignoring, e.pending = false, nil
		if it, ok := c.sess.(engine.ImplicitTx); ok {
			it.Sync()
		}
		c.readyForQuery()
		return c.flush() == nil
	}
	if _, ok := msg.(*pgproto3.Flush); ok {
		// Flush sends everything produced so far, an error included; a
		// Describe still waiting for its portal's run is answered first.
		if !e.ignoring {
			c.resolvePending()
		}
		return c.flush() == nil
	}
	if e.ignoring {
		return true
	}
	c.beginImplicit(msg)
	if ex, ok := msg.(*pgproto3.Execute); ok && e.pending != nil && ex.Portal == e.pending.name && ex.MaxRows == 0 {
		p := e.pending
		e.pending = nil
		return c.executeStreaming(p, true)
	}
	if !c.resolvePending() {
		return c.writeErr == nil
	}
	var err error
	switch m := msg.(type) {
	case *pgproto3.Parse:
		err = c.parse(m)
	case *pgproto3.Bind:
		err = c.bind(m)
	case *pgproto3.Describe:
		err = c.describe(m)
	case *pgproto3.Execute:
		p := e.portals[m.Portal]
		if p == nil {
			err = engine.Errorf(engine.CodeInvalidCursorName, "portal %q does not exist", m.Portal)
		} else if !p.ran && m.MaxRows == 0 {
			return c.executeStreaming(p, false)
		} else {
			return c.executeBuffered(p, int(m.MaxRows))
		}
	case *pgproto3.Close:
		if m.ObjectType == 'S' {
			if pr, ok := c.sess.(engine.Preparer); ok && m.Name != "" {
				pr.DropStatement(m.Name)
			}
			delete(e.stmts, m.Name)
		} else {
			delete(e.portals, m.Name)
		}
		c.send(&pgproto3.CloseComplete{})
	}
	if errors.Is(err, errShutdown) {
		return true // the message loop ends the session with 57P01
	}
	if err != nil {
		c.extError(err)
	}
	return c.writeErr == nil
}

// beginImplicit tells the session that msg starts the implicit
// transaction that lasts until Sync, as PostgreSQL starts one for Parse,
// Describe, and for a Bind or Execute that finds its statement or portal.
func (c *conn) beginImplicit(msg pgproto3.FrontendMessage) {
	it, ok := c.sess.(engine.ImplicitTx)
	if !ok {
		return
	}
	switch m := msg.(type) {
	case *pgproto3.Parse, *pgproto3.Describe:
	case *pgproto3.Bind:
		if c.statement(m.PreparedStatement) == nil {
			return
		}
	case *pgproto3.Execute:
		if c.ext.portals[m.Portal] == nil {
			return
		}
	default:
		return
	}
	it.BeginImplicit()
}

// extError reports err and skips messages until Sync.
func (c *conn) extError(err error) {
	if f, ok := c.sess.(engine.BlockFailer); ok {
		f.FailBlock()
	}
	c.sendError(err)
	c.ext.ignoring = true
	c.ext.pending = nil
}

func (c *conn) parse(m *pgproto3.Parse) error {
	e := &c.ext
	if pr, ok := c.sess.(engine.Preparer); ok {
		return c.prepare(pr, m)
	}
	if len(m.ParameterOIDs) > 0 || hasParams(m.Query) {
		return engine.Errorf(engine.CodeFeatureNotSupported, "parameters arrive in a later gpusql release").WithDetail(
			"%s", "use a statement without $n placeholders, or the simple query protocol")
	}
	if m.Name != "" {
		if _, ok := e.stmts[m.Name]; ok {
			return engine.Errorf(engine.CodeDuplicatePreparedStmt, "prepared statement %q already exists", m.Name)
		}
		if n := c.srv.cfg.MaxStatements; len(e.stmts) >= n {
			return engine.Errorf(engine.CodeProgramLimitExceeded, "too many prepared statements (at most %d per session)", n)
		}
	}
	e.stmts[m.Name] = &statement{name: m.Name, sql: m.Query}
	c.send(&pgproto3.ParseComplete{})
	return nil
}

func (c *conn) bind(m *pgproto3.Bind) error {
	e := &c.ext
	st := c.statement(m.PreparedStatement)
	if st == nil {
		return engine.Errorf(engine.CodeInvalidSQLStatementName, "prepared statement %q does not exist", m.PreparedStatement)
	}
	var params []engine.Param
	if st.prep != nil {
		var err error
		if params, err = bindParams(m, st.prep.ParamOIDs()); err != nil {
			return err
		}
	} else if len(m.Parameters) != 0 {
		return engine.Errorf(engine.CodeProtocolViolation,
			"bind message supplies %d parameters, but prepared statement %q requires 0", len(m.Parameters), m.PreparedStatement)
	}
	for _, f := range m.ResultFormatCodes {
		if f != pgproto3.TextFormat && f != pgproto3.BinaryFormat {
			return engine.Errorf(engine.CodeProtocolViolation, "unsupported format code: %d", f)
		}
	}
	if m.DestinationPortal != "" {
		if _, ok := e.portals[m.DestinationPortal]; ok {
			return engine.Errorf(engine.CodeDuplicateCursor, "cursor %q already exists", m.DestinationPortal)
		}
		if n := c.srv.cfg.MaxPortals; len(e.portals) >= n {
			return engine.Errorf(engine.CodeProgramLimitExceeded, "too many portals (at most %d per session)", n)
		}
	}
	if pc, ok := st.prep.(engine.ParamChecker); ok {
		if err := pc.CheckParams(params); err != nil {
			return err
		}
	}
	formats := append([]int16(nil), m.ResultFormatCodes...)
	p := &portal{name: m.DestinationPortal, stmt: st, formats: formats, params: params}
	if st.prep != nil {
		// The result is known: check the formats and describe it now.
		if cols := st.prep.Columns(); cols != nil {
			var rc rowCodec
			if err := rc.setup(cols, formats); err != nil {
				return err
			}
			p.cols, p.desc = cols, rowDescription(cols, &rc)
		}
	}
	e.portals[m.DestinationPortal] = p
	c.send(&pgproto3.BindComplete{})
	return nil
}

func (c *conn) describe(m *pgproto3.Describe) error {
	e := &c.ext
	if m.ObjectType == 'S' {
		st := c.statement(m.Name)
		if st == nil {
			return engine.Errorf(engine.CodeInvalidSQLStatementName, "prepared statement %q does not exist", m.Name)
		}
		if st.prep != nil {
			c.send(&pgproto3.ParameterDescription{ParameterOIDs: st.prep.ParamOIDs()})
			if cols := st.prep.Columns(); cols == nil {
				c.send(&pgproto3.NoData{})
			} else {
				c.send(rowDescription(cols, nil))
			}
			return nil
		}
		if err := c.describeStatement(st); err != nil {
			return err
		}
		c.send(&pgproto3.ParameterDescription{})
		if st.cols == nil {
			c.send(&pgproto3.NoData{})
		} else {
			c.send(rowDescription(st.cols, nil))
		}
		return nil
	}
	p := e.portals[m.Name]
	if p == nil {
		if pr, ok := c.sess.(engine.Preparer); ok && m.Name != "" {
			if cols, ok := pr.CursorColumns(m.Name); ok {
				// A cursor's rows come back from FETCH in text.
				c.send(rowDescription(cols, nil))
				return nil
			}
		}
		return engine.Errorf(engine.CodeInvalidCursorName, "portal %q does not exist", m.Name)
	}
	if p.ran || p.stmt.prep != nil {
		c.sendPortalDescription(p)
		return nil
	}
	e.pending = p // answered by the next message, see resolvePending
	return nil
}

func (c *conn) sendPortalDescription(p *portal) {
	if p.desc == nil {
		c.send(&pgproto3.NoData{})
	} else {
		c.send(p.desc)
	}
}

// resolvePending answers a deferred Describe of a portal by running the
// portal into memory. It reports false if that failed (the error is sent
// and messages are skipped until Sync) or the session must end.
func (c *conn) resolvePending() bool {
	p := c.ext.pending
	if p == nil {
		return true
	}
	c.ext.pending = nil
	if !c.runToBuffer(p) {
		return false
	}
	c.sendPortalDescription(p)
	return true
}

// runToBuffer runs p, keeping its rows. It reports false on failure.
func (c *conn) runToBuffer(p *portal) bool {
	w := &bufferWriter{c: c, p: p, limit: c.srv.cfg.MaxPortalBuffer}
	err, shutdown := c.runPortal(p, w)
	p.ran = true
	if shutdown {
		// Nothing to report here: the message loop checks for shutdown
		// before it reads again, and ends the session with 57P01.
		return false
	}
	if err != nil {
		c.extError(err)
		return false
	}
	return true
}

// executeStreaming runs p and streams its result. describe says that a
// Describe of p awaits its answer, which then precedes the rows.
func (c *conn) executeStreaming(p *portal, describe bool) bool {
	w := &streamWriter{c: c, describe: describe, noData: describe, formats: p.formats}
	err, shutdown := c.runPortal(p, w)
	p.ran, p.done, p.tag = true, true, w.lastTag
	if c.writeErr != nil {
		return false
	}
	if shutdown {
		c.terminate()
		return false
	}
	if err != nil {
		c.extError(err)
	}
	return c.writeErr == nil
}

// executeBuffered sends up to maxRows (0: all) of p's kept rows, running p
// first if it has not run.
func (c *conn) executeBuffered(p *portal, maxRows int) bool {
	if !p.ran && !c.runToBuffer(p) {
		return c.writeErr == nil
	}
	if p.done {
		c.send(&pgproto3.CommandComplete{CommandTag: []byte(p.pieceTag(0))})
		return c.writeErr == nil
	}
	if p.empty {
		p.done = true
		c.send(&pgproto3.EmptyQueryResponse{})
		return c.writeErr == nil
	}
	end, first := len(p.rowEnds), p.next
	limited := maxRows > 0 && p.next+maxRows <= end
	if limited {
		end = p.next + maxRows
	}
	for ; p.next < end; p.next++ {
		start := 0
		if p.next > 0 {
			start = p.rowEnds[p.next-1]
		}
		c.out = append(c.out, p.rows[start:p.rowEnds[p.next]]...)
		if c.maybeFlush() != nil {
			return false
		}
	}
	if limited {
		// As PostgreSQL: a fetch that fills its limit suspends the
		// portal, even if no rows are left; the next Execute completes it.
		p.suspended = true
		c.send(&pgproto3.PortalSuspended{})
		return c.writeErr == nil
	}
	tag := p.pieceTag(end - first)
	p.done = true
	p.rows, p.rowEnds = nil, nil
	c.send(&pgproto3.CommandComplete{CommandTag: []byte(tag)})
	return c.writeErr == nil
}

// statement finds a prepared statement: a named one in the session when
// it keeps them, else in the connection.
func (c *conn) statement(name string) *statement {
	if pr, ok := c.sess.(engine.Preparer); ok && name != "" {
		prep, ok := pr.Statement(name)
		if !ok {
			return nil
		}
		return &statement{name: name, prep: prep}
	}
	return c.ext.stmts[name]
}

// prepare handles Parse for a session that prepares statements.
func (c *conn) prepare(pr engine.Preparer, m *pgproto3.Parse) error {
	if m.Name != "" {
		if _, ok := pr.Statement(m.Name); ok {
			return engine.Errorf(engine.CodeDuplicatePreparedStmt, "prepared statement %q already exists", m.Name)
		}
	}
	var prep engine.Prepared
	err, shutdown := c.runFunc(func(ctx context.Context) error {
		var err error
		prep, err = pr.Prepare(ctx, m.Query, m.ParameterOIDs)
		return err
	})
	if shutdown {
		return errShutdown
	}
	if err != nil {
		return err
	}
	if m.Name != "" {
		if err := pr.AddStatement(m.Name, prep); err != nil {
			return err
		}
	} else {
		c.ext.stmts[""] = &statement{sql: m.Query, prep: prep}
	}
	c.send(&pgproto3.ParseComplete{})
	return nil
}

// runPortal runs p's statement with its parameters.
func (c *conn) runPortal(p *portal, w engine.ResultWriter) (err error, shutdown bool) {
	if p.stmt.prep == nil {
		return c.runQuery(p.stmt.sql, w)
	}
	return c.runFunc(func(ctx context.Context) error { return p.stmt.prep.Run(ctx, p.params, w) })
}

// runFunc is runQuery for any work of the session: f runs with a context
// that CancelRequest and shutdown cancel.
func (c *conn) runFunc(f func(ctx context.Context) error) (err error, shutdown bool) {
	ctx, cancel := context.WithCancelCause(c.srv.hardCtx)
	c.mu.Lock()
	c.cancelFn = cancel
	c.mu.Unlock()
	stopWatch := c.watchClient(cancel)
	err = f(ctx)
	stopWatch()
	c.mu.Lock()
	c.cancelFn = nil
	c.mu.Unlock()
	cause := context.Cause(ctx)
	cancel(nil)
	if err == nil {
		return nil, false
	}
	if errors.Is(cause, errShutdown) || errors.Is(cause, errTerminate) {
		return err, true
	}
	if errors.Is(cause, errClientGone) {
		return &engine.Error{Code: engine.CodeConnectionFailure, Message: "connection to client lost", Err: err}, false
	}
	var pe *engine.Error
	if !errors.As(err, &pe) && (errors.Is(err, context.Canceled) || errors.Is(err, errCancelRequest)) {
		err = &engine.Error{Code: engine.CodeQueryCanceled, Message: "canceling statement due to user request", Err: err}
	}
	return err, false
}

// errProbeDone stops a statement run only to learn its columns.
var errProbeDone = errors.New("wire: statement described")

// describeStatement fills st.cols; see the top of this file.
func (c *conn) describeStatement(st *statement) error {
	if st.described {
		return nil
	}
	if d, ok := c.sess.(Describer); ok {
		cols, err := d.DescribeQuery(c.srv.hardCtx, st.sql)
		if err != nil {
			return err
		}
		st.cols, st.described = cols, true
		return nil
	}
	if !readsData(st.sql) {
		st.described = true
		return nil
	}
	pw := &probeWriter{c: c}
	err, shutdown := c.runQuery(st.sql, pw)
	if shutdown {
		return errShutdown
	}
	if pw.described {
		st.cols, st.described = pw.cols, true
		return nil
	}
	if err != nil && !errors.Is(err, errProbeDone) {
		return err
	}
	st.described = true
	return nil
}

// probeWriter records a statement's columns and stops it.
type probeWriter struct {
	c         *conn
	described bool
	cols      []engine.ResultColumn
}

func (w *probeWriter) Describe(cols []engine.ResultColumn) error {
	w.cols = append([]engine.ResultColumn(nil), cols...)
	w.described = true
	return errProbeDone
}
func (w *probeWriter) Row([][]byte) error         { return errProbeDone }
func (w *probeWriter) Complete(string) error      { return nil }
func (w *probeWriter) Notice(engine.Notice) error { return nil }
func (w *probeWriter) EmptyQuery() error          { return nil }

// readsData reports whether sql's first keyword is one that only reads.
func readsData(sql string) bool {
	kw := strings.ToLower(firstKeyword(sql))
	switch kw {
	case "select", "with", "values", "table", "show", "explain":
		return true
	}
	return false
}

// firstKeyword returns the first word of sql after blanks, comments and
// opening parentheses.
func firstKeyword(sql string) string {
	i := 0
	for i < len(sql) {
		switch ch := sql[i]; {
		case ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' || ch == '(':
			i++
		case strings.HasPrefix(sql[i:], "--"):
			nl := strings.IndexByte(sql[i:], '\n')
			if nl < 0 {
				return ""
			}
			i += nl + 1
		case strings.HasPrefix(sql[i:], "/*"):
			i = skipBlockComment(sql, i)
		default:
			j := i
			for j < len(sql) && isIdentChar(sql[j]) {
				j++
			}
			return sql[i:j]
		}
	}
	return ""
}

func isIdentChar(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b >= 0x80
}

// skipBlockComment returns the index after the (nested) comment at i.
func skipBlockComment(sql string, i int) int {
	depth := 0
	for i < len(sql) {
		switch {
		case strings.HasPrefix(sql[i:], "/*"):
			depth++
			i += 2
		case strings.HasPrefix(sql[i:], "*/"):
			depth--
			i += 2
			if depth == 0 {
				return i
			}
		default:
			i++
		}
	}
	return i
}

// hasParams reports whether sql holds a $n parameter outside string
// literals, quoted identifiers, comments and dollar-quoted strings.
func hasParams(sql string) bool {
	i := 0
	for i < len(sql) {
		ch := sql[i]
		switch {
		case ch == '\'':
			// E'...' strings take backslash escapes.
			backslash := i > 0 && (sql[i-1] == 'E' || sql[i-1] == 'e') && (i < 2 || !isIdentChar(sql[i-2]))
			i++
			for i < len(sql) {
				if backslash && sql[i] == '\\' {
					i += 2
					continue
				}
				if sql[i] == '\'' {
					if i+1 < len(sql) && sql[i+1] == '\'' {
						i += 2
						continue
					}
					break
				}
				i++
			}
			i++
		case ch == '"':
			j := strings.IndexByte(sql[i+1:], '"')
			if j < 0 {
				return false
			}
			i += j + 2
		case strings.HasPrefix(sql[i:], "--"):
			j := strings.IndexByte(sql[i:], '\n')
			if j < 0 {
				return false
			}
			i += j + 1
		case strings.HasPrefix(sql[i:], "/*"):
			i = skipBlockComment(sql, i)
		case isIdentChar(ch):
			// An identifier or keyword; '$' inside one (a$1) is part of it.
			for i < len(sql) && (isIdentChar(sql[i]) || sql[i] == '$') {
				i++
			}
		case ch == '$':
			if i+1 < len(sql) && sql[i+1] >= '0' && sql[i+1] <= '9' {
				return true
			}
			// A dollar quote: $tag$ ... $tag$.
			j := i + 1
			for j < len(sql) && isIdentChar(sql[j]) {
				j++
			}
			if j < len(sql) && sql[j] == '$' {
				tag := sql[i : j+1]
				k := strings.Index(sql[j+1:], tag)
				if k < 0 {
					return false
				}
				i = j + 1 + k + len(tag)
			} else {
				i++
			}
		default:
			i++
		}
	}
	return false
}
