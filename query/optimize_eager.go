package query

import "github.com/gpusql/gpusql/engine"

// Aggregation before a join. TPC-H Q13 counts each customer's orders
// with a LEFT JOIN of customer (1.5 M rows at SF 10) and orders (15 M)
// grouped by c_custkey: the join writes 15 M pairs only for the GROUP BY
// to fold them back into 1.5 M groups. When a GROUP BY over an inner or
// left join on keys groups by columns of the left side only, and its
// aggregates read the right side only, the right side can be grouped by
// its join keys first:
//
//	GROUP BY g(l) of agg(r) over l JOIN r ON l.k = r.k
//	  = GROUP BY g(l) of fin(p) over l JOIN (GROUP BY r.k of part(r)) p ON l.k = p.k
//
// Each left row meets at most one partial row, holding what it met of
// the right side, so the final aggregate combines, per group, one partial
// per left row: count(x) and count(*) as the sum of the partial counts
// (a left row that met nothing counts 0, or 1 for count(*) under a LEFT
// JOIN, as its NULL-extended row did), min and max as the min and max of
// the partials. A NULL key meets nothing either way. The rewrite is made
// only where the right side has at least eagerRatio rows per distinct
// key, so that the partial groups are much fewer than its rows.

// eagerRatio: the right side's rows per distinct join key, at least.
const eagerRatio = 4

// eagerAggs rewrites the GROUP BYs of tree r (see the top).
func (o *optimizer) eagerAggs(r engine.Rel) engine.Rel {
	switch x := r.(type) {
	case *engine.Plan:
		if x.Input == nil {
			return r
		}
		q := *x
		q.Input = o.eagerAggs(x.Input)
		if out, ok := o.eager(&q); ok {
			return out
		}
		if q.Input == x.Input {
			return r
		}
		return &q
	case *engine.Join:
		j := *x
		j.Left, j.Right = o.eagerAggs(x.Left), o.eagerAggs(x.Right)
		if j.Left == x.Left && j.Right == x.Right {
			return r
		}
		return &j
	}
	return r
}

// eager returns p aggregated before its join, when it can be (see the
// top): a plan that groups the join with the partials' right side and
// finishes the aggregates, under a plan that does what p did after its
// aggregation (HAVING, the projection, DISTINCT, ORDER BY, LIMIT).
func (o *optimizer) eager(p *engine.Plan) (*engine.Plan, bool) {
	// (without GROUP BY, no rows would give the sum of no partial counts,
	// NULL, where the count is 0)
	if !p.Aggregate || p.Host || p.Filter != nil || len(p.GroupingSets) > 0 || len(p.Aggs) == 0 || len(p.GroupBy) == 0 {
		return nil, false
	}
	j, ok := p.Input.(*engine.Join)
	if !ok || (j.Kind != engine.JoinInner && j.Kind != engine.JoinLeft) || j.Residual != nil || len(j.LeftKeys) == 0 {
		return nil, false
	}
	nl := engine.NumColumns(j.Left)
	left := map[int]bool{}
	for _, e := range p.GroupBy {
		colsOf(e, left)
	}
	for c := range left {
		if c >= nl {
			return nil, false
		}
	}
	// the partial aggregates over the right side's columns
	var parts []engine.AggCall
	for _, a := range p.Aggs {
		if a.Distinct || a.Sep != nil || a.Arg2 != nil || len(a.Order) > 0 {
			return nil, false
		}
		part := a
		switch a.Func {
		case engine.AggCountStar:
		case engine.AggCount, engine.AggMin, engine.AggMax:
			cols := map[int]bool{}
			colsOf(a.Arg, cols)
			if len(cols) == 0 {
				return nil, false
			}
			for c := range cols {
				if c < nl {
					return nil, false
				}
			}
			part.Arg = shiftBy(a.Arg, -nl)
		default:
			return nil, false
		}
		parts = append(parts, part)
	}
	// worth it: the right side's rows per distinct key
	est := o.estimate(j.Right)
	keys := 1.0
	for _, k := range j.RightKeys {
		c, ok := k.(*engine.ColRef)
		if !ok || c.Idx >= len(est.cols) || est.cols[c.Idx].Distinct <= 0 || !hashable(c.Type()) {
			return nil, false
		}
		keys *= est.cols[c.Idx].Distinct
	}
	if est.rows < eagerRatio*keys {
		return nil, false
	}
	nk := len(j.RightKeys)
	partial := &engine.Plan{Input: j.Right, Table: "(partial)", Aggregate: true, GroupBy: j.RightKeys, Aggs: parts, Limit: -1, Optimized: true}
	for i, k := range j.RightKeys {
		partial.Project = append(partial.Project, &engine.ColRef{Idx: i, Name: "key", T: k.Type()})
		partial.Names = append(partial.Names, "key")
	}
	for i, a := range parts {
		partial.Project = append(partial.Project, &engine.ColRef{Idx: nk + i, Name: a.Func.String(), T: a.T})
		partial.Names = append(partial.Names, a.Func.String())
	}
	partial.Visible = len(partial.Project)
	// each left row meets at most one partial row
	nj := &engine.Join{Kind: j.Kind, Left: j.Left, Right: partial, LeftKeys: j.LeftKeys, Est: min(j.Est, o.estimate(j.Left).rows)}
	for i, k := range j.RightKeys {
		nj.RightKeys = append(nj.RightKeys, &engine.ColRef{Idx: i, Name: "key", T: k.Type()})
	}
	// the final aggregates, over the join's partial columns
	ng := len(p.GroupBy)
	grouped := &engine.Plan{Input: nj, Table: "(eager)", Aggregate: true, GroupBy: p.GroupBy, Limit: -1, Optimized: true}
	for i := range p.GroupBy {
		grouped.Project = append(grouped.Project, &engine.ColRef{Idx: i, Name: "key", T: p.GroupBy[i].Type()})
		grouped.Names = append(grouped.Names, "key")
	}
	for i, a := range p.Aggs {
		pc := &engine.ColRef{Idx: nl + nk + i, Name: a.Func.String(), T: a.T}
		fin := engine.AggCall{Func: a.Func, Arg: pc, T: a.T}
		var out engine.Expr = &engine.ColRef{Idx: ng + i, Name: a.Func.String(), T: a.T}
		if a.Func == engine.AggCount || a.Func == engine.AggCountStar {
			// the sum of the partial counts, a numeric, back to bigint; a
			// left row that met nothing counts 0 (1 for count(*) under a
			// LEFT JOIN: its NULL-extended row)
			none := int64(0)
			if a.Func == engine.AggCountStar && j.Kind == engine.JoinLeft {
				none = 1
			}
			fin = engine.AggCall{Func: engine.AggSum, T: engine.Numeric, Arg: &engine.Call{Op: engine.OpCoalesce, T: a.T,
				Args: []engine.Expr{pc, &engine.Const{T: a.T, I: none}}}}
			var err error
			if out, err = castTo(&engine.ColRef{Idx: ng + i, Name: "sum", T: engine.Numeric}, a.T); err != nil {
				return nil, false
			}
		}
		grouped.Aggs = append(grouped.Aggs, fin)
		grouped.Project = append(grouped.Project, out)
		grouped.Names = append(grouped.Names, a.Func.String())
	}
	grouped.Visible = len(grouped.Project)
	// what p did after aggregating, over the same column layout
	top := *p
	top.Input, top.Table, top.Aggregate, top.GroupBy, top.Aggs = grouped, "", false, nil, nil
	top.Filter, top.Having = p.Having, nil
	top.Optimized = true
	return &top, true
}
