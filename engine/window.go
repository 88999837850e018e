package engine

import (
	"fmt"
	"strings"
)

// Window computes window functions over its input (SELECT's OVER
// clauses): its output is the input's columns, in the input's rows,
// followed by one column per call. The rows come out in the order of the
// last call's partition and ORDER BY keys (ties in input order), as
// PostgreSQL's WindowAgg emits its last sort's order; a query that needs
// an order says so with its own ORDER BY.
//
// Every expression of a call is a column reference into the input or a
// constant: the binder computes anything else in a pipeline below.
type Window struct {
	Input Rel
	Calls []WindowCall
	// Names name the calls' output columns.
	Names []string
}

// WindowFunc is a window function.
type WindowFunc uint8

const (
	WinRowNumber   WindowFunc = iota // row_number(): bigint
	WinRank                          // rank(): bigint, the first peer's row number
	WinDenseRank                     // dense_rank(): bigint, the peer group's number
	WinPercentRank                   // percent_rank(): (rank - 1) / (rows - 1), 0 for one row
	WinCumeDist                      // cume_dist(): rows up to the last peer / rows
	WinNtile                         // ntile(Args[0]): integer bucket 1..n
	WinLag                           // lag(Args[0], Args[1] offset, Args[2] default)
	WinLead                          // lead(Args[0], Args[1] offset, Args[2] default)
	WinFirstValue                    // first_value(Args[0]) of the frame
	WinLastValue                     // last_value(Args[0]) of the frame
	WinNthValue                      // nth_value(Args[0], Args[1]) of the frame
	WinAgg                           // Agg over the frame's rows
)

var windowFuncNames = [...]string{"row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "ntile",
	"lag", "lead", "first_value", "last_value", "nth_value", "aggregate"}

func (f WindowFunc) String() string { return windowFuncNames[f] }

// UsesFrame reports whether f reads the frame (the others read the
// partition and the peer groups only).
func (f WindowFunc) UsesFrame() bool {
	return f == WinFirstValue || f == WinLastValue || f == WinNthValue || f == WinAgg
}

// FrameMode is how a frame's offsets count: ROWS, RANGE or GROUPS.
type FrameMode uint8

const (
	FrameRange  FrameMode = iota // offsets in the ORDER BY key's values; CURRENT ROW is the peer group
	FrameRows                    // offsets in rows
	FrameGroups                  // offsets in peer groups
)

func (m FrameMode) String() string { return [...]string{"RANGE", "ROWS", "GROUPS"}[m] }

// BoundKind is one end of a frame.
type BoundKind uint8

const (
	BoundUnboundedPreceding BoundKind = iota
	BoundPreceding                    // Offset PRECEDING
	BoundCurrentRow
	BoundFollowing // Offset FOLLOWING
	BoundUnboundedFollowing
)

// FrameBound is a frame's start or end.
type FrameBound struct {
	Kind BoundKind
	// Offset is the constant n of n PRECEDING or n FOLLOWING: a bigint
	// for ROWS and GROUPS (never negative: the binder checks); for
	// RANGE a value of the type that the ORDER BY key's in_range takes
	// (bigint for integer keys, numeric for numerics, double precision
	// for floats, interval for dates and timestamps).
	Offset *Const
}

func (b FrameBound) String() string {
	switch b.Kind {
	case BoundUnboundedPreceding:
		return "UNBOUNDED PRECEDING"
	case BoundPreceding:
		return b.Offset.String() + " PRECEDING"
	case BoundCurrentRow:
		return "CURRENT ROW"
	case BoundFollowing:
		return b.Offset.String() + " FOLLOWING"
	}
	return "UNBOUNDED FOLLOWING"
}

// FrameExclusion is a frame's EXCLUDE clause.
type FrameExclusion uint8

const (
	ExcludeNoOthers   FrameExclusion = iota
	ExcludeCurrentRow                // the current row
	ExcludeGroup                     // the current row and its peers
	ExcludeTies                      // the current row's peers, not the row
)

func (e FrameExclusion) String() string {
	return [...]string{"NO OTHERS", "CURRENT ROW", "GROUP", "TIES"}[e]
}

// Frame is the rows of its partition that a window function reads for
// the current row, in the partition's order.
type Frame struct {
	Mode       FrameMode
	Start, End FrameBound
	Exclude    FrameExclusion
}

// DefaultFrame is PostgreSQL's frame when a window has none: RANGE
// BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW (the whole partition when
// the window has no ORDER BY, every row then being a peer).
var DefaultFrame = Frame{Mode: FrameRange, Start: FrameBound{Kind: BoundUnboundedPreceding}, End: FrameBound{Kind: BoundCurrentRow}}

func (f Frame) String() string {
	s := fmt.Sprintf("%s BETWEEN %s AND %s", f.Mode, f.Start, f.End)
	if f.Exclude != ExcludeNoOthers {
		s += " EXCLUDE " + f.Exclude.String()
	}
	return s
}

// WindowCall is one window function call.
type WindowCall struct {
	Func WindowFunc
	// Agg is the aggregate of a WinAgg call, any the binder knows;
	// its expressions read the Window's input. Agg.Distinct and
	// Agg.Order are never set (PostgreSQL has neither in windows).
	Agg AggCall
	// Args are the other functions' arguments (see WindowFunc), over
	// the input's columns. lag's and lead's default has type T.
	Args []Expr
	// Partition are the PARTITION BY columns of the input.
	Partition []int
	// Order is the window's ORDER BY, over the input's columns.
	Order []SortKey
	Frame Frame
	T     Type
}

// SameWindow reports whether c and o partition and order their rows
// alike, so that one sort serves both.
func (c *WindowCall) SameWindow(o *WindowCall) bool {
	if len(c.Partition) != len(o.Partition) || len(c.Order) != len(o.Order) {
		return false
	}
	for i := range c.Partition {
		if c.Partition[i] != o.Partition[i] {
			return false
		}
	}
	for i := range c.Order {
		if c.Order[i] != o.Order[i] {
			return false
		}
	}
	return true
}

// Exprs are the expressions the call reads from its input rows.
func (c *WindowCall) Exprs() []Expr {
	if c.Func == WinAgg {
		return c.Agg.Exprs()
	}
	return c.Args
}

func (c *WindowCall) String() string {
	var b strings.Builder
	if c.Func == WinAgg {
		b.WriteString(c.Agg.String())
	} else {
		args := make([]string, len(c.Args))
		for i, a := range c.Args {
			args[i] = a.String()
		}
		fmt.Fprintf(&b, "%s(%s)", c.Func, strings.Join(args, ", "))
	}
	b.WriteString(" OVER (")
	sep := ""
	if len(c.Partition) > 0 {
		b.WriteString("PARTITION BY ")
		for i, p := range c.Partition {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "#%d", p)
		}
		sep = " "
	}
	if len(c.Order) > 0 {
		b.WriteString(sep + "ORDER BY ")
		for i, k := range c.Order {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "#%d desc=%v nulls_first=%v", k.Col, k.Desc, k.NullsFirst)
		}
		sep = " "
	}
	if c.Func.UsesFrame() {
		b.WriteString(sep + c.Frame.String())
	}
	b.WriteString(")")
	return b.String()
}

// Columns are the input's, then one per call.
func (w *Window) Columns() []ColumnDef {
	in := w.Input.Columns()
	out := make([]ColumnDef, 0, len(in)+len(w.Calls))
	out = append(out, in...)
	for i, c := range w.Calls {
		out = append(out, ColumnDef{Name: w.Names[i], Type: c.T})
	}
	return out
}

func (w *Window) Inputs() []Rel { return []Rel{w.Input} }

// Head lists the calls.
func (w *Window) Head() string {
	calls := make([]string, len(w.Calls))
	for i := range w.Calls {
		calls[i] = w.Calls[i].String()
	}
	return "Window [" + strings.Join(calls, ", ") + "]"
}

// WindowSortKeys are the keys a backend sorts call c's rows by: the
// partition columns (ascending, NULLs last, as PostgreSQL sorts them),
// then the window's ORDER BY. A stable sort by them keeps peers in input
// order.
func WindowSortKeys(c *WindowCall) []SortKey {
	keys := make([]SortKey, 0, len(c.Partition)+len(c.Order))
	for _, p := range c.Partition {
		keys = append(keys, SortKey{Col: p})
	}
	return append(keys, c.Order...)
}
