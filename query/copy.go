package query

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/copybin"
	"github.com/gpusql/gpusql/loader/pqfile"
	"github.com/gpusql/gpusql/query/parse"
)

// copyFrom runs a COPY statement: FROM a server-side file or STDIN into a
// table, or TO STDOUT from a table or a query.
func (s *Session) copyFrom(ctx context.Context, st *parse.Copy, w engine.ResultWriter) error {
	if st.To {
		return s.copyTo(ctx, st, w)
	}
	t, err := s.userTable(st.Schema, st.Table, "COPY FROM")
	if err != nil {
		return err
	}
	// The input's columns: the COPY column list, or all of the table's.
	fileCols := t.Columns
	var idx []int
	if len(st.Columns) > 0 {
		fileCols = nil
		seen := map[string]bool{}
		for _, name := range st.Columns {
			i, ok := t.Column(name)
			if !ok {
				return engine.Errorf(engine.CodeUndefinedColumn, "column %q of relation %q does not exist", name, st.Table)
			}
			if seen[name] {
				return engine.Errorf(engine.CodeDuplicateColumn, "column %q specified more than once", name)
			}
			seen[name] = true
			fileCols = append(fileCols, t.Columns[i])
			idx = append(idx, i)
		}
		for _, c := range t.Columns {
			if c.NotNull && !seen[c.Name] {
				return engine.Errorf(engine.CodeNotNullViolation, "null value in column %q of relation %q violates not-null constraint", c.Name, st.Table)
			}
		}
	}
	start := time.Now()
	var res *engine.LoadResult
	if st.Stdin {
		cs, ok := w.(engine.CopyStream)
		if !ok {
			return engine.Errorf(engine.CodeFeatureNotSupported, "COPY FROM STDIN is not supported here: run it as a simple query or as an Execute without a row limit")
		}
		var r io.Reader
		format := int8(0)
		if st.Options.Format == engine.FormatBinary {
			format = 1
		}
		if r, err = cs.CopyIn(ctx, format, len(fileCols)); err != nil {
			return err
		}
		if format == 0 {
			// The binary format has its own end of data, and no lines.
			r = newEndMarkerReader(r, st.Options)
		}
		res, err = s.runLoad(ctx, st.Table, "STDIN", r, -1, fileCols, st.Options, w)
	} else if st.Options.Format == engine.FormatParquet {
		res, _, err = s.loadParquet(ctx, st.Table, st.Path, fileCols, w)
	} else {
		res, err = s.loadFile(ctx, st.Table, st.Path, fileCols, st.Options, w)
	}
	if err != nil {
		return err
	}
	data := res.Data
	if idx != nil {
		data, err = widen(data, t.Columns, idx)
		if err != nil {
			res.Data.Release()
			return err
		}
	}
	// The load is committed only now, and only if the statement was
	// neither cancelled nor timed out meanwhile.
	if err := ctx.Err(); err != nil {
		data.Release()
		return canceledStatement(ctx)
	}
	// COPY appends: the new contents are the old rows then the new ones,
	// published whole as the table's next version. Write serialises
	// appends, so two COPYs into one table both land. In a transaction
	// block the new version stays the session's until COMMIT (tx.go).
	if err := s.writeTable(t, txKey(t), data, func(cur, add engine.TableData) (engine.TableData, error) {
		if cur == nil || cur.Rows() == 0 {
			s.srv.gatherStats(add)
			return add, nil
		}
		if add.Rows() == 0 {
			return cur, nil
		}
		merged, err := s.srv.backend.Concat(st.Table, cur, add)
		if err == nil {
			s.srv.gatherStats(merged)
		}
		return merged, err
	}); err != nil {
		return err
	}
	s.countInserts(t, res.Rows)
	s.srv.cat.RecordLoadErrors(st.Table, res.Skipped)
	s.srv.log.Debug("copy", "table", st.Table, "seconds", time.Since(start).Seconds())
	return w.Complete(fmt.Sprintf("COPY %d", res.Rows))
}

// widen places loaded columns at their table positions and fills the
// others with NULLs.
func widen(d engine.TableData, cols []engine.ColumnDef, idx []int) (engine.TableData, error) {
	if m, ok := d.(interface {
		MapParts(func(engine.TableData) (engine.TableData, error)) (engine.TableData, error)
	}); ok {
		// a table split over several devices (engine/multi): each part
		out, err := m.MapParts(func(p engine.TableData) (engine.TableData, error) { return widen(p, cols, idx) })
		if err == nil {
			d.Release()
		}
		return out, err
	}
	h, ok := d.(*engine.HostTable)
	if !ok {
		return nil, engine.Errorf(engine.CodeInternalError, "cannot widen %T", d)
	}
	out := &engine.HostTable{N: h.N, Cols: make([]*engine.Column, len(cols))}
	for k, i := range idx {
		out.Cols[i] = h.Cols[k]
	}
	for i, c := range cols {
		if out.Cols[i] == nil {
			col := engine.NewColumn(c.Type, int(h.N), 0, true)
			for r := range col.Valid {
				col.Valid[r] = 0
			}
			out.Cols[i] = col
		}
	}
	return out, nil
}

// copyTo runs COPY table [(columns)] | (query) TO STDOUT or TO a file
// under the file root. To STDOUT the rows stream to the client batch by
// batch, formatted by a copyEncoder, one row per Write (one CopyData
// message each, as PostgreSQL sends them and clients such as psycopg's
// typed row readers expect); in Parquet the file's bytes stream the same
// way. A file is written whole to a temporary file beside it and renamed
// over it at the end (copyToFile).
func (s *Session) copyTo(ctx context.Context, st *parse.Copy, w engine.ResultWriter) error {
	query := st.Query
	if query == nil {
		sel, err := s.tableQuery(st)
		if err != nil {
			return err
		}
		query = sel
	}
	plan, cols, err := s.bindSelect(ctx, query.AST)
	if err != nil {
		return err
	}
	force := make([]bool, len(cols))
	for _, name := range st.ForceQuote {
		found := false
		for i, c := range cols {
			if c.Name == name {
				force[i], found = true, true
			}
		}
		if !found {
			return engine.Errorf(engine.CodeInvalidColumnReference, "FORCE_QUOTE column %q not referenced by COPY", name)
		}
	}
	for i := range force {
		force[i] = force[i] || st.ForceQuoteAll
	}
	// Types without a form in the chosen format fail before any output.
	switch st.Options.Format {
	case engine.FormatBinary:
		for _, c := range plan.Columns() {
			if err := copybin.CanWrite(c.Type); err != nil {
				return err
			}
		}
	case engine.FormatParquet:
		for i, c := range plan.Columns() {
			if err := pqfile.CanWrite(cols[i].Name, c.Type); err != nil {
				return err
			}
		}
	}
	write := func(out io.Writer) (int64, error) {
		switch st.Options.Format {
		case engine.FormatBinary:
			return s.copyToBinary(ctx, plan, out)
		case engine.FormatParquet:
			return s.copyToParquet(ctx, plan, cols, st.Parquet, out)
		}
		return s.copyToText(ctx, plan, cols, st.Options, force, out)
	}
	var rows int64
	if st.Path != "" {
		rows, err = s.copyToFile(ctx, st.Path, write)
	} else {
		cs, ok := w.(engine.CopyStream)
		if !ok {
			return engine.Errorf(engine.CodeFeatureNotSupported, "COPY TO STDOUT is not supported here: run it as a simple query or as an Execute without a row limit")
		}
		format := int8(0)
		if st.Options.Format == engine.FormatBinary || st.Options.Format == engine.FormatParquet {
			format = 1
		}
		var out io.Writer
		if out, err = cs.CopyOut(format, len(cols)); err != nil {
			return err
		}
		if st.Options.Format == engine.FormatParquet {
			// parquet-go writes in pieces of any size: send CopyData
			// messages of up to 64 kB.
			bw := bufio.NewWriterSize(out, 64<<10)
			if rows, err = write(bw); err == nil {
				err = bw.Flush()
			}
		} else {
			rows, err = write(out)
		}
	}
	if err != nil {
		return err
	}
	return w.Complete(fmt.Sprintf("COPY %d", rows))
}

// copyToText writes the rows in the text or CSV format, one row per
// Write.
func (s *Session) copyToText(ctx context.Context, plan *engine.Plan, cols []engine.ResultColumn, opts engine.CSVOptions, force []bool, out io.Writer) (int64, error) {
	enc := newCopyEncoder(opts, force)
	buf := make([]byte, 0, 256)
	if opts.Header != engine.HeaderNone {
		names := make([][]byte, len(cols))
		for i, c := range cols {
			names[i] = []byte(c.Name)
		}
		if _, err := out.Write(enc.appendHeader(buf, names)); err != nil {
			return 0, err
		}
	}
	var rows int64
	var scratch []byte
	zone := clockOf(ctx).zone
	sink := func(b *engine.Batch) error {
		for i := 0; i < b.N; i++ {
			buf = buf[:0]
			for c, v := range b.Cols {
				if c > 0 {
					buf = append(buf, enc.opts.Delimiter)
				}
				if v.IsNull(i) {
					buf = append(buf, enc.opts.Null...)
					continue
				}
				scratch = engine.AppendTextZone(scratch[:0], v, i, zone)
				buf = enc.appendValue(buf, scratch, c)
			}
			buf = append(buf, '\n')
			if _, err := out.Write(buf); err != nil {
				return err
			}
		}
		rows += int64(b.N)
		return nil
	}
	if err := s.srv.run(ctx, plan, sink); err != nil {
		return 0, err
	}
	return rows, nil
}

// copyToBinary writes the rows in the binary format, one tuple per Write
// (one CopyData message each, as PostgreSQL sends them): the file header
// goes with the first tuple, and the trailer alone (with the header when
// there are no rows), which is what psycopg's binary row reader expects.
func (s *Session) copyToBinary(ctx context.Context, plan *engine.Plan, out io.Writer) (int64, error) {
	buf := copybin.AppendHeader(make([]byte, 0, 256))
	var enc copybin.Writer
	var rows int64
	sink := func(b *engine.Batch) error {
		for i := 0; i < b.N; i++ {
			var err error
			if buf, err = enc.AppendRow(buf, b.Cols, i); err != nil {
				return err
			}
			if _, err := out.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
		rows += int64(b.N)
		return nil
	}
	if err := s.srv.run(ctx, plan, sink); err != nil {
		return 0, err
	}
	if _, err := out.Write(copybin.AppendTrailer(buf)); err != nil {
		return 0, err
	}
	return rows, nil
}

// copyToParquet writes the rows as a Parquet file (loader/pqfile's
// Writer): one optional column per result column, named as the result's,
// in row groups of o.RowGroupSize rows compressed by o.Compression (the
// Writer's defaults where they are unset).
func (s *Session) copyToParquet(ctx context.Context, plan *engine.Plan, cols []engine.ResultColumn, o parse.ParquetWrite, out io.Writer) (int64, error) {
	pc := make([]pqfile.WriteColumn, len(cols))
	for i, c := range plan.Columns() {
		pc[i] = pqfile.WriteColumn{Name: cols[i].Name, Type: c.Type}
	}
	pw, err := pqfile.NewWriter(out, pc, pqfile.WriteOptions{Version: Version, RowsPerGroup: o.RowGroupSize, Codec: pqfile.CodecNamed(o.Compression)})
	if err != nil {
		return 0, err
	}
	if err := s.srv.run(ctx, plan, pw.Write); err != nil {
		return 0, err
	}
	if err := pw.Close(); err != nil {
		return 0, err
	}
	return pw.Rows(), nil
}

// copyToFile runs write into a new file that then replaces path (under
// the file root). The rows go to a temporary file in the target's
// folder, renamed over the target only once everything is written and
// synced: an error or a cancel leaves the target as it was and no
// temporary file behind.
func (s *Session) copyToFile(ctx context.Context, path string, write func(io.Writer) (int64, error)) (int64, error) {
	target, err := s.resolveWritePath(path)
	if err != nil {
		return 0, err
	}
	dir, base := filepath.Split(target)
	f, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		return 0, fileWriteErr(path, err)
	}
	done := false
	defer func() {
		if !done {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	bw := bufio.NewWriterSize(f, 1<<20)
	rows, err := write(bw)
	if err != nil {
		if ctx.Err() != nil {
			return 0, canceledStatement(ctx)
		}
		return 0, asFileWriteErr(path, err)
	}
	if err := bw.Flush(); err != nil {
		return 0, fileWriteErr(path, err)
	}
	if err := f.Sync(); err != nil {
		return 0, fileWriteErr(path, err)
	}
	if err := ctx.Err(); err != nil {
		return 0, canceledStatement(ctx)
	}
	if err := f.Close(); err != nil {
		return 0, fileWriteErr(path, err)
	}
	if err := os.Rename(f.Name(), target); err != nil {
		os.Remove(f.Name())
		done = true
		return 0, fileWriteErr(path, err)
	}
	done = true
	return rows, nil
}

// fileWriteErr is an error of the file system while writing path.
func fileWriteErr(path string, err error) error {
	code := engine.CodeIOError
	switch {
	case errors.Is(err, syscall.ENOSPC):
		code = engine.CodeDiskFull
	case errors.Is(err, fs.ErrPermission):
		code = engine.CodeInsufficientPrivilege
	}
	return engine.Errorf(code, "could not write to file %q: %v", path, unwrapPathErr(err))
}

// asFileWriteErr keeps an engine error (from the query or the encoder)
// and turns any other into fileWriteErr.
func asFileWriteErr(path string, err error) error {
	var e *engine.Error
	if errors.As(err, &e) {
		return err
	}
	return fileWriteErr(path, err)
}

func unwrapPathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// tableQuery is the SELECT that COPY table [(columns)] TO reads.
func (s *Session) tableQuery(st *parse.Copy) (*parse.Select, error) {
	var names []string
	t, v := s.userRelation(st.Schema, st.Table)
	if v != nil {
		return nil, engine.Errorf(engine.CodeWrongObjectType, "cannot copy from view %q", st.Table).
			WithHint("Try the COPY (SELECT ...) TO variant.")
	}
	if t != nil {
		for _, name := range st.Columns {
			if _, ok := t.Column(name); !ok {
				return nil, engine.Errorf(engine.CodeUndefinedColumn, "column %q of relation %q does not exist", name, st.Table)
			}
		}
		names = st.Columns
		if len(names) == 0 {
			for _, c := range t.Columns {
				names = append(names, c.Name)
			}
		}
	} else if !isSystemTable(st.Table) {
		return nil, engine.Errorf(engine.CodeUndefinedTable, "relation %q does not exist", st.Table)
	}
	list := "*"
	if len(names) > 0 {
		q := make([]string, len(names))
		for i, n := range names {
			q[i] = quoteIdent(n)
		}
		list = strings.Join(q, ", ")
	}
	from := quoteIdent(st.Table)
	if st.Schema != "" {
		from = quoteIdent(st.Schema) + "." + from
	}
	stmts, err := parse.Parse("SELECT " + list + " FROM " + from)
	if err != nil {
		return nil, err
	}
	sel, ok := stmts[0].(*parse.Select)
	if len(stmts) != 1 || !ok {
		return nil, engine.Errorf(engine.CodeInternalError, "COPY %s: unexpected statement", st.Table)
	}
	return sel, nil
}

// quoteIdent quotes an identifier for SQL text.
func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
