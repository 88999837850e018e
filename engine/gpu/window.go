package gpu

import (
	"context"
	"encoding/binary"
	"math/bits"

	"github.com/gpusql/gpusql/cuda"
	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/eval"
)

// Window functions on the device (engine.Window; the kernels are the w_
// kernels of cuda/sort.cu, the CPU twin is engine/cpu/window.go). The
// calls that share a PARTITION BY and ORDER BY share one device sort: the
// key columns are written out as the ORDER BY path writes them and
// sorted by the stable radix sort (sort.go), so the rows come in the
// order the CPU backend's stable sort gives. w_flags marks partition and
// peer-group starts, counting scans number them, and each call is then
// arithmetic over every position at once:
//
//   - row_number, rank, dense_rank, percent_rank, cume_dist and ntile
//     from the position's partition and peer group;
//   - lag, lead, first_value, last_value and nth_value pick a source row
//     by index arithmetic within the partition (any ROWS or GROUPS frame,
//     RANGE frames without offsets, every EXCLUDE), and the value column
//     is gathered by those rows;
//   - count, and sum, min and max over integers, dates, timestamps and
//     numerics, over any ROWS or GROUPS frame or RANGE frame without
//     offsets, with EXCLUDE's rows cut out (at most three runs of
//     positions): counts and sums as differences of segmented prefix
//     scans, min and max as range queries (per-block scans and a sparse
//     table over the blocks, rangeTable); avg over integers and numerics
//     arrives as sum and count (query/window.go).
//
// The kernels refuse the rest (docs/gpu.md lists it): RANGE frames with
// offsets, float sums and avg, min/max over floats and strings and the
// other aggregates, arguments that are columns where the function takes
// a constant (ntile's count, lag's offset, nth_value's n), and a sum past
// 64 bits; those windows run on the host (window_host.go).

// wFrame mirrors WFrame of cuda/sort.cu.
type wFrame struct {
	So, Eo             int64
	Mode, Sk, Ek, Excl int32
}

// winGroup is the input sorted for one window, on the device.
type winGroup struct {
	perm     uint64 // u32 positions → rows
	identity bool   // perm is the identity: the window has no keys
	pflag    uint64 // u8 per position: 1 where a partition starts
	pid      uint64 // i64 per position: partition number + 1
	gid      uint64 // i64: peer group number + 1
	pstart   uint64 // i64 partitions' first positions, then n
	gstart   uint64
}

// window runs a Window node.
func (b *Backend) window(ctx context.Context, w *engine.Window) (*Table, error) {
	onHost := make([]bool, len(w.Calls))
	for k := range w.Calls {
		if err := deviceWindowCall(&w.Calls[k]); err != nil {
			if engine.Code(err) != engine.CodeFeatureNotSupported {
				return nil, err
			}
			onHost[k] = true // window_host.go
		}
	}
	in, err := b.materialize(ctx, w.Input)
	if err != nil {
		return nil, err
	}
	// a call over numerics whose rows keep their own scales (rowScales)
	// runs on the host: a sum's or average's scale is its frame's
	// largest, which the device's window kernels do not track
	for k := range w.Calls {
		need := map[int]bool{}
		windowNeeds(&w.Calls[k], need)
		for c := range need {
			if c < len(in.Cols) && in.Cols[c].rowScales {
				onHost[k] = true
			}
		}
	}
	defer in.Release()
	s := &scratch{dev: b.dev}
	defer s.free()
	n := in.N
	outs := make([]*Column, len(w.Calls))
	fail := func(err error) (*Table, error) {
		for _, c := range outs {
			if c != nil {
				c.free()
			}
		}
		return nil, err
	}
	var last *winGroup
	var hw *hostWindow
	done := make([]bool, len(w.Calls))
	for k := range w.Calls {
		if done[k] {
			continue
		}
		group := []int{k}
		for j := k + 1; j < len(w.Calls); j++ {
			if !done[j] && w.Calls[j].SameWindow(&w.Calls[k]) {
				group = append(group, j)
				done[j] = true
			}
		}
		if n == 0 {
			continue
		}
		host := false
		for _, c := range group {
			host = host || onHost[c]
		}
		if !host {
			g, err := b.sortWindow(s, in, &w.Calls[k])
			for _, c := range group {
				if err == nil {
					outs[c], err = b.windowCall(ctx, s, in, g, &w.Calls[c])
				}
			}
			if err == nil {
				last = g
				continue
			}
			if engine.Code(err) != engine.CodeFeatureNotSupported {
				return fail(err)
			}
			// refused at run time (a sum past 64 bits, a default of
			// another type): the window's calls run on the host
			for _, c := range group {
				if outs[c] != nil {
					outs[c].free()
					outs[c] = nil
				}
			}
		}
		if hw == nil {
			hw = &hostWindow{in: in, need: map[int]bool{}}
			for j := range w.Calls {
				windowNeeds(&w.Calls[j], hw.need)
			}
		}
		calls := make([]engine.WindowCall, len(group))
		for i, c := range group {
			calls[i] = w.Calls[c]
		}
		cols, perm, err := b.hostWindowCalls(ctx, s, hw, calls)
		if err != nil {
			return fail(err)
		}
		for i, c := range group {
			outs[c] = cols[i]
		}
		last = &winGroup{perm: perm}
	}
	for k := range w.Calls {
		if outs[k] == nil { // no rows
			if onHost[k] {
				outs[k] = &Column{Type: w.Calls[k].T}
			} else {
				outs[k] = &Column{Type: deviceWindowType(in, &w.Calls[k])}
			}
		}
	}
	// the rows in the last window's order, as the CPU backend gives them
	out := &Table{N: n, Dev: b.dev, Cols: make([]*Column, 0, len(in.Cols)+len(w.Calls))}
	keep := last == nil || last.identity
	for _, c := range in.Cols {
		if keep {
			out.Cols = append(out.Cols, c.take())
			continue
		}
		gc, err := b.gatherRows(c, last.perm, n, false)
		if err != nil {
			out.Release()
			return fail(err)
		}
		out.Cols = append(out.Cols, gc)
	}
	for k, c := range outs {
		if keep {
			out.Cols = append(out.Cols, c)
			outs[k] = nil
			continue
		}
		gc, err := b.gatherRows(c, last.perm, n, false)
		if err != nil {
			out.Release()
			return fail(err)
		}
		c.free()
		outs[k] = nil
		out.Cols = append(out.Cols, gc)
	}
	return out, nil
}

// deviceWindowCall refuses what the device does not compute.
func deviceWindowCall(c *engine.WindowCall) error {
	constArg := func(k int) error {
		if _, ok := c.Args[k].(*engine.Const); !ok {
			return unsupported("%s whose argument %d is not a constant, on the GPU", c.Func, k+1)
		}
		return nil
	}
	if c.Func.UsesFrame() {
		f := c.Frame
		if f.Mode == engine.FrameRange && (offsetBound(f.Start) || offsetBound(f.End)) {
			return unsupported("RANGE frames with offsets in window functions")
		}
	}
	switch c.Func {
	case engine.WinNtile:
		return constArg(0)
	case engine.WinLag, engine.WinLead:
		if _, ok := c.Args[0].(*engine.ColRef); !ok {
			return unsupported("%s of a constant, on the GPU", c.Func)
		}
		return constArg(1)
	case engine.WinFirstValue, engine.WinLastValue, engine.WinNthValue:
		if _, ok := c.Args[0].(*engine.ColRef); !ok {
			return unsupported("%s of a constant, on the GPU", c.Func)
		}
		if c.Func == engine.WinNthValue {
			return constArg(1)
		}
	case engine.WinAgg:
		a := &c.Agg
		if a.Distinct || len(a.Order) > 0 || a.Sep != nil || a.Arg2 != nil {
			return unsupported("the window aggregate %s", a)
		}
		switch a.Func {
		case engine.AggCountStar:
			return nil
		case engine.AggCount, engine.AggSum, engine.AggMin, engine.AggMax:
		default:
			return unsupported("the window aggregate %s", a)
		}
		if _, ok := a.Arg.(*engine.ColRef); !ok {
			return unsupported("the window aggregate %s of a constant", a)
		}
		if a.Func == engine.AggCount {
			return nil
		}
		t := a.Arg.Type()
		if !(t.IsInteger() || t.Kind == engine.KindNumeric || (a.Func != engine.AggSum && (t.Kind == engine.KindDate || t.Kind == engine.KindTimestamp))) {
			return unsupported("the window aggregate %s over %s", a, t)
		}
	}
	return nil
}

func offsetBound(b engine.FrameBound) bool {
	return b.Kind == engine.BoundPreceding || b.Kind == engine.BoundFollowing
}

// deviceWindowType is the device column type of call c's results.
func deviceWindowType(in *Table, c *engine.WindowCall) engine.Type {
	switch c.Func {
	case engine.WinLag, engine.WinLead, engine.WinFirstValue, engine.WinLastValue, engine.WinNthValue:
		return in.Cols[c.Args[0].(*engine.ColRef).Idx].Type
	case engine.WinAgg:
		a := &c.Agg
		if a.Func == engine.AggCountStar || a.Func == engine.AggCount {
			return c.T
		}
		at := in.Cols[a.Arg.(*engine.ColRef).Idx].Type
		switch {
		case a.Func != engine.AggSum:
			return at
		case c.T.Kind == engine.KindNumeric && at.Kind == engine.KindNumeric:
			return engine.NumericType(18, int(at.Scale))
		case c.T.Kind == engine.KindNumeric:
			return engine.NumericType(18, 0)
		}
	}
	return c.T
}

// wLaunch launches a w_ kernel of cuda/sort.cu over items work items.
func (b *Backend) wLaunch(name string, items int64, args ...any) error {
	f, err := b.embeddedKernel("sort", name)
	if err != nil {
		return err
	}
	g := (items + joinTPB - 1) / joinTPB
	g = max(1, min(g, int64(b.dev.Props().SMs)*32))
	return b.dev.Launch(f, cuda.Dim3{X: uint32(g), Y: 1, Z: 1}, cuda.Dim3{X: joinTPB, Y: 1, Z: 1}, 0, nil, args...)
}

// sortWindow sorts in's rows for c's window and numbers its partitions
// and peer groups.
func (b *Backend) sortWindow(s *scratch, in *Table, c *engine.WindowCall) (*winGroup, error) {
	n := in.N
	keys := engine.WindowSortKeys(c)
	g := &winGroup{}
	pflag, err := s.alloc(n)
	if err != nil {
		return nil, err
	}
	gflag, err := s.alloc(n)
	if err != nil {
		return nil, err
	}
	if len(keys) == 0 {
		// one partition, one peer group, in row order
		fns, err := b.sortFns()
		if err != nil {
			return nil, err
		}
		perm, err := s.alloc(4 * n)
		if err != nil {
			return nil, err
		}
		if err := b.dev.Launch(fns["s_iota"], cuda.Dim3{X: uint32(min((n+sortTPB-1)/sortTPB, 4096)), Y: 1, Z: 1}, cuda.Dim3{X: sortTPB, Y: 1, Z: 1}, 0, nil, perm.Ptr(), n); err != nil {
			return nil, err
		}
		if err := b.dev.Memset8(pflag.Ptr(), 0, n, nil); err != nil {
			return nil, err
		}
		if err := b.dev.Memset8(pflag.Ptr(), 1, 1, nil); err != nil {
			return nil, err
		}
		if err := b.dev.CopyDtoD(gflag.Ptr(), pflag.Ptr(), n, nil); err != nil {
			return nil, err
		}
		g.perm, g.identity = uint64(perm.Ptr()), true
		return g, b.number(s, g, pflag, gflag, n)
	}
	r, err := b.newRun(s, in, n)
	if err != nil {
		return nil, err
	}
	p := &engine.Plan{Limit: -1}
	for k, key := range keys {
		p.Project = append(p.Project, &engine.ColRef{Idx: key.Col, T: in.Cols[key.Col].Type})
		p.OrderBy = append(p.OrderBy, engine.SortKey{Col: k, Desc: key.Desc, NullsFirst: key.NullsFirst})
	}
	p.Visible = len(p.Project)
	sk, err := r.sortKeys(p, 0, n)
	if err != nil {
		return nil, err
	}
	if len(sk) != len(keys) {
		return nil, unsupported("window keys that are numerics of varying scale")
	}
	fns, err := b.sortFns()
	if err != nil {
		return nil, err
	}
	perm, _, err := r.radixSort(fns, sk, n, 0)
	if err != nil {
		return nil, err
	}
	g.perm = perm
	kd, err := s.upload(sliceBytes(sk))
	if err != nil {
		return nil, err
	}
	if err := b.wLaunch("w_flags", n, kd, int32(len(sk)), int32(len(c.Partition)), g.perm, n, pflag.Ptr(), gflag.Ptr()); err != nil {
		return nil, err
	}
	return g, b.number(s, g, pflag, gflag, n)
}

// number turns the start flags into partition and group numbers and
// their first positions.
func (b *Backend) number(s *scratch, g *winGroup, pflag, gflag *cuda.Buffer, n int64) error {
	g.pflag = uint64(pflag.Ptr())
	for k, flag := range []*cuda.Buffer{pflag, gflag} {
		id, err := s.alloc(8 * n)
		if err != nil {
			return err
		}
		if _, err := b.scan(s, 0, 0, uint64(flag.Ptr()), 0, n, uint64(id.Ptr()), 0); err != nil {
			return err
		}
		starts, err := s.alloc(8 * (n + 1))
		if err != nil {
			return err
		}
		if err := b.wLaunch("w_starts", n, flag.Ptr(), id.Ptr(), n, starts.Ptr()); err != nil {
			return err
		}
		if k == 0 {
			g.pid, g.pstart = uint64(id.Ptr()), uint64(starts.Ptr())
		} else {
			g.gid, g.gstart = uint64(id.Ptr()), uint64(starts.Ptr())
		}
	}
	return nil
}

// scan runs a segmented inclusive scan (op 0 sum, 1 min, 2 max; see
// w_scan_* in cuda/sort.cu) into out and outHas, and reports whether a
// sum left 64 bits.
func (b *Backend) scan(s *scratch, op int32, vals, has, seg uint64, n int64, out, outHas uint64) (bool, error) {
	const tile = 256 * 16 // WTILE
	ntiles := (n + tile - 1) / tile
	tiles, err := s.alloc(16 * ntiles)
	if err != nil {
		return false, err
	}
	carry, err := s.alloc(16 * ntiles)
	if err != nil {
		return false, err
	}
	errw, err := s.zeros(8, 0)
	if err != nil {
		return false, err
	}
	grid := cuda.Dim3{X: uint32(ntiles), Y: 1, Z: 1}
	block := cuda.Dim3{X: 256, Y: 1, Z: 1}
	one := cuda.Dim3{X: 1, Y: 1, Z: 1}
	names := []string{"w_scan_tiles", "w_scan_carry", "w_scan_apply"}
	fns := make([]*cuda.Function, len(names))
	for k, name := range names {
		if fns[k], err = b.embeddedKernel("sort", name); err != nil {
			return false, err
		}
	}
	if err := b.dev.Launch(fns[0], grid, block, 0, nil, op, vals, has, seg, n, tiles.Ptr(), errw.Ptr()); err != nil {
		return false, err
	}
	if err := b.dev.Launch(fns[1], one, one, 0, nil, op, tiles.Ptr(), ntiles, carry.Ptr(), errw.Ptr()); err != nil {
		return false, err
	}
	if err := b.dev.Launch(fns[2], grid, block, 0, nil, op, vals, has, seg, n, carry.Ptr(), out, outHas, errw.Ptr()); err != nil {
		return false, err
	}
	var e [8]byte
	if err := b.dev.CopyDtoH(e[:], errw.Ptr(), nil); err != nil {
		return false, err
	}
	return binary.LittleEndian.Uint32(e[:]) != 0, nil
}

// windowCall computes call c over the sorted input g: a column of n
// rows, by input row.
func (b *Backend) windowCall(ctx context.Context, s *scratch, in *Table, g *winGroup, c *engine.WindowCall) (*Column, error) {
	n := in.N
	switch c.Func {
	case engine.WinRowNumber, engine.WinRank, engine.WinDenseRank, engine.WinPercentRank, engine.WinCumeDist, engine.WinNtile:
		nb := int64(0)
		if c.Func == engine.WinNtile {
			a := c.Args[0].(*engine.Const)
			if a.Null {
				return b.nullColumn(c.T, n)
			}
			if nb = a.I; nb <= 0 {
				return nil, engine.Errorf(engine.CodeInvalidArgForNtile, "argument of ntile must be greater than zero")
			}
		}
		vals, err := s.alloc(8 * n)
		if err != nil {
			return nil, err
		}
		if err := b.wLaunch("w_rank", n, int32(c.Func), g.pid, g.gid, g.pstart, g.gstart, g.perm, n, nb, vals.Ptr()); err != nil {
			return nil, err
		}
		return b.storeColumn(c.T, uint64(vals.Ptr()), 0, n)
	case engine.WinLag, engine.WinLead:
		return b.lagLead(s, in, g, c)
	case engine.WinFirstValue, engine.WinLastValue, engine.WinNthValue:
		nth := int64(1)
		if c.Func == engine.WinNthValue {
			a := c.Args[1].(*engine.Const)
			if a.Null {
				return b.nullColumn(deviceWindowType(in, c), n)
			}
			if nth = a.I; nth <= 0 {
				return nil, engine.Errorf(engine.CodeInvalidArgForNthValue, "argument of nth_value must be greater than zero")
			}
		}
		idx, err := s.alloc(4 * n)
		if err != nil {
			return nil, err
		}
		f := frameArg(c.Frame)
		if err := b.wLaunch("w_value", n, int32(c.Func), &f, nth, g.pid, g.gid, g.pstart, g.gstart, g.perm, n, idx.Ptr()); err != nil {
			return nil, err
		}
		return b.gatherRows(in.Cols[c.Args[0].(*engine.ColRef).Idx], uint64(idx.Ptr()), n, true)
	case engine.WinAgg:
		return b.windowAgg(s, in, g, c)
	}
	return nil, unsupported("the window function %s", c.Func)
}

func frameArg(f engine.Frame) wFrame {
	w := wFrame{Mode: int32(f.Mode), Sk: int32(f.Start.Kind), Ek: int32(f.End.Kind), Excl: int32(f.Exclude)}
	if f.Start.Offset != nil {
		w.So = f.Start.Offset.I
	}
	if f.End.Offset != nil {
		w.Eo = f.End.Offset.I
	}
	return w
}

// lagLead gathers lag's or lead's values: from the value column, or past
// its n rows from the default (a constant's one row, or a column).
func (b *Backend) lagLead(s *scratch, in *Table, g *winGroup, c *engine.WindowCall) (*Column, error) {
	n := in.N
	val := in.Cols[c.Args[0].(*engine.ColRef).Idx]
	off := c.Args[1].(*engine.Const)
	if off.Null {
		return b.nullColumn(val.Type, n)
	}
	src := val
	dmode := int32(0)
	var dflt *Table
	switch d := c.Args[2].(type) {
	case *engine.Const:
		if !d.Null {
			h, err := engine.HostFromBatches([]engine.Type{d.T}, []*engine.Batch{{N: 1, Cols: []*engine.Vec{eval.Broadcast(d, 1)}}})
			if err != nil {
				return nil, err
			}
			if dflt, err = Upload(b.dev, h, ""); err != nil {
				return nil, err
			}
			dmode = 1
		}
	case *engine.ColRef:
		dflt = &Table{N: n, Dev: b.dev, Cols: []*Column{in.Cols[d.Idx].sharedCopy()}}
		dmode = 2
	default:
		return nil, unsupported("%s's default %s on the GPU", c.Func, d)
	}
	if dflt != nil {
		defer dflt.Release()
		if dflt.Cols[0].Type != val.Type {
			return nil, unsupported("%s of %s with a default stored as %s, on the GPU", c.Func, val.Type, dflt.Cols[0].Type)
		}
		v := &Table{N: n, Dev: b.dev, Cols: []*Column{val.sharedCopy()}}
		both, err := b.loader.Concat("", v, dflt)
		if err != nil {
			return nil, err
		}
		t := both.(*Table)
		defer t.Release()
		src = t.Cols[0]
	}
	idx, err := s.alloc(4 * n)
	if err != nil {
		return nil, err
	}
	if err := b.wLaunch("w_lag", n, int32(c.Func), off.I, dmode, g.pid, g.pstart, g.perm, n, idx.Ptr()); err != nil {
		return nil, err
	}
	return b.gatherRows(src, uint64(idx.Ptr()), n, true)
}

// windowAgg computes count, sum, min or max over each row's frame,
// without EXCLUDE's rows.
func (b *Backend) windowAgg(s *scratch, in *Table, g *winGroup, c *engine.WindowCall) (*Column, error) {
	n := in.N
	a := &c.Agg
	out, err := s.alloc(8 * n)
	if err != nil {
		return nil, err
	}
	nul, err := s.alloc(n)
	if err != nil {
		return nil, err
	}
	f := frameArg(c.Frame)
	var pre, cnt, vals, has, rpre, rsuf, table uint64
	var nb int64
	agg := int32(0)
	if a.Func != engine.AggCountStar {
		col := in.Cols[a.Arg.(*engine.ColRef).Idx]
		vb, err := s.alloc(8 * n)
		if err != nil {
			return nil, err
		}
		hb, err := s.alloc(n)
		if err != nil {
			return nil, err
		}
		vals, has = uint64(vb.Ptr()), uint64(hb.Ptr())
		var data, valid uint64
		if col.Data != nil {
			data = uint64(col.Data.Ptr())
		}
		if col.Valid != nil {
			valid = uint64(col.Valid.Ptr())
		}
		if err := b.wLaunch("w_load", n, data, int32(col.Type.StorageWidth()), valid, g.perm, n, vals, has); err != nil {
			return nil, err
		}
		cb, err := s.alloc(8 * n)
		if err != nil {
			return nil, err
		}
		cnt = uint64(cb.Ptr())
		if _, err := b.scan(s, 0, 0, has, g.pflag, n, cnt, 0); err != nil {
			return nil, err
		}
		agg = 1
		switch a.Func {
		case engine.AggSum:
			agg = 2
			pb, err := s.alloc(8 * n)
			if err != nil {
				return nil, err
			}
			pre = uint64(pb.Ptr())
			over, err := b.scan(s, 0, vals, 0, g.pflag, n, pre, 0) // NULLs read as 0
			if err != nil {
				return nil, err
			}
			if over {
				return nil, unsupported("a window sum of 19 digits or more")
			}
		case engine.AggMin, engine.AggMax:
			agg = 3
			if a.Func == engine.AggMax {
				agg = 4
			}
			if rpre, rsuf, table, nb, err = b.rangeTable(s, agg-2, vals, has, n); err != nil {
				return nil, err
			}
		}
	}
	errw, err := s.zeros(8, 0)
	if err != nil {
		return nil, err
	}
	t := deviceWindowType(in, c)
	lim := int64(0)
	if t.Kind == engine.KindNumeric {
		lim = 1e18
	}
	if err := b.wLaunch("w_agg", n, agg, &f, g.pid, g.gid, g.pstart, g.gstart, g.perm, n, pre, cnt, vals, has, rpre, rsuf, table, nb, lim,
		out.Ptr(), nul.Ptr(), errw.Ptr()); err != nil {
		return nil, err
	}
	var e [8]byte
	if err := b.dev.CopyDtoH(e[:], errw.Ptr(), nil); err != nil {
		return nil, err
	}
	if binary.LittleEndian.Uint32(e[:]) != 0 {
		return nil, unsupported("a window sum of 19 digits or more")
	}
	return b.storeColumn(t, uint64(out.Ptr()), uint64(nul.Ptr()), n)
}

// wRMQ is WRMQ of cuda/sort.cu: the positions of one block of the range
// table.
const wRMQ = 256

// rangeTable builds the range minimum (op 1) or maximum (op 2) structure
// of w_rmq_* (cuda/sort.cu) over n sorted values: each position's scans
// within its block (pre, suf) and the sparse table over the nb blocks.
func (b *Backend) rangeTable(s *scratch, op int32, vals, has uint64, n int64) (pre, suf, table uint64, nb int64, err error) {
	nb = (n + wRMQ - 1) / wRMQ
	levels := int32(bits.Len64(uint64(nb))) // 2^(levels-1) <= nb
	pb, err := s.alloc(8 * n)
	if err != nil {
		return 0, 0, 0, 0, err
	}
	sb, err := s.alloc(8 * n)
	if err != nil {
		return 0, 0, 0, 0, err
	}
	tb, err := s.alloc(8 * nb * int64(levels))
	if err != nil {
		return 0, 0, 0, 0, err
	}
	pre, suf, table = uint64(pb.Ptr()), uint64(sb.Ptr()), uint64(tb.Ptr())
	if err := b.wLaunch("w_rmq_blocks", nb, op, vals, has, n, pre, suf, table); err != nil {
		return 0, 0, 0, 0, err
	}
	for k := int32(1); k < levels; k++ {
		if err := b.wLaunch("w_rmq_level", nb, op, table, nb, k); err != nil {
			return 0, 0, 0, 0, err
		}
	}
	return pre, suf, table, nb, nil
}

// storeColumn makes a column of type t from n i64 values (by row) and
// their NULL flags (0: none NULL).
func (b *Backend) storeColumn(t engine.Type, vals, nul uint64, n int64) (*Column, error) {
	c := &Column{Type: t}
	w := int64(t.StorageWidth())
	buf, err := b.dev.Alloc("", n*w)
	if err != nil {
		return nil, err
	}
	c.Data = buf
	if err := b.wLaunch("w_store", n, vals, n, int32(w), buf.Ptr()); err != nil {
		c.free()
		return nil, err
	}
	if nul != 0 {
		words := (n + 63) / 64
		vb, err := b.dev.Alloc("", words*8)
		if err != nil {
			c.free()
			return nil, err
		}
		c.Valid = vb
		if err := b.joinLaunch("j_pack_valid", words, vb.Ptr(), cuda.DevPtr(nul), n); err != nil {
			c.free()
			return nil, err
		}
	}
	return c, nil
}

// nullColumn is n NULLs of type t.
func (b *Backend) nullColumn(t engine.Type, n int64) (*Column, error) {
	c := &Column{Type: t}
	if t.IsString() {
		c.Width = 4
	}
	if w := colWidth(c); w > 0 {
		buf, err := b.dev.Alloc("", n*w)
		if err != nil {
			return nil, err
		}
		c.Data = buf
		if err := b.dev.Memset8(buf.Ptr(), 0, n*w, nil); err != nil {
			c.free()
			return nil, err
		}
	}
	vb, err := b.dev.Alloc("", (n+63)/64*8)
	if err != nil {
		c.free()
		return nil, err
	}
	c.Valid = vb
	if err := b.dev.Memset8(vb.Ptr(), 0, vb.Size(), nil); err != nil {
		c.free()
		return nil, err
	}
	return c, nil
}
