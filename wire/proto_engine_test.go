package wire_test

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gpusql/gpusql/engine"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
)

// Protocol cases that drivers rely on, against the real engine. Each
// client read has the connection's deadline (safetyDeadline), so a server
// that holds a reply back fails the test instead of hanging it.

// recvType receives one message and checks its type.
func recvType[T pgproto3.BackendMessage](c *client) T {
	c.t.Helper()
	m := c.recv()
	v, ok := m.(T)
	if !ok {
		var want T
		c.t.Fatalf("got %T %s, want %T", m, js(m), want)
	}
	return v
}

// Flush after a failing Parse sends the error at once (postgres.js sends
// Parse, Describe, Flush and waits); later messages are skipped until
// Sync.
func TestFlushSendsError(t *testing.T) {
	s := newCopyAbortServer(t)
	c, _ := s.serve(t)
	c.send(&pgproto3.Parse{Name: "s1", Query: "select nosuch from r"},
		&pgproto3.Describe{ObjectType: 'S', Name: "s1"}, &pgproto3.Flush{})
	e := recvType[*pgproto3.ErrorResponse](c)
	if e.Code != engine.CodeUndefinedColumn || e.Position != 8 {
		t.Fatalf("error %s at %d: %s", e.Code, e.Position, e.Message)
	}
	// Skipped until Sync: no reply to these, even at Flush.
	c.send(&pgproto3.Bind{PreparedStatement: "s1"}, &pgproto3.Execute{}, &pgproto3.Flush{},
		&pgproto3.Parse{Query: "select 1"}, &pgproto3.Sync{})
	if rq := recvType[*pgproto3.ReadyForQuery](c); rq.TxStatus != 'I' {
		t.Fatalf("status %c", rq.TxStatus)
	}
	// A good statement with Flush: every reply so far, before Sync.
	c.send(&pgproto3.Parse{Name: "s2", Query: "select count(*) from r where v = $1"},
		&pgproto3.Describe{ObjectType: 'S', Name: "s2"}, &pgproto3.Flush{})
	recvType[*pgproto3.ParseComplete](c)
	if pd := recvType[*pgproto3.ParameterDescription](c); len(pd.ParameterOIDs) != 1 || pd.ParameterOIDs[0] != engine.OIDInt4 {
		t.Fatalf("parameters %v", pd.ParameterOIDs)
	}
	recvType[*pgproto3.RowDescription](c)
	c.send(&pgproto3.Bind{PreparedStatement: "s2", Parameters: [][]byte{[]byte("3")}}, &pgproto3.Execute{}, &pgproto3.Flush{})
	recvType[*pgproto3.BindComplete](c)
	if r := recvType[*pgproto3.DataRow](c); string(r.Values[0]) != "100" {
		t.Fatalf("count %q", r.Values[0])
	}
	recvType[*pgproto3.CommandComplete](c)
	// A parameter value that its type cannot read: the error comes at
	// Bind, as PostgreSQL's, and is flushed too.
	c.send(&pgproto3.Bind{PreparedStatement: "s2", Parameters: [][]byte{[]byte("x")}}, &pgproto3.Execute{}, &pgproto3.Flush{})
	if e := recvType[*pgproto3.ErrorResponse](c); e.Code != engine.CodeInvalidTextRepresent {
		t.Fatalf("error %s %s", e.Code, e.Message)
	}
	c.send(&pgproto3.Sync{})
	recvType[*pgproto3.ReadyForQuery](c)
}

// Error positions, as PostgreSQL reports them (1-based characters).
func TestErrorPosition(t *testing.T) {
	s := newCopyAbortServer(t)
	c, _ := s.serve(t)
	for _, tc := range []struct {
		sql  string
		code string
		pos  int32
	}{
		{"select nosuch from r", engine.CodeUndefinedColumn, 8},
		{"select id from r where r.nosuch = 1", engine.CodeUndefinedColumn, 24},
		{"select id,\n  nosuch from r", engine.CodeUndefinedColumn, 14},
		{"select 'nosuch', nosuch from r", engine.CodeUndefinedColumn, 18},
		{"select 1; select nosuch from r", engine.CodeUndefinedColumn, 18},
		{"select id from nosuch", engine.CodeUndefinedTable, 16},
		{"select * from r join nosuch on true", engine.CodeUndefinedTable, 22},
		{"select 1 +", engine.CodeSyntaxError, 11},
		{"select 'é', nosuch from r", engine.CodeUndefinedColumn, 13},
		{"select id from r where nosuch(id) > 0", engine.CodeUndefinedFunction, 24},
		{"select x.id from r", engine.CodeUndefinedTable, 8},
	} {
		c.send(&pgproto3.Query{String: tc.sql})
		var e *pgproto3.ErrorResponse
		for e == nil {
			switch m := c.recv().(type) {
			case *pgproto3.ErrorResponse:
				e = m
			case *pgproto3.ReadyForQuery:
				t.Fatalf("%s: no error", tc.sql)
			}
		}
		recvType[*pgproto3.ReadyForQuery](c)
		if e.Code != tc.code || e.Position != tc.pos {
			t.Errorf("%q: %s at %d (%s), want %s at %d", tc.sql, e.Code, e.Position, e.Message, tc.code, tc.pos)
		}
	}
}

// COPY TO STDOUT sends one row per CopyData message.
func TestCopyOutRowPerMessage(t *testing.T) {
	s := newCopyAbortServer(t)
	c, _ := s.serve(t)
	for _, tc := range []struct {
		sql   string
		first string
	}{
		{"COPY (select id, v from r order by id limit 3) TO STDOUT", "1\t1\n"},
		{"COPY (select id, v from r order by id limit 3) TO STDOUT WITH (FORMAT csv, HEADER true)", "id,v\n"},
	} {
		c.send(&pgproto3.Query{String: tc.sql})
		cr := recvType[*pgproto3.CopyOutResponse](c)
		if cr.OverallFormat != 0 || len(cr.ColumnFormatCodes) != 2 {
			t.Fatalf("CopyOutResponse %s", js(cr))
		}
		var msgs []string
		for {
			m := c.recv()
			if d, ok := m.(*pgproto3.CopyData); ok {
				msgs = append(msgs, string(d.Data))
				continue
			}
			if _, ok := m.(*pgproto3.CopyDone); !ok {
				t.Fatalf("got %T", m)
			}
			break
		}
		if cc := recvType[*pgproto3.CommandComplete](c); string(cc.CommandTag) != "COPY 3" {
			t.Fatalf("tag %q", cc.CommandTag)
		}
		recvType[*pgproto3.ReadyForQuery](c)
		if msgs[0] != tc.first {
			t.Errorf("%s: first message %q", tc.sql, msgs[0])
		}
		for _, m := range msgs {
			if strings.Count(m, "\n") != 1 || !strings.HasSuffix(m, "\n") {
				t.Errorf("%s: message %q is not one row", tc.sql, m)
			}
		}
	}
}

// COPY FROM STDIN: rows cut anywhere between CopyData messages, and the
// end-of-data marker \. in text and CSV.
func TestCopyInSplitAndEndMarker(t *testing.T) {
	s := newCopyAbortServer(t)
	c, _ := s.serve(t)
	copyIn := func(sql string, chunks ...string) {
		t.Helper()
		c.send(&pgproto3.Query{String: sql})
		recvType[*pgproto3.CopyInResponse](c)
		for _, ch := range chunks {
			c.send(&pgproto3.CopyData{Data: []byte(ch)})
		}
		c.send(&pgproto3.CopyDone{})
	}
	copyIn("COPY r FROM STDIN", "200", "1\t", "7\n2002\t8", "\n\\", ".\n", "junk after the marker\n")
	c.expectCommand("COPY 2")
	copyIn("COPY r FROM STDIN WITH (FORMAT csv)", "2003,9\r", "\n2004,", "1\r\n\\.", "\r\n")
	c.expectCommand("COPY 2")
	copyIn("COPY r FROM STDIN WITH (FORMAT csv)", "2005,2\n\\.")
	c.expectCommand("COPY 1")
	s.wantRows(t, 1005)
	c.send(&pgproto3.Query{String: "select sum(id), sum(v) from r where id > 2000"})
	recvType[*pgproto3.RowDescription](c)
	if r := recvType[*pgproto3.DataRow](c); string(r.Values[0]) != "10015" || string(r.Values[1]) != "27" {
		t.Fatalf("sums %q %q", r.Values[0], r.Values[1])
	}
	c.expectCommand("SELECT 1")
}

// Array parameters (= ANY ($1)) through pgx, which encodes them as the
// type the server describes.
func TestArrayParamsPgx(t *testing.T) {
	addr := engineServer(t, 10)
	ctx, cancel := context.WithTimeout(context.Background(), safetyDeadline)
	defer cancel()
	for _, mode := range allModes {
		t.Run(mode.String(), func(t *testing.T) {
			conn := pgxConnect(t, addr, mode)
			var n int64
			if err := conn.QueryRow(ctx, "select count(*) from t where id = any($1)", []int32{1, 3, 7}).Scan(&n); err != nil || n != 2 {
				t.Errorf("int array: %d %v", n, err)
			}
			if err := conn.QueryRow(ctx, "select count(*) from t where name = any($1)", []string{"apple", "a b", `q"x`}).Scan(&n); err != nil || n != 1 {
				t.Errorf("text array: %d %v", n, err)
			}
			if err := conn.QueryRow(ctx, "select count(*) from t where n = any($1)", []float64{12.5, -7.25}).Scan(&n); mode != pgx.QueryExecModeSimpleProtocol && (err != nil || n != 2) {
				t.Errorf("numeric array: %d %v", n, err)
			}
			if err := conn.QueryRow(ctx, "select count(*) from t where id <> all($1)", []int64{1}).Scan(&n); err != nil || n != 2 {
				t.Errorf("<> all: %d %v", n, err)
			}
		})
	}
}

// Parameters of type timestamptz (postgres.js sends a Date so, pgJDBC an
// OffsetDateTime) and arrays, declared (OID 1184, 1007, 1185, 705) or
// inferred, with values in text and in binary.
func TestTimestamptzAndArrayParamsRaw(t *testing.T) {
	addr := engineServer(t, 10)
	cfg, err := pgconn.ParseConfig("postgres://alice@" + addr + "/db?sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), safetyDeadline)
	defer cancel()
	pc, err := pgconn.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close(context.Background())
	run := func(sql string, oids []uint32, formats []int16, vals ...[]byte) (string, error) {
		t.Helper()
		res := pc.ExecParams(ctx, sql, vals, oids, formats, nil).Read()
		if res.Err != nil {
			return "", res.Err
		}
		var out []string
		for _, r := range res.Rows {
			out = append(out, string(r[0]))
		}
		return strings.Join(out, ","), nil
	}
	bin := func(us int64) []byte {
		return binary.BigEndian.AppendUint64(nil, uint64(us))
	}
	// 1995-03-15 10:11:12.5 UTC in microseconds since 2000-01-01.
	us := time.Date(1995, 3, 15, 10, 11, 12, 500000000, time.UTC).Sub(time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)).Microseconds()
	int4Array := func(vals ...int32) []byte {
		b := binary.BigEndian.AppendUint32(nil, 1)
		b = binary.BigEndian.AppendUint32(b, 0)
		b = binary.BigEndian.AppendUint32(b, engine.OIDInt4)
		b = binary.BigEndian.AppendUint32(b, uint32(len(vals)))
		b = binary.BigEndian.AppendUint32(b, 1)
		for _, v := range vals {
			b = binary.BigEndian.AppendUint32(b, 4)
			b = binary.BigEndian.AppendUint32(b, uint32(v))
		}
		return b
	}
	for _, tc := range []struct {
		name    string
		sql     string
		oids    []uint32
		formats []int16
		val     []byte
		want    string
	}{
		{"tz text Z", "select id from t where ts = $1", []uint32{1184}, nil, []byte("1995-03-15T10:11:12.500Z"), "1"},
		{"tz text offset", "select id from t where ts = $1", []uint32{1184}, nil, []byte("1995-03-15 12:41:12.5+02:30"), "1"},
		{"tz text negative", "select id from t where ts = $1", []uint32{1184}, nil, []byte("1995-03-15 05:11:12.5-05"), "1"},
		{"tz binary", "select id from t where ts = $1", []uint32{1184}, []int16{1}, bin(us), "1"},
		{"tz as value", "select $1::timestamp", []uint32{1184}, nil, []byte("2024-01-02 03:04:05+01"), "2024-01-02 02:04:05"},
		{"int4[] text", "select id from t where id = any($1) order by id", []uint32{1007}, nil, []byte("{3,1,NULL}"), "1,3"},
		{"int4[] binary", "select id from t where id = any($1) order by id", []uint32{1007}, []int16{1}, int4Array(2, 3), "2,3"},
		{"open array", "select id from t where id = any($1) order by id", nil, nil, []byte("{2}"), "2"},
		{"unknown array", "select id from t where id = any($1) order by id", []uint32{705}, nil, []byte("{1}"), "1"},
		{"empty array", "select count(*) from t where id = any($1)", []uint32{1007}, nil, []byte("{}"), "0"},
		{"timestamptz[]", "select id from t where ts = any($1)", []uint32{1185}, nil, []byte(`{"1995-03-15 11:11:12.5+01"}`), "1"},
		{"unknown", "select $1", []uint32{705}, nil, []byte("x"), "x"},
	} {
		got, err := run(tc.sql, tc.oids, tc.formats, tc.val)
		if err != nil || got != tc.want {
			t.Errorf("%s: got %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
	// The inferred array type is reported, so that postgres.js encodes
	// a JS array as one.
	sd, err := pc.Prepare(ctx, "", "select id from t where id = any($1) and name = any($2) and ts = any($3)", nil)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(sd.ParamOIDs) != "[1007 1015 1115]" {
		t.Errorf("parameter OIDs %v", sd.ParamOIDs)
	}
	sd, err = pc.Prepare(ctx, "", "select id from t where ts = $1", []uint32{1184})
	if err != nil || fmt.Sprint(sd.ParamOIDs) != "[1184]" {
		t.Errorf("declared timestamptz: %v %v", sd, err)
	}
	// A bad value is 22007 as PostgreSQL has it.
	_, err = run("select id from t where ts = $1", []uint32{1184}, nil, []byte("1995-13-45 10:00+01"))
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || (pe.Code != "22008" && pe.Code != "22007") {
		t.Errorf("bad timestamptz: %v", err)
	}
}

// Savepoints through a driver's own API (pgx nested transactions send
// SAVEPOINT, RELEASE and ROLLBACK TO), and the sequence psqlODBC sends
// with autocommit off: a savepoint around each statement, a named
// statement that fails when it runs, ROLLBACK TO, then the same
// statement again.
func TestSavepointsExtended(t *testing.T) {
	addr := engineServer(t, 10)
	ctx, cancel := context.WithTimeout(context.Background(), safetyDeadline)
	defer cancel()
	conn := pgxConnect(t, addr, pgx.QueryExecModeCacheStatement)
	count := func(q pgx.Tx) int64 {
		t.Helper()
		var n int64
		if err := q.QueryRow(ctx, "select count(*) from big").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, "copy big from 'big.csv' with (format csv, header true)"); err != nil {
		t.Fatal(err)
	}
	sp, err := tx.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sp.Exec(ctx, "copy big from 'big.csv' with (format csv, header true)"); err != nil {
		t.Fatal(err)
	}
	if n := count(sp); n != 30 {
		t.Fatalf("%d rows in the savepoint", n)
	}
	if _, err := sp.Exec(ctx, "select 1/0"); err == nil {
		t.Fatal("1/0 succeeded")
	}
	if err := sp.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if n := count(tx); n != 20 {
		t.Fatalf("%d rows after ROLLBACK TO", n)
	}
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	var n int64
	if err := conn.QueryRow(ctx, "select count(*) from big").Scan(&n); err != nil || n != 10 {
		t.Fatalf("%d rows after ROLLBACK, %v", n, err)
	}

	pc := conn.PgConn()
	exec := func(sql string) error {
		_, err := pc.Exec(ctx, sql).ReadAll()
		return err
	}
	plan := func(v string) error {
		_, err := pc.ExecPrepared(ctx, "_PLAN0x1", [][]byte{[]byte(v)}, nil, nil).Close()
		return err
	}
	if err := exec("BEGIN; SAVEPOINT _per_query_svp_"); err != nil {
		t.Fatal(err)
	}
	if _, err := pc.Prepare(ctx, "_PLAN0x1", "select 10 / $1::int", nil); err != nil {
		t.Fatal(err)
	}
	err = plan("0")
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != engine.CodeDivisionByZero {
		t.Fatalf("plan(0): %v", err)
	}
	if pc.TxStatus() != 'E' {
		t.Fatalf("status %c after the error", pc.TxStatus())
	}
	if err := exec("ROLLBACK TO _per_query_svp_; RELEASE _per_query_svp_; SAVEPOINT _per_query_svp_"); err != nil {
		t.Fatal(err)
	}
	if err := plan("5"); err != nil {
		t.Fatalf("the statement again: %v", err)
	}
	if err := exec("RELEASE _per_query_svp_; COMMIT"); err != nil || pc.TxStatus() != 'I' {
		t.Fatalf("commit: %v, status %c", err, pc.TxStatus())
	}
}

// timestamptz through pgx: a parameter of the type (pgx sends a
// time.Time in binary), a result in binary, and time of day.
func TestTimestamptzPgx(t *testing.T) {
	addr := engineServer(t, 10)
	ctx, cancel := context.WithTimeout(context.Background(), safetyDeadline)
	defer cancel()
	ts := time.Date(1995, 3, 15, 10, 11, 12, 500000000, time.UTC)
	for _, mode := range allModes {
		t.Run(mode.String(), func(t *testing.T) {
			conn := pgxConnect(t, addr, mode)
			var id int32
			if err := conn.QueryRow(ctx, "select id from t where ts = $1::timestamptz", ts.In(time.FixedZone("X", 5400))).Scan(&id); err != nil || id != 1 {
				t.Errorf("timestamptz parameter: %d %v", id, err)
			}
			var got time.Time
			if err := conn.QueryRow(ctx, "select ts::timestamptz from t where id = 1").Scan(&got); err != nil || !got.Equal(ts) {
				t.Errorf("timestamptz result: %v %v", got, err)
			}
			var n int64
			// ts = ANY ($1) makes $1 a timestamp[] (OID 1115).
			if err := conn.QueryRow(ctx, "select count(*) from t where ts = any($1)", []time.Time{ts, ts.Add(time.Hour)}).Scan(&n); mode != pgx.QueryExecModeSimpleProtocol && (err != nil || n != 1) {
				t.Errorf("timestamp[]: %d %v", n, err)
			}
		})
	}
}
