package query

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/dustin/go-humanize"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/loader/sniff"
)

// CSV files loaded without a column list (CREATE TABLE t FROM CSV 'f',
// read_csv('f')): loader/sniff infers the columns from a sample of the
// file, or of the first file a glob names. When a type chosen from the
// sample could read a later value without an error and yet not as
// written (sniff.Result.Risky), every file is scanned first so the types
// hold for all rows. Otherwise the load itself checks the rest: a value
// that an inferred type rejects makes the column wider (sniff.Widen) and
// the load start again, so the statement still commits all rows, exactly
// as written, or none.

// inferCSV infers the columns of the file or files that path names.
func (s *Session) inferCSV(ctx context.Context, table, path string, opts engine.CSVOptions, given map[string]bool, w engine.ResultWriter) ([]engine.ColumnDef, engine.CSVOptions, bool, error) {
	names := []string{path}
	if strings.ContainsAny(path, "*?[") {
		var err error
		if names, err = s.globFiles(path); err != nil {
			return nil, opts, false, err
		}
	}
	var res *sniff.Result
	err := s.withFileReader(names[0], func(r io.Reader, size int64) error {
		smp, err := sniff.ReadSample(r, size)
		if err != nil {
			return engine.Errorf(engine.CodeIOError, "could not read file %q: %v", names[0], err)
		}
		res, err = sniff.Infer(smp, opts, given)
		return err
	})
	if err != nil {
		return nil, opts, false, err
	}
	sampled := res.Records
	if !res.Whole && len(names) == 1 && !res.Risky() {
		s.inferNotice(w, table, res, fmt.Sprintf("%s sampled records", humanize.Comma(int64(sampled))))
		return res.Columns, res.Options, false, nil
	}
	// Every file is read: the types then hold for every row.
	cols := append([]engine.ColumnDef(nil), res.Columns...)
	total := 0
	for _, name := range names {
		if err := ctx.Err(); err != nil {
			return nil, opts, false, canceledStatement(ctx)
		}
		err := s.withFileReader(name, func(r io.Reader, _ int64) error {
			all, err := sniff.Scan(r, res)
			if err != nil {
				return engine.Errorf(engine.CodeIOError, "could not read file %q: %v", name, err)
			}
			total += all.Records
			for i := range cols {
				cols[i].Type = sniff.Join(cols[i].Type, all.Columns[i].Type)
			}
			return nil
		})
		if err != nil {
			return nil, opts, false, err
		}
	}
	res.Columns = cols
	s.inferNotice(w, table, res, fmt.Sprintf("all %s records", humanize.Comma(int64(total))))
	return cols, res.Options, true, nil
}

// inferNotice shows the inferred schema and the options it reads with.
func (s *Session) inferNotice(w engine.ResultWriter, table string, res *sniff.Result, from string) {
	var b strings.Builder
	for i, c := range res.Columns {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(pgQuoteIdent(c.Name) + " " + c.Type.String())
	}
	o := res.Options
	delim := string(o.Delimiter)
	if o.Delimiter == '\t' {
		delim = `E'\t'`
	} else {
		delim = "'" + delim + "'"
	}
	_ = w.Notice(engine.Notice{Severity: "NOTICE", Code: engine.CodeSuccessfulCompletion,
		Message: fmt.Sprintf("inferred the columns of %s from %s: (%s)", table, from, b.String()),
		Detail:  fmt.Sprintf("Read with DELIMITER %s, HEADER %v, NULL '%s'. A column list or these options in WITH (...) override the guess.", delim, o.Header != engine.HeaderNone, o.Null)})
}

// withFileReader opens one server-side file (decompressing it as
// loadOneFile does) and gives f its content and size (-1: unknown).
func (s *Session) withFileReader(path string, f func(r io.Reader, size int64) error) error {
	real, err := s.resolvePath(path)
	if err != nil {
		return err
	}
	file, err := os.Open(real)
	if err != nil {
		return engine.Errorf(engine.CodeIOError, "could not open file %q for reading: %v", path, err)
	}
	defer file.Close()
	st, err := file.Stat()
	if err != nil {
		return engine.Errorf(engine.CodeIOError, "could not stat file %q: %v", path, err)
	}
	switch ext := strings.ToLower(filepath.Ext(path)); {
	case st.IsDir():
		return engine.Errorf(engine.CodeWrongObjectType, "%q is a directory", path)
	case ext == ".gz" || ext == ".zst":
		d, err := decompress(file, ext, path)
		if err != nil {
			return err
		}
		defer d.Close()
		return f(d, -1)
	case !st.Mode().IsRegular():
		// A pipe cannot be read twice: once to infer, once to load.
		return engine.Errorf(engine.CodeFeatureNotSupported, "cannot infer the columns of %q: it is not a regular file", path).
			WithHint("Give the column list.")
	}
	return f(file, st.Size())
}

// loadInferred loads path into columns inferred from it, widening a
// column and loading again when a value beyond the sample does not fit
// its type. It returns the load and the columns it used.
func (s *Session) loadInferred(ctx context.Context, table, path string, opts engine.CSVOptions, given map[string]bool, w engine.ResultWriter) (*engine.LoadResult, []engine.ColumnDef, error) {
	cols, opts, whole, err := s.inferCSV(ctx, table, path, opts, given, w)
	if err != nil {
		return nil, nil, err
	}
	for {
		res, err := s.loadFile(ctx, table, path, cols, opts, w)
		if err == nil {
			return res, cols, nil
		}
		if whole || ctx.Err() != nil {
			return nil, nil, err
		}
		i, v, ok := failedValue(err, cols)
		if !ok || cols[i].Type.Kind == engine.KindText {
			return nil, nil, err
		}
		wider := sniff.Widen(cols[i].Type, []byte(v))
		var e *engine.Error
		errors.As(err, &e)
		_ = w.Notice(engine.Notice{Severity: "NOTICE", Code: engine.CodeSuccessfulCompletion,
			Message: fmt.Sprintf("column %s of %s becomes %s: %s; loading again", pgQuoteIdent(cols[i].Name), table, wider, e.Message),
			Detail:  e.Where})
		cols = append([]engine.ColumnDef(nil), cols...)
		cols[i].Type = wider
	}
}

// failedValue finds the column and value of a load error that a wider
// type could cure: a value that does not parse or is out of range,
// whose CONTEXT line reads `COPY t, [file "f", ]line N, column c: "v"`.
func failedValue(err error, cols []engine.ColumnDef) (int, string, bool) {
	var e *engine.Error
	if !errors.As(err, &e) {
		return 0, "", false
	}
	switch e.Code {
	case engine.CodeInvalidTextRepresent, engine.CodeNumericValueOutOfRange, engine.CodeInvalidDatetimeFormat, engine.CodeDatetimeFieldOverflow:
	default:
		return 0, "", false
	}
	for i, c := range cols {
		marker := ", column " + c.Name + `: "`
		at := strings.Index(e.Where, marker)
		if at < 0 || !strings.HasSuffix(e.Where, `"`) {
			continue
		}
		v := e.Where[at+len(marker) : len(e.Where)-1]
		return i, v, true
	}
	return 0, "", false
}
