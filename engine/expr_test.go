package engine

import (
	"strings"
	"testing"
)

// TestWalkExpr checks the order WalkExpr visits a tree in, and that a
// false return skips a node's operands only.
func TestWalkExpr(t *testing.T) {
	a := &ColRef{Idx: 0, Name: "a", T: Int64}
	b := &ColRef{Idx: 1, Name: "b", T: Int64}
	one := &Const{T: Int64, I: 1}
	sum := &Call{Op: OpAdd, Args: []Expr{a, one}, T: Int64}
	e := &Case{
		Conds:   []Expr{&Call{Op: OpGt, Args: []Expr{sum, b}, T: Bool}},
		Results: []Expr{&HostFunc{Name: "f", Args: []Expr{b}, T: Int64}},
		Else:    a,
		T:       Int64,
	}
	var seen []string
	WalkExpr(e, func(x Expr) bool {
		seen = append(seen, x.String())
		return x != sum // skip the sum's operands
	})
	got := strings.Join(seen, " | ")
	want := strings.Join([]string{e.String(), e.Conds[0].String(), sum.String(), b.String(), e.Results[0].String(), b.String(), a.String()}, " | ")
	if got != want {
		t.Errorf("visited:\n %s\nwant:\n %s", got, want)
	}
	WalkExpr(nil, func(Expr) bool { t.Error("visited nil"); return true })
}
