package wire_test

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/gpusql/gpusql/wire"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
)

// A real driver against the server and the scripted engine: pgx in its
// default mode prepares (Describe of a statement), then asks for binary
// results for the types it knows; the simple protocol mode sends Query.
func TestPgxClient(t *testing.T) {
	h := newHarness(t, wire.Config{})
	ctx, cancel := context.WithTimeout(context.Background(), safetyDeadline)
	defer cancel()
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeDescribeExec,
		pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol} {
		t.Run(mode.String(), func(t *testing.T) {
			cfg, err := pgx.ParseConfig("postgres://alice@" + h.addr + "/db?sslmode=prefer")
			if err != nil {
				t.Fatal(err)
			}
			cfg.DefaultQueryExecMode = mode
			conn, err := pgx.ConnectConfig(ctx, cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close(ctx)

			var (
				i8 *int64
				f8 float64
				b  bool
				d  time.Time
				ts time.Time
				n  pgtype.Numeric
				iv pgtype.Interval
				s  string
			)
			rows, err := conn.Query(ctx, "select typed")
			if err != nil {
				t.Fatal(err)
			}
			var got int
			for rows.Next() {
				if err := rows.Scan(&i8, &f8, &b, &d, &ts, &n, &iv, &s); err != nil {
					t.Fatal(err)
				}
				if got == 0 {
					nf, _ := n.Float64Value()
					if i8 == nil || *i8 != -9000000000 || f8 != 2.5 || !b || d.Format(time.DateOnly) != "1995-03-15" ||
						ts.Format("2006-01-02 15:04:05.000000") != "1999-12-31 23:59:58.123456" || nf.Float64 != -12345.67 ||
						iv.Months != 14 || iv.Days != 3 || iv.Microseconds != 14706500000 || s != "héllo" {
						t.Errorf("row 1: %v %v %v %v %v %v %+v %q", i8, f8, b, d, ts, nf, iv, s)
					}
				} else if i8 != nil || !math.IsNaN(f8) || b || !ts.Equal(time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)) {
					t.Errorf("row 2: %v %v %v %v", i8, f8, b, ts)
				}
				got++
			}
			if err := rows.Err(); err != nil || got != 2 {
				t.Fatalf("rows: %d, %v", got, err)
			}
			if _, err := conn.Exec(ctx, "create table t"); err != nil {
				t.Fatal(err)
			}
			_, err = conn.Exec(ctx, "fail")
			var pe *pgconn.PgError
			if !errors.As(err, &pe) || pe.Code != "22012" || pe.Position != 8 {
				t.Fatalf("error = %v", err)
			}
			// The session survives the error.
			var one int32
			if err := conn.QueryRow(ctx, "select 1").Scan(&one); err != nil || one != 1 {
				t.Fatalf("select 1 = %d, %v", one, err)
			}
		})
	}
}
