package query

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/dustin/go-humanize"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/copybin"
	"github.com/gpusql/gpusql/query/parse"
)

// rootedPath is a server-side path p as a statement wrote it, and full,
// p taken from the file root (when relative) and cleaned, to be checked
// against the root before a file is opened for verb ("reading",
// "writing"); hint says what may be opened where.
type rootedPath struct {
	root, p, full, verb, hint string
}

func (s *Session) rootPath(p, verb, hint string) rootedPath {
	root := s.srv.opts.FileRoot
	full := p
	if !filepath.IsAbs(full) {
		full = filepath.Join(root, full)
	}
	return rootedPath{root: root, p: p, full: filepath.Clean(full), verb: verb, hint: fmt.Sprintf(hint, root)}
}

// outside is the error for a path that leads outside the root.
func (r rootedPath) outside() error {
	e := engine.Errorf(engine.CodeInsufficientPrivilege, "could not open file %q for %s: permission denied: the file is outside the server's file root", r.p, r.verb)
	e.Hint = r.hint
	return e
}

// eval resolves the symbolic links of path, which must exist and stay
// within the root.
func (r rootedPath) eval(path string) (string, error) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", engine.Errorf(engine.CodeUndefinedFile, "could not open file %q for %s: No such file or directory", r.p, r.verb)
		}
		return "", engine.Errorf(engine.CodeIOError, "could not open file %q for %s: %v", r.p, r.verb, err)
	}
	if !within(r.root, real) {
		return "", r.outside()
	}
	return real, nil
}

// resolvePath confines a server-side path to the file root. Relative paths
// are taken from the root; symbolic links are resolved before the check,
// so a link cannot lead outside.
func (s *Session) resolvePath(p string) (string, error) {
	r := s.rootPath(p, "reading", "Server-side COPY and CREATE TABLE ... FROM CSV read only under %s (the --file-root option). To send a file from the client, use psql's \\copy.")
	if !within(r.root, r.full) {
		return "", r.outside()
	}
	return r.eval(r.full)
}

// resolveWritePath confines the target of COPY TO 'file' to the file
// root: the path's folder must exist within the root (after symbolic
// links); a target that is a link is followed if it stays within the
// root. The file itself need not exist; it is replaced whole.
func (s *Session) resolveWritePath(p string) (string, error) {
	r := s.rootPath(p, "writing", "Server-side COPY TO writes only under %s (the --file-root option). To write a file on the client, use COPY ... TO STDOUT or psql's \\copy.")
	if !within(r.root, r.full) || r.full == r.root {
		return "", r.outside()
	}
	dir, err := r.eval(filepath.Dir(r.full))
	if err != nil {
		return "", err
	}
	target := filepath.Join(dir, filepath.Base(r.full))
	// A link is followed, as PostgreSQL's COPY TO follows it, even to a
	// file that does not exist yet; each step must stay within the root.
	for hops := 0; ; hops++ {
		fi, err := os.Lstat(target)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			break
		}
		dest, err := os.Readlink(target)
		if err != nil || hops == 40 {
			return "", engine.Errorf(engine.CodeIOError, "could not open file %q for writing: too many levels of symbolic links", p)
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(filepath.Dir(target), dest)
		}
		d, err := filepath.EvalSymlinks(filepath.Dir(filepath.Clean(dest)))
		if err != nil || !within(r.root, d) {
			return "", r.outside()
		}
		target = filepath.Join(d, filepath.Base(dest))
		if !within(r.root, target) {
			return "", r.outside()
		}
	}
	if fi, err := os.Stat(target); err == nil && !fi.Mode().IsRegular() {
		if fi.IsDir() {
			return "", engine.Errorf(engine.CodeWrongObjectType, "%q is a directory", p)
		}
		return "", engine.Errorf(engine.CodeFeatureNotSupported, "could not open file %q for writing: not a regular file", p)
	}
	return target, nil
}

func within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// runLoad runs the backend's loader over src (size bytes, -1 if unknown;
// from names it in the log), sending progress and skipped-row notices.
func (s *Session) runLoad(ctx context.Context, table, from string, src io.Reader, size int64, cols []engine.ColumnDef, opts engine.CSVOptions, w engine.ResultWriter) (*engine.LoadResult, error) {
	if opts.Format == engine.FormatParquet {
		// Files are read by loadParquet; this is COPY FROM STDIN.
		return nil, engine.Errorf(engine.CodeFeatureNotSupported, "COPY FROM STDIN with FORMAT parquet is not supported by gpusql").
			WithHint("Parquet is read from server-side files only: COPY t FROM 'file.parquet' WITH (FORMAT parquet).")
	}
	opts.MaxTextWidth = s.srv.opts.MaxTextWidth
	if opts.Zone == nil {
		opts.Zone = clockOf(ctx).zone // timestamptz values without an offset
	}
	binaryIn := opts.Format == engine.FormatBinary
	if binaryIn {
		// The loaders read binary COPY as the text format it is turned
		// into, one line per row (engine/copybin).
		src, size = copybin.NewTextReader(src, table, cols), -1
		opts.Format = engine.FormatText
	}
	req := &engine.LoadRequest{Table: table, Columns: cols, Options: opts, Source: src, Size: size}
	start := time.Now()
	req.Progress = loadProgress(table, size, start, s.srv.opts.ProgressEvery, w)
	res, err := s.srv.backend.Load(ctx, req)
	if err != nil {
		if binaryIn {
			binaryWhere(err, table, cols)
		}
		return nil, err
	}
	for _, n := range res.Notes {
		if binaryIn {
			n = strings.Replace(n, "FORMAT text is parsed on the CPU", "FORMAT binary is read on the CPU", 1)
		}
		_ = w.Notice(engine.Notice{Severity: "NOTICE", Code: engine.CodeSuccessfulCompletion, Message: n})
	}
	if res.SkippedCount > 0 {
		rows := "rows were"
		if res.SkippedCount == 1 {
			rows = "row was"
		}
		_ = w.Notice(engine.Notice{Severity: "NOTICE", Code: engine.CodeSuccessfulCompletion,
			Message: fmt.Sprintf("%s %s skipped due to errors; see gpusql_load_errors", humanize.Comma(res.SkippedCount), rows)})
	}
	el := time.Since(start)
	s.srv.log.Info("load", "table", table, "from", from, "rows", res.Rows, "bytes", res.Bytes, "seconds", el.Seconds(),
		"rate", humanize.Bytes(uint64(float64(res.Bytes)/max(el.Seconds(), 1e-9)))+"/s", "skipped", res.SkippedCount)
	return res, nil
}

// binaryWhere drops the row's or value's text that a loader's CONTEXT
// line shows ("COPY t, line 3, column b: \"abc\""): for binary input
// that text is the transcoder's, not the client's, and PostgreSQL shows
// none.
func binaryWhere(err error, table string, cols []engine.ColumnDef) {
	var e *engine.Error
	if !errors.As(err, &e) {
		return
	}
	prefix := "COPY " + table + ", line "
	if !strings.HasPrefix(e.Where, prefix) {
		return
	}
	end := len(prefix)
	for end < len(e.Where) && e.Where[end] >= '0' && e.Where[end] <= '9' {
		end++
	}
	rest := e.Where[end:]
	if strings.HasPrefix(rest, ", column ") {
		for _, c := range cols {
			at := len(", column ") + len(c.Name)
			if strings.HasPrefix(rest[len(", column "):], c.Name) && (len(rest) == at || strings.HasPrefix(rest[at:], ": ")) {
				end += at
				break
			}
		}
	}
	e.Where = e.Where[:end]
}

func (s *Session) createTable(ctx context.Context, st *parse.CreateTable, w engine.ResultWriter) error {
	schema, err := s.createIn(st.Schema, st.Temp)
	if err != nil {
		return err
	}
	if schema == "" && isSystemTable(st.Name) {
		return engine.Errorf(engine.CodeDuplicateTable, "relation %q already exists", st.Name)
	}
	if err := s.claimName(schema, st.Name); err != nil {
		return err
	}
	if t, v := s.srv.cat.LookupIn(schema, st.Name); t != nil || v != nil {
		if st.IfNotExists {
			_ = w.Notice(engine.Notice{Severity: "NOTICE", Code: engine.CodeDuplicateTable, Message: fmt.Sprintf("relation %q already exists, skipping", st.Name)})
			return w.Complete("CREATE TABLE")
		}
		return engine.Errorf(engine.CodeDuplicateTable, "relation %q already exists", st.Name)
	}
	if len(st.Columns) == 0 && st.CSV == nil {
		return engine.Errorf(engine.CodeInvalidTableDefinition, "a gpusql table needs at least one column")
	}
	if st.CSV == nil {
		t, err := s.srv.cat.CreateIn(schema, st.Name, st.Columns, nil)
		if err != nil {
			return err
		}
		s.createdTable(t)
		return w.Complete("CREATE TABLE")
	}
	start := time.Now()
	cols := st.Columns
	var res *engine.LoadResult
	switch {
	case st.CSV.Format == "parquet":
		// Without a column list the file's own columns; with one, the
		// file's map onto it by position.
		res, cols, err = s.loadParquet(ctx, st.Name, st.CSV.Path, cols, w)
	case len(cols) == 0:
		res, cols, err = s.loadInferred(ctx, st.Name, st.CSV.Path, st.CSV.Options, st.CSV.Given, w)
	default:
		res, err = s.loadFile(ctx, st.Name, st.CSV.Path, cols, st.CSV.Options, w)
	}
	if err != nil {
		return err
	}
	// The table appears only now, with its data: a failed or cancelled
	// load leaves nothing behind.
	if err := ctx.Err(); err != nil {
		res.Data.Release()
		return canceledStatement(ctx)
	}
	s.srv.gatherStats(res.Data)
	t, err := s.srv.cat.CreateIn(schema, st.Name, cols, res.Data)
	if err != nil {
		return err
	}
	s.createdTable(t)
	s.countInserts(t, res.Rows)
	// The skipped rows become visible in gpusql_load_errors with the
	// load they belong to: a load that commits nothing records nothing.
	s.srv.cat.RecordLoadErrors(st.Name, res.Skipped)
	s.loadedNotice(w, st.Name, res, time.Since(start))
	return w.Complete("CREATE TABLE")
}

func (s *Session) loadedNotice(w engine.ResultWriter, table string, res *engine.LoadResult, el time.Duration) {
	rate := float64(res.Bytes) / max(el.Seconds(), 1e-9)
	_ = w.Notice(engine.Notice{Severity: "NOTICE", Code: engine.CodeSuccessfulCompletion,
		Message: fmt.Sprintf("loaded %s rows (%s) into %s in %s, %s/s", humanize.Comma(res.Rows), humanize.Bytes(uint64(res.Bytes)),
			table, el.Round(time.Millisecond), humanize.Bytes(uint64(rate)))})
}

func (s *Session) dropTable(st *parse.DropTable, w engine.ResultWriter) error {
	return s.dropRelations(st.Names, st.Schemas, st.IfExists, st.Cascade, false, w)
}
