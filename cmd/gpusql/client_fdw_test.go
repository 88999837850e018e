package main

// postgres_fdw in a real PostgreSQL 15 reading gpusql's tables: foreign
// tables made by hand and by IMPORT FOREIGN SCHEMA, SELECTs with WHERE,
// aggregates pushed down (the Remote SQL of EXPLAIN VERBOSE shows what
// gpusql is sent). Each result is compared with the same query on the
// PostgreSQL server's own copy of lineitem.

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

// fdwQuery is run on a foreign table (its schema in place of %s) and on
// PostgreSQL's own table (public); the rows must be the same, and the
// Remote SQL of EXPLAIN VERBOSE must contain each of remote.
type fdwQuery struct {
	name, sql string
	remote    []string
}

func testClientFDW(t *testing.T, e *clientEnv) {
	ctx := context.Background()
	c, err := e.pg.connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	setup := []string{
		"CREATE EXTENSION postgres_fdw",
		fmt.Sprintf("CREATE SERVER gpusql FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host '127.0.0.1', port '%d', dbname 'postgres', application_name 'postgres_fdw')", e.gp.port),
		"CREATE USER MAPPING FOR CURRENT_USER SERVER gpusql OPTIONS (user 'postgres')",
		"CREATE SCHEMA byhand",
		"CREATE FOREIGN TABLE byhand.lineitem (" + clientColumnDDL() + ") SERVER gpusql OPTIONS (schema_name 'public', table_name 'lineitem')",
	}
	for _, s := range setup {
		if _, err := c.Exec(ctx, s).ReadAll(); err != nil {
			if strings.Contains(err.Error(), "postgres_fdw") && strings.Contains(err.Error(), "not available") {
				requireClient(t, "/usr/share/postgresql/15/extension/postgres_fdw.control", "postgresql-15 (postgres_fdw)")
			}
			t.Fatalf("%s: %v", s, err)
		}
	}

	// query is run on the foreign table (schema s) and on PostgreSQL's own
	// lineitem; the rows must be the same, and the Remote SQL must contain
	// each of remote.
	queries := []fdwQuery{
		{"where", "SELECT l_orderkey, l_linenumber, l_quantity, l_shipmode FROM %s.lineitem WHERE l_shipdate >= DATE '1995-01-01' AND l_quantity > 45 AND l_shipmode = 'AIR' ORDER BY 1, 2",
			[]string{"Remote SQL: SELECT l_orderkey, l_linenumber, l_quantity, l_shipmode FROM public.lineitem WHERE ((l_shipdate >= '1995-01-01')) AND ((l_quantity > 45::numeric)) AND ((l_shipmode = 'AIR'))"}},
		{"aggregate", "SELECT l_returnflag, l_linestatus, count(*), sum(l_quantity), sum(l_extendedprice * (1 - l_discount)), avg(l_discount), min(l_shipdate), max(l_tax) FROM %s.lineitem WHERE l_shipdate <= DATE '1998-09-02' GROUP BY l_returnflag, l_linestatus ORDER BY 1, 2",
			[]string{"Relations: Aggregate on", "GROUP BY 1, 2", "Remote SQL: SELECT l_returnflag, l_linestatus, count(*), sum(l_quantity), "}},
		{"count", "SELECT count(*), sum(l_orderkey) FROM %s.lineitem",
			[]string{"Relations: Aggregate on", "Remote SQL: SELECT count(*), sum(l_orderkey) FROM public.lineitem"}},
	}
	like := fdwQuery{"like", "SELECT l_orderkey, l_linenumber FROM %s.lineitem WHERE l_comment LIKE '%%ly%%' AND l_orderkey < 1000 ORDER BY 1, 2",
		[]string{"((l_comment ~~ '%ly%'))"}}
	check := func(t testing.TB, schema string, queries ...fdwQuery) {
		for _, q := range queries {
			foreign := fmt.Sprintf(q.sql, schema)
			plan, err := pgExec(ctx, c, "EXPLAIN VERBOSE "+foreign)
			if err != nil {
				t.Fatalf("%s: EXPLAIN VERBOSE: %v", q.name, err)
			}
			for _, want := range q.remote {
				if !strings.Contains(plan, want) {
					t.Errorf("%s: EXPLAIN VERBOSE lacks %q:\n%s", q.name, want, plan)
				}
			}
			got, err := pgExec(ctx, c, foreign)
			if err != nil {
				t.Fatalf("%s: %s: %s", q.name, foreign, pgErrText(err))
			}
			want, err := pgExec(ctx, c, fmt.Sprintf(q.sql, "public"))
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("%s: rows through postgres_fdw differ from PostgreSQL's own:\n%s", q.name, lineDiff(got, want))
			}
			if got == "" {
				t.Errorf("%s: no rows", q.name)
			}
			t.Logf("%s:\n%s%s", q.name, plan, firstLines(got, 5))
		}
	}
	t.Run("byhand", func(t *testing.T) { check(t, "byhand", queries...) })
	subtest(t, "like", func(t testing.TB) { check(t, "byhand", like) })
	subtest(t, "single_node", func(t testing.TB) { testFDWSingleNode(t, e, c, check) })
	subtest(t, "import", func(t testing.TB) {
		if _, err := c.Exec(ctx, "CREATE SCHEMA imported; IMPORT FOREIGN SCHEMA public LIMIT TO (lineitem) FROM SERVER gpusql INTO imported").ReadAll(); err != nil {
			t.Fatalf("IMPORT FOREIGN SCHEMA: %s", pgErrText(err))
		}
		cols, err := pgExec(ctx, c, "SELECT attname, format_type(atttypid, atttypmod), attnotnull FROM pg_attribute WHERE attrelid = 'imported.lineitem'::regclass AND attnum > 0 ORDER BY attnum")
		if err != nil {
			t.Fatal(err)
		}
		want, _ := pgExec(ctx, c, "SELECT attname, format_type(atttypid, atttypmod), attnotnull FROM pg_attribute WHERE attrelid = 'public.lineitem'::regclass AND attnum > 0 ORDER BY attnum")
		if cols != want {
			t.Errorf("imported columns differ from lineitem's:\n%s", lineDiff(cols, want))
		}
		check(t, "imported", queries...)
	})
}

// testFDWSingleNode: one gpusql node behind a server with
// use_remote_estimate and fetch_size: LIMIT and OFFSET pushed down with
// their casts, ORDER BY with NULLS FIRST and LAST pushed down and run on
// a table with NULLs, ANALYZE of the foreign tables (their statistics
// equal those of PostgreSQL's own copies), and the planner's row counts
// from gpusql's EXPLAIN.
func testFDWSingleNode(t testing.TB, e *clientEnv, c *pgconn.PgConn, check func(testing.TB, string, ...fdwQuery)) {
	ctx := context.Background()
	nl := []string{
		"CREATE TABLE nl (k integer, v text, d date)",
		"INSERT INTO nl VALUES (1, 'a', '2020-01-01'), (2, NULL, NULL), (3, 'c', '2021-05-05'), (NULL, 'd', '2019-01-01'), (5, 'e', NULL), (6, 'a', '2020-01-01'), (NULL, NULL, '2018-03-03')",
	}
	gc, err := e.gp.connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer gc.Close(ctx)
	for _, s := range nl {
		if _, err := gc.Exec(ctx, s).ReadAll(); err != nil {
			t.Fatalf("gpusql: %s: %v", s, err)
		}
		if _, err := c.Exec(ctx, s).ReadAll(); err != nil {
			t.Fatalf("postgres: %s: %v", s, err)
		}
	}
	t.Cleanup(func() {
		gc, err := e.gp.connect(ctx)
		if err == nil {
			gc.Exec(ctx, "DROP TABLE nl").ReadAll()
			gc.Close(ctx)
		}
	})
	setup := []string{
		fmt.Sprintf("CREATE SERVER gpusql_est FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host '127.0.0.1', port '%d', dbname 'postgres', use_remote_estimate 'true', fetch_size '3')", e.gp.port),
		"CREATE USER MAPPING FOR CURRENT_USER SERVER gpusql_est OPTIONS (user 'postgres')",
		"CREATE SCHEMA est",
		"CREATE FOREIGN TABLE est.lineitem (" + clientColumnDDL() + ") SERVER gpusql_est OPTIONS (schema_name 'public', table_name 'lineitem', fetch_size '1000')",
		"CREATE FOREIGN TABLE est.nl (k integer, v text, d date) SERVER gpusql_est OPTIONS (schema_name 'public', table_name 'nl', fetch_size '2')",
		"ANALYZE public.nl",
	}
	for _, s := range setup {
		if _, err := c.Exec(ctx, s).ReadAll(); err != nil {
			t.Fatalf("%s: %s", s, pgErrText(err))
		}
	}
	// ANALYZE of a foreign table: postgres_fdw asks gpusql for the
	// table's size and reads every row (fewer than the sample's 30,000).
	for _, tbl := range []string{"est.lineitem", "est.nl"} {
		if _, err := c.Exec(ctx, "ANALYZE "+tbl).ReadAll(); err != nil {
			t.Fatalf("ANALYZE %s: %s", tbl, pgErrText(err))
		}
	}
	// Not correlation: PostgreSQL computes it from the sampled rows'
	// physical positions, which a foreign table's rows do not have.
	stats := func(schema, table string) string {
		out, err := pgExec(ctx, c, fmt.Sprintf(`SELECT attname, null_frac, avg_width, n_distinct, most_common_vals::text,
			most_common_freqs::text, histogram_bounds::text FROM pg_stats WHERE schemaname = '%s' AND tablename = '%s'
			AND attname IN ('k', 'v', 'd', 'l_orderkey', 'l_returnflag', 'l_shipdate', 'l_quantity') ORDER BY attname`, schema, table))
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	for _, table := range []string{"nl", "lineitem"} {
		got, want := stats("est", table), stats("public", table)
		if got != want || got == "" {
			t.Errorf("ANALYZE %s: statistics differ from PostgreSQL's own table's:\n%s", table, lineDiff(got, want))
		}
	}
	if n, err := pgExec(ctx, c, "SELECT reltuples FROM pg_class WHERE oid = 'est.lineitem'::regclass"); err != nil || n != fmt.Sprintf("%d\n", clientRows) {
		t.Errorf("reltuples after ANALYZE: %q %v", n, err)
	}
	// use_remote_estimate: the planner's row count is gpusql's.
	plan, err := pgExec(ctx, c, "EXPLAIN SELECT * FROM est.lineitem")
	if err != nil {
		t.Fatal(pgErrText(err))
	}
	if !strings.Contains(plan, fmt.Sprintf("rows=%d ", clientRows)) {
		t.Errorf("EXPLAIN with use_remote_estimate: no rows=%d in\n%s", clientRows, plan)
	}
	check(t, "est",
		fdwQuery{"limit_offset", "SELECT l_orderkey, l_linenumber, l_quantity FROM %s.lineitem WHERE l_quantity > 45 ORDER BY l_orderkey, l_linenumber LIMIT 7 OFFSET 3",
			[]string{"ORDER BY l_orderkey ASC NULLS LAST, l_linenumber ASC NULLS LAST LIMIT 7::bigint OFFSET 3::bigint"}},
		fdwQuery{"offset_only", "SELECT l_orderkey, l_linenumber FROM %s.lineitem ORDER BY l_orderkey DESC, l_linenumber DESC OFFSET 19990",
			[]string{"ORDER BY l_orderkey DESC NULLS FIRST, l_linenumber DESC NULLS FIRST OFFSET 19990::bigint"}},
		fdwQuery{"nulls_first", "SELECT k, v, d FROM %s.nl ORDER BY k NULLS FIRST, v",
			[]string{"ORDER BY k ASC NULLS FIRST, v ASC NULLS LAST"}},
		fdwQuery{"desc_nulls_last", "SELECT k, v, d FROM %s.nl ORDER BY v DESC NULLS LAST, k DESC NULLS LAST",
			[]string{"ORDER BY v DESC NULLS LAST, k DESC NULLS LAST"}},
		fdwQuery{"nulls_limit", "SELECT k, d FROM %s.nl ORDER BY d NULLS FIRST, k DESC LIMIT 3 OFFSET 1",
			[]string{"ORDER BY d ASC NULLS FIRST, k DESC NULLS FIRST LIMIT 3::bigint OFFSET 1::bigint"}},
		// (Whether the LIMIT goes too is the planner's choice, from the
		// estimates.)
		fdwQuery{"where_limit", "SELECT k, v FROM %s.nl WHERE v IS NOT NULL ORDER BY k DESC LIMIT 2",
			[]string{"WHERE ((v IS NOT NULL)) ORDER BY k DESC NULLS FIRST"}},
		fdwQuery{"aggregate", "SELECT v, count(*), max(d) FROM %s.nl GROUP BY v ORDER BY v NULLS FIRST",
			[]string{"Relations: Aggregate on", "GROUP BY 1"}},
	)
}
