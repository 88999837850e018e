package pqfile

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/gpusql/gpusql/engine"
)

// Options tune Read.
type Options struct {
	// MaxTextWidth bounds a string column's stored byte width (54000
	// beyond it); 0: no bound.
	MaxTextWidth int
	// Workers is how many row groups are decoded at once; 0 means
	// GOMAXPROCS.
	Workers int
	// Progress, if set, is called after each row group with the bytes
	// (compressed, as in the files) decoded so far. It may be called
	// from several goroutines at once.
	Progress func(done int64)
}

// job is one row group of one file.
type job struct {
	file *File
	fi   int
	rg   int
	rows int
	off  int // the row group's first row in the table
	// cols are the row group's decoded columns, one per table column.
	cols []*engine.Column
}

// Read decodes every row group of files into one host table whose
// columns are cols, the files' columns mapped onto them by position
// (File.plan says what maps). Each column chunk (one column of one row
// group) is decoded by one goroutine, at most Workers at once, so that a
// file of one row group is decoded in parallel too. Any error (the first
// in file, row group and column order, whatever the timing) fails the
// whole read.
func Read(ctx context.Context, files []*File, cols []engine.ColumnDef, o Options) (*engine.HostTable, error) {
	plans := make([][]conv, len(files))
	var jobs []*job
	total := 0
	for fi, f := range files {
		p, err := f.plan(cols)
		if err != nil {
			return nil, err
		}
		plans[fi] = p
		for g, rg := range f.pf.RowGroups() {
			n := rg.NumRows()
			if n < 0 || n > math.MaxInt32 {
				return nil, errCorrupt(f.Name, g+1, "", fmt.Sprintf("a row group of %d rows", n))
			}
			jobs = append(jobs, &job{file: f, fi: fi, rg: g, rows: int(n), off: total, cols: make([]*engine.Column, len(cols))})
			total += int(n)
		}
	}
	// Fixed-width columns are decoded straight into the table's
	// columns, each row group into its own range; string columns, whose
	// width is known only once every row group is read, are joined after.
	out := make([]*engine.Column, len(cols))
	for k, c := range cols {
		if !c.Type.IsString() {
			out[k] = engine.NewColumn(c.Type, total, 0, false)
		}
	}
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	// The free decoders, one per worker, are the semaphore.
	free := make(chan *decoder, workers)
	for i := 0; i < workers; i++ {
		free <- &decoder{o: &o}
	}
	ntasks := len(jobs) * len(cols)
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		failed = ntasks // lowest index of a failed task
		errs   = make([]error, ntasks)
		done   atomic.Int64
	)
	for t := 0; t < ntasks; t++ {
		mu.Lock()
		stop := failed < t
		mu.Unlock()
		if stop || ctx.Err() != nil {
			break
		}
		d := <-free
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { free <- d }()
			jb, k := jobs[t/len(cols)], t%len(cols)
			cv := &plans[jb.fi][k]
			if err := decodeTask(ctx, d, jb, k, cv, out[k]); err != nil {
				mu.Lock()
				errs[t] = err
				failed = min(failed, t)
				mu.Unlock()
				return
			}
			if o.Progress != nil {
				meta := jb.file.pf.Metadata().RowGroups[jb.rg].Columns[cv.src.leaf].MetaData
				o.Progress(done.Add(max(meta.TotalCompressedSize, 0)))
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if failed < ntasks {
		return nil, errs[failed]
	}
	return assemble(cols, out, jobs, total, workers), nil
}

// decodeTask decodes column k of one row group with d. parquet-go panics
// on some damaged pages; such a page is as corrupt as one it reports.
func decodeTask(ctx context.Context, d *decoder, jb *job, k int, cv *conv, into *engine.Column) (err error) {
	d.file, d.rowGroup = jb.file.Name, jb.rg+1 // row groups count from 1 in messages
	defer func() {
		if p := recover(); p != nil {
			err = errCorrupt(jb.file.Name, jb.rg+1, cv.src.name, fmt.Sprint(p))
		}
	}()
	chunks := jb.file.pf.RowGroups()[jb.rg].ColumnChunks()
	if cv.src.leaf >= len(chunks) {
		return errCorrupt(jb.file.Name, jb.rg+1, cv.src.name, "the row group lacks the column's chunk")
	}
	col, err := d.chunk(ctx, chunks[cv.src.leaf], cv, jb.rows, into, jb.off)
	if err != nil {
		return err
	}
	jb.cols[k] = col
	return nil
}

// assemble finishes the table: the NULLs of each fixed-width column's
// row groups are marked in it, and the string columns are joined, a
// column per goroutine; a string column takes its widest row group's
// width.
func assemble(cols []engine.ColumnDef, out []*engine.Column, jobs []*job, total, workers int) *engine.HostTable {
	var wg sync.WaitGroup
	sem := make(chan struct{}, workers)
	for k := range cols {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if out[k] == nil {
				out[k] = joinStrings(cols[k].Type, jobs, k, total)
			} else {
				markNulls(out[k], jobs, k)
			}
		}()
	}
	wg.Wait()
	return engine.NewHostTable(out, int64(total))
}

// markNulls marks in c the NULL rows of column k of every job; the
// values are already in place.
func markNulls(c *engine.Column, jobs []*job, k int) {
	for _, jb := range jobs {
		p := jb.cols[k]
		if p.Valid != nil {
			for i := 0; i < p.Len; i++ {
				if p.IsNull(i) {
					c.SetNull(jb.off + i)
				}
			}
		}
		jb.cols[k] = nil
	}
}

// joinStrings joins string column k of every job into one column of n
// rows, dropping each part once it is copied.
func joinStrings(t engine.Type, jobs []*job, k, n int) *engine.Column {
	if len(jobs) == 1 {
		c := jobs[0].cols[k]
		jobs[0].cols[k] = nil
		return c
	}
	width, nullable := 0, false
	for _, jb := range jobs {
		width = max(width, jb.cols[k].Width)
		nullable = nullable || jb.cols[k].Valid != nil
	}
	c := engine.NewColumn(t, n, width, false)
	for _, jb := range jobs {
		p := jb.cols[k]
		at := jb.off
		if p.Width == c.Width {
			copy(c.Str[at*c.Width:], p.Str)
		} else if p.Width > 0 {
			for i := 0; i < p.Len; i++ {
				copy(c.Str[(at+i)*c.Width:], p.Str[i*p.Width:(i+1)*p.Width])
			}
		}
		if p.Valid != nil {
			for i := 0; i < p.Len; i++ {
				if p.IsNull(i) {
					c.SetNull(at + i)
				}
			}
		}
		jb.cols[k] = nil
	}
	return c
}
