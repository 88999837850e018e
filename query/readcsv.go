package query

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/query/parse"
)

// readCSV binds read_csv('path' [, option => value, ...]) in FROM: the
// server-side CSV file (or files: a glob, .gz, .zst) as a table, its
// columns inferred as for CREATE TABLE t FROM CSV 'path', the options
// those of WITH (...). The file is loaded by the backend when the
// statement is bound and its rows are read from host memory, so the
// function is for a first look and for CREATE TABLE ... AS SELECT, not
// for repeated queries over a large file.
func (b *binder) readCSV(args []ast.ExprNode, alias string) (source, error) {
	if err := b.s.checkFileRead(); err != nil {
		return source{}, err
	}
	var path *string
	var names, vals []string
	for _, a := range args {
		named := false
		var key string
		if f, ok := a.(*ast.FuncCallExpr); ok && f.FnName.L == "__gpusql_named" && len(f.Args) == 2 {
			k, err := stringArg(f.Args[0])
			if err != nil {
				return source{}, err
			}
			named, key, a = true, strings.ToLower(k), f.Args[1]
		}
		e, err := b.expr(a)
		if err != nil {
			return source{}, err
		}
		c, ok := b.lowerConst(e).(*engine.Const)
		if !ok || c.Null {
			return source{}, engine.Errorf(engine.CodeInvalidParameterValue, "the arguments of read_csv must be constants, not NULL")
		}
		text := c.S
		switch {
		case c.T.Kind == engine.KindBool:
			text = "false"
			if c.I != 0 {
				text = "true"
			}
		case !c.T.IsString():
			text = c.String()
		}
		switch {
		case named:
			names, vals = append(names, key), append(vals, text)
		case len(names) > 0:
			return source{}, engine.Errorf(engine.CodeSyntaxError, "positional argument cannot follow named argument")
		case path != nil:
			return source{}, engine.Errorf(engine.CodeUndefinedFunction, "function read_csv with %d positional arguments does not exist", 2).
				WithHint("Options are named: read_csv('f.csv', header => true, delimiter => ';').")
		default:
			if !c.T.IsString() {
				return source{}, engine.Errorf(engine.CodeUndefinedFunction, "function read_csv(%s) does not exist", c.T)
			}
			path = &text
		}
	}
	if path == nil {
		return source{}, engine.Errorf(engine.CodeUndefinedFunction, "function read_csv() does not exist").
			WithHint("read_csv('path' [, header => true, delimiter => ',', null => '', quote => '\"', escape => '\"', on_error => 'ignore'])")
	}
	opts, given, err := parse.ReadCSVOptions(names, vals)
	if err != nil {
		return source{}, err
	}
	w := b.s.notices
	if w == nil {
		w = discardWriter{}
	}
	res, cols, err := b.s.loadInferred(b.st.ctx, "read_csv", *path, opts, given, w)
	if err != nil {
		return source{}, err
	}
	data := res.Data
	if _, host := data.(*engine.HostTable); !host {
		d, ok := data.(engine.Downloader)
		if !ok {
			data.Release()
			return source{}, engine.Errorf(engine.CodeInternalError, "read_csv: the backend's table data cannot be read on the host")
		}
		h, err := d.Download()
		data.Release()
		if err != nil {
			return source{}, err
		}
		data = h
	}
	return source{name: alias, alias: alias, cols: cols, data: data, present: true, host: true}, nil
}

// discardWriter drops what it is given.
type discardWriter struct{}

func (discardWriter) Describe([]engine.ResultColumn) error { return nil }
func (discardWriter) Row([][]byte) error                   { return nil }
func (discardWriter) Complete(string) error                { return nil }
func (discardWriter) Notice(engine.Notice) error           { return nil }
func (discardWriter) EmptyQuery() error                    { return nil }
