package query

import (
	"math"

	"github.com/gpusql/gpusql/engine"
)

// The planner. The binder builds a plan tree as the query is written: a
// FROM list is a chain of cross joins, ON and WHERE conditions sit where
// they were written, every table is read whole. optimize rewrites it so
// that a backend can run it fast:
//
//   - conditions move down to the lowest node that can evaluate them
//     (into the scans of single tables, through derived tables);
//   - each group of inner joins is flattened, equalities between two of
//     its members become hash keys, and the members are joined greedily,
//     smallest estimated result first, always along a key when one
//     connects (a cross join only when nothing does), with the smaller
//     side as the build side;
//   - a LEFT JOIN whose right side a WHERE condition rejects NULLs of is
//     an inner join, and a RIGHT JOIN a LEFT JOIN with its sides swapped;
//   - every node keeps only the columns above it need.
//
// Estimates come from the tables' row counts and column statistics
// (engine.ColumnStats: distinct values, NULL fraction, value range).

// optimize returns the planned form of a bound plan. It does not change
// p; a plan already planned is returned as is.
func optimize(p *engine.Plan, stats func(engine.TableData, int) engine.ColumnStats) (*engine.Plan, error) {
	if p.Optimized {
		return p, nil
	}
	if p.Input == nil {
		q := aggRewrites(p)
		if q != p {
			q.Optimized = true
		}
		return q, nil
	}
	o := &optimizer{stats: stats}
	q, err := o.plan(p)
	if err != nil {
		return nil, err
	}
	q = o.pushJoinKeys(q).(*engine.Plan) // optimize_aggkeys.go
	q.Optimized = true
	return q, nil
}

type optimizer struct {
	// stats describes a column of table data (Server.columnStats)
	stats func(engine.TableData, int) engine.ColumnStats
}

// estimate is what the planner expects of a node's output.
type estimate struct {
	rows float64
	cols []engine.ColumnStats // per output column; Distinct 0: unknown
}

// plan plans a pipeline: its input tree, with the pipeline's filter
// pushed into it where possible.
func (o *optimizer) plan(p *engine.Plan) (*engine.Plan, error) {
	q := *p
	if p.Input == nil {
		return aggRewrites(&q), nil
	}
	ncols := engine.NumColumns(p.Input)
	need := make([]bool, ncols)
	for _, e := range inputExprs(p) {
		set := map[int]bool{}
		colsOf(e, set)
		for c := range set {
			if c < ncols {
				need[c] = true
			}
		}
	}
	var preds []engine.Expr
	if p.Filter != nil {
		preds = conjuncts(p.Filter)
	}
	in, m, rest, err := o.rel(p.Input, preds, need)
	if err != nil {
		return nil, err
	}
	q.Input = in
	q.Filter = renumber(andAll(rest), m)
	if len(q.GroupBy) > 0 {
		q.GroupBy = make([]engine.Expr, len(p.GroupBy))
		for i, g := range p.GroupBy {
			q.GroupBy[i] = renumber(g, m)
		}
	}
	if len(p.Aggs) > 0 {
		q.Aggs = make([]engine.AggCall, len(p.Aggs))
		for i, a := range p.Aggs {
			q.Aggs[i] = renumberAgg(a, m) // optimize_window.go
		}
	}
	if !p.Aggregate {
		q.Project = make([]engine.Expr, len(p.Project))
		for i, e := range p.Project {
			q.Project[i] = renumber(e, m)
		}
	}
	return aggRewrites(&q), nil
}

// inputExprs are the expressions of p that read its input's columns.
func inputExprs(p *engine.Plan) []engine.Expr {
	out := []engine.Expr{p.Filter}
	out = append(out, p.GroupBy...)
	for _, a := range p.Aggs {
		out = append(out, a.Exprs()...)
	}
	if !p.Aggregate {
		out = append(out, p.Project...)
	}
	var nn []engine.Expr
	for _, e := range out {
		if e != nil {
			nn = append(nn, e)
		}
	}
	return nn
}

// rel plans node r with the conditions preds (over r's columns) to apply
// to its output, of whose columns need are read above. It returns the
// new node, where each of r's needed columns went in its output (m; -1
// for a column dropped), and the conditions it could not take, over r's
// columns still.
func (o *optimizer) rel(r engine.Rel, preds []engine.Expr, need []bool) (engine.Rel, []int, []engine.Expr, error) {
	need = append([]bool(nil), need...)
	for _, e := range preds {
		set := map[int]bool{}
		colsOf(e, set)
		for c := range set {
			need[c] = true
		}
	}
	switch r := r.(type) {
	case *engine.Plan:
		return o.pipeline(r, preds, need)
	case *engine.Join:
		return o.join(r, preds, need)
	case *engine.SetOp:
		l, err := o.keepAll(r.Left)
		if err != nil {
			return nil, nil, nil, err
		}
		rr, err := o.keepAll(r.Right)
		if err != nil {
			return nil, nil, nil, err
		}
		s := *r
		s.Left, s.Right = l, rr
		return &s, identity(len(r.Cols)), preds, nil
	case *engine.Window:
		return o.window(r, preds, need)
	case *engine.ProjectSet:
		// conditions from above stay above (they may read the
		// functions' columns), and the input keeps its columns
		in, err := o.keepAll(r.Input)
		if err != nil {
			return nil, nil, nil, err
		}
		ps := *r
		ps.Input = in
		return &ps, identity(engine.NumColumns(r)), preds, nil
	}
	return r, identity(engine.NumColumns(r)), preds, nil
}

// keepAll plans a node whose every column is needed, with no conditions
// from above.
func (o *optimizer) keepAll(r engine.Rel) (engine.Rel, error) {
	need := make([]bool, engine.NumColumns(r))
	for i := range need {
		need[i] = true
	}
	out, m, _, err := o.rel(r, nil, need)
	if err != nil {
		return nil, err
	}
	if !isIdentity(m) {
		return reorder(out, m), nil
	}
	return out, nil
}

func identity(n int) []int {
	m := make([]int, n)
	for i := range m {
		m[i] = i
	}
	return m
}

func isIdentity(m []int) bool {
	for i, x := range m {
		if x != i {
			return false
		}
	}
	return true
}

// reorder wraps r in a view that puts column m[i] of r at position i.
func reorder(r engine.Rel, m []int) engine.Rel {
	cols := r.Columns()
	p := &engine.Plan{Input: r, Table: "(reorder)", Limit: -1}
	for i := range m {
		c := cols[m[i]]
		p.Project = append(p.Project, &engine.ColRef{Idx: m[i], Name: c.Name, T: c.Type})
		p.Names = append(p.Names, c.Name)
	}
	p.Visible = len(p.Project)
	return p
}

// pipeline plans a Plan node used as an input: a table's scan, a
// derived table, a WITH query. Conditions go into its filter when it is
// a plain filter-and-project; its output keeps the needed columns.
func (o *optimizer) pipeline(p *engine.Plan, preds []engine.Expr, need []bool) (engine.Rel, []int, []engine.Expr, error) {
	q := *p
	plain := !p.Aggregate && !p.Distinct && len(p.OrderBy) == 0 && p.Limit < 0 && p.Offset == 0
	var rest []engine.Expr
	if plain {
		for _, e := range preds {
			q.Filter = andExpr(q.Filter, substitute(e, p.Project))
		}
	} else {
		rest = preds
	}
	m := identity(p.Visible)
	// Keep only the needed outputs. A DISTINCT's rows depend on all its
	// columns, and hidden ORDER BY columns sit past Visible: those keep
	// everything.
	if !p.Distinct && len(p.Project) == p.Visible {
		q.Project, q.Names = nil, nil
		for i := range p.Project {
			if i < len(need) && need[i] {
				m[i] = len(q.Project)
				q.Project = append(q.Project, p.Project[i])
				q.Names = append(q.Names, p.Names[i])
			} else {
				m[i] = -1
			}
		}
		q.Visible = len(q.Project)
		if q.Visible == 0 && p.Visible > 0 {
			// keep one column: a node of no columns still has rows
			m[0] = 0
			q.Project, q.Names, q.Visible = p.Project[:1], p.Names[:1], 1
		}
	}
	out, err := o.plan(&q)
	if err != nil {
		return nil, nil, nil, err
	}
	return out, m, rest, nil
}

// leafEstimate estimates a plan's output.
func (o *optimizer) estimate(r engine.Rel) estimate {
	switch r := r.(type) {
	case *engine.Plan:
		var in estimate
		switch {
		case r.Input != nil:
			in = o.estimate(r.Input)
		case r.Data != nil:
			in.rows = float64(r.Data.Rows())
			in.cols = make([]engine.ColumnStats, len(r.Schema))
			if o.stats != nil && r.Data.Rows() > 0 {
				for i := range in.cols {
					in.cols[i] = o.stats(r.Data, i)
				}
			}
		case r.Table != "":
			in.rows = 0
		default:
			in.rows = 1
		}
		rows := in.rows
		if r.Filter != nil {
			rows *= selectivity(r.Filter, in)
		}
		out := estimate{rows: rows, cols: make([]engine.ColumnStats, len(r.Project))}
		if r.Aggregate {
			groups := 1.0
			for _, g := range r.GroupBy {
				d := rows
				if c, ok := g.(*engine.ColRef); ok && c.Idx < len(in.cols) && in.cols[c.Idx].Distinct > 0 {
					d = in.cols[c.Idx].Distinct
				}
				groups *= d
			}
			out.rows = math.Min(groups, math.Max(rows, 1))
			if r.Having != nil {
				out.rows *= 0.3
			}
			for i, e := range r.Project {
				if c, ok := e.(*engine.ColRef); ok && c.Idx < len(r.GroupBy) {
					if g, ok := r.GroupBy[c.Idx].(*engine.ColRef); ok && g.Idx < len(in.cols) {
						out.cols[i] = in.cols[g.Idx]
					}
				}
			}
		} else {
			for i, e := range r.Project {
				if c, ok := e.(*engine.ColRef); ok && c.Idx < len(in.cols) {
					out.cols[i] = in.cols[c.Idx]
				}
			}
		}
		if r.Limit >= 0 {
			out.rows = math.Min(out.rows, float64(r.Limit))
		}
		out.rows = math.Max(out.rows, 1)
		capDistinct(out)
		return out
	case *engine.Join:
		l, rr := o.estimate(r.Left), o.estimate(r.Right)
		rows := r.Est
		if rows == 0 {
			rows = joinRows(l, rr, r.LeftKeys, r.RightKeys)
		}
		out := estimate{rows: rows, cols: append(append([]engine.ColumnStats(nil), l.cols...), rr.cols...)}
		switch r.Kind {
		case engine.JoinSemi, engine.JoinAnti, engine.JoinAntiNull:
			out.cols = l.cols
			out.rows = math.Max(1, l.rows*0.5)
		case engine.JoinLeft:
			out.rows = math.Max(rows, l.rows)
		}
		capDistinct(out)
		return out
	case *engine.SetOp:
		l, rr := o.estimate(r.Left), o.estimate(r.Right)
		return estimate{rows: l.rows + rr.rows, cols: make([]engine.ColumnStats, len(r.Cols))}
	case *engine.Window:
		in := o.estimate(r.Input)
		return estimate{rows: in.rows, cols: append(in.cols, make([]engine.ColumnStats, len(r.Calls))...)}
	case *engine.ProjectSet:
		in := o.estimate(r.Input)
		return estimate{rows: in.rows, cols: make([]engine.ColumnStats, len(r.Pass)+len(r.Funcs))}
	}
	return estimate{rows: 1000}
}

// capDistinct bounds each column's distinct values by the rows.
func capDistinct(e estimate) {
	for i := range e.cols {
		if e.cols[i].Distinct > e.rows {
			e.cols[i].Distinct = e.rows
		}
	}
}

// distinctOf estimates the distinct values of key expression k over a
// node estimated as e.
func distinctOf(k engine.Expr, e estimate) float64 {
	if c, ok := k.(*engine.ColRef); ok && c.Idx < len(e.cols) && e.cols[c.Idx].Distinct > 0 {
		return e.cols[c.Idx].Distinct
	}
	return e.rows
}

// joinRows estimates an equi-join's output: each key pair divides the
// cross product by the larger side's distinct keys; the most selective
// pair is used (keys of one join are rarely independent).
func joinRows(l, r estimate, lk, rk []engine.Expr) float64 {
	rows := l.rows * r.rows
	if len(lk) == 0 {
		return math.Max(rows, 1)
	}
	best := 1.0
	for i := range lk {
		d := math.Max(distinctOf(lk[i], l), distinctOf(rk[i], r))
		best = math.Max(best, d)
	}
	return math.Max(rows/best, 1)
}

// selectivity estimates the fraction of a node's rows (estimated as in)
// for which cond is true.
func selectivity(cond engine.Expr, in estimate) float64 {
	s := sel(cond, in)
	return math.Min(math.Max(s, 1e-7), 1)
}

func sel(cond engine.Expr, in estimate) float64 {
	c, ok := cond.(*engine.Call)
	if !ok {
		return 0.5
	}
	colStats := func(e engine.Expr) (engine.ColumnStats, bool) {
		if cr, ok := e.(*engine.ColRef); ok && cr.Idx < len(in.cols) {
			return in.cols[cr.Idx], true
		}
		if cc, ok := e.(*engine.Call); ok && cc.Op == engine.OpCast && len(cc.Args) == 1 {
			if cr, ok := cc.Args[0].(*engine.ColRef); ok && cr.Idx < len(in.cols) {
				return in.cols[cr.Idx], true
			}
		}
		return engine.ColumnStats{}, false
	}
	switch c.Op {
	case engine.OpAnd:
		return andSelectivity(conjuncts(cond), in)
	case engine.OpOr:
		keep := 1.0
		for _, a := range c.Args {
			keep *= 1 - sel(a, in)
		}
		return 1 - keep
	case engine.OpNot:
		return 1 - sel(c.Args[0], in)
	case engine.OpEq:
		a, ok1 := colStats(c.Args[0])
		b, ok2 := colStats(c.Args[1])
		switch {
		case ok1 && ok2 && a.Distinct > 0 && b.Distinct > 0:
			return 1 / math.Max(a.Distinct, b.Distinct)
		case ok1 && a.Distinct > 0:
			return 1 / a.Distinct
		case ok2 && b.Distinct > 0:
			return 1 / b.Distinct
		}
		return 0.05
	case engine.OpNe:
		if a, ok := colStats(c.Args[0]); ok && a.Distinct > 0 {
			return 1 - 1/a.Distinct
		}
		return 0.9
	case engine.OpLt, engine.OpLe, engine.OpGt, engine.OpGe:
		return andSelectivity([]engine.Expr{cond}, in)
	case engine.OpIn:
		n := float64(len(c.Args) - 1)
		if a, ok := colStats(c.Args[0]); ok && a.Distinct > 0 {
			return math.Min(1, n/a.Distinct)
		}
		return math.Min(1, 0.05*n)
	case engine.OpLike, engine.OpILike, engine.OpRegexMatch:
		if k, ok := c.Args[1].(*engine.Const); ok && len(k.S) > 0 && k.S[0] != '%' && k.S[0] != '_' {
			return 0.02
		}
		return 0.1
	case engine.OpIsNull:
		if a, ok := colStats(c.Args[0]); ok {
			return a.NullFrac
		}
		return 0.05
	case engine.OpIsNotNull:
		if a, ok := colStats(c.Args[0]); ok {
			return 1 - a.NullFrac
		}
		return 0.95
	}
	return 0.3
}

// andSelectivity multiplies the conjuncts' selectivities, except that
// range conditions on one column combine into one interval: x >= a AND
// x < b keeps the part of x's range between a and b.
func andSelectivity(cs []engine.Expr, in estimate) float64 {
	type interval struct{ lo, hi float64 }
	ranges := map[int]*interval{}
	s := 1.0
	for _, e := range cs {
		c, ok := e.(*engine.Call)
		if ok && len(c.Args) == 2 && (c.Op == engine.OpLt || c.Op == engine.OpLe || c.Op == engine.OpGt || c.Op == engine.OpGe) {
			col, k, op := c.Args[0], c.Args[1], c.Op
			if _, isCol := col.(*engine.ColRef); !isCol {
				col, k = k, col
				op = map[engine.Op]engine.Op{engine.OpLt: engine.OpGt, engine.OpLe: engine.OpGe, engine.OpGt: engine.OpLt, engine.OpGe: engine.OpLe}[op]
			}
			cr, isCol := col.(*engine.ColRef)
			x, isNum := constNumber(k)
			if isCol && isNum && cr.Idx < len(in.cols) && in.cols[cr.Idx].HasRange {
				iv := ranges[cr.Idx]
				if iv == nil {
					iv = &interval{math.Inf(-1), math.Inf(1)}
					ranges[cr.Idx] = iv
				}
				if op == engine.OpLt || op == engine.OpLe {
					iv.hi = math.Min(iv.hi, x)
				} else {
					iv.lo = math.Max(iv.lo, x)
				}
				continue
			}
			s *= 0.33
			continue
		}
		s *= sel(e, in)
	}
	for col, iv := range ranges {
		st := in.cols[col]
		width := st.Max - st.Min
		lo, hi := math.Max(iv.lo, st.Min), math.Min(iv.hi, st.Max)
		switch {
		case hi < lo:
			s *= 0.001
		case width <= 0:
			s *= 1
		default:
			s *= math.Max((hi-lo)/width, 0.001)
		}
	}
	return s
}

// constNumber is a constant's value as a number, as ColumnStats ranges
// hold it.
func constNumber(e engine.Expr) (float64, bool) {
	k, ok := e.(*engine.Const)
	if !ok || k.Null {
		return 0, false
	}
	switch engine.PhysOf(k.T.Kind) {
	case engine.PhysInt:
		return float64(k.I), true
	case engine.PhysFloat:
		return k.F, true
	case engine.PhysDec:
		return k.D.Float64(), true
	}
	return 0, false
}
