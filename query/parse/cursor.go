package parse

import (
	"strings"

	"github.com/gpusql/gpusql/engine"
)

// cursor walks the items of a statement that is parsed here rather than
// by tidb (DDL, COPY, SET, ...).
type cursor struct {
	src   string
	items []*node
	i     int
	end   token // the token after the items: ")" of a group, ";" or end of input
}

// sub is a cursor over a group's items.
func (c *cursor) sub(g *node) *cursor {
	return &cursor{src: c.src, items: g.kids, end: g.close}
}

func (c *cursor) done() bool { return c.i >= len(c.items) }

// peek is the next item, or nil at the end.
func (c *cursor) peek() *node {
	if c.done() {
		return nil
	}
	return c.items[c.i]
}

// tok is the next token, or the end token.
func (c *cursor) tok() token {
	if c.done() {
		return c.end
	}
	return c.items[c.i].tok
}

// next returns the next item and moves past it (nil at the end).
func (c *cursor) next() *node {
	n := c.peek()
	if n != nil {
		c.i++
	}
	return n
}

// word consumes the keyword w if it comes next.
func (c *cursor) word(w string) bool {
	if n := c.peek(); n != nil && n.word(w) {
		c.i++
		return true
	}
	return false
}

// words consumes the keywords ws if they all come next.
func (c *cursor) words(ws ...string) bool {
	for k, w := range ws {
		if c.i+k >= len(c.items) || !c.items[c.i+k].word(w) {
			return false
		}
	}
	c.i += len(ws)
	return true
}

// op consumes the punctuation op if it comes next.
func (c *cursor) op(op string) bool {
	if n := c.peek(); n != nil && n.op(op) {
		c.i++
		return true
	}
	return false
}

// expect consumes the keywords ws or fails with a syntax error.
func (c *cursor) expect(ws ...string) error {
	for _, w := range ws {
		if !c.word(w) {
			return c.fail()
		}
	}
	return nil
}

// fail is a syntax error at the next token.
func (c *cursor) fail() *engine.Error { return syntaxErr(c.src, c.tok()) }

// finish fails unless all items were consumed.
func (c *cursor) finish() error {
	if !c.done() {
		return c.fail()
	}
	return nil
}

// group consumes a parenthesised group.
func (c *cursor) group() (*node, error) {
	if n := c.peek(); n != nil && n.group {
		c.i++
		return n, nil
	}
	return nil, c.fail()
}

// ident consumes a name: an unquoted identifier (already folded) or a
// quoted one. Keywords that PostgreSQL reserves are refused.
func (c *cursor) ident() (string, error) {
	n := c.peek()
	if n == nil || n.group || (n.tok.kind != kIdent && n.tok.kind != kQIdent) ||
		n.tok.kind == kIdent && pgReserved(n.tok.text) {
		return "", c.fail()
	}
	c.i++
	return n.tok.text, nil
}

// qualName consumes [[db.]schema.]name. schema is "" for an unqualified
// name, else public or a temporary schema (pg_temp, or pg_temp_N, which
// the session checks is its own); pg_catalog, which holds no user
// relations, is accepted and dropped. A database is folded into the
// schema (see SplitCatalog), for the session to check.
func (c *cursor) qualName() (schema, name string, err error) {
	at := c.tok()
	if name, err = c.ident(); err != nil {
		return "", "", err
	}
	if !c.op(".") {
		return "", name, nil
	}
	schema = name
	if name, err = c.ident(); err != nil {
		return "", "", err
	}
	db := ""
	if c.op(".") {
		db, schema = schema, name
		if name, err = c.ident(); err != nil {
			return "", "", err
		}
		if c.op(".") {
			return "", "", &engine.Error{Code: engine.CodeSyntaxError,
				Message: "improper qualified name (too many dotted names)", Position: position(c.src, at.pos)}
		}
	}
	switch {
	case schema == "pg_catalog":
		schema = ""
	case schema == "public", IsTempSchemaName(schema):
	default:
		return "", "", &engine.Error{Code: engine.CodeInvalidSchemaName,
			Message: `schema "` + schema + `" does not exist`, Position: position(c.src, at.pos)}
	}
	if db != "" {
		schema = db + CatalogSep + schema
	}
	return schema, name, nil
}

// IsTempSchemaName reports whether schema names a temporary schema:
// pg_temp (the session's) or pg_temp_N.
func IsTempSchemaName(schema string) bool {
	if schema == "pg_temp" {
		return true
	}
	digits, ok := strings.CutPrefix(schema, "pg_temp_")
	if !ok || digits == "" {
		return false
	}
	for _, r := range digits {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// stringLit consumes a string literal.
func (c *cursor) stringLit() (string, bool) {
	if n := c.peek(); n != nil && !n.group && n.tok.kind == kString {
		c.i++
		return n.tok.text, true
	}
	return "", false
}

// pgReserved reports whether w is a PostgreSQL reserved keyword, which
// cannot be a table or column name unless quoted.
func pgReserved(w string) bool {
	switch w {
	case "all", "analyse", "analyze", "and", "any", "array", "as", "asc", "asymmetric", "both", "case",
		"cast", "check", "collate", "column", "constraint", "create", "current_catalog", "current_date",
		"current_role", "current_time", "current_timestamp", "current_user", "default", "deferrable",
		"desc", "distinct", "do", "else", "end", "except", "false", "fetch", "for", "foreign", "from",
		"grant", "group", "having", "in", "initially", "intersect", "into", "lateral", "leading", "limit",
		"localtime", "localtimestamp", "not", "null", "offset", "on", "only", "or", "order", "placing",
		"primary", "references", "returning", "select", "session_user", "some", "symmetric",
		"system_user", "table", "then", "to", "trailing", "true", "union", "unique", "user", "using",
		"variadic", "when", "where", "window", "with":
		return true
	}
	return false
}
