package parse

import "strings"

// Rewrites of PostgreSQL's aggregate and grouping syntax, which tidb's
// MySQL grammar lacks (see docs/architecture.md, "The parser", for why
// these are rewrites and not a grammar of our own):
//
//   - an aggregate tidb does not know as one, or knows under MySQL's
//     meaning (stddev is the population's there), name(args [ORDER BY k])
//     → group_concat(args [ORDER BY k] SEPARATOR '__gpusql_agg_name'):
//     tidb's one aggregate that takes any arguments, DISTINCT and an
//     ORDER BY; the binder reads the name back from the marker
//   - an ordered-set aggregate, name(args) WITHIN GROUP (ORDER BY k) →
//     group_concat(args ORDER BY k SEPARATOR '__gpusql_agg_name'), with
//     NULL standing for no arguments (mode())
//   - call FILTER (WHERE cond) → __gpusql_filter(call, cond)
//   - GROUP BY items GROUPING SETS (...), ROLLUP (...), CUBE (...) →
//     __gpusql_grouping_sets(...), __gpusql_rollup(...), __gpusql_cube(...),
//     and an empty grouping set () → __gpusql_empty_set()
//   - grouping(a, ...) → __gpusql_grouping(a, ...)
//   - SELECT DISTINCT ON (exprs) list → SELECT list, __gpusql_distinct_on(exprs)
const (
	aggPrefix     = "__gpusql_agg_"
	fnFilter      = "__gpusql_filter"
	fnGroupingSet = "__gpusql_grouping_sets"
	fnRollup      = "__gpusql_rollup"
	fnCube        = "__gpusql_cube"
	fnEmptySet    = "__gpusql_empty_set"
	fnGrouping    = "__gpusql_grouping"
	fnDistinctOn  = "__gpusql_distinct_on"
)

// pgAggregates are the aggregates written as group_concat with a marker.
var pgAggregates = map[string]bool{
	"bool_and": true, "bool_or": true, "every": true, "bit_and": true, "bit_or": true,
	"array_agg": true,
	"stddev":    true, "stddev_samp": true, "stddev_pop": true, "variance": true, "var_samp": true, "var_pop": true,
	"corr": true, "covar_pop": true, "covar_samp": true,
	"regr_slope": true, "regr_intercept": true, "regr_r2": true, "regr_count": true, "regr_avgx": true,
	"regr_avgy": true, "regr_sxx": true, "regr_syy": true, "regr_sxy": true,
	"percentile_cont": true, "percentile_disc": true, "mode": true,
}

// aggSyntax rewrites one level's aggregate and grouping syntax (see the
// top of this file).
func (r *rewriter) aggSyntax(items []*node) ([]*node, error) {
	out := make([]*node, 0, len(items))
	for i := 0; i < len(items); i++ {
		n := items[i]
		afterDot := i > 0 && items[i-1].op(".")
		next := get(items, i+1)
		switch {
		case afterDot:
		case n.word("distinct") && next != nil && next.word("on") && i+2 < len(items) && items[i+2].group &&
			len(out) > 0 && out[len(out)-1].word("select"):
			on := items[i+2]
			if len(on.kids) == 0 {
				return nil, syntaxErr(r.src, on.close)
			}
			end := i + 3
			for end < len(items) && !selectListEnd(items[end]) {
				end++
			}
			if end == i+3 {
				return nil, syntaxErr(r.src, tokAt(items, end, len(items), r.end))
			}
			out = append(out, items[i+3:end]...)
			out = append(out, &node{tok: synth(kOp, ",", on.tok)})
			out = append(out, call(fnDistinctOn, n.tok, on.kids)...)
			i = end - 1
			continue
		case pgAggregates[n.tok.text] && n.tok.kind == kIdent && next != nil && next.group:
			kids := append([]*node(nil), next.kids...)
			skip := 1
			if w := get(items, i+2); w != nil && w.word("within") && i+4 < len(items) && items[i+3].word("group") && items[i+4].group {
				g := items[i+4]
				if len(g.kids) < 3 || !g.kids[0].word("order") || !g.kids[1].word("by") {
					return nil, syntaxErr(r.src, tokOr(first(g.kids), g.close))
				}
				if len(kids) == 0 {
					kids = []*node{{tok: synth(kIdent, "null", next.tok)}}
				}
				kids = append(kids, g.kids...)
				skip = 4
			}
			if len(kids) == 0 {
				break // name() is left to tidb, which has no such function
			}
			kids = append(kids, &node{tok: synth(kIdent, "separator", next.close)}, &node{tok: synth(kString, aggPrefix+n.tok.text, next.close)})
			fn := &node{tok: synth(kIdent, "group_concat", n.tok)}
			out = append(out, fn, &node{tok: next.tok, group: true, kids: kids, close: next.close})
			i += skip
			continue
		case n.word("filter") && next != nil && next.group && len(next.kids) > 0 && next.kids[0].word("where") && len(out) >= 2 &&
			out[len(out)-1].group && isFuncName(out[len(out)-2]):
			if len(next.kids) == 1 {
				return nil, syntaxErr(r.src, next.close)
			}
			s := primaryStart(out)
			c := append([]*node(nil), out[s:]...)
			out = append(out[:s], call(fnFilter, n.tok, c, next.kids[1:])...)
			i++
			continue
		case n.word("grouping") && next != nil && next.group:
			out = append(out, &node{tok: synth(kIdent, fnGrouping, n.tok)}, next)
			i++
			continue
		case n.word("group") && next != nil && next.word("by"):
			out = append(out, n, next)
			end := i + 2
			for end < len(items) && !groupByEnd(items[end]) {
				end++
			}
			g, err := r.groupingItems(items[i+2 : end])
			if err != nil {
				return nil, err
			}
			out = append(out, g...)
			i = end - 1
			continue
		}
		out = append(out, n)
	}
	return out, nil
}

// groupingItems rewrites a GROUP BY list or a grouping set's contents.
func (r *rewriter) groupingItems(items []*node) ([]*node, error) {
	out := make([]*node, 0, len(items))
	for i := 0; i < len(items); i++ {
		n := items[i]
		next := get(items, i+1)
		itemStart := i == 0 || items[i-1].op(",")
		switch {
		case itemStart && n.group && len(n.kids) == 0:
			out = append(out, call(fnEmptySet, n.tok)...)
			continue
		case itemStart && (n.word("rollup") || n.word("cube")) && next != nil && next.group:
			kids, err := r.groupingItems(next.kids)
			if err != nil {
				return nil, err
			}
			fn := fnRollup
			if n.word("cube") {
				fn = fnCube
			}
			out = append(out, call(fn, n.tok, kids)...)
			i++
			continue
		case itemStart && n.word("grouping") && next != nil && next.word("sets") && i+2 < len(items) && items[i+2].group:
			kids, err := r.groupingItems(items[i+2].kids)
			if err != nil {
				return nil, err
			}
			out = append(out, call(fnGroupingSet, n.tok, kids)...)
			i += 2
			continue
		case itemStart && n.group && len(n.kids) > 0 && hasTopComma(n.kids):
			// a set of several expressions stays a row (a, b), whose
			// elements may themselves be empty sets for tidb's sake
			kids, err := r.groupingItems(n.kids)
			if err != nil {
				return nil, err
			}
			out = append(out, &node{tok: n.tok, group: true, kids: kids, close: n.close})
			continue
		}
		out = append(out, n)
	}
	return out, nil
}

func hasTopComma(items []*node) bool {
	for _, n := range items {
		if n.op(",") {
			return true
		}
	}
	return false
}

// groupByEnd reports whether n ends a GROUP BY list.
func groupByEnd(n *node) bool {
	for _, w := range []string{"having", "window", "order", "limit", "offset", "fetch", "union", "except", "intersect", "for"} {
		if n.word(w) {
			return true
		}
	}
	return false
}

// selectListEnd reports whether n ends a select list.
func selectListEnd(n *node) bool {
	for _, w := range []string{"from", "into", "where", "group", "having", "window", "order", "limit", "offset", "fetch", "union", "except", "intersect", "for"} {
		if n.word(w) {
			return true
		}
	}
	return false
}

// AggMarkerName is the aggregate a group_concat separator stands for
// (see aggSyntax), or "".
func AggMarkerName(sep string) string {
	if name, ok := strings.CutPrefix(sep, aggPrefix); ok && pgAggregates[name] {
		return name
	}
	return ""
}
