package main

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// A query is one query file: name is the file name without ".sql".
type query struct {
	Name, Path, SQL string
}

// readQueries reads the query files named by args; a directory stands for
// its *.sql files in name order.
func readQueries(args []string) ([]query, error) {
	var paths []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			paths = append(paths, a)
			continue
		}
		m, err := filepath.Glob(filepath.Join(a, "*.sql"))
		if err != nil {
			return nil, err
		}
		if len(m) == 0 {
			return nil, fmt.Errorf("%s: no .sql files", a)
		}
		slices.Sort(m)
		paths = append(paths, m...)
	}
	qs := make([]query, 0, len(paths))
	for _, p := range paths {
		text, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		qs = append(qs, query{Name: strings.TrimSuffix(filepath.Base(p), ".sql"), Path: p, SQL: string(text)})
	}
	return qs, nil
}

// timing is one query's runs.
type timing struct {
	Runs []time.Duration // measured runs, in order
	Rows int
	Text []byte // the rows in answer format (formatRow), from the first execution
}

// runQuery executes q warmup times unmeasured, then runs times measured.
// A run is the time from sending the query until its last row is read and
// scanned into Go values. The first execution also formats the rows.
func runQuery(ctx context.Context, conn *sql.Conn, q query, warmup, runs int) (*timing, error) {
	t := &timing{}
	for i := 0; i < warmup+runs; i++ {
		start := time.Now()
		n, text, err := execute(ctx, conn, q.SQL, i == 0)
		d := time.Since(start)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			t.Rows, t.Text = n, text
		}
		if i >= warmup {
			t.Runs = append(t.Runs, d)
		}
	}
	return t, nil
}

// execute runs one query and reads all its rows; with format, it also
// returns them in answer format.
func execute(ctx context.Context, conn *sql.Conn, sqlText string, format bool) (int, []byte, error) {
	rows, err := conn.QueryContext(ctx, sqlText)
	if err != nil {
		return 0, nil, err
	}
	defer rows.Close()
	cts, err := rows.ColumnTypes()
	if err != nil {
		return 0, nil, err
	}
	types := make([]string, len(cts))
	for i, ct := range cts {
		types[i] = ct.DatabaseTypeName()
	}
	vals := make([]any, len(cts))
	ptrs := make([]any, len(cts))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	var text []byte
	n := 0
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return 0, nil, err
		}
		if format {
			text = formatRow(text, vals, types)
		}
		n++
	}
	return n, text, rows.Err()
}

// minMedian returns the fastest and the median of ds (the mean of the two
// middle ones for an even count).
func minMedian(ds []time.Duration) (time.Duration, time.Duration) {
	if len(ds) == 0 {
		return 0, 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	mid := len(s) / 2
	if len(s)%2 == 1 {
		return s[0], s[mid]
	}
	return s[0], (s[mid-1] + s[mid]) / 2
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
