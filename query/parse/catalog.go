package parse

import "strings"

// Names qualified by a database, db.schema.name, as dbt and other tools
// write every relation. PostgreSQL accepts them when db is the current
// database (and refuses others, 0A000 "cross-database references are
// not implemented"); tidb's grammar has no three-part table names. The
// parser folds db and schema into one schema name, db + CatalogSep +
// schema, which the session splits and checks (SplitCatalog): in a
// query's FROM clause by a rewrite, in the statements parsed here by
// qualName.

// CatalogSep joins a database and a schema in a schema name: the ASCII
// unit separator, which no name a client writes contains in practice.
const CatalogSep = "\x1f"

// SplitCatalog splits a schema name that the parser folded with its
// database (ok false for any other schema name).
func SplitCatalog(schema string) (db, rest string, ok bool) {
	return strings.Cut(schema, CatalogSep)
}

// catalogNames rewrites the relation names db.schema.name of a FROM
// clause (after FROM, JOIN, and the commas of the clause outside
// brackets) into "db<sep>schema".name. Column references of three parts
// (schema.table.column) are left alone: they are never in such a place
// (an ON condition's commas are inside parentheses or brackets).
func (r *rewriter) catalogNames(items []*node) ([]*node, error) {
	inFrom, brackets := false, 0
	var out []*node
	for i := 0; i < len(items); i++ {
		n := items[i]
		out = append(out, n)
		switch {
		case n.group:
			continue
		case n.op("["):
			brackets++
			continue
		case n.op("]"):
			brackets--
			continue
		case n.word("from"):
			inFrom = true
		case !inFrom:
			continue
		case n.word("join"):
		case n.op(",") && brackets == 0:
		case clauseKeyword(n):
			inFrom = false
			continue
		default:
			continue
		}
		// items[i+1:] starts a relation: db.schema.name?
		k := i + 1
		if get(items, k) != nil && get(items, k).word("only") {
			k++
		}
		if !isName(get(items, k)) || !isDot(get(items, k+1)) || !isName(get(items, k+2)) ||
			!isDot(get(items, k+3)) || !isName(get(items, k+4)) {
			continue
		}
		if next := get(items, k+5); next != nil && (next.group || next.op(".")) {
			continue
		}
		out = append(out, items[i+1:k]...)
		db, schema := items[k], items[k+2]
		folded := &node{tok: synth(kQIdent, db.tok.text+CatalogSep+schema.tok.text, db.tok)}
		out = append(out, folded, items[k+3], items[k+4])
		i = k + 4
	}
	return out, nil
}

func isDot(n *node) bool { return n != nil && n.op(".") }

// clauseKeyword reports whether n starts a clause after FROM.
func clauseKeyword(n *node) bool {
	for _, w := range []string{"where", "group", "having", "order", "limit", "offset", "fetch", "union", "intersect", "except", "window", "for", "returning"} {
		if n.word(w) {
			return true
		}
	}
	return false
}
