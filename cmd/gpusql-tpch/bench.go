package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/dustin/go-humanize"

	"github.com/gpusql/gpusql"
	"github.com/gpusql/gpusql/internal/answer"
)

// result is one query on one backend: the JSON line printed for it.
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

// query is one query file.
type query struct {
	name, sql string
}

// readQueries reads dir's *.sql files in name order, keeping those -only
// names (all when only is empty).
func readQueries(dir string, only map[string]bool) ([]query, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.sql"))
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("%s: no .sql files", dir)
	}
	slices.Sort(paths)
	var qs []query
	for _, p := range paths {
		name := strings.TrimSuffix(filepath.Base(p), ".sql")
		if len(only) > 0 && !only[name] {
			continue
		}
		text, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		qs = append(qs, query{name, string(text)})
	}
	return qs, nil
}

// open starts an engine on device and loads the tables.
func open(c *config, device string) (*gpusql.DB, error) {
	o := gpusql.Options{FileRoot: c.data, Device: device, Partitions: c.partitions, Redistribute: c.redistribute, MappedLoads: c.mmap,
		LoadBuffers: c.loadBuffers, LoadReaders: c.loadReaders, LoadDriverPinned: c.loadDriverPin}
	if device != "cpu" {
		o.Devices = c.gpus
	}
	if c.persistDir != "" {
		dir := filepath.Join(c.persistDir, device)
		if err := os.RemoveAll(dir); err != nil {
			return nil, err
		}
		o.DataDir, o.Persist = dir, true
	}
	db, err := gpusql.Open(o)
	if err != nil {
		return nil, err
	}
	ddl, err := os.ReadFile(c.schema)
	if err != nil {
		db.Close()
		return nil, err
	}
	ctx := context.Background()
	if _, err := db.Exec(ctx, string(ddl)); err != nil {
		db.Close()
		return nil, err
	}
	for r := 0; r <= c.reload; r++ {
		var bytes int64
		start := time.Now()
		for _, t := range c.tables {
			if st, err := os.Stat(filepath.Join(c.data, t.file)); err == nil {
				bytes += st.Size()
			}
			if r > 0 {
				if _, err := db.Exec(ctx, "TRUNCATE "+t.name); err != nil {
					db.Close()
					return nil, fmt.Errorf("empty %s: %w", t.name, err)
				}
			}
			if _, err := db.Exec(ctx, copyStatement(c, t)); err != nil {
				db.Close()
				return nil, fmt.Errorf("load %s: %w", t.name, err)
			}
		}
		el := time.Since(start)
		again := ""
		if r > 0 {
			again = fmt.Sprintf(" again (%d)", r)
		}
		fmt.Printf("%s: loaded%s %s in %v (%s/s)\n", db.Backend(), again, humanize.Bytes(uint64(bytes)), el.Round(time.Millisecond),
			humanize.Bytes(uint64(float64(bytes)/el.Seconds())))
	}
	return db, nil
}

// copyStatement is the COPY that loads t.
func copyStatement(c *config, t tableFile) string {
	file := strings.ReplaceAll(t.file, "'", "''")
	if c.format == "text" {
		return fmt.Sprintf("COPY %s FROM '%s' WITH (FORMAT text)", t.name, file)
	}
	opts := fmt.Sprintf("FORMAT csv, DELIMITER '%s'", strings.ReplaceAll(c.delim, "'", "''"))
	if c.header {
		opts += ", HEADER true"
	}
	return fmt.Sprintf("COPY %s FROM '%s' WITH (%s)", t.name, file, opts)
}

// run times the queries on each backend of -device in turn (each loads
// the tables anew and is closed before the next starts; the first also
// runs each query once on -compare's backend, loaded beside it), and
// prints the tables.
func run(c *config) error {
	qs, err := readQueries(c.queries, c.only)
	if err != nil {
		return err
	}
	var keys answer.OrderKeys
	if c.keys != "" {
		if keys, err = answer.ReadOrderKeys(c.keys); err != nil {
			return err
		}
	}
	var first map[string]string // the first backend's rows, by query
	var timed [][]result
	for i, device := range c.devices {
		texts, results, err := runBackend(c, device, i == 0, qs, keys, first)
		if err != nil {
			return err
		}
		if i == 0 {
			first = texts
		}
		timed = append(timed, results)
	}
	for _, rs := range timed {
		printResults(rs)
	}
	if c.duckdb != "" || len(timed) > 1 {
		var duck []result
		if c.duckdb != "" {
			if duck, err = readJSONResults(c.duckdb); err != nil {
				return err
			}
		}
		printComparison(os.Stdout, qs, timed, duck)
	}
	return nil
}

// runBackend loads the tables on device and times every query (-warmup
// and -runs). It returns each query's rows (psql's text) and results.
// Each query's rows are compared with those of the first backend, when
// first is not nil, or, on the first backend, with one run on -compare's.
func runBackend(c *config, device string, isFirst bool, qs []query, keys answer.OrderKeys, first map[string]string) (map[string]string, []result, error) {
	db, err := open(c, device)
	if err != nil {
		return nil, nil, err
	}
	defer db.Close()
	var other *gpusql.DB
	if isFirst && c.compare != "" {
		if other, err = open(c, c.compare); err != nil {
			return nil, nil, err
		}
		defer other.Close()
	}
	texts := map[string]string{}
	var results []result
	for _, q := range qs {
		res := result{Engine: db.Backend(), Query: q.name, SF: c.sf}
		if isFirst && c.explain {
			if _, err := rowsText(db, q.sql); err == nil {
				plan, err := rowsText(db, "EXPLAIN ANALYZE "+q.sql)
				if err != nil {
					plan = err.Error()
				}
				fmt.Printf("== %s\n%s", q.name, plan)
			}
		}
		var times []time.Duration
		var text string
		for i := 0; i < c.warmup+c.runs; i++ {
			start := time.Now()
			text, err = rowsText(db, q.sql)
			if err != nil {
				res.Error = err.Error()
				break
			}
			if i >= c.warmup {
				times = append(times, time.Since(start))
			}
		}
		if res.Error == "" {
			texts[q.name] = text
			sort.Slice(times, func(a, b int) bool { return times[a] < times[b] })
			res.Runs = len(times)
			res.MinMS = ms(times[0])
			res.MedianMS = ms(times[len(times)/2])
			res.Rows = strings.Count(text, "\n")
			if c.check != "" {
				want, err := os.ReadFile(filepath.Join(c.check, q.name+".out"))
				if err != nil {
					res.Check = "no answer: " + err.Error()
				} else {
					k, listed := keys[q.name]
					res.Check = answer.Compare(q.sql, text, string(want), k, listed, 1e-9)
				}
			}
			k, listed := keys[q.name]
			switch {
			case other != nil:
				ot, err := rowsText(other, q.sql)
				res.Compare = compareRows(q.sql, text, ot, err, k, listed)
			case first != nil:
				ft, ok := first[q.name]
				if !ok {
					res.Compare = "the first backend failed"
				} else {
					res.Compare = compareRows(q.sql, text, ft, nil, k, listed)
				}
			}
		}
		b, _ := json.Marshal(res)
		fmt.Println(string(b))
		results = append(results, res)
	}
	return texts, results, nil
}

// compareRows compares the rows of query sql from one backend (got) with
// another's (want, or its error): as multisets, or, for a query the keys
// file lists, with answer.Compare's rules for ORDER BY keys and the ties a
// LIMIT cuts. It returns "ok", "ok (what it allowed)", or why they differ.
func compareRows(sql, got, want string, err error, keys []int, listed bool) string {
	switch {
	case err != nil:
		return "error: " + firstLine(err.Error())
	case sortedLines(got) == sortedLines(want):
		return "ok"
	case listed:
		return answer.Compare(sql, got, want, keys, listed, 1e-9)
	}
	return "differs"
}

// printResults prints one backend's table, as the JSON lines say.
func printResults(results []result) {
	if len(results) == 0 {
		return
	}
	fmt.Printf("\n%s\n%-5s %10s %10s %6s %s\n", results[0].Engine, "query", "min ms", "median ms", "rows", "check / compare / error")
	var total float64
	for _, r := range results {
		note := strings.TrimSpace(r.Check + " " + r.Compare + " " + firstLine(r.Error))
		fmt.Printf("%-5s %10.2f %10.2f %6d %s\n", r.Query, r.MinMS, r.MedianMS, r.Rows, note)
		total += r.MedianMS
	}
	fmt.Printf("%-5s %10s %10.2f\n", "total", "", total)
}

func firstLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
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
