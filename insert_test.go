package gpusql_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/gpusql/gpusql"
)

// INSERT with parameters, as drivers send it (Parse, Bind, Execute): an
// untyped $n takes the type of the column it fills, as in PostgreSQL.
func TestInsertParameters(t *testing.T) {
	db := openDB(t, gpusql.Options{})
	ctx := context.Background()
	if _, err := db.Exec(ctx, `CREATE TABLE p (id int NOT NULL, name varchar(5), amount numeric(8,2), day date)`); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		sql  string
		args []any
		tag  string
	}{
		{`INSERT INTO p VALUES ($1, $2, $3, $4)`, []any{1, "one", "1.005", "2024-02-29"}, "INSERT 0 1"},
		{`INSERT INTO p (id, name) VALUES ($1, $2), ($3, 'x'), (4, $4)`, []any{2, "two", 3, "four"}, "INSERT 0 3"},
		{`INSERT INTO p (id, amount) SELECT $1, $2`, []any{5, 12.5}, "INSERT 0 1"},
		{`INSERT INTO p (id, amount) SELECT id + $1, amount FROM p WHERE id = $2`, []any{100, 1}, "INSERT 0 1"},
	} {
		tag, err := db.Exec(ctx, c.sql, c.args...)
		if err != nil || tag != c.tag {
			t.Errorf("%s %v: %q, %v", c.sql, c.args, tag, err)
		}
	}
	if _, err := db.Exec(ctx, `INSERT INTO p (id, name) VALUES ($1, $2)`, 6, "too long"); sqlstate(err) != "22001" {
		t.Errorf("a parameter too long for varchar(5): %v", err)
	}
	if _, err := db.Exec(ctx, `INSERT INTO p (id) VALUES ($1)`, nil); sqlstate(err) != "23502" {
		t.Errorf("a NULL parameter for a NOT NULL column: %v", err)
	}
	rows, err := db.Query(ctx, `SELECT id, name, amount, day FROM p ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var id int
		var name, amount, day *string
		if err := rows.Scan(&id, &name, &amount, &day); err != nil {
			t.Fatal(err)
		}
		s := func(p *string) string {
			if p == nil {
				return "NULL"
			}
			return *p
		}
		got = append(got, fmt.Sprintf("%d|%s|%s|%s", id, s(name), s(amount), s(day)))
	}
	want := []string{"1|one|1.01|2024-02-29", "2|two|NULL|NULL", "3|x|NULL|NULL", "4|four|NULL|NULL", "5|NULL|12.50|NULL", "101|NULL|1.01|NULL"}
	if len(got) != len(want) {
		t.Fatalf("rows %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("row %d: %q, want %q", i, got[i], want[i])
		}
	}
}
