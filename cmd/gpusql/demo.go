package main

// --demo: make sure <data-dir>/demo.csv exists (a TPC-H-lineitem-like
// table, generated once), then load it with CREATE TABLE ... FROM CSV
// through an ordinary engine session, as a client's statement would run.

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"github.com/gpusql/gpusql/loader"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/gpusql/gpusql/engine"
)

const (
	demoTable = "demo"
	demoFile  = "demo.csv"
	demoRows  = 100_000
	demoSeed  = 1
)

// setUpDemo generates the demo file if needed and creates the demo table.
func setUpDemo(ctx context.Context, o *options, eng engine.Server, logger *slog.Logger, stdout io.Writer) error {
	path := filepath.Join(o.dataDir, demoFile)
	rel, err := filepath.Rel(o.fileRoot, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fmt.Errorf("--demo needs the data directory inside --file-root (%s is outside %s)", path, o.fileRoot)
	}
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		start := time.Now()
		if err := generateDemoFile(path, demoRows, demoSeed); err != nil {
			return err
		}
		st, _ := os.Stat(path)
		logger.Info("generated demo data", "file", path, "rows", demoRows, "took", time.Since(start).Round(time.Millisecond))
		if st != nil {
			fmt.Fprintf(stdout, "generated %s: %s rows, %s\n", path, humanize.Comma(demoRows), humanize.IBytes(uint64(st.Size())))
		}
	} else if err != nil {
		return err
	}

	sess, err := eng.NewSession(engine.SessionParams{User: "gpusql", Database: "gpusql", Application: "gpusql --demo"})
	if err != nil {
		return err
	}
	defer sess.Close()
	start := time.Now()
	create := demoCreateStatement(filepath.ToSlash(rel))
	if _, err := demoQuery(ctx, sess, create, logger); err != nil {
		if engine.Code(err) != engine.CodeDuplicateTable {
			return fmt.Errorf("%s: %w", create, err)
		}
		logger.Info("demo table already exists", "table", demoTable)
	}
	rows, err := demoQuery(ctx, sess, "SELECT count(*) FROM "+demoTable, logger)
	if err != nil {
		return err
	}
	if len(rows) != 1 || len(rows[0]) != 1 {
		return fmt.Errorf("SELECT count(*) returned %d rows", len(rows))
	}
	n, err := strconv.ParseInt(rows[0][0], 10, 64)
	if err != nil {
		return fmt.Errorf("SELECT count(*) returned %q", rows[0][0])
	}
	logger.Info("demo table ready", "table", demoTable, "rows", n, "took", time.Since(start).Round(time.Millisecond))
	fmt.Fprintf(stdout, "demo table %q ready: %s rows from %s\n", demoTable, humanize.Comma(n), path)
	fmt.Fprintf(stdout, "try:\n")
	for _, q := range []string{
		"SELECT l_returnflag, l_linestatus, count(*), sum(l_quantity) AS sum_qty, avg(l_extendedprice) AS avg_price FROM demo GROUP BY l_returnflag, l_linestatus ORDER BY 1, 2;",
		"SELECT l_shipmode, count(*) FROM demo WHERE l_shipdate >= DATE '1995-01-01' GROUP BY l_shipmode ORDER BY 2 DESC;",
	} {
		fmt.Fprintf(stdout, "  %s\n", q)
	}
	return nil
}

// demoCreateStatement is the CREATE TABLE ... FROM CSV of the demo table;
// file is relative to the file root.
func demoCreateStatement(file string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "CREATE TABLE %s (", demoTable)
	for i, c := range demoColumns() {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(c.Name + " " + c.Type.String())
		if c.NotNull {
			b.WriteString(" NOT NULL")
		}
	}
	fmt.Fprintf(&b, ") FROM CSV %s WITH (HEADER true)", quoteLiteral(file))
	return b.String()
}

// demoQuery runs sql in sess and returns the rows as text (NULL as "").
func demoQuery(ctx context.Context, sess engine.Session, sql string, logger *slog.Logger) ([][]string, error) {
	c := &demoCollector{log: logger}
	err := sess.Query(ctx, sql, c)
	return c.rows, err
}

// demoCollector is an engine.ResultWriter that keeps rows and logs notices.
type demoCollector struct {
	log  *slog.Logger
	rows [][]string
}

func (c *demoCollector) Describe([]engine.ResultColumn) error { return nil }
func (c *demoCollector) Row(values [][]byte) error {
	r := make([]string, len(values))
	for i, v := range values {
		r[i] = string(v)
	}
	c.rows = append(c.rows, r)
	return nil
}
func (c *demoCollector) Complete(tag string) error {
	c.log.Debug("demo statement done", "tag", tag)
	return nil
}
func (c *demoCollector) Notice(n engine.Notice) error {
	c.log.Info("demo: "+strings.ToLower(n.Severity), "msg", n.Message, "detail", n.Detail)
	return nil
}
func (c *demoCollector) EmptyQuery() error { return nil }

// demoColumns is the schema of the demo table: TPC-H's lineitem.
func demoColumns() []engine.ColumnDef { return loader.LineitemColumns() }

// generateDemoFile writes rows lineitem-like rows, with a header, to path.
// It writes a temporary file and renames it, so an interrupted run leaves
// no partial demo.csv.
func generateDemoFile(path string, rows int, seed uint64) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".demo-*.csv")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	w := bufio.NewWriterSize(f, 1<<20)
	if err := writeDemoCSV(w, rows, seed); err != nil {
		f.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// writeDemoCSV writes the demo rows as CSV with a header line, using the
// same lineitem generator as the loader's benchmarks. The same seed gives
// the same bytes.
func writeDemoCSV(w io.Writer, rows int, seed uint64) error {
	bw := bufio.NewWriter(w)
	for i, c := range demoColumns() {
		if i > 0 {
			bw.WriteByte(',')
		}
		bw.WriteString(c.Name)
	}
	bw.WriteByte('\n')
	if err := loader.WriteLineitem(bw, rows, int64(seed)); err != nil {
		return err
	}
	return bw.Flush()
}
