package multi

import (
	"context"
	"fmt"
	"sync"

	"github.com/gpusql/gpusql/engine"
)

// route is how a plan over a partitioned table runs.
type route uint8

const (
	routeGather    route = iota // on the first part, over the table gathered there
	routeOne                    // the table has one segment: on its part
	routeAggregate              // partial aggregates on every part, merged on the host
	routeScan                   // filtered (sorted, limited) rows of every part, merged on the host
	routeStream                 // every part's rows, passed on in the table's order
)

// split is how a plan runs over a split table: its route, the table
// whose segments the parts run over (the probe), and the leaf of p's tree
// that reads it (p itself for a plan without a tree).
type split struct {
	route route
	probe *Table
	leaf  *engine.Plan
	hp    hashPlan // set when the tree's big tables are redistributed by key instead (hashed.go)
}

// routeOf picks p's route. A plan over a tree splits when the tree is
// linear in one split table's rows (probeLeaf): the tree over all the
// rows is the union of the tree over each segment, with every other
// table read whole, so each part runs the tree over its segment and a
// copy of the other tables gathered on its device (a broadcast join).
func (b *Backend) routeOf(p *engine.Plan) split {
	sp := b.broadcastRoute(p)
	if (sp.route == routeGather || b.o.Redistribute) && p.Input != nil {
		if hs, ok := b.hashedRoute(p); ok {
			return hs
		}
	}
	return sp
}

// hashedRoute is p's route when its tree's large split tables are
// redistributed by their join keys (hashed.go): ok is false where that
// does not split p either.
func (b *Backend) hashedRoute(p *engine.Plan) (split, bool) {
	h := b.hashPlanFor(p)
	if h == nil {
		return split{}, false
	}
	sp := split{hp: h}
	switch {
	case p.Aggregate && h.rootKeyed(p):
		sp.route = rowsRoute(p) // each part finishes its own groups
	case p.Aggregate && splittable(p) && b.fewGroups(p):
		sp.route = routeAggregate
	case p.Aggregate:
		return split{}, false
	default:
		sp.route = rowsRoute(p)
	}
	return sp, sp.route != routeGather
}

// rowsRoute is how a plan whose rows come from every part at once is
// finished: passed on as they come, or sorted and cut on each part and
// merged on the host, or, for a large sort or DISTINCT, on one device.
func rowsRoute(p *engine.Plan) route {
	switch {
	case len(p.OrderBy) == 0 && !p.Distinct && p.Limit < 0 && p.Offset == 0:
		return routeStream
	case p.Limit >= 0 && p.Offset+p.Limit <= maxMergeRows:
		for _, e := range p.Project {
			if e.Type().Kind == engine.KindInterval { // host tables cannot hold them (engine.HostFromBatchesExact)
				return routeGather
			}
		}
		return routeScan
	}
	return routeGather
}

// broadcastRoute is p's route with its split tables as they are.
func (b *Backend) broadcastRoute(p *engine.Plan) split {
	leaf := p
	if p.Input != nil {
		if leaf = probeLeaf(p.Input); leaf == nil || leafCount(p, leaf.Data) != 1 || !broadcastable(p, leaf) {
			return split{route: routeGather}
		}
	}
	t, ok := leaf.Data.(*Table)
	if !ok || len(p.GroupingSets) > 0 {
		return split{route: routeGather}
	}
	sp := split{probe: t, leaf: leaf}
	switch {
	case len(t.segs) == 1 && p.Input == nil:
		sp.route = routeOne
	case len(t.segs) == 1:
		sp.route = routeGather
	case p.Aggregate && splittable(p) && b.fewGroups(p):
		sp.route = routeAggregate
	case p.Aggregate:
		sp.route = routeGather
	default:
		sp.route = rowsRoute(p)
	}
	return sp
}

// maxGroups and maxMergeRows bound what the host merges: the groups of a
// split aggregate (by the planner's statistics), and the rows of a split
// ORDER BY ... LIMIT. Past them the table is gathered and one device
// keeps its groups or sorts its rows (merging millions of partial groups
// on the host was 10x slower than one GPU on TPC-H Q10). Where the first
// part can merge what the statistics underestimated (DeviceMergeRows),
// a split aggregate may have maxDeviceGroups: the estimates of text keys
// count every distinct value of the table, not those the joins keep
// (TPC-H Q21's 100,000 supplier names, of which 4,000 remain). Merging
// many is not free: TPC-H Q11 split over two H100s, with 150,000 partial
// groups a part, took 33-41 ms against 12-13 ms on one GPU.
const (
	maxGroups       = 100_000
	maxDeviceGroups = 200_000
	maxMergeRows    = 100_000
	smallProbe      = 1 << 20 // rows below which broadcasting costs nothing to speak of
)

// fewGroups reports whether p's GROUP BY keys have at most maxGroups
// combinations by the stored columns' statistics. A computed key has at
// most the combinations of the columns it reads (extract(year from d) no
// more than d); one that reads an untraceable column, or random(), counts
// as many. (The planner's estimate of a join's rows is no cap: it fell
// below the groups TPC-H Q11 has, whose split merge was 3x slower.)
func (b *Backend) fewGroups(p *engine.Plan) bool {
	n := 1.0
	for _, g := range p.GroupBy {
		d, ok := b.keyDistinct(p, g)
		if !ok {
			return false
		}
		n *= max(d, 1) + 1 // + 1: a NULL group
	}
	if _, ok := b.parts[0].(engine.TableStore); ok && b.parts[0] != b.host {
		return n <= maxDeviceGroups
	}
	return n <= maxGroups
}

// keyDistinct estimates the distinct values of g, an expression over p's
// input: at most the product of those of the columns it reads.
func (b *Backend) keyDistinct(p *engine.Plan, g engine.Expr) (float64, bool) {
	n, ok := 1.0, true
	engine.WalkExpr(g, func(e engine.Expr) bool {
		switch e := e.(type) {
		case *engine.ColRef:
			var d float64
			var found bool
			if p.Input != nil {
				d, found = b.distinct(p.Input, e.Idx)
			} else {
				d, found = b.leafDistinct(p.Data, e.Idx)
			}
			if !found {
				ok = false
			}
			n *= max(d, 1)
		case *engine.Call:
			if e.Op == engine.OpRandom {
				ok = false
			}
		case *engine.Const, *engine.Case:
		default:
			ok = false // a host function: not known to be a function of its arguments
		}
		return ok
	})
	return n, ok
}

// distinct estimates the distinct values of output column i of r, where
// it is computed from stored columns passed through.
func (b *Backend) distinct(r engine.Rel, i int) (float64, bool) {
	switch r := r.(type) {
	case *engine.Plan:
		if r.Aggregate || i >= len(r.Project) {
			return 0, false
		}
		return b.keyDistinct(r, r.Project[i])
	case *engine.Join:
		nl := len(r.Left.Columns())
		if i < nl {
			return b.distinct(r.Left, i)
		}
		return b.distinct(r.Right, i-nl)
	}
	return 0, false
}

func (b *Backend) leafDistinct(d engine.TableData, col int) (float64, bool) {
	if _, ok := d.(*Table); !ok {
		return 0, false
	}
	st := b.ColumnStats(d, col)
	return st.Distinct, st.Distinct > 0
}

// broadcastable reports whether the tables p's tree reads besides leaf's
// are small enough to copy to every device: a quarter of leaf's rows in
// all. Past that each device's build of them costs more than the halved
// probe saves (TPC-H Q4 and Q5 ran slower split than on one GPU).
func broadcastable(p *engine.Plan, leaf *engine.Plan) bool {
	if leaf.Data.Rows() < smallProbe {
		return true // small either way: split, which keeps the route tested
	}
	var others int64
	engine.WalkRel(p, func(x engine.Rel) {
		if q, ok := x.(*engine.Plan); ok && q.Input == nil && q != leaf && q.Data != nil {
			others += q.Data.Rows()
		}
	})
	return others*4 <= leaf.Data.Rows()
}

// probeLeaf is the leaf reading a split table through which r is linear,
// the one with the most rows where there are several; nil if none. Row-
// wise plans (filter, project) pass rows through; an inner join is linear
// in either side, a left, semi or anti join in its left, a right join in
// its right. Aggregates, DISTINCT, sorts, limits, windows, set operations
// and full joins are not.
func probeLeaf(r engine.Rel) *engine.Plan {
	switch r := r.(type) {
	case *engine.Plan:
		if r.Aggregate || r.Distinct || len(r.OrderBy) > 0 || r.Limit >= 0 || r.Offset > 0 || len(r.GroupingSets) > 0 {
			return nil
		}
		if r.Input != nil {
			return probeLeaf(r.Input)
		}
		if _, ok := r.Data.(*Table); ok {
			return r
		}
	case *engine.Join:
		var a, b *engine.Plan
		switch r.Kind {
		case engine.JoinInner:
			a, b = probeLeaf(r.Left), probeLeaf(r.Right)
		case engine.JoinLeft, engine.JoinSemi, engine.JoinAnti, engine.JoinAntiNull:
			a = probeLeaf(r.Left)
		case engine.JoinRight:
			a = probeLeaf(r.Right)
		}
		if a == nil || b != nil && b.Data.Rows() > a.Data.Rows() {
			return b
		}
		return a
	}
	return nil
}

// leafCount is how many leaves of r read d.
func leafCount(r engine.Rel, d engine.TableData) int {
	n := 0
	engine.WalkRel(r, func(x engine.Rel) {
		if p, ok := x.(*engine.Plan); ok && p.Input == nil && p.Data == d {
			n++
		}
	})
	return n
}

// bind is r for one part: the probe leaf reads seg, and every other
// split table its copy gathered on the part.
func bind(r engine.Rel, leaf *engine.Plan, seg segment) (engine.Rel, error) {
	return rebind(r, func(q *engine.Plan) (engine.TableData, error) {
		if q == leaf {
			return seg.data, nil
		}
		if t, ok := q.Data.(*Table); ok {
			return t.gatheredOn(seg.part)
		}
		return q.Data, nil
	})
}

// rebind is a copy of r whose leaves read data(leaf) instead.
func rebind(r engine.Rel, data func(*engine.Plan) (engine.TableData, error)) (engine.Rel, error) {
	var err error
	switch r := r.(type) {
	case *engine.Plan:
		q := *r
		if r.Input == nil {
			if q.Data, err = data(r); err != nil {
				return nil, err
			}
			return &q, nil
		}
		if q.Input, err = rebind(r.Input, data); err != nil {
			return nil, err
		}
		return &q, nil
	case *engine.Join:
		j := *r
		if j.Left, err = rebind(r.Left, data); err != nil {
			return nil, err
		}
		if j.Right, err = rebind(r.Right, data); err != nil {
			return nil, err
		}
		return &j, nil
	case *engine.SetOp:
		x := *r
		if x.Left, err = rebind(r.Left, data); err != nil {
			return nil, err
		}
		if x.Right, err = rebind(r.Right, data); err != nil {
			return nil, err
		}
		return &x, nil
	case *engine.Window:
		w := *r
		if w.Input, err = rebind(r.Input, data); err != nil {
			return nil, err
		}
		return &w, nil
	case *engine.ProjectSet:
		ps := *r
		if ps.Input, err = rebind(r.Input, data); err != nil {
			return nil, err
		}
		return &ps, nil
	}
	return nil, engine.Errorf(engine.CodeInternalError, "multi: unknown plan node %T", r)
}

// splittable reports whether p's aggregates can be computed per part and
// combined exactly: count, min and max, and sum over integers and
// numerics. (A float sum is exact over all the values, not over rounded
// partial sums; DISTINCT needs every value in one place.)
func splittable(p *engine.Plan) bool {
	for _, g := range p.GroupBy {
		if g.Type().Kind == engine.KindInterval {
			return false
		}
	}
	for _, a := range p.Aggs {
		if a.Sep != nil || a.Arg2 != nil || len(a.Order) > 0 {
			return false
		}
		switch a.Func {
		case engine.AggCountStar, engine.AggCount:
			if a.Distinct {
				return false
			}
		case engine.AggMin, engine.AggMax:
			if a.Arg.Type().Kind == engine.KindInterval {
				return false
			}
		case engine.AggSum:
			k := a.Arg.Type().Kind
			if a.Distinct || !(k == engine.KindInt16 || k == engine.KindInt32 || k == engine.KindInt64 || k == engine.KindNumeric) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// Execute runs p: on every part at once where the plan splits, else on
// the first part over gathered data.
func (b *Backend) Execute(ctx context.Context, p *engine.Plan, sink engine.BatchSink) error {
	sp := b.routeOf(p)
	switch sp.route {
	case routeOne:
		q := *p
		q.Data = sp.probe.segs[0].data
		return b.parts[sp.probe.segs[0].part].Execute(ctx, &q, sink)
	case routeAggregate:
		return b.aggregate(ctx, p, sp, sink)
	case routeScan:
		return b.scan(ctx, p, sp, sink)
	case routeStream:
		return b.stream(ctx, p, sp, sink)
	}
	return b.parts[0].Execute(ctx, p, sink) // the part reads gathered data (engine.LocalData)
}

// Explain says how p runs over its parts, then the first part's own
// account of the plan.
func (b *Backend) Explain(p *engine.Plan) []string {
	var lines []string
	sp := b.routeOf(p)
	if sp.probe != nil || readsPartitioned(p) {
		n := len(b.parts)
		if sp.probe != nil {
			n = len(sp.probe.segs)
		}
		how := [...]string{
			"the tables' parts are gathered on " + b.names[0] + " (once per table version), where the plan runs",
			"one part holds every row; the plan runs there",
			fmt.Sprintf("%d parts aggregate their rows at once; the partial aggregates are merged on the host", n),
			fmt.Sprintf("%d parts filter and sort their rows at once; the rows are merged on the host", n),
			fmt.Sprintf("%d parts scan their rows at once; the rows are passed on in the table's order", n),
		}[sp.route]
		switch {
		case sp.hp != nil:
			how = fmt.Sprintf("%d parts each join their share of the rows, redistributed by key (%s; the copies are kept per table version), and read the other tables whole; ", n, sp.hp.describe())
			switch sp.route {
			case routeAggregate:
				how += "the partial aggregates are merged on the host"
			case routeScan:
				how += "each part sorts and cuts its rows, which are merged on the host"
			default:
				how += "the rows are passed on part by part"
			}
			if p.Aggregate && sp.route != routeAggregate {
				how += " (every group is on one part)"
			}
		case sp.route >= routeAggregate && p.Input != nil:
			how += "; each part reads the other tables whole, gathered on its device"
		}
		lines = append(lines, "Partitioned: "+how)
	}
	if x, ok := b.parts[0].(engine.Explainer); ok {
		q := *p
		if t, ok := p.Data.(*Table); ok {
			q.Data = t.segs[0].data // the part's own data, for its column layout
		}
		lines = append(lines, x.Explain(&q)...)
	}
	return lines
}

func readsPartitioned(r engine.Rel) bool {
	found := false
	engine.WalkRel(r, func(n engine.Rel) {
		if p, ok := n.(*engine.Plan); ok {
			if _, ok := p.Data.(*Table); ok {
				found = true
			}
		}
	})
	return found
}

// partPlan is p for the part holding seg: over seg itself, or over its
// tree bound to the part (bind).
func partPlan(p *engine.Plan, sp split, seg segment) (*engine.Plan, error) {
	if p.Input == nil {
		q := *p
		q.Data = seg.data
		return &q, nil
	}
	in, err := bind(p.Input, sp.leaf, seg)
	if err != nil {
		return nil, err
	}
	q := *p
	q.Input = in
	return &q, nil
}

// unit is one part's share of a split plan.
type unit struct {
	part int
	plan func() (*engine.Plan, error)
}

// units are p's shares: one per segment of sp's probe table, or one per
// part over the hashed copies.
func (b *Backend) units(ctx context.Context, p *engine.Plan, sp split) ([]unit, error) {
	if sp.hp != nil {
		if err := sp.hp.prepare(ctx); err != nil {
			return nil, err
		}
		out := make([]unit, len(b.parts))
		for j := range out {
			out[j] = unit{part: j, plan: func() (*engine.Plan, error) {
				in, err := sp.hp.bindHashed(ctx, p.Input, j)
				if err != nil {
					return nil, err
				}
				q := *p
				q.Input = in
				return &q, nil
			}}
		}
		return out, nil
	}
	out := make([]unit, len(sp.probe.segs))
	for i, s := range sp.probe.segs {
		out[i] = unit{part: s.part, plan: func() (*engine.Plan, error) { return partPlan(p, sp, s) }}
	}
	return out, nil
}

// onParts runs p's shares (units), the shares of each part one after
// another and the parts at once, and returns each share's result batches
// (copies) in order: the table's, for segments. The first error in that
// order wins.
func (b *Backend) onParts(ctx context.Context, p *engine.Plan, sp split) ([][]*engine.Batch, error) {
	us, err := b.units(ctx, p, sp)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	out := make([][]*engine.Batch, len(us))
	errs := make([]error, len(us))
	byPart := map[int][]int{}
	for i, u := range us {
		byPart[u.part] = append(byPart[u.part], i)
	}
	var wg sync.WaitGroup
	for part, idx := range byPart {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, i := range idx {
				var q *engine.Plan
				q, errs[i] = us[i].plan()
				if errs[i] != nil {
					cancel()
					return
				}
				errs[i] = b.parts[part].Execute(ctx, q, func(bt *engine.Batch) error {
					out[i] = append(out[i], cloneBatch(bt))
					return nil
				})
				if errs[i] != nil {
					cancel()
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil && !isCancel(err) {
			return nil, err
		}
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// isCancel reports whether err is the cancellation onParts caused itself
// after another part's error.
func isCancel(err error) bool {
	e, ok := err.(*engine.Error)
	return ok && e.Code == engine.CodeQueryCanceled
}

// aggregate runs p's aggregation on every part, then merges the groups'
// partial results on the host and finishes p there (HAVING, the
// projection, DISTINCT, ORDER BY, LIMIT).
func (b *Backend) aggregate(ctx context.Context, p *engine.Plan, sp split, sink engine.BatchSink) error {
	nk := len(p.GroupBy)
	n := nk + len(p.Aggs)
	types := make([]engine.Type, n)
	refs := make([]engine.Expr, n)
	names := make([]string, n)
	schema := make([]engine.ColumnDef, n)
	for i := range n {
		if i < nk {
			types[i] = p.GroupBy[i].Type()
			names[i] = fmt.Sprintf("key%d", i)
		} else {
			types[i] = p.Aggs[i-nk].T
			names[i] = fmt.Sprintf("agg%d", i-nk)
		}
		refs[i] = &engine.ColRef{Idx: i, Name: names[i], T: types[i]}
		schema[i] = engine.ColumnDef{Name: names[i], Type: types[i]}
	}
	partial := *p
	partial.Having, partial.Distinct, partial.DistinctOn, partial.OrderBy = nil, false, nil, nil
	partial.Offset, partial.Limit = 0, -1
	partial.Project, partial.Names, partial.Visible = refs, names, n
	parts, err := b.onParts(ctx, &partial, sp)
	if err != nil {
		return err
	}
	h, err := engine.HostFromBatchesExact(types, flatten(parts))
	if err != nil {
		return err
	}
	// The merge: the same groups over the partial results, counts and
	// integer sums added as numerics and cast back.
	merge := &engine.Plan{Table: p.Table, Schema: schema, Data: h, Aggregate: true,
		Limit: -1, Visible: n, Names: names, Project: make([]engine.Expr, n)}
	for i := range nk {
		merge.GroupBy = append(merge.GroupBy, refs[i])
		merge.Project[i] = refs[i]
	}
	for j, a := range p.Aggs {
		in, out := refs[nk+j], engine.Expr(&engine.ColRef{Idx: nk + j, Name: names[nk+j], T: a.T})
		c := engine.AggCall{Func: a.Func, Arg: in, T: a.T}
		if a.Func == engine.AggCountStar || a.Func == engine.AggCount || a.Func == engine.AggSum {
			c.Func = engine.AggSum
			if a.T.Kind != engine.KindNumeric {
				c.T = engine.Numeric
				out = &engine.Call{Op: engine.OpCast, Args: []engine.Expr{&engine.ColRef{Idx: nk + j, Name: names[nk+j], T: engine.Numeric}}, T: a.T}
			}
		}
		merge.Aggs = append(merge.Aggs, c)
		merge.Project[nk+j] = out
	}
	final := &engine.Plan{Input: merge, Filter: p.Having, Project: p.Project, Distinct: p.Distinct, DistinctOn: p.DistinctOn,
		OrderBy: p.OrderBy, Offset: p.Offset, Limit: p.Limit, Visible: p.Visible, Names: p.Names}
	// Many partial groups (the statistics guessed too few) are merged on
	// the first part's device rather than on the host, unless a partial
	// numeric holds values of several scales (a sum of CASE … ELSE 0),
	// whose groups must each show their own: the host merge does (the
	// device would store them as a rowScales column, a path the split
	// corpus has not covered).
	if ts, ok := b.parts[0].(engine.TableStore); ok && h.N > int64(b.o.DeviceMergeRows) && b.parts[0] != b.host && !mixedScales(h) {
		d, err := ts.Store(h, engine.StoreOptions{Table: p.Table})
		if err != nil {
			return err
		}
		defer d.Release()
		merge.Data = d
		return b.parts[0].Execute(ctx, final, sink)
	}
	return b.host.Execute(ctx, final, sink)
}

// scan runs p's filter and projection on every part, each part sorting
// and cutting its rows to the first Offset+Limit where p does, then
// finishes p over all the parts' rows on the host.
func (b *Backend) scan(ctx context.Context, p *engine.Plan, sp split, sink engine.BatchSink) error {
	n := len(p.Project)
	partial := *p
	partial.Offset, partial.Visible = 0, n
	if p.Limit >= 0 {
		partial.Limit = p.Offset + p.Limit
	}
	partial.Names = append(append([]string(nil), p.Names...), make([]string, n-len(p.Names))...)
	parts, err := b.onParts(ctx, &partial, sp)
	if err != nil {
		return err
	}
	types := make([]engine.Type, n)
	refs := make([]engine.Expr, n)
	schema := make([]engine.ColumnDef, n)
	for i, e := range p.Project {
		types[i] = e.Type()
		name := fmt.Sprintf("col%d", i)
		refs[i] = &engine.ColRef{Idx: i, Name: name, T: types[i]}
		schema[i] = engine.ColumnDef{Name: name, Type: types[i]}
	}
	h, err := engine.HostFromBatchesExact(types, flatten(parts))
	if err != nil {
		return err
	}
	final := &engine.Plan{Table: p.Table, Schema: schema, Data: h, Project: refs, Distinct: p.Distinct, DistinctOn: p.DistinctOn,
		OrderBy: p.OrderBy, Offset: p.Offset, Limit: p.Limit, Visible: p.Visible, Names: p.Names}
	return b.host.Execute(ctx, final, sink)
}

// stream runs p on every part at once and passes the rows on in the
// table's order.
func (b *Backend) stream(ctx context.Context, p *engine.Plan, sp split, sink engine.BatchSink) error {
	parts, err := b.onParts(ctx, p, sp)
	if err != nil {
		return err
	}
	for _, bt := range flatten(parts) {
		if err := sink(bt); err != nil {
			return err
		}
	}
	return nil
}

func flatten(parts [][]*engine.Batch) []*engine.Batch {
	var out []*engine.Batch
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// cloneBatch copies a batch a sink was lent, strings included.
func cloneBatch(b *engine.Batch) *engine.Batch {
	out := &engine.Batch{N: b.N, Cols: make([]*engine.Vec, len(b.Cols))}
	for k, v := range b.Cols {
		c := &engine.Vec{T: v.T, N: v.N}
		c.Null, c.I, c.F, c.D, c.V = clone(v.Null), clone(v.I), clone(v.F), clone(v.D), clone(v.V)
		if v.S != nil {
			size := 0
			for _, s := range v.S {
				size += len(s)
			}
			arena := make([]byte, 0, size)
			c.S = make([][]byte, len(v.S))
			for i, s := range v.S {
				start := len(arena)
				arena = append(arena, s...)
				c.S[i] = arena[start:len(arena):len(arena)]
			}
		}
		out.Cols[k] = c
	}
	return out
}

// clone copies s, nil staying nil (a vector's nil slices say which kind
// of values it holds).
func clone[T any](s []T) []T {
	if s == nil {
		return nil
	}
	return append(make([]T, 0, len(s)), s...)
}

// mixedScales reports whether a column of h holds numerics of several
// scales.
func mixedScales(h *engine.HostTable) bool {
	for _, c := range h.Cols {
		if c.MixedScales() {
			return true
		}
	}
	return false
}
