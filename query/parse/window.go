package parse

// Rewrites of PostgreSQL's window syntax that tidb's MySQL 8 grammar
// lacks. tidb reads OVER clauses, named windows (WINDOW w AS (...),
// OVER w, OVER (w ORDER BY ...)) and ROWS, RANGE and GROUPS frames, but
// a frame offset only as a number or INTERVAL expr unit, no EXCLUDE, no
// FOLLOWING in the one-bound form, and lag's and lead's offset only as a
// number. So, in the groups after OVER and after WINDOW name AS:
//
//   - offset PRECEDING | FOLLOWING → INTERVAL __gpusql_frame_offset(offset)
//     MICROSECOND PRECEDING | FOLLOWING, any offset expression (the
//     binder takes the offset back out of the marker)
//   - a frame of one bound → BETWEEN bound AND CURRENT ROW, as PostgreSQL
//     reads it (so that a FOLLOWING start gets its error in the binder)
//   - EXCLUDE CURRENT ROW | GROUP | TIES → __gpusql_window_exclude('...')
//     as the window ORDER BY's last item (ORDER BY added when there is
//     none: the binder drops it again); EXCLUDE NO OTHERS goes
//
// and before OVER:
//
//   - lag | lead (x, offset [, default]) with an offset that is not a
//     number → lag | lead (x, 1, __gpusql_lag_args(offset [, default]))
//   - ntile (n) and nth_value (x, n) get n parenthesised, as tidb wants
//     a simple expression there
//   - an aggregate's ORDER BY and DISTINCT are refused, as PostgreSQL
//     refuses them in a window (tidb would drop the ORDER BY)
//   - any other function name (bool_and, corr, a misspelling) →
//     group_concat(args SEPARATOR '__gpusql_agg_name'), the form that
//     aggregates tidb does not know take, so that the binder names it
//
// and in a window's ORDER BY, NULLS FIRST | LAST on the key before the
// frame, which the general rewrite takes for part of the frame.
//
// An aggregate's FILTER before OVER, which aggSyntax has made
// __gpusql_filter(call, cond), becomes the call again with its first
// argument x wrapped: agg(__gpusql_window_filter(cond, x), ...), and
// count(*) becomes count(__gpusql_window_filter(cond, 1)); the binder
// unwraps it and filters every argument as a grouped FILTER does.
const (
	fnFrameOffset   = "__gpusql_frame_offset"
	fnWindowExclude = "__gpusql_window_exclude"
	fnLagArgs       = "__gpusql_lag_args"
	fnWindowFilter  = "__gpusql_window_filter"
)

// windowSyntax rewrites one level's window syntax.
func (r *rewriter) windowSyntax(items []*node) ([]*node, error) {
	for i := 0; i < len(items); i++ {
		n := items[i]
		if i > 0 && items[i-1].op(".") {
			continue
		}
		switch {
		case n.word("over") && i+1 < len(items):
			if i >= 2 && items[i-1].group && !items[i-2].group && items[i-2].tok.kind == kIdent {
				if items[i-2].tok.text == fnFilter {
					name, g, err := r.windowFilter(items[i-2], items[i-1])
					if err != nil {
						return nil, err
					}
					items[i-2], items[i-1] = name, g
				} else if err := r.windowArgs(items[i-2], items[i-1]); err != nil {
					return nil, err
				}
			}
			if items[i+1].group {
				if err := r.windowSpec(items[i+1]); err != nil {
					return nil, err
				}
			}
		case n.word("window"):
			// WINDOW name AS (spec) [, name AS (spec)] ...
			for j := i + 1; j+2 < len(items) && items[j+1].word("as") && items[j+2].group; j += 4 {
				if err := r.windowSpec(items[j+2]); err != nil {
					return nil, err
				}
				if j+3 >= len(items) || !items[j+3].op(",") {
					break
				}
			}
		}
	}
	return items, nil
}

// winSplit cuts a group's items at its top-level commas.
func winSplit(kids []*node) [][]*node {
	if len(kids) == 0 {
		return nil
	}
	var out [][]*node
	start := 0
	for k, n := range kids {
		if n.op(",") {
			out = append(out, kids[start:k])
			start = k + 1
		}
	}
	return append(out, kids[start:])
}

// winJoin puts arguments back together with commas.
func winJoin(args [][]*node, origin token) []*node {
	var out []*node
	for k, a := range args {
		if k > 0 {
			out = append(out, &node{tok: synth(kOp, ",", origin)})
		}
		out = append(out, a...)
	}
	return out
}

// winParen is items in parentheses, as one item.
func winParen(items []*node, origin token) []*node {
	return []*node{{tok: synth(kOp, "(", origin), group: true, kids: items, close: synth(kOp, ")", origin)}}
}

// winPlainInt reports whether items are one unsigned integer literal.
func winPlainInt(items []*node) bool {
	if len(items) != 1 || items[0].group || items[0].tok.kind != kNumber {
		return false
	}
	for _, c := range items[0].tok.text {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// tidbWindowNames are the functions tidb's grammar takes an OVER after.
var tidbWindowNames = map[string]bool{
	"row_number": true, "rank": true, "dense_rank": true, "cume_dist": true, "percent_rank": true, "ntile": true,
	"lead": true, "lag": true, "first_value": true, "last_value": true, "nth_value": true,
	"avg": true, "bit_and": true, "bit_or": true, "bit_xor": true, "count": true, "group_concat": true,
	"max": true, "min": true, "sum": true, "std": true, "stddev": true, "stddev_pop": true, "stddev_samp": true,
	"variance": true, "var_pop": true, "var_samp": true, "json_arrayagg": true, "json_objectagg": true,
}

// windowArgs rewrites the arguments g of the function name before OVER.
func (r *rewriter) windowArgs(name, g *node) error {
	if len(g.kids) > 0 && g.kids[0].word("distinct") {
		return notSupported(r.src, g.kids[0].tok, "DISTINCT is not implemented for window functions")
	}
	args := winSplit(g.kids)
	for _, a := range args {
		for k := 0; k+1 < len(a); k++ {
			if a[k].word("order") && a[k+1].word("by") {
				return notSupported(r.src, a[k].tok, "aggregate ORDER BY is not implemented for window functions")
			}
		}
	}
	if !tidbWindowNames[name.tok.text] {
		marker := str("__gpusql_agg_"+name.tok.text, g.close)
		kids := append(append([]*node(nil), g.kids...), &node{tok: synth(kIdent, "separator", g.close)})
		g.kids = append(kids, marker...)
		name.tok = synth(kIdent, "group_concat", name.tok)
		return nil
	}
	switch name.tok.text {
	case "lag", "lead":
		if len(args) >= 2 && !winPlainInt(args[1]) {
			one := []*node{{tok: synth(kNumber, "1", g.tok)}}
			g.kids = winJoin([][]*node{args[0], one, call(fnLagArgs, g.tok, args[1:]...)}, g.tok)
		}
	case "ntile":
		if len(args) == 1 && len(args[0]) > 1 {
			g.kids = winParen(args[0], g.tok)
		}
	case "nth_value":
		if len(args) == 2 && len(args[1]) > 1 {
			g.kids = winJoin([][]*node{args[0], winParen(args[1], g.tok)}, g.tok)
		}
	}
	return nil
}

// nonAggregateWindow are the window functions that are not aggregates.
var nonAggregateWindow = map[string]bool{
	"row_number": true, "rank": true, "dense_rank": true, "cume_dist": true, "percent_rank": true, "ntile": true,
	"lead": true, "lag": true, "first_value": true, "last_value": true, "nth_value": true,
}

// windowFilter rewrites __gpusql_filter(name(args), cond) before OVER
// (see the top of the file) and returns the call's name and arguments.
func (r *rewriter) windowFilter(fn, fg *node) (*node, *node, error) {
	parts := winSplit(fg.kids)
	if len(parts) < 2 || len(parts[0]) != 2 || parts[0][0].group || parts[0][0].tok.kind != kIdent || !parts[0][1].group {
		return nil, nil, notSupported(r.src, fn.tok, "FILTER is not implemented for this window function call")
	}
	name, g := parts[0][0], parts[0][1]
	cond := winJoin(parts[1:], fg.tok)
	if nonAggregateWindow[name.tok.text] {
		return nil, nil, notSupported(r.src, fn.tok, "FILTER is not implemented for non-aggregate window functions")
	}
	if err := r.windowArgs(name, g); err != nil {
		return nil, nil, err
	}
	if len(g.kids) == 1 && g.kids[0].op("*") {
		g.kids = call(fnWindowFilter, fn.tok, cond, []*node{{tok: synth(kNumber, "1", fn.tok)}})
		return name, g, nil
	}
	end := 0 // the first argument's end
	for end < len(g.kids) && !g.kids[end].op(",") && !g.kids[end].word("separator") && !g.kids[end].word("order") {
		end++
	}
	if end == 0 {
		return nil, nil, syntaxErr(r.src, tokOr(first(g.kids), g.close))
	}
	kids := call(fnWindowFilter, fn.tok, cond, g.kids[:end])
	g.kids = append(kids, g.kids[end:]...)
	return name, g, nil
}

// frameWord reports whether items[k] starts the frame clause: ROWS,
// RANGE or GROUPS followed by something that is not a name's end, with a
// bound keyword later.
func frameWord(items []*node, k int) bool {
	n := items[k]
	if !(n.word("rows") || n.word("range") || n.word("groups")) || k+1 >= len(items) {
		return false
	}
	if nx := items[k+1]; nx.op(",") || nx.op(".") || nx.word("asc") || nx.word("desc") || nx.word("nulls") {
		return false
	}
	for _, x := range items[k+1:] {
		if x.word("preceding") || x.word("following") || x.word("row") {
			return true
		}
	}
	return false
}

// windowSpec rewrites a window specification's frame (see the top of the
// file).
func (r *rewriter) windowSpec(g *node) error {
	kids := g.kids
	f := -1
	for k := range kids {
		if (k == 0 || !kids[k-1].op(".")) && frameWord(kids, k) {
			f = k
			break
		}
	}
	if f < 0 {
		return nil
	}
	if f >= 2 && kids[f-2].word("nulls") && (kids[f-1].word("first") || kids[f-1].word("last")) {
		// the last ORDER BY key's NULLS FIRST | LAST
		start := f - 2
		for start > 0 && !kids[start-1].op(",") && !kids[start-1].word("by") {
			start--
		}
		if start > 0 && kids[start-1].word("by") {
			it, err := r.nullsItem(kids[start:f], kids[start-1].tok)
			if err != nil {
				return err
			}
			kids = append(append(append([]*node(nil), kids[:start]...), it...), kids[f:]...)
			f = start + len(it)
		}
	}
	frame := kids[f+1:]
	// EXCLUDE ..., at the end
	exclude := ""
	for k, n := range frame {
		if !n.word("exclude") {
			continue
		}
		rest := frame[k+1:]
		switch {
		case len(rest) == 2 && rest[0].word("current") && rest[1].word("row"):
			exclude = "current row"
		case len(rest) == 1 && rest[0].word("group"):
			exclude = "group"
		case len(rest) == 1 && rest[0].word("ties"):
			exclude = "ties"
		case len(rest) == 2 && rest[0].word("no") && rest[1].word("others"):
		default:
			if len(rest) == 0 {
				return syntaxErr(r.src, g.close)
			}
			return syntaxErr(r.src, rest[0].tok)
		}
		frame = frame[:k]
		break
	}
	var bounds [][]*node
	if len(frame) > 0 && frame[0].word("between") {
		and := -1
		for k, n := range frame {
			if n.word("and") && k > 1 && (frame[k-1].word("preceding") || frame[k-1].word("following") || frame[k-1].word("row")) {
				and = k
				break
			}
		}
		if and < 0 {
			return syntaxErr(r.src, winFirstTok(frame, g.close))
		}
		bounds = [][]*node{frame[1:and], frame[and+1:]}
	} else {
		bounds = [][]*node{frame}
	}
	var out []*node
	for k, b := range bounds {
		if len(b) == 0 {
			return syntaxErr(r.src, g.close)
		}
		if k > 0 {
			out = append(out, &node{tok: synth(kIdent, "and", b[0].tok)})
		}
		last := b[len(b)-1]
		if b[0].word("unbounded") || b[0].word("current") || len(b) < 2 || !(last.word("preceding") || last.word("following")) {
			out = append(out, b...)
			continue
		}
		out = append(out, &node{tok: synth(kIdent, "interval", b[0].tok)})
		out = append(out, call(fnFrameOffset, b[0].tok, b[:len(b)-1])...)
		out = append(out, &node{tok: synth(kIdent, "microsecond", last.tok)}, last)
	}
	if len(bounds) == 1 {
		out = append(out, &node{tok: synth(kIdent, "and", g.close)},
			&node{tok: synth(kIdent, "current", g.close)}, &node{tok: synth(kIdent, "row", g.close)})
	}
	head := append([]*node(nil), kids[:f]...)
	if exclude != "" {
		marker := call(fnWindowExclude, kids[f].tok, str(exclude, kids[f].tok))
		ordered := false
		for k := 0; k+1 < len(head); k++ {
			if head[k].word("order") && head[k+1].word("by") {
				ordered = true
			}
		}
		if ordered {
			head = append(head, &node{tok: synth(kOp, ",", kids[f].tok)})
		} else {
			head = append(head, &node{tok: synth(kIdent, "order", kids[f].tok)}, &node{tok: synth(kIdent, "by", kids[f].tok)})
		}
		head = append(head, marker...)
	}
	head = append(head, kids[f], &node{tok: synth(kIdent, "between", kids[f].tok)})
	g.kids = append(head, out...)
	return nil
}

// winFirstTok is the first item's token, or t when there is none.
func winFirstTok(items []*node, t token) token {
	if len(items) > 0 {
		return items[0].tok
	}
	return t
}
