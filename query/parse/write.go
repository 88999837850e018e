package parse

import (
	"fmt"
	"strings"

	"github.com/gpusql/gpusql/engine"
)

// Statements that write or change relations other than by loading CSV:
// CREATE TABLE ... AS and SELECT ... INTO, INSERT, CREATE and DROP VIEW,
// TRUNCATE and ALTER TABLE ... RENAME. Their queries are Selects, parsed
// as any query is.

// CreateTableAs is CREATE [TEMP] TABLE [IF NOT EXISTS] name [(columns)]
// AS query [WITH [NO] DATA], or SELECT ... INTO [TEMP] [TABLE] name ...
// (Into set).
type CreateTableAs struct {
	Text, Name  string
	Schema      string // as written: "", public or a temporary schema
	Temp        bool
	IfNotExists bool
	NoData      bool
	Into        bool
	Columns     []string // the optional column name list
	Query       *Select
}

// Insert is INSERT INTO table [(columns)] followed by a query, by
// VALUES rows or by DEFAULT VALUES. Query holds VALUES rows as one-row
// SELECTs joined by UNION ALL, Rows of them, each with as many items as
// the first (DEFAULT items are NULL).
type Insert struct {
	Text, Table   string
	Schema        string
	Columns       []string
	Query         *Select
	Rows          int // VALUES rows; 0 for a query
	DefaultValues bool
}

// CreateView is CREATE [OR REPLACE] [TEMP] VIEW name [(columns)] AS query.
// QueryText is the query as written.
type CreateView struct {
	Text, Name, QueryText string
	Schema                string
	Replace, Temp         bool
	Columns               []string
	Query                 *Select
}

// DropView is DROP VIEW [IF EXISTS] names [CASCADE | RESTRICT].
type DropView struct {
	Text     string
	Names    []string
	Schemas  []string // as DropTable's
	IfExists bool
	Cascade  bool
}

// Truncate is TRUNCATE [TABLE] [ONLY] names [RESTART | CONTINUE IDENTITY]
// [CASCADE | RESTRICT].
type Truncate struct {
	Text    string
	Names   []string
	Schemas []string // as DropTable's
}

// AlterRename is ALTER TABLE | VIEW [IF EXISTS] name RENAME TO new, or
// RENAME [COLUMN] column TO new (Column set).
type AlterRename struct {
	Text, Table string
	Schema      string
	View        bool // ALTER VIEW
	IfExists    bool
	Column      string
	NewName     string
}

func (s *CreateTableAs) SQL() string { return s.Text }
func (s *Insert) SQL() string        { return s.Text }
func (s *CreateView) SQL() string    { return s.Text }
func (s *DropView) SQL() string      { return s.Text }
func (s *Truncate) SQL() string      { return s.Text }
func (s *AlterRename) SQL() string   { return s.Text }

// parseWrite parses the statements of this file and the writes gpusql
// refuses; first is the first keyword. ok is false for other statements.
func parseWrite(c *cursor, text, first string) (st Stmt, ok bool, err error) {
	switch first {
	case "insert":
		st, err = parseInsert(c, text)
	case "truncate":
		st, err = parseTruncate(c, text)
	case "alter":
		st, err = parseAlter(c, text)
	case "update", "delete", "merge":
		e := notSupported(c.src, c.items[0].tok, strings.ToUpper(first)+" is not supported by gpusql: tables change only by loads, INSERT, TRUNCATE and DROP")
		e.Hint = "Build the changed rows with CREATE TABLE ... AS SELECT (or INSERT INTO ... SELECT into a new table), then drop the old table and rename the new one with ALTER TABLE ... RENAME TO."
		err = e
	case "select", "with":
		if i := intoAt(c.items); i >= 0 {
			st, err = parseSelectInto(c, text, i)
			break
		}
		return nil, false, nil
	default:
		return nil, false, nil
	}
	return st, true, err
}

// endOf is the end offset of item n in the source.
func endOf(n *node) int {
	if n.group {
		return n.close.end
	}
	return n.tok.end
}

// query parses items as a query whose text runs from the first item to
// the last; end is the token after them.
func (c *cursor) query(items []*node, end token) (*Select, error) {
	if len(items) == 0 {
		return nil, syntaxErr(c.src, end)
	}
	sub := &cursor{src: c.src, items: items, end: end}
	return sub.rest()
}

// intoAt finds SELECT ... INTO: the index of an INTO among a query's
// top-level items, or -1.
func intoAt(items []*node) int {
	for i, n := range items {
		if n.word("into") {
			return i
		}
	}
	return -1
}

// parseSelectInto parses SELECT ... INTO [TEMPORARY | TEMP | UNLOGGED]
// [TABLE] name ...: the query is the statement without the INTO clause.
func parseSelectInto(c *cursor, text string, at int) (Stmt, error) {
	st := &CreateTableAs{Text: text, Into: true}
	sub := &cursor{src: c.src, items: c.items, i: at + 1, end: c.end}
	switch {
	case sub.word("temporary"), sub.word("temp"):
		st.Temp = true
	case sub.word("local"), sub.word("global"):
		if !sub.word("temporary") && !sub.word("temp") {
			return nil, sub.fail()
		}
		st.Temp = true
	case sub.word("unlogged"):
	}
	sub.word("table")
	var err error
	if st.Schema, st.Name, err = sub.qualName(); err != nil {
		return nil, err
	}
	items := append(append([]*node(nil), c.items[:at]...), c.items[sub.i:]...)
	if intoAt(items) >= 0 {
		return nil, syntaxErr(c.src, items[intoAt(items)].tok)
	}
	if st.Query, err = c.query(items, c.end); err != nil {
		return nil, err
	}
	return st, nil
}

// parseCreateAs parses the rest of CREATE TABLE name after the name, for
// CREATE TABLE ... AS: [(columns)] [WITH (...)] [ON COMMIT ...] AS query
// [WITH [NO] DATA]. It returns ok false when the statement is not one.
func parseCreateAs(c *cursor, text string, name string, temp, ifNotExists bool) (Stmt, bool, error) {
	start := c.i
	var cols []string
	if n := c.peek(); n != nil && n.group {
		if k := c.i + 1; k >= len(c.items) || !c.items[k].word("as") {
			return nil, false, nil
		}
		c.i++
		var err error
		if cols, err = copyColumns(c.sub(n)); err != nil {
			return nil, true, err
		}
	}
	if err := onCommit(c, temp); err != nil {
		return nil, true, err
	}
	if !c.word("as") {
		c.i = start
		return nil, false, nil
	}
	st := &CreateTableAs{Text: text, Name: name, Temp: temp, IfNotExists: ifNotExists, Columns: cols}
	items := c.items[c.i:]
	c.i = len(c.items)
	if k := len(items); k >= 3 && items[k-3].word("with") && items[k-2].word("no") && items[k-1].word("data") {
		st.NoData, items = true, items[:k-3]
	} else if k >= 2 && items[k-2].word("with") && items[k-1].word("data") {
		items = items[:k-2]
	}
	if len(items) > 0 && items[0].word("execute") {
		return nil, true, notSupported(c.src, items[0].tok, "CREATE TABLE ... AS EXECUTE is not supported by gpusql")
	}
	var err error
	if st.Query, err = c.query(items, c.end); err != nil {
		return nil, true, err
	}
	return st, true, nil
}

// onCommit parses ON COMMIT PRESERVE ROWS | DELETE ROWS | DROP of a
// temporary table: without transactions only PRESERVE ROWS (the default)
// means something gpusql does.
func onCommit(c *cursor, temp bool) error {
	n := c.peek()
	if n == nil || !n.word("on") {
		return nil
	}
	if k := c.i + 1; k >= len(c.items) || !c.items[k].word("commit") {
		return nil
	}
	at := n.tok
	c.i += 2
	switch {
	case c.words("preserve", "rows"):
	case c.words("delete", "rows"), c.word("drop"):
		return notSupported(c.src, at, "ON COMMIT DELETE ROWS and ON COMMIT DROP are not supported by gpusql")
	default:
		return c.fail()
	}
	if !temp {
		return errAt(c.src, at, engine.CodeInvalidTableDefinition, "ON COMMIT can only be used on temporary tables")
	}
	return nil
}

// parseInsert parses INSERT INTO table [AS alias] [(columns)]
// {VALUES (...), ... | query | DEFAULT VALUES}; ON CONFLICT and
// RETURNING are refused.
func parseInsert(c *cursor, text string) (Stmt, error) {
	c.word("insert")
	if err := c.expect("into"); err != nil {
		return nil, err
	}
	st := &Insert{Text: text}
	var err error
	if st.Schema, st.Table, err = c.qualName(); err != nil {
		return nil, err
	}
	if c.word("as") {
		if _, err := c.ident(); err != nil {
			return nil, err
		}
	}
	if n := c.peek(); n != nil && n.group && !startsQuery(n.kids) {
		c.i++
		if st.Columns, err = copyColumns(c.sub(n)); err != nil {
			return nil, err
		}
	}
	if n := c.peek(); n != nil && n.word("overriding") {
		return nil, notSupported(c.src, n.tok, "INSERT ... OVERRIDING is not supported by gpusql")
	}
	// The source runs to RETURNING or ON CONFLICT, which gpusql refuses.
	end := len(c.items)
	for k := c.i; k < len(c.items); k++ {
		n := c.items[k]
		if n.word("returning") {
			return nil, notSupported(c.src, n.tok, "INSERT ... RETURNING is not supported by gpusql")
		}
		if n.word("on") && k+1 < len(c.items) && c.items[k+1].word("conflict") {
			return nil, notSupported(c.src, n.tok, "INSERT ... ON CONFLICT is not supported by gpusql")
		}
	}
	items := c.items[c.i:end]
	c.i = end
	switch {
	case len(items) == 2 && items[0].word("default") && items[1].word("values"):
		st.DefaultValues = true
		return st, nil
	case len(items) > 0 && items[0].word("values"):
		st.Query, st.Rows, err = valuesRows(c, items)
		return st, err
	}
	st.Query, err = c.query(items, c.end)
	return st, err
}

// startsQuery reports whether items begin a query (a parenthesised one).
func startsQuery(items []*node) bool {
	return len(items) > 0 && (items[0].word("select") || items[0].word("with") || items[0].word("values") ||
		items[0].word("table") || items[0].group && startsQuery(items[0].kids))
}

// valuesUnion is the items of VALUES (row), ... as one-row SELECTs
// joined by UNION ALL, and the number of rows; named: the first row's
// items are named column1, column2, ..., as PostgreSQL names them.
func valuesUnion(src string, items []*node, end token, named bool) ([]*node, int, error) {
	var out []*node
	width := -1
	rows := 0
	for k := 1; k < len(items); k++ {
		g := items[k]
		if !g.group {
			return nil, 0, syntaxErr(src, g.tok)
		}
		if len(g.kids) == 0 {
			return nil, 0, syntaxErr(src, g.close)
		}
		var row []*node
		n, start := 0, 0
		for i := 0; i <= len(g.kids); i++ {
			if i < len(g.kids) && !g.kids[i].op(",") {
				continue
			}
			if i == start {
				return nil, 0, syntaxErr(src, tokOr(nodeAt(g.kids, i), g.close))
			}
			item := g.kids[start:i]
			if len(item) == 1 && item[0].word("default") {
				item = []*node{{tok: synth(kIdent, "null", item[0].tok)}}
			}
			if n > 0 {
				row = append(row, g.kids[start-1]) // the comma
			}
			row = append(row, item...)
			n++
			if named && rows == 0 {
				row = append(row, &node{tok: synth(kIdent, "as", item[0].tok)},
					&node{tok: synth(kQIdent, fmt.Sprintf("column%d", n), item[0].tok)})
			}
			start = i + 1
		}
		if width >= 0 && n != width {
			return nil, 0, errAt(src, g.tok, engine.CodeSyntaxError, "VALUES lists must all be the same length")
		}
		width = n
		if rows > 0 {
			out = append(out, &node{tok: synth(kIdent, "union", g.tok)}, &node{tok: synth(kIdent, "all", g.tok)})
		}
		out = append(out, &node{tok: synth(kIdent, "select", g.tok)})
		out = append(out, row...)
		rows++
		if k+1 < len(items) {
			if !items[k+1].op(",") {
				return nil, 0, syntaxErr(src, items[k+1].tok)
			}
			k++
			if k+1 == len(items) {
				return nil, 0, syntaxErr(src, end)
			}
		}
	}
	if rows == 0 {
		return nil, 0, syntaxErr(src, end)
	}
	return out, rows, nil
}

// valuesRows parses VALUES (row), ... as one-row SELECTs joined by UNION
// ALL, a DEFAULT item read as NULL. Every row must have as many items as
// the first.
func valuesRows(c *cursor, items []*node) (*Select, int, error) {
	out, rows, err := valuesUnion(c.src, items, c.end, false)
	if err != nil {
		return nil, 0, err
	}
	st, err := parseSelect(c.src, c.src[items[0].tok.pos:endOf(items[len(items)-1])], out, c.end)
	if err != nil {
		return nil, 0, err
	}
	return st.(*Select), rows, nil
}

// parseCreateView parses the rest of CREATE [OR REPLACE] [TEMP] VIEW,
// from the name on.
func parseCreateView(c *cursor, text string, replace, temp bool) (Stmt, error) {
	st := &CreateView{Text: text, Replace: replace, Temp: temp}
	var err error
	if st.Schema, st.Name, err = c.qualName(); err != nil {
		return nil, err
	}
	if n := c.peek(); n != nil && n.group {
		c.i++
		if st.Columns, err = copyColumns(c.sub(n)); err != nil {
			return nil, err
		}
	}
	if n := c.peek(); n != nil && n.word("with") {
		return nil, notSupported(c.src, n.tok, "CREATE VIEW ... WITH (options) is not supported by gpusql")
	}
	if err := c.expect("as"); err != nil {
		return nil, err
	}
	items := c.items[c.i:]
	c.i = len(c.items)
	if k := len(items); k >= 3 && items[k-2].word("check") && items[k-1].word("option") {
		w := k - 3 // WITH [LOCAL | CASCADED] CHECK OPTION
		if !items[w].word("with") && w > 0 {
			w--
		}
		return nil, notSupported(c.src, items[w].tok, "WITH CHECK OPTION is not supported by gpusql")
	}
	if st.Query, err = c.query(items, c.end); err != nil {
		return nil, err
	}
	st.QueryText = c.src[items[0].tok.pos:endOf(items[len(items)-1])]
	return st, nil
}

// parseDropView parses DROP VIEW [IF EXISTS] names [CASCADE | RESTRICT].
func parseDropView(c *cursor, text string) (Stmt, error) {
	st := &DropView{Text: text}
	st.IfExists = c.words("if", "exists")
	for {
		schema, name, err := c.qualName()
		if err != nil {
			return nil, err
		}
		st.Names, st.Schemas = appendName(st.Names, st.Schemas, schema, name)
		if !c.op(",") {
			break
		}
	}
	if c.word("cascade") {
		st.Cascade = true
	} else {
		c.word("restrict")
	}
	return st, c.finish()
}

// parseTruncate parses TRUNCATE [TABLE] [ONLY] name [*] [, ...]
// [RESTART IDENTITY | CONTINUE IDENTITY] [CASCADE | RESTRICT].
func parseTruncate(c *cursor, text string) (Stmt, error) {
	c.word("truncate")
	c.word("table")
	st := &Truncate{Text: text}
	for {
		c.word("only")
		schema, name, err := c.qualName()
		if err != nil {
			return nil, err
		}
		c.op("*")
		st.Names, st.Schemas = appendName(st.Names, st.Schemas, schema, name)
		if !c.op(",") {
			break
		}
	}
	if !c.words("restart", "identity") {
		c.words("continue", "identity")
	}
	if !c.word("cascade") {
		c.word("restrict")
	}
	return st, c.finish()
}

// parseAlter parses ALTER TABLE | VIEW [IF EXISTS] [ONLY] name RENAME
// [COLUMN] ...; other ALTERs are refused.
func parseAlter(c *cursor, text string) (Stmt, error) {
	c.word("alter")
	st := &AlterRename{Text: text}
	switch {
	case c.word("table"):
	case c.word("view"):
		st.View = true
	default:
		return nil, notSupported(c.src, c.items[0].tok, unsupportedKind(c.items)+" is not supported by gpusql")
	}
	st.IfExists = c.words("if", "exists")
	c.word("only")
	var err error
	if st.Schema, st.Table, err = c.qualName(); err != nil {
		return nil, err
	}
	c.op("*")
	if !c.word("rename") {
		n := c.peek()
		if n == nil {
			return nil, c.fail()
		}
		what := "ALTER TABLE"
		if st.View {
			what = "ALTER VIEW"
		}
		return nil, notSupported(c.src, n.tok, what+" ... "+strings.ToUpper(n.tok.text)+" is not supported by gpusql: only RENAME")
	}
	if c.word("to") {
		if st.NewName, err = c.ident(); err != nil {
			return nil, err
		}
		return st, c.finish()
	}
	if n := c.peek(); n != nil && n.word("constraint") {
		return nil, notSupported(c.src, n.tok, "ALTER TABLE ... RENAME CONSTRAINT is not supported by gpusql")
	}
	c.word("column")
	if st.Column, err = c.ident(); err != nil {
		return nil, err
	}
	if err := c.expect("to"); err != nil {
		return nil, err
	}
	if st.NewName, err = c.ident(); err != nil {
		return nil, err
	}
	return st, c.finish()
}

// appendName appends a name of a list and its schema: schemas stays nil
// while every name is unqualified, and is as long as names after.
func appendName(names, schemas []string, schema, name string) ([]string, []string) {
	if schema != "" && schemas == nil {
		schemas = make([]string, len(names))
	}
	if schemas != nil {
		schemas = append(schemas, schema)
	}
	return append(names, name), schemas
}

// SchemaOf is the schema written for names[i] of a list with schemas
// (see appendName): "" when unqualified.
func SchemaOf(schemas []string, i int) string {
	if i < len(schemas) {
		return schemas[i]
	}
	return ""
}
