package query

import (
	"unicode/utf8"

	"github.com/gpusql/gpusql/engine"
	"github.com/pingcap/tidb/pkg/parser/ast"
)

// The b-tree comparison support functions of PostgreSQL's string operator
// families (text_ops, bpchar_ops, text_pattern_ops, bpchar_pattern_ops):
// bttextcmp, bpcharcmp, btnamecmp, ... Under the C collation, the only one
// gpusql has (docs/sql.md), PostgreSQL compares the bytes with memcmp,
// and what it returns is memcmp's own value: on the x86-64 C library
// PostgreSQL is built with, the difference of the first two bytes that
// differ, as unsigned bytes (bttextcmp('a', 'c') is -2). When one string
// is a prefix of the other, the shorter sorts first and the result is -1
// or 1. The differential corpus (testdata/diff/btcmp.sql) holds
// PostgreSQL to that.

// strCmpArg is how a string comparison function reads one argument.
type strCmpArg uint8

const (
	cmpText   strCmpArg = iota // text: every byte counts
	cmpBpchar                  // character(n): trailing spaces do not count
	cmpName                    // name: at most 63 bytes, cut at a character boundary
)

// strCmpFunc is one of the string comparison functions. nameCmp is
// btnamecmp's: under the collation C it compares with strncmp, whose
// result counts the end of the shorter name as a zero byte
// (btnamecmp('a', 'ab') is -98); under the database's default collation
// (also C here) it compares as bttextcmp does (-1). The call's collation
// is C when an argument has the name type's own collation, which beats
// the default: a string literal read as a name, or cast to name. Any
// other value cast to name keeps its default collation. gpusql
// stores name as text, so a catalog's name column counts as text here
// (docs/compatibility.md).
type strCmpFunc struct {
	args    [2]strCmpArg
	nameCmp bool
}

// strCmpFuncs are the string comparison functions gpusql implements. The
// pattern ones (bttext_pattern_cmp, btbpchar_pattern_cmp) compare bytes
// whatever the collation, which under C is what the others do too.
var strCmpFuncs = map[string]strCmpFunc{
	"bttextcmp":            {args: [2]strCmpArg{cmpText, cmpText}},
	"bttext_pattern_cmp":   {args: [2]strCmpArg{cmpText, cmpText}},
	"bpcharcmp":            {args: [2]strCmpArg{cmpBpchar, cmpBpchar}},
	"btbpchar_pattern_cmp": {args: [2]strCmpArg{cmpBpchar, cmpBpchar}},
	"btnamecmp":            {args: [2]strCmpArg{cmpName, cmpName}, nameCmp: true},
	"btnametextcmp":        {args: [2]strCmpArg{cmpName, cmpText}},
	"bttextnamecmp":        {args: [2]strCmpArg{cmpText, cmpName}},
}

// nameMaxBytes is the longest name PostgreSQL keeps (NAMEDATALEN - 1).
const nameMaxBytes = 63

// clipName cuts s as a cast to name does: to at most 63 bytes, at a
// character boundary.
func clipName(s []byte) []byte {
	if len(s) <= nameMaxBytes {
		return s
	}
	n := nameMaxBytes
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// trimBpchar drops a character(n) value's trailing spaces.
func trimBpchar(s []byte) []byte {
	n := len(s)
	for n > 0 && s[n-1] == ' ' {
		n--
	}
	return s[:n]
}

// byteCmp is memcmp over the common length (the difference of the first
// bytes that differ), then -1 or 1 for the shorter and the longer string;
// with asZero, the shorter string's end counts as a zero byte instead.
func byteCmp(a, b []byte, asZero bool) int64 {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return int64(a[i]) - int64(b[i])
		}
	}
	switch {
	case len(a) == len(b):
		return 0
	case asZero && len(a) < len(b):
		return -int64(b[n])
	case asZero:
		return int64(a[n])
	case len(a) < len(b):
		return -1
	}
	return 1
}

// bindStrCmp binds a call of one of strCmpFuncs: the arguments are cast
// to text or character (name is text in gpusql) and compared row by row.
func (b *binder) bindStrCmp(name string, f strCmpFunc, nodes []ast.ExprNode, args []engine.Expr) (engine.Expr, error) {
	if len(args) != 2 {
		return nil, engine.Errorf(engine.CodeUndefinedFunction, "function %s with %d arguments does not exist", name, len(args))
	}
	strncmp := false
	if f.nameCmp {
		for i, a := range args {
			strncmp = strncmp || isUnknown(a) || isNameLiteral(nodes[i])
		}
	}
	for i, a := range args {
		want := engine.Text
		if f.args[i] == cmpBpchar {
			want = engine.Type{Kind: engine.KindChar}
		}
		if !isUnknown(a) && !implicitTo(a.Type(), want) {
			return nil, engine.Errorf(engine.CodeUndefinedFunction, "function %s(%s, %s) does not exist",
				name, args[0].Type(), args[1].Type()).WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
		}
		c, err := castTo(a, want)
		if err != nil {
			return nil, err
		}
		args[i] = c
	}
	read := func(k strCmpArg, s []byte) []byte {
		switch k {
		case cmpBpchar:
			return trimBpchar(s)
		case cmpName:
			return clipName(s)
		}
		return s
	}
	fn := func(vs []*engine.Vec, n int) (*engine.Vec, error) {
		out := engine.NewVec(engine.Int32, n)
		for i := 0; i < n; i++ {
			if vs[0].IsNull(i) || vs[1].IsNull(i) {
				out.SetNull(i)
				continue
			}
			out.I[i] = byteCmp(read(f.args[0], vs[0].S[i]), read(f.args[1], vs[1].S[i]), strncmp)
		}
		return out, nil
	}
	return &engine.HostFunc{Name: name, Args: args, T: engine.Int32, Fn: fn, Parallel: true}, nil
}

// isNameLiteral reports whether n is a string literal cast to name
// ('x'::name), which PostgreSQL folds to a constant of the name type's
// own collation. A cast of anything else keeps its input's collation.
func isNameLiteral(n ast.ExprNode) bool {
	n = unparen(n)
	f, ok := n.(*ast.FuncCallExpr)
	if !ok || f.FnName.L != "__gpusql_cast" || len(f.Args) != 2 {
		return false
	}
	if t, err := stringArg(f.Args[1]); err != nil || t != "name" && t != "pg_catalog.name" {
		return false
	}
	if _, err := stringArg(f.Args[0]); err == nil {
		return true
	}
	return isNameLiteral(f.Args[0])
}
