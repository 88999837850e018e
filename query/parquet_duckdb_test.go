package query_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpusql/gpusql/loader/pqfile"
)

// cells records a result's values one by one (nil for NULL), for values
// that may hold the recorder's separators.
type cells struct {
	recorder
	vals [][]*string
}

func (c *cells) Row(v [][]byte) error {
	row := make([]*string, len(v))
	for i, x := range v {
		if x != nil {
			s := string(x)
			row[i] = &s
		}
	}
	c.vals = append(c.vals, row)
	return nil
}

// duckDBParquet runs testdata/clients/node/duckdb_parquet.js, DuckDB
// through @duckdb/node-api, over file: the column names and DuckDB's
// types, and each row's values as DuckDB casts them to VARCHAR (nil for
// NULL). Without node or the module the test fails under $CI (.ci/run
// installs both) and is skipped otherwise.
func duckDBParquet(t *testing.T, file string) (cols []string, rows [][]*string) {
	t.Helper()
	dir, _ := filepath.Abs("../testdata/clients/node")
	var missing string
	if _, err := exec.LookPath("node"); err != nil {
		missing = "node not found (Debian: nodejs)"
	} else if _, err := os.Stat(filepath.Join(dir, "node_modules", "@duckdb", "node-api", "package.json")); err != nil {
		missing = "@duckdb/node-api is not installed in testdata/clients/node (scripts/clients/npm-install.sh installs it)"
	}
	if missing != "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI is set and DuckDB is required: %s", missing)
		}
		t.Skip("DuckDB read-back skipped: " + missing + "; .ci/run installs it")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", filepath.Join(dir, "duckdb_parquet.js"), file)
	cmd.Dir = dir
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("duckdb_parquet.js %s: %v\n%s", file, err, stderr.String())
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	i := 0
	for ; i < len(lines) && lines[i] != "--"; i++ {
		cols = append(cols, lines[i])
	}
	for _, l := range lines[i+1:] {
		var row []*string
		for _, f := range strings.Split(l, "\t") {
			if f == `\N` {
				row = append(row, nil)
				continue
			}
			var u string
			if err := json.Unmarshal([]byte(f), &u); err != nil {
				t.Fatalf("duckdb_parquet.js: bad value %s", f)
			}
			row = append(row, &u)
		}
		rows = append(rows, row)
	}
	return cols, rows
}

// TestParquetWriteDuckDB: another Parquet implementation reads the files
// COPY TO writes. DuckDB sees every column with the type docs/parquet.md
// promises and the same values as gpusql's own rows (every type, edge
// values, NULLs), in row groups of ROW_GROUP_SIZE rows, with each
// COMPRESSION; an empty result is a file of no rows with the columns.
func TestParquetWriteDuckDB(t *testing.T) {
	sess, root, run := pqSession(t)
	must := mustRun(t, run)
	pqwSource(must)
	wantCols := []string{"id\tBIGINT", "i16\tSMALLINT", "i32\tINTEGER", "i64\tBIGINT", "n4\tDECIMAL(4,2)",
		"n9\tDECIMAL(9,9)", "n10\tDECIMAL(10,0)", "n18\tDECIMAL(18,6)", "d\tDATE", "ts\tTIMESTAMP", "ts3\tTIMESTAMP",
		"tz\tTIMESTAMP WITH TIME ZONE", "tm\tTIME", "t\tVARCHAR", "vc\tVARCHAR", "ch\tVARCHAR", "b\tBOOLEAN",
		"f4\tFLOAT", "f8\tDOUBLE"}
	var src cells
	if err := sess.Query(context.Background(), `SELECT * FROM src ORDER BY id`, &src); err != nil {
		t.Fatal(err)
	}
	for _, codec := range []string{"", ", COMPRESSION snappy", ", COMPRESSION zstd", ", COMPRESSION gzip", ", COMPRESSION uncompressed"} {
		name := "d" + strings.TrimPrefix(codec, ", COMPRESSION ") + ".parquet"
		must(`COPY (SELECT * FROM src ORDER BY id) TO '` + name + `' (FORMAT parquet, ROW_GROUP_SIZE 700` + codec + `)`)
		path := filepath.Join(root, name)
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		st, _ := f.Stat()
		pf, err := pqfile.Open(f, st.Size(), name, nil)
		if err != nil {
			t.Fatal(err)
		}
		if pf.RowGroups() != 5 || pf.MaxRowGroupRows() != 700 {
			t.Errorf("%s: %d row groups of at most %d rows, want 5 of 700", name, pf.RowGroups(), pf.MaxRowGroupRows())
		}
		f.Close()
		cols, rows := duckDBParquet(t, path)
		if strings.Join(cols, ", ") != strings.Join(wantCols, ", ") {
			t.Errorf("%s: DuckDB's columns:\n got %q\nwant %q", name, cols, wantCols)
		}
		if len(rows) != len(src.vals) {
			t.Fatalf("%s: DuckDB read %d rows, want %d", name, len(rows), len(src.vals))
		}
		bad := 0
		for i, want := range src.vals {
			for c, w := range want {
				if msg := duckSame(wantCols[c], w, rows[i][c]); msg != "" && bad < 10 {
					bad++
					t.Errorf("%s row %d column %s: %s", name, i, strings.Fields(wantCols[c])[0], msg)
				}
			}
		}
	}
	must(`COPY (SELECT * FROM src WHERE false) TO 'empty.parquet' (FORMAT parquet)`)
	cols, rows := duckDBParquet(t, filepath.Join(root, "empty.parquet"))
	if strings.Join(cols, ", ") != strings.Join(wantCols, ", ") || len(rows) != 0 {
		t.Errorf("empty.parquet: DuckDB's columns %q and %d rows", cols, len(rows))
	}
}

// duckSame compares gpusql's text of a value with DuckDB's VARCHAR of the
// value it read from the file, for a column "name\tTYPE": the spellings
// differ for booleans and for floats (DuckDB prints the shortest text
// that reads back, gpusql PostgreSQL's), which compare as values.
func duckSame(col string, gp, duck *string) string {
	if (gp == nil) != (duck == nil) {
		return fmt.Sprintf("gpusql %v, DuckDB %v", show(gp), show(duck))
	}
	if gp == nil {
		return ""
	}
	g, d := *gp, *duck
	switch typ := strings.SplitN(col, "\t", 2)[1]; typ {
	case "DECIMAL(9,9)":
		// DuckDB leaves out the 0 before the point when a decimal has
		// only fraction digits (.5, -.5).
		if rest, ok := strings.CutPrefix(d, "-."); ok {
			d = "-0." + rest
		} else if rest, ok := strings.CutPrefix(d, "."); ok {
			d = "0." + rest
		}
	case "BOOLEAN":
		g = map[string]string{"t": "true", "f": "false"}[g]
	case "FLOAT", "DOUBLE":
		bits := 64
		if typ == "FLOAT" {
			bits = 32
		}
		gf, err1 := strconv.ParseFloat(g, bits)
		df, err2 := strconv.ParseFloat(d, bits)
		if err1 == nil && err2 == nil && (gf == df && math.Signbit(gf) == math.Signbit(df) || math.IsNaN(gf) && math.IsNaN(df)) {
			return ""
		}
	}
	if g != d {
		return fmt.Sprintf("gpusql %q, DuckDB %q", *gp, d)
	}
	return ""
}

func show(s *string) string {
	if s == nil {
		return "NULL"
	}
	return strconv.Quote(*s)
}
