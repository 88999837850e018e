package parse

import (
	"strconv"
	"strings"

	"github.com/gpusql/gpusql/engine"
	"github.com/pingcap/tidb/pkg/parser/ast"
)

// Prepared statements, cursors and EXPLAIN: statements about other
// statements.

// Discard is DISCARD ALL | PLANS | SEQUENCES | TEMP. What is upper case.
type Discard struct{ Text, What string }

// Deallocate is DEALLOCATE [PREPARE] name | ALL.
type Deallocate struct {
	Text, Name string
	All        bool
}

// Prepare is PREPARE name [(types)] AS query.
type Prepare struct {
	Text, Name string
	Types      []engine.Type
	Query      *Select
}

// Execute is EXECUTE name [(args)]. Args are the argument expressions,
// parsed as a select list.
type Execute struct {
	Text, Name string
	Args       []ast.ExprNode
}

// Declare is DECLARE name [BINARY] [ASENSITIVE | INSENSITIVE] [[NO]
// SCROLL] CURSOR [WITH | WITHOUT HOLD] FOR query.
type Declare struct {
	Text, Name     string
	Binary, Scroll bool
	NoScroll       bool // NO SCROLL was written: backward fetches are refused
	Hold           bool
	Query          *Select
}

// Fetch is FETCH or MOVE [direction] [FROM | IN] cursor. Dir is
// "forward" or "backward" (Count rows, -1 for ALL), "absolute" (row
// Count, from the end when negative: FIRST is 1, LAST -1) or "relative"
// (Count rows away, 0 the current row).
type Fetch struct {
	Text, Cursor string
	Move         bool
	Dir          string
	Count        int64
}

// CloseCursor is CLOSE name | ALL.
type CloseCursor struct {
	Text, Name string
	All        bool
}

// Explain is EXPLAIN [ANALYZE] [VERBOSE] query, or EXPLAIN (options) query.
type Explain struct {
	Text             string
	Analyze, Verbose bool
	Query            *Select
}

func (s *Discard) SQL() string     { return s.Text }
func (s *Deallocate) SQL() string  { return s.Text }
func (s *Prepare) SQL() string     { return s.Text }
func (s *Execute) SQL() string     { return s.Text }
func (s *Declare) SQL() string     { return s.Text }
func (s *Fetch) SQL() string       { return s.Text }
func (s *CloseCursor) SQL() string { return s.Text }
func (s *Explain) SQL() string     { return s.Text }

// parseSession2 parses the statements of this file; first is their first
// keyword. ok is false when first starts none of them.
func parseSession2(c *cursor, text, first string) (st Stmt, ok bool, err error) {
	switch first {
	case "discard":
		st, err = parseDiscard(c, text)
	case "deallocate":
		st, err = parseDeallocate(c, text)
	case "prepare":
		st, err = parsePrepare(c, text)
	case "execute":
		st, err = parseExecute(c, text)
	case "declare":
		st, err = parseDeclare(c, text)
	case "fetch", "move":
		st, err = parseFetch(c, text)
	case "close":
		st, err = parseClose(c, text)
	case "explain":
		st, err = parseExplain(c, text)
	case "lock":
		st, err = parseLock(c, text)
	default:
		return nil, false, nil
	}
	return st, true, err
}

// Lock is LOCK [TABLE] [ONLY] name [*] [, ...] [IN mode MODE] [NOWAIT].
// Schemas and Names are the relations, as written.
type Lock struct {
	Text           string
	Schemas, Names []string
}

func (s *Lock) SQL() string { return s.Text }

// lockModes are the table lock modes, as words.
var lockModes = [][]string{{"access", "share"}, {"row", "share"}, {"row", "exclusive"},
	{"share", "update", "exclusive"}, {"share", "row", "exclusive"}, {"share"}, {"exclusive"}, {"access", "exclusive"}}

func parseLock(c *cursor, text string) (Stmt, error) {
	c.word("lock")
	c.word("table")
	st := &Lock{Text: text}
	for {
		c.word("only")
		schema, name, err := c.qualName()
		if err != nil {
			return nil, err
		}
		c.op("*")
		st.Schemas, st.Names = append(st.Schemas, schema), append(st.Names, name)
		if !c.op(",") {
			break
		}
	}
	if c.word("in") {
		matched := false
		for _, m := range lockModes {
			save := c.i
			ok := true
			for _, w := range m {
				if !c.word(w) {
					ok = false
					break
				}
			}
			if ok && c.word("mode") {
				matched = true
				break
			}
			c.i = save
		}
		if !matched {
			return nil, c.fail()
		}
	}
	c.word("nowait")
	return st, c.finish()
}

func parseDiscard(c *cursor, text string) (Stmt, error) {
	c.word("discard")
	for _, w := range []string{"all", "plans", "sequences", "temp", "temporary"} {
		if c.word(w) {
			if w == "temporary" {
				w = "temp"
			}
			return &Discard{Text: text, What: strings.ToUpper(w)}, c.finish()
		}
	}
	return nil, c.fail()
}

func parseDeallocate(c *cursor, text string) (Stmt, error) {
	c.word("deallocate")
	c.word("prepare")
	if c.word("all") {
		return &Deallocate{Text: text, All: true}, c.finish()
	}
	name, err := c.ident()
	if err != nil {
		return nil, err
	}
	return &Deallocate{Text: text, Name: name}, c.finish()
}

// rest parses the remaining items as a query (SELECT, WITH, TABLE or a
// parenthesised one).
func (c *cursor) rest() (*Select, error) {
	if c.done() {
		return nil, c.fail()
	}
	n := c.peek()
	if !n.group && !n.word("select") && !n.word("with") && !n.word("table") {
		if n.word("values") || n.word("insert") || n.word("update") || n.word("delete") {
			return nil, notSupported(c.src, n.tok, strings.ToUpper(n.tok.text)+" is not supported by gpusql")
		}
		return nil, c.fail()
	}
	items := c.items[c.i:]
	c.i = len(c.items)
	last := items[len(items)-1]
	stop := last.tok.end
	if last.group {
		stop = last.close.end
	}
	st, err := parseSelect(c.src, c.src[items[0].tok.pos:stop], items, c.end)
	if err != nil {
		return nil, err
	}
	return st.(*Select), nil
}

func parsePrepare(c *cursor, text string) (Stmt, error) {
	c.word("prepare")
	if n := c.peek(); n != nil && n.word("transaction") {
		return nil, notSupported(c.src, n.tok, "PREPARE TRANSACTION is not supported by gpusql")
	}
	name, err := c.ident()
	if err != nil {
		return nil, err
	}
	p := &Prepare{Text: text, Name: name}
	if n := c.peek(); n != nil && n.group {
		c.i++
		start := 0
		kids := n.kids
		for i := 0; i <= len(kids); i++ {
			if i < len(kids) && !kids[i].op(",") {
				continue
			}
			if i == start {
				return nil, syntaxErr(c.src, tokOr(nodeAt(kids, i), n.close))
			}
			t, err := typeOf(c.src, kids[start:i])
			if err != nil {
				return nil, err
			}
			p.Types = append(p.Types, t)
			start = i + 1
		}
	}
	if err := c.expect("as"); err != nil {
		return nil, err
	}
	if p.Query, err = c.rest(); err != nil {
		return nil, err
	}
	return p, nil
}

func nodeAt(items []*node, i int) *node {
	if i < len(items) {
		return items[i]
	}
	return nil
}

func parseExecute(c *cursor, text string) (Stmt, error) {
	c.word("execute")
	name, err := c.ident()
	if err != nil {
		return nil, err
	}
	e := &Execute{Text: text, Name: name}
	if n := c.peek(); n != nil && n.group {
		c.i++
		if len(n.kids) == 0 {
			return nil, syntaxErr(c.src, n.close)
		}
		items := append([]*node{{tok: synth(kIdent, "select", n.tok)}}, n.kids...)
		st, err := parseSelect(c.src, text, items, n.close)
		if err != nil {
			return nil, err
		}
		sel, ok := st.(*Select).AST.(*ast.SelectStmt)
		if !ok || sel.From != nil || sel.Where != nil {
			return nil, syntaxErr(c.src, n.tok)
		}
		for _, f := range sel.Fields.Fields {
			if f.WildCard != nil || f.AsName.O != "" {
				return nil, syntaxErr(c.src, n.tok)
			}
			e.Args = append(e.Args, f.Expr)
		}
	}
	return e, c.finish()
}

func parseDeclare(c *cursor, text string) (Stmt, error) {
	c.word("declare")
	name, err := c.ident()
	if err != nil {
		return nil, err
	}
	d := &Declare{Text: text, Name: name}
	for {
		switch {
		case c.word("binary"):
			d.Binary = true
			continue
		case c.word("insensitive"), c.word("asensitive"):
			continue
		case c.words("no", "scroll"):
			d.NoScroll = true
			continue
		case c.word("scroll"):
			d.Scroll = true
			continue
		}
		break
	}
	if err := c.expect("cursor"); err != nil {
		return nil, err
	}
	switch {
	case c.words("with", "hold"):
		d.Hold = true
	case c.words("without", "hold"):
	}
	if err := c.expect("for"); err != nil {
		return nil, err
	}
	if d.Query, err = c.rest(); err != nil {
		return nil, err
	}
	return d, nil
}

func parseFetch(c *cursor, text string) (Stmt, error) {
	first := c.next().tok
	f := &Fetch{Text: text, Move: first.text == "move", Dir: "forward", Count: 1}
	// count reads an optional signed integer.
	count := func() (int64, bool, error) {
		n := c.peek()
		if n == nil || n.group {
			return 0, false, nil
		}
		neg := false
		if n.op("-") || n.op("+") {
			neg = n.op("-")
			c.i++
			n = c.peek()
			if n == nil || n.group || n.tok.kind != kNumber {
				return 0, false, c.fail()
			}
		}
		if n.tok.kind != kNumber {
			return 0, false, nil
		}
		v, err := strconv.ParseInt(n.tok.text, 10, 64)
		if err != nil {
			return 0, false, syntaxErr(c.src, n.tok)
		}
		c.i++
		if neg {
			v = -v
		}
		return v, true, nil
	}
	// required reads the count that ABSOLUTE and RELATIVE need.
	required := func() (int64, error) {
		v, ok, err := count()
		if err == nil && !ok {
			err = c.fail()
		}
		return v, err
	}
	n := c.peek()
	var err error
	switch {
	case n == nil:
	case n.word("next"):
		c.i++
	case n.word("prior"):
		c.i++
		f.Dir = "backward"
	case n.word("first"):
		c.i++
		f.Dir = "absolute"
	case n.word("last"):
		c.i++
		f.Dir, f.Count = "absolute", -1
	case n.word("absolute"):
		c.i++
		f.Dir = "absolute"
		f.Count, err = required()
	case n.word("relative"):
		c.i++
		f.Dir = "relative"
		f.Count, err = required()
	case n.word("all"):
		c.i++
		f.Count = -1
	case n.word("forward"), n.word("backward"):
		c.i++
		f.Dir = n.tok.text
		if c.word("all") {
			f.Count = -1
		} else if v, ok, cerr := count(); cerr != nil {
			err = cerr
		} else if ok {
			if v < 0 {
				return nil, syntaxErr(c.src, n.tok)
			}
			f.Count = v
		}
	default:
		if v, ok, cerr := count(); cerr != nil {
			err = cerr
		} else if ok {
			f.Count = v
			if v < 0 {
				f.Dir, f.Count = "backward", -v
			}
		}
	}
	if err != nil {
		return nil, err
	}
	if !c.word("from") {
		c.word("in")
	}
	name, err := c.ident()
	if err != nil {
		return nil, err
	}
	f.Cursor = name
	return f, c.finish()
}

func parseClose(c *cursor, text string) (Stmt, error) {
	c.word("close")
	if c.word("all") {
		return &CloseCursor{Text: text, All: true}, c.finish()
	}
	name, err := c.ident()
	if err != nil {
		return nil, err
	}
	return &CloseCursor{Text: text, Name: name}, c.finish()
}

func parseExplain(c *cursor, text string) (Stmt, error) {
	c.word("explain")
	e := &Explain{Text: text}
	if n := c.peek(); n != nil && n.group {
		// EXPLAIN (option [value], ...): ANALYZE and VERBOSE count; the
		// others (COSTS, BUFFERS, TIMING, SUMMARY, FORMAT TEXT) are read
		// and ignored.
		c.i++
		sub := c.sub(n)
		for !sub.done() {
			o := sub.next()
			if o.group || o.tok.kind != kIdent {
				return nil, syntaxErr(c.src, o.tok)
			}
			on := true
			if v := sub.peek(); v != nil && !v.op(",") {
				sub.i++
				switch {
				case v.word("false"), v.word("off"), v.tok.kind == kNumber && v.tok.text == "0":
					on = false
				case v.word("text"), v.word("true"), v.word("on"), v.tok.kind == kNumber:
				default:
					return nil, notSupported(c.src, v.tok, "EXPLAIN option value "+v.tok.text+" is not supported by gpusql")
				}
			}
			switch o.tok.text {
			case "analyze", "analyse":
				e.Analyze = on
			case "verbose":
				e.Verbose = on
			case "costs", "buffers", "timing", "summary", "settings", "wal", "format":
			default:
				return nil, errAt(c.src, o.tok, engine.CodeSyntaxError, `unrecognized EXPLAIN option "`+o.tok.text+`"`)
			}
			if !sub.done() && !sub.op(",") {
				return nil, sub.fail()
			}
		}
	} else {
		if c.word("analyze") || c.word("analyse") {
			e.Analyze = true
		}
		if c.word("verbose") {
			e.Verbose = true
		}
	}
	var err error
	if e.Query, err = c.rest(); err != nil {
		return nil, err
	}
	return e, nil
}
