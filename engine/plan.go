package engine

import (
	"context"
	"fmt"
	"strings"
)

// SortKey orders by output column Col.
type SortKey struct {
	Col        int
	Desc       bool
	NullsFirst bool
}

// Plan is a pipeline over one input, in the order a backend runs it:
//
//	scan Data (or Input's output) → Filter → (GroupBy, Aggs → Having) →
//	Project → Distinct → OrderBy → Offset/Limit → the first Visible
//	columns of Project
//
// Without aggregation, Filter and Project read the input's columns (ColRef
// indexes into them). With aggregation (Aggregate true), Having and
// Project read the aggregate output: GroupBy values first, then Aggs.
// ORDER BY keys refer to Project columns; those past Visible exist only to
// be sorted on. A Plan is a Rel: a leaf when it scans stored data, an
// inner node when it reads Input.
type Plan struct {
	// Input, when set, is the node whose output the plan reads (a join,
	// a set operation, a derived table); Table, Schema and Data are then
	// unset.
	Input Rel
	// Optimized marks a tree the planner has already rewritten.
	Optimized bool
	Table     string // "" when there is no FROM
	// Host marks a plan over data built in host memory (system relations,
	// joins, derived tables and set operations materialised by the
	// binder): the query server runs it on its host executor.
	Host   bool
	Schema []ColumnDef
	Data   TableData // snapshot taken at bind time; nil means one empty row
	Filter Expr
	// Aggregate is set when the query has aggregates or GROUP BY.
	Aggregate bool
	GroupBy   []Expr
	Aggs      []AggCall
	Having    Expr
	// GroupingSets, when set, are the sets of GROUPING SETS, ROLLUP or
	// CUBE: the aggregate output is the rows of one aggregation per set,
	// in the column layout of GroupBy (grouping.go).
	GroupingSets []GroupingSet
	Project      []Expr
	Distinct     bool
	// DistinctOn, with Distinct, makes it DISTINCT ON: after ORDER BY,
	// the first row of each set of equal values of these Project columns.
	DistinctOn []int
	OrderBy    []SortKey
	Offset     int64
	Limit      int64 // -1: none
	Visible    int
	Names      []string
}

// String renders the plan for EXPLAIN and golden tests: the pipeline's
// steps, each on a line, and the tree below it indented.
func (p *Plan) String() string { return p.Explain(nil) }

// Explain renders the plan as String does, adding note(r), when not
// empty, to the first line of each node r of the tree (EXPLAIN ANALYZE's
// rows and times).
func (p *Plan) Explain(note func(r Rel) string) string {
	var b strings.Builder
	writeRel(&b, p, 0, note)
	return b.String()
}

// writeRel renders node r at depth d.
func writeRel(b *strings.Builder, r Rel, d int, note func(Rel) string) {
	extra := ""
	if note != nil {
		if s := note(r); s != "" {
			extra = "  " + s
		}
	}
	pad := strings.Repeat("  ", d)
	if d > 0 {
		pad = strings.Repeat("  ", d-1) + "-> "
	}
	p, ok := r.(*Plan)
	if !ok {
		fmt.Fprintf(b, "%s%s%s\n", pad, r.Head(), extra)
		for _, in := range r.Inputs() {
			writeRel(b, in, d+1, note)
		}
		return
	}
	var steps strings.Builder
	p.writeSteps(&steps)
	lines := strings.Split(strings.TrimRight(steps.String(), "\n"), "\n")
	for i, l := range lines {
		if i == 0 {
			fmt.Fprintf(b, "%s%s%s\n", pad, l, extra)
		} else {
			fmt.Fprintf(b, "%s%s\n", strings.Repeat("  ", d), l)
		}
	}
	if p.Input != nil {
		writeRel(b, p.Input, d+1, note)
	}
}

// writeSteps writes the pipeline's own steps, one a line.
func (p *Plan) writeSteps(b *strings.Builder) {
	switch {
	case p.Input != nil:
		b.WriteString("Pipeline\n")
	case p.Table != "":
		fmt.Fprintf(b, "Scan %s\n", p.Table)
	default:
		b.WriteString("Values (one row)\n")
	}
	if p.Filter != nil {
		fmt.Fprintf(b, "Filter %s\n", p.Filter)
	}
	if p.Aggregate {
		g := make([]string, len(p.GroupBy))
		for i, e := range p.GroupBy {
			g[i] = e.String()
		}
		a := make([]string, len(p.Aggs))
		for i, e := range p.Aggs {
			a[i] = e.String()
		}
		fmt.Fprintf(b, "Aggregate group=[%s] aggs=[%s]\n", strings.Join(g, ", "), strings.Join(a, ", "))
		if len(p.GroupingSets) > 0 {
			fmt.Fprintf(b, "Grouping Sets %s\n", groupingSetsString(p.GroupingSets))
		}
		if p.Having != nil {
			fmt.Fprintf(b, "Having %s\n", p.Having)
		}
	}
	pr := make([]string, len(p.Project))
	for i, e := range p.Project {
		pr[i] = e.String()
	}
	fmt.Fprintf(b, "Project [%s]\n", strings.Join(pr, ", "))
	if p.Distinct && len(p.DistinctOn) > 0 {
		fmt.Fprintf(b, "Distinct On %v\n", p.DistinctOn)
	} else if p.Distinct {
		b.WriteString("Distinct\n")
	}
	if len(p.OrderBy) > 0 {
		k := make([]string, len(p.OrderBy))
		for i, s := range p.OrderBy {
			k[i] = fmt.Sprintf("#%d desc=%v nulls_first=%v", s.Col, s.Desc, s.NullsFirst)
		}
		fmt.Fprintf(b, "Sort [%s]\n", strings.Join(k, ", "))
	}
	if p.Limit >= 0 || p.Offset > 0 {
		fmt.Fprintf(b, "Limit %d offset %d\n", p.Limit, p.Offset)
	}
}

// BatchSink receives result batches. A batch holds Plan.Visible columns and
// is valid only during the call.
type BatchSink func(b *Batch) error

// MemoryReporter is implemented by backends that hold device memory.
type MemoryReporter interface {
	// DeviceMemoryInUse is the device memory allocated now: every
	// table version's columns and every running statement's scratch.
	DeviceMemoryInUse() int64
}

// Backend runs loads and plans. Code above this interface never knows
// which backend it is talking to.
type Backend interface {
	// Name names the backend and its device, e.g. "cpu (2 cores)".
	Name() string
	Loader
	// Execute runs p, sending results to sink in order.
	Execute(ctx context.Context, p *Plan, sink BatchSink) error
}
