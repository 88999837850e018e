package cpu

import (
	"context"
	"unsafe"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/eval"
)

// The statement's host memory budget (engine.ChargeMemory): the CPU
// backend charges the structures that grow with its input, as they grow:
// the group table of GROUP BY and DISTINCT aggregates, the hash table
// and output pairs of a join, the key sets of set operations, the rows
// buffered for ORDER BY or DISTINCT and their sort, and the nodes of a
// plan tree it materialises. Charges are estimates (slots, headers and
// copied string bytes).

// chargeStep is how many bytes a meter gathers before it charges the
// budget, so that workers do not meet on its counter for every row.
const chargeStep = 64 << 10

// meter charges one growing structure's bytes to the statement of ctx.
type meter struct {
	ctx     context.Context
	what    string
	on      bool  // the statement has a budget
	pending int64 // counted, not yet charged
}

func newMeter(ctx context.Context, what string) *meter {
	return &meter{ctx: ctx, what: what, on: engine.HasMemoryBudget(ctx)}
}

// add counts n more bytes, charging them once enough have gathered.
func (m *meter) add(n int64) error {
	if !m.on {
		return nil
	}
	m.pending += n
	if m.pending < chargeStep {
		return nil
	}
	return m.flush()
}

// flush charges what was counted.
func (m *meter) flush() error {
	n := m.pending
	m.pending = 0
	return engine.ChargeMemory(m.ctx, n, m.what)
}

// strMeter counts the string bytes of a growing vector: the rows added
// since it last looked.
type strMeter struct {
	v    *engine.Vec
	seen int
}

func (s *strMeter) grown() int64 {
	var n int64
	for ; s.seen < s.v.N && s.seen < len(s.v.S); s.seen++ {
		n += int64(len(s.v.S[s.seen]))
	}
	return n
}

// aggMemory follows an aggregator's size: fixed bytes per group and per
// buffered value, its indexes' slots, and the string bytes it copied.
type aggMemory struct {
	perGroup int64
	strs     []*strMeter
	strBytes int64
	counted  int64 // the size last reported
}

func strMeters(vs ...*engine.Vec) []*strMeter {
	var out []*strMeter
	for _, v := range vs {
		if v != nil && engine.PhysOf(v.T.Kind) == engine.PhysStr {
			out = append(out, &strMeter{v: v})
		}
	}
	return out
}

func newAggMemory(a *aggregator) *aggMemory {
	m := &aggMemory{}
	for _, k := range a.keys {
		m.perGroup += engine.SlotBytes(k.T)
	}
	m.strs = strMeters(a.keys...)
	for _, s := range a.states {
		m.perGroup += 9 // count, has
		switch {
		case s.call.Func.IsStat():
			m.perGroup += int64(unsafe.Sizeof(eval.StatAcc{}))
		case s.ord != nil || s.str != nil:
			m.perGroup += 24 // the group's row list
		case s.best != nil:
			m.perGroup += engine.SlotBytes(s.best.T)
		case s.skind == sumInt:
			m.perGroup += 8
		case s.skind == sumDec:
			m.perGroup += int64(unsafe.Sizeof(engine.Dec{}))
		case s.skind == sumAcc:
			m.perGroup += int64(unsafe.Sizeof(eval.SumAcc{}))
		}
		if s.dist != nil {
			m.strs = append(m.strs, strMeters(s.dist.keys...)...)
		}
		if s.str != nil {
			m.strs = append(m.strs, strMeters(append([]*engine.Vec{s.str.vals, s.str.seps}, s.str.keys...)...)...)
		}
		if s.ord != nil {
			m.strs = append(m.strs, strMeters(s.ord.vals)...)
		}
	}
	return m
}

func indexBytes(x *groupIndex) int64 {
	return int64(len(x.slots))*16 + int64(len(x.dslots))*4
}

func vecsBytes(n int, vs ...*engine.Vec) int64 {
	var t int64
	for _, v := range vs {
		t += engine.SlotBytes(v.T)
	}
	return t * int64(n)
}

// grown is how many bytes the aggregator grew by since the last call.
func (m *aggMemory) grown(a *aggregator) int64 {
	for _, s := range m.strs {
		m.strBytes += s.grown()
	}
	size := int64(a.ng)*m.perGroup + indexBytes(a.index) + m.strBytes
	for _, s := range a.states {
		if d := s.dist; d != nil {
			size += indexBytes(d.index) + vecsBytes(d.n, d.keys...)
		}
		if st := s.str; st != nil {
			size += vecsBytes(st.vals.N, append([]*engine.Vec{st.vals, st.seps}, st.keys...)...) + 4*int64(st.vals.N)
		}
		if o := s.ord; o != nil {
			size += vecsBytes(o.vals.N, o.vals) + 4*int64(o.vals.N)
		}
		if s.seen != nil {
			size += int64(len(s.seen)) * 64 // key, header and map slot
		}
	}
	d := size - m.counted
	m.counted = size
	return d
}
