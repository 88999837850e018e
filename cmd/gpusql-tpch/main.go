// Command gpusql-tpch loads the TPC-H tables made by tools/tpchgen into
// an embedded gpusql and times the 22 queries: per query the fastest and
// the median of -runs runs (the statement and every row returned, with no
// client in between), as a table and as one JSON line each, in
// tools/duckbench's format. With -check it compares each query's rows with
// PostgreSQL's answers (testdata/tpch/answers); with -compare it runs each
// query once more on a second backend and compares the two.
//
//	gpusql-tpch -data /tmp/tpch-sf10 -sf 10 -device cuda -runs 5 -compare cpu
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"sort"
	"strings"
	"time"

	"github.com/dustin/go-humanize"

	"github.com/gpusql/gpusql"
)

// opts are the flags that only some runs use.
var opts struct {
	explain bool
	profile *os.File
}

var tables = []string{"region", "nation", "part", "supplier", "partsupp", "customer", "orders", "lineitem"}

type result struct {
	Engine   string  `json:"engine"`
	Query    string  `json:"query"`
	SF       string  `json:"sf,omitempty"`
	Runs     int     `json:"runs"`
	MinMS    float64 `json:"min_ms"`
	MedianMS float64 `json:"median_ms"`
	Rows     int     `json:"rows"`
	Check    string  `json:"check,omitempty"`
	Compare  string  `json:"compare,omitempty"`
	Error    string  `json:"error,omitempty"`
}

func main() {
	data := flag.String("data", "", "directory of tpchgen's <table>.csv files")
	sf := flag.String("sf", "", "scale factor, recorded in the JSON lines")
	device := flag.String("device", "auto", "backend: auto, cpu or cuda")
	compare := flag.String("compare", "", "a second backend (cpu or cuda) to run each query on once and compare")
	runs := flag.Int("runs", 5, "timed runs of each query")
	check := flag.String("check", "", "directory of answers qNN.out to compare with")
	queries := flag.String("queries", "testdata/tpch/queries", "directory of the queries, NAME.sql (TPC-H: q01.sql ... q22.sql; testdata/bench/window: window functions over lineitem)")
	schema := flag.String("schema", "testdata/tpch/schema.sql", "the tables' DDL")
	only := flag.String("only", "", "comma-separated query names to run (default all)")
	explain := flag.Bool("explain", false, "print each query's EXPLAIN ANALYZE (after a warm-up run)")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the timed runs to `file`")
	flag.Parse()
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "gpusql-tpch:", err)
			os.Exit(1)
		}
		opts.profile = f
	}
	opts.explain = *explain
	if *data == "" {
		fmt.Fprintln(os.Stderr, "gpusql-tpch: -data is required")
		os.Exit(2)
	}
	if err := run(*data, *sf, *device, *compare, *runs, *check, *queries, *schema, *only); err != nil {
		pprof.StopCPUProfile()
		fmt.Fprintln(os.Stderr, "gpusql-tpch:", err)
		os.Exit(1)
	}
}

func open(data, device, schema string) (*gpusql.DB, error) {
	db, err := gpusql.Open(gpusql.Options{FileRoot: data, Device: device})
	if err != nil {
		return nil, err
	}
	ddl, err := os.ReadFile(schema)
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	if _, err := db.Exec(ctx, string(ddl)); err != nil {
		return nil, err
	}
	var bytes int64
	start := time.Now()
	for _, t := range tables {
		if st, err := os.Stat(filepath.Join(data, t+".csv")); err == nil {
			bytes += st.Size()
		}
		if _, err := db.Exec(ctx, fmt.Sprintf("COPY %s FROM '%s.csv' WITH (FORMAT csv, DELIMITER '|')", t, t)); err != nil {
			return nil, fmt.Errorf("load %s: %w", t, err)
		}
	}
	el := time.Since(start)
	fmt.Printf("%s: loaded %s in %v (%s/s)\n", db.Backend(), humanize.Bytes(uint64(bytes)), el.Round(time.Millisecond),
		humanize.Bytes(uint64(float64(bytes)/el.Seconds())))
	return db, nil
}

func run(data, sf, device, compare string, runs int, check, queries, schema, only string) error {
	db, err := open(data, device, schema)
	if err != nil {
		return err
	}
	defer db.Close()
	var other *gpusql.DB
	if compare != "" {
		if other, err = open(data, compare, schema); err != nil {
			return err
		}
		defer other.Close()
	}
	want := map[string]bool{}
	for _, q := range strings.Split(only, ",") {
		if q != "" {
			want[q] = true
		}
	}
	if opts.profile != nil {
		if err := pprof.StartCPUProfile(opts.profile); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	var results []result
	files, err := filepath.Glob(filepath.Join(queries, "*.sql"))
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("%s: no .sql files", queries)
	}
	sort.Strings(files)
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".sql")
		if len(want) > 0 && !want[name] {
			continue
		}
		sql, err := os.ReadFile(filepath.Join(queries, name+".sql"))
		if err != nil {
			return err
		}
		res := result{Engine: db.Backend(), Query: name, SF: sf, Runs: runs}
		if opts.explain {
			if _, err := rowsText(db, string(sql)); err == nil {
				plan, err := rowsText(db, "EXPLAIN ANALYZE "+string(sql))
				if err != nil {
					plan = err.Error()
				}
				fmt.Printf("== %s\n%s", name, plan)
			}
		}
		var times []time.Duration
		var text string
		for i := 0; i < runs; i++ {
			start := time.Now()
			text, err = rowsText(db, string(sql))
			if err != nil {
				res.Error = err.Error()
				break
			}
			times = append(times, time.Since(start))
		}
		if res.Error == "" {
			sort.Slice(times, func(a, b int) bool { return times[a] < times[b] })
			res.MinMS = ms(times[0])
			res.MedianMS = ms(times[len(times)/2])
			res.Rows = strings.Count(text, "\n")
			if check != "" {
				res.Check = compareText(text, filepath.Join(check, name+".out"))
			}
			if other != nil {
				ot, err := rowsText(other, string(sql))
				switch {
				case err != nil:
					res.Compare = "error: " + err.Error()
				case sortedLines(ot) == sortedLines(text):
					res.Compare = "ok"
				default:
					res.Compare = "differs"
				}
			}
		}
		b, _ := json.Marshal(res)
		fmt.Println(string(b))
		results = append(results, res)
	}
	fmt.Printf("\n%-5s %10s %10s %6s %s\n", "query", "min ms", "median ms", "rows", "check / compare / error")
	var total float64
	for _, r := range results {
		note := strings.TrimSpace(r.Check + " " + r.Compare + " " + r.Error)
		fmt.Printf("%-5s %10.2f %10.2f %6d %s\n", r.Query, r.MinMS, r.MedianMS, r.Rows, note)
		total += r.MedianMS
	}
	fmt.Printf("%-5s %10s %10.2f\n", "total", "", total)
	return nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// rowsText runs sql and renders its rows as psql -A -t -F '|' does.
func rowsText(db *gpusql.DB, sql string) (string, error) {
	rows, err := db.Query(context.Background(), sql)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var b strings.Builder
	n := len(rows.Columns())
	vals := make([]any, n)
	texts := make([]*string, n)
	for i := range vals {
		vals[i] = &texts[i]
	}
	for rows.Next() {
		if err := rows.Scan(vals...); err != nil {
			return "", err
		}
		for i := range texts {
			if i > 0 {
				b.WriteByte('|')
			}
			if texts[i] != nil {
				b.WriteString(*texts[i])
			}
		}
		b.WriteByte('\n')
	}
	return b.String(), rows.Err()
}

func sortedLines(s string) string {
	l := strings.Split(s, "\n")
	sort.Strings(l)
	return strings.Join(l, "\n")
}

func compareText(got, path string) string {
	want, err := os.ReadFile(path)
	if err != nil {
		return "no answer: " + err.Error()
	}
	if got == string(want) {
		return "ok"
	}
	gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
	for i := 0; i < max(len(gl), len(wl)); i++ {
		if i >= len(gl) || i >= len(wl) || gl[i] != wl[i] {
			return fmt.Sprintf("differs at line %d", i+1)
		}
	}
	return "differs"
}
