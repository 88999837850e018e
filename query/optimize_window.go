package query

import "github.com/gpusql/gpusql/engine"

// window plans a Window node: its input keeps the columns that the
// nodes above and the calls read. Conditions from above stay above: a
// window function's value depends on the rows that are not filtered.
func (o *optimizer) window(w *engine.Window, preds []engine.Expr, need []bool) (engine.Rel, []int, []engine.Expr, error) {
	nin := len(w.Input.Columns())
	needIn := make([]bool, nin)
	copy(needIn, need)
	set := map[int]bool{}
	for i := range w.Calls {
		c := &w.Calls[i]
		for _, e := range c.Exprs() {
			colsOf(e, set)
		}
		for _, p := range c.Partition {
			set[p] = true
		}
		for _, k := range c.Order {
			set[k.Col] = true
		}
	}
	for c := range set {
		needIn[c] = true
	}
	in, m, _, err := o.rel(w.Input, nil, needIn)
	if err != nil {
		return nil, nil, nil, err
	}
	out := *w
	out.Input = in
	out.Calls = make([]engine.WindowCall, len(w.Calls))
	for i, c := range w.Calls {
		c.Partition = append([]int(nil), c.Partition...)
		for k, p := range c.Partition {
			c.Partition[k] = m[p]
		}
		c.Order = append([]engine.SortKey(nil), c.Order...)
		for k := range c.Order {
			c.Order[k].Col = m[c.Order[k].Col]
		}
		if len(c.Args) > 0 {
			args := make([]engine.Expr, len(c.Args))
			for k, a := range c.Args {
				args[k] = renumber(a, m)
			}
			c.Args = args
		}
		c.Agg = renumberAgg(c.Agg, m)
		out.Calls[i] = c
	}
	kept := len(in.Columns())
	om := make([]int, nin+len(w.Calls))
	copy(om, m)
	for k := range w.Calls {
		om[nin+k] = kept + k
	}
	return &out, om, preds, nil
}

// renumberAgg is a as its input's column i moved to m[i], field by
// field as plan renumbers a pipeline's aggregates.
func renumberAgg(a engine.AggCall, m []int) engine.AggCall {
	a.Arg, a.Sep, a.Arg2 = renumber(a.Arg, m), renumber(a.Sep, m), renumber(a.Arg2, m)
	if len(a.Order) > 0 {
		ord := make([]engine.AggOrder, len(a.Order))
		for k, x := range a.Order {
			x.Expr = renumber(x.Expr, m)
			ord[k] = x
		}
		a.Order = ord
	}
	return a
}
