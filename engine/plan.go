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

// Plan is a bound single-table query, in the order a backend runs it:
//
//	scan Data → Filter → (GroupBy, Aggs → Having) → Project → Distinct →
//	OrderBy → Offset/Limit → the first Visible columns of Project
//
// Without aggregation, Filter and Project read the table's columns (ColRef
// indexes into the table). With aggregation (Aggregate true), Having and
// Project read the aggregate output: GroupBy values first, then Aggs.
// ORDER BY keys refer to Project columns; those past Visible exist only to
// be sorted on.
type Plan struct {
	Table string // "" when there is no FROM
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
	Project   []Expr
	Distinct  bool
	OrderBy   []SortKey
	Offset    int64
	Limit     int64 // -1: none
	Visible   int
	Names     []string
}

// String renders the plan for EXPLAIN and golden tests.
func (p *Plan) String() string {
	var b strings.Builder
	if p.Table != "" {
		fmt.Fprintf(&b, "Scan %s\n", p.Table)
	} else {
		b.WriteString("Values (one row)\n")
	}
	if p.Filter != nil {
		fmt.Fprintf(&b, "Filter %s\n", p.Filter)
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
		fmt.Fprintf(&b, "Aggregate group=[%s] aggs=[%s]\n", strings.Join(g, ", "), strings.Join(a, ", "))
		if p.Having != nil {
			fmt.Fprintf(&b, "Having %s\n", p.Having)
		}
	}
	pr := make([]string, len(p.Project))
	for i, e := range p.Project {
		pr[i] = e.String()
	}
	fmt.Fprintf(&b, "Project [%s]\n", strings.Join(pr, ", "))
	if p.Distinct {
		b.WriteString("Distinct\n")
	}
	if len(p.OrderBy) > 0 {
		k := make([]string, len(p.OrderBy))
		for i, s := range p.OrderBy {
			k[i] = fmt.Sprintf("#%d desc=%v nulls_first=%v", s.Col, s.Desc, s.NullsFirst)
		}
		fmt.Fprintf(&b, "Sort [%s]\n", strings.Join(k, ", "))
	}
	if p.Limit >= 0 || p.Offset > 0 {
		fmt.Fprintf(&b, "Limit %d offset %d\n", p.Limit, p.Offset)
	}
	return b.String()
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
