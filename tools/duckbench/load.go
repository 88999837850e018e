package main

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// A tableLoad fills one table from a CSV file. Schema, if set, is a SQL
// file run first (it should create the table); without a schema and
// without an existing table, the table is created from the file with
// DuckDB's type detection.
type tableLoad struct {
	Table, Schema, File string
}

// parseLoad reads -load's argument: name=file.csv or name=schema.sql:file.csv.
func parseLoad(s string) (tableLoad, error) {
	name, rest, ok := strings.Cut(s, "=")
	if !ok || name == "" || rest == "" {
		return tableLoad{}, fmt.Errorf("-load %q: want name=file.csv or name=schema.sql:file.csv", s)
	}
	l := tableLoad{Table: name, File: rest}
	if schema, file, ok := strings.Cut(rest, ":"); ok {
		l.Schema, l.File = schema, file
	}
	return l, nil
}

// csvOptions says how the files are read.
type csvOptions struct {
	Delim  string
	Header bool
	// Text: PostgreSQL's text format (COPY's default, ClickBench's
	// hits.tsv): tab-separated, no quoting, \N is NULL and an empty field
	// the empty string. Backslash escapes (\t, \\) are not decoded, so a
	// value holding one differs from PostgreSQL's; hitsgen writes none.
	Text bool
}

// loadPlan is everything to load, in order: schema files, then one
// tableLoad per table.
type loadPlan struct {
	Schemas []string
	DataDir string // load DataDir/<table>.csv for every table the schemas made
	Loads   []tableLoad
	CSV     csvOptions
}

// load runs the plan and returns the tables loaded, in order, with their
// row counts.
func load(ctx context.Context, conn *sql.Conn, p loadPlan) ([]tableLoad, []int64, error) {
	for _, s := range p.Schemas {
		if err := execFile(ctx, conn, s); err != nil {
			return nil, nil, err
		}
	}
	var loads []tableLoad
	ext := ".csv"
	if p.CSV.Text {
		ext = ".tsv"
	}
	if p.DataDir != "" {
		tables, err := tableNames(ctx, conn)
		if err != nil {
			return nil, nil, err
		}
		if len(tables) == 0 {
			return nil, nil, fmt.Errorf("-data %s: no tables to load (give -schema)", p.DataDir)
		}
		for _, t := range tables {
			loads = append(loads, tableLoad{Table: t, File: filepath.Join(p.DataDir, t+ext)})
		}
	}
	loads = append(loads, p.Loads...)
	counts := make([]int64, len(loads))
	for i, l := range loads {
		if l.Schema != "" {
			if err := execFile(ctx, conn, l.Schema); err != nil {
				return nil, nil, err
			}
		}
		n, err := loadCSV(ctx, conn, l.Table, l.File, p.CSV)
		if err != nil {
			return nil, nil, err
		}
		counts[i] = n
	}
	return loads, counts, nil
}

func execFile(ctx context.Context, conn *sql.Conn, path string) error {
	text, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if _, err := conn.ExecContext(ctx, string(text)); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// tableNames lists the main schema's tables in creation order.
func tableNames(ctx context.Context, conn *sql.Conn) ([]string, error) {
	rows, err := conn.QueryContext(ctx, "SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main' ORDER BY table_oid")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		names = append(names, n)
	}
	return names, rows.Err()
}

// loadCSV copies file into table (created from the file if it does not
// exist) and returns the table's row count. Unquoted empty fields are
// NULL and quoted ones are empty strings, as in PostgreSQL's CSV format.
func loadCSV(ctx context.Context, conn *sql.Conn, table, file string, o csvOptions) (int64, error) {
	if _, err := os.Stat(file); err != nil {
		return 0, err
	}
	opts := fmt.Sprintf("delim = %s, header = %t, allow_quoted_nulls = false", quote(o.Delim), o.Header)
	copyOpts := fmt.Sprintf("FORMAT csv, DELIMITER %s, HEADER %t, ALLOW_QUOTED_NULLS false", quote(o.Delim), o.Header)
	if o.Text {
		opts = "delim = '\t', quote = '', escape = '', nullstr = '\\N', header = false"
		copyOpts = "FORMAT csv, DELIMITER '\t', QUOTE '', ESCAPE '', NULLSTR '\\N', HEADER false"
	}
	var exists bool
	if err := conn.QueryRowContext(ctx, "SELECT count(*) > 0 FROM duckdb_tables() WHERE table_name = ?", table).Scan(&exists); err != nil {
		return 0, err
	}
	var stmt string
	if exists {
		stmt = fmt.Sprintf("COPY %s FROM %s (%s)", ident(table), quote(file), copyOpts)
	} else {
		stmt = fmt.Sprintf("CREATE TABLE %s AS SELECT * FROM read_csv(%s, %s)", ident(table), quote(file), opts)
	}
	if _, err := conn.ExecContext(ctx, stmt); err != nil {
		return 0, fmt.Errorf("load %s from %s: %w", table, file, err)
	}
	// CREATE TABLE AS reports no row count.
	var n int64
	err := conn.QueryRowContext(ctx, "SELECT count(*) FROM "+ident(table)).Scan(&n)
	return n, err
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func ident(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
