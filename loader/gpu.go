package loader

import (
	"bytes"
	"context"
	"runtime"
	"sort"
	"sync"

	"github.com/gpusql/gpusql/cuda"
	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/gpu"
)

// The GPU CSV reader: the stages of the CPU loader run as the kernels of
// cuda/csv.cu, with exactly the CPU loader's results and errors.
//
// Per batch, on the device: (1) csv_count, a warp per 2 KiB chunk, counts
// record and field terminators and quotes as a function of the quote state
// the chunk starts in, and composes each block's chunks; (2) csv_scan, an
// exclusive scan of the blocks' functions, gives each block its state,
// first record and first field-index slot; (3) csv_index finishes the scan
// within the block and writes the field index and the records table; (4)
// csv_validate checks every row, lists the rows it cannot prove good,
// reduces string widths and NULL flags and (6) converts each value into
// the table's columns, at the rows after those of earlier batches. The host
// re-reads only the listed rows with the CPU loader's code (stage 5's
// verdict and the exact PostgreSQL message), converts those that are good
// and patches them in; csv_convert rewrites the columns the speculative
// conversion got wrong (see rows). Every kernel runs on one
// stream; batches are copied in on the other, from two pinned buffers, the
// next raw block while the current batch is parsed; the incomplete last
// record of a batch (its orphan) is copied in front of the next block.

// GPUConfig tunes the GPU loader. Zero fields take defaults. Results never
// depend on these settings.
type GPUConfig struct {
	// BatchSize is the bytes read per streaming batch (default 256 MiB).
	BatchSize int
	// Readers is the number of parallel pread goroutines (default
	// runtime.NumCPU()).
	Readers int
	// Read is how files are read (default ReadPread).
	Read ReadMode
	// HostBuffers is the pinned host buffers of BatchSize that pread
	// fills ahead of the device (default 2, at least 2). More let reads
	// run further ahead, but cost more pinning (docs/performance.md: two
	// loaded as fast as four on an H200 host).
	HostBuffers int
	// DriverPinned pins the host buffers with cuMemAllocHost, where by
	// default they are anonymous memory on transparent huge pages
	// registered with cuMemHostRegister (faster to pin).
	DriverPinned bool
	// poison fills output columns with 0xAB before they are written
	// (tests: every byte must be written by the kernels).
	poison bool
}

const defaultGPUBatch = 256 << 20

const defaultHostBuffers = 2

func (c GPUConfig) withDefaults() GPUConfig {
	if c.BatchSize <= 0 {
		c.BatchSize = defaultGPUBatch
	}
	c.BatchSize = min(c.BatchSize, maxBatch/2)
	if c.Readers <= 0 {
		c.Readers = runtime.NumCPU()
	}
	if c.HostBuffers <= 0 {
		c.HostBuffers = defaultHostBuffers
	}
	c.HostBuffers = max(c.HostBuffers, 2)
	return c
}

// GPU is the CUDA implementation of engine.Loader. Its LoadResult.Data is a
// *gpu.Table.
type GPU struct {
	dev *cuda.Device
	cfg GPUConfig

	once sync.Once
	k    *gpuKernels
	kerr error

	pinned hostPool
}

var _ engine.Loader = (*GPU)(nil)

// NewGPU returns a GPU loader on dev.
func NewGPU(dev *cuda.Device, cfg GPUConfig) *GPU {
	cfg = cfg.withDefaults()
	return &GPU{dev: dev, cfg: cfg, pinned: hostPool{size: fullBlock(cfg.BatchSize), max: 2 * cfg.HostBuffers, huge: !cfg.DriverPinned}}
}

// devBufs are the device buffers of one load, grown as batches need.
type devBufs struct {
	dev   *cuda.Device
	owner string
	bufs  map[string]*cuda.Buffer
}

// get returns the named buffer with at least n bytes.
func (d *devBufs) get(name string, n int64) (*cuda.Buffer, error) {
	n = max(n, 16)
	if b := d.bufs[name]; b != nil {
		if b.Size() >= n {
			return b, nil
		}
		_ = b.Free()
		delete(d.bufs, name)
	}
	b, err := d.dev.Alloc(d.owner, n+n/8)
	if err != nil {
		return nil, err
	}
	d.bufs[name] = b
	return b, nil
}

func (d *devBufs) free() {
	for _, b := range d.bufs {
		_ = b.Free()
	}
}

// gpuLoad is the state of one GPU Load call.
type gpuLoad struct {
	g   *GPU
	k   *gpuKernels
	dev *cuda.Device
	ld  *load // the CPU loader's state: options, columns, header, slow path
	req *engine.LoadRequest
	db  *devBufs

	// streams[0] runs every kernel and small copy of the load, in order;
	// streams[1] copies the batches in, overlapping the parse.
	streams [2]*cuda.Stream
	out     []outCol // the table being written (gpu_out.go)
	nRows   int64    // rows stored in out
	capRows int64    // rows out has room for
	widths  []int    // per column: widest stored string so far
	nulls   []bool
	// Streaming position.
	lineBase, recBase, bytesDone int64
	nul                          []byte
	scratch                      []byte
	prof                         *stageProf // nil: no stage timing
	plansCopied                  bool       // the column plans and NULL string are on the device
}

// Load reads req.Source as CSV into a new *gpu.Table.
func (g *GPU) Load(ctx context.Context, req *engine.LoadRequest) (*engine.LoadResult, error) {
	if req.Options.Format == engine.FormatText || hostParsed(req.Columns) {
		// PostgreSQL's text format, and timestamptz, time and timestamp(p)
		// values, have no GPU parser yet: the CPU loader reads them and
		// the table is uploaded.
		res, err := NewCPU(Config{}).Load(ctx, req)
		if err != nil {
			return nil, err
		}
		names := make([]string, len(req.Columns))
		for i, c := range req.Columns {
			names[i] = c.Name
		}
		t, err := gpu.UploadNamed(g.dev, res.Data.(*engine.HostTable), req.Table, names)
		if err != nil {
			return nil, err
		}
		res.Data = t
		if req.Options.Format == engine.FormatText {
			res.Notes = append(res.Notes, "FORMAT text is parsed on the CPU and the table copied to the GPU; FORMAT csv is parsed on the GPU")
		} else {
			res.Notes = append(res.Notes, "a table with timestamptz, time, timestamp(p) or numeric(p,s) columns of more than 18 digits is parsed on the CPU and copied to the GPU")
		}
		return res, nil
	}
	g.once.Do(func() { g.k, g.kerr = loadKernels(g.dev) })
	if g.kerr != nil {
		return nil, g.kerr
	}
	ld, err := newLoad(Config{Workers: 1}.withDefaults(), req)
	if err != nil {
		return nil, err
	}
	gl := &gpuLoad{g: g, k: g.k, dev: g.dev, ld: ld, req: req,
		db:     &devBufs{dev: g.dev, owner: req.Table, bufs: map[string]*cuda.Buffer{}},
		widths: make([]int, len(ld.cols)), nulls: make([]bool, len(ld.cols)), nul: []byte(req.Options.Null)}
	defer gl.db.free()
	for i := range gl.streams {
		if gl.streams[i], err = g.dev.NewStream(); err != nil {
			return nil, err
		}
		defer gl.streams[i].Close()
	}
	if err := guardFaults(func() error { return gl.run(ctx) }); err != nil {
		_ = gl.streams[0].Sync() // kernels may still use the buffers freed next
		gl.freeOut()
		return nil, err
	}
	t, err := gl.finish(gl.streams[0])
	if err != nil {
		return nil, err
	}
	return &engine.LoadResult{Data: t, Rows: t.N, Bytes: gl.bytesDone, Skipped: ld.skipped, SkippedCount: ld.nSkipped}, nil
}

// pending is a batch whose bytes are on their way to the device.
type pending struct {
	slot   int
	hv     []byte // the batch on the host
	base   *cuda.Buffer
	lo, hi int64 // the batch in base
	eof    bool
	blk    *hostBlock // pread mode: the buffer holding hv
}

// feeder produces batches: orphan + next raw block, on the device. Its
// copies go on streams[1]; run waits for a batch's copy before parsing it.
type feeder struct {
	gl    *gpuLoad
	block int
	// pread mode
	rd     *blockReader
	blocks []*hostBlock
	// mmap mode
	m       *mapping
	readEnd int64
}

func (gl *gpuLoad) newFeeder() (*feeder, error) {
	cfg := gl.g.cfg
	f := &feeder{gl: gl, block: cfg.BatchSize}
	if gl.req.Size >= 0 && gl.req.Size+1 < int64(f.block) {
		f.block = int(gl.req.Size) + 1
	}
	if cfg.Read == ReadMmap {
		if m, ok := mapSource(gl.dev, gl.req); ok {
			f.m = m
			return f, nil
		}
	}
	pre := fullBlock(f.block) - f.block
	n := cfg.HostBuffers
	if gl.req.Size >= 0 {
		// no more buffers than the input has blocks, but two to stream
		n = int(min(int64(n), max(2, (gl.req.Size+int64(f.block)-1)/int64(f.block))))
	}
	for range n {
		hb, err := gl.g.pinned.get(gl.dev, pre+f.block)
		if err != nil {
			f.close()
			return nil, err
		}
		f.blocks = append(f.blocks, &hostBlock{hb: hb, pre: pre})
	}
	f.rd = newBlockReader(gl.req, f.block, cfg.Readers, n)
	for _, b := range f.blocks {
		f.rd.free <- b
	}
	return f, nil
}

func (f *feeder) close() {
	if f.rd != nil {
		f.rd.stop()
	}
	for _, b := range f.blocks {
		if b != nil {
			f.gl.g.pinned.put(b.hb)
		}
	}
	if f.m != nil {
		f.m.close()
	}
}

// release gives a batch's host buffer back to the reader.
func (f *feeder) release(p *pending) {
	if p.blk != nil && !p.eof {
		f.rd.free <- p.blk
	}
}

// next prepares the next batch in slot, with orphan in front, and starts
// its copy to the device on the slot's stream.
func (f *feeder) next(slot int, orphan []byte) (*pending, error) {
	gl := f.gl
	o := len(orphan)
	p := &pending{slot: slot}
	var src []byte
	if f.m != nil {
		end := min(f.readEnd+int64(f.block), int64(len(f.m.data)))
		begin := f.readEnd - int64(o)
		f.readEnd = end
		src = f.m.data[begin:end]
		p.hv, p.lo, p.eof = src, 0, end == int64(len(f.m.data))
	} else {
		b := <-f.rd.ready
		if b.err != nil {
			return nil, b.err
		}
		if o > b.pre { // a long record: grow the buffer's room for orphans
			nb, err := gl.g.pinned.get(gl.dev, o+f.block)
			if err != nil {
				return nil, err
			}
			copy(nb.b[o:], b.bytes()[b.pre:b.pre+b.n])
			gl.g.pinned.put(b.hb)
			b.hb, b.pre = nb, o
		}
		buf := b.bytes()
		copy(buf[b.pre-o:], orphan)
		src = buf[b.pre-o : b.pre+b.n]
		p.hv, p.lo, p.eof, p.blk = src, int64(b.pre-o), b.eof, b
	}
	if len(src) > maxBatch {
		return nil, engine.Errorf(engine.CodeProgramLimitExceeded, "CSV record longer than %d bytes", maxBatch/2)
	}
	p.hi = p.lo + int64(len(src))
	size := (p.hi+gpuChunk-1)/gpuChunk*gpuChunk + gpuChunk
	var err error
	if p.base, err = gl.db.get([]string{"in0", "in1"}[slot], size); err != nil {
		return nil, err
	}
	if err := gl.dev.CopyHtoD(p.base.Ptr()+cuda.DevPtr(p.lo), src, gl.streams[1]); err != nil {
		return nil, err
	}
	return p, nil
}

// run streams the input through the stages, batch by batch.
func (gl *gpuLoad) run(ctx context.Context) error {
	f, err := gl.newFeeder()
	if err != nil {
		return err
	}
	defer f.close()
	cur, err := f.next(0, nil)
	if err != nil {
		return err
	}
	for {
		if err := ctx.Err(); err != nil {
			return canceled(err)
		}
		// Wait for the batch's copy. (The next copy, issued after index
		// below, overwrites the buffer of the batch before this one: the
		// kernels that read it were queued before index's first sync.)
		if err := gl.streams[1].Sync(); err != nil {
			return err
		}
		ix, err := gl.index(cur)
		if err != nil {
			return err
		}
		var nxt *pending
		if !cur.eof { // start the next batch's copy while this one is parsed
			if nxt, err = f.next(1-cur.slot, cur.hv[ix.consumed:]); err != nil {
				return err
			}
		}
		if ix.nrec > 0 {
			if err := gl.rows(cur, ix); err != nil {
				return err
			}
		}
		gl.lineBase += ix.lf - int64(bytes.Count(cur.hv[ix.consumed:], []byte{'\n'}))
		gl.recBase += int64(ix.nrec)
		gl.bytesDone += int64(ix.consumed)
		f.release(cur)
		if gl.req.Progress != nil {
			gl.req.Progress(gl.bytesDone)
		}
		if cur.eof {
			return nil
		}
		cur = nxt
	}
}

// indexed is the outcome of stages 1 to 3 for a batch.
type indexed struct {
	nch      int
	nrec     int   // records to load from this batch
	lastOpen int   // a last record without LF, or -1
	consumed int   // bytes of the batch those records take
	lf       int64 // LFs in the batch
	fns      *cuda.Buffer
	entries  *cuda.Buffer
	recStart *cuda.Buffer
}

// index runs stages 1 to 3 over a batch and decides which records it
// takes.
func (gl *gpuLoad) index(p *pending) (*indexed, error) {
	d := &gl.ld.d
	s := gl.streams[0]
	n := int(p.hi - p.lo)
	ix := &indexed{lastOpen: -1}
	ix.nch = int((p.hi+gpuChunk-1)/gpuChunk - p.lo/gpuChunk)
	fsm := int32(0)
	if d.fsm {
		fsm = 1
	}
	var err error
	if ix.fns, err = gl.db.get("fns", int64(ix.nch)*chunkFnSize); err != nil {
		return nil, err
	}
	grid := blocks(ix.nch, countWarps)
	bfns, err := gl.db.get("bfns", int64(grid)*chunkFnSize)
	if err != nil {
		return nil, err
	}
	ctxb, err := gl.db.get("ctx", int64(grid)*chunkCtxSize)
	if err != nil {
		return nil, err
	}
	tot, err := gl.db.get("totals", 16)
	if err != nil {
		return nil, err
	}
	q, dl, esc := uint32(d.quote), uint32(d.delim), uint32(d.esc)
	if n > 0 {
		if err := gl.dev.Launch(gl.k.count, cuda.Dim3{X: grid, Y: 1, Z: 1}, cuda.Dim3{X: 32 * countWarps, Y: 1, Z: 1}, 0, s,
			p.base.Ptr(), p.lo, p.hi, int32(ix.nch), fsm, q, dl, esc, ix.fns.Ptr(), bfns.Ptr()); err != nil {
			return nil, err
		}
		gl.prof.mark(s, "count")
		if err := gl.dev.Launch(gl.k.scan, cuda.Dim3{X: 1, Y: 1, Z: 1}, cuda.Dim3{X: 1024, Y: 1, Z: 1}, 0, s,
			bfns.Ptr(), int32(grid), ctxb.Ptr(), tot.Ptr()); err != nil {
			return nil, err
		}
	}
	totals := make([]uint32, 4)
	if n > 0 {
		if err := gl.dev.CopyDtoH(asBytes(totals), tot.Ptr(), s); err != nil {
			return nil, err
		}
		if err := s.Sync(); err != nil {
			return nil, err
		}
		gl.prof.mark(s, "scan+sync")
	}
	nrec, nterm := int(totals[0]), int(totals[1])
	ix.lf = int64(totals[3])
	if ix.entries, err = gl.db.get("entries", int64(nterm+1)*4); err != nil {
		return nil, err
	}
	if ix.recStart, err = gl.db.get("recStart", int64(nrec+2)*4); err != nil {
		return nil, err
	}
	if err := gl.dev.Memset8(ix.recStart.Ptr(), 0, 4, s); err != nil {
		return nil, err
	}
	if n > 0 {
		if err := gl.dev.Launch(gl.k.index, cuda.Dim3{X: grid, Y: 1, Z: 1}, cuda.Dim3{X: 32 * countWarps, Y: 1, Z: 1}, 0, s,
			p.base.Ptr(), p.lo, p.hi, int32(ix.nch), fsm, q, dl, esc, ix.fns.Ptr(), ctxb.Ptr(), ix.entries.Ptr(), ix.recStart.Ptr()); err != nil {
			return nil, err
		}
		gl.prof.mark(s, "index")
	}
	// The ends of the last records (to keep three bytes after the last
	// record taken, as the CPU loader does, and to find the orphan).
	var tail []int
	if nrec > 0 {
		k := min(nrec, 5)
		recs := make([]int32, k)
		for i := range recs {
			recs[i] = int32(nrec - k + i)
		}
		t32, err := gl.terms(s, ix, recs)
		if err != nil {
			return nil, err
		}
		for _, t := range t32 {
			tail = append(tail, int(t))
		}
	}
	last := 0
	if nrec > 0 {
		last = tail[len(tail)-1] + 1
	}
	if p.eof && last < n { // a last record without a final newline
		ent := []uint32{uint32(n) | flagRec | flagQ}
		rs := []uint32{uint32(nterm + 1)}
		if err := gl.dev.CopyHtoD(ix.entries.Ptr()+cuda.DevPtr(4*nterm), asBytes(ent), s); err != nil {
			return nil, err
		}
		if err := gl.dev.CopyHtoD(ix.recStart.Ptr()+cuda.DevPtr(4*(nrec+1)), asBytes(rs), s); err != nil {
			return nil, err
		}
		ix.lastOpen = nrec
		nrec++
		ix.consumed = n
	} else if p.eof {
		ix.consumed = n
	} else {
		// Keep three bytes after the last record taken, so that an error
		// message can show a UTF-8 sequence that runs past its newline.
		for nrec > 0 && len(tail) > 0 && n-tail[len(tail)-1] <= 3 {
			nrec--
			tail = tail[:len(tail)-1]
		}
		if nrec > 0 && len(tail) == 0 { // more than five tiny records: ask again
			t32, err := gl.terms(s, ix, []int32{int32(nrec - 1)})
			if err != nil {
				return nil, err
			}
			tail = []int{int(t32[0])}
			for nrec > 0 && n-tail[0] <= 3 {
				nrec--
				if nrec == 0 {
					break
				}
				if t32, err = gl.terms(s, ix, []int32{int32(nrec - 1)}); err != nil {
					return nil, err
				}
				tail[0] = int(t32[0])
			}
		}
		ix.consumed = 0
		if nrec > 0 {
			ix.consumed = tail[len(tail)-1] + 1
		}
	}
	ix.nrec = nrec
	if !p.eof && nrec == 0 {
		ix.consumed = 0 // no complete record: the whole batch is the orphan
	}
	gl.prof.mark(s, "terms+sync")
	return ix, nil
}

// terms returns the terminator positions of records recs.
func (gl *gpuLoad) terms(s *cuda.Stream, ix *indexed, recs []int32) ([]int32, error) {
	in, err := gl.db.get("termsIn", int64(len(recs))*4)
	if err != nil {
		return nil, err
	}
	out, err := gl.db.get("termsOut", int64(len(recs))*4)
	if err != nil {
		return nil, err
	}
	if err := gl.dev.CopyHtoD(in.Ptr(), asBytes(recs), s); err != nil {
		return nil, err
	}
	if err := gl.dev.Launch(gl.k.terms, cuda.Dim3{X: blocks(len(recs), 256), Y: 1, Z: 1}, cuda.Dim3{X: 256, Y: 1, Z: 1}, 0, s,
		ix.entries.Ptr(), ix.recStart.Ptr(), in.Ptr(), int32(len(recs)), out.Ptr()); err != nil {
		return nil, err
	}
	res := make([]int32, len(recs))
	if err := gl.dev.CopyDtoH(asBytes(res), out.Ptr(), s); err != nil {
		return nil, err
	}
	return res, s.Sync()
}

// recheck is the host's verdict on one row the GPU could not prove good.
type recheck struct {
	r      int
	bad    bool
	vals   []*engine.Column // one row, when good
	rowErr *engine.Error
	le     engine.LoadError
}

// hostRow re-reads record r of the batch (bytes [start, term] of hv) with
// the CPU loader's stages 1 to 6, as a batch of one record. It also adds
// the row's stage-4 string widths and NULL flags, which the CPU loader
// counts even for rows that fail later.
func (gl *gpuLoad) hostRow(hv []byte, r, start, term int, open bool, lfBefore int64) (*recheck, error) {
	ld := gl.ld
	var data []byte
	if open {
		data = hv[start:]
	} else {
		data = hv[start:min(term+4, len(hv))]
	}
	mb := &batch{}
	ld.cfg.ChunkSize = max(len(data), 1)
	saved := ld.cfg
	defer func() { ld.cfg = saved }()
	mb.data = data
	if err := ld.indexBatch(context.Background(), mb, open); err != nil {
		return nil, err
	}
	rc := &recheck{r: r}
	blk := rowBlockState{r0: 0, r1: 1, maxW: make([]int, len(ld.cols)), nulls: make([]bool, len(ld.cols))}
	ld.validateBlock(mb, &blk, &gl.scratch)
	for c := range ld.cols {
		gl.widths[c] = max(gl.widths[c], blk.maxW[c])
		gl.nulls[c] = gl.nulls[c] || blk.nulls[c]
	}
	if len(blk.bad) == 0 {
		out := newOutput(ld.cols)
		for c := range ld.cols {
			growColumn(out[c], 1, blk.maxW[c], blk.nulls[c])
		}
		blk.outBase = 0
		saved := ld.out
		ld.out = out
		ld.convertBlock(mb, &blk, &gl.scratch)
		ld.out = saved
		if len(blk.fail) == 0 {
			rc.vals = out
			return rc, nil
		}
	}
	rc.bad = true
	ld.lineBase = gl.lineBase + lfBefore
	ld.recBase = gl.recBase + int64(r)
	rc.rowErr, rc.le = ld.rowError(mb, &lineCounter{}, 0)
	return rc, nil
}

// rows runs the header handling and stages 4 to 6 over an indexed batch.
func (gl *gpuLoad) rows(p *pending, ix *indexed) error {
	ld := gl.ld
	s := gl.streams[0]
	first := 0
	if gl.recBase == 0 {
		t, err := gl.terms(s, ix, []int32{0})
		if err != nil {
			return err
		}
		term0 := int(t[0])
		ld.interior0 = int64(bytes.Count(p.hv[:term0], []byte{'\n'}))
		if ld.req.Options.Header != engine.HeaderNone {
			open := ix.lastOpen == 0
			data := p.hv[:min(term0+4, len(p.hv))]
			if open {
				data = p.hv
			}
			mb := &batch{data: data}
			saved := ld.cfg
			ld.cfg.ChunkSize = max(len(data), 1)
			err := ld.indexBatch(context.Background(), mb, open)
			ld.cfg = saved
			if err != nil {
				return err
			}
			ld.recBase = 0
			if err := ld.readHeader(mb); err != nil {
				return err
			}
			first = 1
		}
	}
	nrows := ix.nrec - first
	if nrows <= 0 {
		return nil
	}
	// Stages 4 and 6: validate and convert, into the table after the
	// rows already there, at the widths known so far.
	ncols := len(ld.cols)
	colsb, err := gl.db.get("cols", int64(ncols)*32)
	if err != nil {
		return err
	}
	nulb, err := gl.db.get("nul", int64(len(gl.nul)))
	if err != nil {
		return err
	}
	if !gl.plansCopied {
		if err := gl.dev.CopyHtoD(colsb.Ptr(), asBytes(colPlans(ld.cols)), s); err != nil {
			return err
		}
		if err := gl.dev.CopyHtoD(nulb.Ptr(), gl.nul, s); err != nil {
			return err
		}
		gl.plansCopied = true
	}
	status, err := gl.db.get("status", int64(ix.nrec))
	if err != nil {
		return err
	}
	list, err := gl.db.get("list", int64(ix.nrec)*4)
	if err != nil {
		return err
	}
	red, err := gl.db.get("reduce", int64(4+8*ncols))
	if err != nil {
		return err
	}
	if err := gl.dev.Memset8(red.Ptr(), 0, int64(4+8*ncols), s); err != nil {
		return err
	}
	fsm := int32(0)
	if ld.d.fsm {
		fsm = 1
	}
	P := &rowParams{Data: uint64(p.base.Ptr()) + uint64(p.lo), Base: uint64(p.base.Ptr()), Entries: uint64(ix.entries.Ptr()),
		RecStart: uint64(ix.recStart.Ptr()), Fns: uint64(ix.fns.Ptr()), Cols: uint64(colsb.Ptr()), Nul: uint64(nulb.Ptr()),
		Lo: p.lo, First: int32(first), Nrec: int32(ix.nrec), LastOpen: int32(ix.lastOpen), Ncols: int32(ncols),
		NFields: int32(ld.nFields), NulLen: int32(len(gl.nul)), Fsm: fsm, Quote: uint32(ld.d.quote), Esc: uint32(ld.d.esc)}
	if err := gl.reserve(s, int64(nrows), int64(ix.consumed)); err != nil {
		return err
	}
	rowBase := gl.nRows
	was := make([]outCol, ncols) // the columns as csv_validate writes them
	copy(was, gl.out)
	outb, err := gl.outs(s)
	if err != nil {
		return err
	}
	grid := cuda.Dim3{X: blocks(nrows, rowsPerBlock), Y: 1, Z: 1}
	if err := gl.dev.Launch(gl.k.validate, grid, cuda.Dim3{X: rowsPerBlock, Y: 1, Z: 1}, 0, s,
		P, status.Ptr(), list.Ptr(), red.Ptr(), red.Ptr()+4, red.Ptr()+cuda.DevPtr(4+4*ncols), outb.Ptr(), rowBase); err != nil {
		return err
	}
	redh := make([]uint32, 1+2*ncols)
	if err := gl.dev.CopyDtoH(asBytes(redh), red.Ptr(), s); err != nil {
		return err
	}
	if err := s.Sync(); err != nil {
		return err
	}
	gl.prof.mark(s, "validate+sync")
	for c := 0; c < ncols; c++ {
		gl.widths[c] = max(gl.widths[c], int(redh[1+c]))
		gl.nulls[c] = gl.nulls[c] || redh[1+ncols+c] != 0
	}
	// Stage 5: the host's verdict on the rows the GPU listed.
	var checks []*recheck
	var bad []uint32
	if nu := int(redh[0]); nu > 0 {
		rows := make([]int32, nu)
		if err := gl.dev.CopyDtoH(asBytes(rows), list.Ptr(), s); err != nil {
			return err
		}
		sort.Slice(rows, func(i, j int) bool { return rows[i] < rows[j] })
		q := make([]int32, 0, 2*nu)
		for _, r := range rows {
			q = append(q, r-1, r)
		}
		t, err := gl.terms(s, ix, q)
		if err != nil {
			return err
		}
		lc := 0
		var lfs int64
		for i, r := range rows {
			start := int(t[2*i]) + 1
			if r == 0 {
				start = 0
			}
			lfs += int64(bytes.Count(p.hv[lc:start], []byte{'\n'}))
			lc = start
			rc, err := gl.hostRow(p.hv, int(r), start, int(t[2*i+1]), int(r) == ix.lastOpen, lfs)
			if err != nil {
				return err
			}
			if rc.bad {
				if ld.req.Options.OnError == engine.OnErrorStop {
					return rc.rowErr
				}
				ld.nSkipped++
				if len(ld.skipped) < maxSkipped {
					ld.skipped = append(ld.skipped, rc.le)
				}
				bad = append(bad, uint32(r))
				continue
			}
			checks = append(checks, rc)
		}
	}
	gl.prof.mark(s, "recheck")
	// Stage 6 again for the columns csv_validate could not write right.
	add := int64(nrows - len(bad))
	if err := gl.reserve(s, int64(nrows), int64(ix.consumed)); err != nil {
		return err
	}
	var redo []int32
	for c := range gl.out {
		o, w := &gl.out[c], &was[c]
		if len(bad) > 0 || o.width != w.width || (o.valid != nil && w.valid == nil) {
			redo = append(redo, int32(c))
		}
		if len(bad) > 0 && o.valid != nil && w.valid != nil {
			// Bits were cleared at rows before bad ones were taken out.
			if err := gl.dev.Launch(gl.k.bitsCopy, cuda.Dim3{X: blocks(int((rowBase+int64(nrows)+63)/64-rowBase/64), 256), Y: 1, Z: 1},
				cuda.Dim3{X: 256, Y: 1, Z: 1}, 0, s, o.valid.Ptr(), rowBase, cuda.DevPtr(0), int64(nrows)); err != nil {
				return err
			}
		}
	}
	gl.nRows += add
	gl.prof.mark(s, "redo-prep")
	if add == 0 {
		return nil
	}
	if len(redo) > 0 {
		if outb, err = gl.outs(s); err != nil {
			return err
		}
		badb, err := gl.db.get("bad", int64(len(bad))*4)
		if err != nil {
			return err
		}
		if err := gl.dev.CopyHtoD(badb.Ptr(), asBytes(bad), s); err != nil {
			return err
		}
		redob, err := gl.db.get("redo", int64(len(redo))*4)
		if err != nil {
			return err
		}
		if err := gl.dev.CopyHtoD(redob.Ptr(), asBytes(redo), s); err != nil {
			return err
		}
		if err := gl.dev.Launch(gl.k.convert, grid, cuda.Dim3{X: rowsPerBlock, Y: 1, Z: 1}, 0, s,
			P, status.Ptr(), badb.Ptr(), int32(len(bad)), outb.Ptr(), rowBase, redob.Ptr(), int32(len(redo))); err != nil {
			return err
		}
		gl.prof.mark(s, "convert")
	}
	if len(checks) > 0 {
		if err := gl.patch(s, checks, bad, first, rowBase); err != nil {
			return err
		}
		gl.prof.mark(s, "patch")
	}
	return nil
}

// outs copies the output columns' ColOut views to the device.
func (gl *gpuLoad) outs(s *cuda.Stream) (*cuda.Buffer, error) {
	outs := make([]gpuColOut, len(gl.out))
	for c, o := range gl.out {
		outs[c].Width = int32(o.width)
		if o.data != nil {
			outs[c].Data = uint64(o.data.Ptr())
		}
		if o.valid != nil {
			outs[c].Valid = uint64(o.valid.Ptr())
		}
	}
	// (Copies on the stream run after the kernels queued before them, so
	// one buffer serves every batch.)
	b, err := gl.db.get("outs", int64(len(outs))*24)
	if err != nil {
		return nil, err
	}
	return b, gl.dev.CopyHtoD(b.Ptr(), asBytes(outs), s)
}

// patch writes the host-converted rows into the batch's output.
func (gl *gpuLoad) patch(s *cuda.Stream, checks []*recheck, bad []uint32, first int, rowBase int64) error {
	rows := make([]uint32, len(checks))
	for i, rc := range checks {
		nb := sort.Search(len(bad), func(k int) bool { return int(bad[k]) >= rc.r })
		rows[i] = uint32(rc.r - first - nb)
	}
	rowsb, err := gl.db.get("patchRows", int64(len(rows))*4)
	if err != nil {
		return err
	}
	if err := gl.dev.CopyHtoD(rowsb.Ptr(), asBytes(rows), s); err != nil {
		return err
	}
	for c := range gl.out {
		o := &gl.out[c]
		w := o.width
		var nullRows []uint32
		vals := make([]byte, len(checks)*w)
		for i, rc := range checks {
			hc := rc.vals[c]
			if hc.IsNull(0) {
				nullRows = append(nullRows, rows[i])
			}
			var b []byte
			switch {
			case hc.B != nil:
				b = hc.B
			case hc.I16 != nil:
				b = asBytes(hc.I16)
			case hc.I32 != nil:
				b = asBytes(hc.I32)
			case hc.I64 != nil:
				b = asBytes(hc.I64)
			case hc.F32 != nil:
				b = asBytes(hc.F32)
			case hc.F64 != nil:
				b = asBytes(hc.F64)
			default:
				b = hc.StrAt(0)
			}
			copy(vals[i*w:(i+1)*w], b)
		}
		if w > 0 {
			vb, err := gl.db.get("patchVals", int64(len(vals)))
			if err != nil {
				return err
			}
			if err := gl.dev.CopyHtoD(vb.Ptr(), vals, s); err != nil {
				return err
			}
			if err := gl.dev.Launch(gl.k.patch, cuda.Dim3{X: blocks(len(rows), 256), Y: 1, Z: 1}, cuda.Dim3{X: 256, Y: 1, Z: 1}, 0, s,
				o.data.Ptr(), int32(w), rowsb.Ptr(), rowBase, vb.Ptr(), int32(len(rows))); err != nil {
				return err
			}
			// The buffers are reused by the next column: wait.
			if err := s.Sync(); err != nil {
				return err
			}
		}
		if len(nullRows) > 0 {
			nb, err := gl.db.get("patchNulls", int64(len(nullRows))*4)
			if err != nil {
				return err
			}
			if err := gl.dev.CopyHtoD(nb.Ptr(), asBytes(nullRows), s); err != nil {
				return err
			}
			if err := gl.dev.Launch(gl.k.clearBits, cuda.Dim3{X: blocks(len(nullRows), 256), Y: 1, Z: 1}, cuda.Dim3{X: 256, Y: 1, Z: 1}, 0, s,
				o.valid.Ptr(), nb.Ptr(), rowBase, int32(len(nullRows))); err != nil {
				return err
			}
			if err := s.Sync(); err != nil {
				return err
			}
		}
	}
	return nil
}

// hostParsed reports whether a table has columns that only the CPU
// loader parses: timestamp with time zone, time, timestamps with a
// precision (csv.cu's parser knows plain timestamps) and numerics past
// 18 digits (csv.cu's parser writes int64s).
func hostParsed(cols []engine.ColumnDef) bool {
	for _, c := range cols {
		switch c.Type.Kind {
		case engine.KindTimestampTZ, engine.KindTime:
			return true
		case engine.KindNumeric:
			// numeric(p,s), p > 18: the CPU loader reads it as Dec
			// values, stored on the device as int64s where they fit
			if c.Type.WideNumeric() || c.Type.Prec == 0 {
				return true // and unconstrained ones, each value at its own scale
			}
		case engine.KindTimestamp:
			if _, ok := c.Type.TimePrec(); ok {
				return true
			}
		}
	}
	return false
}
