package eval

import (
	"context"
	"math"
	"math/rand/v2"

	"github.com/gpusql/gpusql/engine"
)

// The math functions over numerics and doubles (integers reach them cast
// to one of the two, as PostgreSQL resolves them), with PostgreSQL 15's
// errors and result scales. The double precision functions use engine's
// FExp, FLn, FLog10, FCbrt and FPow, which give the C library's results,
// the GPU backend's twins too.

func evalMath(ctx context.Context, e *engine.Call, args []*engine.Vec, n int) (*engine.Vec, error) {
	switch e.Op {
	case engine.OpGreatest, engine.OpLeast:
		return evalGreatest(e, args, n), nil
	case engine.OpRandom:
		out := engine.NewVec(engine.Float64, n)
		for i := range out.F {
			out.F[i] = rand.Float64()
		}
		return out, nil
	case engine.OpWidthBucket:
		return evalWidthBucket(args, n)
	}
	out := engine.NewVec(e.T, n)
	out.Null = orNulls(n, args...)
	for i := 0; i < n; i++ {
		if out.Null != nil && out.Null[i] {
			continue
		}
		var err error
		if e.T.Kind == engine.KindNumeric {
			out.D[i], err = DecMath(e.Op, args, i)
		} else {
			var y float64
			if len(args) > 1 {
				y = args[1].F[i]
			}
			out.F[i], err = FloatMath(e.Op, args[0].F[i], y)
		}
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

func floatOverflow() error {
	return engine.Errorf(engine.CodeNumericValueOutOfRange, "value out of range: overflow")
}

func floatUnderflow() error {
	return engine.Errorf(engine.CodeNumericValueOutOfRange, "value out of range: underflow")
}

// FloatMath is one math function over double precision, as PostgreSQL's
// float.c computes it (y is power's exponent).
func FloatMath(op engine.Op, x, y float64) (float64, error) {
	switch op {
	case engine.OpFloor:
		return math.Floor(x), nil
	case engine.OpCeil:
		return math.Ceil(x), nil
	case engine.OpTrunc:
		return math.Trunc(x), nil
	case engine.OpRound:
		return math.RoundToEven(x), nil
	case engine.OpSign:
		switch {
		case x > 0:
			return 1, nil
		case x < 0:
			return -1, nil
		}
		return 0, nil
	case engine.OpSqrt:
		if x < 0 {
			return 0, engine.Errorf(engine.CodeInvalidArgumentForPower, "cannot take square root of a negative number")
		}
		return math.Sqrt(x), nil
	case engine.OpCbrt:
		return engine.FCbrt(x), nil
	case engine.OpExp:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			if math.IsInf(x, -1) {
				return 0, nil
			}
			return x, nil
		}
		r := engine.FExp(x)
		switch {
		case math.IsInf(r, 0):
			return 0, floatOverflow()
		case r == 0:
			return 0, floatUnderflow()
		}
		return r, nil
	case engine.OpLn, engine.OpLog10:
		switch {
		case x == 0:
			return 0, engine.Errorf(engine.CodeInvalidArgumentForLog, "cannot take logarithm of zero")
		case x < 0:
			return 0, engine.Errorf(engine.CodeInvalidArgumentForLog, "cannot take logarithm of a negative number")
		}
		if op == engine.OpLn {
			return engine.FLn(x), nil
		}
		return engine.FLog10(x), nil
	case engine.OpPower:
		return floatPow(x, y)
	}
	return 0, engine.Errorf(engine.CodeInternalError, "eval: unsupported operator %s on double precision", op)
}

// floatPow is PostgreSQL's dpow.
func floatPow(x, y float64) (float64, error) {
	switch {
	case math.IsNaN(x):
		if math.IsNaN(y) || y != 0 {
			return math.NaN(), nil
		}
		return 1, nil
	case math.IsNaN(y):
		if x != 1 {
			return math.NaN(), nil
		}
		return 1, nil
	case x == 0 && y < 0:
		return 0, engine.Errorf(engine.CodeInvalidArgumentForPower, "zero raised to a negative power is undefined")
	case x < 0 && math.Floor(y) != y:
		return 0, engine.Errorf(engine.CodeInvalidArgumentForPower, "a negative number raised to a non-integer power yields a complex result")
	case math.IsInf(x, 0) || math.IsInf(y, 0):
		return engine.FPow(x, y), nil
	}
	r := engine.FPow(x, y)
	switch {
	case math.IsInf(r, 0):
		return 0, floatOverflow()
	case r == 0 && x != 0:
		return 0, floatUnderflow()
	}
	return r, nil
}

// DecMath is one math function over numerics, row i of args.
func DecMath(op engine.Op, args []*engine.Vec, i int) (engine.Dec, error) {
	x := args[0].D[i]
	var r engine.Dec
	ok := true
	switch op {
	case engine.OpFloor:
		r, ok = engine.DecFloor(x)
	case engine.OpCeil:
		r, ok = engine.DecCeil(x)
	case engine.OpTrunc:
		s := int32(0)
		if len(args) > 1 {
			s = int32(max(min(args[1].I[i], 2000), -2000))
		}
		r, ok = engine.DecTrunc(x, s)
	case engine.OpSign:
		r = engine.DecFromInt(int64(x.Sign()))
	case engine.OpSqrt:
		return engine.DecSqrt(x)
	case engine.OpExp:
		return engine.DecExp(x)
	case engine.OpLn:
		return engine.DecLn(x)
	case engine.OpLog10:
		return engine.DecLog(engine.DecFromInt(10), x)
	case engine.OpLogBase:
		return engine.DecLog(x, args[1].D[i])
	case engine.OpPower:
		return engine.DecPower(x, args[1].D[i])
	default:
		return r, engine.Errorf(engine.CodeInternalError, "eval: unsupported operator %s on numeric", op)
	}
	if !ok {
		return r, numericOverflow()
	}
	return r, nil
}

// evalGreatest is greatest/least: the largest (smallest) non-NULL
// argument, NULL where all are NULL.
func evalGreatest(e *engine.Call, args []*engine.Vec, n int) *engine.Vec {
	op := engine.OpGt
	if e.Op == engine.OpLeast {
		op = engine.OpLt
	}
	out := cloneVec(args[0])
	out.T = e.T
	for _, a := range args[1:] {
		better := compare(op, a, out, n)
		for i := 0; i < n; i++ {
			if a.IsNull(i) {
				continue
			}
			if out.IsNull(i) || better.I[i] == 1 {
				copySlot(out, i, a, i)
				if out.Null != nil {
					out.Null[i] = false
				}
			}
		}
	}
	return out
}

// evalWidthBucket is width_bucket(x, lo, hi, count) over doubles or
// numerics.
func evalWidthBucket(args []*engine.Vec, n int) (*engine.Vec, error) {
	out := engine.NewVec(engine.Int32, n)
	out.Null = orNulls(n, args...)
	for i := 0; i < n; i++ {
		if out.Null != nil && out.Null[i] {
			continue
		}
		var err error
		if args[0].T.Kind == engine.KindNumeric {
			out.I[i], err = engine.DecWidthBucket(args[0].D[i], args[1].D[i], args[2].D[i], args[3].I[i])
		} else {
			out.I[i], err = WidthBucketFloat(args[0].F[i], args[1].F[i], args[2].F[i], args[3].I[i])
		}
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// WidthBucketFloat is PostgreSQL 15's width_bucket_float8.
func WidthBucketFloat(x, lo, hi float64, count int64) (int64, error) {
	bad := func(msg string) error { return engine.Errorf(engine.CodeInvalidArgumentWidthBucket, "%s", msg) }
	switch {
	case count <= 0:
		return 0, bad("count must be greater than zero")
	case math.IsNaN(x) || math.IsNaN(lo) || math.IsNaN(hi):
		return 0, bad("operand, lower bound, and upper bound cannot be NaN")
	case math.IsInf(lo, 0) || math.IsInf(hi, 0):
		return 0, bad("lower and upper bounds must be finite")
	case lo == hi:
		return 0, bad("lower bound cannot equal upper bound")
	}
	top := func() (int64, error) {
		if count == math.MaxInt32 {
			return 0, engine.Errorf(engine.CodeNumericValueOutOfRange, "integer out of range")
		}
		return count + 1, nil
	}
	if lo < hi {
		switch {
		case x < lo:
			return 0, nil
		case x >= hi:
			return top()
		}
		return int64(int32(float64(float64(float64(count)*(x-lo))/(hi-lo)) + 1)), nil
	}
	switch {
	case x > lo:
		return 0, nil
	case x <= hi:
		return top()
	}
	return int64(int32(float64(float64(float64(count)*(lo-x))/(lo-hi)) + 1)), nil
}
