package main

// Parquet loads through the server as the command wires it: the same rows
// written as Parquet (several row groups, NULLs, a dictionary column) and
// as CSV load as the same table, a glob of Parquet files appends them all,
// and queries over both tables agree. With GPUSQL_TEST_DEVICE=cuda the
// Parquet rows are uploaded to the GPU (the backend's Store) and the
// queries run there. The table is written back as Parquet (COPY TO a file
// and TO STDOUT), from the GPU's results there, and read again.

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/gpusql/gpusql/loader/pqfile/pqgen"
)

func TestLoadParquet(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	root := t.TempDir()
	const n = 60_000
	cols := []pqgen.Col{
		{Name: "a_id", Node: parquet.Int(64)},
		{Name: "b_qty", Node: parquet.Int(16)},
		{Name: "c_price", Node: parquet.Optional(parquet.Decimal(2, 12, parquet.Int64Type))},
		{Name: "d_ship", Node: parquet.Date()},
		{Name: "e_at", Node: parquet.Optional(parquet.TimestampAdjusted(parquet.Millisecond, false))},
		{Name: "f_disc", Node: parquet.Leaf(parquet.DoubleType)},
		{Name: "g_flag", Node: parquet.Encoded(parquet.String(), &parquet.RLEDictionary)},
		{Name: "h_comment", Node: parquet.Optional(parquet.String())},
		{Name: "i_ok", Node: parquet.Optional(parquet.Leaf(parquet.BooleanType))},
		{Name: "j_small", Node: parquet.Optional(parquet.Leaf(parquet.FloatType))},
	}
	ddl := "a_id bigint, b_qty smallint, c_price numeric(12,2), d_ship date, e_at timestamp, f_disc double precision, g_flag text, h_comment text, i_ok boolean, j_small real"
	rows := make([][]parquet.Value, n)
	var csv strings.Builder
	base := time.Date(1965, 3, 1, 0, 0, 0, 0, time.UTC)
	for i := range rows {
		price, priceText := parquet.Int64Value(int64(i)*977-5_000_000), fmt.Sprintf("%.2f", float64(int64(i)*977-5_000_000)/100)
		if i%13 == 0 {
			price, priceText = parquet.NullValue(), ""
		}
		ship := base.AddDate(0, 0, i%30000)
		at := base.Add(time.Duration(i) * 7919 * time.Second).Add(time.Duration(i%1000) * time.Millisecond)
		atV, atText := parquet.Int64Value(at.UnixMilli()), at.Format("2006-01-02 15:04:05.000")
		if i%17 == 0 {
			atV, atText = parquet.NullValue(), ""
		}
		flag := []string{"A", "N", "R", "Ä"}[i%4]
		comment, commentText := parquet.ByteArrayValue([]byte(fmt.Sprintf("note %d, ü", i%997))), fmt.Sprintf(`"note %d, ü"`, i%997)
		if i%5 == 0 {
			comment, commentText = parquet.NullValue(), ""
		}
		ok, okText := parquet.BooleanValue(i%3 == 0), fmt.Sprint(i%3 == 0)
		if i%7 == 0 {
			ok, okText = parquet.NullValue(), ""
		}
		small, smallText := parquet.FloatValue(float32(i%200)/8), fmt.Sprint(float32(i%200)/8)
		if i%11 == 0 {
			small, smallText = parquet.NullValue(), ""
		}
		rows[i] = []parquet.Value{parquet.Int64Value(int64(i)), parquet.Int32Value(int32(i%32768 - 16384)), price,
			parquet.Int32Value(int32(ship.Unix() / 86400)), atV, parquet.DoubleValue(float64(i%101) / 7), parquet.ByteArrayValue([]byte(flag)),
			comment, ok, small}
		fmt.Fprintf(&csv, "%d,%d,%s,%s,%s,%v,%s,%s,%s,%s\n", i, i%32768-16384, priceText, ship.Format("2006-01-02"), atText,
			float64(i%101)/7, flag, commentText, okText, smallText)
	}
	if err := pqgen.Write(filepath.Join(root, "t.parquet"), cols, rows, pqgen.Options{RowsPerGroup: 7000, Codec: &parquet.Snappy}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "t.csv"), []byte(csv.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(root, "parts"), 0o755); err != nil {
		t.Fatal(err)
	}
	for p := 0; p < 3; p++ {
		part := rows[p*n/3 : (p+1)*n/3]
		if err := pqgen.Write(filepath.Join(root, "parts", fmt.Sprintf("t-%d.parquet", p)), cols, part, pqgen.Options{RowsPerGroup: 4096}); err != nil {
			t.Fatal(err)
		}
	}

	device := "cpu"
	if d := os.Getenv("GPUSQL_TEST_DEVICE"); d != "" {
		device = d
	}
	gp := startGpusqlOn(t, root, device)
	ctx := context.Background()
	c, err := gp.connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	exec := func(sql string) {
		t.Helper()
		if _, err := c.Exec(ctx, sql).ReadAll(); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	dump := func(sql string) []byte {
		t.Helper()
		var buf bytes.Buffer
		if _, err := c.CopyTo(ctx, &buf, "COPY ("+sql+") TO STDOUT"); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		return buf.Bytes()
	}
	exec(`CREATE TABLE pq FROM PARQUET 't.parquet'`)
	exec(`CREATE TABLE cs (` + ddl + `) FROM CSV 't.csv'`)
	exec(`CREATE TABLE globbed FROM PARQUET 'parts/t-*.parquet'`)
	exec(`CREATE TABLE copied (` + ddl + `)`)
	exec(`COPY copied FROM 'parts/t-*.parquet' WITH (FORMAT parquet)`)
	// Written back as Parquet, by the server to a file and to the client
	// through COPY TO STDOUT, and read again: the same rows.
	exec(`COPY (SELECT * FROM pq ORDER BY a_id DESC) TO 'written.parquet' WITH (FORMAT parquet)`)
	var pqOut bytes.Buffer
	if tag, err := c.CopyTo(ctx, &pqOut, `COPY pq TO STDOUT WITH (FORMAT parquet)`); err != nil || tag.RowsAffected() != n {
		t.Fatalf("COPY TO STDOUT parquet: %v, %v", tag, err)
	}
	if err := os.WriteFile(filepath.Join(root, "streamed.parquet"), pqOut.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	exec(`CREATE TABLE written FROM PARQUET 'written.parquet'`)
	exec(`CREATE TABLE streamed FROM PARQUET 'streamed.parquet'`)
	queries := []string{
		`SELECT * FROM %s ORDER BY a_id`,
		`SELECT g_flag, count(*), count(c_price), sum(c_price), min(e_at), max(d_ship), sum(f_disc), count(h_comment), sum(b_qty), count(i_ok), sum(j_small) FROM %s GROUP BY g_flag ORDER BY g_flag`,
		`SELECT a_id, c_price FROM %s WHERE d_ship < DATE '1970-01-01' AND i_ok AND h_comment LIKE 'note 1%%' ORDER BY c_price DESC NULLS LAST, a_id LIMIT 50`,
	}
	for _, q := range queries {
		want := dump(fmt.Sprintf(q, "cs"))
		if len(want) == 0 {
			t.Fatalf("%s: no rows", q)
		}
		for _, table := range []string{"pq", "globbed", "copied", "written", "streamed"} {
			if got := dump(fmt.Sprintf(q, table)); !bytes.Equal(got, want) {
				t.Errorf("%s on %s: %d bytes differ from the CSV table's %d", q, table, len(got), len(want))
			}
		}
	}
}
