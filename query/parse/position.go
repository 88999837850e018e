package parse

// Error positions for errors found after parsing, when the binder meets
// a name it cannot resolve. PostgreSQL points at the reference: a column
// reference's first name (r in r.nosuch), a relation's (its schema's if
// qualified), a function's name.

// Kinds of reference RefPosition looks for.
const (
	RefColumn    = iota // [qual.]name, not a function or a qualifier
	RefQualifier        // qual. (a table name before a column)
	RefRelation         // [schema.]name
	RefFunction         // name(
)

// RefPosition returns the 1-based character position in sql of the first
// reference of the given kind to [qual.]name within sql[start:end] (one
// statement's text), or 0 if there is none. name and qual are as the
// binder spells them: folded unless quoted.
func RefPosition(sql string, start, end int, kind int, qual, name string) int {
	if start < 0 || end > len(sql) || start > end {
		return 0
	}
	toks, err := lex(sql[start:end])
	if err != nil {
		return 0
	}
	isName := func(i int, s string) bool {
		return i >= 0 && i < len(toks) && (toks[i].kind == kIdent || toks[i].kind == kQIdent) && toks[i].text == s
	}
	isOp := func(i int, s string) bool { return i >= 0 && i < len(toks) && toks[i].isOp(s) }
	for i := range toks {
		at := i
		switch kind {
		case RefColumn:
			if qual != "" {
				if !isName(i, qual) || !isOp(i+1, ".") || !isName(i+2, name) {
					continue
				}
			} else if !isName(i, name) || isOp(i-1, ".") || isOp(i+1, ".") || isOp(i+1, "(") || isName(i-1, "as") {
				continue
			}
		case RefQualifier:
			if !isName(i, qual) || !isOp(i+1, ".") || isOp(i-1, ".") {
				continue
			}
		case RefRelation:
			if !isName(i, name) || isOp(i+1, ".") || isOp(i+1, "(") {
				continue
			}
			if isOp(i-1, ".") {
				at = i - 2
			}
		case RefFunction:
			if !isName(i, name) || !isOp(i+1, "(") {
				continue
			}
			if isOp(i-1, ".") {
				at = i - 2
			}
		}
		if at < 0 {
			return 0
		}
		return position(sql, start+toks[at].pos)
	}
	return 0
}
