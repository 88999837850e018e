package loader

import (
	"bytes"
	"context"
	"errors"
	"io"
	"sort"

	"github.com/gpusql/gpusql/engine"
)

// load is the state of one Load call.
type load struct {
	cfg     Config
	req     *engine.LoadRequest
	d       dialect
	p       patterns
	cols    []colPlan
	nFields int      // fields every data record must have
	header  []string // names of the file's fields
	out     []*engine.Column
	rows    int
	// Streaming position.
	lineBase  int64 // LFs before the batch
	recBase   int64 // records before the batch
	interior0 int64 // LFs inside the file's first record (see lineOf)
	bytesDone int64
	blocks    []rowBlockState
	scratch   [][]byte // per worker
	markers   []int32  // text format: corrupt end markers in the batch
	skipped   []engine.LoadError
	nSkipped  int64
}

// Load reads req.Source as CSV into a new engine.HostTable.
func (l *CPU) Load(ctx context.Context, req *engine.LoadRequest) (*engine.LoadResult, error) {
	ld, err := newLoad(l.cfg, req)
	if err != nil {
		return nil, err
	}
	if err := ld.run(ctx); err != nil {
		return nil, err
	}
	return &engine.LoadResult{
		Data:         engine.NewHostTable(ld.out, int64(ld.rows)),
		Rows:         int64(ld.rows),
		Bytes:        ld.bytesDone,
		Skipped:      ld.skipped,
		SkippedCount: ld.nSkipped,
	}, nil
}

// Concat appends host tables (COPY into a loaded table).
func (l *CPU) Concat(_ string, a, b engine.TableData) (engine.TableData, error) {
	return engine.ConcatHostData(a, b)
}

func newLoad(cfg Config, req *engine.LoadRequest) (*load, error) {
	o := req.Options
	d := dialect{delim: o.Delimiter, quote: o.Quote, esc: o.Escape, null: []byte(o.Null)}
	if d.delim == 0 {
		d.delim = ','
	}
	if d.quote == 0 {
		d.quote = '"'
	}
	if d.esc == 0 {
		d.esc = d.quote
	}
	d.fsm = d.esc != d.quote
	if o.Format == engine.FormatText {
		d = dialect{delim: o.Delimiter, quote: '\\', esc: '\\', null: []byte(o.Null), text: true}
		if d.delim == 0 {
			d.delim = '\t'
		}
	}
	switch {
	case d.text && (d.delim == '\\' || d.delim == '\n' || d.delim == '\r'):
		return nil, engine.Errorf(engine.CodeInvalidParameterValue, "COPY delimiter cannot be %q", string(d.delim))
	case d.text:
	case d.delim == d.quote:
		return nil, engine.Errorf(engine.CodeInvalidParameterValue, "CSV delimiter and quote must be different")
	case d.delim == '\n' || d.delim == '\r' || d.quote == '\n' || d.quote == '\r' || d.esc == '\n' || d.esc == '\r':
		return nil, engine.Errorf(engine.CodeInvalidParameterValue, "COPY delimiter, quote and escape cannot be newline or carriage return")
	case len(req.Columns) == 0:
		return nil, engine.Errorf(engine.CodeInvalidTableDefinition, "table %q has no columns", req.Table)
	}
	maxW := o.MaxTextWidth
	if maxW <= 0 {
		maxW = engine.DefaultCSVOptions().MaxTextWidth
	}
	ld := &load{cfg: cfg, req: req, d: d, p: newPatterns(&d)}
	ld.cols = make([]colPlan, len(req.Columns))
	ld.header = make([]string, len(req.Columns))
	for i, c := range req.Columns {
		ld.cols[i] = colPlan{def: c, field: i, kind: c.Type.Kind, isStr: c.Type.IsString(), maxBytes: maxW, zone: zoneOr(req.Options.Zone)}
		ld.header[i] = c.Name
	}
	ld.nFields = len(req.Columns)
	ld.out = newOutput(ld.cols)
	ld.scratch = make([][]byte, cfg.Workers)
	return ld, nil
}

// canceled wraps a context error as PostgreSQL's 57014.
func canceled(err error) error {
	return &engine.Error{Code: engine.CodeQueryCanceled, Message: "canceling statement due to user request", Err: err}
}

// readFull fills buf from r, returning the bytes read and whether the
// input ended.
func readFull(r io.Reader, buf []byte) (int, bool, error) {
	n, err := io.ReadFull(r, buf)
	// A source that already says what went wrong in SQL terms (a
	// cancelled COPY FROM STDIN, a CopyFail, a connection lost in the
	// middle of the data) keeps its SQLSTATE, whatever it wraps: only a
	// bare end of input ends the input.
	var pe *engine.Error
	switch {
	case err == nil:
		return n, false, nil
	case errors.As(err, &pe):
		return n, false, pe
	case err == io.EOF, err == io.ErrUnexpectedEOF:
		return n, true, nil
	}
	return n, false, &engine.Error{Code: engine.CodeIOError, Message: "could not read CSV input: " + err.Error(), Err: err}
}

// run streams the input through the stages, batch by batch.
func (ld *load) run(ctx context.Context) error {
	size := ld.cfg.BatchSize
	if ld.req.Size >= 0 && ld.req.Size+1 < int64(size) {
		size = int(ld.req.Size) + 1
	}
	buf := make([]byte, size)
	b := &batch{}
	carry := 0
	for {
		if err := ctx.Err(); err != nil {
			return canceled(err)
		}
		n, eof, err := readFull(ld.req.Source, buf[carry:])
		if err != nil {
			return err
		}
		b.data = buf[:carry+n]
		b.text = ld.d.text
		if b.text { // the end-of-data marker ends the input early
			var end int
			end, ld.markers = endMarkers(b.data, eof, ld.markers[:0])
			if end >= 0 {
				b.data, eof = b.data[:end], true
			}
		}
		if err := ld.indexBatch(ctx, b, eof); err != nil {
			return err
		}
		// Keep three bytes after the last record taken, so that an error
		// message can show a UTF-8 sequence that runs past its newline.
		for !eof && b.nrec > 0 && len(b.data)-b.recTerm(b.nrec-1) <= 3 {
			b.nrec--
		}
		if b.nrec == 0 && !eof { // no complete record: grow the batch
			if len(buf) >= maxBatch {
				return engine.Errorf(engine.CodeProgramLimitExceeded, "CSV record longer than %d bytes", maxBatch/2)
			}
			nb := make([]byte, min(2*len(buf), maxBatch))
			carry = copy(nb, b.data)
			buf = nb
			continue
		}
		consumed := len(b.data)
		if !eof {
			consumed = b.recTerm(b.nrec-1) + 1
		}
		if err := ld.loadBatch(ctx, b); err != nil {
			return err
		}
		for i := range b.chunks {
			ld.lineBase += int64(b.chunks[i].lfAll)
		}
		ld.lineBase -= int64(bytes.Count(b.data[consumed:], []byte{'\n'}))
		ld.recBase += int64(b.nrec)
		ld.bytesDone += int64(consumed)
		if ld.req.Progress != nil {
			ld.req.Progress(ld.bytesDone)
		}
		if eof {
			return nil
		}
		carry = copy(buf, b.data[consumed:])
	}
}

// indexBatch runs stages 1 to 3 over b.data.
func (ld *load) indexBatch(ctx context.Context, b *batch, eof bool) error {
	data := b.data
	cs := ld.cfg.ChunkSize
	nch := (len(data) + cs - 1) / cs
	if cap(b.chunks) < nch {
		b.chunks = append(b.chunks[:cap(b.chunks)], make([]chunk, nch-cap(b.chunks))...)
	}
	b.chunks = b.chunks[:nch]
	for i := range b.chunks {
		b.chunks[i].start = i * cs
		b.chunks[i].end = min((i+1)*cs, len(data))
	}
	// Stage 1: count.
	parallelFor(ld.cfg.Workers, nch, func(_, i int) { countChunk(data, &b.chunks[i], &ld.d, &ld.p) })
	if err := ctx.Err(); err != nil {
		return canceled(err)
	}
	// Stage 2: scan.
	nrec, nterm, endState := scanChunks(b.chunks)
	// Room for a last record without a terminator.
	if cap(b.entries) < nterm+1 {
		b.entries = make([]uint32, nterm+1, (nterm+1)*5/4)
	}
	b.entries = b.entries[:nterm+1]
	if cap(b.recStart) < nrec+2 {
		b.recStart = make([]uint32, nrec+2, (nrec+2)*5/4)
	}
	b.recStart = b.recStart[:nrec+2]
	b.recStart[0] = 0
	// Stage 3: index.
	parallelFor(ld.cfg.Workers, nch, func(_, i int) {
		indexChunk(data, &b.chunks[i], &ld.d, &ld.p, b.entries, b.recStart)
	})
	if err := ctx.Err(); err != nil {
		return canceled(err)
	}
	b.nrec = nrec
	b.unterminated = -1
	last := 0
	if nrec > 0 {
		last = b.recTerm(nrec-1) + 1
	}
	if eof && last < len(data) { // a last record without a final newline
		b.entries[nterm] = uint32(len(data)) | flagRec | flagQ
		b.recStart[nrec+1] = uint32(nterm + 1)
		b.nrec++
		if endState != stOut && !ld.d.text { // text: a backslash at the end is dropped
			b.unterminated = nrec
		}
	}
	b.anomaly = b.anomaly[:0]
	for i := range b.chunks {
		b.anomaly = mergeSorted(b.anomaly, b.chunks[i].badUTF8, b.chunks[i].badCR)
	}
	if len(ld.markers) > 0 {
		b.anomaly = mergeSorted(nil, b.anomaly, ld.markers)
	}
	return nil
}

// mergeSorted appends the merge of two sorted lists to dst.
func mergeSorted(dst, a, b []int32) []int32 {
	for len(a) > 0 && len(b) > 0 {
		if a[0] <= b[0] {
			dst, a = append(dst, a[0]), a[1:]
		} else {
			dst, b = append(dst, b[0]), b[1:]
		}
	}
	return append(append(dst, a...), b...)
}

// loadBatch runs the header handling and stages 4 to 6 over the complete
// records of an indexed batch.
func (ld *load) loadBatch(ctx context.Context, b *batch) error {
	first := 0
	if ld.recBase == 0 && b.nrec > 0 {
		s, _ := b.recBounds(0)
		ld.interior0 = int64(bytes.Count(b.data[s:b.recTerm(0)], []byte{'\n'}))
		if ld.req.Options.Header != engine.HeaderNone {
			if err := ld.readHeader(b); err != nil {
				return err
			}
			first = 1
		}
	}
	// Stage 4: validate, in blocks.
	nblk := (b.nrec - first + rowBlock - 1) / rowBlock
	for len(ld.blocks) < nblk {
		ld.blocks = append(ld.blocks, rowBlockState{maxW: make([]int, len(ld.cols)), nulls: make([]bool, len(ld.cols))})
	}
	blocks := ld.blocks[:nblk]
	for i := range blocks {
		blocks[i].r0 = first + i*rowBlock
		blocks[i].r1 = min(first+(i+1)*rowBlock, b.nrec)
	}
	parallelFor(ld.cfg.Workers, nblk, func(w, i int) { ld.validateBlock(b, &blocks[i], &ld.scratch[w]) })
	if err := ctx.Err(); err != nil {
		return canceled(err)
	}
	// With ON_ERROR stop, the first row rejected here fails the load
	// unless a row before it has a value that does not convert: convert
	// only the rows before it, then decide.
	stopAt := -1
	if ld.req.Options.OnError == engine.OnErrorStop {
		for i := range blocks {
			if len(blocks[i].bad) > 0 {
				stopAt = int(blocks[i].bad[0])
				blocks[i].r1 = stopAt
				blocks[i].bad = blocks[i].bad[:0]
				blocks[i].good = stopAt - blocks[i].r0
				blocks = blocks[:i+1]
				nblk = i + 1
				break
			}
		}
	}
	// Stage 5: compact.
	total := compact(blocks, ld.rows)
	for c := range ld.cols {
		w, nulls := 0, false
		for i := range blocks {
			w = max(w, blocks[i].maxW[c])
			nulls = nulls || blocks[i].nulls[c]
		}
		growColumn(ld.out[c], total, w, nulls)
	}
	// Stage 6: deserialise.
	parallelFor(ld.cfg.Workers, nblk, func(w, i int) { ld.convertBlock(b, &blocks[i], &ld.scratch[w]) })
	if err := ctx.Err(); err != nil {
		return canceled(err)
	}
	failed := false
	for i := range blocks {
		if len(blocks[i].fail) > 0 {
			failed = true
			sort.Slice(blocks[i].fail, func(x, y int) bool { return blocks[i].fail[x] < blocks[i].fail[y] })
			blocks[i].fail = dedup(blocks[i].fail)
		}
	}
	if failed && ld.req.Options.OnError == engine.OnErrorStop {
		return ld.firstError(b, blocks)
	}
	if stopAt >= 0 {
		e, _ := ld.rowError(b, &lineCounter{}, stopAt)
		return e
	}
	if failed { // drop the rows whose values did not convert
		var rows []int
		for i := range blocks {
			blk := &blocks[i]
			bi, fi, row := 0, 0, blk.outBase
			for r := blk.r0; r < blk.r1 && fi < len(blk.fail); r++ {
				if bi < len(blk.bad) && int(blk.bad[bi]) == r {
					bi++
					continue
				}
				if int(blk.fail[fi]) == r {
					rows = append(rows, row)
					fi++
				}
				row++
			}
		}
		total = removeRows(ld.out, rows, total)
	}
	ld.rows = total
	if ld.recBase == 0 && ld.req.Size > 0 && ld.rows > 0 { // estimate the table from the first batch
		consumed := int64(b.recTerm(b.nrec-1) + 1)
		if est := int64(float64(ld.rows) * float64(ld.req.Size) / float64(consumed) * 1.02); est > int64(ld.rows) && est < 1<<34 {
			parallelFor(ld.cfg.Workers, len(ld.out), func(_, c int) { reserve(ld.out[c], int(est)) })
		}
	}
	return ld.recordSkipped(b, blocks)
}

func dedup(s []int32) []int32 {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// badRows lists a block's rejected records from stages 4 and 6, sorted.
func badRows(blk *rowBlockState) []int32 {
	if len(blk.fail) == 0 {
		return blk.bad
	}
	return mergeSorted(nil, blk.bad, blk.fail)
}

// lineCounter maps batch offsets, visited in increasing order, to
// PostgreSQL's line numbers.
type lineCounter struct {
	pos   int
	lines int64
}

// lineOf is the line PostgreSQL reports for an error at batch offset off
// in record r: the line reached when the error is found. PostgreSQL counts
// newlines inside quoted fields except in the file's first record (it
// does not yet know the line ending there), so neither do we.
func (ld *load) lineOf(b *batch, lc *lineCounter, r int, off int) int64 {
	if ld.recBase+int64(r) == 0 {
		return 1
	}
	if ld.d.text { // one line per record: escaped newlines do not count
		return 1 + ld.recBase + int64(r)
	}
	off = min(off, len(b.data))
	if off > lc.pos {
		lc.lines += int64(bytes.Count(b.data[lc.pos:off], []byte{'\n'}))
		lc.pos = off
	}
	return 1 + ld.lineBase + lc.lines - ld.interior0
}

// rowError describes record r's error; it must be a rejected row.
func (ld *load) rowError(b *batch, lc *lineCounter, r int) (*engine.Error, engine.LoadError) {
	re := ld.checkRow(b, r)
	s, e := b.recBounds(r)
	if re == nil { // stages 4 and 6 disagree with the slow path: a bug
		re = &rowErr{err: engine.Errorf(engine.CodeInternalError, "CSV row rejected without a reason"), ctx: ctxRow, value: b.data[s:e], off: e}
	}
	return ld.describe(re, ld.lineOf(b, lc, r, re.off), b.data[s:e])
}

// firstError returns the error of the first rejected row in blocks.
func (ld *load) firstError(b *batch, blocks []rowBlockState) error {
	for i := range blocks {
		if rows := badRows(&blocks[i]); len(rows) > 0 {
			e, _ := ld.rowError(b, &lineCounter{}, int(rows[0]))
			return e
		}
	}
	return nil
}

// recordSkipped adds the batch's rejected rows to the skipped list.
func (ld *load) recordSkipped(b *batch, blocks []rowBlockState) error {
	lc := &lineCounter{}
	for i := range blocks {
		for _, r := range badRows(&blocks[i]) {
			ld.nSkipped++
			if len(ld.skipped) < maxSkipped {
				_, le := ld.rowError(b, lc, int(r))
				ld.skipped = append(ld.skipped, le)
			}
		}
	}
	return nil
}
