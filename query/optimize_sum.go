package query

import "github.com/gpusql/gpusql/engine"

// aggRewrites plans an aggregation's aggregates for speed, keeping its
// results: sums of a column plus constants (sumPlusConst), GROUP BY avg
// as a sum and a count (avgAsSum), DISTINCT aggregates as two GROUP BYs
// (splitDistinct, whose outer avg is then a sum and a count too).
func aggRewrites(p *engine.Plan) *engine.Plan {
	q := avgAsSum(splitDistinct(avgAsSum(sumPlusConst(p))))
	if q == p {
		return p
	}
	return dedupeAggs(q)
}

// dedupeAggs returns p computing each distinct aggregate once, where the
// rewrites left copies (TPC-H Q1's sum(l_quantity) beside the sum that
// avg(l_quantity) became); HAVING and the projection read the kept copy.
// p itself is not changed.
func dedupeAggs(p *engine.Plan) *engine.Plan {
	if !p.Aggregate || len(p.GroupingSets) > 0 || len(p.Aggs) < 2 {
		return p
	}
	nk := len(p.GroupBy)
	index := map[string]int{}
	var aggs []engine.AggCall
	move := map[int]int{} // output column → the kept copy's
	for k, a := range p.Aggs {
		key := a.String() + "|" + a.T.String()
		i, ok := index[key]
		if !ok {
			i = len(aggs)
			index[key] = i
			aggs = append(aggs, a)
		}
		if i != k {
			move[nk+k] = nk + i
		}
	}
	if len(aggs) == len(p.Aggs) {
		return p
	}
	q := *p
	q.Aggs = aggs
	sub := func(c *engine.ColRef) engine.Expr {
		if i, ok := move[c.Idx]; ok {
			r := *c
			r.Idx = i
			return &r
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
	return &q
}

// sumPlusConst plans sum(y + c), sum(y - c) and sum(c + y), for an
// integer constant c, as sum(y) + c * count(y), and then computes each
// distinct aggregate once: ClickBench's q29 adds up one column plus 0 to
// 89 in 90 sums, which become one sum and one count. Both are exact over
// integers, and both are NULL over no values (NULL + c * 0).
//
// It applies only where y + c cannot overflow on any row, so that the
// rewrite drops no error: y is a smallint widened to integer, and |c| is
// at most 2^20, which also keeps
// c * count(y) far inside bigint.
func sumPlusConst(p *engine.Plan) *engine.Plan {
	if !p.Aggregate || len(p.GroupingSets) > 0 {
		return p
	}
	found := false
	for _, a := range p.Aggs {
		if _, _, ok := plusConst(a); ok {
			found = true
			break
		}
	}
	if !found {
		return p
	}
	nk := len(p.GroupBy)
	q := *p
	q.Aggs = nil
	index := map[string]int{}
	add := func(a engine.AggCall) *engine.ColRef {
		key := a.String() + "|" + a.T.String()
		i, ok := index[key]
		if !ok {
			i = len(q.Aggs)
			index[key] = i
			q.Aggs = append(q.Aggs, a)
		}
		return &engine.ColRef{Idx: nk + i, Name: a.String(), T: a.T}
	}
	vals := map[int]engine.Expr{}
	for k, a := range p.Aggs {
		y, c, ok := plusConst(a)
		if !ok {
			vals[nk+k] = add(a)
			continue
		}
		sum := add(engine.AggCall{Func: engine.AggSum, Arg: y, T: a.T})
		cnt := add(engine.AggCall{Func: engine.AggCount, Arg: y, T: engine.Int64})
		prod := &engine.Call{Op: engine.OpMul, T: engine.Int64, Args: []engine.Expr{&engine.Const{T: engine.Int64, I: c}, cnt}}
		vals[nk+k] = &engine.Call{Op: engine.OpAdd, T: a.T, Args: []engine.Expr{sum, prod}}
	}
	sub := func(c *engine.ColRef) engine.Expr {
		if v, ok := vals[c.Idx]; ok {
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
	return &q
}

// plusConst matches a = sum(y + c), sum(y - c) or sum(c + y) as
// sumPlusConst applies it, returning y before its widening and the
// constant added.
func plusConst(a engine.AggCall) (engine.Expr, int64, bool) {
	if a.Func != engine.AggSum || a.Distinct || a.T.Kind != engine.KindInt64 {
		return nil, 0, false
	}
	call, ok := a.Arg.(*engine.Call)
	if !ok || len(call.Args) != 2 || call.Op != engine.OpAdd && call.Op != engine.OpSub {
		return nil, 0, false
	}
	y, k := call.Args[0], call.Args[1]
	if _, isConst := y.(*engine.Const); isConst && call.Op == engine.OpAdd {
		y, k = k, y
	}
	c, ok := k.(*engine.Const)
	if !ok || c.Null || !isInteger(c.T.Kind) || c.I > 1<<20 || c.I < -(1<<20) || !widened(y, call.T) {
		return nil, 0, false
	}
	v := c.I
	if call.Op == engine.OpSub {
		v = -v
	}
	// sum and count of the narrower values are the same, of the same
	// type (bigint), and may match another aggregate of the query
	return y.(*engine.Call).Args[0], v, true
}

// widened reports whether y is a cast to t, integer, from smallint: y + c
// (|c| ≤ 2^20) then fits in t on every row. (Over bigint y + c, sum is
// numeric, which sumPlusConst leaves.)
func widened(y engine.Expr, t engine.Type) bool {
	cast, ok := y.(*engine.Call)
	if !ok || cast.Op != engine.OpCast || len(cast.Args) != 1 || cast.T != t {
		return false
	}
	from := cast.Args[0].Type().Kind
	switch t.Kind {
	case engine.KindInt32:
		return from == engine.KindInt16
	}
	return false
}

func isInteger(k engine.Kind) bool {
	return k == engine.KindInt16 || k == engine.KindInt32 || k == engine.KindInt64
}
