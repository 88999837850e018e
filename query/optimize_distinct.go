package query

import "github.com/gpusql/gpusql/engine"

// splitDistinct plans an aggregation whose aggregates all read DISTINCT
// values of one expression x, such as
//
//	SELECT k, count(DISTINCT x) FROM t GROUP BY k
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
// It applies when every aggregate is count, sum or avg of DISTINCT x, or
// min or max of x, over one x that is neither a float nor an interval
// (whose equal values can differ in how they show), without grouping
// sets. The aggregation's output keeps its layout (the keys, then the
// aggregates), so HAVING, the projection and ORDER BY are unchanged.
func splitDistinct(p *engine.Plan) *engine.Plan {
	if !p.Aggregate || len(p.Aggs) == 0 || len(p.GroupingSets) > 0 {
		return p
	}
	var x engine.Expr
	distinct := false
	for _, a := range p.Aggs {
		if a.Arg == nil || a.Sep != nil || a.Arg2 != nil || len(a.Order) > 0 {
			return p
		}
		switch a.Func {
		case engine.AggCount, engine.AggSum, engine.AggAvg:
			if !a.Distinct {
				return p
			}
			distinct = true
		case engine.AggMin, engine.AggMax:
		default:
			return p
		}
		if x == nil {
			x = a.Arg
		} else if x.String() != a.Arg.String() {
			return p
		}
	}
	if !distinct {
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
	inner.Visible = len(inner.Project)
	xr := &engine.ColRef{Idx: nk, Name: "x", T: x.Type()}
	outer.Aggs = make([]engine.AggCall, len(p.Aggs))
	for i, a := range p.Aggs {
		a.Arg, a.Distinct = xr, false
		outer.Aggs[i] = a
	}
	return &outer
}
