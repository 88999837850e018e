package query

import "github.com/gpusql/gpusql/engine"

// Join keys into a GROUP BY below the join. TPC-H Q17 joins part (2,000
// rows after its filter) with lineitem grouped by l_partkey (60 M rows
// into 2 M groups), and only the groups of those 2,000 parts survive the
// join: grouping the other 1,998,000 is wasted. When one side of an inner
// join on keys is a GROUP BY whose key column is the join key, and the
// other side is a filtered scan (scanLike) far smaller than the grouped
// input, the grouped input is first semi-joined with the other side's
// keys. The groups that remain
// are exactly those the join keeps, with the same aggregates (every row
// of a group shares its key); a NULL key matches neither.

// aggKeysRatio: the other side must be this many times smaller than the
// grouped input (it is read twice, once for its keys).
const aggKeysRatio = 2

// pushJoinKeys rewrites the joins of tree r (see the top).
func (o *optimizer) pushJoinKeys(r engine.Rel) engine.Rel {
	switch x := r.(type) {
	case *engine.Plan:
		if x.Input == nil {
			return r
		}
		in := o.pushJoinKeys(x.Input)
		if in == x.Input {
			return r
		}
		q := *x
		q.Input = in
		return &q
	case *engine.Join:
		j := *x
		j.Left, j.Right = o.pushJoinKeys(x.Left), o.pushJoinKeys(x.Right)
		if j.Kind == engine.JoinInner {
			for i := range j.LeftKeys {
				if g, ok := o.filteredGroups(j.Left, j.LeftKeys[i], j.Right, j.RightKeys[i]); ok {
					j.Left = g
					break
				}
				if g, ok := o.filteredGroups(j.Right, j.RightKeys[i], j.Left, j.LeftKeys[i]); ok {
					j.Right = g
					break
				}
			}
		}
		if j.Left == x.Left && j.Right == x.Right {
			return r
		}
		return &j
	}
	return r
}

// filteredGroups returns grouped side g with its input semi-joined on the
// keys otherKey of other, when g is a GROUP BY whose output column gKey
// is a group key column and other is small enough (see the top).
func (o *optimizer) filteredGroups(g engine.Rel, gKey engine.Expr, other engine.Rel, otherKey engine.Expr) (engine.Rel, bool) {
	p, ok := g.(*engine.Plan)
	if !ok || !p.Aggregate || p.Host || len(p.GroupingSets) > 0 || p.Distinct || len(p.OrderBy) > 0 || p.Limit >= 0 || p.Offset > 0 {
		return nil, false
	}
	if p.Input == nil && p.Data == nil {
		return nil, false
	}
	out, ok := gKey.(*engine.ColRef)
	if !ok || out.Idx >= len(p.Project) {
		return nil, false
	}
	ref, ok := p.Project[out.Idx].(*engine.ColRef)
	if !ok || ref.Idx >= len(p.GroupBy) {
		return nil, false
	}
	key, ok := p.GroupBy[ref.Idx].(*engine.ColRef) // over p's input
	if !ok || !hashable(key.Type()) || key.Type() != otherKey.Type() {
		return nil, false
	}
	if !scanLike(other) {
		// other is read twice: only a filtered scan is cheap enough. Below
		// inner joins, the filtered scan its key comes from will do: the
		// joins only drop its rows, so its keys hold every key of other
		// (TPC-H Q2: part, filtered, under the join with supplier, nation
		// and region), where its rows are far fewer than the groups (the
		// keys of all of orders, joined with customer above, would drop no
		// group of lineitem by l_orderkey)
		var ok bool
		if other, otherKey, ok = keyLeaf(other, otherKey); !ok {
			return nil, false
		}
		in := o.estimate(inputOf(p))
		if key.Idx >= len(in.cols) || o.estimate(other).rows*aggKeysRatio > in.cols[key.Idx].Distinct {
			return nil, false
		}
	}
	inRows := o.estimate(inputOf(p)).rows
	if o.estimate(other).rows*aggKeysRatio > inRows {
		return nil, false
	}
	keys := &engine.Plan{Input: other, Project: []engine.Expr{otherKey}, Visible: 1, Names: []string{"key"}, Limit: -1, Optimized: true}
	q := *p
	if p.Input != nil {
		q.Input = o.semiOn(p.Input, key, keys)
		return &q, true
	}
	// a scan that groups: the scan, with its filter, of the columns the
	// aggregation reads, then the semi join, then the grouping over it
	need := map[int]bool{}
	for _, e := range p.GroupBy {
		colsOf(e, need)
	}
	for _, a := range p.Aggs {
		for _, e := range a.Exprs() {
			colsOf(e, need)
		}
	}
	scan := &engine.Plan{Table: p.Table, Schema: p.Schema, Data: p.Data, Filter: p.Filter, Limit: -1, Optimized: true}
	at := make([]int, len(p.Schema)) // a table column → its place in the scan (-1: not read)
	for c := range p.Schema {
		at[c] = -1
		if need[c] {
			at[c] = len(scan.Project)
			scan.Project = append(scan.Project, &engine.ColRef{Idx: c, Name: p.Schema[c].Name, T: p.Schema[c].Type})
			scan.Names = append(scan.Names, p.Schema[c].Name)
		}
	}
	scan.Visible = len(scan.Project)
	q.Table, q.Schema, q.Data, q.Filter = "", nil, nil, nil
	q.GroupBy = make([]engine.Expr, len(p.GroupBy))
	for i, e := range p.GroupBy {
		q.GroupBy[i] = renumber(e, at)
	}
	q.Aggs = make([]engine.AggCall, len(p.Aggs))
	for i, a := range p.Aggs {
		q.Aggs[i] = renumberAgg(a, at)
	}
	q.Input = o.semiOn(scan, renumber(key, at), keys)
	return &q, true
}

// semiOn is in semi-joined on its column expression key with the one
// column of keys.
func (o *optimizer) semiOn(in engine.Rel, key engine.Expr, keys engine.Rel) engine.Rel {
	j := &engine.Join{Kind: engine.JoinSemi, Left: in, Right: keys,
		LeftKeys: []engine.Expr{key}, RightKeys: []engine.Expr{&engine.ColRef{Idx: 0, Name: "key", T: key.Type()}}}
	j.Est = o.estimate(j).rows
	return j
}

// keyLeaf finds, below the inner joins of r, the filtered scan (scanLike)
// that column key of r comes from, and the key's column there.
func keyLeaf(r engine.Rel, key engine.Expr) (engine.Rel, engine.Expr, bool) {
	ref, ok := key.(*engine.ColRef)
	if !ok {
		return nil, nil, false
	}
	for {
		if scanLike(r) {
			return r, ref, true
		}
		j, ok := r.(*engine.Join)
		if !ok || j.Kind != engine.JoinInner {
			return nil, nil, false
		}
		if nl := len(j.Left.Columns()); ref.Idx < nl {
			r = j.Left
		} else {
			r = j.Right
			ref = &engine.ColRef{Idx: ref.Idx - nl, Name: ref.Name, T: ref.T}
		}
	}
}

// scanLike reports whether r only filters one table: a scan, a
// projection or filter of one, or one semi- or anti-joined with another
// (TPC-H Q20's partsupp semi-joined with the parts of one name). Reading
// such a tree twice costs about what reading the table does.
func scanLike(r engine.Rel) bool {
	switch x := r.(type) {
	case *engine.Plan:
		if x.Aggregate || x.Host || x.Distinct || len(x.OrderBy) > 0 || x.Limit >= 0 || x.Offset > 0 || len(x.GroupingSets) > 0 {
			return false
		}
		return x.Input == nil || scanLike(x.Input)
	case *engine.Join:
		switch x.Kind {
		case engine.JoinSemi, engine.JoinAnti, engine.JoinAntiNull:
			return scanLike(x.Left) && scanLike(x.Right)
		}
	}
	return false
}

// inputOf is what p groups: its input node, or p's own scan.
func inputOf(p *engine.Plan) engine.Rel {
	if p.Input != nil {
		return p.Input
	}
	scan := *p
	scan.Aggregate, scan.GroupBy, scan.Aggs, scan.Having = false, nil, nil, nil
	scan.Project = nil
	for c, d := range p.Schema {
		scan.Project = append(scan.Project, &engine.ColRef{Idx: c, Name: d.Name, T: d.Type})
	}
	scan.Visible = len(scan.Project)
	scan.Names = nil
	for _, d := range p.Schema {
		scan.Names = append(scan.Names, d.Name)
	}
	scan.OrderBy, scan.Limit, scan.Offset, scan.Distinct = nil, -1, 0, false
	return &scan
}
