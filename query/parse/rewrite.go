package parse

import (
	"strconv"
	"strings"

	"github.com/gpusql/gpusql/engine"
)

// Names of the functions that rewrites produce. The binder recognises
// them; see docs/sql.md.
const (
	fnCast        = "__gpusql_cast"         // (expr, 'canonical type')
	fnExtract     = "__gpusql_extract"      // ('field', expr)
	fnIsDistinct  = "__gpusql_is_distinct"  // (a, b)
	fnNullsFirst  = "__gpusql_nulls_first"  // (order-by expr)
	fnNullsLast   = "__gpusql_nulls_last"   // (order-by expr)
	fnParam       = "__gpusql_param"        // (n) for $n
	fnRegex       = "__gpusql_regex"        // (x, pattern, 'flags') for x ~ pattern, ~*
	fnRegCast     = "__gpusql_regcast"      // (expr, 'regclass') for casts to reg* types
	fnSubscript   = "__gpusql_subscript"    // (array, i) for array[i]
	fnArrayHas    = "__gpusql_array_has"    // (x, array) for x = ANY (array)
	fnArraySub    = "__gpusql_array_sub"    // ((SELECT ...)) for ARRAY(SELECT ...)
	fnSRF         = "__gpusql_srf"          // ('name', args...) for a function in FROM
	fnField       = "__gpusql_field"        // (expr, 'name') for (expr).name
	fnConcat      = "__gpusql_concat"       // (args...) for PostgreSQL's concat(), not ||
	fnMod         = "__gpusql_mod"          // (a, b) for PostgreSQL's mod(), which tidb reads as a % b
	fnFullJoin    = "__gpusql_full_join"    // (cond) as the ON of a LEFT JOIN that stands for FULL JOIN
	fnFullUsing   = "__gpusql_full_using"   // (cols) as that ON, for FULL JOIN ... USING (cols)
	fnFullNatural = "__gpusql_full_natural" // () as that ON, for NATURAL FULL JOIN
	// aggMarker is the SEPARATOR of the group_concat call that stands for
	// string_agg(value, delimiter [ORDER BY ...]).
	aggMarker = "__gpusql_string_agg"
)

// maxLimit stands in for "no limit" when only OFFSET is given.
const maxLimit = "18446744073709551615"

// rewriter turns PostgreSQL-only syntax in a SELECT into function calls
// that tidb parses. It works on one parenthesis level at a time, inner
// levels first, so rewrites nest.
type rewriter struct {
	src string
	end token // the token after the level being rewritten: ")", ";" or end of input
	// limitParams are the numbers of LIMIT $n and OFFSET $n, written
	// for tidb as "?" markers (its LIMIT takes only numbers and markers).
	limitParams []int
}

// level rewrites one level's items (and, first, every group in them).
func (r *rewriter) level(items []*node, end token) ([]*node, error) {
	for i, n := range items {
		if n.group && !(i > 0 && items[i-1].word("operator")) { // OPERATOR(schema.op) is read whole by pgSyntax
			kids, err := r.level(n.kids, n.close)
			if err != nil {
				return nil, err
			}
			n.kids = kids
		}
	}
	r.end = end
	passes := []func([]*node) ([]*node, error){r.derivedTables, r.catalogNames, r.namedArgs, r.pgSyntax, r.aggSyntax, r.fullJoin, r.joinCondition, r.specials, r.casts, r.atTimeZone, r.arrays, r.regex, r.bitwiseMix, r.distinct, r.nulls, r.windowSyntax, r.limit}
	for _, pass := range passes {
		var err error
		if items, err = pass(items); err != nil {
			return nil, err
		}
	}
	return items, nil
}

// synth makes a token for a rewrite, placed at origin's position so that
// errors about it point into the query.
func synth(k kind, text string, origin token) token {
	return token{kind: k, text: text, pos: origin.pos, end: origin.end, space: true, synth: true}
}

// call builds name(arg, ...) as items: a name and a group.
func call(name string, origin token, args ...[]*node) []*node {
	g := &node{tok: synth(kOp, "(", origin), group: true, close: synth(kOp, ")", origin)}
	for i, a := range args {
		if i > 0 {
			g.kids = append(g.kids, &node{tok: synth(kOp, ",", origin)})
		}
		g.kids = append(g.kids, a...)
	}
	return []*node{{tok: synth(kIdent, name, origin)}, g}
}

// str is a string literal item.
func str(s string, origin token) []*node { return []*node{{tok: synth(kString, s, origin)}} }

// specials rewrites typed literals (DATE '...', INTERVAL '3' DAY),
// CAST(x AS type), EXTRACT(field FROM x) and $n parameters.
func (r *rewriter) specials(items []*node) ([]*node, error) {
	out := make([]*node, 0, len(items))
	for i := 0; i < len(items); i++ {
		n := items[i]
		afterDot := i > 0 && items[i-1].op(".")
		next := func(k int) *node {
			if i+k < len(items) {
				return items[i+k]
			}
			return nil
		}
		switch {
		case !n.group && n.tok.kind == kParam:
			out = append(out, call(fnParam, n.tok, []*node{{tok: synth(kNumber, n.tok.text, n.tok)}})...)
			continue
		case afterDot || n.group || n.tok.kind != kIdent:
		case n.tok.text == "cast" && next(1) != nil && next(1).group:
			c, err := r.cast(n.tok, next(1))
			if err != nil {
				return nil, err
			}
			out = append(out, c...)
			i++
			continue
		case n.tok.text == "extract" && next(1) != nil && next(1).group:
			c, err := r.extract(n.tok, next(1))
			if err != nil {
				return nil, err
			}
			out = append(out, c...)
			i++
			continue
		default:
			end, ok := typeSpan(items, i, true)
			if !ok || end >= len(items) || items[end].group || items[end].tok.kind != kString {
				break
			}
			c, skip, err := r.typedLiteral(items, i, end)
			if err != nil {
				return nil, err
			}
			out = append(out, c...)
			i += skip - 1
			continue
		}
		out = append(out, n)
	}
	return out, nil
}

// typedLiteral rewrites type 'string' (items[i:end] is the type, items[end]
// the string) and, for INTERVAL, an optional unit after it. It returns
// the call and how many items it used.
func (r *rewriter) typedLiteral(items []*node, i, end int) ([]*node, int, error) {
	t, err := typeOf(r.src, items[i:end])
	if err != nil {
		return nil, 0, err
	}
	lit := items[end].tok
	val := lit.text
	used := end + 1 - i
	if items[i].word("interval") {
		// INTERVAL '...' DAY TO SECOND(3): the fields belong to the type
		if k := intervalFields(items, end+1); k > end+1 {
			tt := append(append([]*node(nil), items[i:end]...), items[end+1:k]...)
			if t, err = typeOf(r.src, tt); err != nil {
				return nil, 0, err
			}
			used += k - (end + 1)
		}
	}
	return call(fnCast, items[i].tok, str(val, lit), str(typeText(t), items[i].tok)), used, nil
}

func intervalUnit(n *node) bool {
	if n.group || n.tok.kind != kIdent {
		return false
	}
	switch n.tok.text {
	case "year", "month", "day", "hour", "minute", "second":
		return true
	}
	return false
}

func plainNumber(s string) bool {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+")
	if s == "" {
		return false
	}
	dot := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '.' && !dot:
			dot = true
		case !isDigit(c):
			return false
		}
	}
	return s != "."
}

// cast rewrites CAST(expr AS type).
func (r *rewriter) cast(name token, g *node) ([]*node, error) {
	as := -1
	for k, n := range g.kids {
		if n.word("as") {
			as = k
			break
		}
	}
	if as < 0 {
		return nil, syntaxErr(r.src, g.close)
	}
	if as == 0 {
		return nil, syntaxErr(r.src, g.kids[0].tok)
	}
	tt := g.kids[as+1:]
	end, ok := typeSpan(tt, 0, false)
	if !ok {
		return nil, syntaxErr(r.src, tokOr(first(tt), g.close))
	}
	if end < len(tt) {
		return nil, syntaxErr(r.src, tt[end].tok)
	}
	if k := regKind(tt); k != "" {
		return call(fnRegCast, name, g.kids[:as], str(k, name)), nil
	}
	tt2 := aliasType(tt)
	if tt2 == "" {
		t, err := typeOf(r.src, tt)
		if err != nil {
			return nil, err
		}
		tt2 = typeText(t)
	}
	return call(fnCast, name, g.kids[:as], str(tt2, name)), nil
}

func first(items []*node) *node {
	if len(items) == 0 {
		return nil
	}
	return items[0]
}

// extract rewrites EXTRACT(field FROM expr) to __gpusql_extract('field',
// expr). The field is passed on in lower case, unchecked.
func (r *rewriter) extract(name token, g *node) ([]*node, error) {
	k := g.kids
	if len(k) == 0 {
		return nil, syntaxErr(r.src, g.close)
	}
	f := k[0]
	if f.group || f.tok.kind != kIdent && f.tok.kind != kString && f.tok.kind != kQIdent {
		return nil, syntaxErr(r.src, f.tok)
	}
	if len(k) < 2 || !k[1].word("from") {
		return nil, syntaxErr(r.src, tokOr(get(k, 1), g.close))
	}
	if len(k) < 3 {
		return nil, syntaxErr(r.src, g.close)
	}
	field := f.tok.text
	if f.tok.kind == kString {
		field = strings.ToLower(field)
	}
	return call(fnExtract, name, str(field, f.tok), k[2:]), nil
}

func get(items []*node, i int) *node {
	if i < len(items) {
		return items[i]
	}
	return nil
}

// casts rewrites expr::type, where expr is the primary just before "::".
// Left to right, so x::a::b casts the first cast.
func (r *rewriter) casts(items []*node) ([]*node, error) {
	out := make([]*node, 0, len(items))
	for i := 0; i < len(items); i++ {
		n := items[i]
		if !n.op("::") {
			out = append(out, n)
			continue
		}
		s := primaryStart(out)
		if s < 0 {
			return nil, syntaxErr(r.src, n.tok)
		}
		end, ok := typeSpan(items, i+1, false)
		if !ok {
			return nil, syntaxErr(r.src, tokOr(get(items, i+1), n.tok))
		}
		expr := append([]*node(nil), out[s:]...)
		if len(expr) >= 3 && expr[len(expr)-2].word("over") || len(expr) >= 4 && expr[len(expr)-3].word("over") {
			// the window's own rewrites, which run after casts on this
			// level, would not see inside the cast's group
			var err error
			if expr, err = r.windowSyntax(expr); err != nil {
				return nil, err
			}
		}
		if k := regKind(items[i+1 : end]); k != "" {
			out = append(out[:s], call(fnRegCast, n.tok, expr, str(k, n.tok))...)
			i = end - 1
			continue
		}
		text := aliasType(items[i+1 : end])
		if text == "" {
			t, err := typeOf(r.src, items[i+1:end])
			if err != nil {
				return nil, err
			}
			text = typeText(t)
		}
		out = append(out[:s], call(fnCast, n.tok, expr, str(text, n.tok))...)
		i = end - 1
	}
	return out, nil
}

// primaryStart finds where the primary expression that ends xs starts: a
// (qualified) name, a literal, a parenthesised group, a function call
// f(...) or CASE ... END. It returns -1 if xs does not end with one.
func primaryStart(xs []*node) int {
	n := len(xs)
	if n == 0 {
		return -1
	}
	last := xs[n-1]
	if n >= 4 && xs[n-2].word("over") && xs[n-3].group && isFuncName(xs[n-4]) &&
		(last.group || last.tok.kind == kIdent && !keyword(last.tok.text) || last.tok.kind == kQIdent) {
		// a window function call: f(...) OVER (...) or f(...) OVER w
		return nameStart(xs, n-4)
	}
	switch {
	case last.group:
		if n >= 2 && isFuncName(xs[n-2]) {
			return nameStart(xs, n-2)
		}
		return n - 1
	case last.word("end"):
		depth := 0
		for j := n - 1; j >= 0; j-- {
			if xs[j].word("end") {
				depth++
			} else if xs[j].word("case") {
				depth--
				if depth == 0 {
					return j
				}
			}
		}
		return -1
	case last.tok.kind == kIdent:
		if keyword(last.tok.text) {
			return -1
		}
		return nameStart(xs, n-1)
	case last.tok.kind == kQIdent:
		return nameStart(xs, n-1)
	case last.tok.kind == kString || last.tok.kind == kNumber || last.tok.kind == kParam:
		return n - 1
	}
	return -1
}

// nameStart extends the name at xs[i] backwards over "qualifier." parts.
func nameStart(xs []*node, i int) int {
	for i >= 2 && xs[i-1].op(".") && !xs[i-2].group &&
		(xs[i-2].tok.kind == kIdent || xs[i-2].tok.kind == kQIdent) {
		i -= 2
	}
	return i
}

// isFuncName reports whether n, followed by a group, is a function call's
// name rather than a keyword such as IN or AND.
func isFuncName(n *node) bool {
	if n.group {
		return false
	}
	return n.tok.kind == kQIdent || n.tok.kind == kIdent && !keyword(n.tok.text)
}

// keyword reports whether w is a keyword that is neither an operand nor a
// function name (so "in (1, 2)" is not a call, and "and" ends an operand).
func keyword(w string) bool {
	switch w {
	case "all", "and", "any", "as", "asc", "between", "by", "case", "cross", "desc", "distinct", "else",
		"escape", "except", "exists", "fetch", "filter", "for", "from", "full", "group", "having", "ilike",
		"in", "inner", "intersect", "into", "is", "join", "lateral", "like", "limit", "natural", "not",
		"offset", "on", "or", "order", "outer", "over", "returning", "select", "similar", "some", "table",
		"then", "union", "using", "values", "when", "where", "window", "with", "within":
		return true
	}
	return false
}

// primaryEnd finds the end (exclusive) of the primary that starts at
// xs[i], or -1.
func primaryEnd(xs []*node, i int) int {
	if i >= len(xs) {
		return -1
	}
	x := xs[i]
	switch {
	case x.group:
		return i + 1
	case x.word("case"):
		depth := 0
		for j := i; j < len(xs); j++ {
			if xs[j].word("case") {
				depth++
			} else if xs[j].word("end") {
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	case x.tok.kind == kIdent && keyword(x.tok.text):
		return -1
	case x.tok.kind == kIdent || x.tok.kind == kQIdent:
		j := i + 1
		for j+1 < len(xs) && xs[j].op(".") && !xs[j+1].group &&
			(xs[j+1].tok.kind == kIdent || xs[j+1].tok.kind == kQIdent) {
			j += 2
		}
		if j < len(xs) && xs[j].group && isFuncName(xs[j-1]) {
			j++
		}
		return j
	case x.tok.kind == kString || x.tok.kind == kNumber || x.tok.kind == kParam:
		return i + 1
	}
	return -1
}

// arith reports whether n is a binary operator that binds tighter than
// IS (arithmetic, concatenation, bitwise).
func arith(n *node) bool {
	if n.group || n.tok.kind != kOp {
		return false
	}
	switch n.tok.text {
	case "+", "-", "*", "/", "%", "||", "&", "|", "<<", ">>":
		return true
	}
	return false
}

// comparison reports whether n is an operator between IS and arithmetic
// in precedence, which would make an unparenthesised IS DISTINCT FROM
// operand ambiguous for this rewriter.
func comparison(n *node) bool {
	if n.group {
		return false
	}
	if n.tok.kind == kOp {
		switch n.tok.text {
		case "=", "<", ">", "<=", ">=", "<>", "!=":
			return true
		}
		return false
	}
	switch n.tok.text {
	case "like", "ilike", "in", "between", "escape", "similar":
		return n.tok.kind == kIdent
	}
	return false
}

// distinct rewrites a IS [NOT] DISTINCT FROM b. The operands are chains of
// primaries joined by arithmetic operators; a comparison, LIKE, IN or
// BETWEEN next to an operand must be parenthesised.
func (r *rewriter) distinct(items []*node) ([]*node, error) {
	out := make([]*node, 0, len(items))
	for i := 0; i < len(items); i++ {
		n := items[i]
		not := i+1 < len(items) && items[i+1].word("not")
		k := i + 1
		if not {
			k++
		}
		if !n.word("is") || k+1 >= len(items) || !items[k].word("distinct") || !items[k+1].word("from") {
			out = append(out, n)
			continue
		}
		s, err := r.operandStart(out, n.tok)
		if err != nil {
			return nil, err
		}
		e, err := r.operandEnd(items, k+2, items[k+1].tok)
		if err != nil {
			return nil, err
		}
		a := append([]*node(nil), out[s:]...)
		out = out[:s]
		if not {
			out = append(out, &node{tok: synth(kIdent, "not", n.tok)})
		}
		out = append(out, call(fnIsDistinct, n.tok, a, items[k+2:e])...)
		i = e - 1
	}
	return out, nil
}

// operandStart finds the start of the left operand of IS ending xs.
func (r *rewriter) operandStart(xs []*node, is token) (int, error) {
	k, err := r.chainStart(xs, is)
	if err != nil {
		return 0, err
	}
	if k > 0 && comparison(xs[k-1]) {
		return 0, notSupported(r.src, is, "IS DISTINCT FROM next to a comparison, LIKE, IN or BETWEEN needs parentheses in gpusql")
	}
	return k, nil
}

// operandEnd finds the end (exclusive) of the right operand of IS
// DISTINCT FROM starting at xs[i].
func (r *rewriter) operandEnd(xs []*node, i int, from token) (int, error) {
	e, err := r.chainEnd(xs, i, from)
	if err != nil {
		return 0, err
	}
	if e < len(xs) && comparison(xs[e]) {
		return 0, notSupported(r.src, from, "IS DISTINCT FROM next to a comparison, LIKE, IN or BETWEEN needs parentheses in gpusql")
	}
	return e, nil
}

// operandEnd reports whether n can end an operand (so a following "-" is
// binary).
func operandEnd(n *node) bool {
	if n.group {
		return true
	}
	switch n.tok.kind {
	case kString, kNumber, kParam, kQIdent:
		return true
	case kIdent:
		return !keyword(n.tok.text) || n.tok.text == "end"
	}
	return false
}

// nulls rewrites ORDER BY items ending in NULLS FIRST or NULLS LAST:
// "e [ASC|DESC] NULLS FIRST" becomes "__gpusql_nulls_first(e) [ASC|DESC]".
func (r *rewriter) nulls(items []*node) ([]*node, error) {
	for i := 0; i+1 < len(items); i++ {
		if !items[i].word("order") || !items[i+1].word("by") {
			continue
		}
		start := i + 2
		end := start
		for end < len(items) && !clauseEnd(items[end]) {
			end++
		}
		var clause []*node
		itemStart := start
		for k := start; k <= end; k++ {
			if k < end && !items[k].op(",") {
				continue
			}
			it, err := r.nullsItem(items[itemStart:k], items[i+1].tok)
			if err != nil {
				return nil, err
			}
			clause = append(clause, it...)
			if k < end {
				clause = append(clause, items[k])
			}
			itemStart = k + 1
		}
		rest := append(clause, items[end:]...)
		items = append(items[:start], rest...)
		i = start + len(clause) - 1
	}
	return items, nil
}

// clauseEnd reports whether n ends an ORDER BY list.
func clauseEnd(n *node) bool {
	for _, w := range []string{"limit", "offset", "fetch", "for", "union", "except", "intersect", "window"} {
		if n.word(w) {
			return true
		}
	}
	return false
}

func (r *rewriter) nullsItem(it []*node, by token) ([]*node, error) {
	n := len(it)
	if n < 2 || !it[n-2].word("nulls") || !(it[n-1].word("first") || it[n-1].word("last")) {
		return it, nil
	}
	fn := fnNullsFirst
	if it[n-1].word("last") {
		fn = fnNullsLast
	}
	nullsTok := it[n-2].tok
	expr := it[:n-2]
	var dir []*node
	if k := len(expr); k > 0 && (expr[k-1].word("asc") || expr[k-1].word("desc")) {
		dir = expr[k-1:]
		expr = expr[:k-1]
	}
	if len(expr) == 0 {
		return nil, syntaxErr(r.src, nullsTok)
	}
	return append(call(fn, expr[0].tok, expr), dir...), nil
}

// limit rewrites PostgreSQL's LIMIT/OFFSET/FETCH forms to tidb's
// LIMIT n [OFFSET m]: OFFSET alone gets LIMIT 18446744073709551615, LIMIT
// ALL is dropped, OFFSET n ROWS loses ROWS, FETCH FIRST n ROWS ONLY
// becomes LIMIT n, and OFFSET before LIMIT is put after it.
func (r *rewriter) limit(items []*node) ([]*node, error) {
	start := -1
	for i, n := range items {
		if n.word("limit") || n.word("offset") || n.word("fetch") && i+1 < len(items) &&
			(items[i+1].word("first") || items[i+1].word("next")) {
			start = i
			break
		}
	}
	if start < 0 {
		return items, nil
	}
	stop := start
	for stop < len(items) && !items[stop].word("for") {
		stop++
	}
	isClause := func(n *node) bool { return n.word("limit") || n.word("offset") || n.word("fetch") }
	var limit, offset []*node
	var limitTok, offsetTok *token
	for i := start; i < stop; {
		kw := items[i]
		i++
		expr := func() []*node {
			j := i
			for j < stop && !isClause(items[j]) && !items[j].word("row") && !items[j].word("rows") {
				j++
			}
			e := items[i:j]
			i = j
			return e
		}
		switch {
		case kw.word("limit"), kw.word("fetch"):
			if limitTok != nil {
				return nil, errAt(r.src, kw.tok, engine.CodeSyntaxError, "multiple LIMIT clauses not allowed")
			}
			t := kw.tok
			limitTok = &t
			if kw.word("limit") {
				if i < stop && items[i].word("all") {
					i++
					continue
				}
				if limit = expr(); len(limit) == 0 {
					return nil, syntaxErr(r.src, tokAt(items, i, stop, r.end))
				}
				for _, n := range limit {
					if n.op(",") {
						e := errAt(r.src, kw.tok, engine.CodeFeatureNotSupported, "LIMIT #,# syntax is not supported")
						e.Hint = "Use separate LIMIT and OFFSET clauses."
						return nil, e
					}
				}
				continue
			}
			i++ // FIRST | NEXT
			if limit = expr(); len(limit) == 0 {
				limit = []*node{{tok: synth(kNumber, "1", kw.tok)}}
			}
			if i >= stop || !(items[i].word("row") || items[i].word("rows")) {
				return nil, syntaxErr(r.src, tokAt(items, i, stop, r.end))
			}
			i++
			if i+1 < stop && items[i].word("with") && items[i+1].word("ties") {
				return nil, notSupported(r.src, items[i].tok, "FETCH ... WITH TIES is not supported by gpusql")
			}
			if i >= stop || !items[i].word("only") {
				return nil, syntaxErr(r.src, tokAt(items, i, stop, r.end))
			}
			i++
		case kw.word("offset"):
			if offsetTok != nil {
				return nil, errAt(r.src, kw.tok, engine.CodeSyntaxError, "multiple OFFSET clauses not allowed")
			}
			t := kw.tok
			offsetTok = &t
			if offset = expr(); len(offset) == 0 {
				return nil, syntaxErr(r.src, tokAt(items, i, stop, r.end))
			}
			if i < stop && (items[i].word("row") || items[i].word("rows")) {
				i++
			}
		default:
			return nil, syntaxErr(r.src, kw.tok)
		}
	}
	marker := func(x []*node) []*node {
		x = limitOperand(x)
		if len(x) == 2 && x[0].word(fnParam) && x[1].group && len(x[1].kids) == 1 {
			if n, err := strconv.Atoi(x[1].kids[0].tok.text); err == nil {
				r.limitParams = append(r.limitParams, n)
				return []*node{{tok: synth(kOp, "?", x[0].tok)}}
			}
		}
		// LIMIT '10', as drivers that inline parameters write it.
		if len(x) == 1 && !x[0].group && x[0].tok.kind == kString {
			if _, err := strconv.ParseUint(x[0].tok.text, 10, 64); err == nil {
				return []*node{{tok: synth(kNumber, x[0].tok.text, x[0].tok)}}
			}
		}
		return x
	}
	limit, offset = marker(limit), marker(offset)
	var clause []*node
	if limit == nil && offset != nil {
		limit = []*node{{tok: synth(kNumber, maxLimit, *offsetTok)}}
		limitTok = offsetTok
	}
	if limit != nil {
		clause = append(clause, &node{tok: synth(kIdent, "limit", *limitTok)})
		clause = append(clause, limit...)
	}
	if offset != nil {
		clause = append(clause, &node{tok: synth(kIdent, "offset", *offsetTok)})
		clause = append(clause, offset...)
	}
	out := append([]*node(nil), items[:start]...)
	out = append(out, clause...)
	return append(out, items[stop:]...), nil
}

// limitOperand strips what PostgreSQL's own clients wrap around a LIMIT
// or OFFSET value (postgres_fdw sends LIMIT 3::bigint): casts to an
// integer type and parentheses, around a number, a string or a
// parameter. Anything else is left as it is.
func limitOperand(x []*node) []*node {
	for {
		switch {
		case len(x) == 2 && x[0].word(fnCast) && x[1].group && len(x[1].kids) >= 3:
			k := x[1].kids
			t := k[len(k)-1]
			if !k[len(k)-2].op(",") || t.group || t.tok.kind != kString {
				return x
			}
			switch t.tok.text {
			case "bigint", "integer", "smallint":
			default:
				return x
			}
			x = k[:len(k)-2]
		case len(x) == 1 && x[0].group && len(x[0].kids) > 0 && !startsQuery(x[0].kids):
			x = x[0].kids
		default:
			return x
		}
	}
}

// tokAt is items[i]'s token if i < stop, else end.
func tokAt(items []*node, i, stop int, end token) token {
	if i < stop {
		return items[i].tok
	}
	return end
}

// FnDerived, and the table's name, names the WITH query that gives a
// derived table its column aliases (derivedTables).
const FnDerived = "__gpusql_derived_"

// derivedTables rewrites what tidb cannot read of PostgreSQL's derived
// tables:
//
//   - (VALUES (row), ...) → (SELECT ... AS column1, ... UNION ALL SELECT
//     ...), the columns named as PostgreSQL names them;
//   - (query) [AS] name (a, b, ...) → (WITH __gpusql_derived_name (a, b,
//     ...) AS (query) SELECT * FROM __gpusql_derived_name) AS name: column aliases
//     as a common table expression's column list, which tidb reads.
func (r *rewriter) derivedTables(items []*node) ([]*node, error) {
	for i, g := range items {
		if !g.group || len(g.kids) == 0 || !g.kids[0].word("values") || i > 0 && isFuncName(items[i-1]) {
			continue
		}
		u, _, err := valuesUnion(r.src, g.kids, g.close, true)
		if err != nil {
			return nil, err
		}
		g.kids = u
	}
	out := make([]*node, 0, len(items))
	for i := 0; i < len(items); i++ {
		g := items[i]
		out = append(out, g)
		if !g.group || !startsQuery(g.kids) || i > 0 && isFuncName(items[i-1]) {
			continue
		}
		j := i + 1
		if j < len(items) && items[j].word("as") {
			j++
		}
		if j+1 >= len(items) || !items[j+1].group || items[j].group ||
			!(items[j].tok.kind == kIdent && !keyword(items[j].tok.text) || items[j].tok.kind == kQIdent) {
			continue
		}
		cols := items[j+1]
		for k, c := range cols.kids {
			if k%2 == 1 && !c.op(",") || k%2 == 0 && (c.group || c.tok.kind != kIdent && c.tok.kind != kQIdent) {
				return nil, syntaxErr(r.src, c.tok)
			}
		}
		if len(cols.kids) == 0 {
			return nil, syntaxErr(r.src, cols.close)
		}
		name, at := items[j], g.tok
		cte := synth(kQIdent, FnDerived+name.tok.text, at)
		spacedCols := *cols
		spacedCols.tok.space = true // a column list, not a call's arguments
		cols = &spacedCols
		w := &node{tok: synth(kOp, "(", at), group: true, close: synth(kOp, ")", at)}
		w.kids = []*node{{tok: synth(kIdent, "with", at)}, {tok: cte}, cols,
			{tok: synth(kIdent, "as", at)}, g, {tok: synth(kIdent, "select", at)}, {tok: synth(kOp, "*", at)},
			{tok: synth(kIdent, "from", at)}, {tok: cte}}
		out[len(out)-1] = w
		out = append(out, &node{tok: synth(kIdent, "as", at)}, name)
		i = j + 1
	}
	return out, nil
}
