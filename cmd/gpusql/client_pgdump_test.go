package main

// pg_dump --schema-only against gpusql: the dump of tables of every column
// type (NOT NULL, quoted names) and of views restores into a fresh
// PostgreSQL 15, which then has the same tables, columns, types and views.

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

func pgDumpBin() string { return filepath.Join(diffPGBinDirDefault, "pg_dump") }

// pgDumpSchema is what TestPgDumpSchema creates in gpusql.
var pgDumpSchema = []string{
	`CREATE TABLE everything (id bigint NOT NULL, small smallint, whole integer NOT NULL, price numeric(12,2) NOT NULL,
		ratio numeric(18,18), plain_num numeric, day date, at timestamp, at3 timestamp(3), atz timestamptz, atz0 timestamptz(0),
		tod time, tod2 time(2), note text, code varchar(20), code_any varchar, flag char(3), ch char, ok boolean NOT NULL,
		r real, d double precision)`,
	`CREATE TABLE "Mixed Case" ("Col A" integer, "select" text NOT NULL, "quote""d" date)`,
	`CREATE TABLE empty_cols (a int)`,
	`CREATE VIEW priced AS SELECT id, price * 2 AS doubled, note || '!' AS shout, day FROM everything WHERE ok`,
	`CREATE VIEW "Mixed View" AS SELECT "Col A", "select" FROM "Mixed Case"`,
	`CREATE VIEW on_view AS SELECT id, doubled FROM priced WHERE doubled > 10`,
}

// pgDumpCatalogQuery lists the public relations' columns with their
// types as information_schema spells them.
const pgDumpCatalogQuery = `SELECT c.table_name, t.table_type, c.ordinal_position, c.column_name, c.data_type,
	coalesce(c.character_maximum_length::text, '-'), coalesce(c.numeric_precision::text, '-'), coalesce(c.numeric_scale::text, '-'),
	coalesce(c.datetime_precision::text, '-'), c.is_nullable
	FROM information_schema.columns c JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
	WHERE c.table_schema = 'public' ORDER BY c.table_name, c.ordinal_position`

// pgDumpSetup checks for PostgreSQL 15 and its clients, starts a gpusql
// and runs stmts in it. It returns PostgreSQL's binaries, the server and
// a connection to it, which the test ends.
func pgDumpSetup(t *testing.T, stmts []string) (binDir string, gp *gpusqlServer, gc *pgconn.PgConn) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: starts PostgreSQL and runs pg_dump")
	}
	requireClient(t, pgDumpBin(), "postgresql-client-15")
	requireClient(t, psqlBin(), "postgresql-client-15")
	binDir = requirePG(t)
	ctx := context.Background()
	gp = startGpusql(t, t.TempDir())
	gc, err := gp.connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { gc.Close(ctx) })
	for _, sql := range stmts {
		if _, err := gc.Exec(ctx, sql).ReadAll(); err != nil {
			t.Fatalf("gpusql: %s: %v", sql, err)
		}
	}
	return binDir, gp, gc
}

// pgDumpRestore writes dump to a file, restores it into a fresh
// PostgreSQL 15 with psql, stopping at the first error, and returns a
// connection to that server, which the test ends, and the server.
func pgDumpRestore(t *testing.T, binDir, dump string) (*pgServer, *pgconn.PgConn) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "dump.sql")
	if err := os.WriteFile(path, []byte(dump), 0o644); err != nil {
		t.Fatal(err)
	}
	pg := startPGTCP(t, binDir)
	runClient(t, psqlEnv, psqlBin(), psqlArgs("127.0.0.1", strconv.Itoa(pg.port), "-q", "-f", path)...)
	ctx := context.Background()
	pc, err := pg.connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pc.Close(ctx) })
	return pg, pc
}

func TestPgDumpSchema(t *testing.T) {
	binDir, gp, gc := pgDumpSetup(t, append(slices.Clone(pgDumpSchema),
		`INSERT INTO everything (id, whole, price, ok) VALUES (1, 2, 3.5, true)`))

	dump := runClient(t, psqlEnv, pgDumpBin(), "--schema-only", "-h", "127.0.0.1", "-p", strconv.Itoa(gp.port), "-U", "postgres", "-d", "postgres")
	for _, want := range []string{"CREATE TABLE public.everything (", "CREATE TABLE public.\"Mixed Case\" (", "CREATE VIEW public.priced AS",
		"CREATE VIEW public.\"Mixed View\" AS", "CREATE VIEW public.on_view AS", "    id bigint NOT NULL,", "    flag character(3),"} {
		if !strings.Contains(dump, want) {
			t.Errorf("the dump lacks %q", want)
		}
	}
	if strings.Contains(dump, "INSERT INTO") || strings.Contains(dump, "COPY ") {
		t.Errorf("--schema-only dumped data")
	}
	if t.Failed() {
		t.Logf("dump:\n%s", dump)
	}

	// Restore into a fresh PostgreSQL 15, stopping at the first error.
	pg, pc := pgDumpRestore(t, binDir, dump)

	want, got := pgDumpRows(t, gc, pgDumpCatalogQuery), pgDumpRows(t, pc, pgDumpCatalogQuery)
	if len(want) < 30 {
		t.Fatalf("gpusql lists only %d columns:\n%s", len(want), strings.Join(want, "\n"))
	}
	if !slices.Equal(got, want) {
		t.Errorf("restored columns differ from gpusql's\n%s", lineDiff(strings.Join(got, "\n"), strings.Join(want, "\n")))
	}
	// The views work in PostgreSQL, on the (empty) restored tables.
	for _, v := range []string{"priced", `"Mixed View"`, "on_view"} {
		if rows := pgDumpRows(t, pc, "SELECT count(*) FROM public."+v); !slices.Equal(rows, []string{"0"}) {
			t.Errorf("%s in PostgreSQL: %q", v, rows)
		}
	}
	// And the restored schema dumps again as PostgreSQL dumps it: the
	// same tables and views, by name.
	redump := runClient(t, psqlEnv, pgDumpBin(), "--schema-only", "-h", "127.0.0.1", "-p", strconv.Itoa(pg.port), "-U", "postgres", "-d", "postgres")
	for _, name := range []string{"TABLE public.everything", `TABLE public."Mixed Case"`, "TABLE public.empty_cols",
		"VIEW public.priced", `VIEW public."Mixed View"`, "VIEW public.on_view"} {
		if !strings.Contains(redump, "CREATE "+name) {
			t.Errorf("PostgreSQL's own dump lacks CREATE %s", name)
		}
	}
}

// pgDumpRows runs sql and returns its rows, the columns joined by '|'.
func pgDumpRows(t *testing.T, c *pgconn.PgConn, sql string) []string {
	t.Helper()
	res, err := c.Exec(context.Background(), sql).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	var out []string
	for _, r := range res {
		for _, row := range r.Rows {
			parts := make([]string, len(row))
			for i, v := range row {
				parts[i] = string(v)
			}
			out = append(out, strings.Join(parts, "|"))
		}
	}
	return out
}

// TestPgDumpData: a full pg_dump (schema and data, whose queries include
// a WITH RECURSIVE one) of gpusql restores into a fresh PostgreSQL 15
// with the same rows, NULLs, quotes, tabs, backslashes and multibyte text
// included.
func TestPgDumpData(t *testing.T) {
	binDir, gp, gc := pgDumpSetup(t, append(slices.Clone(pgDumpSchema),
		`INSERT INTO everything VALUES
		(1, -2, 3, 4.50, 0.123456789012345678, 12345.678901, '2024-02-29', '2024-03-01 12:34:56.789012', '1999-12-31 23:59:59.123',
		 '2024-06-01 10:00:00+02', '2024-06-01 10:00:01+00', '23:59:59.5', '01:02:03.25', 'it''s a	tab \ and Zürich 北京', 'v', 'any', 'ab', 'x', true, 1.5, 0.1),
		(2, NULL, 0, -0.01, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, '', NULL, NULL, NULL, NULL, false, NULL, NULL)`,
		`INSERT INTO "Mixed Case" VALUES (7, 'sel', '2020-01-01'), (NULL, 'x"y', NULL)`))
	dump := runClient(t, psqlEnv, pgDumpBin(), "-h", "127.0.0.1", "-p", strconv.Itoa(gp.port), "-U", "postgres", "-d", "postgres")
	if !strings.Contains(dump, "COPY public.everything (") {
		t.Fatalf("the dump has no data for everything:\n%s", dump)
	}
	_, pc := pgDumpRestore(t, binDir, dump)

	text := func(cols ...string) string {
		for i, c := range cols {
			cols[i] = "coalesce(" + c + "::text, 'NULL')"
		}
		return strings.Join(cols, ", ")
	}
	for _, q := range []string{
		"SELECT " + text("id", "small", "whole", "price", "ratio", "plain_num", "day", "at", "at3", "atz", "atz0", "tod", "tod2",
			"note", "code", "code_any", "flag", "ch", "ok", "r", "d") + " FROM everything ORDER BY id",
		"SELECT " + text(`"Col A"`, `"select"`, `"quote""d"`) + ` FROM "Mixed Case" ORDER BY "select"`,
		"SELECT count(*) FROM empty_cols",
		"SELECT " + text("id", "doubled", "shout") + " FROM priced ORDER BY id",
	} {
		want, got := pgDumpRows(t, gc, q), pgDumpRows(t, pc, q)
		if len(want) == 0 || !slices.Equal(got, want) {
			t.Errorf("%s: restored rows differ from gpusql's\n%s", q, lineDiff(strings.Join(got, "\n"), strings.Join(want, "\n")))
		}
	}
}
