package query

import (
	"strings"

	"github.com/gpusql/gpusql/engine"
)

// The catalog functions. Each is a Go function of one row's argument
// values; with constant arguments the binder folds the call to a constant,
// otherwise it becomes an engine.HostFunc that the host evaluator runs
// over whole vectors (so these work over the system relations; a plan over
// a user table on a device backend refuses them).

// argKind is how a catalog function's argument is coerced.
type argKind uint8

const (
	argInt  argKind = iota // any integer (OIDs, typmods); an unknown literal is read as bigint
	argText                // any string type; an unknown literal is text
	argBool                // boolean; an unknown literal is read as boolean
	argObj                 // an object by name (text) or by OID (integer)
	argAny                 // any type, rendered as text where needed
	argOut                 // any type, rendered by its output function (format: char(n) keeps its padding)
)

// fval is one argument or result value.
type fval struct {
	null   bool
	i      int64 // integers, OIDs, booleans (0/1)
	s      string
	isText bool        // s holds the value (argText, or argObj given a name)
	kind   engine.Kind // the argument's type (argAny)
}

func fnull() fval         { return fval{null: true} }
func fint(i int64) fval   { return fval{i: i} }
func ftext(s string) fval { return fval{s: s, isText: true} }
func fbool(b bool) fval   { return fval{i: boolInt(b)} }
func boolInt(b bool) (i int64) {
	if b {
		i = 1
	}
	return i
}

// pgFunc is a catalog function: its argument kinds (min args are
// required, the rest optional), result type and body. A strict function
// returns NULL when any argument is NULL without calling fn.
type pgFunc struct {
	args   []argKind
	min    int
	ret    engine.Type
	strict bool
	// variadic repeats the last argument kind.
	variadic bool
	// acts: the function does something (pg_stat_reset,
	// pg_terminate_backend), so the call runs when its statement runs,
	// never when it binds (EXPLAIN, Describe), even over constants.
	acts bool
	fn   func(s *Session, a []fval) (fval, error)
}

// catalogFunc binds a catalog function (format_type, pg_get_userbyid,
// pg_table_is_visible, current_setting, ...) over bound arguments. name is
// lower case without a pg_catalog qualifier. ok is false when name is not
// a catalog function.
func (b *binder) catalogFunc(name string, args []engine.Expr) (e engine.Expr, ok bool, err error) {
	f, ok := pgFuncs[name]
	if !ok {
		return nil, false, nil
	}
	if len(args) < f.min || len(args) > len(f.args) && !f.variadic {
		return nil, true, noFunction(name, args)
	}
	kinds := make([]argKind, len(args))
	for i := range args {
		kinds[i] = f.args[min(i, len(f.args)-1)]
		a, err := coerceArg(args[i], kinds[i])
		if err != nil {
			return nil, true, noFunction(name, args)
		}
		args[i] = a
	}
	s := b.s
	body := func(a []fval) (fval, error) {
		if f.strict {
			for _, x := range a {
				if x.null {
					return fnull(), nil
				}
			}
		}
		return f.fn(s, a)
	}
	// Constant arguments: fold.
	consts := make([]fval, len(args))
	allConst := true
	for i, a := range args {
		c, ok := a.(*engine.Const)
		if !ok {
			allConst = false
			break
		}
		consts[i] = constVal(c, kinds[i])
	}
	if allConst && !f.acts {
		r, err := body(consts)
		if err != nil {
			return nil, true, err
		}
		return resultConst(r, f.ret), true, nil
	}
	return &engine.HostFunc{Name: name, Args: args, T: f.ret, Fn: func(vs []*engine.Vec, n int) (*engine.Vec, error) {
		out := engine.NewVec(f.ret, n)
		a := make([]fval, len(vs))
		for i := 0; i < n; i++ {
			for k, v := range vs {
				a[k] = vecVal(v, i, kinds[k])
			}
			r, err := body(a)
			if err != nil {
				return nil, err
			}
			switch {
			case r.null:
				out.SetNull(i)
			case engine.PhysOf(f.ret.Kind) == engine.PhysStr:
				out.S[i] = []byte(r.s)
			default:
				out.I[i] = r.i
			}
		}
		return out, nil
	}}, true, nil
}

func noFunction(name string, args []engine.Expr) error {
	ts := make([]string, len(args))
	for i, a := range args {
		ts[i] = a.Type().String()
	}
	return engine.Errorf(engine.CodeUndefinedFunction, "function %s(%s) does not exist", name, strings.Join(ts, ", "))
}

// coerceArg converts an argument to what its kind reads.
func coerceArg(e engine.Expr, k argKind) (engine.Expr, error) {
	t := e.Type()
	switch k {
	case argInt:
		if isUnknown(e) {
			return castTo(e, engine.Int64)
		}
		if !t.IsInteger() {
			return nil, engine.Errorf(engine.CodeUndefinedFunction, "not an integer")
		}
	case argText, argObj, argAny, argOut:
		if k == argObj && t.IsInteger() {
			return e, nil
		}
		if k == argOut && t.Kind == engine.KindChar && t.Len > 0 {
			return fold(&engine.Call{Op: engine.OpPadChar, Args: []engine.Expr{e}, T: engine.Text})
		}
		if t.IsString() && t.Kind != engine.KindText {
			return castTo(e, engine.Text)
		}
		if k != argAny && k != argOut && !t.IsString() {
			return nil, engine.Errorf(engine.CodeUndefinedFunction, "not text")
		}
	case argBool:
		if isUnknown(e) {
			return castTo(e, engine.Bool)
		}
		if t.Kind != engine.KindBool {
			return nil, engine.Errorf(engine.CodeUndefinedFunction, "not boolean")
		}
	}
	return e, nil
}

func constVal(c *engine.Const, k argKind) fval {
	if c.Null {
		return fnull()
	}
	v := &engine.Vec{T: c.T, N: 1}
	switch engine.PhysOf(c.T.Kind) {
	case engine.PhysInt:
		v.I = []int64{c.I}
	case engine.PhysFloat:
		v.F = []float64{c.F}
	case engine.PhysDec:
		v.D = []engine.Dec{c.D}
	case engine.PhysStr:
		v.S = [][]byte{[]byte(c.S)}
	case engine.PhysInterval:
		v.V = []engine.IntervalVal{c.V}
	}
	return vecVal(v, 0, k)
}

func vecVal(v *engine.Vec, i int, k argKind) fval {
	if v.IsNull(i) {
		return fval{null: true, kind: v.T.Kind}
	}
	switch {
	case engine.PhysOf(v.T.Kind) == engine.PhysStr:
		return ftext(string(v.S[i]))
	case k == argAny || k == argOut:
		return fval{s: string(engine.AppendText(nil, v, i)), isText: true, kind: v.T.Kind}
	case engine.PhysOf(v.T.Kind) == engine.PhysInt:
		return fint(v.I[i])
	}
	return ftext(string(engine.AppendText(nil, v, i)))
}

func resultConst(r fval, t engine.Type) *engine.Const {
	c := &engine.Const{T: t, Null: r.null}
	if !r.null {
		if engine.PhysOf(t.Kind) == engine.PhysStr {
			c.S = r.s
		} else {
			c.I = r.i
		}
	}
	return c
}
