package query

import (
	"strconv"
	"strings"
	"sync"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/gpusql/gpusql/engine"
)

// The catalogs keep some PostgreSQL types in another form (see
// storageType): a regproc column holds the function's name, a name column
// is text. Where PostgreSQL's own type decides what an operation means,
// the binder asks catalogType for the column's PostgreSQL type: an OID
// compares with a regproc column by the function's OID, a regproc cast of
// a regproc column changes nothing, and name[i] is the name's i-th byte
// (counted from 0), as in PostgreSQL, where name is an array of char.

// PostgreSQL type OIDs that the catalogs store in another form.
const (
	pgOIDName    = 19
	pgOIDRegproc = 24
)

// catalogType is the PostgreSQL type OID of e when e is a column of an
// emulated catalog relation in the binder's scope; 0 otherwise.
func (b *binder) catalogType(e engine.Expr) int64 {
	c, ok := e.(*engine.ColRef)
	if !ok || b.agg != nil || c.Idx < 0 || c.Idx >= len(b.src.cols) {
		return 0
	}
	oid, num := b.colOrigin(c.Idx)
	cols := pgData().cols[int64(oid)]
	if oid == 0 || num < 1 || int(num) > len(cols) || cols[num-1].name != c.Name {
		return 0
	}
	return cols[num-1].typ
}

// procOIDs maps a function name to the smallest OID of the functions
// gpusql lists under that name.
var procOIDs = sync.OnceValue(func() map[string]int64 {
	m := map[string]int64{}
	for _, p := range pgData().procs {
		if o, ok := m[p.name]; !ok || p.oid < o {
			m[p.name] = p.oid
		}
	}
	return m
})

// regprocOID reads a regproc catalog column (function names) as OIDs, as
// PostgreSQL's regproc is one: "-" is 0, PostgreSQL's text for no
// function. A name that gpusql's pg_proc does not list (a C function
// such as heap_tableam_handler that gpusql has no use for) also reads as
// 0: no pg_proc row has it.
func regprocOID(x engine.Expr) (engine.Expr, error) {
	return regMap("regproc", x, engine.Int64, func(v *engine.Vec, i int, out *engine.Vec) error {
		name := string(v.S[i])
		if n, err := strconv.ParseInt(name, 10, 64); err == nil {
			out.I[i] = n
			return nil
		}
		if k := strings.LastIndexByte(name, '.'); k >= 0 {
			name = name[k+1:]
		}
		out.I[i] = procOIDs()[strings.Trim(name, `"`)]
		return nil
	})
}

// regprocOperands turns a regproc column compared with an integer into
// OIDs (p.oid = pg_transform.trffromsql).
func (b *binder) regprocOperands(l, r engine.Expr) (engine.Expr, engine.Expr, error) {
	var err error
	switch {
	case l.Type().IsInteger() && r.Type().IsString() && b.catalogType(r) == pgOIDRegproc:
		r, err = regprocOID(r)
	case r.Type().IsInteger() && l.Type().IsString() && b.catalogType(l) == pgOIDRegproc:
		l, err = regprocOID(l)
	}
	return l, r, err
}

// nameSubscript binds name[i]: the i-th byte of the name, counted from
// 0, as a one-character "char" (text here); an empty string past the
// name's end and NULL outside name's 64 bytes, as PostgreSQL gives them.
func nameSubscript(arr, idx engine.Expr) (engine.Expr, error) {
	fn := func(args []*engine.Vec, n int) (*engine.Vec, error) {
		out := engine.NewVec(engine.Text, n)
		for i := 0; i < n; i++ {
			k := args[1].I[i]
			if args[0].IsNull(i) || args[1].IsNull(i) || k < 0 || k >= 64 {
				out.SetNull(i)
				continue
			}
			if s := args[0].S[i]; k < int64(len(s)) {
				out.S[i] = s[k : k+1]
			} else {
				out.S[i] = []byte{}
			}
		}
		return out, nil
	}
	return &engine.HostFunc{Name: "name_subscript", Args: []engine.Expr{arr, idx}, T: engine.Text, Fn: fn}, nil
}

// intArrayCast reports whether n is a cast to an integer or OID array
// (x::oid[], parse's aliasType), whose elements unnest gives as bigint.
func intArrayCast(n ast.ExprNode) bool {
	fc, ok := n.(*ast.FuncCallExpr)
	if !ok || fc.FnName.L != "__gpusql_cast" || len(fc.Args) != 2 {
		return false
	}
	s, err := stringArg(fc.Args[1])
	return err == nil && strings.HasSuffix(s, "[]")
}

// intElements wraps unnest's set function so that its elements are
// bigints: each text element is read as an integer (22P02 otherwise).
func intElements(f engine.SetFunc) engine.SetFunc {
	inner := f.Fn
	f.T = engine.Int64
	f.Fn = func(args []*engine.Vec, n int) (*engine.Vec, []int32, error) {
		v, counts, err := inner(args, n)
		if err != nil {
			return nil, nil, err
		}
		out := engine.NewVec(engine.Int64, v.N)
		for i := 0; i < v.N; i++ {
			if v.IsNull(i) {
				out.SetNull(i)
				continue
			}
			x, err := strconv.ParseInt(strings.TrimSpace(string(v.S[i])), 10, 64)
			if err != nil {
				return nil, nil, engine.Errorf(engine.CodeInvalidTextRepresent, "invalid input syntax for type bigint: %q", v.S[i])
			}
			out.I[i] = x
		}
		return out, counts, nil
	}
	return f
}

// optionsSource is pg_options_to_table(options): the rows (option_name,
// option_value) of a text[] of "name=value" (reloptions, attoptions,
// fdwoptions...), split at the first '='; a NULL array has no rows.
func optionsSource(alias string, c *engine.Const) (source, error) {
	var keys, vals [][]byte
	var null []bool
	if !c.Null {
		if !c.T.IsString() && !isUnknown(c) {
			return source{}, engine.Errorf(engine.CodeUndefinedFunction, "function pg_options_to_table(%s) does not exist", c.T)
		}
		els, err := parseTextArray(c.S)
		if err != nil {
			return source{}, err
		}
		for _, e := range els {
			if e == nil {
				continue
			}
			k, v, ok := strings.Cut(*e, "=")
			keys, vals, null = append(keys, []byte(k)), append(vals, []byte(v)), append(null, !ok)
		}
	}
	names, values := &engine.Vec{T: engine.Text, N: len(keys), S: keys}, &engine.Vec{T: engine.Text, N: len(keys), S: vals, Null: null}
	if names.S == nil {
		names.S, values.S = [][]byte{}, [][]byte{}
	}
	return batchSource(alias, alias, []string{"option_name", "option_value"}, []engine.Type{engine.Text, engine.Text},
		&engine.Batch{N: names.N, Cols: []*engine.Vec{names, values}})
}
