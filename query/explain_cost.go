package query

// EXPLAIN's first line ends in PostgreSQL's "(cost=S..T rows=N
// width=W)", from the planner's estimates. postgres_fdw with
// use_remote_estimate reads exactly that (the last parenthesis of the
// first line) to cost the scans, joins and aggregates it could send to a
// gpusql node (docs/scale-out.md); a client reading plans sees the row
// estimate. The costs are in PostgreSQL's units, roughly: cpuTupleCost
// per input row of every table read, plus as much per row returned.

import (
	"fmt"
	"math"

	"github.com/gpusql/gpusql/engine"
)

// cpuTupleCost is PostgreSQL's default cpu_tuple_cost.
const cpuTupleCost = 0.01

// explainCost is the cost annotation of a planned statement: its
// estimated rows and average row width.
func (s *Session) explainCost(plan *engine.Plan) string {
	o := &optimizer{stats: s.srv.columnStats}
	rows := math.Max(1, math.Round(o.estimate(plan).rows))
	var scanned float64
	var walk func(r engine.Rel)
	walk = func(r engine.Rel) {
		if p, ok := r.(*engine.Plan); ok && p.Data != nil {
			scanned += float64(p.Data.Rows())
		}
		for _, in := range r.Inputs() {
			walk(in)
		}
	}
	walk(plan)
	width := 0
	for _, c := range plan.Columns() {
		width += explainWidth(c.Type)
	}
	total := cpuTupleCost * (scanned + rows)
	startup := 0.0
	if plan.Aggregate || len(plan.OrderBy) > 0 {
		// nothing comes out before the input is read
		startup = cpuTupleCost * scanned
	}
	return fmt.Sprintf("  (cost=%.2f..%.2f rows=%.0f width=%d)", startup, total, rows, width)
}

// explainWidth is PostgreSQL's average width guess for a type.
func explainWidth(t engine.Type) int {
	if w := t.StorageWidth(); w > 0 {
		return w
	}
	switch {
	case t.Len > 0:
		return t.Len + 4
	}
	return 32
}
