package query

import (
	"math"

	"github.com/gpusql/gpusql/engine"
	"github.com/pingcap/tidb/pkg/parser/ast"
)

// mathFunc binds the math functions over integers, numerics and doubles
// with PostgreSQL 15's signatures: most exist for numeric and double
// precision only, so an integer argument resolves to the double
// precision one (floor(5) is a double), a numeric to the numeric one.
// ok is false for other names.
func (b *binder) mathFunc(n *ast.FuncCallExpr) (engine.Expr, bool, error) {
	name := n.FnName.L
	if name == "__gpusql_mod" {
		name = "mod"
	}
	switch name {
	case "floor", "ceil", "ceiling", "trunc", "sign", "sqrt", "cbrt", "exp", "ln", "log", "log10",
		"power", "pow", "mod", "pi", "random", "width_bucket", "greatest", "least", "round":
	default:
		return nil, false, nil
	}
	args := make([]engine.Expr, len(n.Args))
	for i, a := range n.Args {
		e, err := b.expr(a)
		if err != nil {
			return nil, true, err
		}
		args[i] = e
	}
	e, err := b.mathCall(name, args)
	if err != nil || name == "random" {
		return e, true, err // random() is volatile: never folded
	}
	e, err = fold(e)
	return e, true, err
}

// numOrFloat resolves an argument of a function that exists over
// numeric and double precision: a numeric stays numeric, other numbers
// and unknown literals become double precision.
func numOrFloat(x engine.Expr) (engine.Expr, bool) {
	t := x.Type()
	switch {
	case t.Kind == engine.KindNumeric:
		return x, true
	case t.IsNumber() || isUnknown(x):
		c, err := castTo(x, engine.Float64)
		return c, err == nil
	}
	return nil, false
}

// numArg casts x to numeric where PostgreSQL would do so implicitly
// (integers, unknown literals); doubles do not.
func numArg(x engine.Expr) (engine.Expr, bool) {
	t := x.Type()
	switch {
	case t.Kind == engine.KindNumeric:
		return x, true
	case t.IsInteger() || isUnknown(x):
		c, err := castTo(x, engine.Numeric)
		return c, err == nil
	}
	return nil, false
}

func (b *binder) mathCall(name string, args []engine.Expr) (engine.Expr, error) {
	call := func(op engine.Op, t engine.Type, as ...engine.Expr) (engine.Expr, error) {
		return &engine.Call{Op: op, Args: as, T: t}, nil
	}
	nargs := func(lo, hi int) error {
		if len(args) < lo || len(args) > hi {
			return noFunc(name, args)
		}
		return nil
	}
	unary := map[string]engine.Op{
		"floor": engine.OpFloor, "ceil": engine.OpCeil, "ceiling": engine.OpCeil, "trunc": engine.OpTrunc,
		"round": engine.OpRound, "sign": engine.OpSign, "sqrt": engine.OpSqrt, "exp": engine.OpExp,
		"ln": engine.OpLn, "log": engine.OpLog10, "log10": engine.OpLog10, "cbrt": engine.OpCbrt,
	}
	switch name {
	case "pi":
		if len(args) != 0 {
			return nil, noFunc(name, args)
		}
		return &engine.Const{T: engine.Float64, F: math.Pi}, nil
	case "random":
		if len(args) != 0 {
			return nil, noFunc(name, args)
		}
		return call(engine.OpRandom, engine.Float64)
	case "floor", "ceil", "ceiling", "sign", "sqrt", "exp", "ln", "log10", "cbrt",
		"trunc", "round", "log":
		if err := nargs(1, 2); err != nil {
			return nil, err
		}
		if len(args) == 2 {
			switch name {
			case "trunc", "round":
				// numeric only: round(x, digits)
				x, ok := numArg(args[0])
				if !ok {
					return nil, noFunc(name, args)
				}
				d, err := b.asInt(args[1], name)
				if err != nil {
					return nil, noFunc(name, args)
				}
				return call(unary[name], engine.Numeric, x, d)
			case "log":
				base, ok1 := numArg(args[0])
				x, ok2 := numArg(args[1])
				if !ok1 || !ok2 {
					return nil, noFunc(name, args)
				}
				return call(engine.OpLogBase, engine.Numeric, base, x)
			}
			return nil, noFunc(name, args)
		}
		x, ok := numOrFloat(args[0])
		if !ok || name == "cbrt" && x.Type().Kind == engine.KindNumeric {
			if ok {
				// cbrt exists for double precision only
				c, err := castTo(x, engine.Float64)
				if err != nil {
					return nil, err
				}
				return call(engine.OpCbrt, engine.Float64, c)
			}
			return nil, noFunc(name, args)
		}
		t := engine.Float64
		if x.Type().Kind == engine.KindNumeric {
			t = engine.Numeric
		}
		return call(unary[name], t, x)
	case "power", "pow":
		if err := nargs(2, 2); err != nil {
			return nil, err
		}
		a, c := args[0], args[1]
		anyFloat := a.Type().IsFloat() || c.Type().IsFloat()
		anyNum := a.Type().Kind == engine.KindNumeric || c.Type().Kind == engine.KindNumeric
		if !anyFloat && anyNum {
			x, ok1 := numArg(a)
			y, ok2 := numArg(c)
			if ok1 && ok2 {
				return call(engine.OpPower, engine.Numeric, x, y)
			}
		}
		x, ok1 := numOrFloat(a)
		y, ok2 := numOrFloat(c)
		if !ok1 || !ok2 {
			return nil, noFunc(name, args)
		}
		var err error
		if x, err = castTo(x, engine.Float64); err != nil {
			return nil, err
		}
		if y, err = castTo(y, engine.Float64); err != nil {
			return nil, err
		}
		return call(engine.OpPower, engine.Float64, x, y)
	case "mod":
		if err := nargs(2, 2); err != nil {
			return nil, err
		}
		l, r := args[0], args[1]
		lt, rt := l.Type(), r.Type()
		switch {
		case isUnknown(l) && isUnknown(r):
			lt, rt = engine.Int32, engine.Int32
		case isUnknown(l):
			lt = unifyTarget(rt)
		case isUnknown(r):
			rt = unifyTarget(lt)
		}
		if !lt.IsNumber() || !rt.IsNumber() || lt.IsFloat() || rt.IsFloat() {
			return nil, noFunc(name, args)
		}
		t := arithType(lt, rt)
		var err error
		if l, err = operand(l, t); err != nil {
			return nil, err
		}
		if r, err = operand(r, t); err != nil {
			return nil, err
		}
		return call(engine.OpMod, t, l, r)
	case "width_bucket":
		if err := nargs(4, 4); err != nil {
			return nil, err
		}
		cnt, err := b.asInt(args[3], name)
		if err != nil {
			return nil, noFunc(name, args)
		}
		anyFloat, anyNum := false, false
		for _, a := range args[:3] {
			anyFloat = anyFloat || a.Type().IsFloat()
			anyNum = anyNum || a.Type().Kind == engine.KindNumeric
		}
		out := make([]engine.Expr, 0, 4)
		for _, a := range args[:3] {
			var x engine.Expr
			ok := false
			if anyNum && !anyFloat {
				x, ok = numArg(a)
			} else if x, ok = numOrFloat(a); ok {
				x, err = castTo(x, engine.Float64)
				ok = err == nil
			}
			if !ok {
				return nil, noFunc(name, args)
			}
			out = append(out, x)
		}
		return call(engine.OpWidthBucket, engine.Int32, append(out, cnt)...)
	case "greatest", "least":
		if len(args) == 0 {
			return nil, engine.Errorf(engine.CodeSyntaxError, "syntax error at or near \")\"")
		}
		what := "GREATEST"
		op := engine.OpGreatest
		if name == "least" {
			what, op = "LEAST", engine.OpLeast
		}
		as, t, err := coerceAll(what, args)
		if err != nil {
			return nil, err
		}
		switch t.Kind {
		case engine.KindInterval, engine.KindBool:
			return nil, unsupported("%s over %s is not supported", what, t)
		}
		if t.Kind == engine.KindNumeric {
			t = engine.Numeric
		}
		return call(op, t, as...)
	}
	return nil, noFunc(name, args)
}
