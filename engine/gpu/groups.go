package gpu

import (
	"encoding/binary"
	"errors"
	"unsafe"

	"github.com/gpusql/gpusql/cuda"
	"github.com/gpusql/gpusql/engine"
)

// GROUP BY results on the device. aggregate (agg.go) brings every group's
// keys and accumulators to the host, where they are finished, filtered by
// HAVING, projected, sorted and limited: at millions of groups that
// transfer and the host's work per group cost far more than the
// grouping. deviceGroups instead stores the groups as a device table, the
// GROUP BY values and then the aggregates, the column order HAVING and
// the projection read, and the rest of the query runs over that table as
// a plan of its own (groupsPlan): its filter, projection, sort and limit
// run on the device, and only the rows the query returns come back, or,
// inside a plan tree, none at all.
//
// The aggregates this covers are count, sum over integers and numerics of
// one scale, and min/max; a plan with avg (whose quotients have a scale
// of their own per group), sums of floats (exact float sums), DISTINCT,
// string_agg, intervals, or a float GROUP BY key (which shows its first
// row's value) takes aggregate's path.

// errHostAggregate: the groups cannot be finished on the device (a sum
// past 18 digits); the caller takes the host's path.
var errHostAggregate = errors.New("gpu: aggregate on the host")

// deviceGroupable reports whether p's aggregates and keys can be finished
// on the device.
func deviceGroupable(p *engine.Plan) bool {
	if !p.Aggregate || len(p.GroupBy) == 0 || len(p.GroupingSets) > 0 {
		return false
	}
	for _, g := range p.GroupBy {
		if t := g.Type(); t.IsFloat() || t.Kind == engine.KindInterval {
			return false
		}
	}
	for _, a := range p.Aggs {
		if a.Distinct {
			return false
		}
		switch a.Func {
		case engine.AggCount, engine.AggCountStar:
		case engine.AggSum:
			if t := a.Arg.Type(); t.IsFloat() || t.Kind == engine.KindInterval {
				return false
			}
		case engine.AggMin, engine.AggMax:
			if a.Arg.Type().Kind == engine.KindInterval {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// groupsPlan is the part of p after its aggregation, over the table of
// its groups.
func groupsPlan(p *engine.Plan, t *Table) *engine.Plan {
	q := *p
	q.Input, q.Data, q.Table = nil, t, "(groups)"
	q.Aggregate, q.GroupBy, q.Aggs = false, nil, nil
	q.Filter, q.Having = p.Having, nil
	q.Schema = make([]engine.ColumnDef, len(t.Cols))
	for i, c := range t.Cols {
		q.Schema[i] = engine.ColumnDef{Name: "", Type: c.Type}
	}
	return &q
}

// deviceGroupsMin is the fewest groups that are finished on the device
// in a query's last step: fewer cost less to finish on the host than the
// device's extra launches. Inside a plan tree, where the groups are an
// input, they always stay on the device.
const deviceGroupsMin = 4096

// deviceGroups groups p's rows and stores the groups as a table (see the
// top). The table's buffers are the caller's.
func (r *run) deviceGroups(p *engine.Plan) (*Table, error) {
	g, err := r.groupRows(p)
	if err != nil {
		return nil, err
	}
	return r.groupsTable(p, g)
}

// keyStats gives the group table out the statistics of its key columns
// that are stored columns' (through views, filters and joins): a key's
// values are some of that column's, so its distinct values are at most
// the column's, sampled once per table version, and at most the groups.
// A query above the groups (a GROUP BY sized by keyDistinct, a join's
// planner) then need not sample the fresh table. Keys of other origins
// are left to be sampled when asked for.
func (r *run) keyStats(p *engine.Plan, out *Table) {
	for k, e := range p.GroupBy {
		c, ok := e.(*engine.ColRef)
		if !ok || c.Idx >= len(r.t.Cols) || k >= len(out.Cols) {
			continue
		}
		o := r.t.Cols[c.Idx].origin
		if o == nil || o.t == r.t {
			continue
		}
		s := r.b.ColumnStats(o.t, o.col)
		if s.Distinct <= 0 {
			continue
		}
		s.Distinct = min(s.Distinct, float64(out.N))
		if out.colStats == nil {
			out.colStats = map[int]engine.ColumnStats{}
		}
		out.colStats[k] = s
	}
}

// groupsTable stores the groups g found as a table (see the top).
func (r *run) groupsTable(p *engine.Plan, g *groups) (*Table, error) {
	gids, ng, keyVals, keyBufs := g.gids, g.ng, g.keyVals, g.keyBufs
	for k, v := range keyVals {
		if needsFirstRow(p.GroupBy[k], v) {
			return nil, errHostAggregate
		}
	}
	// the aggregates in passes of at most aggChunk (agg.go), each with
	// its own accumulators
	type chunk struct {
		acc   *cuda.Buffer
		first int
		n     int
	}
	var qa []qAgg
	var argv []val
	var chunks []chunk
	for start := 0; start < len(p.Aggs); start += aggChunk {
		sub := *p
		sub.Aggs = p.Aggs[start:min(start+aggChunk, len(p.Aggs))]
		if len(p.Aggs) <= maxAggs {
			sub.Aggs = p.Aggs
		}
		q, v, acc, err := r.accumulateOnDevice(&sub, gids, ng)
		if err != nil {
			return nil, err
		}
		qa, argv = append(qa, q...), append(argv, v...)
		chunks = append(chunks, chunk{acc: acc, first: start, n: len(sub.Aggs)})
		if len(sub.Aggs) == len(p.Aggs) {
			break
		}
	}
	chunkOf := func(k int) chunk {
		for _, c := range chunks {
			if k >= c.first && k < c.first+c.n {
				return c
			}
		}
		return chunk{}
	}
	b := r.b
	out := &Table{N: ng, Dev: b.dev, Cols: make([]*Column, 0, len(keyVals)+len(p.Aggs))}
	fail := func(err error) (*Table, error) {
		out.Release()
		return nil, err
	}
	for k, v := range keyVals {
		d := devOut{lo: keyBufs[k][0], hi: keyBufs[k][1], nul: keyBufs[k][2], str: keyBufs[k][3]}
		c, err := b.pack(v, d, ng)
		if err != nil {
			return fail(packErr(err))
		}
		out.Cols = append(out.Cols, c)
	}
	r.keyStats(p, out)
	errw, err := r.s.zeros(8, 0)
	if err != nil {
		return fail(err)
	}
	for k, ag := range p.Aggs {
		ch := chunkOf(k)
		q, arg := qa[k], argv[k]
		v := val{t: ag.T}
		kind := int32(0)
		switch {
		case ag.Func == engine.AggCount || ag.Func == engine.AggCountStar:
			v.cls = clsI64
		case ag.Func == engine.AggSum && ag.T.Kind == engine.KindInt64:
			kind, v.cls = 1, clsI64
		case ag.Func == engine.AggSum:
			kind, v.cls, v.scale = 2, clsDec, arg.scale
		case q.Cls == accMinMaxS:
			kind, v.cls, v.width = 5, clsStr, int(q.Pad&0xffff)
		case q.Cls == accMinMaxF:
			kind, v.cls = 4, arg.cls
		default: // min/max of integers, dates, timestamps, booleans, numerics
			kind, v.cls, v.scale = 3, arg.cls, arg.scale
			v.t = arg.t
			if arg.cls == clsDec {
				v.t = ag.T
			}
		}
		if q.Cls == accMinMaxD && arg.scaleReg != 0 {
			return fail(errHostAggregate)
		}
		d := devOut{}
		if d.lo, err = r.s.alloc(8 * max(ng, 1)); err != nil {
			return fail(err)
		}
		if d.nul, err = r.s.alloc(max(ng, 1)); err != nil {
			return fail(err)
		}
		var hi, str cuda.DevPtr
		if v.cls == clsDec {
			if d.hi, err = r.s.alloc(8 * max(ng, 1)); err != nil {
				return fail(err)
			}
			hi = d.hi.Ptr()
		}
		trim := int32(0)
		if kind == 5 {
			if d.str, err = r.s.alloc(int64(v.width) * max(ng, 1)); err != nil {
				return fail(err)
			}
			str = d.str.Ptr()
			if q.Pad&(1<<16) != 0 {
				trim = 1
			}
		}
		if ng > 0 {
			if err := b.joinLaunch("j_agg_out", ng, ch.acc.Ptr(), int32(ch.n), int32(k-ch.first), ng, kind, d.lo.Ptr(), hi, d.nul.Ptr(), str,
				int32(v.width), trim, errw.Ptr()); err != nil {
				return fail(err)
			}
		}
		c, err := b.pack(v, d, ng)
		if err != nil {
			return fail(packErr(err))
		}
		out.Cols = append(out.Cols, c)
	}
	var e [4]byte
	if err := b.dev.CopyDtoH(e[:], errw.Ptr(), nil); err != nil {
		return fail(err)
	}
	switch binary.LittleEndian.Uint32(e[:]) {
	case 0:
	case 2:
		return fail(engine.Errorf(engine.CodeNumericValueOutOfRange, "bigint out of range"))
	default:
		return fail(errHostAggregate) // a sum past 127 bits: the host reports it
	}
	return out, nil
}

// packErr turns pack's refusal of a numeric past 18 digits into the host
// path.
func packErr(err error) error {
	if engine.Code(err) == engine.CodeFeatureNotSupported || err == errHostPath {
		return errHostAggregate
	}
	return err
}

// accumulateOnDevice is accumulate with the accumulators left on the
// device (and started there).
func (r *run) accumulateOnDevice(p *engine.Plan, gids uint64, ng int64) ([]qAgg, []val, *cuda.Buffer, error) {
	prog := newProgram()
	c := &compiler{p: prog, cols: r.t.Cols}
	a := qArgs{N: r.n, Gids: gids}
	qa, argv, err := compileAggsAt(c, p, 0, nil)
	if err != nil {
		return nil, nil, nil, err
	}
	if len(qa) != len(p.Aggs) {
		return nil, nil, nil, errHostAggregate // numerics whose scale varies by row
	}
	if err := r.prepare(prog, &a); err != nil {
		return nil, nil, nil, err
	}
	na := int64(len(qa))
	a.NAgg = int32(na)
	if a.Aggs, err = r.s.upload(sliceBytes(qa)); err != nil {
		return nil, nil, nil, err
	}
	accBuf, err := r.s.alloc(max(ng*na, 1) * int64(unsafe.Sizeof(qAcc{})))
	if err != nil {
		return nil, nil, nil, err
	}
	if ng*na > 0 {
		if err := r.b.joinLaunch("j_acc_init", ng*na, accBuf.Ptr(), cuda.DevPtr(a.Aggs), int32(na), ng*na); err != nil {
			return nil, nil, nil, err
		}
	}
	a.Acc = uint64(accBuf.Ptr())
	perGroup := na * 24
	a.AccGroups = int32(min(ng, sharedAccBytes/max(perGroup, 1)))
	if r.n > 0 && na > 0 {
		if err := r.launch("q_agg", r.grid(r.n), uint32(int64(a.AccGroups)*perGroup), &a); err != nil {
			return nil, nil, nil, err
		}
		if err := r.check(prog); err != nil {
			return nil, nil, nil, err
		}
	}
	return qa, argv, accBuf, nil
}
