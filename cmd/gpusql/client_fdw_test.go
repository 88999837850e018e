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
)

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
	type query struct {
		name, sql string
		remote    []string
	}
	queries := []query{
		{"where", "SELECT l_orderkey, l_linenumber, l_quantity, l_shipmode FROM %s.lineitem WHERE l_shipdate >= DATE '1995-01-01' AND l_quantity > 45 AND l_shipmode = 'AIR' ORDER BY 1, 2",
			[]string{"Remote SQL: SELECT l_orderkey, l_linenumber, l_quantity, l_shipmode FROM public.lineitem WHERE ((l_shipdate >= '1995-01-01')) AND ((l_quantity > 45::numeric)) AND ((l_shipmode = 'AIR'))"}},
		{"aggregate", "SELECT l_returnflag, l_linestatus, count(*), sum(l_quantity), sum(l_extendedprice * (1 - l_discount)), avg(l_discount), min(l_shipdate), max(l_tax) FROM %s.lineitem WHERE l_shipdate <= DATE '1998-09-02' GROUP BY l_returnflag, l_linestatus ORDER BY 1, 2",
			[]string{"Relations: Aggregate on", "GROUP BY 1, 2", "Remote SQL: SELECT l_returnflag, l_linestatus, count(*), sum(l_quantity), "}},
		{"count", "SELECT count(*), sum(l_orderkey) FROM %s.lineitem",
			[]string{"Relations: Aggregate on", "Remote SQL: SELECT count(*), sum(l_orderkey) FROM public.lineitem"}},
	}
	like := query{"like", "SELECT l_orderkey, l_linenumber FROM %s.lineitem WHERE l_comment LIKE '%%ly%%' AND l_orderkey < 1000 ORDER BY 1, 2",
		[]string{"((l_comment ~~ '%ly%'))"}}
	check := func(t testing.TB, schema string, queries ...query) {
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
