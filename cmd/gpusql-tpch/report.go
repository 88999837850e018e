package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
)

// readJSONResults reads the JSON lines of a log (tools/duckbench's
// stdout, or this command's): lines that start with '{'; others are
// skipped.
func readJSONResults(path string) ([]result, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var rs []result
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 || line[0] != '{' {
			continue
		}
		var r result
		if err := json.Unmarshal(line, &r); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		rs = append(rs, r)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(rs) == 0 {
		return nil, fmt.Errorf("%s: no JSON lines", path)
	}
	return rs, nil
}

// printComparison prints the hot (fastest) time of each query on each
// gpusql backend and on DuckDB (duck, when given), each backend's speedup
// over DuckDB (DuckDB's time / the backend's: above 1 is faster), the hot
// sums over the queries every engine ran, and the geometric mean of the
// speedups over the queries both ran.
func printComparison(w io.Writer, qs []query, backends [][]result, duck []result) {
	type engine struct {
		name string
		by   map[string]result
	}
	var es []engine
	for _, rs := range backends {
		e := engine{by: map[string]result{}}
		for _, r := range rs {
			e.name, _, _ = strings.Cut(r.Engine, " (") // "cpu (16 cores)"
			e.by[r.Query] = r
		}
		es = append(es, e)
	}
	var dk *engine
	if len(duck) > 0 {
		d := engine{name: "duckdb", by: map[string]result{}}
		for _, r := range duck {
			d.by[r.Query] = r
		}
		dk = &d
	}
	all := es
	if dk != nil {
		all = append(all[:len(all):len(all)], *dk)
	}
	ok := func(e *engine, q string) (result, bool) {
		r, found := e.by[q]
		return r, found && r.Error == "" && r.MinMS > 0
	}

	fmt.Fprintf(w, "\nhot runs (fastest), ms")
	if dk != nil {
		fmt.Fprintf(w, "; speedup = DuckDB's time / gpusql's")
	}
	fmt.Fprintf(w, "\n%-8s %8s", "query", "rows")
	for _, e := range all {
		fmt.Fprintf(w, " %11s", e.name)
	}
	if dk != nil {
		for _, e := range es {
			fmt.Fprintf(w, " %11s", "speedup "+e.name)
		}
	}
	fmt.Fprintf(w, "  notes\n")

	sums := make([]float64, len(all))
	logs := make([]float64, len(es))
	nLogs := make([]int, len(es))
	common := 0
	for _, q := range qs {
		rows := -1
		everyone := true
		var notes []string
		fmt.Fprintf(w, "%-8s", q.name)
		var line strings.Builder
		for i := range all {
			r, good := ok(&all[i], q.name)
			if !good {
				everyone = false
				fmt.Fprintf(&line, " %11s", "-")
				if e := firstLine(r.Error); e != "" {
					notes = append(notes, all[i].name+": "+e)
				} else if _, found := all[i].by[q.name]; !found {
					notes = append(notes, all[i].name+": not run")
				}
				continue
			}
			if rows < 0 {
				rows = r.Rows
			} else if r.Rows != rows {
				notes = append(notes, fmt.Sprintf("%s: %d rows", all[i].name, r.Rows))
			}
			for _, n := range []string{r.Check, r.Compare} {
				if n != "" && !strings.HasPrefix(n, "ok") {
					notes = append(notes, all[i].name+": "+n)
				}
			}
			fmt.Fprintf(&line, " %11.2f", r.MinMS)
		}
		if dk != nil {
			d, dGood := ok(dk, q.name)
			for i := range es {
				r, good := ok(&es[i], q.name)
				if !good || !dGood {
					fmt.Fprintf(&line, " %11s", "-")
					continue
				}
				s := d.MinMS / r.MinMS
				logs[i] += math.Log(s)
				nLogs[i]++
				fmt.Fprintf(&line, " %10.2fx", s)
			}
		}
		fmt.Fprintf(w, " %8s%s  %s\n", rowCount(rows), line.String(), strings.Join(notes, "; "))
		if everyone {
			common++
			for i := range all {
				sums[i] += all[i].by[q.name].MinMS
			}
		}
	}
	fmt.Fprintf(w, "%-17s", fmt.Sprintf("hot sum (%d)", common))
	for i := range all {
		fmt.Fprintf(w, " %11.1f", sums[i])
	}
	if dk != nil {
		for i := range es {
			if sums[i] == 0 {
				fmt.Fprintf(w, " %11s", "-")
				continue
			}
			fmt.Fprintf(w, " %10.2fx", sums[len(all)-1]/sums[i])
		}
	}
	fmt.Fprintf(w, "\n")
	if dk != nil {
		fmt.Fprintf(w, "%-17s", "geometric mean")
		fmt.Fprintf(w, "%s", strings.Repeat(" ", 12*len(all)))
		for i := range es {
			if nLogs[i] == 0 {
				fmt.Fprintf(w, " %11s", "-")
				continue
			}
			fmt.Fprintf(w, " %10.2fx", math.Exp(logs[i]/float64(nLogs[i])))
		}
		fmt.Fprintf(w, "\n")
	}
	fmt.Fprintf(w, "hot sum: over the %d queries every engine ran; geometric mean: of the speedups of the queries both ran\n", common)
}

func rowCount(n int) string {
	if n < 0 {
		return "-"
	}
	return fmt.Sprint(n)
}
