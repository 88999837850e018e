package engine

import (
	"fmt"
	"strings"
)

// Rel is a node of a query's plan tree: an operator whose output is a
// table. A *Plan is both the leaf that scans stored data (Plan.Data) and
// the pipeline that filters, aggregates, projects and sorts over another
// node's output (Plan.Input); *Join and *SetOp combine two nodes. A
// backend runs a tree bottom-up and keeps intermediate results in its
// own storage (host columns on the CPU, device columns on the GPU).
type Rel interface {
	// Columns are the output columns, in order.
	Columns() []ColumnDef
	// Inputs are the node's children.
	Inputs() []Rel
	// Head is the node's first line in EXPLAIN.
	Head() string
}

// JoinKind is the kind of a Join.
type JoinKind uint8

const (
	// JoinInner outputs every matching pair (Left's columns then
	// Right's); without keys or residual, every pair (a cross join).
	JoinInner JoinKind = iota
	// JoinLeft also outputs each unmatched Left row, with NULLs for
	// Right's columns.
	JoinLeft
	// JoinRight also outputs each unmatched Right row, with NULLs for
	// Left's columns.
	JoinRight
	// JoinFull outputs the matches and the unmatched rows of both sides.
	JoinFull
	// JoinSemi outputs each Left row that has at least one match, once
	// (Left's columns only): EXISTS, IN.
	JoinSemi
	// JoinAnti outputs each Left row that has no match (Left's columns
	// only): NOT EXISTS.
	JoinAnti
	// JoinAntiNull is NOT IN's anti join, with one key pair: a Left row
	// is output when Right is empty, or when its key is not NULL, matches
	// no Right row, and no Right key is NULL (else NOT IN is false or
	// NULL, and WHERE drops the row).
	JoinAntiNull
)

var joinKindNames = [...]string{"Inner", "Left", "Right", "Full", "Semi", "Anti", "Anti (NOT IN)"}

func (k JoinKind) String() string { return joinKindNames[k] }

// Join joins two nodes. A pair of rows matches when LeftKeys[i] equals
// RightKeys[i] for every i (a NULL key matches nothing) and Residual, if
// any, is true. The backends hash on the keys; with none they compare
// every pair.
type Join struct {
	Kind        JoinKind
	Left, Right Rel
	// LeftKeys are expressions over Left's columns, RightKeys over
	// Right's; the binder gave each pair one type.
	LeftKeys, RightKeys []Expr
	// Residual is a condition over Left's columns followed by Right's.
	Residual Expr
	// Est is the planner's estimate of the output rows (0: none).
	Est float64
}

// Columns are Left's then Right's; a semi or anti join's are Left's.
// NumColumns is len(r.Columns()) without building the list (a join
// tree's Columns walks the whole tree).
func NumColumns(r Rel) int {
	switch r := r.(type) {
	case *Plan:
		return r.Visible
	case *Join:
		n := NumColumns(r.Left)
		switch r.Kind {
		case JoinSemi, JoinAnti, JoinAntiNull:
			return n
		}
		return n + NumColumns(r.Right)
	case *SetOp:
		return len(r.Cols)
	}
	return len(r.Columns())
}

func (j *Join) Columns() []ColumnDef {
	l := j.Left.Columns()
	switch j.Kind {
	case JoinSemi, JoinAnti, JoinAntiNull:
		return l
	}
	r := j.Right.Columns()
	out := make([]ColumnDef, 0, len(l)+len(r))
	for _, c := range l {
		c.NotNull = c.NotNull && (j.Kind == JoinInner || j.Kind == JoinLeft)
		out = append(out, c)
	}
	for _, c := range r {
		c.NotNull = c.NotNull && (j.Kind == JoinInner || j.Kind == JoinRight)
		out = append(out, c)
	}
	return out
}

func (j *Join) Inputs() []Rel { return []Rel{j.Left, j.Right} }

func (j *Join) Head() string {
	var b strings.Builder
	if len(j.LeftKeys) == 0 && j.Residual == nil && j.Kind == JoinInner {
		b.WriteString("Cross Join")
	} else {
		fmt.Fprintf(&b, "Hash %s Join", j.Kind)
	}
	for i := range j.LeftKeys {
		if i == 0 {
			b.WriteString(" on ")
		} else {
			b.WriteString(" and ")
		}
		fmt.Fprintf(&b, "%s = %s", j.LeftKeys[i], j.RightKeys[i])
	}
	if j.Residual != nil {
		fmt.Fprintf(&b, " filter %s", j.Residual)
	}
	if j.Est > 0 {
		fmt.Fprintf(&b, " (est %.0f rows)", j.Est)
	}
	return b.String()
}

// SetOpKind is UNION, INTERSECT or EXCEPT.
type SetOpKind uint8

const (
	SetUnion SetOpKind = iota
	SetIntersect
	SetExcept
)

func (k SetOpKind) String() string { return [...]string{"Union", "Intersect", "Except"}[k] }

// SetOp combines the rows of two nodes with the same column types. With
// All unset, the output has no duplicates (NULLs equal each other). The
// output keeps Left's row order for UNION ALL, INTERSECT and EXCEPT,
// Right's rows following for UNION ALL; other orders are unspecified.
type SetOp struct {
	Op          SetOpKind
	All         bool
	Left, Right Rel
	// Cols are the output columns (Left's names, the common types).
	Cols []ColumnDef
}

func (s *SetOp) Columns() []ColumnDef { return s.Cols }
func (s *SetOp) Inputs() []Rel        { return []Rel{s.Left, s.Right} }
func (s *SetOp) Head() string {
	if s.All {
		return s.Op.String() + " All"
	}
	return s.Op.String()
}

// Columns of a plan are its visible outputs.
func (p *Plan) Columns() []ColumnDef {
	out := make([]ColumnDef, p.Visible)
	for i := range out {
		out[i] = ColumnDef{Name: p.Names[i], Type: p.Project[i].Type()}
	}
	return out
}

// Inputs is the plan's input node, if it has one.
func (p *Plan) Inputs() []Rel {
	if p.Input == nil {
		return nil
	}
	return []Rel{p.Input}
}

// Head names what the plan reads.
func (p *Plan) Head() string {
	switch {
	case p.Input != nil:
		return "Pipeline"
	case p.Table != "":
		return "Scan " + p.Table
	}
	return "Values (one row)"
}

// InputColumns are the columns the plan's filter, grouping and
// aggregates (or, without aggregation, its projection) read: its Input's
// columns, or its table's schema.
func (p *Plan) InputColumns() []ColumnDef {
	if p.Input != nil {
		return p.Input.Columns()
	}
	return p.Schema
}

// IsView reports whether p only renames or reorders its input's columns:
// no filter, aggregate, DISTINCT, ORDER BY or LIMIT, and every output a
// column reference. A backend may then share its input's storage.
func (p *Plan) IsView() bool {
	if p.Filter != nil || p.Aggregate || p.Distinct || len(p.OrderBy) > 0 || p.Limit >= 0 || p.Offset > 0 {
		return false
	}
	for _, e := range p.Project[:p.Visible] {
		if _, ok := e.(*ColRef); !ok {
			return false
		}
	}
	return true
}

// WalkRel calls f on r and every node below it, parents first.
func WalkRel(r Rel, f func(Rel)) {
	if r == nil {
		return
	}
	f(r)
	for _, in := range r.Inputs() {
		WalkRel(in, f)
	}
}

// Leaves returns the plans of a tree that scan stored data.
func Leaves(r Rel) []*Plan {
	var out []*Plan
	WalkRel(r, func(n Rel) {
		if p, ok := n.(*Plan); ok && p.Input == nil {
			out = append(out, p)
		}
	})
	return out
}
