package pqfile

import (
	"context"
	"fmt"
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
	// cols are the row group's decoded columns, one per table column.
	cols []*engine.Column
}

// Read decodes every row group of files into one host table whose
// columns are cols, the files' columns mapped onto them by position
// (File.plan says what maps). Row groups are decoded in parallel, each
// by one goroutine, at most Workers at once; their columns are then
// joined in file and row group order. Any error (the first in file and
// row group order, whatever the timing) fails the whole read.
func Read(ctx context.Context, files []*File, cols []engine.ColumnDef, o Options) (*engine.HostTable, error) {
	plans := make([][]conv, len(files))
	var jobs []*job
	for fi, f := range files {
		p, err := f.plan(cols)
		if err != nil {
			return nil, err
		}
		plans[fi] = p
		for g, rg := range f.pf.RowGroups() {
			jobs = append(jobs, &job{file: f, fi: fi, rg: g, rows: int(rg.NumRows())})
		}
	}
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var (
		wg     sync.WaitGroup
		sem    = make(chan struct{}, workers)
		mu     sync.Mutex
		failed = len(jobs) // lowest index of a failed job
		errs   = make([]error, len(jobs))
		done   atomic.Int64
	)
	for j, jb := range jobs {
		mu.Lock()
		stop := failed < j
		mu.Unlock()
		if stop || ctx.Err() != nil {
			break
		}
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			err := decodeJob(ctx, jb, plans[jb.fi], &o)
			if err != nil {
				mu.Lock()
				errs[j] = err
				failed = min(failed, j)
				mu.Unlock()
				return
			}
			if o.Progress != nil {
				meta := jb.file.pf.Metadata().RowGroups[jb.rg]
				o.Progress(done.Add(rowGroupBytes(meta.TotalCompressedSize, meta.TotalByteSize)))
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if failed < len(jobs) {
		return nil, errs[failed]
	}
	return assemble(cols, jobs, workers), nil
}

func rowGroupBytes(compressed, total int64) int64 {
	if compressed > 0 {
		return compressed
	}
	return total
}

// decodeJob decodes one row group. parquet-go panics on some damaged
// pages; such a page is as corrupt as one it reports.
func decodeJob(ctx context.Context, jb *job, plan []conv, o *Options) (err error) {
	d := &decoder{file: jb.file.Name, rowGroup: jb.rg + 1, o: o} // row groups count from 1 in messages
	cur := ""
	defer func() {
		if p := recover(); p != nil {
			err = errCorrupt(jb.file.Name, jb.rg+1, cur, fmt.Sprint(p))
		}
	}()
	chunks := jb.file.pf.RowGroups()[jb.rg].ColumnChunks()
	jb.cols = make([]*engine.Column, len(plan))
	for k := range plan {
		cv := &plan[k]
		cur = cv.src.name
		if cv.src.leaf >= len(chunks) {
			return errCorrupt(jb.file.Name, jb.rg+1, cur, "the row group lacks the column's chunk")
		}
		col, err := d.chunk(ctx, chunks[cv.src.leaf], cv, jb.rows)
		if err != nil {
			return err
		}
		jb.cols[k] = col
	}
	return nil
}

// assemble joins the row groups' columns into one table, a column per
// goroutine; string columns take the widest row group's width.
func assemble(cols []engine.ColumnDef, jobs []*job, workers int) *engine.HostTable {
	total := 0
	for _, jb := range jobs {
		total += jb.rows
	}
	out := make([]*engine.Column, len(cols))
	var wg sync.WaitGroup
	sem := make(chan struct{}, workers)
	for k := range cols {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			out[k] = joinColumn(cols[k].Type, jobs, k, total)
		}()
	}
	wg.Wait()
	return engine.NewHostTable(out, int64(total))
}

// joinColumn joins column k of every job into one column of n rows,
// dropping each part once it is copied.
func joinColumn(t engine.Type, jobs []*job, k, n int) *engine.Column {
	width, nullable := 0, false
	for _, jb := range jobs {
		width = max(width, jb.cols[k].Width)
		nullable = nullable || jb.cols[k].Valid != nil
	}
	if len(jobs) == 1 {
		c := jobs[0].cols[k]
		jobs[0].cols[k] = nil
		return c
	}
	c := engine.NewColumn(t, n, width, nullable)
	at := 0
	for _, jb := range jobs {
		p := jb.cols[k]
		m := p.Len
		switch {
		case c.B != nil:
			copy(c.B[at:], p.B)
		case c.I16 != nil:
			copy(c.I16[at:], p.I16)
		case c.I32 != nil:
			copy(c.I32[at:], p.I32)
		case c.I64 != nil:
			copy(c.I64[at:], p.I64)
		case c.F32 != nil:
			copy(c.F32[at:], p.F32)
		case c.F64 != nil:
			copy(c.F64[at:], p.F64)
		case t.IsString():
			if p.Width == c.Width {
				copy(c.Str[at*c.Width:], p.Str)
			} else if p.Width > 0 {
				for i := 0; i < m; i++ {
					copy(c.Str[(at+i)*c.Width:], p.Str[i*p.Width:(i+1)*p.Width])
				}
			}
		}
		if p.Valid != nil {
			for i := 0; i < m; i++ {
				if p.IsNull(i) {
					c.SetNull(at + i)
				}
			}
		}
		at += m
		jb.cols[k] = nil
	}
	return c
}
