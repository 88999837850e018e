package main

// Binary COPY against PostgreSQL 15: pgx's CopyFrom loads the same rows
// into both servers, and COPY ... TO STDOUT (FORMAT binary) must then give
// the same bytes; broken binary input must fail with PostgreSQL's SQLSTATE,
// message and CONTEXT, and load nothing. With GPUSQL_TEST_DEVICE=cuda the
// gpusql side runs on the GPU backend.

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
)

const binTableDDL = `(i integer, s smallint, b bigint, r real, d double precision, n numeric(12,3),
	day date, ts timestamp, tz timestamptz, tm time, flag boolean, v varchar(10), c char(4), t text)`

var binColumns = []string{"i", "s", "b", "r", "d", "n", "day", "ts", "tz", "tm", "flag", "v", "c", "t"}

// binRows are nasty fixed rows, then random ones (seeded).
func binRows(n int) [][]any {
	num := func(i int64, exp int32) pgtype.Numeric {
		return pgtype.Numeric{Int: big.NewInt(i), Exp: exp, Valid: true}
	}
	utc := func(y, mo, d, h, mi, s, us int) time.Time {
		return time.Date(y, time.Month(mo), d, h, mi, s, us*1000, time.UTC)
	}
	tm := func(us int64) pgtype.Time { return pgtype.Time{Microseconds: us, Valid: true} }
	rows := [][]any{
		{int32(1), int16(2), int64(1) << 40, float32(1.5), 2.25, num(123456, -3), utc(2024, 2, 29, 0, 0, 0, 0),
			utc(2024, 1, 2, 3, 4, 5, 678901), utc(2024, 1, 2, 3, 4, 5, 0), tm(86_399_999_999), true, "héllo", "ab",
			"tab\there\nnewline \\ back\r\\N"},
		{nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil},
		{int32(math.MinInt32), int16(math.MinInt16), int64(math.MinInt64), float32(math.Inf(1)), math.NaN(), num(-1, -3),
			utc(1, 1, 1, 0, 0, 0, 0), utc(1970, 1, 1, 0, 0, 0, 0), utc(1969, 12, 31, 23, 59, 59, 999999), tm(0), false, "", "abcd", ""},
		{int32(math.MaxInt32), int16(math.MaxInt16), int64(math.MaxInt64), float32(math.Inf(-1)), math.Copysign(0, -1),
			num(999999999999, -3), utc(9999, 12, 31, 0, 0, 0, 0), utc(9999, 12, 31, 23, 59, 59, 999999),
			utc(2000, 1, 1, 0, 0, 0, 0), tm(86_400_000_000), true, "0123456789", "wxyz", strings.Repeat("é", 300)},
		// Scale beyond the column's is rounded; a positive exponent.
		{int32(0), int16(0), int64(0), float32(math.SmallestNonzeroFloat32), math.SmallestNonzeroFloat64, num(123456789, -8),
			utc(1999, 12, 31, 0, 0, 0, 0), utc(1600, 3, 1, 12, 0, 0, 1), utc(2262, 4, 11, 23, 47, 16, 854775),
			tm(1), false, "  spaces  ", "a  ", " lead"},
		{int32(-1), int16(-1), int64(-1), float32(-3.4028235e38), -1.7976931348623157e308, num(5, 3),
			utc(2000, 1, 1, 0, 0, 0, 0), utc(2000, 1, 1, 0, 0, 0, 0), utc(1901, 12, 13, 20, 45, 52, 0),
			tm(43_200_000_000), true, "日本語テキスト", "日本", "emoji 🎉"},
	}
	rng := rand.New(rand.NewSource(15))
	runes := []rune("abcxyz ,;\"'\\\t\néß日🎉.-0")
	str := func(max int) string {
		var b strings.Builder
		for k := rng.Intn(max + 1); k > 0; k-- {
			b.WriteRune(runes[rng.Intn(len(runes))])
		}
		return b.String()
	}
	for k := 0; k < n; k++ {
		row := []any{int32(rng.Uint32()), int16(rng.Uint32()), int64(rng.Uint64()), float32(rng.NormFloat64() * 1e6),
			rng.NormFloat64() * math.Pow(10, float64(rng.Intn(40)-20)), num(rng.Int63n(2e8)-1e8, -int32(rng.Intn(6))),
			utc(1+rng.Intn(9999), 1+rng.Intn(12), 1+rng.Intn(28), 0, 0, 0, 0),
			utc(1+rng.Intn(9999), 1+rng.Intn(12), 1+rng.Intn(28), rng.Intn(24), rng.Intn(60), rng.Intn(60), rng.Intn(1_000_000)),
			utc(1800+rng.Intn(400), 1+rng.Intn(12), 1+rng.Intn(28), rng.Intn(24), rng.Intn(60), rng.Intn(60), rng.Intn(1_000_000)),
			tm(rng.Int63n(86_400_000_001)), rng.Intn(2) == 0, str(10), strings.TrimRight(str(4), " "), str(40)}
		for c := range row {
			if rng.Intn(10) == 0 {
				row[c] = nil
			}
		}
		rows = append(rows, row)
	}
	return rows
}

func pgxConn(t *testing.T, dsn string) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

// copyOut runs a COPY ... TO STDOUT and returns its bytes, or the error.
func copyOut(c *pgx.Conn, sql string) ([]byte, error) {
	var buf bytes.Buffer
	_, err := c.PgConn().CopyTo(context.Background(), &buf, sql)
	return buf.Bytes(), err
}

// errText is the parts of an error a client sees: SQLSTATE, message,
// CONTEXT.
func errText(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return fmt.Sprintf("%s %s [%s]", pe.Code, pe.Message, pe.Where)
	}
	if err == nil {
		return "ok"
	}
	return err.Error()
}

func TestCopyBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: starts PostgreSQL")
	}
	binDir := requirePG(t)
	device := "cpu"
	if d := os.Getenv("GPUSQL_TEST_DEVICE"); d != "" {
		device = d
	}
	root := t.TempDir()
	gp := startGpusqlOn(t, root, device)
	pg := startPGTCP(t, binDir)
	ctx := context.Background()
	servers := []struct {
		name string
		c    *pgx.Conn
	}{
		{"gpusql", pgxConn(t, fmt.Sprintf("host=127.0.0.1 port=%d user=postgres dbname=postgres sslmode=disable", gp.port))},
		{"postgres", pgxConn(t, pg.connString())},
	}
	// both runs sql on both servers and returns each one's result.
	both := func(f func(c *pgx.Conn) string) (string, string) {
		return f(servers[0].c), f(servers[1].c)
	}
	for _, s := range servers {
		for _, sql := range []string{"SET TimeZone = 'UTC'", "CREATE TABLE bin " + binTableDDL, "CREATE TABLE bad " + binTableDDL} {
			if _, err := s.c.Exec(ctx, sql); err != nil {
				t.Fatalf("%s: %s: %v", s.name, sql, err)
			}
		}
	}
	rows := binRows(3000)

	t.Run("pgx CopyFrom round trip", func(t *testing.T) {
		for _, s := range servers {
			n, err := s.c.CopyFrom(ctx, pgx.Identifier{"bin"}, binColumns, pgx.CopyFromRows(rows))
			if err != nil || n != int64(len(rows)) {
				t.Fatalf("%s: CopyFrom: %d rows, %v", s.name, n, err)
			}
		}
		for _, sql := range []string{
			"COPY (SELECT * FROM bin ORDER BY i, s, b, d, n, day, ts, tz, tm, t, v) TO STDOUT (FORMAT binary)",
			"COPY (SELECT * FROM bin WHERE false) TO STDOUT WITH BINARY",
			"COPY (SELECT i, n * 2 AS n2, sum(n) OVER () AS total, day + 1 AS next, ts - timestamp '2000-01-01' AS since, " +
				"upper(t) AS up, c || 'x' AS cx, r::double precision AS rd FROM bin ORDER BY i, s, b, d, n, day, ts, tz, tm, t, v) TO STDOUT (FORMAT binary)",
			"COPY (SELECT count(*), avg(n), sum(b::numeric) FROM bin) TO STDOUT (FORMAT binary)",
		} {
			var outs [2][]byte
			for k, s := range servers {
				b, err := copyOut(s.c, sql)
				if err != nil {
					t.Fatalf("%s: %s: %v", s.name, sql, err)
				}
				outs[k] = b
			}
			if !bytes.Equal(outs[0], outs[1]) {
				at := 0
				for at < len(outs[0]) && at < len(outs[1]) && outs[0][at] == outs[1][at] {
					at++
				}
				t.Errorf("%s: gpusql's %d bytes differ from PostgreSQL's %d at byte %d:\n gpusql:   % x\n postgres: % x",
					sql, len(outs[0]), len(outs[1]), at, outs[0][max(0, at-16):min(len(outs[0]), at+32)], outs[1][max(0, at-16):min(len(outs[1]), at+32)])
			}
		}
		// The binary COPY TO must also read back in: gpusql's own output
		// reloaded gives the same table.
		out, err := copyOut(servers[0].c, "COPY bin TO STDOUT (FORMAT binary)")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := servers[0].c.Exec(ctx, "CREATE TABLE bin2 "+binTableDDL); err != nil {
			t.Fatal(err)
		}
		if _, err := servers[0].c.PgConn().CopyFrom(ctx, bytes.NewReader(out), "COPY bin2 FROM STDIN (FORMAT binary)"); err != nil {
			t.Fatal(err)
		}
		again, err := copyOut(servers[0].c, "COPY bin2 TO STDOUT (FORMAT binary)")
		if err != nil || !bytes.Equal(again, out) {
			t.Errorf("reloaded table differs (%v)", err)
		}
		// A server-side binary file, gzipped, loads the same rows.
		compressTo(t, filepath.Join(root, "bin.dat.gz"), out)
		if _, err := servers[0].c.Exec(ctx, "CREATE TABLE bin3 "+binTableDDL+" FROM CSV 'bin.dat.gz' WITH (FORMAT binary)"); err != nil {
			t.Fatal(err)
		}
		if again, err := copyOut(servers[0].c, "COPY bin3 TO STDOUT (FORMAT binary)"); err != nil || !bytes.Equal(again, out) {
			t.Errorf("table from the binary file differs (%v)", err)
		}
	})

	// A valid stream of the "bad" table's 14 columns, for the cases to
	// break: header, then rows built by row().
	header := []byte("PGCOPY\n\xff\r\n\x00\x00\x00\x00\x00\x00\x00\x00\x00")
	field := func(b []byte) []byte {
		if b == nil {
			return []byte{0xff, 0xff, 0xff, 0xff}
		}
		return append(binary.BigEndian.AppendUint32(nil, uint32(len(b))), b...)
	}
	// row is a tuple of NULLs except the given fields (column index ->
	// raw field bytes).
	row := func(set map[int][]byte) []byte {
		out := binary.BigEndian.AppendUint16(nil, 14)
		for c := 0; c < 14; c++ {
			out = append(out, field(set[c])...)
		}
		return out
	}
	u16 := func(v ...uint16) []byte {
		var b []byte
		for _, x := range v {
			b = binary.BigEndian.AppendUint16(b, x)
		}
		return b
	}
	good := row(map[int][]byte{0: {0, 0, 0, 7}, 11: []byte("ok")})
	trailer := []byte{0xff, 0xff}
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	cases := []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"bad signature", []byte("PGCOPY\n\xff\r\n\x01")},
		{"short signature", []byte("PGCO")},
		{"missing flags", []byte("PGCOPY\n\xff\r\n\x00\x00\x00")},
		{"oids flag", cat([]byte("PGCOPY\n\xff\r\n\x00"), []byte{0, 1, 0, 0, 0, 0, 0, 0})},
		{"critical flag", cat([]byte("PGCOPY\n\xff\r\n\x00"), []byte{0, 2, 0, 0, 0, 0, 0, 0})},
		{"negative extension", cat([]byte("PGCOPY\n\xff\r\n\x00"), []byte{0, 0, 0, 0, 0xff, 0, 0, 0})},
		{"short extension", cat([]byte("PGCOPY\n\xff\r\n\x00"), []byte{0, 0, 0, 0, 0, 0, 0, 9, 1, 2})},
		{"extension skipped", cat([]byte("PGCOPY\n\xff\r\n\x00"), []byte{0, 0, 0x80, 0, 0, 0, 0, 2, 1, 2}, good, trailer)},
		{"header only", header},
		{"no trailer", cat(header, good, good)},
		{"stray byte", cat(header, good, []byte{0})},
		{"data after trailer", cat(header, good, trailer, []byte{1})},
		{"field count", cat(header, good, u16(3), field([]byte{0, 0, 0, 1}))},
		{"truncated field length", cat(header, good, u16(14), []byte{0, 0})},
		{"truncated field", cat(header, good, u16(14), []byte{0, 0, 0, 4, 0, 0})},
		{"invalid field size", cat(header, good, u16(14), []byte{0xff, 0xff, 0xff, 0xfe})},
		{"int4 too long", cat(header, good, row(map[int][]byte{0: {0, 0, 0, 0, 1}}))},
		{"int4 too short", cat(header, good, row(map[int][]byte{0: {0, 1}}))},
		{"bool empty", cat(header, row(map[int][]byte{10: {}}))},
		{"bool two", cat(header, row(map[int][]byte{10: {1, 1}}))},
		{"bool 7 is true", cat(header, row(map[int][]byte{10: {7}}), trailer)},
		{"numeric sign", cat(header, row(map[int][]byte{5: u16(1, 0, 0x1234, 0, 5)}))},
		{"numeric digit", cat(header, row(map[int][]byte{5: u16(1, 0, 0, 0, 10000)}))},
		{"numeric scale", cat(header, row(map[int][]byte{5: u16(1, 0, 0, 0x4000, 5)}))},
		{"numeric short", cat(header, row(map[int][]byte{5: u16(2, 0, 0, 0, 5)}))},
		{"numeric overflow", cat(header, good, row(map[int][]byte{5: u16(1, 3, 0, 0, 1)}))},
		{"numeric hidden digits cut", cat(header, row(map[int][]byte{5: u16(2, 0, 0x4000, 1, 1, 9999)}), trailer)},
		{"date out of range", cat(header, row(map[int][]byte{6: {0x80, 0, 0, 1}}))},
		{"timestamp out of range", cat(header, row(map[int][]byte{7: {0x80, 0, 0, 0, 0, 0, 0, 1}}))},
		{"time out of range", cat(header, row(map[int][]byte{9: {0, 0, 0, 0x14, 0x1d, 0xda, 0x20, 0x01}}))},
		{"text nul", cat(header, row(map[int][]byte{13: []byte("a\x00b")}))},
		{"text bad utf8", cat(header, row(map[int][]byte{13: []byte("ab\xc3\x28")}))},
		{"varchar too long", cat(header, good, row(map[int][]byte{11: []byte("01234567890")}))},
		{"varchar spaces cut", cat(header, row(map[int][]byte{11: []byte("0123456789   ")}), trailer)},
		{"char too long", cat(header, row(map[int][]byte{12: []byte("abcde")}))},
	}
	t.Run("bad input", func(t *testing.T) {
		for _, tc := range cases {
			gpErr, pgErr := both(func(c *pgx.Conn) string {
				_, err := c.PgConn().CopyFrom(ctx, bytes.NewReader(tc.data), "COPY bad FROM STDIN (FORMAT binary)")
				return errText(err)
			})
			if gpErr != pgErr {
				t.Errorf("%s:\n gpusql:   %s\n postgres: %s", tc.name, gpErr, pgErr)
			}
			// The table holds what PostgreSQL's holds: nothing from a
			// failed COPY.
			gpOut, pgOut := both(func(c *pgx.Conn) string {
				b, err := copyOut(c, "COPY bad TO STDOUT")
				return fmt.Sprintf("%q %v", b, err)
			})
			if gpOut != pgOut {
				t.Errorf("%s: table after the COPY:\n gpusql:   %s\n postgres: %s", tc.name, gpOut, pgOut)
			}
		}
	})

	t.Run("numeric NaN", func(t *testing.T) {
		// gpusql's numeric columns cannot hold NaN (docs/csv.md): 0A000,
		// and nothing loaded.
		_, err := servers[0].c.PgConn().CopyFrom(ctx, bytes.NewReader(cat(header, good, row(map[int][]byte{5: u16(0, 0, 0xC000, 0)}))),
			"COPY bin FROM STDIN (FORMAT binary)")
		if got := errText(err); got != "0A000 cannot store NaN in type numeric(12,3) [COPY bin, line 2, column n]" {
			t.Errorf("got %s", got)
		}
		var n int64
		if err := servers[0].c.QueryRow(ctx, "SELECT count(*) FROM bin").Scan(&n); err != nil || n != int64(len(rows)) {
			t.Errorf("bin has %d rows (%v), want %d", n, err, len(rows))
		}
	})

	t.Run("options", func(t *testing.T) {
		for _, sql := range []string{
			"COPY bad FROM STDIN (FORMAT binary, HEADER)",
			"COPY bad FROM STDIN (FORMAT binary, DELIMITER ',')",
			"COPY bad FROM STDIN (FORMAT binary, NULL 'x')",
			"COPY bad FROM STDIN (FORMAT binary, QUOTE '\"')",
			"COPY bad FROM STDIN (FORMAT binary, ESCAPE '\"')",
			"COPY bad TO STDOUT (FORMAT binary, FORCE_QUOTE *)",
			"COPY bad TO STDOUT (FORMAT binary, HEADER)",
		} {
			gpErr, pgErr := both(func(c *pgx.Conn) string {
				var err error
				if strings.Contains(sql, " FROM ") {
					_, err = c.PgConn().CopyFrom(ctx, bytes.NewReader(header), sql)
				} else {
					_, err = copyOut(c, sql)
				}
				var pe *pgconn.PgError
				if errors.As(err, &pe) {
					return pe.Code + " " + pe.Message
				}
				return errText(err)
			})
			if gpErr != pgErr {
				t.Errorf("%s:\n gpusql:   %s\n postgres: %s", sql, gpErr, pgErr)
			}
		}
	})
}
