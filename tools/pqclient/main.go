// Command pqclient runs lib/pq (github.com/lib/pq, through database/sql)
// against a server and prints what the driver hands back, so that
// cmd/gpusql's TestClients/lib/pq can compare gpusql's output with
// PostgreSQL 15's: a connection, a simple query, prepared statements with
// parameters of several types, NULLs, transactions (commit, rollback and a
// failed one), COPY FROM STDIN through pq.CopyIn, and errors with their
// SQLSTATE. It is a module of its own so that the product's go.mod does
// not depend on lib/pq.
//
// Usage: pqclient DSN (a libpq-style "host=... port=..." string). Every
// call has a deadline; one that passes exits non-zero.
package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/lib/pq"
)

// callTimeout bounds each call, so that a hang fails instead of stalling.
const callTimeout = 30 * time.Second

var db *sql.DB

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: pqclient DSN")
		os.Exit(2)
	}
	var err error
	if db, err = sql.Open("postgres", os.Args[1]); err != nil {
		fail("open", err)
	}
	// One connection: each statement runs where the last one did.
	db.SetMaxOpenConns(1)
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	if err := db.PingContext(ctx); err != nil {
		fail("connect", err)
	}
	cancel()
	fmt.Println("connected")
	simple()
	prepared()
	nulls()
	transactions()
	copyIn()
	errorsAndRecovery()
}

func fail(what string, err error) {
	fmt.Fprintf(os.Stderr, "%s: %v\n", what, err)
	os.Exit(1)
}

func deadline() context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	_ = cancel // the context ends at its deadline; the calls are short
	return ctx
}

// querier is a *sql.DB, *sql.Tx or *sql.Stmt's query.
type querier func(ctx context.Context, args ...any) (*sql.Rows, error)

// show runs q with args and prints the column names and every row, each
// value with its Go type; an error is printed with its SQLSTATE.
func show(label string, q querier, args ...any) {
	rows, err := q(deadline(), args...)
	if err != nil {
		printErr(label, err)
		return
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		fail(label, err)
	}
	types, _ := rows.ColumnTypes()
	var tn []string
	for _, t := range types {
		tn = append(tn, t.DatabaseTypeName())
	}
	fmt.Println(label, cols, tn)
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			fail(label, err)
		}
		var parts []string
		for _, v := range vals {
			parts = append(parts, value(v))
		}
		fmt.Println("  ", strings.Join(parts, " | "))
	}
	if err := rows.Err(); err != nil {
		printErr(label+" (rows)", err)
	}
}

// value prints v with its Go type: []byte as text, times in UTC.
func value(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case []byte:
		return fmt.Sprintf("[]byte(%q)", x)
	case time.Time:
		return "time(" + x.UTC().Format("2006-01-02 15:04:05.999999 -0700") + ")"
	}
	return fmt.Sprintf("%T(%v)", v, v)
}

// printErr prints err's SQLSTATE, severity and message when it is a
// server's error.
func printErr(label string, err error) {
	var pe *pq.Error
	if errors.As(err, &pe) {
		fmt.Println(label, "ERROR", pe.Code, pe.Severity, pe.Message)
		return
	}
	fmt.Println(label, "ERROR (not from the server)", err)
}

func query(q string) querier {
	return func(ctx context.Context, args ...any) (*sql.Rows, error) { return db.QueryContext(ctx, q, args...) }
}

func exec(label, q string, args ...any) {
	if _, err := db.ExecContext(deadline(), q, args...); err != nil {
		printErr(label, err)
		return
	}
	fmt.Println(label, "ok")
}

// simple: without arguments lib/pq sends the simple query protocol.
func simple() {
	show("simple", query(`SELECT l_returnflag, l_linestatus, count(*), sum(l_quantity), min(l_shipdate), max(l_comment)
		FROM lineitem GROUP BY 1, 2 ORDER BY 1, 2`))
	show("simple types", query(`SELECT 1::smallint, 2::integer, 3::bigint, 1.5::real, 2.25::double precision,
		12.340::numeric(10,3), true, 'x'::char(3), 'v'::varchar(5), 'text', date '2024-02-29',
		timestamp '2024-01-02 03:04:05.678901', time '23:59:59', interval '1 day 02:00:00'`))
}

// prepared: a statement prepared once and run with parameters of several
// Go types (lib/pq sends them as text), and a statement over lineitem.
func prepared() {
	st, err := db.PrepareContext(deadline(), `SELECT $1::integer + 1, $2::bigint * 2, $3::double precision / 4,
		$4::numeric(15,2) + 0.25, upper($5::text), NOT $6::boolean, $7::date + 1, $8::timestamp, $9::varchar(10) || '!'`)
	if err != nil {
		fail("prepare", err)
	}
	defer st.Close()
	day := time.Date(1996, 2, 28, 0, 0, 0, 0, time.UTC)
	ts := time.Date(2024, 1, 2, 3, 4, 5, 678000000, time.UTC)
	show("prepared 1", st.QueryContext, 41, int64(1)<<40, 1.5, "10.50", "gpu", true, day, ts, "héllo")
	show("prepared 2", st.QueryContext, -2147483647, int64(-1)<<62, -0.0, "-0.01", "", false, day.AddDate(0, 0, 1), ts.AddDate(-30, 0, 0), "x")
	show("prepared where", query(`SELECT l_orderkey, l_linenumber, l_quantity, l_shipdate, l_shipmode FROM lineitem
		WHERE l_orderkey < $1 AND l_shipdate >= $2 AND l_shipmode = $3 AND l_quantity > $4 ORDER BY 1, 2`),
		300, time.Date(1995, 1, 1, 0, 0, 0, 0, time.UTC), "AIR", 20.5)
	agg, err := db.PrepareContext(deadline(), `SELECT l_returnflag, count(*), sum(l_extendedprice) FROM lineitem
		WHERE l_discount >= $1 GROUP BY 1 ORDER BY 1`)
	if err != nil {
		fail("prepare", err)
	}
	defer agg.Close()
	for _, d := range []string{"0.05", "0.09", "1"} {
		show("prepared aggregate "+d, agg.QueryContext, d)
	}
}

// nulls: NULL parameters, NULL results, and Null* scans.
func nulls() {
	show("null params", query(`SELECT $1::integer IS NULL, $2::text, coalesce($3::date, date '2000-01-01'), $4::numeric`),
		nil, nil, nil, nil)
	show("null results", query(`SELECT NULL::integer, NULL::text, nullif(l_linenumber, 1), CASE WHEN l_linenumber > 2 THEN l_comment END
		FROM lineitem WHERE l_orderkey <= 3 ORDER BY l_orderkey, l_linenumber`))
	var (
		ni sql.NullInt64
		ns sql.NullString
		nt sql.NullTime
		nf sql.NullFloat64
	)
	err := db.QueryRowContext(deadline(), `SELECT NULL::bigint, 'set'::text, NULL::timestamp, NULL::double precision`).Scan(&ni, &ns, &nt, &nf)
	if err != nil {
		fail("null scan", err)
	}
	fmt.Printf("null scan %+v %+v %+v %+v\n", ni, ns, nt, nf)
}

// transactions: a rolled-back and a committed insert, a prepared
// statement inside a transaction, and a transaction that fails (25P02)
// and is rolled back.
func transactions() {
	exec("create", `CREATE TABLE pq_tx (id integer, name text, amount numeric(10,2), at date)`)
	count := query(`SELECT count(*), coalesce(sum(amount), 0) FROM pq_tx`)
	tx, err := db.BeginTx(deadline(), nil)
	if err != nil {
		fail("begin", err)
	}
	if _, err := tx.ExecContext(deadline(), `INSERT INTO pq_tx VALUES ($1, $2, $3, $4)`, 1, "rolled back", "9.99", time.Date(2020, 5, 6, 0, 0, 0, 0, time.UTC)); err != nil {
		printErr("insert", err)
	}
	show("in the transaction", func(ctx context.Context, args ...any) (*sql.Rows, error) {
		return tx.QueryContext(ctx, `SELECT count(*) FROM pq_tx`, args...)
	})
	if err := tx.Rollback(); err != nil {
		fail("rollback", err)
	}
	show("after rollback", count)

	tx, err = db.BeginTx(deadline(), nil)
	if err != nil {
		fail("begin", err)
	}
	ins, err := tx.PrepareContext(deadline(), `INSERT INTO pq_tx VALUES ($1, $2, $3, $4)`)
	if err != nil {
		fail("prepare in transaction", err)
	}
	for i := 1; i <= 3; i++ {
		var name any = fmt.Sprintf("row %d", i)
		if i == 2 {
			name = nil
		}
		if _, err := ins.ExecContext(deadline(), i, name, fmt.Sprintf("%d.50", i), time.Date(2020, 1, i, 0, 0, 0, 0, time.UTC)); err != nil {
			printErr("insert", err)
		}
	}
	ins.Close()
	if err := tx.Commit(); err != nil {
		fail("commit", err)
	}
	show("after commit", query(`SELECT id, name, amount, at FROM pq_tx ORDER BY id`))

	tx, err = db.BeginTx(deadline(), nil)
	if err != nil {
		fail("begin", err)
	}
	if _, err := tx.ExecContext(deadline(), `SELECT 1 / 0`); err != nil {
		printErr("failing statement", err)
	}
	if _, err := tx.ExecContext(deadline(), `SELECT 1`); err != nil {
		printErr("after the failure", err)
	}
	if err := tx.Rollback(); err != nil {
		fail("rollback of the failed transaction", err)
	}
	show("after the failed transaction", count)
}

// copyIn: pq.CopyIn's COPY FROM STDIN, rows with NULLs, tabs, newlines,
// backslashes and non-ASCII text, in a transaction.
func copyIn() {
	exec("create copy table", `CREATE TABLE pq_copy (id bigint, qty numeric(15,2), day date, ts timestamp, flag boolean, note text, code varchar(8))`)
	tx, err := db.BeginTx(deadline(), nil)
	if err != nil {
		fail("begin", err)
	}
	st, err := tx.PrepareContext(deadline(), pq.CopyIn("pq_copy", "id", "qty", "day", "ts", "flag", "note", "code"))
	if err != nil {
		fail("copy in", err)
	}
	notes := []any{"plain", "tab\there", "line\nbreak", `back\slash`, "héllo wörld 日本", nil, "", `\N`, "trailing space "}
	n := 0
	for i, note := range notes {
		var flag any = i%2 == 0
		if i == 4 {
			flag = nil
		}
		_, err := st.ExecContext(deadline(), int64(i)*1_000_000_007, fmt.Sprintf("%d.%02d", i*7, i), time.Date(2000+i, time.Month(i%12+1), i+1, 0, 0, 0, 0, time.UTC),
			time.Date(2024, 3, 10, i, i, i, i*1000, time.UTC), flag, note, fmt.Sprintf("c%d", i))
		if err != nil {
			fail("copy row", err)
		}
		n++
	}
	res, err := st.ExecContext(deadline())
	if err != nil {
		printErr("copy end", err)
	} else if rows, err := res.RowsAffected(); err == nil {
		fmt.Println("copy in", n, "rows sent,", rows, "affected")
	}
	if err := st.Close(); err != nil {
		fail("copy close", err)
	}
	if err := tx.Commit(); err != nil {
		fail("copy commit", err)
	}
	show("copied", query(`SELECT id, qty, day, ts, flag, note, code, length(note) FROM pq_copy ORDER BY id`))

	// a bad row: the COPY fails with its SQLSTATE and nothing is loaded
	tx, err = db.BeginTx(deadline(), nil)
	if err != nil {
		fail("begin", err)
	}
	st, err = tx.PrepareContext(deadline(), pq.CopyIn("pq_copy", "id", "code"))
	if err != nil {
		fail("copy in", err)
	}
	_, err1 := st.ExecContext(deadline(), 1, "fine")
	_, err2 := st.ExecContext(deadline(), "not a number", "bad")
	_, err3 := st.ExecContext(deadline())
	for _, err := range []error{err1, err2, err3} {
		if err != nil {
			printErr("bad copy", err)
			break
		}
	}
	st.Close()
	tx.Rollback()
	show("after the bad copy", query(`SELECT count(*) FROM pq_copy`))
}

// errorsAndRecovery: errors with their SQLSTATE, in the simple and the
// extended protocol; the connection goes on after each.
func errorsAndRecovery() {
	for _, c := range []struct {
		label, sql string
		args       []any
	}{
		{"unknown column", `SELECT nosuch FROM lineitem`, nil},
		{"unknown table", `SELECT * FROM nosuch`, nil},
		{"syntax", `SELEC 1`, nil},
		{"division by zero", `SELECT l_orderkey / 0 FROM lineitem`, nil},
		{"bad parameter", `SELECT $1::integer`, []any{"abc"}},
		{"out of range parameter", `SELECT $1::smallint`, []any{70000}},
		{"division by zero, extended", `SELECT $1::integer / 0`, []any{1}},
		{"bad date parameter", `SELECT $1::date`, []any{"2024-02-30"}},
		{"unknown column, extended", `SELECT nosuch FROM lineitem WHERE l_orderkey = $1`, []any{1}},
	} {
		show(c.label, query(c.sql), c.args...)
		show("  then", query(`SELECT count(*) FROM lineitem WHERE l_orderkey < 100`))
	}
}
