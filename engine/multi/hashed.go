package multi

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/gpusql/gpusql/engine"
)

// Co-partitioned joins. A join of two large split tables cannot be
// broadcast: each part would build most of the other table. Instead both
// tables are redistributed by their join key, so that a row's part is a
// function of its key value (hashedOn): then the rows that can match are
// on the same part, each part joins its share, and the tree over all the
// rows is the union of the tree over each part's share. The redistributed
// copy of a table is made once per table version and key column, and kept
// like a gathered copy.
//
// Which trees split this way is decided by placing each node (place):
// its rows are either all on every part (a small table, gathered whole on
// each part, and anything computed from only such tables) or hashed: each
// row on exactly one part, and its "key" columns, if any, equal to the
// value that chose the part. Joins keep rows hashed where the partition
// keys meet on an equality, or where the other side is whole and the join
// emits each hashed row's results with it; aggregates keep them hashed
// when they group by a key, as every group is then on one part.

// hashable reports whether a table can be redistributed by a column of
// type t: the part of a row is its key modulo the number of parts
// (integers compare equal across widths, so either side of a join of
// int4 and int8 agrees).
func hashable(t engine.Type) bool {
	switch t.Kind {
	case engine.KindInt16, engine.KindInt32, engine.KindInt64:
		return true
	}
	return false
}

// hashedCopy is every row of a table redistributed over the parts by one
// column: data[j] holds the rows whose key is j modulo the parts (NULL
// keys on part 0).
type hashedCopy struct {
	data []engine.TableData
}

// partOf is the condition "col's part is j" over a table's columns:
// ((col % n) + n) % n = j, with NULL on part 0.
func partOf(col int, t engine.Type, n, j int) engine.Expr {
	ref := &engine.ColRef{Idx: col, T: t}
	c := func(v int) engine.Expr { return &engine.Const{T: t, I: int64(v)} }
	mod := func(a engine.Expr) engine.Expr {
		return &engine.Call{Op: engine.OpMod, Args: []engine.Expr{a, c(n)}, T: t}
	}
	pos := mod(&engine.Call{Op: engine.OpAdd, Args: []engine.Expr{mod(ref), c(n)}, T: t})
	eq := &engine.Call{Op: engine.OpEq, Args: []engine.Expr{pos, c(j)}, T: engine.Bool}
	if j != 0 {
		return eq
	}
	isNull := &engine.Call{Op: engine.OpIsNull, Args: []engine.Expr{ref}, T: engine.Bool}
	return &engine.Call{Op: engine.OpOr, Args: []engine.Expr{isNull, eq}, T: engine.Bool}
}

// hashedOn is every row of t redistributed over the parts by column col
// (of the table's schema), made once per table version and column: each
// part cuts its segments into one piece per part (a filtered copy,
// engine.TableStore), the pieces move to their parts (peer to peer on
// GPUs) and each part appends its pieces.
func (t *Table) hashedOn(ctx context.Context, schema []engine.ColumnDef, col int) ([]engine.TableData, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if h, ok := t.hashed[col]; ok {
		return h.data, nil
	}
	n := len(t.b.parts)
	names := make([]string, len(schema))
	project := make([]engine.Expr, len(schema))
	for k, c := range schema {
		names[k] = c.Name
		project[k] = &engine.ColRef{Idx: k, Name: c.Name, T: c.Type}
	}
	// pieces[s][j]: segment s's rows for part j, on segment s's part.
	pieces := make([][]engine.TableData, len(t.segs))
	errs := make([]error, len(t.segs))
	var wg sync.WaitGroup
	for s, seg := range t.segs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ts, ok := t.b.parts[seg.part].(engine.TableStore)
			if !ok {
				errs[s] = engine.Errorf(engine.CodeFeatureNotSupported, "%s cannot store query results", t.b.parts[seg.part].Name())
				return
			}
			pieces[s] = make([]engine.TableData, n)
			for j := range n {
				p := &engine.Plan{Table: t.name, Schema: schema, Data: seg.data, Filter: partOf(col, schema[col].Type, n, j),
					Project: project, Names: names, Visible: len(schema), Limit: -1}
				if pieces[s][j], errs[s] = ts.Materialize(ctx, p, engine.StoreOptions{Table: t.name}); errs[s] != nil {
					return
				}
			}
		}()
	}
	wg.Wait()
	release := func(ds ...engine.TableData) {
		for _, d := range ds {
			if d != nil {
				d.Release()
			}
		}
	}
	for _, err := range errs {
		if err != nil {
			for _, ps := range pieces {
				release(ps...)
			}
			return nil, err
		}
	}
	// Each part gathers and appends its pieces.
	out := make([]engine.TableData, n)
	errs = make([]error, n)
	for j := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[j], errs[j] = t.collect(j, pieces)
		}()
	}
	wg.Wait()
	for _, ps := range pieces {
		release(ps...)
	}
	for _, err := range errs {
		if err != nil {
			release(out...)
			return nil, err
		}
	}
	if t.hashed == nil {
		t.hashed = map[int]hashedCopy{}
	}
	t.hashed[col] = hashedCopy{out}
	return out, nil
}

// collect appends the pieces for part j (pieces[s][j]), each moved to the
// part first where it is on another device. It takes the pieces it reads
// (setting them to nil); the caller releases what is left.
func (t *Table) collect(j int, pieces [][]engine.TableData) (engine.TableData, error) {
	bk := t.b.parts[j]
	var acc engine.TableData
	fail := func(err error) (engine.TableData, error) {
		if acc != nil {
			acc.Release()
		}
		return nil, err
	}
	for s := range pieces {
		d := pieces[s][j]
		pieces[s][j] = nil
		if part := t.segs[s].part; part != j && t.b.parts[part] != bk {
			if m, ok := bk.(Mover); ok {
				moved, copied, err := m.Move(t.name, d)
				if err != nil {
					d.Release()
					return fail(err)
				}
				if copied {
					d.Release()
					d = moved
				}
			}
		}
		switch {
		case acc == nil:
			acc = d
		case d.Rows() == 0:
			d.Release()
		case acc.Rows() == 0:
			acc.Release()
			acc = d
		default:
			next, err := bk.Concat(t.name, acc, d)
			d.Release()
			if err != nil {
				return fail(err)
			}
			acc.Release()
			acc = next
		}
	}
	return acc, nil
}

// hashPlan is a redistribution chosen for a tree: the leaves reading
// split tables through hashed copies, by stored column. Every other leaf
// reads its table whole on each part.
type hashPlan map[*engine.Plan]int

// placement is where a node's rows are: hashed (each row on one part,
// with keys the output columns equal to the value that chose it, NULL
// included) or whole (every row on every part).
type placement struct {
	hashed bool
	keys   []int
}

var whole = placement{}

// keyCol is the input column an equality key reads, directly or through
// a cast between integer types (which keeps the value, so the part).
func keyCol(e engine.Expr) (int, bool) {
	switch e := e.(type) {
	case *engine.ColRef:
		return e.Idx, hashable(e.T)
	case *engine.Call:
		if e.Op == engine.OpCast && len(e.Args) == 1 && hashable(e.T) {
			if r, ok := e.Args[0].(*engine.ColRef); ok && hashable(r.T) {
				return r.Idx, true
			}
		}
	}
	return 0, false
}

func has(keys []int, i int) bool {
	for _, k := range keys {
		if k == i {
			return true
		}
	}
	return false
}

func shift(keys []int, by int) []int {
	out := make([]int, len(keys))
	for i, k := range keys {
		out[i] = k + by
	}
	return out
}

// projected is the output columns of a projection that pass an input key
// through.
func projected(project []engine.Expr, isKey func(int) bool) []int {
	var out []int
	for i, e := range project {
		if r, ok := e.(*engine.ColRef); ok && isKey(r.Idx) {
			out = append(out, i)
		}
	}
	return out
}

// place is where r's rows are when its leaves in h read hashed copies and
// the others whole tables; ok is false when r over the parts would not
// be r over all the rows (a limit, a window or a set operation over
// hashed rows, an outer join that would repeat whole rows on each part).
func (h hashPlan) place(r engine.Rel) (placement, bool) {
	switch r := r.(type) {
	case *engine.Plan:
		// where the rows the plan reads are: a leaf's stored rows,
		// hashed by a stored column where h says so
		var in placement
		if r.Input == nil {
			col, ok := h[r]
			if !ok {
				return whole, true
			}
			in = placement{hashed: true, keys: []int{col}}
		} else {
			var ok bool
			if in, ok = h.place(r.Input); !ok || !in.hashed {
				return in, ok
			}
		}
		if len(r.GroupingSets) > 0 || r.Limit >= 0 || r.Offset > 0 || len(r.DistinctOn) > 0 {
			return whole, false
		}
		var keys []int
		if r.Aggregate {
			// every group on one part: a group key is a partition key
			keys = projected(r.Project, func(g int) bool {
				if g >= len(r.GroupBy) {
					return false
				}
				k, ok := keyCol(r.GroupBy[g])
				return ok && has(in.keys, k)
			})
			grouped := false
			for _, g := range r.GroupBy {
				if k, ok := keyCol(g); ok && has(in.keys, k) {
					grouped = true
				}
			}
			if !grouped {
				return whole, false
			}
		} else {
			keys = projected(r.Project, func(i int) bool { return has(in.keys, i) })
		}
		if r.Distinct && len(keys) == 0 {
			return whole, false // equal rows may be on two parts
		}
		return placement{hashed: true, keys: keys}, true
	case *engine.Join:
		l, ok1 := h.place(r.Left)
		rt, ok2 := h.place(r.Right)
		if !ok1 || !ok2 {
			return whole, false
		}
		nl := len(r.Left.Columns())
		switch {
		case !l.hashed && !rt.hashed:
			return whole, true
		case l.hashed && rt.hashed:
			met := false
			for k := range r.LeftKeys {
				a, ok1 := keyCol(r.LeftKeys[k])
				b, ok2 := keyCol(r.RightKeys[k])
				if ok1 && ok2 && has(l.keys, a) && has(rt.keys, b) {
					met = true
				}
			}
			if !met {
				return whole, false
			}
			switch r.Kind {
			case engine.JoinInner:
				return placement{true, append(append([]int(nil), l.keys...), shift(rt.keys, nl)...)}, true
			case engine.JoinLeft, engine.JoinSemi, engine.JoinAnti:
				return placement{true, l.keys}, true
			case engine.JoinRight:
				return placement{true, shift(rt.keys, nl)}, true
			case engine.JoinFull:
				return placement{hashed: true}, true
			}
			return whole, false // NOT IN: a NULL on one part rules out rows on every part
		case l.hashed:
			switch r.Kind {
			case engine.JoinInner:
				keys := append([]int(nil), l.keys...)
				for k := range r.LeftKeys {
					a, ok1 := keyCol(r.LeftKeys[k])
					b, ok2 := keyCol(r.RightKeys[k])
					if ok1 && ok2 && has(l.keys, a) {
						keys = append(keys, nl+b)
					}
				}
				return placement{true, keys}, true
			case engine.JoinLeft, engine.JoinSemi, engine.JoinAnti, engine.JoinAntiNull:
				return placement{true, l.keys}, true
			}
			return whole, false
		default: // the right side hashed
			switch r.Kind {
			case engine.JoinInner:
				keys := shift(rt.keys, nl)
				for k := range r.LeftKeys {
					a, ok1 := keyCol(r.LeftKeys[k])
					b, ok2 := keyCol(r.RightKeys[k])
					if ok1 && ok2 && has(rt.keys, b) {
						keys = append(keys, a)
					}
				}
				return placement{true, keys}, true
			case engine.JoinRight:
				return placement{true, shift(rt.keys, nl)}, true
			}
			return whole, false
		}
	default:
		for _, in := range r.Inputs() {
			if pl, ok := h.place(in); !ok || pl.hashed {
				return whole, false
			}
		}
		return whole, true
	}
}

// trace follows output column i of r down to the split table's leaf and
// stored column it passes through unchanged, if any.
func trace(r engine.Rel, i int) (*engine.Plan, int, bool) {
	switch r := r.(type) {
	case *engine.Plan:
		if i >= len(r.Project) {
			return nil, 0, false
		}
		ref, ok := r.Project[i].(*engine.ColRef)
		if !ok {
			return nil, 0, false
		}
		k := ref.Idx // the input column
		if r.Aggregate {
			if k >= len(r.GroupBy) {
				return nil, 0, false
			}
			if k, ok = keyCol(r.GroupBy[k]); !ok {
				return nil, 0, false
			}
		}
		if r.Input == nil {
			if t, ok := r.Data.(*Table); ok && len(t.segs) > 1 {
				return r, k, true
			}
			return nil, 0, false
		}
		return trace(r.Input, k)
	case *engine.Join:
		nl := len(r.Left.Columns())
		if i < nl {
			return trace(r.Left, i)
		}
		switch r.Kind {
		case engine.JoinSemi, engine.JoinAnti, engine.JoinAntiNull:
			return nil, 0, false
		}
		return trace(r.Right, i-nl)
	}
	return nil, 0, false
}

// hashPlanFor picks the redistribution for p's tree: the join keys that
// meet split tables on both sides are grouped by equality, and each group
// is a candidate that redistributes its tables by those columns. The one
// that places the tree hashed with the most rows redistributed wins,
// provided the split tables it leaves whole are small beside them (each
// part reads those whole, as a broadcast join does). nil if none.
func (b *Backend) hashPlanFor(p *engine.Plan) hashPlan {
	if p.Input == nil {
		return nil
	}
	type node struct {
		leaf *engine.Plan
		col  int
	}
	parent := map[node]node{}
	var find func(n node) node
	find = func(n node) node {
		if p, ok := parent[n]; ok && p != n {
			r := find(p)
			parent[n] = r
			return r
		}
		parent[n] = n
		return n
	}
	engine.WalkRel(p.Input, func(x engine.Rel) {
		j, ok := x.(*engine.Join)
		if !ok {
			return
		}
		for k := range j.LeftKeys {
			a, ok1 := keyCol(j.LeftKeys[k])
			c, ok2 := keyCol(j.RightKeys[k])
			if !ok1 || !ok2 {
				continue
			}
			la, ca, ok1 := trace(j.Left, a)
			lc, cc, ok2 := trace(j.Right, c)
			if !ok1 || !ok2 || !hashable(la.Schema[ca].Type) || !hashable(lc.Schema[cc].Type) {
				continue
			}
			parent[find(node{la, ca})] = find(node{lc, cc})
		}
	})
	groups := map[node][]node{}
	for n := range parent {
		r := find(n)
		groups[r] = append(groups[r], n)
	}
	var splitLeaves []*engine.Plan
	engine.WalkRel(p.Input, func(x engine.Rel) {
		if q, ok := x.(*engine.Plan); ok && q.Input == nil {
			if t, ok := q.Data.(*Table); ok && len(t.segs) > 1 {
				splitLeaves = append(splitLeaves, q)
			}
		}
	})
	var best hashPlan
	var bestRows int64
	for _, g := range groups {
		h := hashPlan{}
		for _, n := range g {
			if _, ok := h[n.leaf]; !ok {
				h[n.leaf] = n.col
			}
		}
		var hashedRows, others int64
		for _, q := range splitLeaves {
			if _, ok := h[q]; ok {
				hashedRows += q.Data.Rows()
			} else {
				others += q.Data.Rows()
			}
		}
		// the tables read whole must be small beside the redistributed
		// ones, unless the whole tree is small (which keeps the route
		// tested on small tables)
		if hashedRows <= bestRows || hashedRows+others >= smallProbe && others*4 > hashedRows {
			continue
		}
		if pl, ok := h.place(p.Input); ok && pl.hashed && (b.o.Redistribute || h.broadcastJoins(p.Input) <= maxBroadcastJoins) {
			best, bestRows = h, hashedRows
		}
	}
	return best
}

// maxBroadcastJoins bounds the joins of hashed rows with whole tables in
// a redistributed tree, unless Options.Redistribute: every part builds
// each of those whole. Over two H100s at TPC-H SF 10, the trees with at
// most two ran 1.26-1.52x faster than on one GPU (Q4, Q17, Q18, Q21;
// Q3 1.16x slower), and those with four or more 1.1-1.4x slower (Q5,
// Q7, Q8).
const maxBroadcastJoins = 2

// broadcastJoins counts the joins of r between hashed rows and whole
// ones.
func (h hashPlan) broadcastJoins(r engine.Rel) int {
	n := 0
	engine.WalkRel(r, func(x engine.Rel) {
		if j, ok := x.(*engine.Join); ok {
			l, ok1 := h.place(j.Left)
			rt, ok2 := h.place(j.Right)
			if ok1 && ok2 && l.hashed != rt.hashed {
				n++
			}
		}
	})
	return n
}

// rootKeyed reports whether p groups by a partition key of its input, so
// that every group is on one part and each part can finish p itself.
func (h hashPlan) rootKeyed(p *engine.Plan) bool {
	in, ok := h.place(p.Input)
	if !ok || !in.hashed || len(p.GroupingSets) > 0 {
		return false
	}
	for _, g := range p.GroupBy {
		if k, ok := keyCol(g); ok && has(in.keys, k) {
			return true
		}
	}
	return false
}

// describe names the redistributed tables and columns, for EXPLAIN.
func (h hashPlan) describe() string {
	var parts []string
	seen := map[string]bool{}
	for q, col := range h {
		s := fmt.Sprintf("%s by %s", q.Table, q.Schema[col].Name)
		if !seen[s] {
			seen[s] = true
			parts = append(parts, s)
		}
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}

// prepare makes the hashed copies h reads (once per table version).
func (h hashPlan) prepare(ctx context.Context) error {
	for q, col := range h {
		if _, err := q.Data.(*Table).hashedOn(ctx, q.Schema, col); err != nil {
			return err
		}
	}
	return nil
}

// bindHashed is r for part j: the leaves in h read their hashed copies'
// share on j, every other split table its copy gathered on j.
func (h hashPlan) bindHashed(ctx context.Context, r engine.Rel, j int) (engine.Rel, error) {
	return rebind(r, func(q *engine.Plan) (engine.TableData, error) {
		t, ok := q.Data.(*Table)
		if !ok {
			return q.Data, nil
		}
		if col, ok := h[q]; ok {
			d, err := t.hashedOn(ctx, q.Schema, col)
			if err != nil {
				return nil, err
			}
			return d[j], nil
		}
		return t.gatheredOn(j)
	})
}
