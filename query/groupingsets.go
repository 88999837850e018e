package query

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/gpusql/gpusql/engine"
)

// GROUPING SETS, ROLLUP, CUBE, grouping() and DISTINCT ON, which the
// rewrite layer writes as calls (query/parse/aggsyntax.go).
//
// A GROUP BY with grouping sets binds its expressions once, as a plain
// GROUP BY of all of them (duplicates included), and records the sets
// as lists of those expressions; the plan (engine.GroupingSet) runs one
// aggregation per set, where the expressions outside the set are NULL.
// grouping(a, ...) is a hidden group column whose value is a constant
// in each set: bit i (from the right, the last argument lowest) is set
// when argument i is not grouped in that set.

// groupingSet is one set: indices into the GROUP BY expressions.
type groupingSet []int

// groupingFuncs maps a grouping() call's arguments to its hidden column.
type groupingFunc struct {
	key  string // the call, as its bound arguments' strings
	args []int  // the group column of each argument
	col  int    // the hidden group column
}

// expandGroupBy flattens GROUP BY items with grouping sets into the
// plain items the binder binds and the sets over their positions. sets
// is nil when the clause has no grouping-set construct.
func expandGroupBy(items []*ast.ByItem) ([]*ast.ByItem, []groupingSet, error) {
	has := false
	for _, it := range items {
		if isGroupingConstruct(it.Expr) {
			has = true
		}
	}
	if !has {
		return items, nil, nil
	}
	var flat []*ast.ByItem
	add := func(n ast.ExprNode) int {
		flat = append(flat, &ast.ByItem{Expr: n})
		return len(flat) - 1
	}
	// element: one item of a ROLLUP, CUBE or a set: an expression, a row
	// of expressions or the empty set
	element := func(n ast.ExprNode) groupingSet {
		switch x := n.(type) {
		case *ast.RowExpr:
			var s groupingSet
			for _, v := range x.Values {
				s = append(s, add(v))
			}
			return s
		case *ast.FuncCallExpr:
			if x.FnName.L == "__gpusql_empty_set" {
				return groupingSet{}
			}
		}
		return groupingSet{add(n)}
	}
	var sets func(n ast.ExprNode) ([]groupingSet, error)
	sets = func(n ast.ExprNode) ([]groupingSet, error) {
		f, ok := n.(*ast.FuncCallExpr)
		if !ok {
			return []groupingSet{element(n)}, nil
		}
		switch f.FnName.L {
		case "__gpusql_rollup":
			var els []groupingSet
			for _, a := range f.Args {
				els = append(els, element(a))
			}
			var out []groupingSet
			for k := len(els); k >= 0; k-- {
				var s groupingSet
				for _, e := range els[:k] {
					s = append(s, e...)
				}
				out = append(out, s)
			}
			return out, nil
		case "__gpusql_cube":
			var els []groupingSet
			for _, a := range f.Args {
				els = append(els, element(a))
			}
			if len(els) > 12 {
				return nil, engine.Errorf(engine.CodeProgramLimitExceeded, "CUBE is limited to 12 elements")
			}
			// PostgreSQL's order: (a,b,c), (a,b), (a,c), (a), (b,c), ...
			var out []groupingSet
			var rec func(i int, cur groupingSet)
			rec = func(i int, cur groupingSet) {
				if i == len(els) {
					out = append(out, append(groupingSet(nil), cur...))
					return
				}
				rec(i+1, append(cur, els[i]...))
				rec(i+1, cur)
			}
			rec(0, nil)
			return out, nil
		case "__gpusql_grouping_sets":
			var out []groupingSet
			for _, a := range f.Args {
				s, err := sets(a)
				if err != nil {
					return nil, err
				}
				out = append(out, s...)
			}
			return out, nil
		}
		return []groupingSet{element(n)}, nil
	}
	result := []groupingSet{{}}
	for _, it := range items {
		ss, err := sets(it.Expr)
		if err != nil {
			return nil, nil, err
		}
		var next []groupingSet
		for _, a := range result {
			for _, b := range ss {
				next = append(next, append(append(groupingSet(nil), a...), b...))
			}
		}
		result = next
		if len(result) > 4096 {
			return nil, nil, engine.Errorf(engine.CodeProgramLimitExceeded, "too many grouping sets present (maximum 4096)")
		}
	}
	return flat, result, nil
}

func isGroupingConstruct(n ast.ExprNode) bool {
	f, ok := n.(*ast.FuncCallExpr)
	if !ok {
		return false
	}
	switch f.FnName.L {
	case "__gpusql_rollup", "__gpusql_cube", "__gpusql_grouping_sets", "__gpusql_empty_set":
		return true
	}
	return false
}

// finishGroupingSets records the sets once the GROUP BY expressions are
// bound (sets index them), each duplicate expression standing for its
// first occurrence, and adds the hidden columns of sel's grouping()
// calls. It runs before any aggregate is bound, since the aggregates'
// columns follow the group columns.
func (b *binder) finishGroupingSets(sel *ast.SelectStmt, sets []groupingSet) error {
	canon := make([]int, len(b.agg.groupKeys))
	for i, k := range b.agg.groupKeys {
		canon[i] = i
		for j := 0; j < i; j++ {
			if b.agg.groupKeys[j] == k {
				canon[i] = j
				break
			}
		}
	}
	for _, s := range sets {
		c := make(groupingSet, 0, len(s))
		seen := map[int]bool{}
		for _, i := range s {
			if !seen[canon[i]] {
				seen[canon[i]] = true
				c = append(c, canon[i])
			}
		}
		b.agg.sets = append(b.agg.sets, c)
	}
	if sets == nil {
		return nil
	}
	// grouping() calls: each gets a hidden group column
	var calls []*ast.FuncCallExpr
	v := &groupingFinder{}
	for _, f := range sel.Fields.Fields {
		if f.Expr != nil {
			f.Expr.Accept(v)
		}
	}
	if sel.Having != nil {
		sel.Having.Expr.Accept(v)
	}
	if sel.OrderBy != nil {
		for _, o := range sel.OrderBy.Items {
			o.Expr.Accept(v)
		}
	}
	calls = v.found
	for _, f := range calls {
		gf, err := b.groupingArgs(f)
		if err != nil {
			return err
		}
		dup := false
		for _, o := range b.agg.grouping {
			if o.key == gf.key {
				dup = true
			}
		}
		if dup {
			continue
		}
		gf.col = len(b.agg.groups)
		b.agg.groups = append(b.agg.groups, &engine.Const{T: engine.Int32})
		b.agg.groupKeys = append(b.agg.groupKeys, "grouping("+gf.key+")")
		b.agg.grouping = append(b.agg.grouping, gf)
	}
	return nil
}

type groupingFinder struct{ found []*ast.FuncCallExpr }

func (g *groupingFinder) Enter(n ast.Node) (ast.Node, bool) {
	switch x := n.(type) {
	case *ast.SubqueryExpr:
		return n, true
	case *ast.FuncCallExpr:
		if x.FnName.L == "__gpusql_grouping" {
			g.found = append(g.found, x)
			return n, true
		}
	}
	return n, false
}
func (g *groupingFinder) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// groupingArgs binds a grouping() call's arguments, each of which must
// be a GROUP BY expression.
func (b *binder) groupingArgs(f *ast.FuncCallExpr) (groupingFunc, error) {
	var gf groupingFunc
	if len(f.Args) == 0 || len(f.Args) > 31 {
		return gf, engine.Errorf(engine.CodeSyntaxError, "GROUPING must have fewer than 32 arguments")
	}
	var keys []string
	for _, a := range f.Args {
		e, err := b.plain().expr(a)
		if err != nil {
			return gf, err
		}
		s := e.String()
		col := -1
		for k, g := range b.agg.groupKeys {
			if g == s && !strings.HasPrefix(g, "grouping(") {
				col = k
				break
			}
		}
		if col < 0 {
			return gf, engine.Errorf(engine.CodeGroupingError, "arguments to GROUPING must be grouping expressions of the associated query level")
		}
		gf.args = append(gf.args, col)
		keys = append(keys, s)
	}
	gf.key = strings.Join(keys, ", ")
	return gf, nil
}

// groupingSyntax binds the calls that stand for FILTER and grouping().
func (b *binder) groupingSyntax(f *ast.FuncCallExpr) (engine.Expr, error) {
	if f.FnName.L == "__gpusql_filter" {
		return b.filteredAgg(f) // bindpgagg.go
	}
	if b.agg == nil {
		return nil, engine.Errorf(engine.CodeGroupingError, "arguments to GROUPING must be grouping expressions of the associated query level")
	}
	gf, err := b.groupingArgs(f)
	if err != nil {
		return nil, err
	}
	for _, o := range b.agg.grouping {
		if o.key == gf.key {
			return &engine.ColRef{Idx: o.col, Name: "grouping(" + gf.key + ")", T: engine.Int32}, nil
		}
	}
	// a plain GROUP BY: every argument is always grouped
	return &engine.Const{T: engine.Int32, I: 0}, nil
}

// planGroupingSets is the plan's engine.GroupingSets.
func (b *binder) planGroupingSets() []engine.GroupingSet {
	if len(b.agg.sets) == 0 {
		return nil
	}
	var out []engine.GroupingSet
	for _, s := range b.agg.sets {
		in := map[int]bool{}
		for _, k := range s {
			in[k] = true
		}
		gs := engine.GroupingSet{Values: make([]engine.Expr, len(b.agg.groups))}
		for c, g := range b.agg.groups {
			if in[c] {
				continue
			}
			gs.Values[c] = &engine.Const{T: g.Type(), Null: true}
		}
		gs.Keys = append(gs.Keys, s...)
		for _, gf := range b.agg.grouping {
			mask := int64(0)
			for _, a := range gf.args {
				mask <<= 1
				if !in[a] {
					mask |= 1
				}
			}
			gs.Values[gf.col] = &engine.Const{T: engine.Int32, I: mask}
		}
		out = append(out, gs)
	}
	return out
}

// distinctOn takes the DISTINCT ON call the rewrite appended to the
// select list off sel and returns its arguments (nil when there is none).
func distinctOn(sel *ast.SelectStmt) []ast.ExprNode {
	fs := sel.Fields.Fields
	if len(fs) == 0 {
		return nil
	}
	f, ok := fs[len(fs)-1].Expr.(*ast.FuncCallExpr)
	if !ok || f.FnName.L != "__gpusql_distinct_on" {
		return nil
	}
	sel.Fields.Fields = fs[:len(fs)-1]
	return f.Args
}

// bindDistinctOn makes p a DISTINCT ON (on) query, after its ORDER BY is
// bound: the ON expressions are output columns (hidden ones added as for
// ORDER BY), and ORDER BY must start with them.
func (b *binder) bindDistinctOn(p *engine.Plan, on []ast.ExprNode) error {
	cols := map[int]bool{}
	for _, n := range on {
		key, err := b.orderKey(p, &ast.ByItem{Expr: n}, false)
		if err != nil {
			return err
		}
		if !cols[key.Col] {
			cols[key.Col] = true
			p.DistinctOn = append(p.DistinctOn, key.Col)
		}
	}
	seen := map[int]bool{}
	for _, k := range p.OrderBy {
		if len(seen) == len(cols) {
			break
		}
		if !cols[k.Col] {
			return engine.Errorf(engine.CodeInvalidColumnReference, "SELECT DISTINCT ON expressions must match initial ORDER BY expressions")
		}
		seen[k.Col] = true
	}
	p.Distinct = true
	return nil
}
