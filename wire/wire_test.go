package wire_test

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/wire"
	"github.com/jackc/pgx/v5/pgproto3"
)

// safetyDeadline only keeps a broken test from hanging forever; no test
// waits on time for synchronisation.
const safetyDeadline = 30 * time.Second

type harness struct {
	t    *testing.T
	addr string
	srv  *wire.Server
	eng  *fakeServer
}

func newHarness(t *testing.T, cfg wire.Config) *harness {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	eng := newFakeServer()
	srv := wire.NewServer(cfg, eng)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(context.Background(), ln) }()
	t.Cleanup(func() {
		srv.Close()
		// TestShutdown cancels queries, so its Serve reports context.Canceled.
		if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("Serve: %v", err)
		}
	})
	return &harness{t: t, addr: ln.Addr().String(), srv: srv, eng: eng}
}

// client is a scripted frontend.
type client struct {
	t      *testing.T
	nc     net.Conn
	fe     *pgproto3.Frontend
	params map[string]string
	key    *pgproto3.BackendKeyData
}

func (h *harness) dial() *client {
	h.t.Helper()
	nc, err := net.Dial("tcp", h.addr)
	if err != nil {
		h.t.Fatal(err)
	}
	nc.SetDeadline(time.Now().Add(safetyDeadline))
	h.t.Cleanup(func() { nc.Close() })
	return &client{t: h.t, nc: nc, fe: pgproto3.NewFrontend(nc, nc), params: map[string]string{}}
}

// connect dials and completes startup.
func (h *harness) connect() *client {
	c := h.dial()
	c.startup(map[string]string{"user": "alice", "database": "db", "application_name": "wiretest"})
	return c
}

// with returns c reporting to t, for use in a subtest.
func (c *client) with(t *testing.T) *client {
	cc := *c
	cc.t = t
	return &cc
}

func (c *client) send(msgs ...pgproto3.FrontendMessage) {
	c.t.Helper()
	for _, m := range msgs {
		c.fe.Send(m)
	}
	if err := c.fe.Flush(); err != nil {
		c.t.Fatal(err)
	}
}

func (c *client) startup(params map[string]string) {
	c.t.Helper()
	c.send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30, Parameters: params})
	if _, ok := c.recv().(*pgproto3.AuthenticationOk); !ok {
		c.t.Fatal("want AuthenticationOk")
	}
	for {
		switch m := c.recv().(type) {
		case *pgproto3.ParameterStatus:
			c.params[m.Name] = m.Value
		case *pgproto3.BackendKeyData:
			k := *m
			k.SecretKey = append([]byte(nil), m.SecretKey...)
			c.key = &k
		case *pgproto3.ReadyForQuery:
			if m.TxStatus != 'I' {
				c.t.Fatalf("ReadyForQuery %c", m.TxStatus)
			}
			return
		default:
			c.t.Fatalf("unexpected %T during startup", m)
		}
	}
}

func (c *client) recv() pgproto3.BackendMessage {
	c.t.Helper()
	m, err := c.fe.Receive()
	if err != nil {
		c.t.Fatalf("receive: %v", err)
	}
	return m
}

func js(m any) string {
	b, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// expect receives len(want) messages and compares them with want.
func (c *client) expect(want ...pgproto3.BackendMessage) {
	c.t.Helper()
	for i, w := range want {
		got := js(c.recv())
		if got != js(w) {
			c.t.Fatalf("message %d:\n got %s\nwant %s", i, got, js(w))
		}
	}
}

// expectEOF checks that the server closed the connection.
func (c *client) expectEOF() {
	c.t.Helper()
	m, err := c.fe.Receive()
	if err == nil {
		c.t.Fatalf("want EOF, got %s", js(m))
	}
	if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) && !isReset(err) {
		c.t.Fatalf("want EOF, got %v", err)
	}
}

func isReset(err error) bool { return strings.Contains(err.Error(), "connection reset") }

// Expected messages.

func rowDesc(cols ...engine.ResultColumn) *pgproto3.RowDescription {
	return rowDescFmt(0, cols...)
}

func rowDescFmt(format int16, cols ...engine.ResultColumn) *pgproto3.RowDescription {
	rd := &pgproto3.RowDescription{}
	for _, c := range cols {
		rd.Fields = append(rd.Fields, pgproto3.FieldDescription{Name: []byte(c.Name), DataTypeOID: c.TypeOID,
			DataTypeSize: c.TypLen, TypeModifier: c.Typmod, Format: format})
	}
	return rd
}

func row(vals ...any) *pgproto3.DataRow {
	dr := &pgproto3.DataRow{}
	for _, v := range vals {
		switch v := v.(type) {
		case nil:
			dr.Values = append(dr.Values, nil)
		case string:
			dr.Values = append(dr.Values, []byte(v))
		case []byte:
			dr.Values = append(dr.Values, v)
		}
	}
	return dr
}

func complete(tag string) *pgproto3.CommandComplete {
	return &pgproto3.CommandComplete{CommandTag: []byte(tag)}
}

func ready() *pgproto3.ReadyForQuery { return &pgproto3.ReadyForQuery{TxStatus: 'I'} }

func pgErr(sev, code, msg string) *pgproto3.ErrorResponse {
	return &pgproto3.ErrorResponse{Severity: sev, SeverityUnlocalized: sev, Code: code, Message: msg}
}

func query(sql string) *pgproto3.Query { return &pgproto3.Query{String: sql} }

// Tests.

func TestStartupSSLRequestAndParameters(t *testing.T) {
	h := newHarness(t, wire.Config{})
	c := h.dial()
	c.send(&pgproto3.SSLRequest{})
	var b [1]byte
	if _, err := io.ReadFull(c.nc, b[:]); err != nil || b[0] != 'N' {
		t.Fatalf("SSLRequest answer %q, %v; want 'N'", b[0], err)
	}
	c.send(&pgproto3.GSSEncRequest{})
	if _, err := io.ReadFull(c.nc, b[:]); err != nil || b[0] != 'N' {
		t.Fatalf("GSSENCRequest answer %q, %v; want 'N'", b[0], err)
	}
	c.startup(map[string]string{"user": "alice", "database": "db", "application_name": "psql", "client_encoding": "UTF8"})
	want := map[string]string{
		"server_version":              "15.0 (gpusql test)",
		"server_encoding":             "UTF8",
		"client_encoding":             "UTF8",
		"DateStyle":                   "ISO, MDY",
		"IntervalStyle":               "postgres",
		"integer_datetimes":           "on",
		"standard_conforming_strings": "on",
		"TimeZone":                    "UTC",
		"application_name":            "psql",
		"is_superuser":                "on",
		"session_authorization":       "alice",
	}
	for k, v := range want {
		if c.params[k] != v {
			t.Errorf("parameter %s = %q, want %q", k, c.params[k], v)
		}
	}
	if c.key == nil || len(c.key.SecretKey) != 4 {
		t.Fatalf("BackendKeyData = %+v", c.key)
	}
	p := <-h.eng.params
	if p.User != "alice" || p.Database != "db" || p.Application != "psql" || p.Options["client_encoding"] != "UTF8" {
		t.Errorf("session params = %+v", p)
	}
	c.send(query("select 1"))
	c.expect(rowDesc(int4Col("one")), row("1"), complete("SELECT 1"), ready())
}

func TestStartupRejects(t *testing.T) {
	h := newHarness(t, wire.Config{})
	for _, tc := range []struct {
		name   string
		packet []byte
		want   *pgproto3.ErrorResponse
	}{
		{"protocol 2.0", startupPacket(2<<16, "user", "x"),
			pgErr("FATAL", "08P01", "unsupported frontend protocol 2.0: server supports 3.0 to 3.0")},
		{"no user", startupPacket(3<<16, "database", "x"),
			pgErr("FATAL", "08P01", "no PostgreSQL user name specified in startup packet")},
		{"bad layout", append(binary.BigEndian.AppendUint32([]byte{0, 0, 0, 13}, 3<<16), 'u', 'x', 0, 'y', 'z'),
			pgErr("FATAL", "08P01", "invalid startup packet layout: expected terminator as last byte")},
		{"too long", binary.BigEndian.AppendUint32(nil, 20000),
			pgErr("FATAL", "08P01", "invalid length of startup packet: 20000")},
		{"refused by engine", startupPacket(3<<16, "user", "refused"),
			pgErr("FATAL", "42501", `role "refused" is not permitted to log in`)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := h.dial()
			if _, err := c.nc.Write(tc.packet); err != nil {
				t.Fatal(err)
			}
			c.expect(tc.want)
			c.expectEOF()
		})
	}
}

// startupPacket builds a StartupMessage by hand, for versions pgproto3
// will not encode.
func startupPacket(version uint32, kv ...string) []byte {
	b := binary.BigEndian.AppendUint32([]byte{0, 0, 0, 0}, version)
	for _, s := range kv {
		b = append(append(b, s...), 0)
	}
	b = append(b, 0)
	binary.BigEndian.PutUint32(b, uint32(len(b)))
	return b
}

func TestStartupNegotiatesMinorVersion(t *testing.T) {
	h := newHarness(t, wire.Config{})
	c := h.dial()
	c.nc.Write(startupPacket(3<<16|2, "user", "bob", "_pq_.magic", "1"))
	c.expect(&pgproto3.NegotiateProtocolVersion{NewestMinorProtocol: 0, UnrecognizedOptions: []string{"_pq_.magic"}},
		&pgproto3.AuthenticationOk{})
}

func TestSimpleQuery(t *testing.T) {
	h := newHarness(t, wire.Config{})
	c := h.connect()
	for _, tc := range []struct {
		name string
		sql  string
		want []pgproto3.BackendMessage
	}{
		{"several statements", "select 1; select two; create table t", []pgproto3.BackendMessage{
			rowDesc(int4Col("one")), row("1"), complete("SELECT 1"),
			rowDesc(int4Col("n"), textCol("s")), row("1", "a"), row("2", nil), complete("SELECT 2"),
			complete("CREATE TABLE"), ready()}},
		{"nulls", "select null", []pgproto3.BackendMessage{
			rowDesc(textCol("x"), int4Col("y")), row(nil, nil), complete("SELECT 1"), ready()}},
		{"empty", "", []pgproto3.BackendMessage{&pgproto3.EmptyQueryResponse{}, ready()}},
		{"only semicolons", " ; ;", []pgproto3.BackendMessage{&pgproto3.EmptyQueryResponse{}, ready()}},
		{"notice", "notice", []pgproto3.BackendMessage{
			&pgproto3.NoticeResponse{Severity: "NOTICE", SeverityUnlocalized: "NOTICE", Code: "00000", Message: "hello", Detail: "there"},
			complete("DO"), ready()}},
		{"error fields", "fail", []pgproto3.BackendMessage{
			&pgproto3.ErrorResponse{Severity: "ERROR", SeverityUnlocalized: "ERROR", Code: "22012", Message: "division by zero",
				Detail: "d", Hint: "h", Where: "w", Position: 8}, ready()}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := c.with(t)
			c.send(query(tc.sql))
			c.expect(tc.want...)
		})
	}
}

func TestErrorMidwayStopsLaterStatements(t *testing.T) {
	h := newHarness(t, wire.Config{})
	c := h.connect()
	c.send(query("select 1; nonsense; create table t"))
	c.expect(rowDesc(int4Col("one")), row("1"), complete("SELECT 1"),
		&pgproto3.ErrorResponse{Severity: "ERROR", SeverityUnlocalized: "ERROR", Code: "42601",
			Message: `syntax error at or near "nonsense"`, Position: 1},
		ready())
	if got := h.eng.ranStatements(); strings.Join(got, ",") != "select 1,nonsense" {
		t.Errorf("ran %q; the statement after the error must not run", got)
	}
	// The session is still usable.
	c.send(query("select 1"))
	c.expect(rowDesc(int4Col("one")), row("1"), complete("SELECT 1"), ready())
}

func TestLargeResultStreams(t *testing.T) {
	h := newHarness(t, wire.Config{})
	c := h.connect()
	c.send(query("select many"))
	c.expect(rowDesc(textCol("v")))
	for i := range 50000 {
		dr, ok := c.recv().(*pgproto3.DataRow)
		if !ok || len(dr.Values) != 1 || string(dr.Values[0]) != "row "+strconv.Itoa(i) {
			t.Fatalf("row %d: %s", i, js(dr))
		}
	}
	c.expect(complete("SELECT 50000"), ready())
}

func TestClientGoneAbortsQuery(t *testing.T) {
	h := newHarness(t, wire.Config{})
	c := h.connect()
	c.send(query("endless"))
	c.expect(rowDesc(textCol("v")))
	c.nc.Close()
	if err := <-h.eng.rowErr; err == nil {
		t.Fatal("Row must fail once the client is gone")
	}
}

func TestCancelRequest(t *testing.T) {
	h := newHarness(t, wire.Config{})
	c := h.connect()
	c.send(query("block"))
	qctx := <-h.eng.started

	// A wrong secret cancels nothing. The server handles a cancel request
	// before it closes that connection, so EOF means it was processed.
	wrong := h.dial()
	wrong.send(&pgproto3.CancelRequest{ProcessID: c.key.ProcessID, SecretKey: []byte{^c.key.SecretKey[0], 1, 2, 3}})
	wrong.expectEOF()
	if qctx.Err() != nil {
		t.Fatal("a cancel request with the wrong secret cancelled the query")
	}

	canceller := h.dial()
	canceller.send(&pgproto3.CancelRequest{ProcessID: c.key.ProcessID, SecretKey: c.key.SecretKey})
	canceller.expectEOF()
	c.expect(pgErr("ERROR", "57014", "canceling statement due to user request"), ready())
	c.send(query("select 1"))
	c.expect(rowDesc(int4Col("one")), row("1"), complete("SELECT 1"), ready())
}

func TestOversizedMessage(t *testing.T) {
	h := newHarness(t, wire.Config{MaxMessageSize: 1024})
	c := h.connect()
	c.send(query("select 1 " + strings.Repeat(" ", 2000)))
	c.expect(pgErr("FATAL", "08P01", "message of 2010 bytes exceeds the maximum message size of 1024 bytes"))
	c.expectEOF()
}

func TestInvalidMessageType(t *testing.T) {
	h := newHarness(t, wire.Config{})
	c := h.connect()
	c.nc.Write([]byte{'!', 0, 0, 0, 4})
	m := c.recv()
	if e, ok := m.(*pgproto3.ErrorResponse); !ok || e.Code != "08P01" || e.Severity != "FATAL" {
		t.Fatalf("got %s", js(m))
	}
	c.expectEOF()
}

func TestTerminate(t *testing.T) {
	h := newHarness(t, wire.Config{})
	c := h.connect()
	c.send(&pgproto3.Terminate{})
	c.expectEOF()
	h.eng.mu.Lock()
	s := h.eng.sessions[0]
	h.eng.mu.Unlock()
	<-s.closed
}

func TestExtendedProtocol(t *testing.T) {
	h := newHarness(t, wire.Config{})
	c0 := h.connect()

	t.Run("parse bind describe execute", func(t *testing.T) {
		c := c0.with(t)
		c.send(&pgproto3.Parse{Query: "select two"}, &pgproto3.Bind{}, &pgproto3.Describe{ObjectType: 'P'},
			&pgproto3.Execute{}, &pgproto3.Sync{})
		c.expect(&pgproto3.ParseComplete{}, &pgproto3.BindComplete{},
			rowDesc(int4Col("n"), textCol("s")), row("1", "a"), row("2", nil), complete("SELECT 2"), ready())
	})
	t.Run("describe statement", func(t *testing.T) {
		c := c0.with(t)
		c.send(&pgproto3.Parse{Name: "s1", Query: "select two"}, &pgproto3.Describe{ObjectType: 'S', Name: "s1"},
			&pgproto3.Parse{Name: "s2", Query: "create table t"}, &pgproto3.Describe{ObjectType: 'S', Name: "s2"},
			&pgproto3.Sync{})
		c.expect(&pgproto3.ParseComplete{}, &pgproto3.ParameterDescription{ParameterOIDs: []uint32{}}, rowDesc(int4Col("n"), textCol("s")),
			&pgproto3.ParseComplete{}, &pgproto3.ParameterDescription{ParameterOIDs: []uint32{}}, &pgproto3.NoData{}, ready())
		// Execute without Describe: rows only.
		c.send(&pgproto3.Bind{PreparedStatement: "s1"}, &pgproto3.Execute{}, &pgproto3.Sync{})
		c.expect(&pgproto3.BindComplete{}, row("1", "a"), row("2", nil), complete("SELECT 2"), ready())
		c.send(&pgproto3.Close{ObjectType: 'S', Name: "s1"}, &pgproto3.Sync{})
		c.expect(&pgproto3.CloseComplete{}, ready())
	})
	t.Run("deferred describe and row limit", func(t *testing.T) {
		c := c0.with(t)
		c.send(&pgproto3.Parse{Query: "select two"}, &pgproto3.Bind{DestinationPortal: "p"},
			&pgproto3.Describe{ObjectType: 'P', Name: "p"}, &pgproto3.Flush{})
		c.expect(&pgproto3.ParseComplete{}, &pgproto3.BindComplete{}, rowDesc(int4Col("n"), textCol("s")))
		c.send(&pgproto3.Execute{Portal: "p", MaxRows: 1})
		c.send(&pgproto3.Execute{Portal: "p", MaxRows: 1}, &pgproto3.Execute{Portal: "p"}, &pgproto3.Sync{})
		// As PostgreSQL: the completing Execute's tag counts its own
		// rows (none are left).
		c.expect(row("1", "a"), &pgproto3.PortalSuspended{}, row("2", nil), &pgproto3.PortalSuspended{},
			complete("SELECT 0"), ready())
	})
	t.Run("statement without rows", func(t *testing.T) {
		c := c0.with(t)
		c.send(&pgproto3.Parse{Query: "create table t"}, &pgproto3.Bind{}, &pgproto3.Describe{ObjectType: 'P'},
			&pgproto3.Execute{}, &pgproto3.Sync{})
		c.expect(&pgproto3.ParseComplete{}, &pgproto3.BindComplete{}, &pgproto3.NoData{}, complete("CREATE TABLE"), ready())
	})
	t.Run("parameters are refused until Sync", func(t *testing.T) {
		c := c0.with(t)
		c.send(&pgproto3.Parse{Query: "select $1"}, &pgproto3.Bind{}, &pgproto3.Execute{}, &pgproto3.Sync{})
		c.expect(&pgproto3.ErrorResponse{Severity: "ERROR", SeverityUnlocalized: "ERROR", Code: "0A000",
			Message: "parameters arrive in a later gpusql release",
			Detail:  "use a statement without $n placeholders, or the simple query protocol"}, ready())
	})
	t.Run("error at execute skips to sync", func(t *testing.T) {
		c := c0.with(t)
		c.send(&pgproto3.Parse{Query: "fail"}, &pgproto3.Bind{}, &pgproto3.Execute{},
			&pgproto3.Parse{Query: "select 1"}, &pgproto3.Sync{})
		c.expect(&pgproto3.ParseComplete{}, &pgproto3.BindComplete{},
			&pgproto3.ErrorResponse{Severity: "ERROR", SeverityUnlocalized: "ERROR", Code: "22012", Message: "division by zero",
				Detail: "d", Hint: "h", Where: "w", Position: 8}, ready())
	})
	t.Run("missing statement and portal", func(t *testing.T) {
		c := c0.with(t)
		c.send(&pgproto3.Bind{PreparedStatement: "nope"}, &pgproto3.Sync{},
			&pgproto3.Execute{Portal: "nope"}, &pgproto3.Sync{})
		c.expect(pgErr("ERROR", "26000", `prepared statement "nope" does not exist`), ready(),
			pgErr("ERROR", "34000", `portal "nope" does not exist`), ready())
	})
	t.Run("binary results", func(t *testing.T) {
		c := c0.with(t)
		c.send(&pgproto3.Parse{Query: "select two"}, &pgproto3.Bind{ResultFormatCodes: []int16{1, 0}},
			&pgproto3.Describe{ObjectType: 'P'}, &pgproto3.Execute{}, &pgproto3.Sync{})
		want := rowDesc(int4Col("n"), textCol("s"))
		want.Fields[0].Format = 1
		c.expect(&pgproto3.ParseComplete{}, &pgproto3.BindComplete{}, want,
			row([]byte{0, 0, 0, 1}, "a"), row([]byte{0, 0, 0, 2}, nil), complete("SELECT 2"), ready())
	})
}

func TestShutdown(t *testing.T) {
	h := newHarness(t, wire.Config{})
	idle := h.connect()
	busy1 := h.connect()
	busy2 := h.connect()

	busy1.send(query("block"))
	<-h.eng.started
	busy2.send(query("block"))
	<-h.eng.started

	grace, endGrace := context.WithCancel(context.Background())
	shutdownErr := make(chan error, 1)
	go func() { shutdownErr <- h.srv.Shutdown(grace) }()

	admin := pgErr("FATAL", "57P01", "terminating connection due to administrator command")
	// The idle session ends at once; the busy ones wait for the grace
	// period, whose end cancels their queries.
	idle.expect(admin)
	idle.expectEOF()
	endGrace()
	for _, c := range []*client{busy1, busy2} {
		c.expect(admin)
		c.expectEOF()
	}
	if err := <-shutdownErr; !errors.Is(err, context.Canceled) {
		t.Fatalf("Shutdown = %v, want context.Canceled (queries had to be cancelled)", err)
	}
}

func TestShutdownLetsRunningQueryFinish(t *testing.T) {
	h := newHarness(t, wire.Config{})
	busy := h.connect()
	busy.send(query("block"))
	<-h.eng.started

	shutdownErr := make(chan error, 1)
	go func() { shutdownErr <- h.srv.Shutdown(context.Background()) }()
	close(h.eng.gate) // the query completes within the grace period
	busy.expect(rowDesc(int4Col("b")), row("7"), complete("SELECT 1"), ready(),
		pgErr("FATAL", "57P01", "terminating connection due to administrator command"))
	busy.expectEOF()
	if err := <-shutdownErr; err != nil {
		t.Fatalf("Shutdown = %v", err)
	}
	if _, err := net.Dial("tcp", h.addr); err == nil {
		t.Error("the listener still accepts after shutdown")
	}
}
