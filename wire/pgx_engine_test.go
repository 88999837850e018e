package wire_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/cpu"
	"github.com/gpusql/gpusql/loader"
	gpuquery "github.com/gpusql/gpusql/query"
	"github.com/gpusql/gpusql/wire"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/jackc/pgx/v5/pgtype"
)

// engineServer serves the real engine (CPU backend) with table t loaded
// from a small CSV, and big (bigRows rows) for cancellation.
func engineServer(t *testing.T, bigRows int) string {
	t.Helper()
	dir := t.TempDir()
	csv := "id,s,b,r,d,n,day,ts,flag,name,txt\n" +
		"1,10,10000000000,1.5,2.25,12.50,1995-03-15,1995-03-15 10:11:12.5,true,apple,alpha\n" +
		"2,20,20000000000,2.5,3.25,-7.25,1996-01-01,1996-01-01 00:00:00,false,banana,beta\n" +
		"3,,,,,,,,,,\n"
	if err := os.WriteFile(filepath.Join(dir, "t.csv"), []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	var big strings.Builder
	big.WriteString("k,v\n")
	for i := 0; i < bigRows; i++ {
		fmt.Fprintf(&big, "%d,value number %d\n", i, i)
	}
	if err := os.WriteFile(filepath.Join(dir, "big.csv"), []byte(big.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	qs, err := gpuquery.NewServer(gpuquery.Options{FileRoot: dir, Backend: cpu.New(loader.NewCPU(loader.Config{}), 0)})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := wire.NewServer(wire.Config{}, qs)
	go srv.Serve(context.Background(), ln)
	t.Cleanup(func() { srv.Close() })
	conn := pgxConnect(t, ln.Addr().String(), pgx.QueryExecModeSimpleProtocol)
	for _, sql := range []string{
		"create table t (id int, s smallint, b bigint, r real, d double precision, n numeric(10,2), day date, ts timestamp, flag boolean, name varchar(20), txt text) from csv 't.csv' with (header true)",
		"create table big (k int, v text) from csv 'big.csv' with (header true)",
	} {
		if _, err := conn.Exec(context.Background(), sql); err != nil {
			t.Fatal(err)
		}
	}
	return ln.Addr().String()
}

func pgxConnect(t *testing.T, addr string, mode pgx.QueryExecMode) *pgx.Conn {
	t.Helper()
	cfg, err := pgx.ParseConfig("postgres://alice@" + addr + "/db?sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	cfg.DefaultQueryExecMode = mode
	conn, err := pgx.ConnectConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

var allModes = []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeCacheDescribe,
	pgx.QueryExecModeDescribeExec, pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol}

// Parameters of every supported type, in every pgx mode: each query
// finds row 1 (or row 3 for NULL) by one parameter.
func TestPgxEngineParameters(t *testing.T) {
	addr := engineServer(t, 10)
	ctx, cancel := context.WithTimeout(context.Background(), safetyDeadline)
	defer cancel()
	day := time.Date(1995, 3, 15, 0, 0, 0, 0, time.UTC)
	ts := time.Date(1995, 3, 15, 10, 11, 12, 500000000, time.UTC)
	var num pgtype.Numeric
	if err := num.Scan("12.50"); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		sql  string
		arg  any
		want int32
	}{
		{"select id from t where s = $1", int16(10), 1},
		{"select id from t where id = $1", int32(2), 2},
		{"select id from t where b = $1", int64(10000000000), 1},
		{"select id from t where r = $1", float32(1.5), 1},
		{"select id from t where d = $1", float64(3.25), 2},
		{"select id from t where n = $1", num, 1},
		{"select id from t where day = $1", day, 1},
		{"select id from t where ts = $1", ts, 1},
		{"select id from t where flag = $1", false, 2},
		{"select id from t where name = $1", "banana", 2},
		{"select id from t where txt = $1", "alpha", 1},
		{"select id from t where id = $1::int + 1", int32(1), 2},
		{"select id from t where coalesce(name, 'none') = coalesce($1, 'none')", nil, 3},
		{"select id from t order by id limit $1", int64(1), 1},
		{"select id from t order by id offset $1 limit 1", int64(2), 3},
	}
	for _, mode := range allModes {
		t.Run(mode.String(), func(t *testing.T) {
			conn := pgxConnect(t, addr, mode)
			for _, tt := range tests {
				var got int32
				sql := tt.sql
				if mode == pgx.QueryExecModeExec && tt.arg == nil {
					sql = strings.Replace(sql, "$1", "$1::text", 1) // Exec mode sends nil with no type
				}
				if err := conn.QueryRow(ctx, sql, tt.arg).Scan(&got); err != nil || got != tt.want {
					t.Errorf("%s (%v): got %d, %v; want %d", tt.sql, tt.arg, got, err, tt.want)
				}
			}
			// Values come back in binary (extended modes) and text.
			var (
				s    int16
				b    int64
				r    float32
				d    float64
				n    pgtype.Numeric
				dd   time.Time
				tt   time.Time
				flag bool
				name string
				txt  *string
			)
			err := conn.QueryRow(ctx, "select s, b, r, d, n, day, ts, flag, name, txt from t where id = $1", 1).
				Scan(&s, &b, &r, &d, &n, &dd, &tt, &flag, &name, &txt)
			nf, _ := n.Float64Value()
			if err != nil || s != 10 || b != 10000000000 || r != 1.5 || d != 2.25 || nf.Float64 != 12.5 || !dd.Equal(day) ||
				!tt.Equal(ts) || !flag || name != "apple" || txt == nil || *txt != "alpha" {
				t.Errorf("row 1: %v %v %v %v %v %v %v %v %v %v %v", err, s, b, r, d, nf, dd, tt, flag, name, txt)
			}
			// Parameters of open type are inferred; text when nothing says.
			var one int32
			var str string
			if err := conn.QueryRow(ctx, "select $1 + 1, $2", 41, "x").Scan(&one, &str); err != nil || one != 42 || str != "x" {
				t.Errorf("inferred: %d %q %v", one, str, err)
			}
			// Errors keep their SQLSTATE and the session goes on.
			_, err = conn.Exec(ctx, "select id from t where id = $1", "x")
			var pe *pgconn.PgError
			if !errors.As(err, &pe) || pe.Code != "22P02" {
				t.Errorf("bad integer: %v", err)
			}
			if err := conn.QueryRow(ctx, "select count(*) from t").Scan(&b); err != nil || b != 3 {
				t.Errorf("after error: %d %v", b, err)
			}
		})
	}
}

func TestPgxEngineBatchAndPrepare(t *testing.T) {
	addr := engineServer(t, 10)
	ctx, cancel := context.WithTimeout(context.Background(), safetyDeadline)
	defer cancel()
	conn := pgxConnect(t, addr, pgx.QueryExecModeCacheStatement)
	batch := &pgx.Batch{}
	for i := 1; i <= 3; i++ {
		batch.Queue("select name from t where id = $1", i)
	}
	batch.Queue("select count(*) from t where id > $1", 1)
	res := conn.SendBatch(ctx, batch)
	var names []string
	for i := 0; i < 3; i++ {
		var s *string
		if err := res.QueryRow().Scan(&s); err != nil {
			t.Fatal(err)
		}
		names = append(names, fmt.Sprint(s != nil && *s != ""))
	}
	var cnt int64
	if err := res.QueryRow().Scan(&cnt); err != nil || cnt != 2 {
		t.Fatalf("count = %d, %v", cnt, err)
	}
	if err := res.Close(); err != nil {
		t.Fatal(err)
	}
	if strings.Join(names, ",") != "true,true,false" {
		t.Errorf("names %v", names)
	}

	// A prepared statement, reused, then dropped by DEALLOCATE.
	sd, err := conn.Prepare(ctx, "byid", "select txt from t where id = $1")
	if err != nil || len(sd.ParamOIDs) != 1 || sd.ParamOIDs[0] != 23 {
		t.Fatalf("prepare: %+v %v", sd, err)
	}
	for i := 0; i < 3; i++ {
		var s string
		if err := conn.QueryRow(ctx, "byid", 2).Scan(&s); err != nil || s != "beta" {
			t.Fatalf("run %d: %q %v", i, s, err)
		}
	}
	if _, err := conn.Exec(ctx, "deallocate byid", pgx.QueryExecModeSimpleProtocol); err != nil {
		t.Fatal(err)
	}
	_, err = conn.Exec(ctx, "deallocate byid", pgx.QueryExecModeSimpleProtocol)
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "26000" {
		t.Fatalf("second deallocate: %v", err)
	}
}

// Cancellation through the context (pgx sends CancelRequest) and
// statement_timeout both stop a query with 57014. The query sorts a
// table large enough that it is still running when either arrives.
// Cancellation, made deterministic: COPY FROM STDIN blocks the server on
// the client's data once it has sent CopyInResponse, so a cancel request
// (or statement_timeout) is certain to find the load still running, and
// the load must stop with 57014 and leave the table as it was.
func TestEngineCancelAndTimeout(t *testing.T) {
	addr := engineServer(t, 1000)
	h := &harness{t: t, addr: addr}
	copyIn := func(c *client) {
		c.send(query("copy big from stdin with (format csv)"))
		if _, ok := c.recv().(*pgproto3.CopyInResponse); !ok {
			t.Fatal("want CopyInResponse")
		}
	}
	count := func(c *client) {
		c.send(query("select count(*) from big"))
		c.expect(rowDesc(engine.ResultColumn{Name: "count", TypeOID: engine.OIDInt8, TypLen: 8, Typmod: -1}),
			row("1000"), complete("SELECT 1"), ready())
	}

	t.Run("cancel request", func(t *testing.T) {
		c := h.connect().with(t)
		copyIn(c)
		canceller := h.dial()
		canceller.send(&pgproto3.CancelRequest{ProcessID: c.key.ProcessID, SecretKey: c.key.SecretKey})
		canceller.expectEOF()
		e, ok := c.recv().(*pgproto3.ErrorResponse)
		if !ok || e.Code != "57014" {
			t.Fatalf("after cancel: %#v, want ErrorResponse 57014", e)
		}
		// The client still owes the end of its copy; PostgreSQL ignores
		// what follows until CopyDone/CopyFail.
		c.send(&pgproto3.CopyFail{Message: "cancelled"})
		c.expect(ready())
		count(c)
	})

	t.Run("statement_timeout", func(t *testing.T) {
		c := h.connect().with(t)
		c.send(query("set statement_timeout = 50"))
		c.expect(complete("SET"), ready())
		copyIn(c)
		e, ok := c.recv().(*pgproto3.ErrorResponse)
		if !ok || e.Code != "57014" || e.Message != "canceling statement due to statement timeout" {
			t.Fatalf("after timeout: %#v, want 57014 statement timeout", e)
		}
		c.send(&pgproto3.CopyFail{Message: "timed out"})
		c.expect(ready())
		c.send(query("set statement_timeout = 0"))
		c.expect(complete("SET"), ready())
		count(c)
	})
}

// Session statements through the simple protocol: command tags,
// transaction rules and results.
func TestEngineSessionStatements(t *testing.T) {
	addr := engineServer(t, 5)
	conn := pgxConnect(t, addr, pgx.QueryExecModeSimpleProtocol)
	pc := conn.PgConn()
	ctx := context.Background()
	tests := []struct{ sql, want string }{
		{"prepare q (int) as select name from t where id = $1", "PREPARE"},
		{"execute q (2)", "SELECT 1"},
		{"deallocate prepare q", "DEALLOCATE"},
		{"prepare q2 as select 1", "PREPARE"},
		{"deallocate all", "DEALLOCATE ALL"},
		{"declare c cursor for select k from big", "ERROR 25P01"},
		{"begin read only", "BEGIN"},
		{"declare c no scroll cursor for select k from big order by k", "DECLARE CURSOR"},
		{"fetch 2 from c", "FETCH 2"},
		{"move forward 1 in c", "MOVE 1"},
		{"fetch all c", "FETCH 2"},
		{"fetch c", "FETCH 0"},
		{"close c", "CLOSE CURSOR"},
		{"fetch c", "ERROR 34000"},
		{"rollback", "ROLLBACK"},
		{"declare h cursor with hold for select k from big", "DECLARE CURSOR"},
		{"fetch next from h", "FETCH 1"},
		{"close all", "CLOSE CURSOR ALL"},
		{"explain select k from big where k > 2", "EXPLAIN"},
		{"explain analyze select count(*) from big", "EXPLAIN"},
		{"discard all", "DISCARD ALL"},
		{"start transaction isolation level serializable", "BEGIN"},
		{"discard all", "ERROR 25001"},
		{"rollback", "ROLLBACK"},
	}
	for _, tt := range tests {
		res, err := pc.Exec(ctx, tt.sql).ReadAll()
		got := ""
		var pe *pgconn.PgError
		switch {
		case errors.As(err, &pe):
			got = "ERROR " + pe.Code
		case err != nil:
			got = err.Error()
		default:
			got = res[len(res)-1].CommandTag.String()
		}
		if got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.sql, got, tt.want)
		}
	}
	res, err := pc.Exec(ctx, "explain analyze select count(*) from big where k < 3").ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, r := range res[0].Rows {
		lines = append(lines, string(r[0]))
	}
	plan := strings.Join(lines, "\n")
	if res[0].FieldDescriptions[0].Name != "QUERY PLAN" || !strings.Contains(plan, "Scan big") ||
		!strings.Contains(plan, "Actual Rows: 1") || !strings.Contains(plan, "Execution Time: ") {
		t.Errorf("explain analyze:\n%s", plan)
	}
}

// pg_backend_pid() is the process ID the client got in BackendKeyData,
// different for each connection.
func TestEngineBackendPID(t *testing.T) {
	addr := engineServer(t, 0)
	seen := map[uint32]bool{}
	for i := 0; i < 3; i++ {
		conn := pgxConnect(t, addr, pgx.QueryExecModeSimpleProtocol)
		var pid int32
		if err := conn.QueryRow(context.Background(), "select pg_backend_pid()").Scan(&pid); err != nil {
			t.Fatal(err)
		}
		want := conn.PgConn().PID()
		if uint32(pid) != want || want == 0 {
			t.Fatalf("pg_backend_pid() = %d, BackendKeyData said %d", pid, want)
		}
		if seen[want] {
			t.Fatalf("process ID %d given twice", want)
		}
		seen[want] = true
	}
}

// A cursor declared through the extended protocol, with a parameter, is a
// portal: Describe of its name gives its row description, and FETCH reads
// it (what psycopg 3 does with a named cursor).
func TestEngineDescribeCursorPortal(t *testing.T) {
	addr := engineServer(t, 10)
	ctx, cancel := context.WithTimeout(context.Background(), safetyDeadline)
	defer cancel()
	pc := pgxConnect(t, addr, pgx.QueryExecModeSimpleProtocol).PgConn()
	if err := pc.Exec(ctx, "begin").Close(); err != nil {
		t.Fatal(err)
	}
	res := pc.ExecParams(ctx, `declare "big" cursor for select k, v from big where k > $1 order by k`, [][]byte{[]byte("6")}, nil, nil, nil).Read()
	if res.Err != nil || res.CommandTag.String() != "DECLARE CURSOR" {
		t.Fatalf("declare: %v %q", res.Err, res.CommandTag)
	}

	hj, err := pc.Hijack()
	if err != nil {
		t.Fatal(err)
	}
	defer hj.Conn.Close()
	fe := hj.Frontend
	fe.Send(&pgproto3.Describe{ObjectType: 'P', Name: "big"})
	fe.Send(&pgproto3.Describe{ObjectType: 'P', Name: "nosuch"})
	fe.Send(&pgproto3.Sync{})
	fe.Send(&pgproto3.Query{String: `fetch forward 2 from "big"`})
	if err := fe.Flush(); err != nil {
		t.Fatal(err)
	}
	var got []string
	for ready := 0; ready < 2; {
		msg, err := fe.Receive()
		if err != nil {
			t.Fatal(err)
		}
		switch m := msg.(type) {
		case *pgproto3.RowDescription:
			var names []string
			for _, f := range m.Fields {
				names = append(names, fmt.Sprintf("%s:%d", f.Name, f.DataTypeOID))
			}
			got = append(got, "desc "+strings.Join(names, ","))
		case *pgproto3.DataRow:
			got = append(got, "row "+string(m.Values[0]))
		case *pgproto3.ErrorResponse:
			got = append(got, "error "+m.Code)
		case *pgproto3.CommandComplete:
			got = append(got, "complete "+string(m.CommandTag))
		case *pgproto3.ReadyForQuery:
			ready++
		}
	}
	// The Describe of an unknown portal fails, and, as in PostgreSQL,
	// fails the transaction block: the FETCH after the Sync is refused.
	want := []string{"desc k:23,v:25", "error 34000", "error 25P02"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
}
