package main

import (
	"bytes"
	"context"
	"fmt"
	"math/big"
	"math/rand"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// TestWideNumericBinary: numeric(38,s) columns through the binary wire
// formats against PostgreSQL 15: pgx's binary CopyFrom loads the same
// rows into both, then COPY ... TO STDOUT (FORMAT binary) and a query
// whose results come in binary must give the same bytes and values.
// With GPUSQL_TEST_DEVICE=cuda the values have at most 18 digits at
// their scale (what the GPU backend holds; docs/gpu.md).
func TestWideNumericBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: starts PostgreSQL")
	}
	binDir := requirePG(t)
	device := "cpu"
	if d := os.Getenv("GPUSQL_TEST_DEVICE"); d != "" {
		device = d
	}
	digits := 38
	if device != "cpu" {
		digits = 18
	}
	gp := startGpusqlOn(t, t.TempDir(), device)
	pg := startPGTCP(t, binDir)
	ctx := context.Background()
	conns := []*pgx.Conn{
		pgxConn(t, fmt.Sprintf("host=127.0.0.1 port=%d user=postgres dbname=postgres sslmode=disable", gp.port)),
		pgxConn(t, pg.connString()),
	}
	nines := func(n int) *big.Int {
		v, _ := new(big.Int).SetString(strings.Repeat("9", n), 10)
		return v
	}
	num := func(i *big.Int, exp int32) pgtype.Numeric { return pgtype.Numeric{Int: i, Exp: exp, Valid: true} }
	// a, b, c: numeric(38,2), numeric(38,0), numeric(25,10)
	rows := [][]any{
		{int32(1), num(nines(digits), -2), num(nines(digits), 0), num(nines(min(digits, 25)), -10)},
		{int32(2), num(new(big.Int).Neg(nines(digits)), -2), num(new(big.Int).Neg(nines(digits)), 0), num(big.NewInt(-1), -10)},
		{int32(3), nil, nil, nil},
		{int32(4), num(big.NewInt(1), -2), num(big.NewInt(0), 0), num(big.NewInt(5), 3)},
		{int32(5), num(big.NewInt(12345), -5), num(big.NewInt(7), 2), num(big.NewInt(1), -12)}, // rounded to the scale
	}
	rng := rand.New(rand.NewSource(41))
	for k := 6; k < 500; k++ {
		r := func(d int) *big.Int {
			v := new(big.Int).Rand(rng, nines(1+rng.Intn(d)))
			if rng.Intn(2) == 0 {
				v.Neg(v)
			}
			return v
		}
		rows = append(rows, []any{int32(k), num(r(digits), -2), num(r(digits), 0), num(r(min(digits, 25)), -10)})
	}
	for i, c := range conns {
		if _, err := c.Exec(ctx, "CREATE TABLE wb (id integer, a numeric(38,2), b numeric(38,0), c numeric(25,10))"); err != nil {
			t.Fatal(i, err)
		}
		if n, err := c.CopyFrom(ctx, pgx.Identifier{"wb"}, []string{"id", "a", "b", "c"}, pgx.CopyFromRows(rows)); err != nil || n != int64(len(rows)) {
			t.Fatalf("server %d: CopyFrom: %d rows, %v", i, n, err)
		}
	}
	// parameters in binary, into the columns and in a filter
	for i, c := range conns {
		if _, err := c.Exec(ctx, "INSERT INTO wb VALUES ($1, $2, $3, $4)", int32(1000), num(new(big.Int).Neg(nines(digits)), -2),
			num(big.NewInt(-42), 0), num(big.NewInt(123456789), -9)); err != nil {
			t.Fatal(i, err)
		}
		var n int64
		if err := c.QueryRow(ctx, "SELECT count(*) FROM wb WHERE a = $1 OR b > $2", num(nines(digits), -2), num(nines(digits-1), 0)).Scan(&n); err != nil || n == 0 {
			t.Fatalf("server %d: a filter with binary parameters: %d rows, %v", i, n, err)
		}
	}
	for _, sql := range []string{
		"COPY (SELECT * FROM wb ORDER BY id) TO STDOUT (FORMAT binary)",
		"COPY (SELECT id, -a, b / 3, c * 2, a::numeric(38,0) FROM wb ORDER BY id) TO STDOUT (FORMAT binary)",
		"COPY (SELECT count(*), min(a), max(b), sum(c), avg(c) FROM wb) TO STDOUT (FORMAT binary)",
		"COPY (SELECT * FROM wb ORDER BY id) TO STDOUT",
	} {
		var outs [2][]byte
		for i, c := range conns {
			b, err := copyOut(c, sql)
			if err != nil {
				t.Fatalf("server %d: %s: %v", i, sql, err)
			}
			outs[i] = b
		}
		if !bytes.Equal(outs[0], outs[1]) {
			t.Errorf("%s: gpusql's %d bytes differ from PostgreSQL's %d", sql, len(outs[0]), len(outs[1]))
		}
	}
	// binary results of a query, decoded by pgx
	var got [2][]string
	for i, c := range conns {
		rs, err := c.Query(ctx, "SELECT a, b, c FROM wb ORDER BY id", pgx.QueryResultFormats{pgx.BinaryFormatCode})
		if err != nil {
			t.Fatal(i, err)
		}
		for rs.Next() {
			var a, b, cc pgtype.Numeric
			if err := rs.Scan(&a, &b, &cc); err != nil {
				t.Fatal(i, err)
			}
			var vs []string
			for _, n := range []pgtype.Numeric{a, b, cc} {
				v, err := n.Value()
				if err != nil {
					t.Fatal(i, err)
				}
				vs = append(vs, fmt.Sprint(v))
			}
			got[i] = append(got[i], strings.Join(vs, "|"))
		}
		if rs.Err() != nil {
			t.Fatal(i, rs.Err())
		}
	}
	if strings.Join(got[0], "\n") != strings.Join(got[1], "\n") || len(got[0]) != len(rows)+1 {
		t.Errorf("binary results differ: %d and %d rows, first %v and %v", len(got[0]), len(got[1]), got[0][:2], got[1][:2])
	}
}
