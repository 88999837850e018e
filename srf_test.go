package gpusql_test

import (
	"testing"

	"github.com/gpusql/gpusql"
)

// TestSetFunctionsOverTable runs set-returning functions in a select
// list over a user table, whose expansion is an engine.ProjectSet (a
// host step on the GPU backend): _pg_expandarray's fields, padding, and
// the passed columns of the rows around it. GPUSQL_TEST_DEVICE=cuda runs
// it on the GPU backend; the answers are PostgreSQL 15's.
func TestSetFunctionsOverTable(t *testing.T) {
	db := openDB(t, gpusql.Options{})
	cases := []struct{ sql, want string }{
		{`SELECT i4, (information_schema._pg_expandarray(('{' || i2 || ',' || (i2 % 7) || '}')::int2[])).x AS x,
		         (information_schema._pg_expandarray(('{' || i2 || ',' || (i2 % 7) || '}')::int2[])).n AS n, s
		    FROM t ORDER BY i4, n`,
			"-2147483648|-32768|1|quoted, \"text\"\n-2147483648|-1|2|quoted, \"text\"\n2|1|1|hello\n2|1|2|hello\n"},
		{`SELECT i2, generate_series(1, 3) AS g, (information_schema._pg_expandarray(('{' || i4 || '}')::text[])).n AS n
		    FROM t WHERE i2 IS NOT NULL ORDER BY i2, g`,
			"-32768|1|1\n-32768|2|\n-32768|3|\n1|1|1\n1|2|\n1|3|\n"},
		{`SELECT DISTINCT (information_schema._pg_expandarray('{3,1,3}'::int2[])).x AS x, b FROM t WHERE b ORDER BY x LIMIT 1`,
			"1|t\n"},
	}
	for _, c := range cases {
		got, err := psqlText(db, c.sql)
		if err != nil {
			t.Errorf("%s: %v", c.sql, err)
			continue
		}
		if got != c.want {
			t.Errorf("%s:\ngot\n%s\nwant\n%s", c.sql, got, c.want)
		}
	}
}
