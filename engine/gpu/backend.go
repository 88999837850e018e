package gpu

import (
	"context"
	"fmt"
	"sync"

	"github.com/gpusql/gpusql/cuda"
	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/eval"
)

// Backend runs plans on one GPU.
type Backend struct {
	dev    *cuda.Device
	loader engine.Loader
	once   sync.Once
	mod    *cuda.Module
	fns    map[string]*cuda.Function
	modErr error

	jitMu sync.Mutex
	jit   map[string]fusedEntry // generated fused kernels (fused.go)

	sorts sortKernels // ORDER BY kernels (sort.go)
}

var _ engine.Backend = (*Backend)(nil)

// New returns the CUDA backend on dev; loads go through loader, which must
// produce *Table data.
func New(dev *cuda.Device, loader engine.Loader) *Backend {
	return &Backend{dev: dev, loader: loader}
}

// Name names the backend and its device.
func (b *Backend) Name() string {
	p := b.dev.Props()
	return fmt.Sprintf("cuda (%s, %d SMs, %d GiB)", p.Name, p.SMs, p.TotalMem>>30)
}

// Load parses CSV with the injected (GPU) loader.
func (b *Backend) Load(ctx context.Context, req *engine.LoadRequest) (*engine.LoadResult, error) {
	return b.loader.Load(ctx, req)
}

// DeviceMemoryInUse is the device memory the pool has handed out.
func (b *Backend) DeviceMemoryInUse() int64 {
	used, _ := b.dev.PoolStats()
	return used
}

// Concat appends device tables with the injected loader.
func (b *Backend) Concat(table string, x, y engine.TableData) (engine.TableData, error) {
	return b.loader.Concat(table, x, y)
}

func (b *Backend) kernels() error {
	b.once.Do(func() {
		m, _, err := b.dev.LoadKernels("query")
		if err != nil {
			b.modErr = err
			return
		}
		b.mod = m
		b.fns = map[string]*cuda.Function{}
		for _, n := range []string{"q_filter", "q_cmpfilter", "q_colkeys", "q_scan", "q_compact", "q_project", "q_group", "q_agg", "q_minmax", "q_dict_insert", "q_dict_used", "q_dict_gather", "q_dict_slotcodes", "q_dict_codes", "q_like_bits", "q_like_sub"} {
			f, err := m.Function(n)
			if err != nil {
				b.modErr = err
				return
			}
			b.fns[n] = f
		}
	})
	return b.modErr
}

// scratch holds one query's device buffers; free releases them all.
type scratch struct {
	dev  *cuda.Device
	bufs []*cuda.Buffer
}

func (s *scratch) alloc(n int64) (*cuda.Buffer, error) {
	if n < 8 {
		n = 8
	}
	b, err := s.dev.Alloc("", n)
	if err != nil {
		return nil, err
	}
	s.bufs = append(s.bufs, b)
	return b, nil
}

// owns says whether b is one of the run's scratch buffers (a column a
// host step or a LIKE computed for this run only).
func (s *scratch) owns(b *cuda.Buffer) bool {
	for _, x := range s.bufs {
		if x == b {
			return true
		}
	}
	return false
}

func (s *scratch) upload(data []byte) (uint64, error) {
	if len(data) == 0 {
		return 0, nil
	}
	b, err := s.alloc(int64(len(data)))
	if err != nil {
		return 0, err
	}
	return uint64(b.Ptr()), s.dev.CopyHtoD(b.Ptr(), data, nil)
}

func (s *scratch) zeros(n int64, fill byte) (*cuda.Buffer, error) {
	b, err := s.alloc(n)
	if err != nil {
		return nil, err
	}
	return b, s.dev.Memset8(b.Ptr(), fill, b.Size(), nil)
}

func (s *scratch) free() {
	_ = s.dev.FreeAll(s.bufs) // one round trip to the device's worker
	s.bufs = nil
}

// newRun starts a run of kernels over the n rows of t: its columns'
// descriptors and an error word on the device.
func (b *Backend) newRun(s *scratch, t *Table, n int64) (*run, error) {
	r := &run{b: b, s: s, t: t, n: n}
	var err error
	if r.cols, err = s.upload(sliceBytes(qCols(t.Cols))); err != nil {
		return nil, err
	}
	eb, err := s.zeros(16, 0)
	if err != nil {
		return nil, err
	}
	r.err = uint64(eb.Ptr())
	return r, nil
}

// run is the state of one Execute.
type run struct {
	b    *Backend
	s    *scratch
	t    *Table
	n    int64
	cols uint64 // device QCol array
	err  uint64 // device QErr
}

func (r *run) grid(n int64) uint32 {
	g := (n + tpb - 1) / tpb
	lim := int64(r.b.dev.Props().SMs) * 16
	if g > lim {
		g = lim
	}
	if g < 1 {
		g = 1
	}
	return uint32(g)
}

// prepare uploads a program and fills the program part of a.
func (r *run) prepare(p *program, a *qArgs) error {
	pool, err := r.s.upload(p.strPool)
	if err != nil {
		return err
	}
	p.poolAddr = pool
	consts := append([]qConst(nil), p.consts...)
	for _, k := range p.strConst {
		consts[k].Lo += int64(pool)
	}
	a.Cols, a.Err = r.cols, r.err
	if a.Prog, err = r.s.upload(sliceBytes(p.ins)); err != nil {
		return err
	}
	if a.Consts, err = r.s.upload(sliceBytes(consts)); err != nil {
		return err
	}
	a.NIns = int32(len(p.ins))
	if err := r.regSlab(p, a); err != nil {
		return err
	}
	return r.strScratch(p, a)
}

func (r *run) launch(name string, grid uint32, shared uint32, args ...any) error {
	if len(args) == 1 {
		if a, ok := args[0].(*qArgs); ok && a.RegBlocks != 0 && grid > uint32(a.RegBlocks) {
			grid = uint32(a.RegBlocks) // the register slab or a wide string scratch covers no more threads
		}
	}
	return r.b.dev.Launch(r.b.fns[name], cuda.Dim3{X: grid, Y: 1, Z: 1}, cuda.Dim3{X: tpb, Y: 1, Z: 1}, shared, nil, args...)
}

// check reads the kernel error word and turns it into the CPU backend's error.
func (r *run) check(p *program) error {
	var buf [16]byte
	if err := r.b.dev.CopyDtoH(buf[:], cuda.DevPtr(r.err), nil); err != nil {
		return err
	}
	// the complement of the first error's key (raiseAt in query.cu):
	// code in bits 15..11, argument in bits 10..0
	key := ^uint64(getI64(buf[0:8]))
	code, arg := int32(key>>11&31), int32(key&2047)
	if uint64(getI64(buf[0:8])) == 0 {
		code = 0
	}
	if code == errUnsupported && arg >= 1024 {
		arg = 1000 + arg - 1024 // an opcode
	}
	switch code {
	case 0:
		return nil
	case errIntRange:
		return engine.Errorf(engine.CodeNumericValueOutOfRange, "%s out of range", [...]string{"smallint", "integer", "bigint"}[arg])
	case errDivZero:
		return engine.Errorf(engine.CodeDivisionByZero, "division by zero")
	case errNumOverflow:
		return engine.Errorf(engine.CodeNumericValueOutOfRange, "value overflows numeric format")
	case errFloatOverflow:
		return engine.Errorf(engine.CodeNumericValueOutOfRange, "value out of range: overflow")
	case errFloatUnderflow:
		return engine.Errorf(engine.CodeNumericValueOutOfRange, "value out of range: underflow")
	case errNumField:
		t := p.checks[arg]
		e := engine.Errorf(engine.CodeNumericValueOutOfRange, "numeric field overflow")
		if t.Scale == t.Prec {
			e.Detail = fmt.Sprintf("A field with precision %d, scale %d must round to an absolute value less than 1.", t.Prec, t.Scale)
		} else {
			e.Detail = fmt.Sprintf("A field with precision %d, scale %d must round to an absolute value less than 10^%d.", t.Prec, t.Scale, t.Prec-t.Scale)
		}
		return e
	case errDateRange:
		what := map[int32]string{1: "timestamp", 2: "interval"}[arg]
		if what == "" {
			what = "date"
		}
		return engine.Errorf(engine.CodeDatetimeFieldOverflow, "%s out of range", what)
	case errSubstring:
		return engine.Errorf(engine.CodeSubstringError, "negative substring length not allowed")
	case errFormatNull: // format()'s errors (fmtexpr.go)
		return formatError(arg)
	case errArrayMalformed: // arrays.go
		return r.malformedArray(p, key)
	case errMath: // mathexpr.go
		switch arg {
		case 3:
			return engine.Errorf(engine.CodeInvalidArgumentForLog, "cannot take logarithm of zero")
		case 4:
			return engine.Errorf(engine.CodeInvalidArgumentForLog, "cannot take logarithm of a negative number")
		case 5:
			return engine.Errorf(engine.CodeInvalidArgumentForPower, "zero raised to a negative power is undefined")
		case 6:
			return engine.Errorf(engine.CodeInvalidArgumentForPower, "a negative number raised to a non-integer power yields a complex result")
		}
		return engine.Errorf(engine.CodeInvalidArgumentForPower, "cannot take square root of a negative number")
	case errNaNNumeric: // eval's float to numeric cast
		return engine.Errorf(engine.CodeFeatureNotSupported, "cannot convert %s to numeric: gpusql numerics have no NaN or infinity", [...]string{"NaN", "NaN", "Infinity", "-Infinity"}[arg&3])
	case errUnsupported:
		what := map[int32]string{1: "numeric to float conversion of values beyond 2^53 or scale 22", 2: "min/max of numerics beyond 64 bits", 3: "numerics at scales over 1000 as text"}[arg]
		if what == "" {
			what = fmt.Sprintf("kernel opcode %d", arg-1000)
		}
		return unsupported(what)
	}
	return engine.Errorf(engine.CodeInternalError, "GPU kernel error %d", code)
}

// Execute runs p on the device. Scan, filter, expression evaluation and
// aggregation run in kernels, and so does the ORDER BY of a query without
// aggregates or DISTINCT (sort.go); HAVING, the projection over aggregate
// results, DISTINCT, and the other ORDER BYs and LIMITs run on the host
// over the small results that come back (see docs/performance.md).
//
// The whole run happens on the calling goroutine's own thread with the
// context current (cuda.Device.Run): a query makes hundreds of small
// driver calls, and handing each to the device's worker goroutine cost
// more than the kernels of a small query.
func (b *Backend) Execute(ctx context.Context, p *engine.Plan, sink engine.BatchSink) error {
	return b.dev.Run(func() error { return b.execute(ctx, p, sink) })
}

func (b *Backend) execute(ctx context.Context, p *engine.Plan, sink engine.BatchSink) error {
	if p.Input != nil || isHostLeaf(p) {
		// a plan over a tree: its input first, on the device (tree.go)
		in, err := b.input(ctx, p)
		if err != nil {
			return err
		}
		defer in.Release()
		q := *p
		q.Input, q.Data, q.Schema, q.Table = nil, in, p.InputColumns(), "(input)"
		p = &q
	}
	if len(p.GroupingSets) > 0 {
		// one aggregation per set on the device; the sets' groups are
		// finished on the host, as any aggregate's are (eval)
		return eval.RunGroupingSets(ctx, p, func(q *engine.Plan, s engine.BatchSink) error { return b.Execute(ctx, q, s) }, sink)
	}
	var t *Table
	n := int64(1) // no FROM: one row without columns
	if p.Table != "" {
		n = 0
	}
	if p.Data != nil {
		d, err := engine.LocalData(p.Data)
		if err != nil {
			return err
		}
		gt, ok := d.(*Table)
		if !ok {
			return engine.Errorf(engine.CodeInternalError, "cuda backend cannot read %T table data", p.Data)
		}
		t, n = gt, gt.N
	}
	if t == nil && p.Table != "" {
		t = b.emptyTable(p.Schema) // a table never loaded: its columns, no rows
	} else if t == nil {
		t = &Table{}
	}
	hostAgg := false // agg_host.go
	for _, a := range p.Aggs {
		hostAgg = hostAgg || hostAggregated(a)
	}
	if err := b.kernels(); err != nil {
		return err
	}
	s := &scratch{dev: b.dev}
	defer s.free()
	r, err := b.newRun(s, t, n)
	if err != nil {
		return err
	}
	if p, err = r.hostSteps(ctx, p); err != nil { // hoststep.go
		return err
	}
	if hostAgg {
		return r.hostAggregate(ctx, p, sink)
	}
	if p.Aggregate {
		// an aggregation the kernels refuse runs on the host, unless
		// rows went out already (they never do before the end)
		sent := false
		err := b.aggregate(ctx, r, p, func(bt *engine.Batch) error {
			sent = true
			return sink(bt)
		})
		if engine.Code(err) == engine.CodeFeatureNotSupported && !sent {
			return r.hostAggregate(ctx, p, sink)
		}
		return err
	}
	if p, err = r.likeColumns(ctx, p); err != nil { // likecol.go
		return err
	}
	var res *engine.Batch
	if deviceSorts(p) {
		var sorted bool
		if res, sorted, err = r.sortProject(p); sorted {
			p = sortedTail(p)
		}
	} else {
		res, err = r.project(p)
	}
	if err != nil {
		return err
	}
	return finish(ctx, p, res, sink)
}

// aggregate runs aggregate plan p (after its host steps) on the device.
func (b *Backend) aggregate(ctx context.Context, r *run, p *engine.Plan, sink engine.BatchSink) error {
	res, ok, err := r.fusedAggregate(ctx, p)
	if err == nil && !ok {
		if p, err = r.likeColumns(ctx, p); err != nil { // likecol.go
			return err
		}
		// the rest over the rows that pass; r stays whole for the
		// caller's host path
		if r, p, err = r.narrowRows(ctx, p); err != nil { // narrow.go
			return err
		}
		var g *groups
		if deviceGroupable(p) {
			if g, err = r.groupRows(p); err != nil {
				return err
			}
			if g.ng >= deviceGroupsMin {
				// the groups stay on the device, and the rest of
				// the query runs over them there (groups.go)
				t, err := r.groupsTable(p, g)
				if err == nil {
					defer t.Release()
					return b.Execute(ctx, groupsPlan(p, t), sink)
				}
				if err != errHostAggregate {
					return err
				}
			}
		} else if len(p.GroupBy) > 0 {
			if g, err = r.groupRows(p); err != nil {
				return err
			}
		}
		res, err = r.aggregateGroups(p, g)
	}
	if err != nil {
		return err
	}
	return finish(ctx, p, res, sink)
}
