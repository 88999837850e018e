package query

import (
	"context"
	"strconv"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/eval"
)

// Assignment: how INSERT puts a source's values into a table's columns,
// with PostgreSQL's rules for assigning a value to a column.
//
//   - A value converts to the column's type by an implicit or assignment
//     cast, or not at all (42804): numbers to numbers, date and timestamp
//     to each other, anything to a string type; a string (other than a
//     literal, which takes the column's type) to no other type, nor a
//     boolean to a number or back.
//   - The cast is the ordinary one (numbers are rounded and range
//     checked, 22003), except that a string too long for char(n) or
//     varchar(n) is an error (22001) unless only blanks are cut off.
//   - A NOT NULL column gets no NULL (23502); a column the INSERT does
//     not name is NULL, as gpusql has no column defaults.
//
// The checks of a row come in PostgreSQL's order: the casts of its
// columns left to right, then its NOT NULL constraints.

// assignment maps a source's columns onto table t's.
type assignment struct {
	t    *engine.Table
	src  []engine.ColumnDef // the source's columns
	from []int              // from[i]: the source column that fills t's column i, or -1
	// checks are conditions over the source's columns, true where a
	// row breaks them, in the order PostgreSQL checks them.
	checks []assignCheck
}

type assignCheck struct {
	col     int // t's column
	notNull bool
	cond    engine.Expr
}

// newAssignment maps src's columns onto t's columns targets (in order).
func newAssignment(t *engine.Table, targets []int, src []engine.ColumnDef) (*assignment, error) {
	a := &assignment{t: t, src: src, from: make([]int, len(t.Columns))}
	for i := range a.from {
		a.from[i] = -1
	}
	for k, i := range targets {
		a.from[i] = k
		col, x := t.Columns[i], src[k].Type
		if !assignable(x, col.Type) {
			return nil, engine.Errorf(engine.CodeDatatypeMismatch, "column %q is of type %s but expression is of type %s", col.Name, col.Type, x).
				WithHint("You will need to rewrite or cast the expression.")
		}
		if cond := tooLong(&engine.ColRef{Idx: k, Name: src[k].Name, T: x}, col.Type); cond != nil {
			a.checks = append(a.checks, assignCheck{col: i, cond: cond})
		}
	}
	for i, col := range t.Columns {
		if !col.NotNull {
			continue
		}
		var cond engine.Expr = &engine.Const{T: engine.Bool, I: 1}
		if k := a.from[i]; k >= 0 {
			cond = &engine.Call{Op: engine.OpIsNull, Args: []engine.Expr{&engine.ColRef{Idx: k, Name: src[k].Name, T: src[k].Type}}, T: engine.Bool}
		}
		a.checks = append(a.checks, assignCheck{col: i, notNull: true, cond: cond})
	}
	return a, nil
}

// assignable reports whether PostgreSQL assigns a value of type x to a
// column of type t (an implicit or assignment cast exists).
func assignable(x, t engine.Type) bool {
	switch {
	case x.Kind == t.Kind, x.Kind == engine.KindUnknown, t.IsString():
		return true
	case x.IsString():
		return false
	case x.IsNumber() && t.IsNumber():
		return true
	case (x.Kind == engine.KindDate || x.Kind == engine.KindTimestamp) && (t.Kind == engine.KindDate || t.Kind == engine.KindTimestamp):
		return true
	}
	return false
}

// tooLong is the condition that x, assigned to a column of type t, is too
// long for it: more than t.Len characters, past which not all are blanks.
// It is nil when t has no length limit or x's type fits it.
func tooLong(x engine.Expr, t engine.Type) engine.Expr {
	if t.Len == 0 || t.Kind != engine.KindChar && t.Kind != engine.KindVarchar {
		return nil
	}
	xt := x.Type()
	if (xt.Kind == engine.KindChar || xt.Kind == engine.KindVarchar) && xt.Len > 0 && xt.Len <= t.Len {
		return nil
	}
	s := x
	if xt.Kind != engine.KindText && xt.Kind != engine.KindVarchar {
		s = &engine.Call{Op: engine.OpCast, Args: []engine.Expr{x}, T: engine.Text}
	}
	n := int64(t.Len)
	longer := &engine.Call{Op: engine.OpGt, T: engine.Bool, Args: []engine.Expr{
		&engine.Call{Op: engine.OpLength, Args: []engine.Expr{s}, T: engine.Int32},
		&engine.Const{T: engine.Int32, I: n}}}
	tail := &engine.Call{Op: engine.OpSubstr, Args: []engine.Expr{s, &engine.Const{T: engine.Int32, I: n + 1}}, T: engine.Text}
	nonBlank := &engine.Call{Op: engine.OpRegexMatch, T: engine.Bool, Args: []engine.Expr{
		tail, &engine.Const{T: engine.Text, S: "[^ ]"}, &engine.Const{T: engine.Text, S: ""}}}
	return &engine.Call{Op: engine.OpAnd, Args: []engine.Expr{longer, nonBlank}, T: engine.Bool}
}

// failure is the error of check k.
func (a *assignment) failure(k int) error {
	c := a.checks[k]
	col := a.t.Columns[c.col]
	if c.notNull {
		return engine.Errorf(engine.CodeNotNullViolation, "null value in column %q of relation %q violates not-null constraint", col.Name, a.t.Name)
	}
	return engine.Errorf(engine.CodeStringDataRightTrunc, "value too long for type %s", col.Type)
}

// project makes p (which reads the source's columns) output t's columns:
// each source value cast to its column's type, NULL where none is.
func (a *assignment) project(p *engine.Plan) *engine.Plan {
	p.Project, p.Names = nil, nil
	for i, col := range a.t.Columns {
		var e engine.Expr = &engine.Const{T: col.Type, Null: true}
		if k := a.from[i]; k >= 0 {
			e = &engine.ColRef{Idx: k, Name: a.src[k].Name, T: a.src[k].Type}
			if e.Type() != col.Type {
				e = &engine.Call{Op: engine.OpCast, Args: []engine.Expr{e}, T: col.Type}
			}
		}
		p.Project = append(p.Project, e)
		p.Names = append(p.Names, col.Name)
	}
	p.Visible = len(p.Project)
	return p
}

// check runs the checks over scan's rows (the source's columns) on the
// backend and fails as the first check that a row breaks.
func (s *Session) check(ctx context.Context, a *assignment, scan *engine.Plan) error {
	var any engine.Expr
	for k, c := range a.checks {
		scan.Project = append(scan.Project, c.cond)
		scan.Names = append(scan.Names, "check"+strconv.Itoa(k))
		if any == nil {
			any = c.cond
		} else {
			any = &engine.Call{Op: engine.OpOr, Args: []engine.Expr{any, c.cond}, T: engine.Bool}
		}
	}
	scan.Filter, scan.Visible, scan.Limit = any, len(scan.Project), 1
	var failed error
	err := s.srv.run(ctx, scan, func(b *engine.Batch) error {
		if b.N > 0 && failed == nil {
			failed = a.firstFailure(b, 0)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return failed
}

// firstFailure is the error of the first check true in row i of b (a
// batch of the checks' values), nil if none is.
func (a *assignment) firstFailure(b *engine.Batch, i int) error {
	for k, v := range b.Cols {
		if !v.IsNull(i) && v.I[i] != 0 {
			return a.failure(k)
		}
	}
	return nil
}

// checkRow runs the checks over one row of source values (constants).
func (a *assignment) checkRow(ctx context.Context, vals []engine.Expr) error {
	if len(a.checks) == 0 {
		return nil
	}
	row := &engine.Batch{N: 1}
	for _, x := range vals {
		v, err := eval.Eval(ctx, x, &engine.Batch{N: 1})
		if err != nil {
			return err
		}
		row.Cols = append(row.Cols, v)
	}
	out := &engine.Batch{N: 1}
	for _, c := range a.checks {
		v, err := eval.Eval(ctx, c.cond, row)
		if err != nil {
			return err
		}
		out.Cols = append(out.Cols, v)
	}
	return a.firstFailure(out, 0)
}
