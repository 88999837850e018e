// Command gpusql-tpch loads tables into an embedded gpusql and times a
// set of queries on one or more backends: per query the fastest and the
// median of -runs runs (the statement and every row returned, with no
// client in between), as a table and as one JSON line each, in
// tools/duckbench's format. With -check it compares each query's rows with
// PostgreSQL's answers; -compare runs each query once more on another
// backend and compares the two; -duckdb reads tools/duckbench's JSON
// lines from the same data and prints the speedups, the hot sums and
// their geometric mean.
//
// The defaults are TPC-H's (testdata/tpch, tools/tpchgen's '|'-separated
// files); ClickBench's hits (testdata/clickbench) takes flags:
//
//	gpusql-tpch -data /tmp/tpch-sf10 -sf 10 -device cuda -runs 5 -compare cpu
//	gpusql-tpch -data /tmp/hits -schema testdata/clickbench/schema.sql -tables hits -delim , \
//	    -queries testdata/clickbench/queries -device cuda,cpu -warmup 1 -runs 3 -duckdb duckdb.log
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"github.com/gpusql/gpusql/loader"
)

// tpchTables are the default -tables.
const tpchTables = "region,nation,part,supplier,partsupp,customer,orders,lineitem"

// config is what the flags say.
type config struct {
	data, sf        string
	devices         []string // timed backends, in order
	compare         string   // a backend run once a query, untimed, to compare with
	runs, warmup    int
	check, keys     string
	queries, schema string
	tables          []tableFile
	format, delim   string
	header          bool
	only            map[string]bool
	explain         bool
	duckdb          string
	gpus            []int  // GPU ordinals of the cuda backend (nil: every GPU)
	persistDir      string // keep the tables in this data directory (timing loads with persistence)
	partitions      int    // parts of a table per device
	redistribute    bool   // co-partition every join tree that can be
	mmap            bool   // GPU loads map the files instead of pread
	loadBuffers     int    // GPU loads: pinned host buffers (0: default)
	loadReaders     int    // GPU loads: pread goroutines (0: default)
	loadDriverPin   bool   // GPU loads: buffers pinned by cuMemAllocHost
	reload          int    // load the tables again this many times, timing each
	genLineitem     int
}

// tableFile is a table and the file (relative to -data) it loads from.
type tableFile struct{ name, file string }

func main() {
	var c config
	flag.StringVar(&c.data, "data", "", "directory of the tables' files (paths in -tables are relative to it)")
	flag.StringVar(&c.sf, "sf", "", "scale (scale factor, rows), recorded in the JSON lines")
	device := flag.String("device", "auto", "backends to time, comma-separated: auto, cpu, cuda")
	flag.StringVar(&c.compare, "compare", "", "a backend (cpu or cuda) to run each query on once and compare with the first")
	flag.IntVar(&c.runs, "runs", 5, "timed runs of each query")
	flag.IntVar(&c.warmup, "warmup", 0, "untimed runs of each query before those")
	flag.StringVar(&c.check, "check", "", "directory of answers <query>.out to compare with")
	flag.StringVar(&c.keys, "keys", "", "file of the queries' ORDER BY columns, for -check of queries whose LIMIT cuts ties (testdata/clickbench/keys.txt)")
	flag.StringVar(&c.queries, "queries", "testdata/tpch/queries", "directory of the queries, one a .sql file, run in name order")
	flag.StringVar(&c.schema, "schema", "testdata/tpch/schema.sql", "the tables' DDL")
	tables := flag.String("tables", tpchTables, "tables to load, comma-separated: name (from name.csv, or name.tsv with -format text) or name=file")
	flag.StringVar(&c.format, "format", "csv", "format of the files: csv, or text (PostgreSQL's tab-separated text format, as ClickBench's hits.tsv)")
	flag.StringVar(&c.delim, "delim", "|", "field delimiter of csv files")
	flag.BoolVar(&c.header, "header", false, "csv files start with a header line")
	only := flag.String("only", "", "comma-separated query names to run (default all)")
	flag.BoolVar(&c.explain, "explain", false, "print each query's EXPLAIN ANALYZE (after a warm-up run) on the first backend")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the timed runs to `file`")
	flag.StringVar(&c.duckdb, "duckdb", "", "tools/duckbench's output (JSON lines) for the same queries and data: print the speedups")
	gpus := flag.String("gpus", "", "comma-separated GPU ordinals the cuda backend uses (default: every GPU; with several, tables are split across them)")
	flag.IntVar(&c.partitions, "partitions", 1, "parts of each table per device")
	flag.IntVar(&c.loadBuffers, "load-buffers", 0, "GPU loads: pinned host buffers read ahead of the device (0: the loader's default)")
	flag.IntVar(&c.loadReaders, "load-readers", 0, "GPU loads: pread goroutines per buffer (0: one per host core)")
	flag.BoolVar(&c.loadDriverPin, "load-driver-pinned", false, "GPU loads: pin the host buffers with cuMemAllocHost instead of on transparent huge pages")
	flag.IntVar(&c.reload, "reload", 0, "after the first load, empty and load the tables this many more times, printing each load's time")
	flag.BoolVar(&c.mmap, "mmap", false, "GPU loads map and register the files, the GPU copying from the page cache, instead of pread into pinned buffers")
	flag.BoolVar(&c.redistribute, "redistribute", false, "with tables in parts, redistribute the tables of every join tree that can be by key (the server's --redistribute-joins always)")
	flag.StringVar(&c.persistDir, "persist", "", "data `directory` in which the engine keeps its tables, as the server does by default (loads then include writing them); empty: in memory only")
	flag.IntVar(&c.genLineitem, "gen-lineitem", 0, "write `rows` of loader.WriteLineitem's lineitem to -data/lineitem.csv if that file is missing, then exit")
	flag.Parse()
	for _, f := range strings.Split(*gpus, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		d, err := strconv.Atoi(f)
		if err != nil || d < 0 {
			fmt.Fprintf(os.Stderr, "gpusql-tpch: -gpus %q: want GPU ordinals separated by commas\n", *gpus)
			os.Exit(2)
		}
		c.gpus = append(c.gpus, d)
	}
	if c.data == "" {
		usage("-data is required")
	}
	if c.genLineitem > 0 {
		if err := genLineitem(c.data, c.genLineitem); err != nil {
			fatal(err)
		}
		return
	}
	if c.format != "csv" && c.format != "text" {
		usage("-format %q: want csv or text", c.format)
	}
	if c.runs < 1 || c.warmup < 0 {
		usage("-runs must be at least 1 and -warmup at least 0")
	}
	for _, d := range strings.Split(*device, ",") {
		if d = strings.TrimSpace(d); d != "" {
			c.devices = append(c.devices, d)
		}
	}
	if len(c.devices) == 0 {
		usage("-device names no backend")
	}
	var err error
	if c.tables, err = parseTables(*tables, c.format); err != nil {
		usage("%v", err)
	}
	c.only = map[string]bool{}
	for _, q := range strings.Split(*only, ",") {
		if q != "" {
			c.only[q] = true
		}
	}
	var profile *os.File
	if *cpuProfile != "" {
		if profile, err = os.Create(*cpuProfile); err != nil {
			fatal(err)
		}
		if err := pprof.StartCPUProfile(profile); err != nil {
			fatal(err)
		}
	}
	err = run(&c)
	if profile != nil {
		pprof.StopCPUProfile()
		profile.Close()
	}
	if err != nil {
		fatal(err)
	}
}

// parseTables reads -tables.
func parseTables(s, format string) ([]tableFile, error) {
	ext := ".csv"
	if format == "text" {
		ext = ".tsv"
	}
	var ts []tableFile
	for _, t := range strings.Split(s, ",") {
		t = strings.TrimSpace(t)
		if t == "" {
			continue
		}
		name, file, ok := strings.Cut(t, "=")
		if !ok {
			file = name + ext
		}
		if name == "" || file == "" {
			return nil, fmt.Errorf("-tables: %q: want name or name=file", t)
		}
		ts = append(ts, tableFile{name, file})
	}
	if len(ts) == 0 {
		return nil, fmt.Errorf("-tables names no table")
	}
	return ts, nil
}

// genLineitem writes rows of the loader's lineitem-like CSV to
// dir/lineitem.csv unless it exists: one random stream (seed 1), so
// l_orderkey ascends through the whole file and names about one order per
// 4.5 rows (the peer benchmark's 1.5 M groups at 6 M rows, and its point
// filter over a clustered key). It is written under another name first,
// so that a file cut short is never taken for a whole one.
func genLineitem(dir string, rows int) error {
	path := filepath.Join(dir, "lineitem.csv")
	if _, err := os.Stat(path); err == nil {
		fmt.Printf("%s exists; kept\n", path)
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.Create(path + ".part")
	if err != nil {
		return err
	}
	start := time.Now()
	err = loader.WriteLineitem(f, rows, 1)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(path+".part", path)
	}
	if err != nil {
		os.Remove(path + ".part")
		return err
	}
	fmt.Printf("wrote %d rows to %s in %v\n", rows, path, time.Since(start).Round(time.Millisecond))
	return nil
}

func usage(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "gpusql-tpch: "+format+"\n", args...)
	flag.Usage()
	os.Exit(2)
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "gpusql-tpch:", err)
	os.Exit(1)
}
