package cpu

import (
	"encoding/binary"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/eval"
)

// aggregator is a hash aggregation: group keys are mapped to dense group
// ids by a groupIndex; each aggregate keeps one state slot per group
// in typed arrays.
type aggregator struct {
	plan   *engine.Plan
	index  *groupIndex
	keys   []*engine.Vec // one growing vector per GROUP BY expression: group g's keys are row g
	ng     int
	states []*aggState
	ids    []int32
}

type aggState struct {
	call  engine.AggCall
	count []int64
	sums  []eval.SumAcc // sum/avg
	has   []bool
	best  *engine.Vec // min/max
	seen  map[string]struct{}
	dbuf  []byte
	str   *stringAgg     // string_agg
	stat  []eval.StatAcc // statistics (stats.go)
	ord   *ordVals       // percentile_cont, percentile_disc, mode (stats.go)
}

// stringAgg keeps string_agg's input: every non-NULL value with its
// delimiter and ORDER BY keys, as rows of growing vectors shared by all
// groups, and each group's rows in input order. The values are joined
// when the result is built, after sorting a group's rows by the keys.
type stringAgg struct {
	vals, seps *engine.Vec
	keys       []*engine.Vec
	rows       [][]int32 // per group
}

func newAggregator(p *engine.Plan) *aggregator {
	a := &aggregator{plan: p, index: newGroupIndex()}
	for _, g := range p.GroupBy {
		a.keys = append(a.keys, engine.NewVec(g.Type(), 0))
	}
	for _, c := range p.Aggs {
		s := &aggState{call: c}
		if c.Distinct {
			s.seen = map[string]struct{}{}
		}
		if c.Func == engine.AggMin || c.Func == engine.AggMax {
			s.best = engine.NewVec(c.T, 0)
		}
		if c.Func.IsOrderedSet() {
			s.ord = &ordVals{vals: engine.NewVec(c.Arg.Type(), 0)}
		}
		if c.Func == engine.AggStringAgg {
			s.str = &stringAgg{vals: engine.NewVec(engine.Text, 0), seps: engine.NewVec(engine.Text, 0)}
			for _, o := range c.Order {
				s.str.keys = append(s.str.keys, engine.NewVec(o.Expr.Type(), 0))
			}
		}
		a.states = append(a.states, s)
	}
	if len(p.GroupBy) == 0 {
		a.newGroup(nil, 0) // a global aggregate has one group even over no rows
	}
	return a
}

func (a *aggregator) newGroup(keys []*engine.Vec, row int) int32 {
	id := int32(a.ng)
	a.ng++
	for k, kv := range keys {
		a.keys[k].AppendRow(kv, row)
	}
	for _, s := range a.states {
		s.count = append(s.count, 0)
		s.has = append(s.has, false)
		switch {
		case s.call.Func.IsStat():
			s.stat = append(s.stat, eval.StatAcc{})
		case s.ord != nil:
			s.ord.rows = append(s.ord.rows, nil)
		case s.str != nil:
			s.str.rows = append(s.str.rows, nil)
		case s.best != nil:
			s.best.AppendRow(zeroOf(s.best.T), 0)
		case s.call.Func == engine.AggSum || s.call.Func == engine.AggAvg:
			s.sums = append(s.sums, eval.SumAcc{})
		}
	}
	return id
}

func zeroOf(t engine.Type) *engine.Vec { return engine.NewVec(t, 1) }

// consume adds a batch of filtered input rows.
func (a *aggregator) consume(ctxEval func(e engine.Expr) (*engine.Vec, error), n int) error {
	keys := make([]*engine.Vec, len(a.plan.GroupBy))
	for k, g := range a.plan.GroupBy {
		v, err := ctxEval(g)
		if err != nil {
			return err
		}
		keys[k] = v
	}
	if cap(a.ids) < n {
		a.ids = make([]int32, n)
	}
	ids := a.ids[:n]
	if len(keys) == 0 {
		for i := range ids {
			ids[i] = 0
		}
	} else {
		a.index.assign(a.keys, keys, 0, n, ids, func(row int) int32 { return a.newGroup(keys, row) })
	}
	for _, s := range a.states {
		if s.call.Func.IsStat() || s.ord != nil {
			if err := s.addStats(ctxEval, ids, n); err != nil {
				return err
			}
			continue
		}
		if s.str != nil {
			vs := make([]*engine.Vec, 0, 2+len(s.call.Order))
			for _, e := range s.call.Exprs() {
				v, err := ctxEval(e)
				if err != nil {
					return err
				}
				vs = append(vs, v)
			}
			s.addStrings(ids, vs[0], vs[1], vs[2:], n)
			continue
		}
		var arg *engine.Vec
		if s.call.Arg != nil {
			v, err := ctxEval(s.call.Arg)
			if err != nil {
				return err
			}
			arg = v
		}
		if err := s.add(ids, arg, n); err != nil {
			return err
		}
	}
	return nil
}

// addStrings adds string_agg's input rows: values arg, delimiters sep and
// ORDER BY keys. NULL values are skipped; DISTINCT keeps the first of
// each (value, delimiter) pair of a group.
func (s *aggState) addStrings(ids []int32, arg, sep *engine.Vec, keys []*engine.Vec, n int) {
	st := s.str
	for i := 0; i < n; i++ {
		if arg.IsNull(i) {
			continue
		}
		g := ids[i]
		if s.seen != nil {
			s.dbuf = binary.LittleEndian.AppendUint32(s.dbuf[:0], uint32(g))
			s.dbuf = eval.AppendKey(s.dbuf, arg, i)
			s.dbuf = eval.AppendKey(s.dbuf, sep, i)
			if _, dup := s.seen[string(s.dbuf)]; dup {
				continue
			}
			s.seen[string(s.dbuf)] = struct{}{}
		}
		st.rows[g] = append(st.rows[g], int32(st.vals.N))
		st.vals.AppendRow(arg, i)
		st.seps.AppendRow(sep, i)
		for k, kv := range keys {
			st.keys[k].AppendRow(kv, i)
		}
		s.count[g]++
	}
}

// joinStrings builds group g's string_agg result into v's row g.
func (s *aggState) joinStrings(v *engine.Vec, g int) {
	st := s.str
	rows := st.rows[g]
	if len(rows) == 0 {
		v.SetNull(g)
		return
	}
	cols := st.keys
	var keys []engine.SortKey
	for k, o := range s.call.Order {
		keys = append(keys, engine.SortKey{Col: k, Desc: o.Desc, NullsFirst: o.NullsFirst})
	}
	if len(keys) == 0 && s.call.Distinct {
		// PostgreSQL sorts a DISTINCT aggregate's input by its arguments.
		cols = []*engine.Vec{st.vals, st.seps}
		keys = []engine.SortKey{{Col: 0}, {Col: 1}}
	}
	if len(keys) > 0 {
		rows = append([]int32(nil), rows...)
		eval.SortRows(rows, cols, keys)
	}
	var out []byte
	for k, r := range rows {
		if k > 0 && !st.seps.IsNull(int(r)) {
			out = append(out, st.seps.S[r]...)
		}
		out = append(out, st.vals.S[r]...)
	}
	v.S[g] = out
}

func (s *aggState) add(ids []int32, arg *engine.Vec, n int) error {
	if arg == nil { // count(*)
		for _, g := range ids {
			s.count[g]++
		}
		return nil
	}
	for i := 0; i < n; i++ {
		if arg.IsNull(i) {
			continue
		}
		g := ids[i]
		if s.seen != nil {
			s.dbuf = binary.LittleEndian.AppendUint32(s.dbuf[:0], uint32(g))
			s.dbuf = eval.AppendKey(s.dbuf, arg, i)
			if _, dup := s.seen[string(s.dbuf)]; dup {
				continue
			}
			s.seen[string(s.dbuf)] = struct{}{}
		}
		s.count[g]++
		switch s.call.Func {
		case engine.AggSum, engine.AggAvg:
			if err := s.sums[g].Add(s.call.Func, arg, i); err != nil {
				return err
			}
		case engine.AggMin, engine.AggMax:
			if !s.has[g] {
				s.has[g] = true
				setSlot(s.best, int(g), arg, i)
				continue
			}
			c := eval.CompareSlot(arg, i, s.best, int(g))
			if (s.call.Func == engine.AggMin && c < 0) || (s.call.Func == engine.AggMax && c > 0) {
				setSlot(s.best, int(g), arg, i)
			}
		}
	}
	return nil
}

func setSlot(dst *engine.Vec, g int, src *engine.Vec, i int) {
	switch engine.PhysOf(dst.T.Kind) {
	case engine.PhysInt:
		dst.I[g] = src.I[i]
	case engine.PhysFloat:
		dst.F[g] = src.F[i]
	case engine.PhysDec:
		dst.D[g] = src.D[i]
	case engine.PhysStr:
		dst.S[g] = append(dst.S[g][:0], src.S[i]...)
	case engine.PhysInterval:
		dst.V[g] = src.V[i]
	}
}

// hasDistinct reports whether any aggregate is DISTINCT; those keep
// per-group value sets that are not merged, so such plans aggregate on
// one worker.
func (a *aggregator) hasDistinct() bool {
	for _, s := range a.states {
		if s.seen != nil {
			return true
		}
	}
	return false
}

// merge folds o's groups into a. Groups new to a are appended in o's
// order, so merging workers' aggregators in worker order is deterministic.
func (a *aggregator) merge(o *aggregator) error {
	ids := make([]int32, o.ng)
	if len(a.plan.GroupBy) > 0 {
		a.index.assign(a.keys, o.keys, 0, o.ng, ids, func(row int) int32 { return a.newGroup(o.keys, row) })
	}
	for g, id := range ids {
		for k, s := range a.states {
			if err := s.mergeSlot(id, o.states[k], int32(g)); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *aggState) mergeSlot(id int32, o *aggState, g int32) error {
	s.count[id] += o.count[g]
	if s.call.Func.IsStat() {
		s.stat[id].Merge(&o.stat[g])
		return nil
	}
	if s.ord != nil {
		s.ord.merge(id, o.ord, g)
		return nil
	}
	switch s.call.Func {
	case engine.AggStringAgg:
		// o scanned rows after s's: its rows follow, keeping input order.
		st, ot := s.str, o.str
		for _, r := range ot.rows[g] {
			st.rows[id] = append(st.rows[id], int32(st.vals.N))
			st.vals.AppendRow(ot.vals, int(r))
			st.seps.AppendRow(ot.seps, int(r))
			for k, kv := range ot.keys {
				st.keys[k].AppendRow(kv, int(r))
			}
		}
	case engine.AggMin, engine.AggMax:
		if !o.has[g] {
			return nil
		}
		if !s.has[id] {
			s.has[id] = true
			setSlot(s.best, int(id), o.best, int(g))
			return nil
		}
		c := eval.CompareSlot(o.best, int(g), s.best, int(id))
		if (s.call.Func == engine.AggMin && c < 0) || (s.call.Func == engine.AggMax && c > 0) {
			setSlot(s.best, int(id), o.best, int(g))
		}
	case engine.AggSum, engine.AggAvg:
		return s.sums[id].Merge(&o.sums[g])
	}
	return nil
}

// result builds the aggregate output: group keys, then one vector per
// aggregate, ng rows.
func (a *aggregator) result() (*engine.Batch, error) {
	out := &engine.Batch{N: a.ng}
	out.Cols = append(out.Cols, a.keys...)
	for _, s := range a.states {
		v := engine.NewVec(s.call.T, a.ng)
		for g := 0; g < a.ng; g++ {
			empty := s.count[g] == 0
			switch {
			case s.call.Func.IsStat():
				if err := s.stat[g].Put(s.call.Func, s.call.Arg.Type(), v, g); err != nil {
					return nil, err
				}
				continue
			case s.ord != nil:
				if err := s.ord.put(s.call, v, g); err != nil {
					return nil, err
				}
				continue
			}
			switch s.call.Func {
			case engine.AggCount, engine.AggCountStar:
				v.I[g] = s.count[g]
				continue
			case engine.AggStringAgg:
				s.joinStrings(v, g)
				continue
			case engine.AggMin, engine.AggMax:
				if empty {
					v.SetNull(g)
				} else {
					setSlot(v, g, s.best, g)
				}
				continue
			}
			if empty {
				v.SetNull(g)
				continue
			}
			if err := s.sums[g].Put(s.call.Func, s.call.Arg.Type(), s.count[g], v, g); err != nil {
				return nil, err
			}
		}
		out.Cols = append(out.Cols, v)
	}
	return out, nil
}
