package parse

// Rewrites of PostgreSQL's time syntax and named arguments (docs/sql.md):
//
//   - x AT TIME ZONE z → __gpusql_at_zone(x, z); AT binds tighter than
//     the binary operators and looser than casts, so both operands are
//     primaries (with unary signs), and chains group to the left
//   - f(name => value, ...) → f(__gpusql_named('name', value), ...)

const (
	fnAtZone = "__gpusql_at_zone" // (x, zone) for x AT TIME ZONE zone
	fnNamed  = "__gpusql_named"   // ('name', value) for name => value
)

// atTimeZone rewrites x AT TIME ZONE z on one level (after casts, so
// that x::timestamp AT TIME ZONE 'UTC' casts first).
func (r *rewriter) atTimeZone(items []*node) ([]*node, error) {
	out := make([]*node, 0, len(items))
	for i := 0; i < len(items); i++ {
		n := items[i]
		if !n.word("at") || i+2 >= len(items) || !items[i+1].word("time") || !items[i+2].word("zone") {
			out = append(out, n)
			continue
		}
		s := primaryStart(out)
		if s < 0 {
			return nil, syntaxErr(r.src, n.tok)
		}
		for s > 0 && (out[s-1].op("-") || out[s-1].op("+")) && (s == 1 || !operandEnd(out[s-2])) {
			s--
		}
		j := i + 3
		for j < len(items) && (items[j].op("-") || items[j].op("+")) {
			j++
		}
		e := primaryEnd(items, j)
		if e < 0 {
			return nil, syntaxErr(r.src, tokAt(items, j, len(items), r.end))
		}
		left := append([]*node(nil), out[s:]...)
		out = append(out[:s], call(fnAtZone, n.tok, left, items[i+3:e])...)
		i = e - 1
	}
	return out, nil
}

// namedArgs rewrites name => value in an argument list.
func (r *rewriter) namedArgs(items []*node) ([]*node, error) {
	has := false
	for _, n := range items {
		if n.op("=>") {
			has = true
			break
		}
	}
	if !has {
		return items, nil
	}
	out := make([]*node, 0, len(items))
	for i := 0; i < len(items); i++ {
		n := items[i]
		if i+1 < len(items) && items[i+1].op("=>") && !n.group && (n.tok.kind == kIdent || n.tok.kind == kQIdent) &&
			(i == 0 || items[i-1].op(",")) {
			e := i + 2
			for e < len(items) && !items[e].op(",") {
				e++
			}
			if e == i+2 {
				return nil, syntaxErr(r.src, tokAt(items, e, len(items), r.end))
			}
			out = append(out, call(fnNamed, n.tok, str(n.tok.text, n.tok), items[i+2:e])...)
			i = e - 1
			continue
		}
		if n.op("=>") {
			return nil, syntaxErr(r.src, n.tok)
		}
		out = append(out, n)
	}
	return out, nil
}
