package parse

import "strings"

// node is one item of a statement: a token, or a parenthesised group whose
// items are kids. Rewrites work level by level on []*node, so anything
// inside parentheses is one item to the level around it.
type node struct {
	tok   token   // the token; for a group, its "("
	group bool    // a parenthesised group
	kids  []*node // a group's items
	close token   // a group's ")"
}

// word reports whether n is the unquoted keyword or identifier w.
func (n *node) word(w string) bool { return !n.group && n.tok.is(w) }

// op reports whether n is the operator or punctuation op.
func (n *node) op(op string) bool { return !n.group && n.tok.isOp(op) }

// tree groups toks (one statement, without its end token) by parentheses.
// end is the token after the statement: ";" or the end of input.
func tree(src string, toks []token, end token) ([]*node, error) {
	stack := [][]*node{nil}
	var opens []*node
	for _, t := range toks {
		switch {
		case t.isOp("("):
			g := &node{tok: t, group: true}
			opens = append(opens, g)
			stack = append(stack, nil)
		case t.isOp(")"):
			if len(opens) == 0 {
				return nil, syntaxErr(src, t)
			}
			g := opens[len(opens)-1]
			opens = opens[:len(opens)-1]
			g.kids = stack[len(stack)-1]
			g.close = t
			stack = stack[:len(stack)-1]
			stack[len(stack)-1] = append(stack[len(stack)-1], g)
		default:
			stack[len(stack)-1] = append(stack[len(stack)-1], &node{tok: t})
		}
	}
	if len(opens) > 0 {
		return nil, syntaxErr(src, end)
	}
	return stack[0], nil
}

// mark ties an offset in rewritten text to the token it came from.
type mark struct {
	out int
	tok token
}

// renderer writes items back out as text for tidb, recording where each
// token went so that tidb's error offsets can be mapped back.
type renderer struct {
	b     strings.Builder
	marks []mark
	prev  *token
}

// render returns the text of items and the offset marks.
func render(items []*node) (string, []mark) {
	r := &renderer{}
	r.items(items)
	return r.b.String(), r.marks
}

func (r *renderer) items(items []*node) {
	for i, n := range items {
		if n.group {
			r.emit(n.tok, "(")
			r.items(n.kids)
			r.emit(n.close, ")")
			continue
		}
		var prev, next *node
		if i > 0 {
			prev = items[i-1]
		}
		if i+1 < len(items) {
			next = items[i+1]
		}
		r.emit(n.tok, tokenText(n.tok, prev, next))
	}
}

func (r *renderer) emit(t token, text string) {
	if r.prev != nil && spaced(*r.prev, t) {
		r.b.WriteByte(' ')
	}
	r.marks = append(r.marks, mark{out: r.b.Len(), tok: t})
	r.b.WriteString(text)
	r.prev = &t
}

// spaced says whether a space goes between prev and t. Tokens are
// separated by one space, except around "." (so qualified names stay
// whole), inside parentheses, before a comma, and between a name and its
// "(" unless the query itself had a space there.
func spaced(prev, t token) bool {
	switch {
	case t.isOp(")") || t.isOp(",") || t.isOp("."):
		return false
	case prev.isOp("(") || prev.isOp("."):
		return false
	case t.isOp("("):
		return t.space && !t.synth
	}
	return true
}

// tokenText is a token as tidb should read it, given the items around it
// (nil at either end). Strings and quoted identifiers are re-quoted in
// standard form; unquoted identifiers are already folded to lower case,
// and those that tidb reserves but PostgreSQL lets be plain names are
// quoted when they are used as names.
func tokenText(t token, prev, next *node) string {
	switch t.kind {
	case kString:
		return "'" + strings.ReplaceAll(t.text, "'", "''") + "'"
	case kQIdent:
		return quoteIdent(t.text)
	case kIdent:
		if usedAsName(t.text, prev, next) {
			return quoteIdent(t.text)
		}
	}
	return t.text
}

// usedAsName reports whether the tidb-reserved word w is a name here,
// rather than a function name (a "(" follows) or part of a window clause.
func usedAsName(w string, prev, next *node) bool {
	if next != nil && next.group {
		return false
	}
	if prev != nil && prev.word("as") {
		// An alias may be any keyword in PostgreSQL (AS default, AS
		// schema); CAST's AS is gone by the time the text is rendered.
		return true
	}
	nextWord := func(ws ...string) bool {
		if next == nil || next.group {
			return false
		}
		if next.tok.kind == kNumber {
			return true
		}
		for _, x := range ws {
			if next.tok.is(x) {
				return true
			}
		}
		return false
	}
	switch w {
	case "rows", "range", "groups":
		// ROWS BETWEEN ..., ROWS UNBOUNDED PRECEDING, ROWS 3 PRECEDING
		return !nextWord("between", "unbounded", "current")
	case "row":
		// CURRENT ROW
		return prev == nil || !prev.word("current")
	case "partition":
		// PARTITION BY
		return next == nil || !next.word("by")
	case "of":
		// OF is unreserved in PostgreSQL (psql's \dAo names
		// pg_opfamily "of"); tidb reserves it for FOR UPDATE OF.
		return prev == nil || !prev.word("update") && !prev.word("share")
	}
	return tidbOnlyReserved(w)
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// tidbOnlyReserved reports whether w is reserved by tidb's MySQL grammar
// but is an ordinary name (or a non-reserved keyword) in PostgreSQL, so
// that a column called "key" or "range" still works.
func tidbOnlyReserved(w string) bool {
	switch w {
	case "add", "blob", "call", "cascade", "change", "continue", "cume_dist", "database", "databases",
		"day_hour", "day_microsecond", "day_minute", "day_second", "delayed", "delete", "dense_rank",
		"describe", "distinctrow", "div", "dual", "elseif", "enclosed", "escaped", "exit", "first_value",
		"float4", "float8", "force", "fulltext", "generated", "high_priority", "hour_microsecond",
		"hour_minute", "hour_second", "if", "ignore", "index", "infile", "inout", "insert", "int1", "int2",
		"int3", "int4", "int8", "iterate", "key", "keys", "kill", "lag", "last_value", "lead", "leave",
		"linear", "lines", "load", "lock", "long", "longblob", "longtext", "low_priority", "match",
		"maxvalue", "mediumblob", "mediumint", "mediumtext", "middleint", "minute_microsecond",
		"minute_second", "mod", "no_write_to_binlog", "nth_value", "ntile", "optimize", "option",
		"optionally", "out", "outfile", "percent_rank", "procedure", "rank", "read", "regexp",
		"release", "rename", "repeat", "replace", "require", "restrict", "revoke", "rlike", "row_number", "schema", "schemas",
		"second_microsecond", "show", "spatial", "sql", "sqlexception", "sqlstate", "sqlwarning",
		"sql_big_result", "sql_calc_found_rows", "sql_small_result", "ssl", "starting", "stored",
		"straight_join", "terminated", "tidb_current_tso", "tinyblob", "tinyint", "tinytext", "trigger",
		"unlock", "unsigned", "until", "update", "usage", "use", "utc_date", "utc_time", "utc_timestamp",
		"varbinary", "varcharacter", "virtual", "while", "write", "xor", "year_month", "zerofill":
		return true
	}
	return false
}

// origin maps an offset in rendered text back to the token there.
func origin(marks []mark, off int) (token, bool) {
	var best token
	found := false
	for _, m := range marks {
		if m.out > off {
			break
		}
		best, found = m.tok, true
	}
	return best, found
}
