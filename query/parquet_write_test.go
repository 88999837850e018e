package query_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// The table that TestParquetWriteRoundTrip writes: every type COPY TO
// writes in Parquet, edge values in the first rows, NULLs in every
// nullable column, and generated rows after them.
const pqwTable = `CREATE TABLE src (
	id bigint NOT NULL, i16 smallint, i32 integer NOT NULL, i64 bigint,
	n4 numeric(4,2), n9 numeric(9,9), n10 numeric(10,0), n18 numeric(18,6),
	d date, ts timestamp, ts3 timestamp(3), tz timestamptz, tm time,
	t text, vc varchar(10), ch char(5), b boolean, f4 real, f8 double precision)`

var pqwEdges = []string{
	`(1, -32768, -2147483648, -9223372036854775808, -99.99, -0.999999999, -9999999999, -999999999999.999999,
	  '0001-01-01', '0001-01-01 00:00:00', '0001-01-01 00:00:00.001', '0001-01-01 00:00:00+00', '00:00:00',
	  '', '', '', false, '-Infinity', '-1.7976931348623157e308')`,
	`(2, 32767, 2147483647, 9223372036854775807, 99.99, 0.999999999, 9999999999, 999999999999.999999,
	  '5874897-12-31', '9999-12-31 23:59:59.999999', '9999-12-31 23:59:59.999', '9999-12-31 23:59:59.999999+00', '24:00:00',
	  'héllo wörld ✓ 日本語 🎉', 'ten chars!', 'abcde', true, 'Infinity', '1.7976931348623157e308')`,
	`(3, 0, 0, 0, 0, 0.000000001, 0, 0.000001,
	  '1970-01-01', '1969-12-31 23:59:59.999999', '1970-01-01 00:00:00', '1969-12-31 23:59:59.999999+00', '23:59:59.999999',
	  E'comma, "quote"\nnewline\ttab \\ backslash', 'x', 'ab', false, 'NaN', '-0')`,
	`(4, -1, -1, -1, -0.01, -0.000000001, -1, -0.000001,
	  '1969-12-31', '2000-02-29 12:34:56.789012', '2000-02-29 12:34:56.789', '2000-02-29 12:34:56.789012+05:30', '12:34:56.789012',
	  'NULL', '\N', ' a', true, '1.4e-45', '4.9e-324')`,
	`(5, NULL, 7, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)`,
}

// pqwRows adds 3,000 generated rows to pqwTable's src.
const pqwRows = `INSERT INTO src SELECT g, g % 30000 - 15000, g * 7, g::bigint * 1000003 - 5000000000, (g % 19999 - 9999) / 100.0,
	(g % 999) / 1000.0, g * 13, g * 7.000001, DATE '1900-01-01' + g, TIMESTAMP '1960-01-01' + ((g * 420.123457)::text || ' seconds')::interval,
	TIMESTAMP '2020-01-01 00:00:00.123' + (g || ' hours')::interval, TIMESTAMPTZ '2001-09-09 01:46:40+00' + (g || ' seconds')::interval,
	TIME '00:00:00' + ((g * 1.5)::text || ' seconds')::interval, CASE WHEN g % 11 <> 0 THEN substr('xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', 1, g % 40) END, 'v' || (g % 1000), 'c' || (g % 100), CASE WHEN g % 11 <> 0 THEN g % 3 = 0 END,
	g / 8.0, CASE WHEN g % 11 <> 0 THEN g / 7.0 END
	FROM generate_series(6, 3005) g`

// pqwSource makes table src and fills it with the edge values and the
// generated rows.
func pqwSource(must func(string) *recorder) {
	must(pqwTable)
	must(`INSERT INTO src VALUES ` + strings.Join(pqwEdges, ", "))
	must(pqwRows)
}

// TestParquetWriteRoundTrip: COPY TO in Parquet, read back with CREATE
// TABLE ... FROM PARQUET, gives the same types (strings as text) and the
// same values, for a table and for a query, with no file left beside the
// target.
func TestParquetWriteRoundTrip(t *testing.T) {
	_, root, run := pqSession(t)
	must := mustRun(t, run)
	pqwSource(must)
	os.Mkdir(filepath.Join(root, "out"), 0o755)
	if r := must(`COPY src TO 'out/src.parquet' WITH (FORMAT parquet)`); r.tags[0] != "COPY 3005" {
		t.Fatalf("tag %q", r.tags)
	}
	must(`CREATE TABLE back FROM PARQUET 'out/src.parquet'`)
	// Many row groups (ROW_GROUP_SIZE splits the batches), zstd pages.
	must(`COPY src TO 'out/groups.parquet' WITH (FORMAT parquet, ROW_GROUP_SIZE 256, COMPRESSION zstd)`)
	must(`CREATE TABLE groups FROM PARQUET 'out/groups.parquet'`)
	types := func(table string) []string {
		return must(`SELECT column_name || ' ' || data_type || coalesce('(' || numeric_precision || ',' || numeric_scale || ')', '')
			|| coalesce(' p' || datetime_precision, '') FROM information_schema.columns WHERE table_name = '` + table + `' ORDER BY ordinal_position`).rows
	}
	want := types("src")
	for i, c := range want {
		// char(n) and varchar(n) read back as text.
		if strings.HasPrefix(c, "vc ") || strings.HasPrefix(c, "ch ") {
			want[i] = c[:3] + "text"
		}
	}
	// timestamp(3) reads back as timestamp: Parquet has microseconds.
	want[slices.Index(want, "ts3 timestamp without time zone p3")] = "ts3 timestamp without time zone p6"
	if got := types("back"); !slices.Equal(got, want) {
		t.Errorf("types:\n got %q\nwant %q", got, want)
	}
	same := func(what, a, b string) {
		t.Helper()
		ra, rb := must(a).rows, must(b).rows
		if len(ra) != len(rb) {
			t.Fatalf("%s: %d rows, want %d", what, len(rb), len(ra))
		}
		bad := 0
		for i := range ra {
			if ra[i] != rb[i] && bad < 5 {
				bad++
				t.Errorf("%s row %d:\n got %s\nwant %s", what, i, rb[i], ra[i])
			}
		}
	}
	same("table", `SELECT * FROM src ORDER BY id`, `SELECT * FROM back ORDER BY id`)
	same("row groups", `SELECT * FROM src ORDER BY id`, `SELECT * FROM groups ORDER BY id`)
	must(`DROP TABLE groups`)
	os.Remove(filepath.Join(root, "out", "groups.parquet"))
	// Values compare equal too, not only as text.
	var eq []string
	for _, c := range strings.Fields("i16 i32 i64 n4 n9 n10 n18 d ts ts3 tz tm t vc b f4 f8") {
		eq = append(eq, "back."+c+" IS NOT DISTINCT FROM src."+c)
	}
	if r := must(`SELECT count(*) FROM back JOIN src USING (id) WHERE ` + strings.Join(eq, " AND ")); r.rows[0] != "3005" {
		t.Errorf("equal rows: %q, want 3005", r.rows)
	}

	// A query: its columns' names and order, expressions, a repeated
	// name, a typed cast of a computed numeric.
	must(`COPY (SELECT f8 AS z, id, t || '!' AS t, (n4 * 2)::numeric(6,2) AS dbl, id AS id, NULL::int AS nothing
		FROM src WHERE id % 2 = 1 ORDER BY id DESC) TO 'out/q.parquet' (FORMAT parquet)`)
	must(`CREATE TABLE qb FROM PARQUET 'out/q.parquet'`)
	if got := must(`SELECT string_agg(column_name || ' ' || data_type, ', ' ORDER BY ordinal_position) FROM information_schema.columns WHERE table_name = 'qb'`).rows[0]; got != "z double precision, id bigint, t text, dbl numeric, id_1 bigint, nothing integer" {
		t.Errorf("query columns: %s", got)
	}
	same("query", `SELECT f8, id, t || '!', (n4 * 2)::numeric(6,2), id, NULL FROM src WHERE id % 2 = 1 ORDER BY id DESC`, `SELECT * FROM qb`)

	// An empty result writes a file of no rows with the columns; a file
	// is replaced whole.
	if r := must(`COPY (SELECT * FROM src WHERE false) TO 'out/src.parquet' (FORMAT parquet)`); r.tags[0] != "COPY 0" {
		t.Errorf("tag %q", r.tags)
	}
	must(`CREATE TABLE empty FROM PARQUET 'out/src.parquet'`)
	if got := must(`SELECT count(*) FROM empty`).rows[0]; got != "0" {
		t.Errorf("empty: %s rows", got)
	}
	if got := types("empty"); !slices.Equal(got, want) {
		t.Errorf("empty types:\n got %q\nwant %q", got, want)
	}
	// The same data back into a table of its own types.
	must(strings.Replace(pqwTable, "TABLE src", "TABLE again", 1))
	must(`COPY (SELECT id, i16, i32, i64, n4, n9, n10, n18, d, ts, ts3, tz, tm, t, vc FROM src) TO 'out/part.parquet' (FORMAT parquet)`)
	must(`COPY again (id, i16, i32, i64, n4, n9, n10, n18, d, ts, ts3, tz, tm, t, vc) FROM 'out/part.parquet' (FORMAT parquet)`)
	same("existing table", `SELECT id, i16, i32, i64, n4, n9, n10, n18, d, ts, ts3, tz, tm, t, vc FROM src ORDER BY id`,
		`SELECT id, i16, i32, i64, n4, n9, n10, n18, d, ts, ts3, tz, tm, t, vc FROM again ORDER BY id`)
	ents, _ := os.ReadDir(filepath.Join(root, "out"))
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if !slices.Equal(names, []string{"part.parquet", "q.parquet", "src.parquet"}) {
		t.Errorf("files in out: %q", names)
	}
}

// TestParquetWriteErrors: a target outside the file root, a missing
// folder, a type without a Parquet form and a query that fails midway
// fail with their SQLSTATE, and leave the target as it was and no
// temporary file.
func TestParquetWriteErrors(t *testing.T) {
	_, root, run := pqSession(t)
	if _, err := run(`CREATE TABLE s AS SELECT g AS id, g % 7 AS k FROM generate_series(1, 200000) g`); err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	os.Symlink(outside, filepath.Join(root, "away"))
	os.Symlink(filepath.Join(outside, "x.parquet"), filepath.Join(root, "link.parquet"))
	os.Mkdir(filepath.Join(root, "dir.parquet"), 0o755)
	if _, err := run(`COPY s TO 'keep.parquet' (FORMAT parquet)`); err != nil {
		t.Fatal(err)
	}
	keep, _ := os.ReadFile(filepath.Join(root, "keep.parquet"))
	for _, c := range []struct{ sql, code, msg string }{
		{`COPY s TO '../x.parquet' (FORMAT parquet)`, "42501", "outside the server's file root"},
		{`COPY s TO '` + filepath.Join(outside, "x.parquet") + `' (FORMAT parquet)`, "42501", "outside"},
		{`COPY s TO 'away/x.parquet' (FORMAT parquet)`, "42501", "outside"},
		{`COPY s TO 'link.parquet' (FORMAT parquet)`, "42501", "outside"},
		{`COPY s TO '.' (FORMAT parquet)`, "42501", "outside"},
		{`COPY s TO 'dir.parquet' (FORMAT parquet)`, "42809", "is a directory"},
		{`COPY s TO 'no/such/x.parquet' (FORMAT parquet)`, "58P01", "No such file"},
		{`COPY (SELECT id, interval '1 day' AS iv FROM s) TO 'keep.parquet' (FORMAT parquet)`, "0A000", `column "iv" of type interval`},
		{`COPY (SELECT sum(id)::numeric AS total FROM s) TO 'keep.parquet' (FORMAT parquet)`, "0A000", "numeric without a precision"},
		{`COPY (SELECT id, 10 / (k - 6) AS q FROM s) TO 'keep.parquet' (FORMAT parquet)`, "22012", "division by zero"},
		{`COPY (SELECT (id * 1000)::numeric(4,0) FROM s) TO 'keep.parquet' (FORMAT parquet)`, "22003", ""},
		{`COPY s TO 'keep.parquet' (FORMAT parquet, HEADER)`, "0A000", "not available with FORMAT parquet"},
		{`COPY s TO 'keep.parquet' (FORMAT parquet, ROW_GROUP_SIZE 0)`, "22023", "row_group_size must be an integer"},
		{`COPY s TO 'keep.parquet' (FORMAT parquet, ROW_GROUP_SIZE 'many')`, "22023", "row_group_size must be an integer"},
		{`COPY s TO 'keep.parquet' (FORMAT parquet, ROW_GROUP_SIZE)`, "42601", "requires a parameter"},
		{`COPY s TO 'keep.parquet' (FORMAT parquet, COMPRESSION lz4)`, "22023", `COPY compression "lz4" not recognized`},
		{`COPY s TO 'keep.parquet' (FORMAT parquet, COMPRESSION zstd, COMPRESSION gzip)`, "42601", "conflicting or redundant options"},
		{`COPY s TO 'keep.csv' (FORMAT csv, ROW_GROUP_SIZE 10)`, "0A000", `"row_group_size" is only available with FORMAT parquet`},
		{`COPY s FROM 'keep.parquet' (FORMAT parquet, COMPRESSION zstd)`, "0A000", `"compression" is only available using COPY TO`},
		{`COPY s TO 'keep.parquet' (FORMAT parquet, ROWGROUP 10)`, "42601", `option "rowgroup" not recognized`},
	} {
		_, err := run(c.sql)
		if sqlstate(err) != c.code || err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: got %v (%s), want %s %q", c.sql, err, sqlstate(err), c.code, c.msg)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(root, "keep.parquet")); string(b) != string(keep) {
		t.Errorf("keep.parquet changed")
	}
	for _, dir := range []string{root, outside} {
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if strings.HasSuffix(e.Name(), ".tmp") || e.Name() == "x.parquet" {
				t.Errorf("left behind: %s", filepath.Join(dir, e.Name()))
			}
		}
	}
}

// TestCopyToFileFormats: COPY TO a file writes the text, CSV and binary
// formats too, and COPY FROM reads each file back as the same rows.
func TestCopyToFileFormats(t *testing.T) {
	_, root, run := pqSession(t)
	must := mustRun(t, run)
	must(`CREATE TABLE s (id int, t text, n numeric(6,2), ts timestamp)`)
	must(`INSERT INTO s VALUES (1, E'a\tb\nc "q" \\', 1.5, '2020-01-02 03:04:05.678'), (2, NULL, NULL, NULL), (3, '', -0.01, '0001-01-01 00:00:00')`)
	for _, f := range []string{"text", "csv, HEADER", "binary"} {
		name := "s." + strings.Fields(strings.TrimSuffix(f, ","))[0]
		name = strings.TrimSuffix(name, ",")
		if r := must(`COPY s TO '` + name + `' (FORMAT ` + f + `)`); r.tags[0] != "COPY 3" {
			t.Errorf("%s: tag %q", f, r.tags)
		}
		if _, err := os.Stat(filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
		must(`CREATE TABLE b (id int, t text, n numeric(6,2), ts timestamp)`)
		must(`COPY b FROM '` + name + `' (FORMAT ` + f + `)`)
		a, b := must(`SELECT * FROM s ORDER BY id`).rows, must(`SELECT * FROM b ORDER BY id`).rows
		if !slices.Equal(a, b) {
			t.Errorf("%s:\n got %q\nwant %q", f, b, a)
		}
		must(`DROP TABLE b`)
	}
}

// TestParquetWideDecimals: numeric(p,s) past 18 digits is written as
// DECIMAL(p,s) in a 16-byte FIXED_LEN_BYTE_ARRAY, as Spark writes it, and
// reads back with its type and exact values: the largest of each scale,
// negatives, NULLs, across row groups; narrower decimals load into wider
// columns, and a wider one does not load into a narrower column.
func TestParquetWideDecimals(t *testing.T) {
	_, root, run := pqSession(t)
	must := mustRun(t, run)
	os.Mkdir(filepath.Join(root, "out"), 0o755)
	must(`CREATE TABLE w (id integer, a numeric(38,2), b numeric(38,0), c numeric(20,10), n numeric(9,2))`)
	must(`INSERT INTO w VALUES
		(1, 999999999999999999999999999999999999.99, 99999999999999999999999999999999999999, 9999999999.9999999999, 9999999.99),
		(2, -999999999999999999999999999999999999.99, -99999999999999999999999999999999999999, -0.0000000001, -0.01),
		(3, NULL, NULL, NULL, NULL),
		(4, 0.01, 18446744073709551616, -9223372036.8547758080, 0)`)
	must(`INSERT INTO w SELECT g, g * 123456789012345678901.23, -g * 1000000000000000000007, g / 7.0, g FROM generate_series(5, 2000) g`)
	must(`COPY w TO 'out/w.parquet' WITH (FORMAT parquet, ROW_GROUP_SIZE 300)`)
	f, err := os.Open(filepath.Join(root, "out", "w.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a", "b", "c"} {
		col, ok := pf.Schema().Lookup(name)
		if !ok || col.Node.Type().Kind() != parquet.FixedLenByteArray || col.Node.Type().Length() != 16 {
			t.Errorf("column %s: %v, want a 16-byte FIXED_LEN_BYTE_ARRAY", name, col.Node.Type())
		}
	}
	must(`CREATE TABLE back FROM PARQUET 'out/w.parquet'`)
	types := must(`SELECT string_agg(column_name || ' ' || format_type(atttypid, atttypmod), ', ' ORDER BY attnum)
		FROM information_schema.columns c JOIN pg_attribute a ON a.attname = c.column_name AND a.attrelid = 'back'::regclass
		WHERE table_name = 'back'`).rows[0]
	if types != "id integer, a numeric(38,2), b numeric(38,0), c numeric(20,10), n numeric(9,2)" {
		t.Errorf("types read back: %s", types)
	}
	want := must(`SELECT * FROM w ORDER BY id`).rows
	if got := must(`SELECT * FROM back ORDER BY id`).rows; !slices.Equal(got, want) {
		t.Errorf("values read back differ: %d rows, first %q, want %q", len(got), got[:min(3, len(got))], want[:3])
	}
	// narrower into wider: DECIMAL(9,2) and DECIMAL(20,10) into 38 digits
	must(`CREATE TABLE wide (id integer, n numeric(38,20), c numeric(38,12)) `)
	must(`COPY (SELECT id, n, c FROM w) TO 'out/n.parquet' (FORMAT parquet)`)
	must(`COPY wide FROM 'out/n.parquet' (FORMAT parquet)`)
	if got := must(`SELECT count(*) FROM wide JOIN w USING (id) WHERE wide.n IS NOT DISTINCT FROM w.n AND wide.c IS NOT DISTINCT FROM w.c
		AND wide.n::text IS NOT DISTINCT FROM w.n::numeric(38,20)::text`).rows[0]; got != "2000" {
		t.Errorf("narrow into wide: %s rows equal, want 2000", got)
	}
	// DECIMAL(38,0) does not load into numeric(20,0)
	if _, err := run(`CREATE TABLE tooNarrow (id integer, a numeric(38,2), b numeric(20,0)) FROM PARQUET 'out/w.parquet'`); err == nil {
		t.Error("DECIMAL(38,0) into numeric(20,0): no error")
	}
}
