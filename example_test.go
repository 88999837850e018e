package gpusql_test

import (
	"context"
	"database/sql"
	"fmt"
	"log"
	"math/big"
	"os"
	"path/filepath"

	"github.com/gpusql/gpusql"
)

// A table from a CSV file, queried through the embedded API.
func Example() {
	dir, err := os.MkdirTemp("", "gpusql-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	csv := "id,fare,note\n1,12.50,short\n2,31.25,long\n3,,unknown\n"
	if err := os.WriteFile(filepath.Join(dir, "trips.csv"), []byte(csv), 0o644); err != nil {
		log.Fatal(err)
	}

	db, err := gpusql.Open(gpusql.Options{FileRoot: dir, Device: "cpu"})
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	tag, err := db.Exec(ctx, `CREATE TABLE trips (id bigint, fare numeric(10,2), note text) FROM CSV 'trips.csv' WITH (HEADER true)`)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(tag)

	rows, err := db.Query(ctx, `SELECT id, fare, note FROM trips WHERE id >= $1 ORDER BY id`, 2)
	if err != nil {
		log.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var fare *big.Rat // nil for NULL
		var note string
		if err := rows.Scan(&id, &fare, &note); err != nil {
			log.Fatal(err)
		}
		if fare == nil {
			fmt.Println(id, "NULL", note)
		} else {
			fmt.Println(id, fare.FloatString(2), note)
		}
	}
	if err := rows.Err(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// CREATE TABLE
	// 2 31.25 long
	// 3 NULL unknown
}

// The same engine through database/sql.
func ExampleNewConnector() {
	dir, err := os.MkdirTemp("", "gpusql-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "n.csv"), []byte("1\n2\n3\n"), 0o644); err != nil {
		log.Fatal(err)
	}
	c, err := gpusql.NewConnector(gpusql.Options{FileRoot: dir, Device: "cpu"})
	if err != nil {
		log.Fatal(err)
	}
	db := sql.OpenDB(c) // or sql.Open("gpusql", "file_root=/path device=cpu")
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE n (x integer) FROM CSV 'n.csv'`); err != nil {
		log.Fatal(err)
	}
	var sum int64
	if err := db.QueryRow(`SELECT sum(x) FROM n WHERE x > $1`, 1).Scan(&sum); err != nil {
		log.Fatal(err)
	}
	fmt.Println(sum)
	// Output: 5
}
