package parse

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gpusql/gpusql/engine"
)

// parseCopy parses
//
//	COPY table [(columns)] FROM 'path' | STDIN [options]
//	COPY table [(columns)] TO 'path' | STDOUT [options]
//	COPY (query) TO 'path' | STDOUT [options]
//
// with either the option list [WITH] (name value, ...) or the old keyword
// syntax [WITH] [CSV] [HEADER] [DELIMITER [AS] 'c'] ... that psql's \copy
// sends.
func parseCopy(c *cursor, text string) (Stmt, error) {
	c.word("copy")
	st := &Copy{Text: text}
	var err error
	if n := c.peek(); n != nil && n.group {
		c.i++
		if len(n.kids) == 0 {
			return nil, syntaxErr(c.src, n.close)
		}
		inner := c.src[n.kids[0].tok.pos:n.close.pos]
		q, err := parseSelect(c.src, inner, n.kids, n.close)
		if err != nil {
			return nil, err
		}
		st.Query = q.(*Select)
		if !c.word("to") {
			if n := c.peek(); n != nil && n.word("from") {
				return nil, syntaxErr(c.src, n.tok)
			}
			return nil, c.fail()
		}
		st.To = true
	} else {
		if st.Schema, st.Table, err = c.qualName(); err != nil {
			return nil, err
		}
		if n := c.peek(); n != nil && n.group {
			c.i++
			if st.Columns, err = copyColumns(c.sub(n)); err != nil {
				return nil, err
			}
		}
		switch {
		case c.word("to"):
			st.To = true
		case c.word("from"):
		default:
			return nil, c.fail()
		}
	}
	switch {
	case c.word("stdin"), c.word("stdout"):
		// PostgreSQL takes either word in either direction.
		st.Stdin, st.Stdout = !st.To, st.To
	case c.word("program"):
		what := "COPY FROM PROGRAM"
		if st.To {
			what = "COPY TO PROGRAM"
		}
		return nil, notSupported(c.src, c.items[c.i-1].tok, what+" is not supported by gpusql")
	default:
		var ok bool
		if st.Path, ok = c.stringLit(); !ok {
			return nil, c.fail()
		}
	}
	var raw []copyOpt
	with := c.word("with")
	if n := c.peek(); n != nil && n.group {
		c.i++
		if raw, err = genericOptions(c.sub(n)); err != nil {
			return nil, err
		}
	} else if raw, err = oldOptions(c); err != nil {
		return nil, err
	} else if with && len(raw) == 0 {
		return nil, c.fail()
	}
	if c.word("where") {
		if st.To {
			return nil, syntaxErr(c.src, c.items[c.i-1].tok)
		}
		return nil, notSupported(c.src, c.items[c.i-1].tok, "COPY FROM ... WHERE is not supported by gpusql")
	}
	if err := c.finish(); err != nil {
		return nil, err
	}
	var out copyChoices
	out, err = copyOptions(c.src, raw, !st.To, engine.FormatText)
	st.Options, st.Format, st.ForceQuote, st.ForceQuoteAll = out.opts, out.format, out.forceQuote, out.forceQuoteAll
	st.Parquet = out.parquet
	return st, err
}

// copyColumns parses COPY's column list.
func copyColumns(c *cursor) ([]string, error) {
	var cols []string
	seen := map[string]bool{}
	for {
		at := c.tok()
		name, err := c.ident()
		if err != nil {
			return nil, err
		}
		if seen[name] {
			return nil, &engine.Error{Code: engine.CodeDuplicateColumn, Position: position(c.src, at.pos),
				Message: `column "` + name + `" specified more than once`}
		}
		seen[name] = true
		cols = append(cols, name)
		if c.done() {
			return cols, nil
		}
		if !c.op(",") {
			return nil, c.fail()
		}
	}
}

// copyOpt is one option as written: name and an optional value.
type copyOpt struct {
	name   string
	tok    token // the option's name, for error positions
	hasVal bool
	val    string   // the value's text: a string's contents, a folded word, a number
	num    bool     // the value was a number
	list   []string // a parenthesised list of names (val is "*" then)
	star   bool     // the value was *
}

// genericOptions parses the items of a (name value, ...) option list.
func genericOptions(c *cursor) ([]copyOpt, error) {
	var opts []copyOpt
	for {
		n := c.next()
		if n == nil || n.group || (n.tok.kind != kIdent && n.tok.kind != kQIdent) {
			return nil, syntaxErr(c.src, tokOr(n, c.end))
		}
		o := copyOpt{name: n.tok.text, tok: n.tok}
		if v := c.peek(); v != nil && !v.op(",") {
			var err error
			if o, err = optionValue(c, o); err != nil {
				return nil, err
			}
		}
		opts = append(opts, o)
		if c.done() {
			return opts, nil
		}
		if !c.op(",") {
			return nil, c.fail()
		}
	}
}

// optionValue reads an option's value: a string, word, signed number, "*"
// or a parenthesised list (the last two only for options gpusql refuses).
func optionValue(c *cursor, o copyOpt) (copyOpt, error) {
	v := c.next()
	o.hasVal = true
	switch {
	case v.op("*"):
		o.val, o.star = "*", true
	case v.group:
		o.val = "*"
		if len(v.kids) > 0 {
			list, err := copyColumns(c.sub(v))
			if err != nil {
				return o, err
			}
			o.list = list
		}
	case v.tok.kind == kString || v.tok.kind == kIdent || v.tok.kind == kQIdent:
		o.val = v.tok.text
	case v.tok.kind == kNumber:
		o.val, o.num = v.tok.text, true
	case v.op("-") || v.op("+"):
		num := c.next()
		if num == nil || num.group || num.tok.kind != kNumber {
			return o, syntaxErr(c.src, tokOr(num, c.end))
		}
		o.val, o.num = v.tok.text+num.tok.text, true
	default:
		return o, syntaxErr(c.src, v.tok)
	}
	return o, nil
}

func tokOr(n *node, t token) token {
	if n == nil {
		return t
	}
	return n.tok
}

// oldOptions parses PostgreSQL's pre-9.0 COPY options: BINARY, CSV,
// HEADER, DELIMITER [AS] 'c', NULL [AS] 's', QUOTE [AS] 'c', ESCAPE [AS]
// 'c', ENCODING 'e', FORCE ... (until WHERE or the end).
func oldOptions(c *cursor) ([]copyOpt, error) {
	var opts []copyOpt
	for n := c.peek(); n != nil && !n.word("where"); n = c.peek() {
		if n.group || n.tok.kind != kIdent {
			return nil, c.fail()
		}
		c.i++
		o := copyOpt{name: n.tok.text, tok: n.tok}
		switch n.tok.text {
		case "binary":
			o = copyOpt{name: "format", tok: n.tok, hasVal: true, val: "binary"}
		case "csv":
			o = copyOpt{name: "format", tok: n.tok, hasVal: true, val: "csv"}
		case "header", "freeze", "oids":
		case "delimiter", "null", "quote", "escape", "encoding":
			c.word("as")
			s, ok := c.stringLit()
			if !ok {
				return nil, c.fail()
			}
			o.hasVal, o.val = true, s
		case "force":
			if !c.word("quote") {
				return nil, notSupported(c.src, n.tok, "COPY FORCE options are not supported by gpusql")
			}
			o = copyOpt{name: "force_quote", tok: n.tok, hasVal: true, val: "*"}
			if c.op("*") {
				o.star = true
				break
			}
			for {
				name, err := c.ident()
				if err != nil {
					return nil, err
				}
				o.list = append(o.list, name)
				if !c.op(",") {
					break
				}
			}
		default:
			return nil, syntaxErr(c.src, n.tok)
		}
		opts = append(opts, o)
	}
	return opts, nil
}

// optionList parses and checks a (name value, ...) list, as used by
// CREATE TABLE ... FROM CSV (whose default format is csv).
func optionList(c *cursor, from bool) (engine.CSVOptions, string, map[string]bool, error) {
	raw, err := genericOptions(c)
	if err != nil {
		return engine.CSVOptions{}, "", nil, err
	}
	out, err := copyOptions(c.src, raw, from, engine.FormatCSV)
	return out.opts, out.format, out.given, err
}

// copyChoices are the checked options of one COPY.
type copyChoices struct {
	opts          engine.CSVOptions
	format        string // "csv", "text" or "binary"
	forceQuote    []string
	forceQuoteAll bool
	given         map[string]bool // the options written, by lower-case name
	parquet       ParquetWrite
}

// copyOptions checks COPY options once, as PostgreSQL's
// ProcessCopyOptions does, in its order. dflt is the format without a
// FORMAT option: text for COPY (PostgreSQL's default), csv for CREATE
// TABLE ... FROM CSV.
func copyOptions(src string, raw []copyOpt, from bool, dflt engine.CopyFormat) (copyChoices, error) {
	var out copyChoices
	opts := engine.DefaultCSVOptions()
	opts.Format = dflt
	seen := map[string]bool{}
	out.given = seen
	var delim, quote, escape, null *string
	forceSet := false
	for _, o := range raw {
		errAt := func(code, msg string) *engine.Error {
			return &engine.Error{Code: code, Message: msg, Position: position(src, o.tok.pos)}
		}
		if seen[o.name] {
			return out, errAt(engine.CodeSyntaxError, "conflicting or redundant options")
		}
		seen[o.name] = true
		needVal := func() error {
			if !o.hasVal {
				return errAt(engine.CodeSyntaxError, o.name+" requires a parameter")
			}
			return nil
		}
		switch o.name {
		case "format":
			if err := needVal(); err != nil {
				return out, err
			}
			switch f := strings.ToLower(o.val); f {
			case "csv":
				opts.Format = engine.FormatCSV
			case "text":
				opts.Format = engine.FormatText
			case "binary":
				opts.Format = engine.FormatBinary
			case "parquet":
				opts.Format = engine.FormatParquet
			default:
				return out, errAt(engine.CodeInvalidParameterValue, `COPY format "`+o.val+`" not recognized`)
			}
		case "header":
			h, err := headerChoice(o, from)
			if err != nil {
				return out, errAt(err.Code, err.Message)
			}
			opts.Header = h
		case "delimiter", "quote", "escape", "null":
			if err := needVal(); err != nil {
				return out, err
			}
			v := o.val
			switch o.name {
			case "delimiter":
				delim = &v
			case "quote":
				quote = &v
			case "escape":
				escape = &v
			case "null":
				null = &v
			}
		case "force_quote":
			if o.star {
				out.forceQuoteAll = true
			} else if o.list != nil {
				out.forceQuote = o.list
			} else {
				return out, errAt(engine.CodeInvalidParameterValue, `argument to option "force_quote" must be a list of column names`)
			}
			forceSet = true
		case "on_error":
			if err := needVal(); err != nil {
				return out, err
			}
			switch strings.ToLower(o.val) {
			case "stop":
				opts.OnError = engine.OnErrorStop
			case "ignore":
				opts.OnError = engine.OnErrorIgnore
			default:
				return out, errAt(engine.CodeInvalidParameterValue, `COPY ON_ERROR "`+o.val+`" not recognized`)
			}
		case "encoding":
			if err := needVal(); err != nil {
				return out, err
			}
			if err := checkEncoding(o.val); err != nil {
				return out, errAt(err.Code, err.Message)
			}
		case "row_group_size":
			if err := needVal(); err != nil {
				return out, err
			}
			n, err := strconv.ParseInt(o.val, 10, 64)
			if err != nil || n <= 0 || n > maxRowGroupSize {
				return out, errAt(engine.CodeInvalidParameterValue, fmt.Sprintf("row_group_size must be an integer from 1 to %d", maxRowGroupSize))
			}
			out.parquet.RowGroupSize = n
		case "compression":
			if err := needVal(); err != nil {
				return out, err
			}
			switch c := strings.ToLower(o.val); c {
			case "snappy", "zstd", "gzip", "uncompressed":
				out.parquet.Compression = c
			default:
				return out, errAt(engine.CodeInvalidParameterValue, `COPY compression "`+o.val+`" not recognized`)
			}
		case "freeze", "force_not_null", "force_null", "default", "log_verbosity",
			"reject_limit", "convert_selectively", "oids":
			return out, errAt(engine.CodeFeatureNotSupported, `COPY option "`+o.name+`" is not supported by gpusql`)
		default:
			return out, errAt(engine.CodeSyntaxError, `option "`+o.name+`" not recognized`)
		}
	}
	csv := opts.Format == engine.FormatCSV
	invalid := func(msg string) *engine.Error { return engine.Errorf(engine.CodeInvalidParameterValue, "%s", msg) }
	unsupported := func(msg string) *engine.Error { return engine.Errorf(engine.CodeFeatureNotSupported, "%s", msg) }
	if opts.Format == engine.FormatParquet {
		// A Parquet file says its own structure: only ON_ERROR stop (the
		// default) makes sense, and only for reading; writing takes the
		// row group size and the codec (DuckDB's names for them).
		for _, o := range raw {
			switch {
			case o.name == "format", o.name == "on_error" && opts.OnError == engine.OnErrorStop:
			case (o.name == "row_group_size" || o.name == "compression") && !from:
			case o.name == "row_group_size" || o.name == "compression":
				return out, unsupported(`COPY option "` + o.name + `" is only available using COPY TO`)
			default:
				return out, unsupported(`COPY option "` + o.name + `" is not available with FORMAT parquet`)
			}
		}
		out.opts, out.format = opts, "parquet"
		return out, nil
	}
	for _, name := range []string{"row_group_size", "compression"} {
		if seen[name] {
			return out, unsupported(`COPY option "` + name + `" is only available with FORMAT parquet`)
		}
	}
	if opts.Format == engine.FormatBinary {
		// PostgreSQL checks these two before filling in defaults.
		syntax := func(msg string) *engine.Error { return engine.Errorf(engine.CodeSyntaxError, "%s", msg) }
		switch {
		case delim != nil:
			return out, syntax("cannot specify DELIMITER in BINARY mode")
		case null != nil:
			return out, syntax("cannot specify NULL in BINARY mode")
		case seen["header"]:
			return out, unsupported("cannot specify HEADER in BINARY mode")
		case quote != nil:
			return out, unsupported("COPY quote available only in CSV mode")
		case escape != nil:
			return out, unsupported("COPY escape available only in CSV mode")
		case forceSet:
			return out, unsupported("COPY force quote available only in CSV mode")
		case opts.OnError == engine.OnErrorIgnore:
			return out, unsupported("only ON_ERROR STOP is allowed in BINARY mode")
		}
	}
	d := ","
	if !csv {
		d = "\t"
		opts.Null = `\N`
	}
	if delim != nil {
		d = *delim
	}
	if null != nil {
		opts.Null = *null
	}
	if len(d) != 1 {
		return out, unsupported("COPY delimiter must be a single one-byte character")
	}
	opts.Delimiter = d[0]
	if opts.Delimiter == '\n' || opts.Delimiter == '\r' {
		return out, invalid("COPY delimiter cannot be newline or carriage return")
	}
	if strings.ContainsAny(opts.Null, "\r\n") {
		return out, invalid("COPY null representation cannot use newline or carriage return")
	}
	if !csv && strings.IndexByte("\\.abcdefghijklmnopqrstuvwxyz0123456789", opts.Delimiter) >= 0 {
		return out, invalid(`COPY delimiter cannot be "` + d + `"`)
	}
	if !csv && quote != nil {
		return out, unsupported("COPY quote available only in CSV mode")
	}
	if quote != nil {
		if len(*quote) != 1 {
			return out, unsupported("COPY quote must be a single one-byte character")
		}
		opts.Quote = (*quote)[0]
	}
	if csv && opts.Delimiter == opts.Quote {
		return out, invalid("COPY delimiter and quote must be different")
	}
	if !csv && escape != nil {
		return out, unsupported("COPY escape available only in CSV mode")
	}
	opts.Escape = opts.Quote
	if escape != nil {
		if len(*escape) != 1 {
			return out, unsupported("COPY escape must be a single one-byte character")
		}
		opts.Escape = (*escape)[0]
	}
	if forceSet && !csv {
		return out, unsupported("COPY force quote available only in CSV mode")
	}
	if forceSet && from {
		return out, unsupported("COPY force quote only available using COPY TO")
	}
	if seen["on_error"] && !from {
		return out, unsupported("COPY ON_ERROR cannot be used with COPY TO")
	}
	if strings.IndexByte(opts.Null, opts.Delimiter) >= 0 {
		return out, invalid("COPY delimiter must not appear in the NULL specification")
	}
	if csv && strings.IndexByte(opts.Null, opts.Quote) >= 0 {
		return out, invalid("CSV quote character must not appear in the NULL specification")
	}
	out.opts = opts
	switch opts.Format {
	case engine.FormatCSV:
		out.format = "csv"
	case engine.FormatText:
		out.format = "text"
	default:
		out.format = "binary"
	}
	return out, nil
}

// headerChoice reads HEADER's value as PostgreSQL does: none (true), 0 or
// 1, true/false/on/off, or match (COPY FROM only).
func headerChoice(o copyOpt, from bool) (engine.HeaderMode, *engine.Error) {
	if !o.hasVal {
		return engine.HeaderSkip, nil
	}
	if o.num {
		switch o.val {
		case "0":
			return engine.HeaderNone, nil
		case "1":
			return engine.HeaderSkip, nil
		}
	} else {
		switch strings.ToLower(o.val) {
		case "true", "on":
			return engine.HeaderSkip, nil
		case "false", "off":
			return engine.HeaderNone, nil
		case "match":
			if !from {
				return 0, engine.Errorf(engine.CodeFeatureNotSupported, `cannot use "%s" with HEADER in COPY TO`, o.val)
			}
			return engine.HeaderMatch, nil
		}
	}
	return 0, engine.Errorf(engine.CodeInvalidParameterValue, `%s requires a Boolean value or "match"`, o.name)
}

// checkEncoding accepts UTF8 under its PostgreSQL spellings.
func checkEncoding(name string) *engine.Error {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	switch n := b.String(); {
	case n == "utf8" || n == "unicode":
		return nil
	case n == "sqlascii" || strings.HasPrefix(n, "latin") || strings.HasPrefix(n, "win") ||
		strings.HasPrefix(n, "iso8859") || strings.HasPrefix(n, "euc") || strings.HasPrefix(n, "koi8") ||
		n == "sjis" || n == "big5" || n == "gbk" || n == "uhc" || n == "gb18030" || n == "johab" ||
		n == "shiftjis2004" || n == "mulecinternal" || n == "alt":
		return engine.Errorf(engine.CodeFeatureNotSupported, "COPY encoding %q is not supported by gpusql: only UTF8 is", name)
	}
	return engine.Errorf(engine.CodeInvalidParameterValue, `argument to option "encoding" must be a valid encoding name`)
}

// ReadCSVOptions checks the named arguments of read_csv(path, name =>
// value, ...) as the options of CREATE TABLE ... FROM CSV: names are
// lower-case option names, vals their values as text. It returns the
// options and the names given.
func ReadCSVOptions(names, vals []string) (engine.CSVOptions, map[string]bool, error) {
	raw := make([]copyOpt, len(names))
	for i := range names {
		raw[i] = copyOpt{name: names[i], hasVal: true, val: vals[i]}
	}
	out, err := copyOptions("", raw, true, engine.FormatCSV)
	if err != nil {
		return out.opts, nil, err
	}
	if out.opts.Format != engine.FormatCSV {
		return out.opts, nil, engine.Errorf(engine.CodeFeatureNotSupported, "read_csv reads FORMAT csv only")
	}
	return out.opts, out.given, nil
}
