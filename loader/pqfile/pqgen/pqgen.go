// Package pqgen writes small Parquet files for tests and benchmarks of
// Parquet loading, with parquet-go's writer: any schema of top-level
// columns, NULLs, row groups of a chosen size and small pages, so that
// readers meet several row groups, several pages per chunk and
// dictionary pages.
package pqgen

import (
	"fmt"
	"io"
	"os"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
)

// Col is one top-level column: its name and its node (parquet.Optional
// for a nullable one, parquet.Encoded for dictionary pages...).
type Col struct {
	Name string
	Node parquet.Node
}

// Options shape the file.
type Options struct {
	RowsPerGroup int64 // 0: one row group
	PageBytes    int   // 0: parquet-go's default page size
	// PageVersion is the data page format, 1 or 2 (0: parquet-go's
	// default, 2).
	PageVersion int
	// Codec compresses the pages (nil: none).
	Codec compress.Codec
}

// Write writes rows to path. Each row holds one value per column, in
// cols order; parquet.NullValue() is NULL. parquet-go orders a group's
// fields by name, so cols must be in name order.
func Write(path string, cols []Col, rows [][]parquet.Value, o Options) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := WriteTo(f, cols, rows, o); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// WriteTo is Write to any writer.
func WriteTo(out io.Writer, cols []Col, rows [][]parquet.Value, o Options) error {
	g := parquet.Group{}
	for i, c := range cols {
		if i > 0 && cols[i-1].Name >= c.Name {
			return fmt.Errorf("pqgen: columns must be in name order: %q before %q", cols[i-1].Name, c.Name)
		}
		g[c.Name] = c.Node
	}
	opts := []parquet.WriterOption{parquet.NewSchema("t", g)}
	if o.RowsPerGroup > 0 {
		opts = append(opts, parquet.MaxRowsPerRowGroup(o.RowsPerGroup))
	}
	if o.PageBytes > 0 {
		opts = append(opts, parquet.PageBufferSize(o.PageBytes))
	}
	if o.PageVersion > 0 {
		opts = append(opts, parquet.DataPageVersion(o.PageVersion))
	}
	if o.Codec != nil {
		opts = append(opts, parquet.Compression(o.Codec))
	}
	w := parquet.NewWriter(out, opts...)
	batch := make([]parquet.Row, 0, 256)
	flush := func() error {
		_, err := w.WriteRows(batch)
		batch = batch[:0]
		return err
	}
	for _, r := range rows {
		if len(r) != len(cols) {
			return fmt.Errorf("pqgen: a row of %d values for %d columns", len(r), len(cols))
		}
		row := make(parquet.Row, len(r))
		for i, v := range r {
			def := 0
			if cols[i].Node.Optional() && !v.IsNull() {
				def = 1
			}
			row[i] = v.Level(0, def, i)
		}
		batch = append(batch, row)
		if len(batch) == cap(batch) {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := flush(); err != nil {
		return err
	}
	return w.Close()
}
