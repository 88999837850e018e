package query

import (
	"math"
	"sort"

	"github.com/gpusql/gpusql/engine"
)

// Join planning: see optimize.go.

// join plans a Join node with conditions preds over its output.
func (o *optimizer) join(j *engine.Join, preds []engine.Expr, need []bool) (engine.Rel, []int, []engine.Expr, error) {
	nl := engine.NumColumns(j.Left)
	switch j.Kind {
	case engine.JoinRight:
		// A RIGHT JOIN is a LEFT JOIN with the sides swapped: its
		// columns are then the right ones first.
		nr := engine.NumColumns(j.Right)
		swap := make([]int, nl+nr) // old column → swapped column
		for c := range swap {
			if c < nl {
				swap[c] = nr + c
			} else {
				swap[c] = c - nl
			}
		}
		sw := &engine.Join{Kind: engine.JoinLeft, Left: j.Right, Right: j.Left, Residual: renumber(j.Residual, swap)}
		for i := range j.LeftKeys {
			sw.LeftKeys = append(sw.LeftKeys, j.RightKeys[i])
			sw.RightKeys = append(sw.RightKeys, j.LeftKeys[i])
		}
		sp := make([]engine.Expr, len(preds))
		for i, e := range preds {
			sp[i] = renumber(e, swap)
		}
		sneed := make([]bool, nl+nr)
		for c, n := range need {
			sneed[swap[c]] = n
		}
		out, m, rest, err := o.join(sw, sp, sneed)
		if err != nil {
			return nil, nil, nil, err
		}
		back := make([]int, nl+nr) // swapped column → old column
		for c, s := range swap {
			back[s] = c
		}
		om := make([]int, nl+nr)
		for c := range om {
			om[c] = m[swap[c]]
		}
		for i, e := range rest {
			rest[i] = renumber(e, back)
		}
		return out, om, rest, nil
	case engine.JoinLeft:
		for _, e := range preds {
			if rejectsNulls(e, func(c int) bool { return c >= nl }) {
				inner := *j
				inner.Kind = engine.JoinInner
				return o.innerGroup(&inner, preds, need)
			}
		}
		return o.twoSided(j, preds, need)
	case engine.JoinSemi, engine.JoinAnti, engine.JoinAntiNull:
		if pushed, ok := o.pushSemi(j); ok {
			// Below, the semi join filters its member before the inner
			// joins (TPC-H Q18); above them, it probes with their
			// output, which the WHERE conditions may have made far
			// smaller than the member (Q21: lineitem joined to one
			// nation's suppliers). Both are planned, with the
			// conditions in place, and the one that reads fewer rows
			// kept.
			down, dm, drest, err := o.rel(pushed, preds, need)
			if err != nil {
				return nil, nil, nil, err
			}
			up, um, urest, err := o.twoSided(j, preds, need)
			if err == nil && o.joinRows(up) < o.joinRows(down) {
				return up, um, urest, nil
			}
			return down, dm, drest, nil
		}
		return o.twoSided(j, preds, need)
	case engine.JoinFull:
		return o.twoSided(j, preds, need)
	}
	return o.innerGroup(j, preds, need)
}

// twoSided plans an outer, semi or anti join, which the planner does not
// reorder: conditions from above that read only the left side go into it
// (for a LEFT, semi or anti join, whose left rows pass through as they
// are), ON conditions that read only the right side into the right (for
// a LEFT, semi or anti join, whose right rows only count when they
// match), equalities across become keys, the rest stays the residual.
func (o *optimizer) twoSided(j *engine.Join, preds []engine.Expr, need []bool) (engine.Rel, []int, []engine.Expr, error) {
	nl, nr := engine.NumColumns(j.Left), engine.NumColumns(j.Right)
	pushable := j.Kind != engine.JoinFull
	var pushL, pushR, residual, rest []engine.Expr
	for _, e := range preds {
		if pushable && sideOf(e, nl) <= sideLeft {
			pushL = append(pushL, e)
		} else {
			rest = append(rest, e)
		}
	}
	lk := append([]engine.Expr(nil), j.LeftKeys...)
	rk := append([]engine.Expr(nil), j.RightKeys...)
	if j.Residual != nil {
		for _, e := range conjuncts(j.Residual) {
			if a, b, ok := equiPair(e, nl); ok && j.Kind != engine.JoinAntiNull {
				lk, rk = append(lk, a), append(rk, b)
				continue
			}
			if pushable && sideOf(e, nl) == sideRight {
				pushR = append(pushR, shiftBy(e, -nl))
				continue
			}
			residual = append(residual, e)
		}
	}
	if j.Kind == engine.JoinFull && len(lk) == 0 && !constantOnly(residual, nl) {
		// As PostgreSQL, which runs a full join only as a merge or hash
		// join: without a key, only a condition that reads no column
		// (ON true, ON false) joins.
		return nil, nil, nil, unsupported("FULL JOIN is only supported with merge-joinable or hash-joinable join conditions")
	}
	needL, needR := make([]bool, nl), make([]bool, nr)
	for c, n := range need {
		if !n {
			continue
		}
		if c < nl {
			needL[c] = true
		} else if c-nl < nr {
			needR[c-nl] = true
		}
	}
	mark := func(e engine.Expr, off int, into []bool) {
		set := map[int]bool{}
		colsOf(e, set)
		for c := range set {
			if c-off >= 0 && c-off < len(into) {
				into[c-off] = true
			}
		}
	}
	for _, e := range lk {
		mark(e, 0, needL)
	}
	for _, e := range rk {
		mark(e, 0, needR)
	}
	for _, e := range residual {
		mark(e, 0, needL)
		mark(e, nl, needR)
	}
	left, ml, err := o.side(j.Left, pushL, needL)
	if err != nil {
		return nil, nil, nil, err
	}
	right, mr, err := o.side(j.Right, pushR, needR)
	if err != nil {
		return nil, nil, nil, err
	}
	nl2 := engine.NumColumns(left)
	m := make([]int, nl+nr)
	for c := range m {
		switch {
		case c < nl:
			m[c] = ml[c]
		case mr[c-nl] >= 0:
			m[c] = nl2 + mr[c-nl]
		default:
			m[c] = -1
		}
	}
	out := &engine.Join{Kind: j.Kind, Left: left, Right: right}
	for i := range lk {
		out.LeftKeys = append(out.LeftKeys, renumber(lk[i], ml))
		out.RightKeys = append(out.RightKeys, renumber(rk[i], mr))
	}
	out.Residual = renumber(andAll(residual), m)
	out.Est = o.estimate(out).rows
	if j.Kind == engine.JoinSemi || j.Kind == engine.JoinAnti || j.Kind == engine.JoinAntiNull {
		m = m[:nl]
	}
	return out, m, rest, nil
}

// side plans one input of a join with conditions pushed into it: the
// conditions it cannot take are applied by a filter above it.
func (o *optimizer) side(r engine.Rel, preds []engine.Expr, need []bool) (engine.Rel, []int, error) {
	out, m, rest, err := o.rel(r, preds, need)
	if err != nil {
		return nil, nil, err
	}
	if len(rest) > 0 {
		cols := out.Columns()
		p := &engine.Plan{Input: out, Table: "(filter)", Limit: -1}
		for i, c := range cols {
			p.Project = append(p.Project, &engine.ColRef{Idx: i, Name: c.Name, T: c.Type})
			p.Names = append(p.Names, c.Name)
		}
		p.Visible = len(p.Project)
		for _, e := range rest {
			p.Filter = andExpr(p.Filter, renumber(e, m))
		}
		out = p
	}
	return out, m, nil
}

// equiPair splits e = (a = b), a reading only left columns (those below
// nl) and b only right ones (or the other way round), into keys: a over
// the left's columns, b over the right's.
func equiPair(e engine.Expr, nl int) (engine.Expr, engine.Expr, bool) {
	c, ok := e.(*engine.Call)
	if !ok || c.Op != engine.OpEq || len(c.Args) != 2 {
		return nil, nil, false
	}
	a, b := c.Args[0], c.Args[1]
	sa, sb := sideOf(a, nl), sideOf(b, nl)
	if sa == sideRight && sb == sideLeft {
		a, b, sa, sb = b, a, sb, sa
	}
	if sa != sideLeft || sb != sideRight || !hashable(a.Type()) {
		return nil, nil, false
	}
	return a, shiftBy(b, -nl), true
}

// hashable reports whether values of t can be hash keys.
func hashable(t engine.Type) bool {
	switch engine.PhysOf(t.Kind) {
	case engine.PhysInt, engine.PhysFloat, engine.PhysDec, engine.PhysStr:
		return true
	}
	return false
}

// rejectsNulls reports whether condition e is never true when every
// column that inside reports is NULL (the NULL-extended rows of an outer
// join): then, as a WHERE condition, it turns the outer join inner.
func rejectsNulls(e engine.Expr, inside func(int) bool) bool {
	switch e := e.(type) {
	case *engine.Call:
		switch e.Op {
		case engine.OpAnd:
			return rejectsNulls(e.Args[0], inside) || rejectsNulls(e.Args[1], inside)
		case engine.OpOr:
			return rejectsNulls(e.Args[0], inside) && rejectsNulls(e.Args[1], inside)
		case engine.OpNot:
			return nullIfNull(e.Args[0], inside)
		}
	}
	return nullIfNull(e, inside)
}

// nullIfNull reports whether e is NULL when the columns inside reports
// are NULL: a column among them, or a strict operator over such.
func nullIfNull(e engine.Expr, inside func(int) bool) bool {
	switch e := e.(type) {
	case *engine.ColRef:
		return inside(e.Idx)
	case *engine.Call:
		switch e.Op {
		case engine.OpAdd, engine.OpSub, engine.OpMul, engine.OpDiv, engine.OpMod, engine.OpNeg,
			engine.OpEq, engine.OpNe, engine.OpLt, engine.OpLe, engine.OpGt, engine.OpGe,
			engine.OpLike, engine.OpILike, engine.OpCast, engine.OpLength, engine.OpUpper, engine.OpLower,
			engine.OpSubstr, engine.OpExtract, engine.OpAbs, engine.OpRound, engine.OpRegexMatch,
			engine.OpDateAddInt, engine.OpDateSubInt, engine.OpDateDiff, engine.OpTsAddIntv, engine.OpTsSubIntv, engine.OpTsDiff:
			for _, a := range e.Args {
				if nullIfNull(a, inside) {
					return true
				}
			}
		case engine.OpIn:
			return nullIfNull(e.Args[0], inside)
		}
	}
	return false
}

// groupItem is one member of a group of inner joins: its node and where
// its columns sit among the group's.
type groupItem struct {
	rel    engine.Rel
	off, n int
}

// flatten collects the members and conditions of a tree of inner joins.
func flatten(r engine.Rel, off int, items *[]groupItem, conds *[]engine.Expr) {
	if j, ok := r.(*engine.Join); ok && j.Kind == engine.JoinInner {
		nl := engine.NumColumns(j.Left)
		flatten(j.Left, off, items, conds)
		flatten(j.Right, off+nl, items, conds)
		for i := range j.LeftKeys {
			*conds = append(*conds, &engine.Call{Op: engine.OpEq, T: engine.Bool,
				Args: []engine.Expr{shiftBy(j.LeftKeys[i], off), shiftBy(j.RightKeys[i], off+nl)}})
		}
		if j.Residual != nil {
			for _, c := range conjuncts(j.Residual) {
				*conds = append(*conds, shiftBy(c, off))
			}
		}
		return
	}
	*items = append(*items, groupItem{rel: r, off: off, n: engine.NumColumns(r)})
}

// part is a joined subset of a group's members.
type part struct {
	rel   engine.Rel
	ncols int // engine.NumColumns(rel), kept: a join tree's Columns() walks the tree
	items map[int]bool
	at    []int // group column → position in rel's output (-1: absent)
	est   estimate
}

// edge is an equality between expressions of two members.
type edge struct {
	a, b   engine.Expr // over the group's columns
	ia, ib int         // the members they read
}

// innerGroup plans a group of inner joins.
func (o *optimizer) innerGroup(j *engine.Join, preds []engine.Expr, need []bool) (engine.Rel, []int, []engine.Expr, error) {
	var items []groupItem
	conds := append([]engine.Expr(nil), preds...)
	flatten(j, 0, &items, &conds)
	conds = factorOrs(conds)
	ncols := 0
	for _, it := range items {
		ncols = max(ncols, it.off+it.n)
	}
	owner := make([]int, ncols)
	for i, it := range items {
		for c := it.off; c < it.off+it.n; c++ {
			owner[c] = i
		}
	}
	membersOf := func(e engine.Expr) []int {
		set := map[int]bool{}
		colsOf(e, set)
		seen := map[int]bool{}
		var out []int
		for c := range set {
			if !seen[owner[c]] {
				seen[owner[c]] = true
				out = append(out, owner[c])
			}
		}
		sort.Ints(out)
		return out
	}
	conds = append(conds, impliedByOrs(conds, membersOf)...)
	pushed := make([][]engine.Expr, len(items))
	var edges []edge
	var multi []engine.Expr
	var rest []engine.Expr
	for _, e := range conds {
		ms := membersOf(e)
		switch len(ms) {
		case 0:
			rest = append(rest, e)
			continue
		case 1:
			pushed[ms[0]] = append(pushed[ms[0]], e)
			continue
		}
		if c, ok := e.(*engine.Call); ok && c.Op == engine.OpEq && len(c.Args) == 2 && hashable(c.Args[0].Type()) {
			ma, mb := membersOf(c.Args[0]), membersOf(c.Args[1])
			if len(ma) == 1 && len(mb) == 1 && ma[0] != mb[0] {
				edges = append(edges, edge{a: c.Args[0], b: c.Args[1], ia: ma[0], ib: mb[0]})
				continue
			}
		}
		multi = append(multi, e)
	}
	// What each member must keep: what is needed above, and what the
	// keys and conditions between members read.
	needG := make([]bool, ncols)
	copy(needG, need)
	mark := func(e engine.Expr) {
		set := map[int]bool{}
		colsOf(e, set)
		for c := range set {
			needG[c] = true
		}
	}
	for _, e := range edges {
		mark(e.a)
		mark(e.b)
	}
	for _, e := range multi {
		mark(e)
	}
	parts := make([]*part, len(items))
	for i, it := range items {
		local := make([]engine.Expr, len(pushed[i]))
		for k, e := range pushed[i] {
			local[k] = shiftBy(e, -it.off)
		}
		out, m, err := o.side(it.rel, local, needG[it.off:it.off+it.n])
		if err != nil {
			return nil, nil, nil, err
		}
		at := make([]int, ncols)
		for c := range at {
			at[c] = -1
		}
		for c := 0; c < it.n; c++ {
			at[it.off+c] = m[c]
		}
		parts[i] = &part{rel: out, ncols: engine.NumColumns(out), items: map[int]bool{i: true}, at: at, est: o.estimate(out)}
	}
	// joinParts joins two parts, the smaller as the build (right) side;
	// used marks the conditions between several members placed so far.
	joinParts := func(a, b *part, used []bool) *part {
		if a.est.rows < b.est.rows {
			a, b = b, a
		}
		na := a.ncols
		jn := &engine.Join{Kind: engine.JoinInner, Left: a.rel, Right: b.rel}
		for _, e := range edges {
			switch {
			case a.items[e.ia] && b.items[e.ib]:
				jn.LeftKeys, jn.RightKeys = append(jn.LeftKeys, renumber(e.a, a.at)), append(jn.RightKeys, renumber(e.b, b.at))
			case a.items[e.ib] && b.items[e.ia]:
				jn.LeftKeys, jn.RightKeys = append(jn.LeftKeys, renumber(e.b, a.at)), append(jn.RightKeys, renumber(e.a, b.at))
			}
		}
		out := &part{rel: jn, ncols: a.ncols + b.ncols, items: map[int]bool{}, at: make([]int, ncols)}
		for k := range a.items {
			out.items[k] = true
		}
		for k := range b.items {
			out.items[k] = true
		}
		for c := range out.at {
			switch {
			case a.at[c] >= 0:
				out.at[c] = a.at[c]
			case b.at[c] >= 0:
				out.at[c] = na + b.at[c]
			default:
				out.at[c] = -1
			}
		}
		rows := joinRows(a.est, b.est, jn.LeftKeys, jn.RightKeys)
		cols := append(append([]engine.ColumnStats(nil), a.est.cols...), b.est.cols...)
		est := estimate{rows: rows, cols: cols}
		for k, e := range multi {
			if used[k] {
				continue
			}
			all := true
			for _, m := range membersOf(e) {
				all = all && out.items[m]
			}
			if all {
				used[k] = true
				r := renumber(e, out.at)
				jn.Residual = andExpr(jn.Residual, r)
				est.rows *= selectivity(r, est)
			}
		}
		est.rows = math.Max(est.rows, 1)
		capDistinct(est)
		jn.Est = est.rows
		out.est = est
		return out
	}
	// estimate of joining two parts, without building it
	trial := func(a, b *part) float64 {
		var lk, rk []engine.Expr
		for _, e := range edges {
			switch {
			case a.items[e.ia] && b.items[e.ib]:
				lk, rk = append(lk, renumber(e.a, a.at)), append(rk, renumber(e.b, b.at))
			case a.items[e.ib] && b.items[e.ia]:
				lk, rk = append(lk, renumber(e.b, a.at)), append(rk, renumber(e.a, b.at))
			}
		}
		if len(lk) == 0 {
			return math.Inf(1)
		}
		return joinRows(a.est, b.est, lk, rk)
	}
	connected := func(a, b *part) bool {
		for _, e := range edges {
			if a.items[e.ia] && b.items[e.ib] || a.items[e.ib] && b.items[e.ia] {
				return true
			}
		}
		return false
	}
	// greedy joins the members from the pair first (x, y), then each time
	// the connected member whose join makes the fewest rows, or, where
	// none connects, the smallest (a cross join). cost is what the joins
	// read and write: every join's input and output rows.
	greedy := func(x, y int) (cur *part, used []bool, cost float64) {
		used = make([]bool, len(multi))
		left := map[int]*part{}
		for i, p := range parts {
			left[i] = p
		}
		add := func(a, b *part) *part {
			j := joinParts(a, b, used)
			cost += a.est.rows + b.est.rows + j.est.rows
			return j
		}
		if y < 0 {
			cur = left[x]
		} else {
			cur = add(left[x], left[y])
			delete(left, y)
		}
		delete(left, x)
		for len(left) > 0 {
			pick, best := -1, math.Inf(1)
			for k := range parts {
				if left[k] == nil || !connected(cur, left[k]) {
					continue
				}
				if e := trial(cur, left[k]); e < best {
					pick, best = k, e
				}
			}
			if pick < 0 { // a cross join, with the smallest remaining member
				for k := range parts {
					if left[k] != nil && (pick < 0 || left[k].est.rows < left[pick].est.rows) {
						pick = k
					}
				}
			}
			cur = add(cur, left[pick])
			delete(left, pick)
		}
		return cur, used, cost
	}
	var cur *part
	var used []bool
	if len(parts) == 1 {
		cur, used, _ = greedy(0, -1)
	} else {
		// Every connected pair is tried as the first join, and the order
		// that reads and writes the fewest rows in all is kept. Starting
		// with the pair of least output alone joined a small dimension
		// first (TPC-H Q9: supplier and nation, then every lineitem row)
		// where a selective one (part, filtered) cuts the fact table first.
		best := math.Inf(1)
		for x := range parts {
			for y := x + 1; y < len(parts); y++ {
				if !connected(parts[x], parts[y]) {
					continue
				}
				if c, u, cost := greedy(x, y); cost < best {
					cur, used, best = c, u, cost
				}
			}
		}
		if cur == nil { // nothing connects: the smallest first
			small := 0
			for k := range parts {
				if parts[k].est.rows < parts[small].est.rows {
					small = k
				}
			}
			cur, used, _ = greedy(small, -1)
		}
	}
	out := cur.rel
	for k, e := range multi {
		if !used[k] {
			rest = append(rest, e) // reads no member (cannot happen) or was not placed
		}
	}
	return out, cur.at, rest, nil
}

// factorOrs takes the conjuncts that every branch of an OR shares out of
// it: (a AND b) OR (a AND c) is a AND (b OR c), so that a join key
// written in each branch (TPC-H Q19) is a key.
func factorOrs(conds []engine.Expr) []engine.Expr {
	var out []engine.Expr
	for _, e := range conds {
		branches := disjuncts(e)
		if len(branches) < 2 {
			out = append(out, e)
			continue
		}
		sets := make([][]engine.Expr, len(branches))
		for i, b := range branches {
			sets[i] = conjuncts(b)
		}
		var common []engine.Expr
		for _, c := range sets[0] {
			key := c.String()
			all := true
			for _, s := range sets[1:] {
				found := false
				for _, d := range s {
					if d.String() == key {
						found = true
						break
					}
				}
				all = all && found
			}
			if all {
				common = append(common, c)
			}
		}
		if len(common) == 0 {
			out = append(out, e)
			continue
		}
		out = append(out, common...)
		var or engine.Expr
		for _, s := range sets {
			var rest []engine.Expr
			for _, d := range s {
				shared := false
				for _, c := range common {
					if d.String() == c.String() {
						shared = true
						break
					}
				}
				if !shared {
					rest = append(rest, d)
				}
			}
			if len(rest) == 0 {
				or = nil // a branch is only the shared part: the OR is true
				break
			}
			b := andAll(rest)
			if or == nil {
				or = b
			} else {
				or = &engine.Call{Op: engine.OpOr, Args: []engine.Expr{or, b}, T: engine.Bool}
			}
			if s == nil {
				break
			}
		}
		if or != nil {
			out = append(out, or)
		}
	}
	return out
}

// disjuncts splits an OR tree.
func disjuncts(e engine.Expr) []engine.Expr {
	if c, ok := e.(*engine.Call); ok && c.Op == engine.OpOr {
		return append(disjuncts(c.Args[0]), disjuncts(c.Args[1])...)
	}
	return []engine.Expr{e}
}

// impliedByOrs derives, from an OR whose every branch holds conditions
// on one member alone, the OR of those conditions: implied by the OR, it
// can filter that member before the join (the OR itself stays).
func impliedByOrs(conds []engine.Expr, membersOf func(engine.Expr) []int) []engine.Expr {
	var out []engine.Expr
	for _, e := range conds {
		branches := disjuncts(e)
		if len(branches) < 2 || len(membersOf(e)) < 2 {
			continue
		}
		for _, m := range membersOf(e) {
			var or engine.Expr
			ok := true
			for _, b := range branches {
				var mine []engine.Expr
				for _, c := range conjuncts(b) {
					if ms := membersOf(c); len(ms) == 1 && ms[0] == m {
						mine = append(mine, c)
					}
				}
				if len(mine) == 0 {
					ok = false
					break
				}
				if or == nil {
					or = andAll(mine)
				} else {
					or = &engine.Call{Op: engine.OpOr, Args: []engine.Expr{or, andAll(mine)}, T: engine.Bool}
				}
			}
			if ok {
				out = append(out, or)
			}
		}
	}
	return out
}

// constantOnly reports whether every condition of cs reads no column.
func constantOnly(cs []engine.Expr, nl int) bool {
	for _, e := range cs {
		if sideOf(e, nl) != sideNone {
			return false
		}
	}
	return true
}

// joinRows is the rows the joins of planned tree r read, both sides of
// each: what a hash join costs, its build and its probe.
func (o *optimizer) joinRows(r engine.Rel) float64 {
	total := 0.0
	if j, ok := r.(*engine.Join); ok {
		total += o.estimate(j.Left).rows + o.estimate(j.Right).rows
	}
	for _, in := range r.Inputs() {
		total += o.joinRows(in)
	}
	return total
}

// pushSemi moves a semi or anti join below the inner joins of its left
// side, onto the one member whose columns it reads: the member is then
// filtered before it is joined (TPC-H Q18's IN over a grouped subquery
// filters orders, not the join of lineitem, orders and customer). The
// caller keeps this plan or the other by their joins' rows. The left
// side's columns stay where they were.
func (o *optimizer) pushSemi(j *engine.Join) (engine.Rel, bool) {
	inner, ok := j.Left.(*engine.Join)
	if !ok || inner.Kind != engine.JoinInner {
		return nil, false
	}
	var items []groupItem
	var conds []engine.Expr
	flatten(inner, 0, &items, &conds)
	nl := engine.NumColumns(j.Left)
	read := map[int]bool{}
	for _, k := range j.LeftKeys {
		colsOf(k, read)
	}
	res := map[int]bool{}
	if j.Residual != nil {
		colsOf(j.Residual, res)
	}
	for c := range res {
		if c < nl {
			read[c] = true
		}
	}
	if len(read) == 0 {
		return nil, false
	}
	target := -1
	for i, it := range items {
		all := true
		for c := range read {
			all = all && c >= it.off && c < it.off+it.n
		}
		if all {
			target = i
		}
	}
	if target < 0 {
		return nil, false
	}
	it := items[target]
	moved := &engine.Join{Kind: j.Kind, Left: it.rel, Right: j.Right, RightKeys: j.RightKeys}
	for _, k := range j.LeftKeys {
		moved.LeftKeys = append(moved.LeftKeys, shiftBy(k, -it.off))
	}
	if j.Residual != nil {
		moved.Residual = mapCols(j.Residual, func(c *engine.ColRef) engine.Expr {
			r := *c
			if c.Idx < nl {
				r.Idx -= it.off
			} else {
				r.Idx = c.Idx - nl + it.n
			}
			return &r
		})
	}
	return replaceMember(inner, 0, it.off, moved), true
}

// replaceMember returns the tree of inner joins r (its columns from off)
// with the member whose columns start at at replaced by with.
func replaceMember(r engine.Rel, off, at int, with engine.Rel) engine.Rel {
	j, ok := r.(*engine.Join)
	if !ok || j.Kind != engine.JoinInner {
		if off == at {
			return with
		}
		return r
	}
	nl := engine.NumColumns(j.Left)
	out := *j
	if at < off+nl {
		out.Left = replaceMember(j.Left, off, at, with)
	} else {
		out.Right = replaceMember(j.Right, off+nl, at, with)
	}
	return &out
}
