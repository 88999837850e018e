package multi

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"sync"

	"github.com/gpusql/gpusql/engine"
)

// A file is split into one byte range per part, each cut after the first
// LF at or past its even share, and the parts load their ranges at once.
//
// An LF inside a quoted field would cut a record in two. It is never
// guessed about: a range is parsed exactly from a true record start (the
// first range from the file's), so if its end fell inside a quoted field
// the range ends in an unterminated field, a load error. Any error or
// rejected row in any range therefore sends the whole file to the first
// part alone, which then reports exactly what a one-device load reports,
// line numbers included. Files too small to be worth it, non-files
// (STDIN), HEADER MATCH and the text format load on the first part too.

// Load loads req's CSV into a table split across the parts.
func (b *Backend) Load(ctx context.Context, req *engine.LoadRequest) (*engine.LoadResult, error) {
	if ranges := b.ranges(req); len(ranges) > 1 {
		res, ok, err := b.loadSplit(ctx, req, ranges)
		if err != nil || ok {
			return res, err
		}
		f := req.Source.(*os.File)
		if _, err := f.Seek(ranges[0].off, io.SeekStart); err != nil {
			return nil, engine.Errorf(engine.CodeIOError, "could not read CSV input: %v", err)
		}
	}
	res, err := b.parts[0].Load(ctx, req)
	if err != nil {
		return nil, err
	}
	res.Data = b.newTable(req.Table, []segment{newSegment(0, res.Data)})
	return res, nil
}

// byteRange is one part's share of a file.
type byteRange struct{ off, n int64 }

// ranges splits req's file into one range per part, or returns nil when
// it loads on the first part alone.
func (b *Backend) ranges(req *engine.LoadRequest) []byteRange {
	f, ok := req.Source.(*os.File)
	n := int64(len(b.parts))
	if !ok || n < 2 || req.Size < 2*b.o.MinSplitBytes || req.Options.Format != engine.FormatCSV ||
		req.Options.Header == engine.HeaderMatch {
		return nil
	}
	start, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return nil
	}
	end := start + req.Size
	n = min(n, req.Size/b.o.MinSplitBytes)
	cuts := []int64{start}
	for k := int64(1); k < n; k++ {
		at := start + req.Size*k/n
		if at <= cuts[len(cuts)-1] {
			continue
		}
		c, ok := nextLine(f, at-1, end)
		if !ok || c >= end {
			break
		}
		if c > cuts[len(cuts)-1] {
			cuts = append(cuts, c)
		}
	}
	cuts = append(cuts, end)
	out := make([]byteRange, 0, len(cuts)-1)
	for i := 0; i+1 < len(cuts); i++ {
		out = append(out, byteRange{cuts[i], cuts[i+1] - cuts[i]})
	}
	return out
}

// nextLine is the offset just past the first LF at or after at.
func nextLine(f *os.File, at, end int64) (int64, bool) {
	buf := make([]byte, 64<<10)
	for at < end {
		m, err := f.ReadAt(buf[:min(int64(len(buf)), end-at)], at)
		if i := bytes.IndexByte(buf[:m], '\n'); i >= 0 {
			return at + int64(i) + 1, true
		}
		if err != nil && !errors.Is(err, io.EOF) || m == 0 {
			return 0, false
		}
		at += int64(m)
	}
	return 0, false
}

// loadSplit loads each range on its part. ok is false (and nothing is
// kept) when the file must load on the first part alone.
func (b *Backend) loadSplit(ctx context.Context, req *engine.LoadRequest, ranges []byteRange) (*engine.LoadResult, bool, error) {
	f := req.Source.(*os.File)
	results := make([]*engine.LoadResult, len(ranges))
	errs := make([]error, len(ranges))
	var progressMu sync.Mutex
	done := make([]int64, len(ranges))
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	for i, r := range ranges {
		src, err := os.Open(f.Name())
		if err == nil {
			if same, serr := sameFile(f, src); !same || serr != nil {
				_ = src.Close()
				err = errors.New("the file changed")
			}
		}
		if err != nil {
			errs[i] = err
			continue
		}
		sub := *req
		sub.Source, sub.Size = engine.NewFileSection(src, r.off, r.n), r.n
		if i > 0 {
			sub.Options.Header = engine.HeaderNone
		}
		if req.Progress != nil {
			sub.Progress = func(n int64) {
				progressMu.Lock()
				defer progressMu.Unlock()
				done[i] = n
				var sum int64
				for _, d := range done {
					sum += d
				}
				req.Progress(sum)
			}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer src.Close()
			results[i], errs[i] = b.parts[i].Load(ctx, &sub)
			if errs[i] != nil {
				cancel()
			}
		}()
	}
	wg.Wait()
	release := func() {
		for _, r := range results {
			if r != nil {
				r.Data.Release()
			}
		}
	}
	for _, err := range errs {
		if err != nil {
			release()
			if parent.Err() != nil { // the statement was cancelled or timed out
				return nil, false, err
			}
			return nil, false, nil // exact errors come from a load on one part
		}
	}
	clean := true
	for _, r := range results {
		if r.SkippedCount > 0 || len(r.Skipped) > 0 {
			clean = false
		}
		for c := range req.Columns {
			if storedType(r.Data, c) != storedType(results[0].Data, c) {
				clean = false // e.g. unconstrained numerics stored at different scales
			}
		}
	}
	if !clean {
		release()
		return nil, false, nil
	}
	out := &engine.LoadResult{}
	segs := make([]segment, len(results))
	seen := map[string]bool{}
	for i, r := range results {
		segs[i] = newSegment(i, r.Data)
		out.Rows += r.Rows
		out.Bytes += r.Bytes
		for _, n := range r.Notes {
			if !seen[n] {
				seen[n] = true
				out.Notes = append(out.Notes, n)
			}
		}
	}
	out.Data = b.newTable(req.Table, segs)
	if _, err := f.Seek(ranges[len(ranges)-1].off+ranges[len(ranges)-1].n, io.SeekStart); err != nil {
		out.Data.Release()
		return nil, false, engine.Errorf(engine.CodeIOError, "could not read CSV input: %v", err)
	}
	return out, true, nil
}

func sameFile(a, b *os.File) (bool, error) {
	sa, err := a.Stat()
	if err != nil {
		return false, err
	}
	sb, err := b.Stat()
	if err != nil {
		return false, err
	}
	return os.SameFile(sa, sb), nil
}

func storedType(d engine.TableData, col int) engine.Type {
	if st, ok := d.(engine.StoredTyper); ok {
		return st.StoredType(col)
	}
	return engine.Type{}
}
