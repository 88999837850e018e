package main

// Raw protocol sequences sent to gpusql and to PostgreSQL 15, message by
// message (pgproto3): each server's replies are written down as message
// types with their key fields, and the two lists must be equal. Every
// read has a deadline, so a server that holds a reply back (waiting for a
// Sync that the client will not send) fails the test instead of hanging
// it.

import (
	"context"
	"fmt"
	"net"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
)

// protoDeadline bounds each wait for a reply.
const protoDeadline = 30 * time.Second

// protoConn is a raw frontend connection past startup.
type protoConn struct {
	t    testing.TB
	conn net.Conn
	fe   *pgproto3.Frontend
	// status: until keeps ParameterStatus messages.
	status bool
}

func dialProto(t testing.TB, port int) *protoConn {
	t.Helper()
	c, _ := dialProtoWith(t, port, nil)
	return c
}

// dialProtoWith connects with extra startup parameters and returns the
// ParameterStatus messages of the startup, sorted.
func dialProtoWith(t testing.TB, port int, extra map[string]string) (*protoConn, []string) {
	t.Helper()
	conn, err := net.DialTimeout("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), protoDeadline)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	c := &protoConn{t: t, conn: conn, fe: pgproto3.NewFrontend(conn, conn)}
	params := map[string]string{"user": "postgres", "database": "postgres", "application_name": "proto"}
	for k, v := range extra {
		params[k] = v
	}
	c.send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersionNumber, Parameters: params})
	var status []string
	for {
		switch m := c.recv().(type) {
		case *pgproto3.ReadyForQuery:
			sort.Strings(status)
			return c, status
		case *pgproto3.ParameterStatus:
			status = append(status, m.Name+"="+m.Value)
		case *pgproto3.ErrorResponse:
			t.Fatalf("startup: %s", m.Message)
		}
	}
}

func (c *protoConn) send(msgs ...pgproto3.FrontendMessage) {
	c.t.Helper()
	for _, m := range msgs {
		c.fe.Send(m)
	}
	if err := c.fe.Flush(); err != nil {
		c.t.Fatal(err)
	}
}

func (c *protoConn) recv() pgproto3.BackendMessage {
	c.t.Helper()
	c.conn.SetReadDeadline(time.Now().Add(protoDeadline))
	m, err := c.fe.Receive()
	if err != nil {
		c.t.Fatalf("no reply within %v: %v", protoDeadline, err)
	}
	return m
}

// until reads messages up to and including the first one for which stop
// is true, describing each; ParameterStatus and NoticeResponse messages
// are left out (the servers' settings and notices are not the subject).
func (c *protoConn) until(stop func(pgproto3.BackendMessage) bool) []string {
	c.t.Helper()
	var out []string
	for {
		m := c.recv()
		switch m.(type) {
		case *pgproto3.ParameterStatus:
			if !c.status {
				continue
			}
		case *pgproto3.NoticeResponse:
			continue
		}
		out = append(out, describeMsg(m))
		if stop(m) {
			return out
		}
	}
}

// ready reads up to ReadyForQuery.
func (c *protoConn) ready() []string {
	return c.until(func(m pgproto3.BackendMessage) bool { _, ok := m.(*pgproto3.ReadyForQuery); return ok })
}

func isType[T pgproto3.BackendMessage](m pgproto3.BackendMessage) bool { _, ok := m.(T); return ok }

// describeMsg is a message's type and the fields the test compares.
func describeMsg(m pgproto3.BackendMessage) string {
	switch m := m.(type) {
	case *pgproto3.ErrorResponse:
		return fmt.Sprintf("ErrorResponse %s %s %q position=%d detail=%q hint=%q", m.Severity, m.Code, m.Message, m.Position, m.Detail, m.Hint)
	case *pgproto3.CommandComplete:
		return "CommandComplete " + string(m.CommandTag)
	case *pgproto3.DataRow:
		var vals []string
		for _, v := range m.Values {
			if v == nil {
				vals = append(vals, "NULL")
			} else {
				vals = append(vals, strconv.Quote(string(v)))
			}
		}
		return "DataRow " + strings.Join(vals, ",")
	case *pgproto3.RowDescription:
		var f []string
		for _, d := range m.Fields {
			f = append(f, fmt.Sprintf("%s:%d:%d", d.Name, d.DataTypeOID, d.Format))
		}
		return "RowDescription " + strings.Join(f, ",")
	case *pgproto3.ParameterDescription:
		return fmt.Sprintf("ParameterDescription %v", m.ParameterOIDs)
	case *pgproto3.ReadyForQuery:
		return "ReadyForQuery " + string(m.TxStatus)
	case *pgproto3.CopyInResponse:
		return fmt.Sprintf("CopyInResponse %d %v", m.OverallFormat, m.ColumnFormatCodes)
	case *pgproto3.CopyOutResponse:
		return fmt.Sprintf("CopyOutResponse %d %v", m.OverallFormat, m.ColumnFormatCodes)
	case *pgproto3.CopyData:
		return "CopyData " + strconv.Quote(string(m.Data))
	case *pgproto3.ParameterStatus:
		return "ParameterStatus " + m.Name + "=" + m.Value
	}
	return strings.TrimPrefix(fmt.Sprintf("%T", m), "*pgproto3.")
}

// TestProtocol runs each sequence against gpusql and PostgreSQL 15.
func TestProtocol(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: starts PostgreSQL")
	}
	binDir := requirePG(t)
	gp := startGpusql(t, t.TempDir())
	pg := startPGTCP(t, binDir)
	ctx := context.Background()
	setup := "CREATE TABLE p (k integer NOT NULL, v text); INSERT INTO p VALUES (1, 'one'), (2, 'two'), (3, NULL), (4, 'four'), (5, 'fi,ve')"
	if c, err := gp.connect(ctx); err != nil {
		t.Fatal(err)
	} else if _, err := c.Exec(ctx, setup).ReadAll(); err != nil {
		t.Fatalf("gpusql: %v", err)
	} else {
		c.Close(ctx)
	}
	if c, err := pg.connect(ctx); err != nil {
		t.Fatal(err)
	} else if _, err := c.Exec(ctx, setup).ReadAll(); err != nil {
		t.Fatalf("postgres: %v", err)
	} else {
		c.Close(ctx)
	}

	// Each case talks to one server through c and returns what it read.
	cases := []struct {
		name string
		run  func(c *protoConn) []string
	}{
		// Flush after a failing Parse and Describe: the error comes at
		// once, before any Sync; then nothing until Sync.
		{"parse_error_flush", func(c *protoConn) []string {
			c.send(&pgproto3.Parse{Query: "SELECT nosuch FROM p"}, &pgproto3.Describe{ObjectType: 'S'}, &pgproto3.Flush{})
			out := c.until(isType[*pgproto3.ErrorResponse])
			c.send(&pgproto3.Bind{}, &pgproto3.Execute{}, &pgproto3.Flush{}, &pgproto3.Sync{})
			return append(out, c.ready()...)
		}},
		// A good Parse/Describe/Flush: every reply so far, before Sync.
		{"describe_flush", func(c *protoConn) []string {
			c.send(&pgproto3.Parse{Name: "s1", Query: "SELECT k, v FROM p WHERE k = $1"}, &pgproto3.Describe{ObjectType: 'S', Name: "s1"}, &pgproto3.Flush{})
			out := c.until(isType[*pgproto3.RowDescription])
			c.send(&pgproto3.Bind{PreparedStatement: "s1", Parameters: [][]byte{[]byte("2")}}, &pgproto3.Execute{}, &pgproto3.Flush{})
			out = append(out, c.until(isType[*pgproto3.CommandComplete])...)
			c.send(&pgproto3.Sync{})
			return append(out, c.ready()...)
		}},
		// Several Parse/Bind/Execute with no Sync between them.
		{"pipeline", func(c *protoConn) []string {
			for i := 1; i <= 3; i++ {
				c.send(&pgproto3.Parse{Query: "SELECT k, v FROM p WHERE k >= $1 ORDER BY k"},
					&pgproto3.Bind{Parameters: [][]byte{[]byte(strconv.Itoa(i + 2))}}, &pgproto3.Execute{})
			}
			c.send(&pgproto3.Sync{})
			return c.ready()
		}},
		// An error in the middle: the rest is skipped until Sync, and
		// the connection goes on.
		{"pipeline_error", func(c *protoConn) []string {
			c.send(&pgproto3.Parse{Query: "SELECT count(*) FROM p"}, &pgproto3.Bind{}, &pgproto3.Execute{},
				&pgproto3.Parse{Query: "SELECT k / (k - 3) FROM p ORDER BY k"}, &pgproto3.Bind{}, &pgproto3.Execute{},
				&pgproto3.Parse{Query: "SELECT 1"}, &pgproto3.Bind{}, &pgproto3.Execute{}, &pgproto3.Sync{})
			out := c.ready()
			c.send(&pgproto3.Parse{Query: "SELECT 2"}, &pgproto3.Bind{}, &pgproto3.Execute{}, &pgproto3.Sync{})
			return append(out, c.ready()...)
		}},
		// The same in a transaction block: the block fails (E) until
		// ROLLBACK.
		{"pipeline_error_in_block", func(c *protoConn) []string {
			c.send(&pgproto3.Query{String: "BEGIN"})
			out := c.ready()
			c.send(&pgproto3.Parse{Query: "SELECT nosuch"}, &pgproto3.Bind{}, &pgproto3.Execute{}, &pgproto3.Sync{})
			out = append(out, c.ready()...)
			c.send(&pgproto3.Parse{Query: "SELECT 1"}, &pgproto3.Bind{}, &pgproto3.Execute{}, &pgproto3.Sync{})
			out = append(out, c.ready()...)
			c.send(&pgproto3.Query{String: "ROLLBACK"})
			out = append(out, c.ready()...)
			// An error the protocol finds itself fails the block too.
			for _, m := range []pgproto3.FrontendMessage{&pgproto3.Bind{PreparedStatement: "nosuch"},
				&pgproto3.Execute{Portal: "nosuch"}, &pgproto3.Describe{ObjectType: 'S', Name: "nosuch"}} {
				c.send(&pgproto3.Query{String: "BEGIN"})
				out = append(out, c.ready()...)
				c.send(m, &pgproto3.Sync{})
				out = append(out, c.ready()...)
				c.send(&pgproto3.Query{String: "SELECT 1"})
				out = append(out, c.ready()...)
				c.send(&pgproto3.Query{String: "ROLLBACK"})
				out = append(out, c.ready()...)
			}
			return out
		}},
		// Execute with a row limit: PortalSuspended until the rows run
		// out; in a block, so that the portal outlives each Sync.
		{"row_limit", func(c *protoConn) []string {
			c.send(&pgproto3.Query{String: "BEGIN"})
			out := c.ready()
			c.send(&pgproto3.Parse{Query: "SELECT k, v FROM p ORDER BY k"}, &pgproto3.Bind{DestinationPortal: "c1"},
				&pgproto3.Execute{Portal: "c1", MaxRows: 2}, &pgproto3.Execute{Portal: "c1", MaxRows: 2}, &pgproto3.Sync{})
			out = append(out, c.ready()...)
			c.send(&pgproto3.Execute{Portal: "c1", MaxRows: 2}, &pgproto3.Execute{Portal: "c1", MaxRows: 2}, &pgproto3.Sync{})
			out = append(out, c.ready()...)
			// A portal run to the end in one Execute, then run again.
			c.send(&pgproto3.Bind{DestinationPortal: "c3"}, &pgproto3.Execute{Portal: "c3"}, &pgproto3.Execute{Portal: "c3"}, &pgproto3.Sync{})
			out = append(out, c.ready()...)
			c.send(&pgproto3.Query{String: "COMMIT"})
			out = append(out, c.ready()...)
			// Outside a block the unnamed portal ends at Sync.
			c.send(&pgproto3.Parse{Query: "SELECT k FROM p ORDER BY k"}, &pgproto3.Bind{DestinationPortal: "c2"},
				&pgproto3.Execute{Portal: "c2", MaxRows: 1}, &pgproto3.Sync{}, &pgproto3.Execute{Portal: "c2", MaxRows: 1}, &pgproto3.Sync{})
			out = append(out, c.ready()...)
			return append(out, c.ready()...)
		}},
		// Close of statements and portals; closing what does not exist
		// is no error; a closed statement cannot be described.
		{"close", func(c *protoConn) []string {
			c.send(&pgproto3.Parse{Name: "s2", Query: "SELECT k FROM p"}, &pgproto3.Bind{PreparedStatement: "s2", DestinationPortal: "p2"},
				&pgproto3.Close{ObjectType: 'P', Name: "p2"}, &pgproto3.Close{ObjectType: 'S', Name: "s2"},
				&pgproto3.Close{ObjectType: 'S', Name: "nosuch"}, &pgproto3.Close{ObjectType: 'P', Name: "nosuch"}, &pgproto3.Sync{})
			out := c.ready()
			c.send(&pgproto3.Describe{ObjectType: 'S', Name: "s2"}, &pgproto3.Sync{})
			out = append(out, c.ready()...)
			c.send(&pgproto3.Execute{Portal: "p2"}, &pgproto3.Sync{})
			out = append(out, c.ready()...)
			// The name is free again.
			c.send(&pgproto3.Parse{Name: "s2", Query: "SELECT 1"}, &pgproto3.Describe{ObjectType: 'S', Name: "s2"}, &pgproto3.Sync{})
			return append(out, c.ready()...)
		}},
		// COPY FROM STDIN with rows split across CopyData messages at
		// odd places: inside a value, inside an escape, between \r and
		// \n; then the rows are there.
		{"copy_in_text", func(c *protoConn) []string {
			c.send(&pgproto3.Query{String: "CREATE TEMP TABLE ci (a integer, b text)"})
			out := c.ready()
			c.send(&pgproto3.Query{String: "COPY ci FROM STDIN"})
			out = append(out, c.until(isType[*pgproto3.CopyInResponse])...)
			data := "1\tone\n2\ttw\\to\n3\t\\N\n4\tfour\\\\\n5\tlast\n"
			for _, cut := range [][2]int{{0, 1}, {1, 4}, {4, 12}, {12, 13}, {13, 21}, {21, len(data)}} {
				c.send(&pgproto3.CopyData{Data: []byte(data[cut[0]:cut[1]])})
			}
			c.send(&pgproto3.CopyDone{})
			out = append(out, c.ready()...)
			c.send(&pgproto3.Query{String: "SELECT a, b FROM ci ORDER BY a"})
			return append(out, c.ready()...)
		}},
		{"copy_in_csv", func(c *protoConn) []string {
			c.send(&pgproto3.Query{String: "CREATE TEMP TABLE cc (a integer, b text)"})
			out := c.ready()
			c.send(&pgproto3.Query{String: "COPY cc FROM STDIN WITH (FORMAT csv, HEADER true)"})
			out = append(out, c.until(isType[*pgproto3.CopyInResponse])...)
			data := "a,b\n1,\"x,\"\"y\"\"\"\n2,\"two\nlines\"\n3,\n\\.\n"
			for i := 0; i < len(data); i += 3 {
				c.send(&pgproto3.CopyData{Data: []byte(data[i:min(i+3, len(data))])})
			}
			c.send(&pgproto3.CopyDone{})
			out = append(out, c.ready()...)
			c.send(&pgproto3.Query{String: "SELECT a, b, b IS NULL FROM cc ORDER BY a"})
			return append(out, c.ready()...)
		}},
		// A bad row: the error comes while the client still sends;
		// the rest of its CopyData and the CopyDone are discarded.
		{"copy_in_bad_row", func(c *protoConn) []string {
			c.send(&pgproto3.Query{String: "CREATE TEMP TABLE cb (a integer)"})
			out := c.ready()
			c.send(&pgproto3.Query{String: "COPY cb FROM STDIN"})
			out = append(out, c.until(isType[*pgproto3.CopyInResponse])...)
			c.send(&pgproto3.CopyData{Data: []byte("1\nx\n3\n")}, &pgproto3.CopyData{Data: []byte("4\n")}, &pgproto3.CopyDone{})
			out = append(out, c.ready()...)
			c.send(&pgproto3.Query{String: "SELECT count(*) FROM cb"})
			return append(out, c.ready()...)
		}},
		// COPY FROM STDIN through the extended protocol: CopyInResponse
		// at Execute, the rows, CopyDone, then Sync.
		{"copy_in_extended", func(c *protoConn) []string {
			c.send(&pgproto3.Query{String: "CREATE TEMP TABLE ce (a integer, b text)"})
			out := c.ready()
			c.send(&pgproto3.Parse{Query: "COPY ce FROM STDIN WITH (FORMAT csv)"}, &pgproto3.Bind{}, &pgproto3.Execute{}, &pgproto3.Flush{})
			out = append(out, c.until(isType[*pgproto3.CopyInResponse])...)
			c.send(&pgproto3.CopyData{Data: []byte("1,a\n2,")}, &pgproto3.CopyData{Data: []byte("b\n")}, &pgproto3.CopyDone{}, &pgproto3.Sync{})
			out = append(out, c.ready()...)
			c.send(&pgproto3.Query{String: "SELECT a, b FROM ce ORDER BY a"})
			return append(out, c.ready()...)
		}},
		// Several statements in one Query: the rows of the first, then
		// the error, which ends the string (and rolls back its
		// implicit transaction).
		{"multi_statement_error", func(c *protoConn) []string {
			c.send(&pgproto3.Query{String: "CREATE TEMP TABLE ms (a integer); INSERT INTO ms VALUES (1); SELECT count(*) FROM ms; SELECT 1/0; SELECT 3"})
			out := c.ready()
			c.send(&pgproto3.Query{String: "SELECT count(*) FROM pg_class WHERE relname = 'ms'"})
			return append(out, c.ready()...)
		}},
		// CopyFail: the COPY ends with 57014 and loads nothing.
		{"copy_fail", func(c *protoConn) []string {
			c.send(&pgproto3.Query{String: "CREATE TEMP TABLE cf (a integer)"})
			out := c.ready()
			c.send(&pgproto3.Query{String: "COPY cf FROM STDIN"})
			out = append(out, c.until(isType[*pgproto3.CopyInResponse])...)
			c.send(&pgproto3.CopyData{Data: []byte("1\n2\n")}, &pgproto3.CopyFail{Message: "client gave up"})
			out = append(out, c.ready()...)
			c.send(&pgproto3.Query{String: "SELECT count(*) FROM cf"})
			return append(out, c.ready()...)
		}},
		// COPY TO STDOUT: one row per CopyData, in text and csv.
		{"copy_out", func(c *protoConn) []string {
			c.send(&pgproto3.Query{String: "COPY (SELECT k, v FROM p ORDER BY k) TO STDOUT"})
			out := c.ready()
			c.send(&pgproto3.Query{String: "COPY (SELECT k, v FROM p ORDER BY k) TO STDOUT WITH (FORMAT csv, HEADER true)"})
			return append(out, c.ready()...)
		}},
		// COPY TO STDOUT through the extended protocol.
		{"copy_out_extended", func(c *protoConn) []string {
			c.send(&pgproto3.Parse{Query: "COPY (SELECT k FROM p WHERE k < 3 ORDER BY k) TO STDOUT"}, &pgproto3.Bind{},
				&pgproto3.Describe{ObjectType: 'P'}, &pgproto3.Execute{}, &pgproto3.Sync{})
			return c.ready()
		}},
		// Bind errors: a parameter that is not a valid value of its
		// type, and a wrong parameter count, fail at Bind (no
		// BindComplete).
		{"bind_errors", func(c *protoConn) []string {
			c.send(&pgproto3.Parse{Name: "b1", Query: "SELECT k FROM p WHERE k = $1", ParameterOIDs: []uint32{23}},
				&pgproto3.Bind{PreparedStatement: "b1", Parameters: [][]byte{[]byte("x")}}, &pgproto3.Execute{}, &pgproto3.Sync{})
			out := c.ready()
			c.send(&pgproto3.Bind{PreparedStatement: "b1"}, &pgproto3.Execute{}, &pgproto3.Sync{})
			out = append(out, c.ready()...)
			c.send(&pgproto3.Bind{PreparedStatement: "nosuch"}, &pgproto3.Execute{}, &pgproto3.Sync{})
			out = append(out, c.ready()...)
			c.send(&pgproto3.Bind{PreparedStatement: "b1", Parameters: [][]byte{[]byte("4")}}, &pgproto3.Execute{}, &pgproto3.Sync{})
			return append(out, c.ready()...)
		}},
		// Describe of a portal and of a statement that returns no rows.
		{"describe", func(c *protoConn) []string {
			c.send(&pgproto3.Parse{Name: "d1", Query: "SELECT k, v, k::numeric / 2 AS half FROM p WHERE v = $1"},
				&pgproto3.Describe{ObjectType: 'S', Name: "d1"},
				&pgproto3.Bind{PreparedStatement: "d1", Parameters: [][]byte{[]byte("two")}, ResultFormatCodes: []int16{1, 0, 0}},
				&pgproto3.Describe{ObjectType: 'P'}, &pgproto3.Execute{},
				&pgproto3.Parse{Name: "d2", Query: "SET application_name = 'x'"}, &pgproto3.Describe{ObjectType: 'S', Name: "d2"},
				&pgproto3.Describe{ObjectType: 'P', Name: "nosuch"}, &pgproto3.Sync{})
			return c.ready()
		}},
		// The settings PostgreSQL reports as they change
		// (ParameterStatus): drivers read TimeZone and
		// application_name from them.
		{"parameter_status", func(c *protoConn) []string {
			c.status = true
			var out []string
			for _, q := range []string{"SET application_name = 'changed'", "SET TimeZone = 'Europe/Paris'", "SET DateStyle = 'ISO, DMY'",
				"SET IntervalStyle = 'postgres'", "RESET application_name", "BEGIN", "SET TimeZone = 'UTC'", "COMMIT",
				// In a block: SET LOCAL ends with it, a rolled-back
				// SET is undone, ROLLBACK TO undoes what followed.
				"BEGIN", "SET LOCAL TimeZone = 'Asia/Tokyo'", "SHOW TimeZone", "COMMIT", "SHOW TimeZone",
				"BEGIN", "SET application_name = 'rolled'", "SET LOCAL DateStyle = 'ISO, YMD'", "ROLLBACK", "SHOW application_name",
				"BEGIN", "SET TimeZone = 'Europe/Paris'", "SAVEPOINT a", "SET TimeZone = 'America/New_York'", "SET LOCAL application_name = 'sp'",
				"ROLLBACK TO a", "SHOW TimeZone", "COMMIT", "SHOW TimeZone",
				"BEGIN", "SET LOCAL TimeZone = 'Asia/Tokyo'", "SET TimeZone = 'Asia/Seoul'", "COMMIT", "SHOW TimeZone",
				"SET LOCAL TimeZone = 'UTC'", "SHOW TimeZone", "SET LOCAL TimeZone = 'UTC'; SHOW TimeZone", "SHOW TimeZone",
				"BEGIN", "SELECT set_config('application_name', 'cfg', true)", "COMMIT", "SHOW application_name",
				"SELECT set_config('application_name', 'cfg2', true)", "SHOW application_name",
				"BEGIN", "RESET ALL", "ROLLBACK", "SHOW TimeZone",
				"SET search_path = public"} {
				c.send(&pgproto3.Query{String: q})
				out = append(out, c.ready()...)
			}
			return out
		}},
		// An empty query, simple and extended.
		{"empty_query", func(c *protoConn) []string {
			c.send(&pgproto3.Query{String: ""})
			out := c.ready()
			c.send(&pgproto3.Query{String: " ; "})
			out = append(out, c.ready()...)
			c.send(&pgproto3.Parse{Query: ""}, &pgproto3.Bind{}, &pgproto3.Describe{ObjectType: 'P'}, &pgproto3.Execute{}, &pgproto3.Sync{})
			return append(out, c.ready()...)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := tc.run(dialProto(t, gp.port))
			p := tc.run(dialProto(t, pg.port))
			gs, ps := strings.Join(g, "\n"), strings.Join(p, "\n")
			if gs != ps {
				t.Errorf("replies differ\n%s\ngpusql:\n%s", lineDiff(gs, ps), gs)
			}
			t.Logf("replies:\n%s", gs)
		})
	}

	// The parameters reported at startup, with the client's options
	// among them (server_version aside: a version string).
	t.Run("startup_status", func(t *testing.T) {
		opts := map[string]string{"TimeZone": "Asia/Tokyo", "DateStyle": "ISO, DMY", "application_name": "startup"}
		_, g := dialProtoWith(t, gp.port, opts)
		_, p := dialProtoWith(t, pg.port, opts)
		mask := func(s []string) string {
			for i := range s {
				if strings.HasPrefix(s[i], "server_version=") {
					s[i] = "server_version=(version)"
				}
			}
			return strings.Join(s, "\n")
		}
		if gs, ps := mask(g), mask(p); gs != ps {
			t.Errorf("startup ParameterStatus differs\n%s", lineDiff(gs, ps))
		}
	})

	// Terminate in the middle of a transaction block: the block's
	// writes are rolled back.
	t.Run("terminate_in_block", func(t *testing.T) {
		run := func(port int) []string {
			c := dialProto(t, port)
			c.send(&pgproto3.Query{String: "BEGIN"})
			out := c.ready()
			c.send(&pgproto3.Query{String: "INSERT INTO p VALUES (6, 'six')"})
			out = append(out, c.ready()...)
			c.send(&pgproto3.Terminate{})
			// The server closes the connection.
			c.conn.SetReadDeadline(time.Now().Add(protoDeadline))
			if _, err := c.fe.Receive(); err == nil {
				t.Errorf("a message after Terminate")
			}
			d := dialProto(t, port)
			d.send(&pgproto3.Query{String: "SELECT count(*) FROM p"})
			return append(out, d.ready()...)
		}
		g, p := strings.Join(run(gp.port), "\n"), strings.Join(run(pg.port), "\n")
		if g != p {
			t.Errorf("replies differ\n%s", lineDiff(g, p))
		}
		t.Logf("replies:\n%s", g)
	})
}
