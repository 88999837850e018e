// Command hitsgen writes a synthetic ClickBench hits table: ClickBench's
// 105 columns with distributions made after the real data's (package
// hits says how), as hits.csv or hits.tsv that gpusql, PostgreSQL and
// DuckDB load. The same -rows and -seed always give the same bytes,
// whatever -workers is. See tools/README.md.
//
//	hitsgen -rows 10000000 -o /tmp/hits/hits.csv
//	hitsgen -rows 100000 -format tsv -o hits.tsv -schema schema.sql
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/gpusql/gpusql/tools/hitsgen/hits"
)

func main() {
	rows := flag.Int64("rows", 1_000_000, "rows to write")
	out := flag.String("o", "", "output `file` (default: hits.csv or hits.tsv in the current directory; - for stdout)")
	format := flag.String("format", "csv", "csv or tsv (PostgreSQL's text format)")
	seed := flag.Uint64("seed", 1, "random seed: another seed gives other values from the same distributions")
	workers := flag.Int("workers", runtime.NumCPU(), "goroutines making rows")
	schema := flag.String("schema", "", "also write the CREATE TABLE statement to `file`")
	quiet := flag.Bool("q", false, "no summary on stderr")
	flag.Parse()
	if flag.NArg() > 0 || *rows < 0 {
		flag.Usage()
		os.Exit(2)
	}
	f, err := hits.ParseFormat(*format)
	if err != nil {
		fatal(err)
	}
	if *out == "" {
		*out = "hits" + f.Ext()
	}
	if err := run(hits.Options{Rows: *rows, Seed: *seed, Format: f}, *out, *workers, *schema, *quiet); err != nil {
		fatal(err)
	}
}

func run(o hits.Options, out string, workers int, schema string, quiet bool) error {
	g, err := hits.New(o)
	if err != nil {
		return err
	}
	if schema != "" {
		if err := os.WriteFile(schema, []byte(hits.CreateTable()), 0o644); err != nil {
			return err
		}
	}
	var w io.Writer = os.Stdout
	var file *os.File
	tmp := ""
	switch st, err := os.Stat(out); {
	case out == "-":
	case err == nil && !st.Mode().IsRegular():
		// A device or a pipe: written as it is.
		if file, err = os.OpenFile(out, os.O_WRONLY, 0); err != nil {
			return err
		}
		defer file.Close()
		w = file
	default:
		// A file is written under a temporary name and renamed when
		// complete, so a file by the final name is always whole.
		tmp = out + ".tmp"
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		if file, err = os.Create(tmp); err != nil {
			return err
		}
		defer os.Remove(tmp)
		defer file.Close()
		w = file
	}
	cw := &countWriter{w: w}
	bw := bufio.NewWriterSize(cw, 1<<20)
	start := time.Now()
	st, err := g.Write(bw, workers)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil && file != nil {
		if err = file.Close(); err == nil && tmp != "" {
			err = os.Rename(tmp, out)
		}
	}
	if err != nil {
		return err
	}
	if !quiet {
		el := time.Since(start)
		fmt.Fprintf(os.Stderr, "hitsgen: %d rows, %.1f MB in %.1f s (%.0f MB/s, %d workers) to %s\n",
			st.Rows, float64(cw.n)/1e6, el.Seconds(), float64(cw.n)/1e6/el.Seconds(), workers, out)
		var widths []string
		text, fixed := 0, 0
		for i, c := range hits.Columns {
			switch c.Type {
			case "BIGINT", "TIMESTAMP":
				fixed += 8
			case "INTEGER", "Date":
				fixed += 4
			case "SMALLINT":
				fixed += 2
			default: // TEXT, CHAR, VARCHAR(255)
				widths = append(widths, fmt.Sprintf("%s %d", c.Name, st.MaxLen[i]))
				text += (st.MaxLen[i] + 3) &^ 3
			}
		}
		fmt.Fprintf(os.Stderr, "hitsgen: longest text values in bytes: %s\n", strings.Join(widths, ", "))
		fmt.Fprintf(os.Stderr, "hitsgen: gpusql holds a row in %d bytes: %d of text (each column as wide as its widest value, a multiple of 4), %d of the rest\n",
			text+fixed, text, fixed)
	}
	return nil
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "hitsgen:", err)
	os.Exit(1)
}
