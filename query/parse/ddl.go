package parse

import (
	"strings"

	"github.com/gpusql/gpusql/engine"
)

// parseCreate parses CREATE TABLE [IF NOT EXISTS] name (columns)
// [FROM CSV 'path' [WITH] [(options)]].
//
// CREATE [OR REPLACE] [TEMP] VIEW and CREATE [TEMP] TABLE ... AS are
// parsed in write.go.
func parseCreate(c *cursor, text string) (Stmt, error) {
	c.word("create")
	replace := c.words("or", "replace")
	temp := false
	switch {
	case c.word("temporary"), c.word("temp"):
		temp = true
	case c.word("local"), c.word("global"):
		if !c.word("temporary") && !c.word("temp") {
			return nil, c.fail()
		}
		temp = true
	case !replace && c.word("unlogged"):
		// gpusql writes no WAL: every table is as an unlogged one
	}
	if c.word("view") {
		return parseCreateView(c, text, replace, temp)
	}
	if replace || !c.word("table") {
		return nil, notSupported(c.src, c.items[0].tok, unsupportedKind(c.items)+" is not supported by gpusql")
	}
	st := &CreateTable{Text: text, Temp: temp}
	if c.words("if", "not", "exists") {
		st.IfNotExists = true
	}
	var err error
	if st.Schema, st.Name, err = c.qualName(); err != nil {
		return nil, err
	}
	if as, ok, err := parseCreateAs(c, text, st.Name, temp, st.IfNotExists); ok {
		if as, ok := as.(*CreateTableAs); ok {
			as.Schema = st.Schema
		}
		return as, err
	}
	if c.word("of") || c.word("partition") {
		return nil, notSupported(c.src, c.items[c.i-1].tok, "CREATE TABLE "+strings.ToUpper(c.items[c.i-1].tok.text)+" is not supported by gpusql")
	}
	// CREATE TABLE t FROM CSV | PARQUET 'path' without a column list
	// takes its columns from the file.
	if n := c.peek(); n == nil || !n.word("from") {
		g, err := c.group()
		if err != nil {
			return nil, err
		}
		if st.Columns, err = columnDefs(c.sub(g), st.Name); err != nil {
			return nil, err
		}
		if err := onCommit(c, temp); err != nil {
			return nil, err
		}
	}
	if c.word("from") {
		format := "csv"
		switch {
		case c.word("csv"):
		case c.word("parquet"):
			format = "parquet"
		default:
			return nil, c.fail()
		}
		src := &CSVSource{Format: format}
		var ok bool
		if src.Path, ok = c.stringLit(); !ok {
			return nil, c.fail()
		}
		with := c.word("with")
		opts := engine.DefaultCSVOptions()
		if n := c.peek(); n != nil && n.group {
			c.i++
			if format == "parquet" {
				return nil, notSupported(c.src, n.tok, "CREATE TABLE ... FROM PARQUET takes no options")
			}
			if opts, format, src.Given, err = optionList(c.sub(n), true); err != nil {
				return nil, err
			}
		} else if with {
			return nil, c.fail()
		}
		if format == "parquet" {
			opts.Format = engine.FormatParquet
		}
		src.Options, src.Format = opts, format
		st.CSV = src
	} else if c.word("with") || c.word("inherits") || c.word("partition") || c.word("using") || c.word("tablespace") {
		at := c.items[c.i-1].tok
		return nil, notSupported(c.src, at, "CREATE TABLE ... "+strings.ToUpper(at.text)+" is not supported by gpusql")
	}
	return st, c.finish()
}

// columnDefs parses the column list of CREATE TABLE.
func columnDefs(c *cursor, table string) ([]engine.ColumnDef, error) {
	var cols []engine.ColumnDef
	for !c.done() {
		if n := c.peek(); n.tok.kind == kIdent {
			switch n.tok.text {
			case "constraint", "primary", "unique", "check", "foreign", "exclude", "like":
				return nil, notSupported(c.src, n.tok, "table constraints are not supported by gpusql")
			}
		}
		col, err := columnDef(c, table)
		if err != nil {
			return nil, err
		}
		cols = append(cols, col)
		if c.done() {
			break
		}
		if !c.op(",") {
			return nil, c.fail()
		}
		if c.done() {
			return nil, c.fail()
		}
	}
	return cols, nil
}

// columnDef parses name type [NOT NULL | NULL]...
func columnDef(c *cursor, table string) (engine.ColumnDef, error) {
	var col engine.ColumnDef
	var err error
	if col.Name, err = c.ident(); err != nil {
		return col, err
	}
	end, ok := typeSpan(c.items, c.i, false)
	if !ok {
		return col, c.fail()
	}
	if col.Type, err = typeOf(c.src, c.items[c.i:end]); err != nil {
		return col, err
	}
	c.i = end
	seenNull := false
	for n := c.peek(); n != nil && !n.op(","); n = c.peek() {
		at := n.tok
		notNull := false
		switch {
		case c.words("not", "null"):
			notNull = true
		case c.word("null"):
		case n.tok.kind == kIdent && constraintWord(n.tok.text):
			what := strings.ToUpper(at.text)
			if what == "PRIMARY" {
				what = "PRIMARY KEY"
			}
			return col, notSupported(c.src, at, "column constraint "+what+" is not supported by gpusql")
		default:
			return col, c.fail()
		}
		if seenNull && notNull != col.NotNull {
			return col, &engine.Error{Code: engine.CodeSyntaxError, Position: position(c.src, at.pos),
				Message: `conflicting NULL/NOT NULL declarations for column "` + col.Name + `" of table "` + table + `"`}
		}
		seenNull, col.NotNull = true, notNull
	}
	return col, nil
}

func constraintWord(w string) bool {
	switch w {
	case "constraint", "primary", "unique", "check", "default", "references", "collate", "generated",
		"deferrable", "initially", "compression", "storage":
		return true
	}
	return false
}

// parseDrop parses DROP TABLE [IF EXISTS] name [, ...] [CASCADE | RESTRICT].
func parseDrop(c *cursor, text string) (Stmt, error) {
	c.word("drop")
	if c.word("view") {
		return parseDropView(c, text)
	}
	if !c.word("table") {
		return nil, notSupported(c.src, c.items[0].tok, unsupportedKind(c.items)+" is not supported by gpusql")
	}
	st := &DropTable{Text: text}
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
