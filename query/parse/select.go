package parse

import (
	"strconv"
	"strings"

	"github.com/gpusql/gpusql/engine"
	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"

	// tidb's parser needs a driver for literal values; this is the one
	// that ships with the parser module. Its *test_driver.ValueExpr holds
	// literals in the Select ASTs.
	_ "github.com/pingcap/tidb/pkg/parser/test_driver"
)

// sqlMode makes tidb read "x" as an identifier, || as concatenation and
// backslashes in strings literally, as PostgreSQL does.
const sqlMode = mysql.ModeANSIQuotes | mysql.ModePipesAsConcat | mysql.ModeNoBackslashEscapes

// parseSelect rewrites a query's PostgreSQL-only syntax and parses it with
// tidb. A tidb parser is made per call: they are not safe for concurrent
// use.
func parseSelect(src, text string, items []*node, end token) (Stmt, error) {
	out, marks, params, err := rewriteParams(src, items, end)
	if err != nil {
		return nil, err
	}
	p := parser.New()
	p.SetSQLMode(sqlMode)
	stmts, _, err := p.ParseSQL(out)
	if err != nil {
		return nil, tidbError(src, out, marks, end, err)
	}
	if len(stmts) != 1 {
		return nil, syntaxErr(src, end)
	}
	switch stmts[0].(type) {
	case *ast.SelectStmt, *ast.SetOprStmt:
	default:
		return nil, notSupported(src, items[0].tok, "this statement is not supported by gpusql")
	}
	return &Select{Text: text, AST: stmts[0], LimitParams: params}, nil
}

// rewrite applies the PostgreSQL-syntax rewrites to a query's items and
// renders the result as text for tidb.
func rewrite(src string, items []*node, end token) (string, []mark, error) {
	out, marks, _, err := rewriteParams(src, items, end)
	return out, marks, err
}

// rewriteParams is rewrite that also returns the parameter numbers of
// LIMIT and OFFSET (see Select.LimitParams).
func rewriteParams(src string, items []*node, end token) (string, []mark, []int, error) {
	r := &rewriter{src: src}
	items, err := r.level(items, end)
	if err != nil {
		return "", nil, nil, err
	}
	out, marks := render(items)
	return out, marks, r.limitParams, nil
}

// tidbError turns tidb's error about the rewritten text out into
// PostgreSQL's "syntax error at or near" about the original text.
func tidbError(src, out string, marks []mark, end token, err error) error {
	msg := err.Error()
	// tidb says: line L column C near "<out from the bad token>"<detail>,
	// cutting the quoted text at 2048 bytes and then adding
	// "(total length N)".
	k := strings.Index(msg, ` near "`)
	if !strings.HasPrefix(msg, "line ") || k < 0 {
		return &engine.Error{Code: engine.CodeSyntaxError, Message: "syntax error: " + msg, Err: err}
	}
	rest := msg[k+len(` near "`):]
	off := -1
	if t := strings.LastIndex(rest, "(total length "); t >= 0 && strings.HasSuffix(rest, ")") {
		if n, err := strconv.Atoi(rest[t+len("(total length ") : len(rest)-1]); err == nil && n <= len(out) {
			off = len(out) - n
		}
	} else {
		// rest is `<out[off:]>"<detail>`: find the longest suffix of out
		// that rest starts with, followed by the closing quote.
		for n := min(len(out), len(rest)-1); n >= 0; n-- {
			if rest[n] == '"' && strings.HasPrefix(rest, out[len(out)-n:]) {
				off = len(out) - n
				break
			}
		}
	}
	if off < 0 {
		return &engine.Error{Code: engine.CodeSyntaxError, Message: "syntax error", Err: err}
	}
	if strings.TrimSpace(out[off:]) == "" {
		e := syntaxErr(src, end)
		e.Err = err
		return e
	}
	t, ok := origin(marks, off)
	if !ok {
		return &engine.Error{Code: engine.CodeSyntaxError, Message: "syntax error", Err: err}
	}
	e := syntaxErr(src, t)
	e.Err = err
	return e
}
