package gpusql_test

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpusql/gpusql"
	"github.com/gpusql/gpusql/cuda"
	"github.com/gpusql/gpusql/engine"
)

// typesCSV has a value of every stored type, extremes among them, and a
// row of NULLs.
const typesCSV = `i2,i4,i8,f4,f8,n,d,ts,b,c,v,s
1,2,3,1.5,2.25,123.456,2024-02-29,2024-02-29 13:14:15.123456,true,ab,xyz,hello
-32768,-2147483648,-9223372036854775808,-0.5,1e300,-0.001,0001-01-01,1999-12-31 23:59:59,false,abcde,"","quoted, ""text"""
,,,,,,,,,,,
`

const typesDDL = `CREATE TABLE t (i2 smallint, i4 integer, i8 bigint, f4 real, f8 double precision,
	n numeric(12,3), d date, ts timestamp, b boolean, c char(5), v varchar(10), s text)`

// openDB opens an engine over a temporary file root holding t.csv (the
// types table, created as t) and big.csv (n rows of one bigint, not yet
// loaded).
func openDB(t *testing.T, opts gpusql.Options) *gpusql.DB {
	t.Helper()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "t.csv"), typesCSV)
	if opts.FileRoot == "" {
		opts.FileRoot = dir
	}
	if opts.Device == "" {
		// GPUSQL_TEST_DEVICE=cuda runs these tests on the GPU backend.
		opts.Device = cmp.Or(os.Getenv("GPUSQL_TEST_DEVICE"), "cpu")
	}
	db, err := gpusql.Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.Exec(context.Background(), typesDDL+` FROM CSV 't.csv' WITH (HEADER true)`); err != nil {
		t.Fatal(err)
	}
	return db
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// loadBig creates table big (x bigint) with the rows 1..n.
func loadBig(t *testing.T, db *gpusql.DB, n int) {
	t.Helper()
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%d\n", i)
	}
	root := db.FileRoot()
	write(t, filepath.Join(root, "big.csv"), b.String())
	tag, err := db.Exec(context.Background(), `CREATE TABLE big (x bigint) FROM CSV 'big.csv'`)
	if err != nil || tag != "CREATE TABLE" {
		t.Fatalf("CREATE TABLE big: %q, %v", tag, err)
	}
}

func sqlstate(err error) string {
	var e *engine.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

func TestScanNativeTypes(t *testing.T) {
	db := openDB(t, gpusql.Options{})
	rows, err := db.Query(context.Background(), `SELECT * FROM t ORDER BY i2`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	if got := strings.Join(rows.Columns(), ","); got != "i2,i4,i8,f4,f8,n,d,ts,b,c,v,s" {
		t.Fatalf("columns %s", got)
	}
	type row struct {
		i2 int16
		i4 int32
		i8 int64
		f4 float32
		f8 float64
		n  big.Rat
		d  time.Time
		ts time.Time
		b  bool
		c  string
		v  string
		s  []byte
	}
	want := []row{
		{math.MinInt16, math.MinInt32, math.MinInt64, -0.5, 1e300, *big.NewRat(-1, 1000), time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC),
			time.Date(1999, 12, 31, 23, 59, 59, 0, time.UTC), false, "abcde", "", []byte(`quoted, "text"`)},
		{1, 2, 3, 1.5, 2.25, *big.NewRat(123456, 1000), time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC),
			time.Date(2024, 2, 29, 13, 14, 15, 123456000, time.UTC), true, "ab   ", "xyz", []byte("hello")},
	}
	for i, w := range want {
		if !rows.Next() {
			t.Fatalf("row %d: no row: %v", i, rows.Err())
		}
		var g row
		if err := rows.Scan(&g.i2, &g.i4, &g.i8, &g.f4, &g.f8, &g.n, &g.d, &g.ts, &g.b, &g.c, &g.v, &g.s); err != nil {
			t.Fatalf("row %d: %v", i, err)
		}
		if g.i2 != w.i2 || g.i4 != w.i4 || g.i8 != w.i8 || g.f4 != w.f4 || g.f8 != w.f8 || g.n.Cmp(&w.n) != 0 ||
			!g.d.Equal(w.d) || !g.ts.Equal(w.ts) || g.b != w.b || g.c != w.c || g.v != w.v || string(g.s) != string(w.s) {
			t.Errorf("row %d:\n got %+v\nwant %+v", i, g, w)
		}
	}
	// The NULL row: into pointers, sql.Null types, sql.Null[T] and any.
	if !rows.Next() {
		t.Fatalf("NULL row missing: %v", rows.Err())
	}
	var (
		p2 *int16
		n4 sql.NullInt32
		n8 sql.Null[int64]
		f4 sql.NullFloat64
		p8 *float64
		pn *big.Rat
		nd sql.NullTime
		a  any
		nb sql.NullBool
		nc sql.NullString
		pv *string
		bs = []byte("was set")
	)
	if err := rows.Scan(&p2, &n4, &n8, &f4, &p8, &pn, &nd, &a, &nb, &nc, &pv, &bs); err != nil {
		t.Fatal(err)
	}
	if p2 != nil || n4.Valid || n8.Valid || f4.Valid || p8 != nil || pn != nil || nd.Valid || a != nil || nb.Valid || nc.Valid || pv != nil || bs != nil {
		t.Errorf("NULLs scanned as %v %v %v %v %v %v %v %v %v %v %v %v", p2, n4, n8, f4, p8, pn, nd, a, nb, nc, pv, bs)
	}
	var i64 int64
	var s string
	err = rows.Scan(&i64, &s, &s, &s, &s, &s, &s, &s, &s, &s, &s, &s)
	if sqlstate(err) != engine.CodeNullValueNotAllowed {
		t.Errorf("NULL into *int64: %v, want 22004", err)
	}
	if rows.Next() {
		t.Fatal("a fourth row")
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if rows.CommandTag() != "SELECT 3" {
		t.Errorf("tag %q", rows.CommandTag())
	}
}

// TestScanConversions: values into destinations of other types, as
// database/sql converts, and the mismatches refused.
func TestScanConversions(t *testing.T) {
	db := openDB(t, gpusql.Options{})
	ctx := context.Background()
	scan := func(q string, dest ...any) error {
		t.Helper()
		rows, err := db.Query(ctx, q)
		if err != nil {
			return err
		}
		defer rows.Close()
		if !rows.Next() {
			t.Fatalf("%s: no row: %v", q, rows.Err())
		}
		return rows.Scan(dest...)
	}
	var (
		s    string
		f    float64
		i    int
		u8   uint8
		r    big.Rat
		a    any
		pi   *int64
		ni   sql.NullInt64
		nf   sql.NullFloat64
		raw  sql.RawBytes
		tm   time.Time
		b    bool
		i16  int16
		f32  float32
		flag bool
	)
	if err := scan(`SELECT sum(i8) + 0, avg(i4), count(*), 255, 2.5, i4, n, f8, n, ts, b FROM t WHERE i4 = 2 GROUP BY i4, n, f8, ts, b`,
		&i, &f, &ni, &u8, &nf, &pi, &r, &a, &s, &tm, &flag); err != nil {
		t.Fatal(err)
	}
	if i != 3 || f != 2 || ni.Int64 != 1 || u8 != 255 || nf.Float64 != 2.5 || *pi != 2 || r.FloatString(3) != "123.456" ||
		a != 2.25 || s != "123.456" || !tm.Equal(time.Date(2024, 2, 29, 13, 14, 15, 123456000, time.UTC)) || !flag {
		t.Errorf("got %v %v %v %v %v %v %v %v %q %v %v", i, f, ni, u8, nf, *pi, r.String(), a, s, tm, flag)
	}
	if err := scan(`SELECT interval '1 day 02:00:00', true, 'x'::varchar`, &s, &a, &raw); err != nil || s != "1 day 02:00:00" || a != true || string(raw) != "x" {
		t.Errorf("interval %q, bool %v, raw %q: %v", s, a, raw, err)
	}
	if err := scan(`SELECT 5.00::numeric(5,2), -7.0`, &i, &i16); err != nil || i != 5 || i16 != -7 {
		t.Errorf("whole numerics into integers: %d %d, %v", i, i16, err)
	}
	for _, tc := range []struct {
		q    string
		dest any
		code string
	}{
		{`SELECT 1.5::numeric`, &i, engine.CodeDatatypeMismatch},
		{`SELECT 1.50::numeric(5,2)`, &i, engine.CodeDatatypeMismatch},
		{`SELECT 70000`, &i16, engine.CodeNumericValueOutOfRange},
		{`SELECT -1`, &u8, engine.CodeNumericValueOutOfRange},
		{`SELECT 1e300::float8`, &f32, engine.CodeNumericValueOutOfRange},
		{`SELECT 'x'`, &b, engine.CodeDatatypeMismatch},
		{`SELECT 1`, &tm, engine.CodeDatatypeMismatch},
		{`SELECT 1.5::float8`, &r, engine.CodeDatatypeMismatch},
		{`SELECT 1`, &struct{}{}, engine.CodeDatatypeMismatch},
	} {
		if err := scan(tc.q, tc.dest); sqlstate(err) != tc.code {
			t.Errorf("%s into %T: %v, want %s", tc.q, tc.dest, err, tc.code)
		}
	}
	if err := scan(`SELECT 1, 2`, &i); sqlstate(err) != engine.CodeDatatypeMismatch {
		t.Errorf("2 columns into 1 destination: %v", err)
	}
}

func TestExecTagsAndErrors(t *testing.T) {
	db := openDB(t, gpusql.Options{})
	ctx := context.Background()
	for _, tc := range []struct {
		sql, tag, code string
	}{
		{`CREATE TABLE t2 (a bigint)`, "CREATE TABLE", ""},
		{`COPY t2 FROM 't.csv' WITH (FORMAT csv, HEADER true, ON_ERROR ignore)`, "", ""},
		{`SELECT * FROM t`, "SELECT 3", ""},
		{`SET statement_timeout = 0; SHOW statement_timeout`, "SHOW", ""},
		{`DROP TABLE t2`, "DROP TABLE", ""},
		{``, "", ""},
		{`SELEC 1`, "", engine.CodeSyntaxError},
		{`SELECT * FROM nowhere`, "", engine.CodeUndefinedTable},
		{`SELECT nope FROM t`, "", engine.CodeUndefinedColumn},
		{`SELECT i4 / 0 FROM t`, "", engine.CodeDivisionByZero},
		{`CREATE TABLE t (a int)`, "", engine.CodeDuplicateTable},
		{`SELECT $1`, "", ""}, // set below: the engine's own error for a parameter without a value
	} {
		tag, err := db.Exec(ctx, tc.sql)
		if tc.sql == `SELECT $1` {
			if err == nil || sqlstate(err) == "" || sqlstate(err) == engine.CodeInternalError {
				t.Errorf("%s without args: %v, want an error with a SQLSTATE", tc.sql, err)
			}
			continue
		}
		if sqlstate(err) != tc.code {
			t.Errorf("%s: error %v, want SQLSTATE %q", tc.sql, err, tc.code)
		}
		if tc.code == "" && tc.tag != "" && tag != tc.tag {
			t.Errorf("%s: tag %q, want %q", tc.sql, tag, tc.tag)
		}
		if strings.HasPrefix(tc.sql, "COPY") && !strings.HasPrefix(tag, "COPY ") {
			t.Errorf("%s: tag %q", tc.sql, tag)
		}
	}
	// An error raised while rows stream ends the Rows, through Err.
	rows, err := db.Query(ctx, `SELECT 10 / (i2 - 1) FROM t`)
	if err != nil {
		t.Fatalf("Query: %v, want the error from Rows.Err", err)
	}
	for rows.Next() {
	}
	if sqlstate(rows.Err()) != engine.CodeDivisionByZero {
		t.Errorf("Rows.Err %v, want 22012", rows.Err())
	}
	rows.Close()
	// Errors before the first result set come from Query.
	if _, err := db.Query(ctx, `SELECT 1 FROM nowhere`); sqlstate(err) != engine.CodeUndefinedTable {
		t.Errorf("Query: %v, want 42P01", err)
	}
}

// TestParameters: $n take their types from their context, as in
// PostgreSQL, and values of Go types.
func TestParameters(t *testing.T) {
	db := openDB(t, gpusql.Options{})
	ctx := context.Background()
	tricky := "it's $1 -- /* not SQL"
	rows, err := db.Query(ctx, `SELECT $1, $2 + 1, 10-$3, $4::float8, $5::float8, $6::numeric, $7::timestamp, $8::text, s
		FROM t WHERE v = $9 AND d = $10 AND n > $11 AND b = $12 LIMIT $13`,
		tricky, 41, -5, 0.1, math.Inf(1), big.NewRat(-1, 1000), time.Date(2020, 1, 2, 3, 4, 5, 600000, time.UTC), nil,
		"xyz", time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC), 123.4, true, 5)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	if !rows.Next() {
		t.Fatalf("no row: %v", rows.Err())
	}
	var (
		s      string
		i, m   int64
		f, inf float64
		r      big.Rat
		tm     time.Time
		null   *string
		s2     string
	)
	if err := rows.Scan(&s, &i, &m, &f, &inf, &r, &tm, &null, &s2); err != nil {
		t.Fatal(err)
	}
	if s != tricky || i != 42 || m != 15 || f != 0.1 || !math.IsInf(inf, 1) || r.String() != "-1/1000" ||
		!tm.Equal(time.Date(2020, 1, 2, 3, 4, 5, 600000, time.UTC)) || null != nil || s2 != "hello" {
		t.Errorf("got %q %d %d %v %v %s %v %v %q", s, i, m, f, inf, r.String(), tm, null, s2)
	}
	if cols := rows.ColumnTypes(); cols[0].TypeOID != engine.OIDText || cols[1].TypeOID != engine.OIDInt4 {
		t.Errorf("$1 typed %d (want text), $2 + 1 typed %d (want integer)", cols[0].TypeOID, cols[1].TypeOID)
	}
	rows.Close()

	// A prepared statement, run with several values; floats come back
	// bit for bit.
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	st, err := conn.Prepare(ctx, `SELECT $1::double precision`)
	if err != nil {
		t.Fatal(err)
	}
	if oids := st.ParamOIDs(); len(oids) != 1 || oids[0] != engine.OIDFloat8 {
		t.Errorf("parameter types %v", oids)
	}
	for _, x := range []float64{0.1, 1.0 / 3, 5e-324, math.MaxFloat64, -2.5e-300} {
		var got float64
		rows, err := st.Query(ctx, x)
		if err != nil {
			t.Fatal(err)
		}
		rows.Next()
		if err := rows.Scan(&got); err != nil || math.Float64bits(got) != math.Float64bits(x) {
			t.Errorf("%v came back as %v (%v)", x, got, err)
		}
		rows.Close()
	}
	for _, tc := range []struct {
		sql  string
		args []any
		code string
	}{
		{`SELECT $1, $2`, []any{1}, engine.CodeProtocolViolation},
		{`SELECT $1 + 1`, []any{"x"}, engine.CodeInvalidTextRepresent},
		{`SELECT 1; SELECT $1`, []any{1}, engine.CodeSyntaxError},
		{`SELECT $1`, []any{"\x00"}, engine.CodeCharacterNotInRepertoir},
	} {
		if _, err := db.Exec(ctx, tc.sql, tc.args...); sqlstate(err) != tc.code {
			t.Errorf("%s %v: %v, want %s", tc.sql, tc.args, err, tc.code)
		}
	}
}

func TestMultipleResultSets(t *testing.T) {
	db := openDB(t, gpusql.Options{})
	rows, err := db.Query(context.Background(), `SET statement_timeout = 0; SELECT 1 AS a; CREATE TABLE u (x int); SELECT 'two' AS b, 3 AS c`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for set := 0; ; set++ {
		got = append(got, strings.Join(rows.Columns(), "+"))
		for rows.Next() {
			var a, b string
			dest := []any{&a, &b}[:len(rows.Columns())]
			if err := rows.Scan(dest...); err != nil {
				t.Fatal(err)
			}
			got = append(got, a+b)
		}
		if !rows.NextResultSet() {
			break
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if s := strings.Join(got, " "); s != "a 1 b+c two3" {
		t.Errorf("got %q", s)
	}
	// A query without rows gives Rows without columns.
	r2, err := db.Query(context.Background(), `CREATE TABLE w (x int)`)
	if err != nil || r2.Next() || len(r2.Columns()) != 0 || r2.CommandTag() != "CREATE TABLE" {
		t.Errorf("Rows of CREATE TABLE: %v %v %q", err, r2.Columns(), r2.CommandTag())
	}
	r2.Close()
}

// TestEarlyClose: closing Rows before the end cancels the query, which
// stops producing (DB.Close would wait forever for it otherwise), and
// frees the Conn for its next statement.
func TestEarlyClose(t *testing.T) {
	db := openDB(t, gpusql.Options{})
	const n = 200_000
	loadBig(t, db, n)
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	rows, err := conn.Query(ctx, `SELECT x, x * 2 FROM big`)
	if err != nil {
		t.Fatal(err)
	}
	if !rows.Next() {
		t.Fatal(rows.Err())
	}
	if _, err := conn.Exec(ctx, `SELECT 1`); sqlstate(err) != engine.CodeObjectNotInPrereqState {
		t.Errorf("second statement while Rows are open: %v, want 55000", err)
	}
	if err := rows.Close(); err != nil {
		t.Fatal(err)
	}
	if rows.Next() || rows.Err() != nil {
		t.Errorf("after Close: Next true or Err %v", rows.Err())
	}
	var count int64
	r2, err := conn.Query(ctx, `SELECT count(*) FROM big`)
	if err != nil {
		t.Fatal(err)
	}
	r2.Next()
	if err := r2.Scan(&count); err != nil || count != n {
		t.Errorf("count %d, %v", count, err)
	}
	r2.Close()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(ctx, `SELECT 1`); sqlstate(err) != engine.CodeConnectionDoesNotExist {
		t.Errorf("after DB.Close: %v, want 08003", err)
	}
	if len(db.Catalog().Tables()) != 0 {
		t.Errorf("DB.Close left tables")
	}
}

// TestContextCancel: cancelling the context of a streaming query ends it
// with 57014, which wraps context.Canceled; a context already ended stops
// a statement before it starts.
func TestContextCancel(t *testing.T) {
	db := openDB(t, gpusql.Options{})
	const n = 200_000
	loadBig(t, db, n)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rows, err := db.Query(ctx, `SELECT x FROM big`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	read := 0
	for rows.Next() {
		read++
		if read == 1 {
			cancel()
		}
	}
	err = rows.Err()
	if sqlstate(err) != engine.CodeQueryCanceled || !errors.Is(err, context.Canceled) {
		t.Errorf("Err %v (%s), want 57014 wrapping context.Canceled", err, sqlstate(err))
	}
	if read >= n {
		t.Errorf("read all %d rows after cancelling", read)
	}
	if _, err := db.Exec(ctx, `SELECT 1`); sqlstate(err) != engine.CodeQueryCanceled {
		t.Errorf("Exec with an ended context: %v", err)
	}
	dctx, dcancel := context.WithDeadline(context.Background(), time.Unix(0, 0))
	defer dcancel()
	if _, err := db.Query(dctx, `SELECT x FROM big`); !errors.Is(err, context.DeadlineExceeded) || sqlstate(err) != engine.CodeQueryCanceled {
		t.Errorf("Query past its deadline: %v", err)
	}
}

// TestCloseCancelsRunning: DB.Close ends Rows still open with 57P01.
func TestCloseCancelsRunning(t *testing.T) {
	db := openDB(t, gpusql.Options{})
	loadBig(t, db, 100_000)
	rows, err := db.Query(context.Background(), `SELECT x FROM big`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	rows.Next()
	db.Close()
	for rows.Next() {
	}
	if sqlstate(rows.Err()) != engine.CodeAdminShutdown {
		t.Errorf("Err %v, want 57P01", rows.Err())
	}
}

func TestConcurrentQueries(t *testing.T) {
	db := openDB(t, gpusql.Options{})
	const n = 20_000
	loadBig(t, db, n)
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := range 16 {
		wg.Go(func() {
			for k := range 8 {
				limit := int64(1000*g + k + 1)
				rows, err := db.Query(context.Background(), `SELECT x FROM big WHERE x <= $1 ORDER BY x`, limit)
				if err != nil {
					errs <- err
					return
				}
				var sum, x, cnt int64
				for rows.Next() {
					if err := rows.Scan(&x); err != nil {
						errs <- err
					}
					sum += x
					cnt++
				}
				rows.Close()
				if err := rows.Err(); err != nil || cnt != limit || sum != limit*(limit+1)/2 {
					errs <- fmt.Errorf("limit %d: %d rows, sum %d, err %v", limit, cnt, sum, err)
					return
				}
				if _, err := db.Exec(context.Background(), `SELECT count(*) FROM t`); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestNotices(t *testing.T) {
	var mu sync.Mutex
	var got []engine.Notice
	db := openDB(t, gpusql.Options{OnNotice: func(n engine.Notice) {
		mu.Lock()
		got = append(got, n)
		mu.Unlock()
	}})
	if _, err := db.Exec(context.Background(), `COMMIT`); err != nil {
		t.Fatal(err)
	}
	// The load's NOTICE ("loaded 3 rows ...") came first.
	if len(got) != 2 || !strings.HasPrefix(got[0].Message, "loaded 3 rows") || got[1].Code != "25P01" || got[1].Severity != "WARNING" {
		t.Errorf("notices %+v", got)
	}
}

func TestOptions(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		opts gpusql.Options
		want string
	}{
		{"no root", gpusql.Options{}, "no file root"},
		{"bad device", gpusql.Options{FileRoot: dir, Device: "tpu"}, "want auto, cpu or cuda"},
		{"bad width", gpusql.Options{FileRoot: dir, MaxTextWidth: -1}, "max text width"},
		{"missing root", gpusql.Options{FileRoot: filepath.Join(dir, "missing")}, "file root"},
		{"root is a file", gpusql.Options{FileRoot: filepath.Join(dir, "f")}, "not a directory"},
	} {
		write(t, filepath.Join(dir, "f"), "")
		_, err := gpusql.Open(tc.opts)
		if err == nil || !strings.Contains(err.Error(), tc.want) || sqlstate(err) == "" {
			t.Errorf("%s: %v, want an *engine.Error containing %q", tc.name, err, tc.want)
		}
	}
	// DataDir alone: created, and the file root too.
	data := filepath.Join(dir, "new", "data")
	db, err := gpusql.Open(gpusql.Options{DataDir: data})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if st, err := os.Stat(data); err != nil || !st.IsDir() {
		t.Errorf("data dir not created: %v", err)
	}
	// The default device is auto: the GPU where one is usable, else the CPU.
	wantBackend := "cpu"
	if dev, err := cuda.Open(0); err == nil {
		dev.Close()
		wantBackend = "cuda"
	}
	if !strings.HasSuffix(db.FileRoot(), filepath.Join("new", "data")) || !strings.HasPrefix(db.Backend(), wantBackend) {
		t.Errorf("file root %q, backend %q, want a %s backend", db.FileRoot(), db.Backend(), wantBackend)
	}
}

// TestDeviceCUDA: device cuda either runs on a GPU or fails with a
// SQLSTATE saying why; it never falls back to the CPU.
func TestDeviceCUDA(t *testing.T) {
	db, err := gpusql.Open(gpusql.Options{FileRoot: t.TempDir(), Device: "cuda"})
	if err != nil {
		if sqlstate(err) != engine.CodeFeatureNotSupported {
			t.Fatalf("device cuda without a GPU: %v, want 0A000", err)
		}
		t.Skipf("no usable GPU: %v", err)
	}
	defer db.Close()
	if !strings.HasPrefix(db.Backend(), "cuda") {
		t.Errorf("device cuda gave backend %q", db.Backend())
	}
}

// TestScanNullablePointers: *string, *int64 and *float64 destinations
// (a pointer to a pointer) take values and NULLs, and refuse what their
// element type refuses.
func TestScanNullablePointers(t *testing.T) {
	db := openDB(t, gpusql.Options{})
	rows, err := db.Query(context.Background(), `SELECT 'x' || i, i * 10, i / 4.0 FROM (VALUES (1), (NULL), (3)) v(i) ORDER BY i NULLS FIRST`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	s, n, f := new(string), new(int64), new(float64) // set: NULL must clear them
	var got []string
	for rows.Next() {
		if err := rows.Scan(&s, &n, &f); err != nil {
			t.Fatal(err)
		}
		if s == nil || n == nil || f == nil {
			got = append(got, fmt.Sprintf("%v %v %v", s == nil, n == nil, f == nil))
			continue
		}
		got = append(got, fmt.Sprintf("%s %d %g", *s, *n, *f))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if want := "true true true|x1 10 0.25|x3 30 0.75"; strings.Join(got, "|") != want {
		t.Errorf("got %q, want %q", strings.Join(got, "|"), want)
	}
	r2, err := db.Query(context.Background(), `SELECT 'abc'`)
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	if !r2.Next() {
		t.Fatal(r2.Err())
	}
	var p *int64
	if err := r2.Scan(&p); sqlstate(err) != engine.CodeDatatypeMismatch {
		t.Errorf("text into **int64: %v, want 42804", err)
	}
}
