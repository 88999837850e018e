package wire_test

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/gpusql/gpusql/engine"
)

// A scripted engine for the protocol tests: each statement text maps to a
// canned result. It is a test peer, not a query engine.

type fakeStmt struct {
	cols   []engine.ResultColumn
	rows   [][][]byte
	many   int // this many extra generated rows: "row <i>"
	tag    string
	err    *engine.Error
	notice *engine.Notice
	// block waits, after announcing itself on fakeServer.started, for
	// the query context to end (then returns 57014) or for gate to close
	// (then completes).
	block bool
	// endless generates rows until Row fails, then reports the error on
	// fakeServer.rowErr.
	endless bool
	// copyIn runs COPY FROM STDIN: it reads the client's data (at most
	// readMax bytes when that is set), sends it on fakeServer.copied,
	// then fails with copyErr or completes with "COPY <bytes read>".
	copyIn  bool
	readMax int
	copyErr *engine.Error
	// copyOut runs COPY TO STDOUT, writing each string as one chunk.
	copyOut []string
}

type fakeServer struct {
	stmts   map[string]fakeStmt
	started chan context.Context // a blocking statement is running
	gate    chan struct{}        // closing it lets blocking statements complete
	rowErr  chan error           // an endless statement's Row failed
	copied  chan string          // what a copyIn statement read
	params  chan engine.SessionParams
	quiet   bool // keep no history (the fuzz test runs millions of sessions)

	mu       sync.Mutex
	ran      []string
	sessions []*fakeSession
}

func newFakeServer() *fakeServer {
	return &fakeServer{
		stmts:   fakeStatements(),
		started: make(chan context.Context, 8),
		gate:    make(chan struct{}),
		rowErr:  make(chan error, 8),
		copied:  make(chan string, 8),
		params:  make(chan engine.SessionParams, 64),
	}
}

func int4Col(name string) engine.ResultColumn {
	return engine.ResultColumn{Name: name, TypeOID: engine.OIDInt4, TypLen: 4, Typmod: -1}
}

func textCol(name string) engine.ResultColumn {
	return engine.ResultColumn{Name: name, TypeOID: engine.OIDText, TypLen: -1, Typmod: -1}
}

func fakeStatements() map[string]fakeStmt {
	m := map[string]fakeStmt{
		"select 1": {cols: []engine.ResultColumn{int4Col("one")}, rows: [][][]byte{{[]byte("1")}}, tag: "SELECT 1"},
		"select two": {
			cols: []engine.ResultColumn{int4Col("n"), textCol("s")},
			rows: [][][]byte{{[]byte("1"), []byte("a")}, {[]byte("2"), nil}},
			tag:  "SELECT 2",
		},
		"select null":    {cols: []engine.ResultColumn{textCol("x"), int4Col("y")}, rows: [][][]byte{{nil, nil}}, tag: "SELECT 1"},
		"select many":    {cols: []engine.ResultColumn{textCol("v")}, many: 50000, tag: "SELECT 50000"},
		"create table t": {tag: "CREATE TABLE"},
		"notice":         {notice: &engine.Notice{Severity: "NOTICE", Code: "00000", Message: "hello", Detail: "there"}, tag: "DO"},
		"fail": {err: &engine.Error{Code: engine.CodeDivisionByZero, Message: "division by zero",
			Detail: "d", Hint: "h", Where: "w", Position: 8}},
		"block":   {block: true, cols: []engine.ResultColumn{int4Col("b")}, rows: [][][]byte{{[]byte("7")}}, tag: "SELECT 1"},
		"endless": {endless: true, cols: []engine.ResultColumn{textCol("v")}},
	}
	m["select typed"] = typedStmt()
	m["copy in"] = fakeStmt{copyIn: true}
	m["copy in head"] = fakeStmt{copyIn: true, readMax: 2}
	m["copy in bad row"] = fakeStmt{copyIn: true, readMax: 1, copyErr: &engine.Error{Code: engine.CodeBadCopyFileFormat, Message: "extra data after last expected column"}}
	m["copy out"] = fakeStmt{copyOut: []string{"1\ta\n", "2\tb\n"}, tag: "COPY 2"}
	return m
}

func (f *fakeServer) NewSession(p engine.SessionParams) (engine.Session, error) {
	if p.User == "refused" {
		return nil, engine.Errorf(engine.CodeInsufficientPrivilege, "role %q is not permitted to log in", p.User)
	}
	s := &fakeSession{srv: f, closed: make(chan struct{})}
	if !f.quiet {
		f.mu.Lock()
		f.sessions = append(f.sessions, s)
		f.mu.Unlock()
	}
	select {
	case f.params <- p:
	default:
	}
	return s, nil
}

func (f *fakeServer) ServerVersion() string { return "15.0 (gpusql test)" }

func (f *fakeServer) ranStatements() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.ran...)
}

type fakeSession struct {
	srv       *fakeServer
	closeOnce sync.Once
	closed    chan struct{}
	// end is what NoteEnd was told; tx records the implicit
	// transaction's BeginImplicit ("b") and Sync ("s") calls. Both are
	// read after closed.
	end engine.SessionEnd
	tx  []string
}

func (s *fakeSession) NoteEnd(e engine.SessionEnd) { s.end = e }
func (s *fakeSession) BeginImplicit()              { s.tx = append(s.tx, "b") }
func (s *fakeSession) Sync()                       { s.tx = append(s.tx, "s") }

func (s *fakeSession) Query(ctx context.Context, sql string, w engine.ResultWriter) error {
	var parts []string
	for _, p := range strings.Split(sql, ";") {
		if p = strings.TrimSpace(p); p != "" {
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 {
		return w.EmptyQuery()
	}
	for _, p := range parts {
		if !s.srv.quiet {
			s.srv.mu.Lock()
			s.srv.ran = append(s.srv.ran, p)
			s.srv.mu.Unlock()
		}
		st, ok := s.srv.stmts[p]
		if !ok {
			return &engine.Error{Code: engine.CodeSyntaxError, Message: fmt.Sprintf("syntax error at or near %q", p), Position: 1}
		}
		if err := s.run(ctx, st, w); err != nil {
			return err
		}
	}
	return nil
}

func (s *fakeSession) run(ctx context.Context, st fakeStmt, w engine.ResultWriter) error {
	if st.notice != nil {
		if err := w.Notice(*st.notice); err != nil {
			return err
		}
	}
	if st.err != nil {
		return st.err
	}
	if st.copyIn || st.copyOut != nil {
		return s.runCopy(st, w)
	}
	if st.block {
		s.srv.started <- ctx
		select {
		case <-ctx.Done():
			return engine.Errorf(engine.CodeQueryCanceled, "canceling statement due to user request")
		case <-s.srv.gate:
		}
	}
	if st.cols != nil {
		if err := w.Describe(st.cols); err != nil {
			return err
		}
	}
	for _, r := range st.rows {
		if err := w.Row(r); err != nil {
			return err
		}
	}
	buf := make([]byte, 0, 32)
	for i := 0; i < st.many || st.endless; i++ {
		buf = fmt.Appendf(buf[:0], "row %d", i)
		if err := w.Row([][]byte{buf}); err != nil {
			if st.endless {
				s.srv.rowErr <- err
			}
			return err
		}
	}
	return w.Complete(st.tag)
}

func (s *fakeSession) TxStatus() byte { return 'I' }

func (s *fakeSession) Close() error {
	s.closeOnce.Do(func() { close(s.closed) })
	return nil
}

// typedStmt returns one row of each type whose binary form the server
// can send, for the real-driver test.
func typedStmt() fakeStmt {
	return fakeStmt{
		cols: []engine.ResultColumn{
			{Name: "i8", TypeOID: engine.OIDInt8, TypLen: 8, Typmod: -1},
			{Name: "f8", TypeOID: engine.OIDFloat8, TypLen: 8, Typmod: -1},
			{Name: "b", TypeOID: engine.OIDBool, TypLen: 1, Typmod: -1},
			{Name: "d", TypeOID: engine.OIDDate, TypLen: 4, Typmod: -1},
			{Name: "ts", TypeOID: engine.OIDTimestamp, TypLen: 8, Typmod: -1},
			{Name: "n", TypeOID: engine.OIDNumeric, TypLen: -1, Typmod: (15<<16 | 2) + 4},
			{Name: "iv", TypeOID: engine.OIDInterval, TypLen: 16, Typmod: -1},
			{Name: "s", TypeOID: engine.OIDVarchar, TypLen: -1, Typmod: -1},
		},
		rows: [][][]byte{
			{[]byte("-9000000000"), []byte("2.5"), []byte("t"), []byte("1995-03-15"),
				[]byte("1999-12-31 23:59:58.123456"), []byte("-12345.67"), []byte("1 year 2 mons 3 days 04:05:06.5"), []byte("héllo")},
			{nil, []byte("NaN"), []byte("f"), []byte("2000-01-01"), []byte("2000-01-01 00:00:00"), []byte("0.00"), []byte("00:00:00"), []byte("")},
		},
		tag: "SELECT 2",
	}
}

// runCopy runs a copyIn or copyOut statement.
func (s *fakeSession) runCopy(st fakeStmt, w engine.ResultWriter) error {
	cs := w.(engine.CopyStream)
	if st.copyOut != nil {
		out, err := cs.CopyOut(0, 2)
		if err != nil {
			return err
		}
		for _, chunk := range st.copyOut {
			if _, err := out.Write([]byte(chunk)); err != nil {
				return err
			}
		}
		return w.Complete(st.tag)
	}
	r, err := cs.CopyIn(context.Background(), 0, 2)
	if err != nil {
		return err
	}
	if st.readMax > 0 {
		r = io.LimitReader(r, int64(st.readMax))
	}
	data, err := io.ReadAll(r)
	s.srv.copied <- string(data)
	if err != nil {
		return err
	}
	if st.copyErr != nil {
		return st.copyErr
	}
	return w.Complete(fmt.Sprintf("COPY %d", len(data)))
}
