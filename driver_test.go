package gpusql_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"math/big"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpusql/gpusql"
	"github.com/gpusql/gpusql/engine"
)

// openSQL opens a database/sql handle by DSN over a file root holding
// t.csv, and creates table t from it.
func openSQL(t *testing.T) (*sql.DB, string) {
	t.Helper()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "t.csv"), typesCSV)
	db, err := sql.Open("gpusql", fmt.Sprintf("file_root='%s' device=cpu", strings.ReplaceAll(dir, `'`, `\'`)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	res, err := db.ExecContext(context.Background(), typesDDL+` FROM CSV 't.csv' WITH (HEADER true)`)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 0 {
		t.Errorf("RowsAffected of CREATE TABLE: %d, %v", n, err)
	}
	return db, dir
}

func TestDriverTypes(t *testing.T) {
	db, _ := openSQL(t)
	rows, err := db.Query(`SELECT * FROM t ORDER BY i2`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cts, err := rows.ColumnTypes()
	if err != nil {
		t.Fatal(err)
	}
	var desc []string
	for _, ct := range cts {
		d := fmt.Sprintf("%s:%s:%s", ct.Name(), ct.DatabaseTypeName(), ct.ScanType())
		if p, s, ok := ct.DecimalSize(); ok {
			d += fmt.Sprintf("(%d,%d)", p, s)
		}
		if n, ok := ct.Length(); ok {
			d += fmt.Sprintf("[%d]", n)
		}
		if nullable, ok := ct.Nullable(); ok && nullable {
			d += "?"
		}
		desc = append(desc, d)
	}
	want := "i2:INT2:int64? i4:INT4:int64? i8:INT8:int64? f4:FLOAT4:float64? f8:FLOAT8:float64? " +
		"n:NUMERIC:string(12,3)? d:DATE:time.Time? ts:TIMESTAMP:time.Time? b:BOOL:bool? " +
		"c:BPCHAR:string[5]? v:VARCHAR:string[10]? s:TEXT:string?"
	if got := strings.Join(desc, " "); got != want {
		t.Errorf("column types\n got %s\nwant %s", got, want)
	}
	var got [][]any
	for rows.Next() {
		vals := make([]any, len(cts))
		ptrs := make([]any, len(cts))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		got = append(got, vals)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	wantRows := [][]any{
		{int64(math.MinInt16), int64(math.MinInt32), int64(math.MinInt64), -0.5, 1e300, "-0.001",
			time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(1999, 12, 31, 23, 59, 59, 0, time.UTC), false, "abcde", "", `quoted, "text"`},
		{int64(1), int64(2), int64(3), 1.5, 2.25, "123.456", time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC),
			time.Date(2024, 2, 29, 13, 14, 15, 123456000, time.UTC), true, "ab   ", "xyz", "hello"},
		{nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil},
	}
	if !reflect.DeepEqual(got, wantRows) {
		t.Errorf("rows\n got %v\nwant %v", got, wantRows)
	}

	// database/sql's own conversions from the driver's values.
	var (
		i16 int16
		f32 float32
		num float64
		ns  sql.NullString
		tm  time.Time
	)
	err = db.QueryRow(`SELECT i2, f4, n, c, ts FROM t WHERE i4 = $1`, 2).Scan(&i16, &f32, &num, &ns, &tm)
	if err != nil || i16 != 1 || f32 != 1.5 || num != 123.456 || ns.String != "ab   " || tm.Nanosecond() != 123456000 {
		t.Errorf("QueryRow: %v %v %v %v %v, %v", i16, f32, num, ns, tm, err)
	}
}

func TestDriverNullableFromCatalog(t *testing.T) {
	db, dir := openSQL(t)
	write(t, filepath.Join(dir, "nn.csv"), "1,x\n2,\n")
	if _, err := db.Exec(`CREATE TABLE nn (a bigint NOT NULL, b text) FROM CSV 'nn.csv'`); err != nil {
		t.Fatal(err)
	}
	rows, err := db.Query(`SELECT a, b, a + 1 AS c FROM nn`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cts, _ := rows.ColumnTypes()
	var got []string
	for _, ct := range cts {
		nullable, ok := ct.Nullable()
		got = append(got, fmt.Sprintf("%s:%v,%v", ct.Name(), nullable, ok))
	}
	if s := strings.Join(got, " "); s != "a:false,true b:true,true c:true,false" {
		t.Errorf("nullable: %s", s)
	}
}

func TestDriverParamsStmtTx(t *testing.T) {
	db, _ := openSQL(t)
	ctx := context.Background()
	var s string
	var n int64
	// $1 typed by its context (a date column), a string with a quote, and
	// an exact decimal through CheckNamedValue.
	err := db.QueryRowContext(ctx, `SELECT s, i8 FROM t WHERE d = $1 AND v <> $2 AND n = $3`,
		"2024-02-29", "it's", big.NewRat(123456, 1000)).Scan(&s, &n)
	if err != nil || s != "hello" || n != 3 {
		t.Errorf("got %q %d, %v", s, n, err)
	}
	st, err := db.PrepareContext(ctx, `SELECT count(*) FROM t WHERE i4 >= $1`)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, tc := range []struct{ min, want int64 }{{3, 0}, {2, 1}, {math.MinInt32, 2}} {
		if err := st.QueryRowContext(ctx, tc.min).Scan(&n); err != nil || n != tc.want {
			t.Errorf("i4 >= %d: %d, %v; want %d", tc.min, n, err, tc.want)
		}
	}
	// $1 is an integer, as PostgreSQL infers it.
	if err := st.QueryRowContext(ctx, int64(math.MinInt64)).Scan(&n); sqlstate(err) != engine.CodeNumericValueOutOfRange {
		t.Errorf("an int64 beyond integer: %v, want 22003", err)
	}
	if _, err := st.Exec(1, 2); err == nil || !strings.Contains(err.Error(), "expected 1 arguments") {
		t.Errorf("2 args for 1 parameter: %v", err)
	}
	if _, err := db.Exec(`SELECT $1`, sql.Named("x", 1)); sqlstate(err) != engine.CodeFeatureNotSupported {
		t.Errorf("named argument: %v", err)
	}

	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(`SELECT nope FROM t`); sqlstate(err) != engine.CodeUndefinedColumn {
		t.Errorf("in tx: %v", err)
	}
	if _, err := tx.Exec(`SELECT 1`); sqlstate(err) != engine.CodeInFailedTransaction {
		t.Errorf("after an error in tx: %v, want 25P02", err)
	}
	if err := tx.Commit(); sqlstate(err) != engine.CodeInFailedTransaction {
		t.Errorf("Commit of a failed tx: %v, want 25P02", err)
	}
	tx, err = db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.QueryRow(`SELECT count(*) FROM t`).Scan(&n); err != nil || n != 3 {
		t.Errorf("count in tx: %d %v", n, err)
	}
	if err := tx.Commit(); err != nil {
		t.Error(err)
	}
	if _, err := db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelSerializable}); sqlstate(err) != engine.CodeFeatureNotSupported {
		t.Errorf("serializable: %v", err)
	}
	if err := db.PingContext(ctx); err != nil {
		t.Error(err)
	}
}

func TestDriverErrorsAndResultSets(t *testing.T) {
	db, _ := openSQL(t)
	_, err := db.Query(`SELECT * FROM nowhere`)
	var pe *engine.Error
	if !errors.As(err, &pe) || pe.Code != engine.CodeUndefinedTable {
		t.Errorf("undefined table: %v", err)
	}
	rows, err := db.Query(`SELECT 1 AS a; SELECT 'x' AS b, 2 AS c; SELECT i4 / 0 FROM t`)
	if err != nil {
		t.Fatal(err)
	}
	var sets []string
	for {
		cols, _ := rows.Columns()
		sets = append(sets, strings.Join(cols, "+"))
		for rows.Next() {
		}
		if !rows.NextResultSet() {
			break
		}
	}
	if s := strings.Join(sets, " "); s != "a b+c ?column?" || sqlstate(rows.Err()) != engine.CodeDivisionByZero {
		t.Errorf("sets %q, err %v", s, rows.Err())
	}
	rows.Close()
	res, err := db.Exec(`COPY t FROM 't.csv' WITH (FORMAT csv, HEADER true)`)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := res.RowsAffected(); n != 3 || err != nil {
		t.Errorf("RowsAffected of COPY: %d, %v", n, err)
	}
	if _, err := res.LastInsertId(); sqlstate(err) != engine.CodeFeatureNotSupported {
		t.Errorf("LastInsertId: %v", err)
	}
}

// TestDriverCancel: a context cancelled while rows stream ends them with
// 57014; database/sql closes the Rows.
func TestDriverCancel(t *testing.T) {
	gdb := openDB(t, gpusql.Options{})
	loadBig(t, gdb, 200_000)
	db := sql.OpenDB(gpusql.Connector(gdb))
	defer db.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rows, err := db.QueryContext(ctx, `SELECT x FROM big`)
	if err != nil {
		t.Fatal(err)
	}
	read := 0
	for rows.Next() {
		read++
		if read == 10 {
			cancel()
		}
	}
	if err := rows.Err(); !errors.Is(err, context.Canceled) {
		t.Errorf("Err %v, want context.Canceled", err)
	}
	if read >= 200_000 {
		t.Errorf("read every row after cancelling")
	}
	rows.Close()
	// The shared engine is intact after the sql.DB closes.
	db.Close()
	if _, err := gdb.Exec(context.Background(), `SELECT count(*) FROM big`); err != nil {
		t.Errorf("embedded DB after sql.DB.Close: %v", err)
	}
}

func TestDriverConcurrent(t *testing.T) {
	db, _ := openSQL(t)
	db.SetMaxOpenConns(8)
	var wg sync.WaitGroup
	errs := make(chan error, 32)
	for g := range 32 {
		wg.Go(func() {
			for k := range 10 {
				var sum int64
				want := int64(3 + g + k)
				if err := db.QueryRow(`SELECT sum(i8) + $1 FROM t WHERE i8 > 0`, g+k).Scan(&sum); err != nil || sum != want {
					errs <- fmt.Errorf("goroutine %d: %d, %v; want %d", g, sum, err, want)
					return
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

func TestDriverConnectorAndDSN(t *testing.T) {
	dir := t.TempDir()
	c, err := gpusql.NewConnector(gpusql.Options{FileRoot: dir, Device: "cpu"})
	if err != nil {
		t.Fatal(err)
	}
	db := sql.OpenDB(c)
	var v string
	if err := db.QueryRow(`SHOW gpusql.device`).Scan(&v); err != nil || !strings.HasPrefix(v, "cpu") {
		t.Errorf("SHOW gpusql.device: %q %v", v, err)
	}
	db.Close()
	if err := db.Ping(); err == nil {
		t.Error("Ping after Close")
	}

	for _, tc := range []struct {
		dsn  string
		want gpusql.Options
		bad  string
	}{
		{"file_root=/data device=cpu", gpusql.Options{FileRoot: "/data", Device: "cpu"}, ""},
		{`  file_root = '/my data\'s' max_text_width=64 data_dir=/d `, gpusql.Options{FileRoot: "/my data's", MaxTextWidth: 64, DataDir: "/d"}, ""},
		{"", gpusql.Options{}, ""},
		{"file_root", gpusql.Options{}, "want key=value"},
		{"file_root='/x", gpusql.Options{}, "unterminated"},
		{"port=5432", gpusql.Options{}, "unknown key"},
		{"max_text_width=wide", gpusql.Options{}, "max_text_width"},
	} {
		got, err := gpusql.ParseDSN(tc.dsn)
		if tc.bad != "" {
			if err == nil || !strings.Contains(err.Error(), tc.bad) {
				t.Errorf("%q: %v, want an error containing %q", tc.dsn, err, tc.bad)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: %+v, %v; want %+v", tc.dsn, got, err, tc.want)
		}
	}
	if _, err := sql.Open("gpusql", "device=tpu file_root=/"); err == nil {
		t.Error("sql.Open with a bad device succeeded")
	}
}
