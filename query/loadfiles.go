package query

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/loader/pgz"
)

// Server-side files for COPY FROM 'path' and CREATE TABLE ... FROM CSV
// 'path'. A path ending in .gz or .zst is decompressed on the fly, in a
// goroutine of its own a block ahead of the loader, so decompression
// overlaps the parse (and, on the GPU backend, the transfers). A path
// with glob characters (* ? [) names every file it matches under the
// file root: each is loaded in name order and the parts are joined into
// one result, so the statement commits all of them or none.

// loadFile loads the file or files that path names.
func (s *Session) loadFile(ctx context.Context, table, path string, cols []engine.ColumnDef, opts engine.CSVOptions, w engine.ResultWriter) (*engine.LoadResult, error) {
	if !strings.ContainsAny(path, "*?[") {
		return s.loadOneFile(ctx, table, path, cols, opts, w)
	}
	names, err := s.globFiles(path)
	if err != nil {
		return nil, err
	}
	total := &engine.LoadResult{}
	var parts []engine.TableData
	release := func() {
		for _, p := range parts {
			p.Release()
		}
	}
	notes := map[string]bool{}
	for _, name := range names {
		res, err := s.loadOneFile(ctx, table, name, cols, opts, w)
		if err != nil {
			release()
			var e *engine.Error
			if errors.As(err, &e) {
				e.Where = withFile(e.Where, table, name)
			}
			return nil, err
		}
		parts = append(parts, res.Data)
		total.Rows += res.Rows
		total.Bytes += res.Bytes
		total.SkippedCount += res.SkippedCount
		total.Skipped = append(total.Skipped, res.Skipped...)
		for _, n := range res.Notes {
			if !notes[n] {
				notes[n] = true
				total.Notes = append(total.Notes, n)
			}
		}
	}
	// Join the parts pairwise, level by level, so that each row is copied
	// about log2(files) times rather than once per later file.
	for len(parts) > 1 {
		var next []engine.TableData
		for i := 0; i < len(parts); i += 2 {
			if i+1 == len(parts) {
				next = append(next, parts[i])
				continue
			}
			m, err := s.srv.backend.Concat(table, parts[i], parts[i+1])
			if err != nil {
				for _, p := range append(next, parts[i:]...) {
					p.Release()
				}
				return nil, err
			}
			parts[i].Release()
			parts[i+1].Release()
			next = append(next, m)
		}
		parts = next
	}
	total.Data = parts[0]
	return total, nil
}

// withFile names the file in a load error's CONTEXT line: "COPY t, line
// 3, ..." becomes "COPY t, file "f.csv", line 3, ...".
func withFile(where, table, name string) string {
	prefix := "COPY " + table
	rest, ok := strings.CutPrefix(where, prefix)
	if !ok {
		if where == "" {
			return fmt.Sprintf("COPY %s, file %q", table, name)
		}
		return where
	}
	return fmt.Sprintf("%s, file %q%s", prefix, name, rest)
}

// globFiles returns the files that pattern matches under the file root,
// in name order, as paths relative to the root when the pattern is. A
// match outside the root refuses the whole pattern.
func (s *Session) globFiles(pattern string) ([]string, error) {
	root := s.srv.opts.FileRoot
	full := pattern
	if !filepath.IsAbs(full) {
		full = filepath.Join(root, full)
	}
	matches, err := filepath.Glob(full)
	if err != nil {
		return nil, engine.Errorf(engine.CodeInvalidParameterValue, "invalid file pattern %q: %v", pattern, err)
	}
	var names []string
	for _, m := range matches {
		name := m
		if !filepath.IsAbs(pattern) {
			if rel, err := filepath.Rel(root, m); err == nil {
				name = rel
			}
		}
		// Every match must lie under the root (resolvePath says why
		// not) before any is read; directories are not files to load.
		real, err := s.resolvePath(name)
		if err != nil {
			return nil, err
		}
		if st, err := os.Stat(real); err == nil && st.IsDir() {
			continue
		}
		names = append(names, name)
	}
	if len(names) == 0 {
		return nil, engine.Errorf(engine.CodeUndefinedFile, "could not open file %q for reading: no file matches the pattern", pattern)
	}
	return names, nil
}

// loadOneFile runs the backend's loader over one server-side file,
// decompressing it if its name says it is compressed.
func (s *Session) loadOneFile(ctx context.Context, table, path string, cols []engine.ColumnDef, opts engine.CSVOptions, w engine.ResultWriter) (*engine.LoadResult, error) {
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
	var res *engine.LoadResult
	switch ext := strings.ToLower(filepath.Ext(path)); {
	case ext == ".gz" || ext == ".zst":
		src, err := decompress(f, ext, path)
		if err != nil {
			return nil, err
		}
		res, err = s.runLoad(ctx, table, path, src, -1, cols, opts, w)
		src.Close()
		if err != nil {
			return nil, err
		}
	case !st.Mode().IsRegular():
		// A named pipe or a device streams: its size is unknown, and
		// the loaders must read it as a stream, never map it.
		if res, err = s.runLoad(ctx, table, path, struct{ io.Reader }{f}, -1, cols, opts, w); err != nil {
			return nil, err
		}
	default:
		if res, err = s.runLoad(ctx, table, path, f, st.Size(), cols, opts, w); err != nil {
			return nil, err
		}
	}
	for i := range res.Skipped {
		res.Skipped[i].File = path
	}
	return res, nil
}

// aheadBlock is how much decompressed data the decompressing goroutine
// holds ready for the loader.
const aheadBlock = 4 << 20

// decompressed is a compressed file's content, decompressed a block ahead
// of its reader by a goroutine. Close stops the goroutine and waits for it.
type decompressed struct {
	*io.PipeReader
	done chan struct{}
}

func (d *decompressed) Close() error {
	d.PipeReader.CloseWithError(errors.New("load finished"))
	<-d.done
	return nil
}

// decompress starts decompressing f (gzip for ".gz", zstd for ".zst")
// from its start.
// A corrupt stream is 22P04, naming the file.
func decompress(f *os.File, ext, path string) (*decompressed, error) {
	bad := func(err error) error {
		var pe *engine.Error
		if errors.As(err, &pe) {
			return pe
		}
		return &engine.Error{Code: engine.CodeBadCopyFileFormat, Message: fmt.Sprintf("could not decompress file %q: %v", path, err), Err: err}
	}
	in := bufio.NewReaderSize(f, 1<<20)
	var dec io.Reader
	var closeDec func()
	st, statErr := f.Stat()
	switch {
	case ext == ".gz" && statErr == nil && st.Mode().IsRegular():
		// A file of many members (bgzip's, concatenated files) is
		// inflated on every core; one of one member as by gzip's reader.
		z, err := pgz.NewReader(f, st.Size(), pgz.Options{Workers: runtime.GOMAXPROCS(0)})
		if err != nil {
			return nil, bad(err)
		}
		dec, closeDec = z, func() { z.Close() }
	case ext == ".gz":
		z, err := gzip.NewReader(in)
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, bad(err)
		}
		dec, closeDec = z, func() { z.Close() }
	default:
		z, err := zstd.NewReader(in, zstd.WithDecoderLowmem(false))
		if err != nil {
			return nil, bad(err)
		}
		dec, closeDec = z, z.Close
	}
	pr, pw := io.Pipe()
	d := &decompressed{PipeReader: pr, done: make(chan struct{})}
	go func() {
		defer close(d.done)
		defer closeDec()
		bw := bufio.NewWriterSize(pw, aheadBlock)
		_, err := io.Copy(bw, dec)
		if err == nil {
			err = bw.Flush()
		} else if !errors.Is(err, io.ErrClosedPipe) {
			err = bad(err)
		}
		pw.CloseWithError(err)
	}()
	return d, nil
}
