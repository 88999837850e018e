package query

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/dustin/go-humanize"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/query/parse"
)

// resolvePath confines a server-side path to the file root. Relative paths
// are taken from the root; symbolic links are resolved before the check,
// so a link cannot lead outside.
func (s *Session) resolvePath(p string) (string, error) {
	root := s.srv.opts.FileRoot
	full := p
	if !filepath.IsAbs(full) {
		full = filepath.Join(root, full)
	}
	full = filepath.Clean(full)
	outside := func() error {
		e := engine.Errorf(engine.CodeInsufficientPrivilege, "could not open file %q for reading: permission denied: the file is outside the server's file root", p)
		e.Hint = "Server-side COPY and CREATE TABLE ... FROM CSV read only under " + root + " (the --file-root option). To send a file from the client, use psql's \\copy."
		return e
	}
	if !within(root, full) {
		return "", outside()
	}
	real, err := filepath.EvalSymlinks(full)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", engine.Errorf(engine.CodeUndefinedFile, "could not open file %q for reading: No such file or directory", p)
		}
		return "", engine.Errorf(engine.CodeIOError, "could not open file %q for reading: %v", p, err)
	}
	if !within(root, real) {
		return "", outside()
	}
	return real, nil
}

func within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// loadFile runs the backend's CSV reader over a server-side file.
func (s *Session) loadFile(ctx context.Context, table, path string, cols []engine.ColumnDef, opts engine.CSVOptions, w engine.ResultWriter) (*engine.LoadResult, error) {
	real, err := s.resolvePath(path)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(real)
	if err != nil {
		return nil, engine.Errorf(engine.CodeIOError, "could not open file %q for reading: %v", path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, engine.Errorf(engine.CodeIOError, "could not stat file %q: %v", path, err)
	}
	if st.IsDir() {
		return nil, engine.Errorf(engine.CodeWrongObjectType, "%q is a directory", path)
	}
	opts.MaxTextWidth = s.srv.opts.MaxTextWidth
	req := &engine.LoadRequest{Table: table, Columns: cols, Options: opts, Source: f, Size: st.Size()}
	start := time.Now()
	var mu sync.Mutex
	last := start
	req.Progress = func(done int64) {
		mu.Lock()
		defer mu.Unlock()
		now := time.Now()
		if now.Sub(start) < time.Second || now.Sub(last) < time.Second {
			return
		}
		last = now
		msg := fmt.Sprintf("loading %s: %s of %s (%.0f%%), %s/s", table, humanize.Bytes(uint64(done)), humanize.Bytes(uint64(st.Size())),
			100*float64(done)/float64(max(st.Size(), 1)), humanize.Bytes(uint64(float64(done)/now.Sub(start).Seconds())))
		_ = w.Notice(engine.Notice{Severity: "NOTICE", Code: engine.CodeSuccessfulCompletion, Message: msg})
	}
	res, err := s.srv.backend.Load(ctx, req)
	if err != nil {
		return nil, err
	}
	if res.SkippedCount > 0 {
		s.srv.cat.RecordLoadErrors(table, res.Skipped)
		rows := "rows were"
		if res.SkippedCount == 1 {
			rows = "row was"
		}
		_ = w.Notice(engine.Notice{Severity: "NOTICE", Code: engine.CodeSuccessfulCompletion,
			Message: fmt.Sprintf("%s %s skipped due to errors; see gpusql_load_errors", humanize.Comma(res.SkippedCount), rows)})
	}
	el := time.Since(start)
	s.srv.log.Info("load", "table", table, "file", path, "rows", res.Rows, "bytes", st.Size(), "seconds", el.Seconds(),
		"rate", humanize.Bytes(uint64(float64(st.Size())/max(el.Seconds(), 1e-9)))+"/s", "skipped", res.SkippedCount)
	return res, nil
}

func (s *Session) createTable(ctx context.Context, st *parse.CreateTable, w engine.ResultWriter) error {
	if isSystemTable(st.Name) {
		return engine.Errorf(engine.CodeDuplicateTable, "relation %q already exists", st.Name)
	}
	if _, exists := s.srv.cat.Lookup(st.Name); exists {
		if st.IfNotExists {
			_ = w.Notice(engine.Notice{Severity: "NOTICE", Code: engine.CodeDuplicateTable, Message: fmt.Sprintf("relation %q already exists, skipping", st.Name)})
			return w.Complete("CREATE TABLE")
		}
		return engine.Errorf(engine.CodeDuplicateTable, "relation %q already exists", st.Name)
	}
	if len(st.Columns) == 0 {
		return engine.Errorf(engine.CodeInvalidTableDefinition, "a gpusql table needs at least one column")
	}
	if st.CSV == nil {
		if _, err := s.srv.cat.Create(st.Name, st.Columns); err != nil {
			return err
		}
		return w.Complete("CREATE TABLE")
	}
	start := time.Now()
	res, err := s.loadFile(ctx, st.Name, st.CSV.Path, st.Columns, st.CSV.Options, w)
	if err != nil {
		return err
	}
	// The table appears only now, with its data: a failed load leaves
	// nothing behind.
	t, err := s.srv.cat.Create(st.Name, st.Columns)
	if err != nil {
		res.Data.Release()
		return err
	}
	s.srv.cat.Replace(t, res.Data)
	s.loadedNotice(w, st.Name, res, time.Since(start))
	return w.Complete("CREATE TABLE")
}

func (s *Session) loadedNotice(w engine.ResultWriter, table string, res *engine.LoadResult, el time.Duration) {
	rate := float64(res.Bytes) / max(el.Seconds(), 1e-9)
	_ = w.Notice(engine.Notice{Severity: "NOTICE", Code: engine.CodeSuccessfulCompletion,
		Message: fmt.Sprintf("loaded %s rows (%s) into %s in %s, %s/s", humanize.Comma(res.Rows), humanize.Bytes(uint64(res.Bytes)),
			table, el.Round(time.Millisecond), humanize.Bytes(uint64(rate)))})
}

func (s *Session) copyFrom(ctx context.Context, st *parse.Copy, w engine.ResultWriter) error {
	t, ok := s.srv.cat.Lookup(st.Table)
	if !ok {
		return engine.Errorf(engine.CodeUndefinedTable, "relation %q does not exist", st.Table)
	}
	if st.Stdin {
		return engine.Errorf(engine.CodeFeatureNotSupported, "COPY FROM STDIN is not supported yet; use COPY %s FROM 'file' with a file under the server's file root", st.Table)
	}
	// The file's columns: the COPY column list, or all of the table's.
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
	res, err := s.loadFile(ctx, st.Table, st.Path, fileCols, st.Options, w)
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
	// COPY appends: the new contents are the old rows then the new ones,
	// swapped in whole.
	if old := t.Data(); old != nil && old.Rows() > 0 {
		merged, err := concat(old, data)
		if err != nil {
			data.Release()
			return err
		}
		data = merged
	}
	if cur, ok := s.srv.cat.Lookup(st.Table); !ok || cur != t {
		data.Release()
		return engine.Errorf(engine.CodeUndefinedTable, "relation %q was dropped during the load", st.Table)
	}
	s.srv.cat.Replace(t, data)
	s.srv.log.Debug("copy", "table", st.Table, "seconds", time.Since(start).Seconds())
	return w.Complete(fmt.Sprintf("COPY %d", res.Rows))
}

// widen places loaded columns at their table positions and fills the
// others with NULLs.
func widen(d engine.TableData, cols []engine.ColumnDef, idx []int) (engine.TableData, error) {
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

// concat appends b's rows to a's into new storage.
func concat(a, b engine.TableData) (engine.TableData, error) {
	ha, ok1 := a.(*engine.HostTable)
	hb, ok2 := b.(*engine.HostTable)
	if !ok1 || !ok2 {
		return nil, engine.Errorf(engine.CodeInternalError, "cannot append %T to %T", b, a)
	}
	return engine.ConcatHost(ha, hb), nil
}

func (s *Session) dropTable(st *parse.DropTable, w engine.ResultWriter) error {
	for _, name := range st.Names {
		if isSystemTable(name) {
			return engine.Errorf(engine.CodeInsufficientPrivilege, "permission denied: %q is a system table", name)
		}
		if _, ok := s.srv.cat.Lookup(name); !ok && !st.IfExists {
			return engine.Errorf(engine.CodeUndefinedTable, "table %q does not exist", name)
		}
	}
	for _, name := range st.Names {
		if err := s.srv.cat.Drop(name); err != nil {
			if st.IfExists {
				_ = w.Notice(engine.Notice{Severity: "NOTICE", Code: engine.CodeSuccessfulCompletion, Message: fmt.Sprintf("table %q does not exist, skipping", name)})
				continue
			}
			return err
		}
	}
	return w.Complete("DROP TABLE")
}
