package engine

import (
	"fmt"
	"strings"
)

// GroupingSet is one set of a plan's GROUPING SETS (ROLLUP and CUBE are
// written as their sets): its rows group by the GroupBy expressions
// Keys names; every other GroupBy column holds Values' constant there
// (NULL of its type, or a grouping() result). Backends run a plan with
// grouping sets as one aggregation per set (eval.RunGroupingSets).
type GroupingSet struct {
	Keys   []int
	Values []Expr // by GroupBy column; nil for the columns in Keys
}

// SetPlan is p's aggregation for set s alone: grouped by s's keys, with
// no HAVING, projecting the group values and the aggregates as they
// are, unsorted and unlimited.
func (p *Plan) SetPlan(s GroupingSet) *Plan {
	q := *p
	q.GroupingSets = nil
	q.GroupBy = make([]Expr, len(s.Keys))
	for i, k := range s.Keys {
		q.GroupBy[i] = p.GroupBy[k]
	}
	q.Having = nil
	q.Project, q.Names = nil, nil
	for i, g := range q.GroupBy {
		q.Project = append(q.Project, &ColRef{Idx: i, T: g.Type()})
		q.Names = append(q.Names, "")
	}
	for k, a := range p.Aggs {
		q.Project = append(q.Project, &ColRef{Idx: len(q.GroupBy) + k, T: a.T})
		q.Names = append(q.Names, "")
	}
	q.Visible = len(q.Project)
	q.Distinct, q.DistinctOn, q.OrderBy, q.Limit, q.Offset = false, nil, nil, -1, 0
	return &q
}

func groupingSetsString(sets []GroupingSet) string {
	parts := make([]string, len(sets))
	for i, s := range sets {
		k := make([]string, len(s.Keys))
		for j, x := range s.Keys {
			k[j] = fmt.Sprintf("#%d", x)
		}
		parts[i] = "(" + strings.Join(k, ", ") + ")"
	}
	return strings.Join(parts, " ")
}
