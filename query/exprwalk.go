package query

import "github.com/gpusql/gpusql/engine"

// Walks over bound expressions that the planner needs: which columns an
// expression reads, and the same expression over renumbered columns or
// with its column references replaced.

// colsOf adds the column indexes e reads to set.
func colsOf(e engine.Expr, set map[int]bool) {
	switch e := e.(type) {
	case *engine.ColRef:
		set[e.Idx] = true
	case *engine.Call:
		for _, a := range e.Args {
			colsOf(a, set)
		}
	case *engine.HostFunc:
		for _, a := range e.Args {
			colsOf(a, set)
		}
	case *engine.Case:
		for i := range e.Conds {
			colsOf(e.Conds[i], set)
			colsOf(e.Results[i], set)
		}
		colsOf(e.Else, set)
	}
}

// mapCols returns e with each column reference c replaced by f(c); f
// returns nil to keep c.
func mapCols(e engine.Expr, f func(c *engine.ColRef) engine.Expr) engine.Expr {
	switch e := e.(type) {
	case *engine.ColRef:
		if r := f(e); r != nil {
			return r
		}
		return e
	case *engine.Call:
		c := *e
		c.Args = make([]engine.Expr, len(e.Args))
		for i, a := range e.Args {
			c.Args[i] = mapCols(a, f)
		}
		return &c
	case *engine.HostFunc:
		h := *e
		h.Args = make([]engine.Expr, len(e.Args))
		for i, a := range e.Args {
			h.Args[i] = mapCols(a, f)
		}
		return &h
	case *engine.Case:
		c := *e
		c.Conds = make([]engine.Expr, len(e.Conds))
		c.Results = make([]engine.Expr, len(e.Results))
		for i := range e.Conds {
			c.Conds[i], c.Results[i] = mapCols(e.Conds[i], f), mapCols(e.Results[i], f)
		}
		c.Else = mapCols(e.Else, f)
		return &c
	}
	return e
}

// renumber returns e reading column m[i] where it read column i.
func renumber(e engine.Expr, m []int) engine.Expr {
	if e == nil {
		return nil
	}
	return mapCols(e, func(c *engine.ColRef) engine.Expr {
		r := *c
		r.Idx = m[c.Idx]
		return &r
	})
}

// shiftBy returns e reading column i+d where it read column i.
func shiftBy(e engine.Expr, d int) engine.Expr {
	if e == nil || d == 0 {
		return e
	}
	return mapCols(e, func(c *engine.ColRef) engine.Expr {
		r := *c
		r.Idx += d
		return &r
	})
}

// substitute returns e with column i replaced by exprs[i].
func substitute(e engine.Expr, exprs []engine.Expr) engine.Expr {
	return mapCols(e, func(c *engine.ColRef) engine.Expr { return exprs[c.Idx] })
}

// andAll joins conditions with AND (nil for none).
func andAll(es []engine.Expr) engine.Expr {
	var out engine.Expr
	for _, e := range es {
		out = andExpr(out, e)
	}
	return out
}

// volatile reports whether e calls a host function (a correlated
// subquery, a catalog function): such conditions stay where they were
// written.
func volatile(e engine.Expr) bool {
	switch e := e.(type) {
	case *engine.HostFunc:
		return true
	case *engine.Call:
		for _, a := range e.Args {
			if volatile(a) {
				return true
			}
		}
	case *engine.Case:
		for i := range e.Conds {
			if volatile(e.Conds[i]) || volatile(e.Results[i]) {
				return true
			}
		}
		return volatile(e.Else)
	}
	return false
}
