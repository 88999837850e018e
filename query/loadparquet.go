package query

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/dustin/go-humanize"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/loader/pqfile"
)

// Parquet files (CREATE TABLE t FROM PARQUET 'f', COPY t FROM 'f' WITH
// (FORMAT parquet)): loader/pqfile decodes every row group of every file
// a path or glob names into host columns, in parallel, and the backend
// stores them as it stores any host-built rows (engine.TableStore: the
// GPU backend uploads them). The files are all read before anything is
// stored, so a bad file anywhere in a glob leaves no table and no rows.

// loadParquet loads the Parquet file or files that path names. With no
// cols the columns are the first file's (pqfile.File.Columns); otherwise
// each file's columns map onto cols by position.
func (s *Session) loadParquet(ctx context.Context, table, path string, cols []engine.ColumnDef, w engine.ResultWriter) (*engine.LoadResult, []engine.ColumnDef, error) {
	names := []string{path}
	if strings.ContainsAny(path, "*?[") {
		var err error
		if names, err = s.globFiles(path); err != nil {
			return nil, nil, err
		}
	}
	var files []*pqfile.File
	var size int64
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	for _, name := range names {
		f, n, err := s.openParquet(name)
		if err != nil {
			return nil, nil, err
		}
		files = append(files, f)
		size += n
	}
	if len(cols) == 0 {
		var err error
		if cols, err = files[0].Columns(); err != nil {
			return nil, nil, err
		}
		var b strings.Builder
		for i, c := range cols {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(pgQuoteIdent(c.Name) + " " + c.Type.String())
		}
		_ = w.Notice(engine.Notice{Severity: "NOTICE", Code: engine.CodeSuccessfulCompletion,
			Message: fmt.Sprintf("the columns of %s from Parquet file %q: (%s)", table, files[0].Name, b.String()),
			Detail:  "A column list maps the file's columns by position onto the columns it names (docs/parquet.md)."})
	}
	store, err := s.tableStore()
	if err != nil {
		return nil, nil, err
	}
	start := time.Now()
	h, err := pqfile.Read(ctx, files, cols, pqfile.Options{
		MaxTextWidth: s.srv.opts.MaxTextWidth,
		Progress:     loadProgress(table, size, start, s.srv.opts.ProgressEvery, w),
	})
	if err != nil {
		if ctx.Err() != nil {
			return nil, nil, canceledStatement(ctx)
		}
		return nil, nil, err
	}
	for i, c := range cols {
		if c.NotNull && h.Cols[i].NullCount() > 0 {
			return nil, nil, engine.Errorf(engine.CodeNotNullViolation, "null value in column %q of relation %q violates not-null constraint", c.Name, table)
		}
	}
	rows := h.N
	data, err := store.Store(h, s.storeOptions(table))
	if err != nil {
		return nil, nil, err
	}
	el := time.Since(start)
	s.srv.log.Info("load", "table", table, "from", path, "format", "parquet", "files", len(files), "rows", rows, "bytes", size,
		"seconds", el.Seconds(), "rate", humanize.Bytes(uint64(float64(size)/max(el.Seconds(), 1e-9)))+"/s")
	return &engine.LoadResult{Data: data, Rows: rows, Bytes: size}, cols, nil
}

// openParquet opens one server-side Parquet file and reads its footer.
// Parquet is read at random offsets: a pipe or a compressed file is
// refused.
func (s *Session) openParquet(name string) (*pqfile.File, int64, error) {
	real, err := s.resolvePath(name)
	if err != nil {
		return nil, 0, err
	}
	f, err := os.Open(real)
	if err != nil {
		return nil, 0, engine.Errorf(engine.CodeIOError, "could not open file %q for reading: %v", name, err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, engine.Errorf(engine.CodeIOError, "could not stat file %q: %v", name, err)
	}
	switch {
	case st.IsDir():
		f.Close()
		return nil, 0, engine.Errorf(engine.CodeWrongObjectType, "%q is a directory", name)
	case !st.Mode().IsRegular():
		f.Close()
		return nil, 0, engine.Errorf(engine.CodeFeatureNotSupported, "%q is not a regular file: Parquet files are read at random offsets, so gpusql cannot read one from a pipe or device", name)
	}
	pf, err := pqfile.Open(f, st.Size(), name, f)
	if err != nil {
		f.Close()
		var e *engine.Error
		if !errors.As(err, &e) {
			err = engine.Errorf(engine.CodeIOError, "could not read file %q: %v", name, err)
		}
		return nil, 0, err
	}
	return pf, st.Size(), nil
}

// loadProgress is a load's progress callback: a NOTICE at most once
// every (Options.ProgressEvery), from the first one on, with the bytes
// read and the rate.
func loadProgress(table string, size int64, start time.Time, every time.Duration, w engine.ResultWriter) func(done int64) {
	var mu sync.Mutex
	last := start
	return func(done int64) {
		mu.Lock()
		defer mu.Unlock()
		now := time.Now()
		if now.Sub(start) < every || now.Sub(last) < every {
			return
		}
		last = now
		rate := humanize.Bytes(uint64(float64(done)/now.Sub(start).Seconds())) + "/s"
		msg := fmt.Sprintf("loading %s: %s, %s", table, humanize.Bytes(uint64(done)), rate)
		if size >= 0 {
			msg = fmt.Sprintf("loading %s: %s of %s (%.0f%%), %s", table, humanize.Bytes(uint64(done)), humanize.Bytes(uint64(size)),
				100*float64(done)/float64(max(size, 1)), rate)
		}
		_ = w.Notice(engine.Notice{Severity: "NOTICE", Code: engine.CodeSuccessfulCompletion, Message: msg})
	}
}
