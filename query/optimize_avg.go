package query

import "github.com/gpusql/gpusql/engine"

// avgAsSum plans each avg over integers or numerics of a GROUP BY as a
// sum and a count, divided above the aggregation, as PostgreSQL's avg
// finishes (numeric_div of the sum by the count, which is what
// eval.SumAcc does too). Each group then holds only sums and counts,
// whose scales are fixed, where an avg's quotient has a scale of its own
// per group: the GPU keeps such groups on the device at any number of
// them (engine/gpu/groups.go) and divides only the rows it projects.
// Aggregations without GROUP BY (one row) and with grouping sets keep
// their avg.
func avgAsSum(p *engine.Plan) *engine.Plan {
	if !p.Aggregate || len(p.GroupBy) == 0 || len(p.GroupingSets) > 0 {
		return p
	}
	var q *engine.Plan
	nk := len(p.GroupBy)
	repl := map[int]engine.Expr{} // aggregate output column → its value
	for k, a := range p.Aggs {
		if a.Func != engine.AggAvg || a.Distinct || a.Arg == nil || a.T.Kind != engine.KindNumeric {
			continue
		}
		if q == nil {
			c := *p
			q = &c
			q.Aggs = append([]engine.AggCall(nil), p.Aggs...)
		}
		sumT := engine.Numeric
		if at := a.Arg.Type(); at.Kind == engine.KindInt16 || at.Kind == engine.KindInt32 {
			sumT = engine.Int64
		}
		q.Aggs[k] = engine.AggCall{Func: engine.AggSum, Arg: a.Arg, T: sumT}
		q.Aggs = append(q.Aggs, engine.AggCall{Func: engine.AggCount, Arg: a.Arg, T: engine.Int64})
		sum, err := castTo(&engine.ColRef{Idx: nk + k, Name: "sum", T: sumT}, engine.Numeric)
		if err != nil {
			return p
		}
		cnt, err := castTo(&engine.ColRef{Idx: nk + len(q.Aggs) - 1, Name: "count", T: engine.Int64}, engine.Numeric)
		if err != nil {
			return p
		}
		repl[nk+k] = &engine.Call{Op: engine.OpDiv, Args: []engine.Expr{sum, cnt}, T: a.T}
	}
	if q == nil {
		return p
	}
	sub := func(c *engine.ColRef) engine.Expr {
		if v, ok := repl[c.Idx]; ok {
			return v
		}
		return c
	}
	if p.Having != nil {
		q.Having = mapCols(p.Having, sub)
	}
	q.Project = make([]engine.Expr, len(p.Project))
	for i, e := range p.Project {
		q.Project[i] = mapCols(e, sub)
	}
	return q
}
