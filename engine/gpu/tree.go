package gpu

import (
	"context"
	"encoding/binary"
	"time"
	"unsafe"

	"github.com/gpusql/gpusql/cuda"
	"github.com/gpusql/gpusql/engine"
)

// Plan trees on the GPU. Every node's output is a device table: a join
// gathers its output columns by the pairs its kernels found (join.go); a
// pipeline that filters and projects runs the filter kernels, gathers the
// columns it passes through by the selection (or shares them, unfiltered)
// and packs the columns it computes from q_project's registers into
// column layout (j_pack); a pipeline that aggregates, sorts or limits
// runs as a query does and its (small) result is uploaded. Intermediate
// results stay on the device; only those aggregate results cross to the
// host and back.

// isHostLeaf reports whether p reads host data (rows the binder built, a
// system relation) that must first be uploaded.
func isHostLeaf(p *engine.Plan) bool {
	_, ok := p.Data.(*engine.HostTable)
	return ok
}

// input returns the table p reads, on the device: its Input node's
// output, or its host data uploaded. The caller releases it.
func (b *Backend) input(ctx context.Context, p *engine.Plan) (*Table, error) {
	if p.Input != nil {
		return b.materialize(ctx, p.Input)
	}
	return b.leafTable(p)
}

// leafTable is a leaf plan's table: its device data (shared), its host
// data uploaded, or no rows.
func (b *Backend) leafTable(p *engine.Plan) (*Table, error) {
	local, err := engine.LocalData(p.Data)
	if err != nil {
		return nil, err
	}
	switch d := local.(type) {
	case *Table:
		return d.view(), nil
	case *engine.HostTable:
		return Upload(b.dev, d, "")
	case nil:
		return b.emptyTable(p.Schema), nil
	}
	return nil, engine.Errorf(engine.CodeInternalError, "cuda backend cannot read %T table data", p.Data)
}

// emptyTable is a table of no rows with schema's columns (a table never
// loaded).
func (b *Backend) emptyTable(schema []engine.ColumnDef) *Table {
	t := &Table{Dev: b.dev, Cols: make([]*Column, len(schema))}
	for i, c := range schema {
		t.Cols[i] = &Column{Type: c.Type}
	}
	return t
}

// view is a table sharing t's columns: releasing it frees nothing of t's.
func (t *Table) view() *Table {
	v := &Table{N: t.N, Dev: t.Dev, Cols: make([]*Column, len(t.Cols))}
	for i, c := range t.Cols {
		v.Cols[i] = c.sharedCopy()
		v.Cols[i].origin = c.origin
		if c.origin == nil {
			v.Cols[i].origin = &colOrigin{t: t, col: i}
		}
	}
	return v
}

func (c *Column) sharedCopy() *Column {
	out := &Column{Type: c.Type, Data: c.Data, Width: c.Width, Valid: c.Valid, shared: true, rowScales: c.rowScales, scaleRows: c.scaleRows}
	out.aux.Store(c.caches())
	return out
}

// take returns c's buffers as a column of their own: the caller's table
// owns them from now on, and c (whose table may be released) only
// shares them. A column already shared stays shared.
func (c *Column) take() *Column {
	if c.shared {
		return c.sharedCopy()
	}
	out := &Column{Type: c.Type, Data: c.Data, Width: c.Width, Valid: c.Valid, rowScales: c.rowScales, scaleRows: c.scaleRows}
	out.aux.Store(c.caches())
	c.shared = true
	return out
}

// takeAll is a table of t's rows whose columns take over t's buffers.
func (t *Table) takeAll() *Table {
	out := &Table{N: t.N, Dev: t.Dev, Cols: make([]*Column, len(t.Cols))}
	for i, c := range t.Cols {
		out.Cols[i] = c.take()
	}
	return out
}

// materialize runs node r and returns its output as a device table,
// which the caller releases.
func (b *Backend) materialize(ctx context.Context, r engine.Rel) (*Table, error) {
	if ctx.Err() != nil {
		return nil, engine.Errorf(engine.CodeQueryCanceled, "canceling statement due to user request")
	}
	if err := b.kernels(); err != nil {
		return nil, err
	}
	start := time.Now()
	var t *Table
	var err error
	switch r := r.(type) {
	case *engine.Plan:
		t, err = b.materializePlan(ctx, r)
	case *engine.Join:
		t, err = b.join(ctx, r)
	case *engine.SetOp:
		t, err = b.setOp(ctx, r)
	case *engine.Window:
		t, err = b.window(ctx, r)
	case *engine.ProjectSet:
		t, err = b.projectSet(ctx, r)
	default:
		err = engine.Errorf(engine.CodeInternalError, "cuda backend cannot run %T", r)
	}
	if err != nil {
		return nil, err
	}
	if l := engine.OpLogOf(ctx); l != nil {
		if err := b.dev.Sync(); err != nil { // the node's device time, not its launches'
			t.Release()
			return nil, err
		}
		l.Record(r, t.N, time.Since(start))
	}
	return t, nil
}

// plainPipeline reports whether p only filters and projects.
func plainPipeline(p *engine.Plan) bool {
	return !p.Aggregate && !p.Distinct && len(p.OrderBy) == 0 && p.Limit < 0 && p.Offset == 0
}

// materializePlan runs a pipeline node.
func (b *Backend) materializePlan(ctx context.Context, p *engine.Plan) (*Table, error) {
	if p.Input == nil && p.Table == "" {
		return b.viaHost(ctx, p) // FROM-less: one row of constants
	}
	in, err := b.input(ctx, p)
	if err != nil {
		return nil, err
	}
	defer in.Release()
	if p.Aggregate && !p.Distinct && len(p.OrderBy) == 0 && p.Limit < 0 && p.Offset == 0 && deviceGroupable(p) {
		// a GROUP BY whose groups are finished on the device: HAVING and
		// the projection filter and project its table there
		t, err := b.groupsOnDevice(ctx, in, p)
		switch {
		case err == nil:
			defer t.Release()
			q := groupsPlan(p, t)
			s := &scratch{dev: b.dev}
			defer s.free()
			out, err := b.devicePipeline(ctx, s, t, q)
			if err == errHostPath {
				return b.viaHost(ctx, q)
			}
			return out, err
		case err != errHostAggregate && engine.Code(err) != engine.CodeFeatureNotSupported:
			return nil, err
		}
		// aggregates the kernels refuse: as a query, whose aggregation
		// then runs on the host (agg_host.go)
	}
	if !plainPipeline(p) {
		q := *p
		q.Input, q.Data, q.Schema, q.Table = nil, in, p.InputColumns(), "(input)"
		return b.viaHost(ctx, &q)
	}
	s := &scratch{dev: b.dev}
	defer s.free()
	out, err := b.devicePipeline(ctx, s, in, p)
	if err == errHostPath {
		q := *p
		q.Input, q.Data, q.Schema, q.Table = nil, in, p.InputColumns(), "(input)"
		return b.viaHost(ctx, &q)
	}
	return out, err
}

// errHostPath: a pipeline's outputs cannot be packed on the device (a
// numeric whose scale varies by row); it runs as a query and its result
// is uploaded.
var errHostPath = engine.Errorf(engine.CodeInternalError, "run on the host path")

// viaHost runs p as a query and uploads its result.
func (b *Backend) viaHost(ctx context.Context, p *engine.Plan) (*Table, error) {
	ts := make([]engine.Type, p.Visible)
	for k := range ts {
		ts[k] = p.Project[k].Type()
	}
	var batches []*engine.Batch
	err := b.Execute(ctx, p, func(bt *engine.Batch) error {
		batches = append(batches, copyBatch(bt))
		return nil
	})
	if err != nil {
		return nil, err
	}
	h, err := engine.HostFromBatches(ts, batches)
	if err != nil {
		return nil, err
	}
	return Upload(b.dev, h, "")
}

// copyBatch copies a batch that a sink may not keep.
func copyBatch(b *engine.Batch) *engine.Batch {
	out := &engine.Batch{N: b.N, Cols: make([]*engine.Vec, len(b.Cols))}
	for k, v := range b.Cols {
		c := engine.NewVec(v.T, 0)
		for i := 0; i < b.N; i++ {
			c.AppendRow(v, i)
		}
		out.Cols[k] = c
	}
	return out
}

// devicePipeline filters in by p's filter and builds p's outputs as
// device columns.
func (b *Backend) devicePipeline(ctx context.Context, s *scratch, in *Table, p *engine.Plan) (*Table, error) {
	r, err := b.newRun(s, in, in.N)
	if err != nil {
		return nil, err
	}
	q, err := r.hostSteps(ctx, p)
	if err != nil {
		return nil, err
	}
	if q, err = r.likeColumns(ctx, q); err != nil { // likecol.go
		return nil, err
	}
	var sel uint64
	n := in.N
	if q.Filter != nil && n > 0 {
		if sel, n, err = r.selection(q.Filter, -1); err != nil {
			return nil, err
		}
	}
	out := &Table{N: n, Dev: b.dev, Cols: make([]*Column, p.Visible)}
	fail := func(err error) (*Table, error) {
		out.Release()
		return nil, err
	}
	var computed, taken []int
	var exprs []engine.Expr
	for k, e := range q.Project[:p.Visible] {
		c, ok := e.(*engine.ColRef)
		if !ok {
			computed, exprs = append(computed, k), append(exprs, e)
			continue
		}
		if sel == 0 && n == in.N && c.Idx < len(in.Cols) {
			taken = append(taken, k)
			continue
		}
		if out.Cols[k], err = b.gatherColumn(r.t.Cols[c.Idx], sel, n, sel == 0); err != nil {
			return fail(err)
		}
		out.Cols[k].origin = r.t.Cols[c.Idx].origin
	}
	if len(exprs) > 0 {
		vals, hb, err := r.deviceOutputs(exprs, sel, n, nil)
		if err != nil {
			return fail(err)
		}
		for i, k := range computed {
			if out.Cols[k], err = b.pack(vals[i], hb[i], n); err != nil {
				return fail(err) // errHostPath: the caller reads in again
			}
		}
	}
	// Columns passed through take over the input's buffers last, once
	// nothing can fail: a failure above (errHostPath among them) leaves
	// in whole for the host path to read.
	for _, k := range taken {
		src := in.Cols[q.Project[k].(*engine.ColRef).Idx]
		out.Cols[k] = src.take() // the input is released after
		out.Cols[k].origin = src.origin
	}
	out.passStats(in, q.Project[:p.Visible])
	return out, nil
}

// passStats gives t, made of rows of in, the statistics in already holds
// for the columns t takes from it unchanged (proj's column references;
// those set by keyStats among them): t's rows are some of in's, so in's
// distinct values bound t's.
func (t *Table) passStats(in *Table, proj []engine.Expr) {
	in.statsMu.Lock()
	defer in.statsMu.Unlock()
	for k, e := range proj {
		c, ok := e.(*engine.ColRef)
		if !ok || c.Idx >= len(in.Cols) {
			continue
		}
		s, ok := in.colStats[c.Idx]
		if !ok {
			continue
		}
		s.Distinct = min(s.Distinct, float64(t.N))
		if t.colStats == nil {
			t.colStats = map[int]engine.ColumnStats{}
		}
		t.colStats[k] = s
	}
}

// gatherColumn copies rows idx (a device int32 list of n row numbers; -1
// gives NULL) of src into a new column; iota: idx is empty and the rows
// are [0, n).
func (b *Backend) gatherColumn(src *Column, idx uint64, n int64, iota bool) (*Column, error) {
	c := &Column{Type: src.Type, Width: src.Width}
	if iota {
		// the first n rows: plain copies
		if w := colWidth(src); w > 0 && n > 0 && src.Data != nil {
			extra := int64(0)
			if src.rowScales {
				extra = n // the rows' scales after the values
			}
			buf, err := b.dev.Alloc("", n*w+extra)
			if err != nil {
				return nil, err
			}
			c.Data = buf
			if err := b.dev.CopyDtoD(buf.Ptr(), src.Data.Ptr(), n*w, nil); err != nil {
				c.free()
				return nil, err
			}
			if src.rowScales {
				c.rowScales, c.scaleRows = true, int(n)
				if err := b.dev.CopyDtoD(buf.Ptr()+cuda.DevPtr(n*w), src.Data.Ptr()+cuda.DevPtr(8*int64(src.scaleRows)), n, nil); err != nil {
					c.free()
					return nil, err
				}
			}
		}
		if src.Valid != nil && n > 0 {
			words := (n + 63) / 64 * 8
			buf, err := b.dev.Alloc("", words)
			if err != nil {
				c.free()
				return nil, err
			}
			c.Valid = buf
			if err := b.dev.CopyDtoD(buf.Ptr(), src.Valid.Ptr(), words, nil); err != nil {
				c.free()
				return nil, err
			}
		}
		return c, nil
	}
	return b.gatherRows(src, idx, n, false)
}

// gatherRows copies rows idx of src (int32 row numbers on the device, n
// of them; -1 gives NULL when nullable) into a new column.
func (b *Backend) gatherRows(src *Column, idx uint64, n int64, nullable bool) (*Column, error) {
	c := &Column{Type: src.Type, Width: src.Width}
	if n == 0 {
		return c, nil
	}
	w := colWidth(src)
	if w > 0 {
		scales := src.rowScales && src.Data != nil
		extra := int64(0)
		if scales {
			extra = n // the rows' scales after the values
		}
		buf, err := b.dev.Alloc("", n*w+extra)
		if err != nil {
			return nil, err
		}
		c.Data = buf
		if src.Data == nil {
			err = b.dev.Memset8(buf.Ptr(), 0, n*w, nil)
		} else {
			threads := n // a thread a row, up to 64 bytes (join.cu)
			if w > 64 {
				threads = n * max(w/4, 1)
			}
			err = b.joinLaunch("j_gather", threads, buf.Ptr(), src.Data.Ptr(), int32(w), cuda.DevPtr(idx), n)
		}
		if err == nil && scales {
			c.rowScales, c.scaleRows = true, int(n)
			err = b.joinLaunch("j_gather", n, buf.Ptr()+cuda.DevPtr(n*w), src.Data.Ptr()+cuda.DevPtr(8*int64(src.scaleRows)), int32(1), cuda.DevPtr(idx), n)
		}
		if err != nil {
			c.free()
			return nil, err
		}
	}
	if src.Valid != nil || nullable {
		words := (n + 63) / 64
		buf, err := b.dev.Alloc("", words*8)
		if err != nil {
			c.free()
			return nil, err
		}
		c.Valid = buf
		var sv cuda.DevPtr
		if src.Valid != nil {
			sv = src.Valid.Ptr()
		}
		if err := b.joinLaunch("j_gather_valid", words, buf.Ptr(), sv, cuda.DevPtr(idx), n); err != nil {
			c.free()
			return nil, err
		}
	}
	return c, nil
}

// colWidth is the bytes a row of c takes (0: no data, a string column of
// only empty values).
func colWidth(c *Column) int64 {
	if c.Type.IsString() {
		return int64(c.Width)
	}
	return int64(c.Type.StorageWidth())
}

// free releases a column's buffers (a column being built).
func (c *Column) free() {
	c.freeAux()
	if c.Data != nil {
		_ = c.Data.Free()
		c.Data = nil
	}
	if c.Valid != nil {
		_ = c.Valid.Free()
		c.Valid = nil
	}
}

// pack stores an output computed into registers as a column.
func (b *Backend) pack(v val, d devOut, n int64) (*Column, error) {
	if d.scale != nil {
		return nil, errHostPath
	}
	t := v.t
	kind, store := int32(0), int64(t.StorageWidth())
	switch {
	case t.IsString():
		kind = 4
		store = int64(engine.RoundWidth(v.width))
	case t.Kind == engine.KindFloat32:
		kind = 1
	case t.Kind == engine.KindFloat64:
		kind = 2
	case t.Kind == engine.KindNumeric:
		kind = 3
		t = engine.NumericType(18, int(v.scale))
	case t.Kind == engine.KindBool || t.IsInteger() || t.Kind == engine.KindDate || t.Kind == engine.KindTimestamp || t.Kind == engine.KindTimestampTZ || t.Kind == engine.KindTime:
	default:
		return nil, unsupported("a %s column in an intermediate result on the GPU", t)
	}
	c := &Column{Type: t}
	if t.IsString() {
		c.Width = int(store)
	}
	if n == 0 {
		return c, nil
	}
	fail := func(err error) (*Column, error) {
		c.free()
		return nil, err
	}
	if store > 0 {
		buf, err := b.dev.Alloc("", n*store)
		if err != nil {
			return nil, err
		}
		c.Data = buf
		errw, err := b.dev.Alloc("", 8)
		if err != nil {
			return fail(err)
		}
		defer errw.Free()
		if err := b.dev.Memset8(errw.Ptr(), 0, 8, nil); err != nil {
			return fail(err)
		}
		var hi, str cuda.DevPtr
		if d.hi != nil {
			hi = d.hi.Ptr()
		}
		if d.str != nil {
			str = d.str.Ptr()
		}
		if err := b.joinLaunch("j_pack", n, buf.Ptr(), kind, int32(store), d.lo.Ptr(), hi, d.nul.Ptr(), str, int32(v.width), int32(store), n, errw.Ptr()); err != nil {
			return fail(err)
		}
		var e [4]byte
		if err := b.dev.CopyDtoH(e[:], errw.Ptr(), nil); err != nil {
			return fail(err)
		}
		if binary.LittleEndian.Uint32(e[:]) != 0 {
			return fail(unsupported("a numeric value of more than 18 digits in an intermediate result"))
		}
	}
	words := (n + 63) / 64
	vb, err := b.dev.Alloc("", words*8)
	if err != nil {
		return fail(err)
	}
	c.Valid = vb
	if err := b.joinLaunch("j_pack_valid", words, vb.Ptr(), d.nul.Ptr(), n); err != nil {
		return fail(err)
	}
	return c, nil
}

// joinLaunch launches a kernel of cuda/join.cu over work items.
func (b *Backend) joinLaunch(name string, items int64, args ...any) error {
	f, err := b.embeddedKernel("join", name)
	if err != nil {
		return err
	}
	g := (items + joinTPB - 1) / joinTPB
	g = max(1, min(g, int64(b.dev.Props().SMs)*32))
	return b.dev.Launch(f, cuda.Dim3{X: uint32(g), Y: 1, Z: 1}, cuda.Dim3{X: joinTPB, Y: 1, Z: 1}, 0, nil, args...)
}

// joinTPB is J_TPB: threads per block of the kernels of join.cu.
const joinTPB = 256

// ColumnStats estimates a column of device table data for the planner
// (engine.StatsSource): a sample of its rows is gathered on the device,
// downloaded and described; a table keeps its columns' once computed.
func (b *Backend) ColumnStats(d engine.TableData, col int) engine.ColumnStats {
	t, ok := d.(*Table)
	if !ok || col >= len(t.Cols) || t.N == 0 {
		return engine.ColumnStats{}
	}
	t.statsMu.Lock()
	defer t.statsMu.Unlock()
	if s, ok := t.colStats[col]; ok {
		return s
	}
	s, err := b.sampleStats(t, col)
	if err != nil {
		return engine.ColumnStats{} // no statistics: the planner's defaults
	}
	if t.colStats == nil {
		t.colStats = map[int]engine.ColumnStats{}
	}
	t.colStats[col] = s
	return s
}

func (b *Backend) sampleStats(t *Table, col int) (engine.ColumnStats, error) {
	c, err := b.SampleColumn(t, col, engine.SampleIndexes(t.N))
	if err != nil {
		return engine.ColumnStats{}, err
	}
	return engine.EstimateStats(c, t.N), nil
}

// SampleColumn gathers rows of column col of device table data on the
// device and downloads them (engine.ColumnSampler).
func (b *Backend) SampleColumn(d engine.TableData, col int, rows []int32) (*engine.Column, error) {
	t, ok := d.(*Table)
	if !ok || col >= len(t.Cols) {
		return nil, engine.Errorf(engine.CodeInternalError, "cuda backend cannot sample %T", d)
	}
	if err := b.kernels(); err != nil {
		return nil, err
	}
	var out *engine.Column
	err := b.dev.Run(func() error {
		s := &scratch{dev: b.dev}
		defer s.free()
		n := int64(len(rows))
		var ip uint64
		if n > 0 {
			var err error
			if ip, err = s.upload(unsafe.Slice((*byte)(unsafe.Pointer(&rows[0])), 4*len(rows))); err != nil {
				return err
			}
		}
		c, err := b.gatherRows(t.Cols[col], ip, n, false)
		if err != nil {
			return err
		}
		st := &Table{N: n, Dev: b.dev, Cols: []*Column{c}}
		defer st.Release()
		h, err := st.Download()
		if err != nil {
			return err
		}
		out = h.Cols[0]
		return nil
	})
	return out, err
}

// groupsOnDevice groups the rows of in by p (groups.go).
func (b *Backend) groupsOnDevice(ctx context.Context, in *Table, p *engine.Plan) (*Table, error) {
	s := &scratch{dev: b.dev}
	defer s.free()
	r, err := b.newRun(s, in, in.N)
	if err != nil {
		return nil, err
	}
	q, err := r.hostSteps(ctx, p)
	if err != nil {
		return nil, err
	}
	if q, err = r.likeColumns(ctx, q); err != nil { // likecol.go
		return nil, err
	}
	if r, q, err = r.narrowRows(ctx, q); err != nil { // narrow.go
		return nil, err
	}
	return r.deviceGroups(q)
}
