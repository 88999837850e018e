// Package multi spreads each table over several backends of one kind (the
// GPUs of a host, or logical partitions of one GPU or of the CPU) and runs
// queries over the parts.
//
// A load splits the file into byte ranges at record boundaries and each
// part loads its range at the same time (load.go). A scan, filter and
// aggregation runs on every part at once; the parts' partial aggregates,
// or their filtered and sorted rows, are merged on the host by a small
// plan (exec.go). Plans that need all the rows in one place (joins,
// windows, set operations, DISTINCT aggregates, float sums, whose exact
// result is not the sum of rounded partial sums) run on the first part
// over the table gathered there once, peer to peer (gather.go).
package multi

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gpusql/gpusql/engine"
)

// Options configure a Backend.
type Options struct {
	// MinSplitBytes is the smallest share of a file worth loading on a
	// part of its own; a smaller file loads on the first part alone.
	// 0 means DefaultMinSplitBytes.
	MinSplitBytes int64
	// Redistribute runs every plan whose tree can be co-partitioned that
	// way (hashed.go), even where a broadcast join would serve: the
	// default takes it only where the plan would otherwise be gathered.
	Redistribute bool
	// DeviceMergeRows is the partial groups of a split aggregate past
	// which they are merged on the first part instead of the host; 0
	// means DefaultDeviceMergeRows.
	DeviceMergeRows int
}

// DefaultDeviceMergeRows is Options.DeviceMergeRows when it is 0.
const DefaultDeviceMergeRows = 1 << 16

// DefaultMinSplitBytes is Options.MinSplitBytes when it is 0.
const DefaultMinSplitBytes = 32 << 20

// Mover is a part backend that can copy table data held by another part
// of the same kind into its own memory (the GPU backend, peer to peer).
// copied is false when d was already there and is returned itself.
type Mover interface {
	Move(table string, d engine.TableData) (out engine.TableData, copied bool, err error)
}

// Backend runs loads and plans over tables split into parts.
type Backend struct {
	parts []engine.Backend // one per device or logical partition
	names []string         // of the parts, for placement
	host  engine.Backend   // runs the merge plans over host rows
	o     Options
}

var (
	_ engine.Backend        = (*Backend)(nil)
	_ engine.TableStore     = (*Backend)(nil)
	_ engine.StatsSource    = (*Backend)(nil)
	_ engine.MemoryReporter = (*Backend)(nil)
	_ engine.Explainer      = (*Backend)(nil)
)

// New returns a backend over parts (at least one), naming part i names[i]
// (e.g. "gpu0"); host runs the merges (a CPU backend).
func New(parts []engine.Backend, names []string, host engine.Backend, o Options) *Backend {
	if o.MinSplitBytes <= 0 {
		o.MinSplitBytes = DefaultMinSplitBytes
	}
	if o.DeviceMergeRows <= 0 {
		o.DeviceMergeRows = DefaultDeviceMergeRows
	}
	return &Backend{parts: parts, names: names, host: host, o: o}
}

// Parts is the number of parts a table is split into.
func (b *Backend) Parts() int { return len(b.parts) }

// Name names the parts' backends and how tables are split.
func (b *Backend) Name() string {
	var uniq []string
	seen := map[engine.Backend]bool{}
	for i, p := range b.parts {
		if !seen[p] {
			seen[p] = true
			uniq = append(uniq, b.names[i]+": "+p.Name())
		}
	}
	return fmt.Sprintf("%s; tables in %d parts", strings.Join(uniq, "; "), len(b.parts))
}

// DeviceMemoryInUse sums the parts' devices.
func (b *Backend) DeviceMemoryInUse() int64 {
	var n int64
	seen := map[engine.Backend]bool{}
	for _, p := range b.parts {
		if m, ok := p.(engine.MemoryReporter); ok && !seen[p] {
			seen[p] = true
			n += m.DeviceMemoryInUse()
		}
	}
	return n
}

// segment is one part's rows of a table. Versions of a table made by
// appends share segments, so each counts its owners.
type segment struct {
	part int
	data engine.TableData
	refs *atomic.Int32
}

func newSegment(part int, d engine.TableData) segment {
	s := segment{part: part, data: d, refs: new(atomic.Int32)}
	s.refs.Store(1)
	return s
}

// Table is table data in segments, each held by one part; its rows are
// the segments' in order.
type Table struct {
	b    *Backend
	name string
	segs []segment

	mu       sync.Mutex
	gathered map[int]gatheredCopy // every row on a part, by part (gather.go)
	hashed   map[int]hashedCopy   // every row redistributed by a column, by column (hashed.go)

	statsMu sync.Mutex
	stats   map[int]engine.ColumnStats // by column, once computed
}

// gatheredCopy is every row of a table on one part.
type gatheredCopy struct {
	data  engine.TableData
	owned bool // a copy to release (not a segment itself)
}

var (
	_ engine.TableData   = (*Table)(nil)
	_ engine.StoredTyper = (*Table)(nil)
	_ engine.Gatherer    = (*Table)(nil)
	_ engine.Placed      = (*Table)(nil)
)

func (b *Backend) newTable(name string, segs []segment) *Table {
	return &Table{b: b, name: name, segs: segs}
}

// Rows is the number of rows of all the segments.
func (t *Table) Rows() int64 {
	var n int64
	for _, s := range t.segs {
		n += s.data.Rows()
	}
	return n
}

// DeviceBytes is the memory the segments, and a gathered copy, hold.
func (t *Table) DeviceBytes() int64 {
	var n int64
	for _, s := range t.segs {
		n += s.data.DeviceBytes()
	}
	t.mu.Lock()
	for _, g := range t.gathered {
		if g.owned {
			n += g.data.DeviceBytes()
		}
	}
	for _, h := range t.hashed {
		for _, d := range h.data {
			n += d.DeviceBytes()
		}
	}
	t.mu.Unlock()
	return n
}

// Release drops the table's hold on its segments, freeing those no other
// version shares, and frees the gathered copy.
func (t *Table) Release() {
	t.mu.Lock()
	for _, g := range t.gathered {
		if g.owned {
			g.data.Release()
		}
	}
	t.gathered = nil
	for _, h := range t.hashed {
		for _, d := range h.data {
			d.Release()
		}
	}
	t.hashed = nil
	t.mu.Unlock()
	for _, s := range t.segs {
		if s.refs.Add(-1) == 0 {
			s.data.Release()
		}
	}
	t.segs = nil
}

// StoredType is the type column col is stored as, the same in every
// segment (load.go checks it).
func (t *Table) StoredType(col int) engine.Type {
	if st, ok := t.segs[0].data.(engine.StoredTyper); ok {
		return st.StoredType(col)
	}
	return engine.Type{}
}

// Placement is the table's rows and bytes on each part that holds some.
func (t *Table) Placement() []engine.PartBytes {
	out := make([]engine.PartBytes, len(t.b.parts))
	for i := range out {
		out[i].Device = t.b.names[i]
	}
	for _, s := range t.segs {
		out[s.part].Rows += s.data.Rows()
		out[s.part].Bytes += s.data.DeviceBytes()
	}
	t.mu.Lock()
	for part, g := range t.gathered {
		if g.owned {
			out[part].Bytes += g.data.DeviceBytes()
			out[part].Gathered = true
		}
	}
	for _, h := range t.hashed {
		for part, d := range h.data {
			out[part].Bytes += d.DeviceBytes()
			out[part].Redistributed = true
		}
	}
	t.mu.Unlock()
	return out
}

// MapParts builds a table of the same segments each replaced by f's
// result (COPY with a column list widens every segment).
func (t *Table) MapParts(f func(engine.TableData) (engine.TableData, error)) (engine.TableData, error) {
	segs := make([]segment, 0, len(t.segs))
	for _, s := range t.segs {
		d, err := f(s.data)
		if err != nil {
			for _, x := range segs {
				x.data.Release()
			}
			return nil, err
		}
		segs = append(segs, newSegment(s.part, d))
	}
	return t.b.newTable(t.name, segs), nil
}

// Concat appends y's segments after x's; the new version shares them.
func (b *Backend) Concat(table string, x, y engine.TableData) (engine.TableData, error) {
	tx, ok1 := x.(*Table)
	ty, ok2 := y.(*Table)
	if !ok1 || !ok2 {
		return nil, engine.Errorf(engine.CodeInternalError, "cannot append %T to %T", y, x)
	}
	var segs []segment
	for _, s := range append(append([]segment(nil), tx.segs...), ty.segs...) {
		if s.data.Rows() == 0 && len(tx.segs)+len(ty.segs) > 1 {
			continue
		}
		s.refs.Add(1)
		segs = append(segs, s)
	}
	if len(segs) == 0 {
		s := tx.segs[0]
		s.refs.Add(1)
		segs = append(segs, s)
	}
	return b.newTable(table, segs), nil
}

// Store keeps host rows on the first part.
func (b *Backend) Store(h *engine.HostTable, o engine.StoreOptions) (engine.TableData, error) {
	ts, ok := b.parts[0].(engine.TableStore)
	if !ok {
		return nil, engine.Errorf(engine.CodeFeatureNotSupported, "%s cannot store query results", b.parts[0].Name())
	}
	d, err := ts.Store(h, o)
	if err != nil {
		return nil, err
	}
	return b.newTable(o.Table, []segment{newSegment(0, d)}), nil
}

// StoreMapped keeps rows that alias a file mapping (engine.MappedStorer)
// on the first part: copied from the mapping by the part itself where it
// can (a GPU), else from a host copy, since a host part would keep h,
// whose memory goes with the mapping.
func (b *Backend) StoreMapped(h *engine.HostTable, mapped []byte, o engine.StoreOptions) (engine.TableData, error) {
	ms, ok := b.parts[0].(engine.MappedStorer)
	if !ok {
		idx := make([]int32, h.N)
		for i := range idx {
			idx[i] = int32(i)
		}
		cols := make([]*engine.Column, len(h.Cols))
		for k, c := range h.Cols {
			cols[k] = c.Gather(idx)
		}
		return b.Store(engine.NewHostTable(cols, h.N), o)
	}
	d, err := ms.StoreMapped(h, mapped, o)
	if err != nil {
		return nil, err
	}
	return b.newTable(o.Table, []segment{newSegment(0, d)}), nil
}

// Materialize runs p on the first part (over gathered tables) and keeps
// the result there.
func (b *Backend) Materialize(ctx context.Context, p *engine.Plan, o engine.StoreOptions) (engine.TableData, error) {
	ts, ok := b.parts[0].(engine.TableStore)
	if !ok {
		return nil, engine.Errorf(engine.CodeFeatureNotSupported, "%s cannot store query results", b.parts[0].Name())
	}
	d, err := ts.Materialize(ctx, p, o)
	if err != nil {
		return nil, err
	}
	return b.newTable(o.Table, []segment{newSegment(0, d)}), nil
}

// ColumnStats describes a column of a table in parts as the table whole
// would be described: the rows the whole table's sample names
// (engine.SampleIndexes) are gathered from the segments that hold them,
// through their parts, so the planner picks the plans over parts that it
// picks over one table. Where a part cannot bring rows to the host, the
// largest segment's statistics are scaled to the table (wholeStats).
// A table keeps its columns' once computed.
func (b *Backend) ColumnStats(d engine.TableData, col int) engine.ColumnStats {
	t, ok := d.(*Table)
	if !ok {
		return engine.ColumnStats{}
	}
	t.statsMu.Lock()
	defer t.statsMu.Unlock()
	if st, ok := t.stats[col]; ok {
		return st
	}
	st, ok := b.sampledStats(t, col)
	if !ok {
		st = b.segmentStats(t, col)
	}
	if t.stats == nil {
		t.stats = map[int]engine.ColumnStats{}
	}
	t.stats[col] = st
	return st
}

// sampledStats gathers the whole table's sample of column col from the
// segments that hold its rows, in the sample's order.
func (b *Backend) sampledStats(t *Table, col int) (engine.ColumnStats, bool) {
	total := t.Rows()
	idx := engine.SampleIndexes(total)
	var pieces *engine.HostTable
	at := make([]int32, len(idx)) // sample row p is row at[p] of pieces
	off, got := int64(0), int32(0)
	for _, s := range t.segs {
		n := s.data.Rows()
		var local []int32
		for p, r := range idx {
			if int64(r) >= off && int64(r) < off+n {
				at[p] = got + int32(len(local))
				local = append(local, int32(int64(r)-off))
			}
		}
		off += n
		if len(local) == 0 {
			continue
		}
		c, ok := b.sampleSegment(s, col, local)
		if !ok {
			return engine.ColumnStats{}, false
		}
		h := engine.NewHostTable([]*engine.Column{c}, int64(len(local)))
		if pieces == nil {
			pieces = h
		} else {
			pieces = engine.ConcatHost(pieces, h)
		}
		got += int32(len(local))
	}
	if pieces == nil || int(got) != len(idx) {
		return engine.ColumnStats{}, false
	}
	return engine.EstimateStats(pieces.Cols[0].Gather(at), total), true
}

// sampleSegment brings rows of column col of segment s to the host.
func (b *Backend) sampleSegment(s segment, col int, rows []int32) (*engine.Column, bool) {
	if h, ok := s.data.(*engine.HostTable); ok && col < len(h.Cols) {
		return h.Cols[col].Gather(rows), true
	}
	cs, ok := b.parts[s.part].(engine.ColumnSampler)
	if !ok {
		return nil, false
	}
	c, err := cs.SampleColumn(s.data, col, rows)
	return c, err == nil
}

// segmentStats samples the largest segment, through its part, and scales
// its distinct count to the table's rows (wholeStats).
func (b *Backend) segmentStats(t *Table, col int) engine.ColumnStats {
	best := t.segs[0]
	for _, s := range t.segs {
		if s.data.Rows() > best.data.Rows() {
			best = s
		}
	}
	var st engine.ColumnStats
	if s, ok := best.data.(engine.Statser); ok {
		st = s.ColumnStats(col)
	} else if src, ok := b.parts[best.part].(engine.StatsSource); ok {
		st = src.ColumnStats(best.data, col)
	}
	return wholeStats(st, best.data.Rows(), t.Rows())
}

// wholeStats scales a segment's statistics (of seg rows) to the table's
// rows: a column whose values are all distinct in the segment (a key)
// has as many as the table has rows, one with few (a flag, a nation)
// no more than the segment shows, and one between by its share of
// distinct values. Unscaled, a key looked half as selective to the
// planner over two parts, which changed the join order of TPC-H Q7 from
// one GPU's.
func wholeStats(st engine.ColumnStats, seg, total int64) engine.ColumnStats {
	nonNull := float64(seg) * (1 - st.NullFrac)
	if seg <= 0 || total <= seg || st.Distinct <= 0 || nonNull <= 0 {
		return st
	}
	share := min(st.Distinct/nonNull, 1)
	st.Distinct *= 1 + share*(float64(total)/float64(seg)-1)
	return st
}
