package parse

// Rewrites of PostgreSQL syntax that catalog queries (psql, JDBC, ORMs)
// use: OPERATOR(schema.op), COLLATE, pg_catalog-qualified function
// calls, = ANY (ARRAY[...]) and the regular expression operators.

import "strings"

// pgSyntax rewrites, on one level:
//
//   - OPERATOR(pg_catalog.~) → ~ (any schema, any operator the lexer knows)
//   - x COLLATE "C", x COLLATE pg_catalog.default → x (gpusql compares
//     strings bytewise, which is the C collation)
//   - pg_catalog.f(...) → f(...)
//   - x = ANY (ARRAY[a, b]) → x IN (a, b); x <> ALL (ARRAY[a, b]) →
//     x NOT IN (a, b)
//   - string_agg(v, d [ORDER BY k]) → group_concat(v, d [ORDER BY k]
//     SEPARATOR '__gpusql_string_agg'), tidb's only aggregate with an
//     ORDER BY; the binder reads it back as string_agg
//   - concat(...) → __gpusql_concat(...), PostgreSQL's concat, which
//     tidb's parse of a || b (concat) would otherwise stand for
//   - mod(a, b) → __gpusql_mod(a, b): tidb reads mod() as the operator %,
//     which would lose the function's result column name
//   - (expr).name, a field of a composite value → __gpusql_field(expr,
//     'name'); information_schema._pg_expandarray(...) →
//     _pg_expandarray(...)
//   - user, current_user, session_user, current_role, current_catalog
//     written bare → user(), ...: PostgreSQL's SQL value functions, so that
//     a quoted "user" stays a column name
func (r *rewriter) pgSyntax(items []*node) ([]*node, error) {
	out := make([]*node, 0, len(items))
	dropped := false // the qualifier before items[i] was dropped
	for i := 0; i < len(items); i++ {
		n := items[i]
		afterDot := i > 0 && items[i-1].op(".") && !dropped
		dropped = false
		next := get(items, i+1)
		switch {
		case afterDot:
		case n.word("concat") && next != nil && next.group:
			// concat(...) ignores NULLs; tidb spells || as concat too
			out = append(out, &node{tok: synth(kIdent, fnConcat, n.tok)}, next)
			i++
			continue
		case n.word("mod") && next != nil && next.group:
			// mod(a, b) is a function call in PostgreSQL, named mod
			out = append(out, &node{tok: synth(kIdent, fnMod, n.tok)}, next)
			i++
			continue
		case n.word("string_agg") && next != nil && next.group:
			out = append(out, r.stringAgg(n, next)...)
			i++
			continue
		case sqlValueFunc(n.tok) && (next == nil || !next.group && !next.op(".")) &&
			(len(out) == 0 || !out[len(out)-1].word("as")):
			out = append(out, call(n.tok.text, n.tok)...)
			continue
		case n.word("operator") && next != nil && next.group:
			op, ok := operatorName(next.kids)
			if !ok {
				return nil, syntaxErr(r.src, tokOr(first(next.kids), next.close))
			}
			t := synth(kOp, op.tok.text, n.tok)
			out = append(out, &node{tok: t})
			i++
			continue
		case n.word("collate"):
			j := i + 1
			if !isName(get(items, j)) {
				return nil, syntaxErr(r.src, tokAt(items, j, len(items), r.end))
			}
			j++
			for j+1 < len(items) && items[j].op(".") && isName(items[j+1]) {
				j += 2
			}
			i = j - 1
			continue
		case n.group && next != nil && next.op(".") && isName(get(items, i+2)) && len(n.kids) > 0 &&
			!n.kids[0].word("select") && (len(out) == 0 || !isFuncName(out[len(out)-1]) && !out[len(out)-1].group):
			// (expr).field: a field of a composite value
			field := items[i+2].tok.text
			if items[i+2].tok.kind != kQIdent {
				field = strings.ToLower(field)
			}
			out = append(out, call(fnField, n.tok, n.kids, str(field, items[i+2].tok))...)
			i += 2
			continue
		case n.word("information_schema") && next != nil && next.op(".") && i+3 < len(items) &&
			items[i+2].word("_pg_expandarray") && items[i+3].group:
			i++ // the function is known by its name alone
			dropped = true
			continue
		case n.word("pg_catalog") && next != nil && next.op(".") && i+3 < len(items) &&
			isFuncName(items[i+2]) && items[i+3].group:
			i++ // drop "pg_catalog."; the name and its arguments follow
			dropped = true
			continue
		case inFrom(out) && n.word("lateral") && next != nil && isFuncName(next) && !next.word("lateral") &&
			get(items, i+2) != nil && items[i+2].group && len(out) > 0 &&
			(out[len(out)-1].word("from") || out[len(out)-1].op(",") || out[len(out)-1].word("join")):
			// LATERAL f(...): a function in FROM may read the FROM items
			// before it with or without the word, as in PostgreSQL
			continue
		case inFrom(out) && isFuncName(n) && next != nil && next.group && !n.word("lateral") && len(out) > 0 &&
			(out[len(out)-1].word("from") || out[len(out)-1].op(",") || out[len(out)-1].word("join")):
			// A function in FROM: (SELECT __gpusql_srf('f', args...)),
			// which the binder turns into the function's rows.
			args := append(str(n.tok.text, n.tok), next.kids...)
			if len(next.kids) > 0 {
				args = append(str(n.tok.text, n.tok), &node{tok: synth(kOp, ",", n.tok)})
				args = append(args, next.kids...)
			}
			sel := append([]*node{{tok: synth(kIdent, "select", n.tok)}}, call(fnSRF, n.tok, args)...)
			// A one-column alias list, f(...) [AS] t(c), names the
			// function's column: (SELECT __gpusql_srf(...) AS c) AS t.
			j := i + 2
			if get(items, j) != nil && items[j].word("as") {
				j++
			}
			if t, cols := get(items, j), get(items, j+1); isName(t) && cols != nil && cols.group && len(cols.kids) == 1 && isName(cols.kids[0]) {
				sel = append(sel, &node{tok: synth(kIdent, "as", n.tok)}, cols.kids[0])
				g := &node{tok: synth(kOp, "(", n.tok), group: true, kids: sel, close: synth(kOp, ")", n.tok)}
				out = append(out, g, &node{tok: synth(kIdent, "as", n.tok)}, t)
				i = j + 1
				continue
			}
			out = append(out, &node{tok: synth(kOp, "(", n.tok), group: true, kids: sel, close: synth(kOp, ")", n.tok)})
			i++
			continue
		case n.word("array") && next != nil && next.group && len(next.kids) > 0 && next.kids[0].word("select"):
			// ARRAY(SELECT ...): the subquery's rows as an array (text form)
			out = append(out, call(fnArraySub, n.tok, []*node{next})...)
			i++
			continue
		case (n.word("any") || n.word("some") || n.word("all")) && next != nil && next.group && len(out) > 0:
			elems, ok := arrayCtor(next.kids)
			if !ok {
				break
			}
			op := out[len(out)-1]
			in := []*node{{tok: synth(kIdent, "in", n.tok)}}
			switch {
			case op.op("=") && !n.word("all"):
			case (op.op("<>") || op.op("!=")) && n.word("all"):
				in = append([]*node{{tok: synth(kIdent, "not", n.tok)}}, in...)
			default:
				return nil, notSupported(r.src, n.tok, "only = ANY and <> ALL are supported over an ARRAY[...] list by gpusql")
			}
			if len(elems) == 0 {
				return nil, notSupported(r.src, n.tok, "an empty ARRAY[] is not supported by gpusql")
			}
			g := &node{tok: next.tok, group: true, kids: elems, close: next.close}
			out = append(out[:len(out)-1], in...)
			out = append(out, g)
			i++
			continue
		}
		out = append(out, n)
	}
	return out, nil
}

// arrays rewrites, after casts, the array operations catalog queries use
// on gpusql's text-form arrays: a[i] → __gpusql_subscript(a, i), and
// x = ANY (a) / x <> ALL (a) over an array value (not a subquery) →
// __gpusql_array_has(x, a), negated for <> ALL.
func (r *rewriter) arrays(items []*node) ([]*node, error) {
	out := make([]*node, 0, len(items))
	for i := 0; i < len(items); i++ {
		n := items[i]
		switch {
		case n.op("[") && len(out) > 0 && !out[len(out)-1].word("array") && !(i+1 < len(items) && items[i+1].op("]")):
			s := primaryStart(out)
			close := -1
			for j := i + 1; j < len(items); j++ {
				if items[j].op("]") {
					close = j
					break
				}
			}
			if s < 0 || close <= i+1 {
				return nil, syntaxErr(r.src, n.tok)
			}
			base := append([]*node(nil), out[s:]...)
			out = append(out[:s], call(fnSubscript, n.tok, base, items[i+1:close])...)
			i = close
			continue
		case (n.word("any") || n.word("some") || n.word("all")) && i+1 < len(items) && items[i+1].group && len(out) > 0 &&
			!(len(items[i+1].kids) > 0 && items[i+1].kids[0].word("select")):
			op := out[len(out)-1]
			eq := op.op("=") && !n.word("all")
			ne := (op.op("<>") || op.op("!=")) && n.word("all")
			if !eq && !ne {
				return nil, notSupported(r.src, n.tok, "only = ANY and <> ALL are supported over an array by gpusql")
			}
			s, err := r.chainStart(out[:len(out)-1], op.tok)
			if err != nil {
				return nil, err
			}
			left := append([]*node(nil), out[s:len(out)-1]...)
			c := call(fnArrayHas, n.tok, left, items[i+1].kids)
			if ne {
				kids := append([]*node{{tok: synth(kIdent, "not", n.tok)}}, c...)
				c = []*node{{tok: synth(kOp, "(", n.tok), group: true, kids: kids, close: synth(kOp, ")", n.tok)}}
			}
			out = append(out[:s], c...)
			i++
			continue
		}
		out = append(out, n)
	}
	return out, nil
}

// inFrom reports whether the items so far end inside a FROM clause.
func inFrom(out []*node) bool {
	sep := false // a comma or JOIN of this level came after
	for k := len(out) - 1; k >= 0; k-- {
		switch n := out[k]; {
		case n.op(",") || n.word("join"):
			sep = true
		case (n.word("on") || n.word("using")) && sep:
			// a join condition ended by the next FROM item
		case n.word("from"):
			// a query's FROM, not extract(field FROM x) or
			// substring(s FROM p), whose level has no SELECT
			for _, m := range out[:k] {
				if m.word("select") || m.word("delete") {
					return true
				}
			}
			return false
		case n.word("where"), n.word("group"), n.word("having"), n.word("order"), n.word("limit"),
			n.word("union"), n.word("intersect"), n.word("except"), n.word("select"), n.word("on"), n.word("using"):
			return false
		}
	}
	return false
}

// operatorName reads the inside of OPERATOR(...): [schema .] op.
func operatorName(kids []*node) (*node, bool) {
	if len(kids) == 3 && isName(kids[0]) && kids[1].op(".") {
		kids = kids[2:]
	}
	if len(kids) != 1 || kids[0].group || kids[0].tok.kind != kOp {
		return nil, false
	}
	switch kids[0].tok.text {
	case "(", ")", ",", ";", "[", "]", ".", "::":
		return nil, false
	}
	return kids[0], true
}

// isName reports whether n is an identifier (quoted or not).
func isName(n *node) bool {
	return n != nil && !n.group && (n.tok.kind == kIdent && !keyword(n.tok.text) || n.tok.kind == kQIdent)
}

// arrayCtor matches ARRAY[e1, e2, ...] filling a whole group and returns
// the elements with their commas.
func arrayCtor(kids []*node) ([]*node, bool) {
	if len(kids) < 3 || !kids[0].word("array") || !kids[1].op("[") || !kids[len(kids)-1].op("]") {
		return nil, false
	}
	inner := kids[2 : len(kids)-1]
	for _, k := range inner {
		if k.op("[") || k.op("]") {
			return nil, false
		}
	}
	return inner, true
}

// regex rewrites x ~ p, x ~* p, x !~ p and x !~* p to
// __gpusql_regex(x, p, 'flags'), negated for the ! forms, and the LIKE
// operators x ~~ p, x !~~ p, x ~~* p, x !~~* p to (x [NOT] [I]LIKE p). As in
// PostgreSQL, the operands are chains of primaries joined by arithmetic
// operators (which bind tighter); comparisons, AND, OR bind looser.
func (r *rewriter) regex(items []*node) ([]*node, error) {
	out := make([]*node, 0, len(items))
	for i := 0; i < len(items); i++ {
		n := items[i]
		if n.group || n.tok.kind != kOp {
			out = append(out, n)
			continue
		}
		like := ""
		switch n.tok.text {
		case "~", "!~", "~*", "!~*":
		case "~~", "!~~":
			like = "like"
		case "~~*", "!~~*":
			like = "ilike"
		default:
			out = append(out, n)
			continue
		}
		s, err := r.chainStart(out, n.tok)
		if err != nil {
			return nil, err
		}
		e, err := r.chainEnd(items, i+1, r.end)
		if err != nil {
			return nil, err
		}
		if like != "" {
			// x ~~ p is x LIKE p (postgres_fdw deparses LIKE so)
			kids := append([]*node(nil), out[s:]...)
			if n.tok.text[0] == '!' {
				kids = append(kids, &node{tok: synth(kIdent, "not", n.tok)})
			}
			kids = append(kids, &node{tok: synth(kIdent, like, n.tok)})
			kids = append(kids, items[i+1:e]...)
			out = append(out[:s], &node{tok: synth(kOp, "(", n.tok), group: true, kids: kids, close: synth(kOp, ")", n.tok)})
			i = e - 1
			continue
		}
		flags := ""
		if n.tok.text == "~*" || n.tok.text == "!~*" {
			flags = "i"
		}
		left := append([]*node(nil), out[s:]...)
		c := call(fnRegex, n.tok, left, items[i+1:e], str(flags, n.tok))
		out = out[:s]
		if n.tok.text[0] == '!' {
			kids := append([]*node{{tok: synth(kIdent, "not", n.tok)}}, c...)
			c = []*node{{tok: synth(kOp, "(", n.tok), group: true, kids: kids, close: synth(kOp, ")", n.tok)}}
		}
		out = append(out, c...)
		i = e - 1
	}
	return out, nil
}

// chainStart finds the start of the operand ending xs: primaries joined
// by arithmetic operators, with unary signs.
func (r *rewriter) chainStart(xs []*node, op token) (int, error) {
	k := len(xs)
	for {
		s := primaryStart(xs[:k])
		if s < 0 {
			return 0, syntaxErr(r.src, op)
		}
		k = s
		for k > 0 && (xs[k-1].op("-") || xs[k-1].op("+")) && (k == 1 || !operandEnd(xs[k-2])) {
			k--
		}
		if k > 0 && arith(xs[k-1]) {
			k--
			continue
		}
		return k, nil
	}
}

// chainEnd finds the end (exclusive) of the operand starting at xs[i].
// A missing operand is a syntax error at the token where it should start,
// or at missing when there is none.
func (r *rewriter) chainEnd(xs []*node, i int, missing token) (int, error) {
	for {
		for i < len(xs) && (xs[i].op("-") || xs[i].op("+")) {
			i++
		}
		e := primaryEnd(xs, i)
		if e < 0 {
			return 0, syntaxErr(r.src, tokOr(get(xs, i), missing))
		}
		i = e
		if i < len(xs) && arith(xs[i]) {
			i++
			continue
		}
		return i, nil
	}
}

// sqlValueFunc reports whether t is one of PostgreSQL's SQL value
// functions written without parentheses that gpusql has.
func sqlValueFunc(t token) bool {
	switch {
	case t.is("user"), t.is("current_user"), t.is("session_user"), t.is("current_role"), t.is("current_catalog"):
		return true
	}
	return false
}

// stringAgg rewrites string_agg(args [ORDER BY keys]) (name and its
// group) as group_concat(args [ORDER BY keys] SEPARATOR marker).
func (r *rewriter) stringAgg(name, g *node) []*node {
	kids := append([]*node(nil), g.kids...)
	kids = append(kids, &node{tok: synth(kIdent, "separator", g.close)}, &node{tok: synth(kString, aggMarker, g.close)})
	fn := &node{tok: synth(kIdent, "group_concat", name.tok)}
	return []*node{fn, {tok: g.tok, group: true, kids: kids, close: g.close}}
}

// fullJoin rewrites "FULL [OUTER] JOIN item ON cond", which tidb's
// grammar lacks, as "LEFT JOIN item ON __gpusql_full_join(cond)"; the
// binder runs it as a full join. "FULL JOIN item USING (cols)" becomes
// "LEFT JOIN item ON __gpusql_full_using(cols)", and "NATURAL FULL JOIN
// item" "LEFT JOIN item ON __gpusql_full_natural()".
func (r *rewriter) fullJoin(items []*node) ([]*node, error) {
	out := make([]*node, 0, len(items))
	for i := 0; i < len(items); i++ {
		n := items[i]
		j := i + 1
		if j < len(items) && items[j].word("outer") {
			j++
		}
		if !n.word("full") || j >= len(items) || !items[j].word("join") {
			out = append(out, n)
			continue
		}
		natural := len(out) > 0 && out[len(out)-1].word("natural")
		if natural {
			out = out[:len(out)-1]
		}
		on, using := -1, -1
		k := j + 1
		for ; k < len(items) && !natural; k++ {
			if items[k].word("using") {
				using = k
				break
			}
			if items[k].word("on") {
				on = k
				break
			}
			if joinEnd(items, k) {
				break
			}
		}
		left := []*node{{tok: synth(kIdent, "left", n.tok)}, {tok: synth(kIdent, "join", items[j].tok)}}
		switch {
		case natural:
			end := j + 1
			for end < len(items) && !joinEnd(items, end) {
				end++
			}
			if end == j+1 {
				return nil, syntaxErr(r.src, tokAt(items, end, len(items), r.end))
			}
			out = append(out, left...)
			out = append(out, items[j+1:end]...)
			out = append(out, &node{tok: synth(kIdent, "on", items[end-1].tok)})
			out = append(out, call(fnFullNatural, items[end-1].tok)...)
			i = end - 1
		case using >= 0:
			if using+1 >= len(items) || !items[using+1].group {
				return nil, syntaxErr(r.src, tokAt(items, using+1, len(items), r.end))
			}
			out = append(out, left...)
			out = append(out, items[j+1:using]...)
			out = append(out, &node{tok: synth(kIdent, "on", items[using].tok)})
			out = append(out, call(fnFullUsing, items[using].tok, items[using+1].kids)...)
			i = using + 1
		case on >= 0:
			end := on + 1
			for end < len(items) && !joinEnd(items, end) {
				end++
			}
			if end == on+1 {
				return nil, syntaxErr(r.src, tokAt(items, end, len(items), r.end))
			}
			out = append(out, left...)
			out = append(out, items[j+1:on+1]...)
			out = append(out, call(fnFullJoin, items[on].tok, items[on+1:end])...)
			i = end - 1
		default:
			return nil, syntaxErr(r.src, tokAt(items, j+1, len(items), r.end))
		}
	}
	return out, nil
}

// joinCondition refuses a qualified join without its condition, as
// PostgreSQL's grammar does: [INNER | LEFT | RIGHT] JOIN needs ON or
// USING (tidb's makes a bare JOIN a cross join). CROSS JOIN and NATURAL
// joins take none. A join nested in another's right side (a JOIN b JOIN
// c ON x ON y) takes the first condition that follows it.
func (r *rewriter) joinCondition(items []*node) ([]*node, error) {
	for i, n := range items {
		if !n.word("join") || !qualifiedJoin(items, i) {
			continue
		}
		pending := 0
		k := i + 1
		for ; k < len(items); k++ {
			m := items[k]
			if m.word("on") || m.word("using") {
				if pending == 0 {
					break
				}
				pending--
				continue
			}
			if m.word("join") {
				if qualifiedJoin(items, k) {
					pending++
				}
				continue
			}
			if joinEnd(items, k) && !joinWord(m) {
				break
			}
		}
		if k == len(items) || !(items[k].word("on") || items[k].word("using")) {
			return nil, syntaxErr(r.src, tokAt(items, k, len(items), r.end))
		}
	}
	return items, nil
}

// qualifiedJoin reports whether the JOIN at items[i] needs a condition:
// it is not CROSS JOIN nor NATURAL [kind] JOIN.
func qualifiedJoin(items []*node, i int) bool {
	for k := i - 1; k >= 0; k-- {
		m := items[k]
		switch {
		case m.word("cross"), m.word("natural"):
			return false
		case m.word("inner"), m.word("left"), m.word("right"), m.word("full"), m.word("outer"):
			continue
		}
		return true
	}
	return true
}

// joinWord reports whether n is a word of a join's type.
func joinWord(n *node) bool {
	for _, w := range []string{"join", "inner", "left", "right", "full", "outer", "cross", "natural"} {
		if n.word(w) {
			return true
		}
	}
	return false
}

// joinEnd reports whether items[k] ends a join condition: the next join,
// a clause of the query, or a comma between FROM items.
func joinEnd(items []*node, k int) bool {
	n := items[k]
	if n.op(",") {
		return true
	}
	if (n.word("left") || n.word("right")) && k+1 < len(items) && items[k+1].group {
		return false // the functions left() and right()
	}
	for _, w := range []string{"join", "inner", "left", "right", "full", "cross", "natural", "where", "group", "having",
		"window", "order", "limit", "offset", "fetch", "union", "intersect", "except", "for", "returning"} {
		if n.word(w) {
			return true
		}
	}
	return false
}

// bitwiseMix refuses a chain of the integer operators that tidb would
// group differently from PostgreSQL. PostgreSQL binds &, |, << and >>
// alike, left to right; tidb binds << and >> before & before |. Where a
// later operator of a chain binds tighter in tidb than an earlier one
// (4 | 1 & 2), the two disagree, and the query must say which it means.
func (r *rewriter) bitwiseMix(items []*node) ([]*node, error) {
	rank := func(n *node) int {
		switch {
		case n.op("<<"), n.op(">>"):
			return 1
		case n.op("&"):
			return 2
		case n.op("|"):
			return 3
		}
		return 0
	}
	loosest := 0 // the loosest-binding operator of the chain so far
	for _, n := range items {
		if k := rank(n); k > 0 {
			if k < loosest {
				return nil, notSupported(r.src, n.tok, "mixing the operators &, |, << and >> without parentheses is not supported by gpusql: PostgreSQL applies them left to right; write parentheses")
			}
			loosest = max(loosest, k)
			continue
		}
		if n.op(",") || comparison(n) || !n.group && n.tok.kind == kIdent && keyword(n.tok.text) {
			loosest = 0
		}
	}
	return items, nil
}
