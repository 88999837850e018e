package gpusql_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpusql/gpusql"
)

// benchRows is the size of the benchmarks' table.
const benchRows = 1 << 20

// benchDB is an engine holding table b (id bigint, price numeric(12,2),
// tag text) of benchRows rows.
func benchDB(b *testing.B) *gpusql.DB {
	b.Helper()
	dir := b.TempDir()
	var sb strings.Builder
	for i := range benchRows {
		fmt.Fprintf(&sb, "%d,%d.%02d,tag%d\n", i, i%100000, i%100, i%97)
	}
	if err := os.WriteFile(filepath.Join(dir, "b.csv"), []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	db, err := gpusql.Open(gpusql.Options{FileRoot: dir, Device: "cpu"})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	if _, err := db.Exec(context.Background(), `CREATE TABLE b (id bigint, price numeric(12,2), tag text) FROM CSV 'b.csv'`); err != nil {
		b.Fatal(err)
	}
	return db
}

const benchQuery = `SELECT id, price, tag FROM b`

// BenchmarkStream compares, per row of a 1M-row result: the engine alone
// (Exec, rows formatted and dropped), the streaming Rows read with Scan,
// and database/sql over the driver.
func BenchmarkStream(b *testing.B) {
	db := benchDB(b)
	ctx := context.Background()
	report := func(b *testing.B) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchRows, "ns/row")
	}
	b.Run("engine-only", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := db.Exec(ctx, benchQuery); err != nil {
				b.Fatal(err)
			}
		}
		report(b)
	})
	b.Run("Rows.Scan", func(b *testing.B) {
		b.ReportAllocs()
		var id int64
		var price float64
		var tag []byte
		for b.Loop() {
			rows, err := db.Query(ctx, benchQuery)
			if err != nil {
				b.Fatal(err)
			}
			for rows.Next() {
				if err := rows.Scan(&id, &price, (*sql.RawBytes)(&tag)); err != nil {
					b.Fatal(err)
				}
			}
			if err := rows.Err(); err != nil {
				b.Fatal(err)
			}
			rows.Close()
		}
		report(b)
	})
	b.Run("database/sql", func(b *testing.B) {
		b.ReportAllocs()
		sdb := sql.OpenDB(gpusql.Connector(db))
		defer sdb.Close()
		var id int64
		var price float64
		var tag sql.RawBytes
		for b.Loop() {
			rows, err := sdb.QueryContext(ctx, benchQuery)
			if err != nil {
				b.Fatal(err)
			}
			for rows.Next() {
				if err := rows.Scan(&id, &price, &tag); err != nil {
					b.Fatal(err)
				}
			}
			if err := rows.Err(); err != nil {
				b.Fatal(err)
			}
			rows.Close()
		}
		report(b)
	})
}
