package query

// Prepared statements: the extended query protocol's Parse (Session
// implements engine.Preparer) and SQL PREPARE, EXECUTE, DEALLOCATE and
// DISCARD, which share one namespace of named statements, as in
// PostgreSQL. Every statement runs through exec, which applies
// statement_timeout to loads and queries alike.

import (
	"context"
	"strconv"
	"time"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/eval"
	"github.com/gpusql/gpusql/query/parse"
)

// sessionExt is a session's prepared statements and cursors.
type sessionExt struct {
	stmts   map[string]*prepared
	cursors map[string]*cursor
}

var _ engine.Preparer = (*Session)(nil)

// prepared is a statement parsed and bound once.
type prepared struct {
	s     *Session
	stmt  parse.Stmt // nil: an empty query
	types []engine.Type
	oids  []uint32
	cols  []engine.ResultColumn
}

var _ engine.Prepared = (*prepared)(nil)

func (p *prepared) ParamOIDs() []uint32            { return p.oids }
func (p *prepared) Columns() []engine.ResultColumn { return p.cols }
func (s *Session) Statement(name string) (engine.Prepared, bool) {
	p, ok := s.ext.stmts[name]
	return p, ok
}

// AddStatement names a statement that Prepare made.
func (s *Session) AddStatement(name string, p engine.Prepared) error {
	pp, ok := p.(*prepared)
	if !ok || pp.s != s {
		return engine.Errorf(engine.CodeInternalError, "statement %q was not prepared by this session", name)
	}
	return s.addStatement(name, pp)
}

func (s *Session) addStatement(name string, p *prepared) error {
	if _, ok := s.ext.stmts[name]; ok {
		return engine.Errorf(engine.CodeDuplicatePreparedStmt, "prepared statement %q already exists", name)
	}
	if n := s.srv.opts.MaxPrepared; len(s.ext.stmts) >= n {
		return engine.Errorf(engine.CodeProgramLimitExceeded, "too many prepared statements (at most %d per session)", n)
	}
	if s.ext.stmts == nil {
		s.ext.stmts = map[string]*prepared{}
	}
	s.ext.stmts[name] = p
	return nil
}

// DropStatement forgets a named statement.
func (s *Session) DropStatement(name string) { delete(s.ext.stmts, name) }

// CursorColumns describes a declared cursor's rows.
func (s *Session) CursorColumns(name string) ([]engine.ResultColumn, bool) {
	c, ok := s.ext.cursors[name]
	if !ok {
		return nil, false
	}
	return c.cols, true
}

// Prepare parses and binds sql, inferring the types of parameters that
// paramOIDs leave open.
func (s *Session) Prepare(ctx context.Context, sql string, paramOIDs []uint32) (engine.Prepared, error) {
	p, err := s.prepareExt(ctx, sql, paramOIDs)
	if err != nil {
		// As any error in a transaction block, a failed Parse fails the
		// block.
		s.fail()
		return nil, err
	}
	return p, nil
}

func (s *Session) prepareExt(ctx context.Context, sql string, paramOIDs []uint32) (engine.Prepared, error) {
	stmts, err := parse.Parse(sql)
	if err != nil {
		return nil, err
	}
	if len(stmts) > 1 {
		return nil, engine.Errorf(engine.CodeSyntaxError, "cannot insert multiple commands into a prepared statement")
	}
	if len(paramOIDs) > maxParams {
		return nil, engine.Errorf(engine.CodeProgramLimitExceeded, "too many parameters (at most %d)", maxParams)
	}
	given := make([]engine.Type, len(paramOIDs))
	var elems []engine.Type
	for i, oid := range paramOIDs {
		t, elem, ok := paramTypeOfOID(oid)
		if !ok {
			return nil, engine.Errorf(engine.CodeFeatureNotSupported, "parameter $%d has type OID %d, which gpusql does not support", i+1, oid).
				WithHint("Send the parameter as text (type OID 0 or 25) and cast it in the query.")
		}
		given[i] = t
		if elem.Kind != engine.KindInvalid {
			if elems == nil {
				elems = make([]engine.Type, len(paramOIDs))
			}
			elems[i] = elem
		}
	}
	var st parse.Stmt
	if len(stmts) == 1 {
		st = stmts[0]
		if s.failedTx && !endsFailedTx(st) {
			return nil, errFailedTx()
		}
	}
	ctx, unpin := withPins(ctx)
	defer unpin()
	p, err := s.prepareTyped(ctx, st, given, elems, paramOIDs)
	if err != nil {
		if st != nil {
			start, end := stmtSpan(sql, st, 0)
			err = withPosition(err, sql, start, end)
		}
		return nil, err
	}
	return p, nil
}

func errFailedTx() error {
	return engine.Errorf(engine.CodeInFailedTransaction, "current transaction is aborted, commands ignored until end of transaction block")
}

// endsFailedTx reports whether st may run in a failed transaction block:
// COMMIT and ROLLBACK end it, ROLLBACK TO SAVEPOINT returns to a point
// before the failure.
func endsFailedTx(st parse.Stmt) bool {
	t, ok := st.(*parse.Transaction)
	return ok && (t.Kind == "ROLLBACK" || t.Kind == "COMMIT" || t.Kind == "ROLLBACK TO")
}

// queryOf is the query whose $n a statement's parameters are.
func queryOf(st parse.Stmt) *parse.Select {
	switch st := st.(type) {
	case *parse.Select:
		return st
	case *parse.Explain:
		return st.Query
	case *parse.Declare:
		return st.Query
	case *parse.Insert:
		return st.Query // nil for DEFAULT VALUES
	}
	return nil
}

// prepare binds st with parameters of the given types (unknown: infer).
func (s *Session) prepare(ctx context.Context, st parse.Stmt, given []engine.Type) (*prepared, error) {
	return s.prepareTyped(ctx, st, given, nil, nil)
}

// prepareTyped is prepare with the element types of parameters the client
// declared as arrays (elems, nil: none) and the type OIDs it gave.
func (s *Session) prepareTyped(ctx context.Context, st parse.Stmt, given, elems []engine.Type, givenOIDs []uint32) (*prepared, error) {
	p := &prepared{s: s, stmt: st}
	if err := s.unqualifyDatabases(st); err != nil {
		return nil, err
	}
	n := len(given)
	q := queryOf(st)
	if q != nil {
		n = max(n, maxParam(q.AST, q.LimitParams))
	}
	if n > maxParams {
		return nil, engine.Errorf(engine.CodeProgramLimitExceeded, "too many parameters (at most %d)", maxParams)
	}
	env := &paramEnv{types: make([]engine.Type, n)}
	for i := range env.types {
		env.types[i] = engine.Unknown
		if i < len(given) {
			env.types[i] = given[i]
		}
		if i < len(elems) && elems[i].Kind != engine.KindInvalid {
			env.setElem(i+1, elems[i])
		}
	}
	if q != nil {
		env.limits = q.LimitParams
		// An INSERT's VALUES rows are bound one by one (write.go).
		queries := []ast.Node{q.AST}
		if ins, ok := st.(*parse.Insert); ok {
			s.prepareInsert(ins, typedParams(env))
			if ins.Rows > 0 {
				queries = queries[:0]
				for _, r := range valuesRows(q.AST) {
					queries = append(queries, r)
				}
			}
		}
		for _, query := range queries {
			plan, cols, err := s.describeSelect(ctx, query.(ast.StmtNode), env)
			if err != nil {
				return nil, err
			}
			env.inferPlan(plan)
			if _, ok := st.(*parse.Select); ok {
				p.cols = cols
			}
		}
	}
	env.settle()
	p.types = env.types
	p.oids = env.oids(givenOIDs)
	switch st := st.(type) {
	case *parse.Explain:
		p.cols = []engine.ResultColumn{textColumn("QUERY PLAN")}
	case *parse.Show:
		p.cols = s.showColumns(st.Name)
	case *parse.Fetch:
		if c, ok := s.ext.cursors[st.Cursor]; ok && !st.Move {
			p.cols = c.cols
		}
	case *parse.Execute:
		if named, ok := s.ext.stmts[st.Name]; ok {
			p.cols = named.cols
		}
	}
	return p, nil
}

// CheckParams reads params as Run does, without running the statement:
// the first invalid value's error (which fails a transaction block).
func (p *prepared) CheckParams(params []engine.Param) error {
	if len(params) != len(p.types) {
		return nil // Run reports the count
	}
	for i, v := range params {
		v, err := p.s.zonedParam(p.oids[i], v)
		if err == nil {
			_, err = paramConst(p.types[i], v)
		}
		if err != nil {
			p.s.fail()
			return err
		}
	}
	return nil
}

// Run runs the statement with params. Run outside the extended
// protocol's messages (embedded use) and outside any transaction, it is a
// transaction of its own (xactstats.go).
func (p *prepared) Run(ctx context.Context, params []engine.Param, w engine.ResultWriter) (err error) {
	s := p.s
	if !s.syncPending && !s.xactOpen {
		s.xactBegin()
		defer func() { s.xactEndImplicit(err) }()
	}
	if len(params) != len(p.types) {
		return engine.Errorf(engine.CodeProtocolViolation, "bind message supplies %d parameters, but prepared statement requires %d", len(params), len(p.types))
	}
	if p.stmt == nil {
		return w.EmptyQuery()
	}
	s.startActivity(p.stmt.SQL())
	defer s.endActivity()
	if s.failedTx && !endsFailedTx(p.stmt) {
		return errFailedTx()
	}
	var env *paramEnv
	if len(p.types) > 0 {
		env = &paramEnv{types: p.types, values: make([]engine.Expr, len(params))}
		if q := queryOf(p.stmt); q != nil {
			env.limits = q.LimitParams
		}
		for i, v := range params {
			v, err := s.zonedParam(p.oids[i], v)
			if err != nil {
				s.fail()
				return err
			}
			c, err := paramConst(p.types[i], v)
			if err != nil {
				s.fail()
				return err
			}
			env.values[i] = c
		}
	}
	if sel, ok := p.stmt.(*parse.Select); ok {
		err = s.runStatement(ctx, func(ctx context.Context) error { return s.runPrepared(ctx, p, sel, env, w) })
	} else {
		err = s.execParams(ctx, p.stmt, w, env)
	}
	if err != nil {
		s.fail()
	}
	return err
}

// runPrepared binds a prepared SELECT with its parameter values and runs it.
func (s *Session) runPrepared(ctx context.Context, p *prepared, sel *parse.Select, env *paramEnv, w engine.ResultWriter) error {
	plan, cols, err := s.bindSelectParams(ctx, sel.AST, env)
	if err != nil {
		return err
	}
	if !sameColumns(cols, p.cols) {
		return engine.Errorf(engine.CodeFeatureNotSupported, "cached plan must not change result type")
	}
	_, err = s.runPlan(ctx, plan, cols, w, true)
	return err
}

func sameColumns(a, b []engine.ResultColumn) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].TypeOID != b[i].TypeOID || a[i].Typmod != b[i].Typmod || a[i].Name != b[i].Name {
			return false
		}
	}
	return true
}

// exec runs one statement under statement_timeout.
func (s *Session) exec(ctx context.Context, st parse.Stmt, w engine.ResultWriter) error {
	return s.execParams(ctx, st, w, nil)
}

// execParams runs one statement whose parameters env holds (nil: none).
func (s *Session) execParams(ctx context.Context, st parse.Stmt, w engine.ResultWriter, env *paramEnv) error {
	return s.runStatement(ctx, func(ctx context.Context) error {
		s.observeTransaction(st)
		s.noteQuery(st)
		if err := s.unqualifyDatabases(st); err != nil {
			return err
		}
		if err := s.checkStatement(st); err != nil {
			return err
		}
		if isRoleStmt(st) {
			return s.roleStmt(st, w)
		}
		switch st := st.(type) {
		case *parse.Select:
			if env != nil {
				plan, cols, err := s.bindSelectParams(ctx, st.AST, env)
				if err != nil {
					return err
				}
				_, err = s.runPlan(ctx, plan, cols, w, true)
				return err
			}
		case *parse.Prepare:
			return s.prepareSQL(ctx, st, w)
		case *parse.Execute:
			return s.executeSQL(ctx, st, w)
		case *parse.Deallocate:
			return s.deallocate(st, w)
		case *parse.Discard:
			return s.discard(st, w)
		case *parse.Lock:
			return s.lock(st, w)
		case *parse.Declare:
			return s.declare(ctx, st, w, env)
		case *parse.Fetch:
			return s.fetch(st, w)
		case *parse.CloseCursor:
			return s.closeCursor(st, w)
		case *parse.Explain:
			return s.explain(ctx, st, w, env)
		case *parse.Insert:
			return s.insert(ctx, st, w, env)
		}
		return s.execStmt(ctx, st, w)
	})
}

// runStatement runs f under the session's statement_timeout; running out
// of time is 57014, as a cancelled query is.
//
// The tables the statement reads are pinned from its first use of each
// until it ends (snapshot.go).
func (s *Session) runStatement(ctx context.Context, f func(ctx context.Context) error) error {
	ctx = s.withClock(ctx) // timezone.go
	ctx = withMemBudget(ctx, s.srv.opts.MaxQueryMemory)
	ctx, unpin := withPins(ctx)
	defer unpin()
	d := s.statementTimeout()
	if d <= 0 {
		return f(ctx)
	}
	tctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	err := f(tctx)
	if err != nil && ctx.Err() == nil && tctx.Err() == context.DeadlineExceeded {
		return &engine.Error{Code: engine.CodeQueryCanceled, Message: "canceling statement due to statement timeout", Err: err}
	}
	return err
}

// runPlan executes a bound plan, streaming its rows to w (after
// Describe, when describe is set), and returns how many it sent.
func (s *Session) runPlan(ctx context.Context, plan *engine.Plan, cols []engine.ResultColumn, w engine.ResultWriter, complete bool) (int64, error) {
	if err := w.Describe(cols); err != nil {
		return 0, err
	}
	var rows int64
	vals := make([][]byte, plan.Visible)
	buf := make([]byte, 0, 256) // never nil: an empty value must not read as NULL
	zone := clockOf(ctx).zone
	ends := make([]int, plan.Visible)
	sink := func(b *engine.Batch) error {
		for i := 0; i < b.N; i++ {
			buf = buf[:0]
			for c, v := range b.Cols {
				if v.IsNull(i) {
					ends[c] = -1
					continue
				}
				buf = engine.AppendTextZone(buf, v, i, zone)
				ends[c] = len(buf)
			}
			start := 0
			for c := range b.Cols {
				if ends[c] < 0 {
					vals[c] = nil
					continue
				}
				vals[c] = buf[start:ends[c]:ends[c]]
				start = ends[c]
			}
			if err := w.Row(vals); err != nil {
				return err
			}
		}
		rows += int64(b.N)
		return nil
	}
	if err := s.srv.run(ctx, plan, sink); err != nil {
		return rows, err
	}
	if !complete {
		return rows, nil
	}
	return rows, w.Complete("SELECT " + strconv.FormatInt(rows, 10))
}

func (s *Session) prepareSQL(ctx context.Context, st *parse.Prepare, w engine.ResultWriter) error {
	if _, ok := s.ext.stmts[st.Name]; ok {
		return engine.Errorf(engine.CodeDuplicatePreparedStmt, "prepared statement %q already exists", st.Name)
	}
	p, err := s.prepare(ctx, st.Query, st.Types)
	if err != nil {
		return err
	}
	if err := s.addStatement(st.Name, p); err != nil {
		return err
	}
	return w.Complete("PREPARE")
}

func (s *Session) executeSQL(ctx context.Context, st *parse.Execute, w engine.ResultWriter) error {
	p, ok := s.ext.stmts[st.Name]
	if !ok {
		return engine.Errorf(engine.CodeInvalidSQLStatementName, "prepared statement %q does not exist", st.Name)
	}
	if len(st.Args) != len(p.types) {
		return engine.Errorf(engine.CodeSyntaxError, "wrong number of parameters for prepared statement %q", st.Name).
			WithDetail("Expected %d parameters but got %d.", len(p.types), len(st.Args))
	}
	params := make([]engine.Param, len(st.Args))
	b := &binder{s: s}
	for i, a := range st.Args {
		e, err := b.expr(a)
		if err != nil {
			return err
		}
		if e, err = castTo(e, p.types[i]); err != nil {
			return err
		}
		c, ok := e.(*engine.Const)
		if !ok {
			return engine.Errorf(engine.CodeFeatureNotSupported, "the arguments of EXECUTE must be constants in gpusql")
		}
		if c.Null {
			params[i].Null = true
			continue
		}
		v, err := eval.Eval(ctx, c, &engine.Batch{N: 1})
		if err != nil {
			return err
		}
		params[i].Value = engine.AppendText(nil, v, 0)
	}
	return p.Run(ctx, params, w)
}

func (s *Session) deallocate(st *parse.Deallocate, w engine.ResultWriter) error {
	if st.All {
		clear(s.ext.stmts)
		return w.Complete("DEALLOCATE ALL")
	}
	if _, ok := s.ext.stmts[st.Name]; !ok {
		return engine.Errorf(engine.CodeInvalidSQLStatementName, "prepared statement %q does not exist", st.Name)
	}
	delete(s.ext.stmts, st.Name)
	return w.Complete("DEALLOCATE")
}

// discard runs DISCARD: ALL resets the session's settings and drops its
// prepared statements and cursors; PLANS, SEQUENCES and TEMP have nothing
// to drop in gpusql.
// lock runs LOCK TABLE, which pg_dump sends for each table it dumps. A
// gpusql statement reads a published table version and never waits for a
// writer, so there is nothing to lock: LOCK checks that it runs in a
// transaction block and that the relations exist, as PostgreSQL does.
func (s *Session) lock(st *parse.Lock, w engine.ResultWriter) error {
	if !s.inTx {
		return engine.Errorf(engine.CodeNoActiveSQLTransaction, "LOCK TABLE can only be used in transaction blocks")
	}
	for i, name := range st.Names {
		if t, v := s.userRelation(st.Schemas[i], name); t != nil || v != nil {
			continue
		}
		if _, ok, err := s.catalogSource(st.Schemas[i], name); err != nil || ok {
			if err != nil {
				return err
			}
			continue
		}
		full := name
		if st.Schemas[i] != "" {
			full = st.Schemas[i] + "." + name
		}
		return engine.Errorf(engine.CodeUndefinedTable, "relation %q does not exist", full)
	}
	return w.Complete("LOCK TABLE")
}

func (s *Session) discard(st *parse.Discard, w engine.ResultWriter) error {
	if st.What == "ALL" {
		if s.inTx {
			return engine.Errorf(engine.CodeActiveSQLTransaction, "DISCARD ALL cannot be executed inside a transaction block")
		}
		s.settings = map[string]string{}
		clear(s.ext.stmts)
		clear(s.ext.cursors)
	}
	if st.What == "ALL" || st.What == "TEMP" {
		s.dropTemp()
	}
	return w.Complete("DISCARD " + st.What)
}

// elapsedMS formats a duration as PostgreSQL's EXPLAIN ANALYZE does.
func elapsedMS(d time.Duration) string {
	return strconv.FormatFloat(float64(d.Nanoseconds())/1e6, 'f', 3, 64) + " ms"
}
