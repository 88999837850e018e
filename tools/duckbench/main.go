// Command duckbench loads tables into an in-memory DuckDB and times
// queries there, as a reference point for gpusql: per query the fastest
// and the median of -runs runs, as a table and as one JSON line each.
// It can also print each query's rows in the text format of
// testdata/tpch/answers, write them to files, or check them against those
// answers. See tools/README.md.
//
//	duckbench -schema testdata/tpch/schema.sql -data /tmp/tpch-sf1 -sf 1 \
//	    -threads 2 -runs 5 -check testdata/tpch/answers/sf1 testdata/tpch/queries
package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	_ "github.com/duckdb/duckdb-go/v2"
)

// listFlag collects a repeated flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

// result is the JSON line printed per query.
type result struct {
	Engine   string  `json:"engine"`
	Version  string  `json:"version"`
	Query    string  `json:"query"`
	SF       string  `json:"sf,omitempty"`
	Threads  int     `json:"threads"`
	Runs     int     `json:"runs"`
	MinMS    float64 `json:"min_ms"`
	MedianMS float64 `json:"median_ms"`
	Rows     int     `json:"rows"`
	Check    string  `json:"check,omitempty"` // "ok" or why not, with -check
	Error    string  `json:"error,omitempty"`
}

func main() {
	var (
		plan    loadPlan
		schemas listFlag
		loads   listFlag
	)
	flag.Var(&schemas, "schema", "SQL `file` to run before loading (repeatable), e.g. testdata/tpch/schema.sql")
	flag.StringVar(&plan.DataDir, "data", "", "load every table the schema made from `dir`/<table>.csv (tpchgen's output)")
	flag.Var(&loads, "load", "load one table: `name=file.csv` or name=schema.sql:file.csv (repeatable)")
	flag.StringVar(&plan.CSV.Delim, "delim", "|", "CSV field delimiter")
	format := flag.String("format", "csv", "format of the files: csv, or text (PostgreSQL's text format: tab-separated, no quotes, \\N is NULL; ClickBench's hits.tsv)")
	flag.BoolVar(&plan.CSV.Header, "header", false, "CSV files start with a header line")
	sf := flag.String("sf", "", "scale factor, recorded in the JSON lines")
	threads := flag.Int("threads", runtime.NumCPU(), "DuckDB worker threads")
	runs := flag.Int("runs", 5, "measured runs per query")
	warmup := flag.Int("warmup", 1, "unmeasured runs per query before those")
	printRows := flag.Bool("print", false, "print each query's rows (answer format) after its JSON line")
	outDir := flag.String("out", "", "write each query's rows to `dir`/<query>.out (answer format)")
	checkDir := flag.String("check", "", "compare each query's rows with `dir`/<query>.out")
	keysFile := flag.String("keys", "", "`file` of the queries' ORDER BY columns, for -check where LIMIT cuts ties (testdata/clickbench/keys.txt)")
	tol := flag.Float64("tol", 1e-9, "relative tolerance of -check for numbers")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: duckbench [flags] query.sql|dir ...\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	switch *format {
	case "csv":
	case "text":
		plan.CSV.Text = true
	default:
		fatal(fmt.Errorf("-format %q: want csv or text", *format))
	}
	plan.Schemas = schemas
	for _, s := range loads {
		l, err := parseLoad(s)
		if err != nil {
			fatal(err)
		}
		plan.Loads = append(plan.Loads, l)
	}
	if *runs < 1 || *warmup < 0 || *threads < 1 {
		fatal(fmt.Errorf("-runs and -threads must be at least 1, -warmup at least 0"))
	}
	queries, err := readQueries(flag.Args())
	if err != nil {
		fatal(err)
	}
	var keys orderKeys
	if *keysFile != "" {
		if keys, err = readOrderKeys(*keysFile); err != nil {
			fatal(err)
		}
	}
	if *outDir != "" {
		if err := os.MkdirAll(*outDir, 0o755); err != nil {
			fatal(err)
		}
	}

	ctx := context.Background()
	db, err := sql.Open("duckdb", "")
	if err != nil {
		fatal(err)
	}
	defer db.Close()
	// One connection, so every statement sees the same session.
	conn, err := db.Conn(ctx)
	if err != nil {
		fatal(err)
	}
	defer conn.Close()
	// Extensions that are not built in are not fetched: the machines this
	// runs on may have no network, and the TPC-H queries need none.
	for _, s := range []string{fmt.Sprintf("SET threads = %d", *threads), "SET autoinstall_known_extensions = false"} {
		if _, err := conn.ExecContext(ctx, s); err != nil {
			fatal(err)
		}
	}
	var version string
	if err := conn.QueryRowContext(ctx, "SELECT version()").Scan(&version); err != nil {
		fatal(err)
	}

	start := time.Now()
	tables, counts, err := load(ctx, conn, plan)
	if err != nil {
		fatal(err)
	}
	fmt.Fprintf(os.Stderr, "duckdb %s, %d threads: loaded %d tables in %.1f s\n", version, *threads, len(tables), time.Since(start).Seconds())
	for i, t := range tables {
		fmt.Fprintf(os.Stderr, "  %-12s %10d rows  %s\n", t.Table, counts[i], t.File)
	}

	var results []result
	failed := false
	enc := json.NewEncoder(os.Stdout)
	for _, q := range queries {
		r := result{Engine: "duckdb", Version: version, Query: q.Name, SF: *sf, Threads: *threads, Runs: *runs}
		t, err := runQuery(ctx, conn, q, *warmup, *runs)
		if err != nil {
			r.Error = err.Error()
			failed = true
		} else {
			mn, med := minMedian(t.Runs)
			r.MinMS, r.MedianMS, r.Rows = ms(mn), ms(med), t.Rows
			if *checkDir != "" {
				k, keyed := keys[q.Name]
				r.Check = check(filepath.Join(*checkDir, q.Name+".out"), q.SQL, t.Text, k, keyed, *tol)
				failed = failed || r.Check != "ok"
			}
			if *outDir != "" {
				if err := os.WriteFile(filepath.Join(*outDir, q.Name+".out"), t.Text, 0o644); err != nil {
					fatal(err)
				}
			}
		}
		if err := enc.Encode(r); err != nil {
			fatal(err)
		}
		if *printRows && t != nil {
			fmt.Printf("-- %s\n%s", q.Name, t.Text)
		}
		results = append(results, r)
	}
	printTable(results)
	if failed {
		os.Exit(1)
	}
}

// check compares text, the rows of query sql, with the answer file at
// path; keys are its order keys when keyed.
func check(path, sql string, text []byte, keys []int, keyed bool, tol float64) string {
	want, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	d := compareAnswer(string(text), string(want), tol)
	if d != "" && keyed {
		d = compareKeyed(sql, string(text), string(want), keys, tol)
	}
	if d != "" {
		return d
	}
	return "ok"
}

func printTable(rs []result) {
	fmt.Printf("\n%-8s %8s %10s %10s  %s\n", "query", "rows", "min_ms", "median_ms", "check")
	var sumMin, sumMed float64
	for _, r := range rs {
		note := r.Check
		if r.Error != "" {
			first, _, _ := strings.Cut(r.Error, "\n")
			note = "error: " + first
		}
		fmt.Printf("%-8s %8d %10.1f %10.1f  %s\n", r.Query, r.Rows, r.MinMS, r.MedianMS, note)
		sumMin += r.MinMS
		sumMed += r.MedianMS
	}
	fmt.Printf("%-8s %8s %10.1f %10.1f\n", "total", "", sumMin, sumMed)
}

func fatal(err error) {
	fmt.Fprintf(os.Stderr, "duckbench: %v\n", err)
	os.Exit(1)
}
