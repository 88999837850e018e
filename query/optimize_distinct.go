package query

import "github.com/gpusql/gpusql/engine"

// splitDistinct plans an aggregation whose DISTINCT aggregates all read
// one expression x, such as
//
//	SELECT k, count(DISTINCT x), count(*) FROM t GROUP BY k
//
// as two aggregations: the inner one groups by the keys and x, which
// leaves each distinct (keys, x) pair once, and the outer one groups
// its rows by the keys alone and aggregates x with no DISTINCT. Both are
// plain GROUP BYs, which every backend runs at any number of groups
// (the GPU keeps both on the device), where a DISTINCT aggregate keeps a
// set of values per group. The results are the same: count, sum and avg
// of DISTINCT x are those of x over the distinct pairs, and min and max
// (with or without DISTINCT) do not depend on repeats.
//
// The other aggregates may be count(*), count, min and max of anything,
// and sum over integers and numerics: the inner aggregation computes
// them per pair, and the outer one adds the partial counts and sums (a
// count or an integer sum comes back to bigint, its type) and takes the
// min and max of the partial ones. Those need GROUP BY: over no rows at
// all, a count is 0 where the sum of no partial counts is NULL.
//
// It applies where x is neither a float nor an interval (whose equal
// values can differ in how they show), without grouping sets. The
// aggregation's output keeps its layout (the keys, then the aggregates),
// so HAVING, the projection and ORDER BY read it as before, with a cast
// where a partial count is added up.
func splitDistinct(p *engine.Plan) *engine.Plan {
	if !p.Aggregate || len(p.Aggs) == 0 || len(p.GroupingSets) > 0 {
		return p
	}
	var x engine.Expr
	for _, a := range p.Aggs {
		if a.Sep != nil || a.Arg2 != nil || len(a.Order) > 0 {
			return p
		}
		if !a.Distinct {
			continue
		}
		switch a.Func {
		case engine.AggCount, engine.AggSum, engine.AggAvg, engine.AggMin, engine.AggMax:
		default:
			return p
		}
		if x == nil {
			x = a.Arg
		} else if x.String() != a.Arg.String() {
			return p
		}
	}
	if x == nil {
		return p
	}
	partial, distinct := false, false
	for _, a := range p.Aggs {
		switch {
		case a.Distinct && a.Func != engine.AggMin && a.Func != engine.AggMax:
			distinct = true
		case a.Distinct || onX(a, x):
		case splittable(a):
			partial = true
		default:
			return p
		}
	}
	if !distinct || partial && len(p.GroupBy) == 0 {
		return p
	}
	if t := x.Type(); t.IsFloat() || t.Kind == engine.KindInterval {
		return p
	}
	nk := len(p.GroupBy)
	inner := &engine.Plan{
		Input: p.Input, Table: p.Table, Host: p.Host, Schema: p.Schema, Data: p.Data,
		Filter: p.Filter, Aggregate: true, Limit: -1,
		GroupBy: append(append([]engine.Expr(nil), p.GroupBy...), x),
	}
	outer := *p
	outer.Input, outer.Table, outer.Schema, outer.Data, outer.Filter = inner, "", nil, nil, nil
	outer.GroupBy = make([]engine.Expr, nk)
	for i, g := range inner.GroupBy {
		name := "k"
		if i == nk {
			name = "x"
		}
		ref := &engine.ColRef{Idx: i, Name: name, T: g.Type()}
		inner.Project = append(inner.Project, ref)
		inner.Names = append(inner.Names, name)
		if i < nk {
			outer.GroupBy[i] = ref
		}
	}
	xr := &engine.ColRef{Idx: nk, Name: "x", T: x.Type()}
	outer.Aggs = make([]engine.AggCall, len(p.Aggs))
	casts := map[int]engine.Expr{} // aggregate output column → its value
	for i, a := range p.Aggs {
		if a.Distinct || onX(a, x) {
			a.Arg, a.Distinct = xr, false
			outer.Aggs[i] = a
			continue
		}
		// a partial aggregate per pair, and its combination
		inner.Aggs = append(inner.Aggs, a)
		ref := &engine.ColRef{Idx: nk + len(inner.Aggs), Name: a.String(), T: a.T}
		inner.Project = append(inner.Project, ref)
		inner.Names = append(inner.Names, "")
		outer.Aggs[i] = engine.AggCall{Func: a.Func, Arg: ref, T: a.T}
		if a.Func == engine.AggCountStar || a.Func == engine.AggCount || a.Func == engine.AggSum && a.T.Kind != engine.KindNumeric {
			outer.Aggs[i] = engine.AggCall{Func: engine.AggSum, Arg: ref, T: engine.Numeric}
			c, err := castTo(&engine.ColRef{Idx: nk + i, Name: "sum", T: engine.Numeric}, a.T)
			if err != nil {
				return p
			}
			casts[nk+i] = c
		}
	}
	inner.Visible = len(inner.Project)
	if len(casts) > 0 {
		sub := func(c *engine.ColRef) engine.Expr {
			if v, ok := casts[c.Idx]; ok {
				return v
			}
			return c
		}
		if p.Having != nil {
			outer.Having = mapCols(p.Having, sub)
		}
		outer.Project = make([]engine.Expr, len(p.Project))
		for i, e := range p.Project {
			outer.Project[i] = mapCols(e, sub)
		}
	}
	return &outer
}

// onX reports whether a is min or max of x.
func onX(a engine.AggCall, x engine.Expr) bool {
	return (a.Func == engine.AggMin || a.Func == engine.AggMax) && a.Arg.String() == x.String()
}

// splittable reports whether a (not DISTINCT) can be computed per
// (keys, x) pair and combined: count(*), count, min, max, and sum
// over integers and numerics (float sums are exact over all the values,
// not over rounded partial sums).
func splittable(a engine.AggCall) bool {
	switch a.Func {
	case engine.AggCountStar, engine.AggCount, engine.AggMin, engine.AggMax:
		return true
	case engine.AggSum:
		k := a.Arg.Type().Kind
		return k == engine.KindInt16 || k == engine.KindInt32 || k == engine.KindInt64 || k == engine.KindNumeric
	}
	return false
}
