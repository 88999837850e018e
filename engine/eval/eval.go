// Package eval evaluates bound expressions over column batches on the CPU.
// It is the reference semantics of every operator: the CPU backend runs
// it, the binder folds constants with it, and GPU kernels are tested
// against it.
package eval

import (
	"bytes"
	"context"
	"math"
	"math/bits"

	"github.com/gpusql/gpusql/engine"
)

// Eval evaluates e over the batch in. The result has in.N rows. Result
// vectors may alias input vectors; callers treat them as read-only.
func Eval(ctx context.Context, e engine.Expr, in *engine.Batch) (*engine.Vec, error) {
	switch e := e.(type) {
	case *engine.ColRef:
		if e.Idx < 0 || e.Idx >= len(in.Cols) {
			return nil, engine.Errorf(engine.CodeInternalError, "column reference %d out of range", e.Idx)
		}
		return in.Cols[e.Idx], nil
	case *engine.Const:
		return Broadcast(e, in.N), nil
	case *engine.Case:
		return evalCase(ctx, e, in)
	case *engine.Call:
		return evalCall(ctx, e, in)
	case *engine.HostFunc:
		args, err := evalArgs(ctx, e.Args, in)
		if err != nil {
			return nil, err
		}
		return e.Fn(args, in.N)
	}
	return nil, engine.Errorf(engine.CodeInternalError, "eval: unknown expression %T", e)
}

// Broadcast makes an n-row vector holding c.
func Broadcast(c *engine.Const, n int) *engine.Vec {
	v := engine.NewVec(c.T, n)
	if c.Null {
		v.Null = make([]bool, n)
		for i := range v.Null {
			v.Null[i] = true
		}
		return v
	}
	switch engine.PhysOf(c.T.Kind) {
	case engine.PhysInt:
		for i := range v.I {
			v.I[i] = c.I
		}
	case engine.PhysFloat:
		for i := range v.F {
			v.F[i] = c.F
		}
	case engine.PhysDec:
		for i := range v.D {
			v.D[i] = c.D
		}
	case engine.PhysStr:
		s := []byte(c.S)
		for i := range v.S {
			v.S[i] = s
		}
	case engine.PhysInterval:
		for i := range v.V {
			v.V[i] = c.V
		}
	}
	return v
}

// orNulls returns the union of the inputs' null masks (nil if none).
func orNulls(n int, vs ...*engine.Vec) []bool {
	var out []bool
	for _, v := range vs {
		if v.Null == nil {
			continue
		}
		if out == nil {
			out = make([]bool, n)
		}
		for i, b := range v.Null {
			out[i] = out[i] || b
		}
	}
	return out
}

func evalArgs(ctx context.Context, args []engine.Expr, in *engine.Batch) ([]*engine.Vec, error) {
	out := make([]*engine.Vec, len(args))
	for i, a := range args {
		v, err := Eval(ctx, a, in)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

func evalCall(ctx context.Context, e *engine.Call, in *engine.Batch) (*engine.Vec, error) {
	switch e.Op {
	case engine.OpAnd, engine.OpOr:
		return evalLogic(ctx, e, in)
	case engine.OpEq, engine.OpNe, engine.OpLt, engine.OpLe, engine.OpGt, engine.OpGe:
		// column op constant, the common filter shape: no broadcast
		if c, ok := e.Args[1].(*engine.Const); ok {
			a, err := Eval(ctx, e.Args[0], in)
			if err != nil {
				return nil, err
			}
			return compareConst(e.Op, a, c, in.N), nil
		}
		if c, ok := e.Args[0].(*engine.Const); ok {
			b, err := Eval(ctx, e.Args[1], in)
			if err != nil {
				return nil, err
			}
			return compareConst(e.Op.Mirrored(), b, c, in.N), nil
		}
	}
	if e.Op == engine.OpAdd || e.Op == engine.OpSub || e.Op == engine.OpMul {
		if out, ok, err := evalDecArith(ctx, e, in); ok {
			return out, err
		}
	}
	if e.Op == engine.OpLike || e.Op == engine.OpILike {
		if out, ok, err := evalLikeConst(ctx, e, in); ok {
			return out, err
		}
	}
	if e.Op == engine.OpExtract {
		if out, ok, err := evalExtractDate(ctx, e, in); ok {
			return out, err
		}
	}
	args, err := evalArgs(ctx, e.Args, in)
	if err != nil {
		return nil, err
	}
	n := in.N
	switch e.Op {
	case engine.OpAdd, engine.OpSub, engine.OpMul, engine.OpDiv, engine.OpMod:
		if engine.PhysOf(e.T.Kind) == engine.PhysDec && e.Op != engine.OpDiv && e.Op != engine.OpMod &&
			args[0].D != nil && args[1].D != nil {
			return decArith(e.Op, e.T, args[0], args[1], nil, nil, n)
		}
		return arith(e.Op, e.T, args[0], args[1], n)
	case engine.OpNeg:
		return negate(e.T, args[0], n)
	case engine.OpEq, engine.OpNe, engine.OpLt, engine.OpLe, engine.OpGt, engine.OpGe:
		return compare(e.Op, args[0], args[1], n), nil
	case engine.OpNot:
		out := engine.NewVec(engine.Bool, n)
		out.Null = copyNulls(args[0].Null)
		for i, x := range args[0].I {
			out.I[i] = 1 - x
		}
		return out, nil
	case engine.OpIsNull, engine.OpIsNotNull:
		out := engine.NewVec(engine.Bool, n)
		want := e.Op == engine.OpIsNull
		for i := 0; i < n; i++ {
			if args[0].IsNull(i) == want {
				out.I[i] = 1
			}
		}
		return out, nil
	case engine.OpIsTrue, engine.OpIsFalse:
		out := engine.NewVec(engine.Bool, n)
		want := int64(0)
		if e.Op == engine.OpIsTrue {
			want = 1
		}
		for i := 0; i < n; i++ {
			if !args[0].IsNull(i) && args[0].I[i] == want {
				out.I[i] = 1
			}
		}
		return out, nil
	case engine.OpIsDistinct:
		eq := compare(engine.OpEq, args[0], args[1], n)
		out := engine.NewVec(engine.Bool, n)
		for i := 0; i < n; i++ {
			an, bn := args[0].IsNull(i), args[1].IsNull(i)
			switch {
			case an && bn:
			case an != bn:
				out.I[i] = 1
			default:
				out.I[i] = 1 - eq.I[i]
			}
		}
		return out, nil
	case engine.OpIn:
		return evalIn(args, n), nil
	case engine.OpLike, engine.OpILike:
		return evalLike(e, args, n)
	case engine.OpRegexMatch:
		return evalRegex(args, n)
	case engine.OpCast:
		if len(args) == 2 {
			return evalCastZone(e, args, n)
		}
		return Cast(args[0], e.T)
	case engine.OpLength, engine.OpUpper, engine.OpLower, engine.OpSubstr, engine.OpConcat, engine.OpPadChar:
		return evalString(e, args, n)
	case engine.OpExtract:
		return evalExtractTime(e, args, n)
	case engine.OpDateAddInt, engine.OpDateSubInt, engine.OpDateDiff, engine.OpTsAddIntv, engine.OpTsSubIntv,
		engine.OpTsDiff, engine.OpIntvAdd, engine.OpIntvSub, engine.OpIntvNeg:
		if len(args) == 3 {
			return evalTstzAddInterval(e, args, n)
		}
		return evalDatetime(e, args, n)
	case engine.OpAbs:
		return evalAbs(e.T, args[0], n)
	case engine.OpRound:
		return evalRound(e, args, n)
	case engine.OpCoalesce:
		out := cloneVec(args[0])
		for _, a := range args[1:] {
			if out.Null == nil {
				break
			}
			for i := 0; i < n; i++ {
				if out.Null[i] && !a.IsNull(i) {
					copySlot(out, i, a, i)
					out.Null[i] = false
				}
			}
		}
		return out, nil
	case engine.OpNullIf:
		eq := compare(engine.OpEq, args[0], args[1], n)
		out := cloneVec(args[0])
		for i := 0; i < n; i++ {
			if !eq.IsNull(i) && eq.I[i] == 1 {
				out.SetNull(i)
			}
		}
		return out, nil
	}
	if e.Op >= engine.OpAtTimeZone {
		return evalTimeMath(ctx, e, args, n) // timefunc.go, mathfunc.go
	}
	return nil, engine.Errorf(engine.CodeInternalError, "eval: unsupported operator %s", e.Op)
}

func copyNulls(n []bool) []bool {
	if n == nil {
		return nil
	}
	return append([]bool(nil), n...)
}

// cloneVec copies v's slots and nulls (string bytes are shared).
func cloneVec(v *engine.Vec) *engine.Vec {
	out := &engine.Vec{T: v.T, N: v.N, Null: copyNulls(v.Null)}
	switch {
	case v.I != nil:
		out.I = append([]int64(nil), v.I...)
	case v.F != nil:
		out.F = append([]float64(nil), v.F...)
	case v.D != nil:
		out.D = append([]engine.Dec(nil), v.D...)
	case v.S != nil:
		out.S = append([][]byte(nil), v.S...)
	case v.V != nil:
		out.V = append([]engine.IntervalVal(nil), v.V...)
	default:
		*out = *engine.NewVec(v.T, v.N)
		out.Null = copyNulls(v.Null)
	}
	return out
}

func copySlot(dst *engine.Vec, i int, src *engine.Vec, j int) {
	switch engine.PhysOf(dst.T.Kind) {
	case engine.PhysInt:
		dst.I[i] = src.I[j]
	case engine.PhysFloat:
		dst.F[i] = src.F[j]
	case engine.PhysDec:
		dst.D[i] = src.D[j]
	case engine.PhysStr:
		dst.S[i] = src.S[j]
	case engine.PhysInterval:
		dst.V[i] = src.V[j]
	}
}

// evalLogic is three-valued AND/OR: false AND NULL is false, true OR NULL
// is true. The right operand is evaluated only on the rows the left one
// leaves undecided, so a guard such as `x <> 0 AND 10/x > 1` protects the
// right side as PostgreSQL's left-to-right evaluation does.
func evalLogic(ctx context.Context, e *engine.Call, in *engine.Batch) (*engine.Vec, error) {
	a, err := Eval(ctx, e.Args[0], in)
	if err != nil {
		return nil, err
	}
	n := in.N
	and := e.Op == engine.OpAnd
	out := engine.NewVec(engine.Bool, n)
	// decided: the left value alone fixes the result (false for AND, true
	// for OR).
	var rest []int32
	for i := 0; i < n; i++ {
		an := a.IsNull(i)
		av := !an && a.I[i] != 0
		switch {
		case and && !an && !av:
			out.I[i] = 0
		case !and && av:
			out.I[i] = 1
		default:
			rest = append(rest, int32(i))
		}
	}
	if len(rest) == 0 {
		return out, nil
	}
	// The right operand sees only the undecided rows, unless it cannot
	// fail: then evaluating it everywhere is cheaper than gathering.
	sub, full := in, !CanFail(e.Args[1])
	if !full {
		sub = gatherFor(in, rest, e.Args[1])
	}
	b, err := Eval(ctx, e.Args[1], sub)
	if err != nil {
		return nil, err
	}
	for k, i := range rest {
		if full {
			k = int(i)
		}
		an := a.IsNull(int(i))
		bn := b.IsNull(k)
		bv := !bn && b.I[k] != 0
		if and {
			// left is true or NULL here
			switch {
			case !bn && !bv:
				out.I[i] = 0
			case an || bn:
				out.SetNull(int(i))
			default:
				out.I[i] = 1
			}
		} else {
			// left is false or NULL here
			switch {
			case bv:
				out.I[i] = 1
			case an || bn:
				out.SetNull(int(i))
			default:
				out.I[i] = 0
			}
		}
	}
	return out, nil
}

// evalCase evaluates each branch only on the rows that reach it, so that a
// guarded division by zero in an untaken branch raises no error.
func evalCase(ctx context.Context, e *engine.Case, in *engine.Batch) (*engine.Vec, error) {
	return EvalCaseInto(ctx, e, in, nil)
}

// evalCond is Eval of a CASE condition, a comparison of an expression
// with a constant written into buf's storage.
func evalCond(ctx context.Context, c engine.Expr, in *engine.Batch, buf *CaseBuf) (*engine.Vec, error) {
	if e, ok := c.(*engine.Call); ok && len(e.Args) == 2 {
		switch e.Op {
		case engine.OpEq, engine.OpNe, engine.OpLt, engine.OpLe, engine.OpGt, engine.OpGe:
			if k, ok := e.Args[1].(*engine.Const); ok {
				a, err := Eval(ctx, e.Args[0], in)
				if err != nil {
					return nil, err
				}
				buf.cond = compareConstInto(buf.cond, e.Op, a, k, in.N)
				return buf.cond, nil
			}
		}
	}
	return Eval(ctx, c, in)
}

// EvalCaseCond is Eval of condition c of a CASE over the whole of in, as
// EvalCaseInto computes its first condition, a comparison with a constant
// written into buf's storage: the result is good until the next call with
// buf. For a caller that adds a CASE's branches up without building its
// result.
func EvalCaseCond(ctx context.Context, c engine.Expr, in *engine.Batch, buf *CaseBuf) (*engine.Vec, error) {
	return evalCond(ctx, c, in, buf)
}

// CaseBuf is storage that EvalCaseInto reuses from one batch to the next:
// the result vector and the row lists.
type CaseBuf struct {
	out, cond           *engine.Vec
	pending, take, rest []int32
}

// rowsOf returns *s emptied, with room for n rows.
func rowsOf(s *[]int32, n int) []int32 {
	if cap(*s) < n {
		*s = make([]int32, 0, n)
	}
	return (*s)[:0]
}

// EvalCaseInto is CASE e over in, with its result and scratch kept in buf
// (nil: fresh storage), for a caller that is done with the result before
// its next call with the same buf.
func EvalCaseInto(ctx context.Context, e *engine.Case, in *engine.Batch, buf *CaseBuf) (*engine.Vec, error) {
	n := in.N
	var out *engine.Vec
	if buf == nil {
		buf = &CaseBuf{}
		out = engine.NewVec(e.T, n)
		out.Null = make([]bool, n)
	} else {
		nulls := buf.out != nil && cap(buf.out.Null) >= n
		var null []bool
		if nulls {
			null = buf.out.Null[:n]
		}
		out = reuseVec(buf.out, e.T, n)
		if out == buf.out {
			// a NULL's slot stays zero, as in a new vector
			switch {
			case out.I != nil:
				clear(out.I)
			case out.F != nil:
				clear(out.F)
			case out.D != nil:
				clear(out.D)
			case out.S != nil:
				clear(out.S)
			case out.V != nil:
				clear(out.V)
			}
		}
		if nulls {
			clear(null)
			out.Null = null
		} else {
			out.Null = make([]bool, n)
		}
		buf.out = out
	}
	pending := rowsOf(&buf.pending, n)[:n]
	for i := range pending {
		pending[i] = int32(i)
	}
	branch := func(r engine.Expr, rows []int32) error {
		if len(rows) == 0 {
			return nil
		}
		// A constant or a column is copied straight to the rows; anything
		// else is evaluated on those rows of the columns it reads.
		switch r := r.(type) {
		case *engine.Const:
			putRows(out, rows, Broadcast(r, 1), false)
			return nil
		case *engine.ColRef:
			if r.Idx >= 0 && r.Idx < len(in.Cols) && in.Cols[r.Idx] != nil {
				putRows(out, rows, in.Cols[r.Idx], true)
				return nil
			}
		}
		if 2*len(rows) >= n && !CanFail(r) {
			// most rows take it and it cannot fail: computing it on the
			// whole batch costs less than gathering its columns
			v, err := Eval(ctx, r, in)
			if err != nil {
				return err
			}
			putRows(out, rows, v, true)
			return nil
		}
		v, err := Eval(ctx, r, gatherFor(in, rows, r))
		if err != nil {
			return err
		}
		for k, i := range rows {
			if v.IsNull(k) {
				out.Null[i] = true
			} else {
				copySlot(out, int(i), v, k)
			}
		}
		return nil
	}
	for w, c := range e.Conds {
		if len(pending) == 0 {
			break
		}
		// (on the whole batch, as a branch, where that is safe and most
		// rows are still pending: then cv's row i is row i)
		whole := 2*len(pending) >= n && !CanFail(c)
		sub := in
		if !whole {
			sub = gatherFor(in, pending, c)
		}
		cv, err := evalCond(ctx, c, sub, buf)
		if err != nil {
			return nil, err
		}
		take, rest := rowsOf(&buf.take, len(pending)), rowsOf(&buf.rest, len(pending))
		for k, i := range pending {
			if whole {
				k = int(i)
			}
			if !cv.IsNull(k) && cv.I[k] != 0 {
				take = append(take, i)
			} else {
				rest = append(rest, i)
			}
		}
		if err := branch(e.Results[w], take); err != nil {
			return nil, err
		}
		// rest is the new pending; the next rest takes the old one's storage
		pending = rest
		buf.pending, buf.rest = buf.rest, buf.pending
	}
	if err := branch(e.Else, pending); err != nil {
		return nil, err
	}
	return out, nil
}

// gatherBatch selects rows of a batch. With all rows selected in order it
// returns the batch itself.
func gatherBatch(in *engine.Batch, rows []int32) *engine.Batch {
	if len(rows) == in.N {
		same := true
		for k, i := range rows {
			if int(i) != k {
				same = false
				break
			}
		}
		if same {
			return in
		}
	}
	out := &engine.Batch{N: len(rows), Cols: make([]*engine.Vec, len(in.Cols))}
	for c, v := range in.Cols {
		if v != nil {
			out.Cols[c] = v.Gather(rows)
		}
	}
	return out
}

// gatherFor is gatherBatch of only the columns e reads: the others are
// nil in the result.
func gatherFor(in *engine.Batch, rows []int32, e engine.Expr) *engine.Batch {
	if isPrefixIota(rows, in.N) {
		return in
	}
	return gatherUsed(in, rows, []engine.Expr{e})
}

// isPrefixIota says whether rows is 0, 1, …, n-1.
func isPrefixIota(rows []int32, n int) bool {
	if len(rows) != n {
		return false
	}
	for k, i := range rows {
		if int(i) != k {
			return false
		}
	}
	return true
}

// putRows writes src's values to dst's rows: src's row i to row i when
// aligned, else src's row 0 to every row (a one-row constant). A NULL sets
// dst.Null (which must not be nil) and leaves the slot as it was.
func putRows(dst *engine.Vec, rows []int32, src *engine.Vec, aligned bool) {
	if src.Null != nil {
		for _, i := range rows {
			k := i
			if !aligned {
				k = 0
			}
			if src.Null[k] {
				dst.Null[i] = true
			} else {
				copySlot(dst, int(i), src, int(k))
			}
		}
		return
	}
	if aligned {
		switch engine.PhysOf(dst.T.Kind) {
		case engine.PhysInt:
			for _, i := range rows {
				dst.I[i] = src.I[i]
			}
		case engine.PhysDec:
			for _, i := range rows {
				dst.D[i] = src.D[i]
			}
		default:
			for _, i := range rows {
				copySlot(dst, int(i), src, int(i))
			}
		}
		return
	}
	switch engine.PhysOf(dst.T.Kind) {
	case engine.PhysInt:
		x := src.I[0]
		for _, i := range rows {
			dst.I[i] = x
		}
	case engine.PhysDec:
		x := src.D[0]
		for _, i := range rows {
			dst.D[i] = x
		}
	default:
		for _, i := range rows {
			copySlot(dst, int(i), src, 0)
		}
	}
}

// GatherBatch is gatherBatch for other packages.
func GatherBatch(in *engine.Batch, rows []int32) *engine.Batch { return gatherBatch(in, rows) }

func intRange(k engine.Kind) (lo, hi int64, name string) {
	switch k {
	case engine.KindInt16:
		return math.MinInt16, math.MaxInt16, "smallint"
	case engine.KindInt32:
		return math.MinInt32, math.MaxInt32, "integer"
	}
	return math.MinInt64, math.MaxInt64, "bigint"
}

func outOfRange(name string) error {
	return engine.Errorf(engine.CodeNumericValueOutOfRange, "%s out of range", name)
}

var errDivZero = engine.Errorf(engine.CodeDivisionByZero, "division by zero")

func numericOverflow() error {
	return engine.Errorf(engine.CodeNumericValueOutOfRange, "value overflows numeric format")
}

func arith(op engine.Op, t engine.Type, a, b *engine.Vec, n int) (*engine.Vec, error) {
	out := engine.NewVec(t, n)
	out.Null = orNulls(n, a, b)
	null := func(i int) bool { return out.Null != nil && out.Null[i] }
	switch engine.PhysOf(t.Kind) {
	case engine.PhysInt:
		lo, hi, name := intRange(t.Kind)
		for i := 0; i < n; i++ {
			if null(i) {
				continue
			}
			x, y := a.I[i], b.I[i]
			var r int64
			switch op {
			case engine.OpAdd:
				r = x + y
				if (x >= 0) == (y >= 0) && (r >= 0) != (x >= 0) {
					return nil, outOfRange(name)
				}
			case engine.OpSub:
				r = x - y
				if (x >= 0) != (y >= 0) && (r >= 0) != (x >= 0) {
					return nil, outOfRange(name)
				}
			case engine.OpMul:
				h, l := bits.Mul64(uint64(abs(x)), uint64(abs(y)))
				if h != 0 || l > math.MaxInt64 && !(l == 1<<63 && (x < 0) != (y < 0)) {
					return nil, outOfRange(name)
				}
				r = x * y
			case engine.OpDiv:
				if y == 0 {
					return nil, errDivZero
				}
				if y == -1 {
					if x == lo {
						return nil, outOfRange(name)
					}
					r = -x
				} else {
					r = x / y
				}
			case engine.OpMod:
				if y == 0 {
					return nil, errDivZero
				}
				if y == -1 {
					r = 0
				} else {
					r = x % y
				}
			}
			if r < lo || r > hi {
				return nil, outOfRange(name)
			}
			out.I[i] = r
		}
	case engine.PhysFloat:
		for i := 0; i < n; i++ {
			if null(i) {
				continue
			}
			x, y := a.F[i], b.F[i]
			var r float64
			switch op {
			case engine.OpAdd:
				r = x + y
			case engine.OpSub:
				r = x - y
			case engine.OpMul:
				r = x * y
			case engine.OpDiv:
				if y == 0 {
					return nil, errDivZero
				}
				r = x / y
			default:
				return nil, engine.Errorf(engine.CodeUndefinedFunction, "operator does not exist: double precision %% double precision")
			}
			if t.Kind == engine.KindFloat32 {
				r = float64(float32(r))
			}
			if math.IsInf(r, 0) && !math.IsInf(x, 0) && !math.IsInf(y, 0) {
				return nil, engine.Errorf(engine.CodeNumericValueOutOfRange, "value out of range: overflow")
			}
			if r == 0 && x != 0 && (op == engine.OpMul && y != 0 || op == engine.OpDiv) && !math.IsInf(y, 0) {
				return nil, engine.Errorf(engine.CodeNumericValueOutOfRange, "value out of range: underflow")
			}
			out.F[i] = r
		}
	case engine.PhysDec:
		for i := 0; i < n; i++ {
			if null(i) {
				continue
			}
			x, y := a.D[i], b.D[i]
			var r engine.Dec
			ok := true
			switch op {
			case engine.OpAdd:
				r, ok = engine.DecAdd(x, y)
			case engine.OpSub:
				r, ok = engine.DecSub(x, y)
			case engine.OpMul:
				r, ok = engine.DecMul(x, y)
			case engine.OpDiv:
				if y.Sign() == 0 {
					return nil, errDivZero
				}
				r, ok = engine.DecDiv(x, y)
			case engine.OpMod:
				if y.Sign() == 0 {
					return nil, errDivZero
				}
				r, ok = engine.DecMod(x, y)
			}
			if !ok {
				return nil, numericOverflow()
			}
			out.D[i] = r
		}
	default:
		return nil, engine.Errorf(engine.CodeInternalError, "arithmetic on %s", t)
	}
	return out, nil
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

func negate(t engine.Type, a *engine.Vec, n int) (*engine.Vec, error) {
	out := engine.NewVec(t, n)
	out.Null = copyNulls(a.Null)
	switch engine.PhysOf(t.Kind) {
	case engine.PhysInt:
		lo, _, name := intRange(t.Kind)
		for i, x := range a.I {
			if x == lo && !a.IsNull(i) {
				return nil, outOfRange(name)
			}
			out.I[i] = -x
		}
	case engine.PhysFloat:
		for i, x := range a.F {
			out.F[i] = -x
		}
	case engine.PhysDec:
		for i, x := range a.D {
			r, ok := x.Neg()
			if !ok {
				return nil, numericOverflow()
			}
			out.D[i] = r
		}
	case engine.PhysInterval:
		for i, x := range a.V {
			out.V[i] = engine.IntervalVal{Months: -x.Months, Days: -x.Days, Micros: -x.Micros}
		}
	}
	return out, nil
}

func evalAbs(t engine.Type, a *engine.Vec, n int) (*engine.Vec, error) {
	out := cloneVec(a)
	for i := 0; i < n; i++ {
		if a.IsNull(i) {
			continue
		}
		switch engine.PhysOf(t.Kind) {
		case engine.PhysInt:
			lo, _, name := intRange(t.Kind)
			if a.I[i] == lo {
				return nil, outOfRange(name)
			}
			out.I[i] = abs(a.I[i])
		case engine.PhysFloat:
			out.F[i] = math.Abs(a.F[i])
		case engine.PhysDec:
			if a.D[i].Sign() < 0 {
				out.D[i], _ = a.D[i].Neg()
			}
		}
	}
	return out, nil
}

// CompareSlot compares row i of a with row j of b (same type, not NULL).
func CompareSlot(a *engine.Vec, i int, b *engine.Vec, j int) int {
	switch engine.PhysOf(a.T.Kind) {
	case engine.PhysInt:
		return cmpInt(a.I[i], b.I[j])
	case engine.PhysFloat:
		return CmpFloat(a.F[i], b.F[j])
	case engine.PhysDec:
		return engine.DecCmp(a.D[i], b.D[j])
	case engine.PhysStr:
		return bytes.Compare(a.S[i], b.S[j])
	case engine.PhysInterval:
		return cmpInterval(a.V[i], b.V[j])
	}
	return 0
}

func cmpInt(x, y int64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// CmpFloat orders floats as PostgreSQL does: NaN equals NaN and sorts
// above every other value.
func CmpFloat(x, y float64) int {
	xn, yn := x != x, y != y
	switch {
	case xn && yn:
		return 0
	case xn:
		return 1
	case yn:
		return -1
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

func cmpInterval(a, b engine.IntervalVal) int {
	ad, au := a.Span()
	bd, bu := b.Span()
	if c := cmpInt(ad, bd); c != 0 {
		return c
	}
	return cmpInt(au, bu)
}

// evalIn: true if any list item equals x; else NULL if x or any item is
// NULL; else false.
func evalIn(args []*engine.Vec, n int) *engine.Vec {
	x := args[0]
	out := engine.NewVec(engine.Bool, n)
	for i := 0; i < n; i++ {
		if x.IsNull(i) {
			out.SetNull(i)
			continue
		}
		sawNull := false
		found := false
		for _, item := range args[1:] {
			if item.IsNull(i) {
				sawNull = true
				continue
			}
			if CompareSlot(x, i, item, i) == 0 {
				found = true
				break
			}
		}
		switch {
		case found:
			out.I[i] = 1
		case sawNull:
			out.SetNull(i)
		}
	}
	return out
}
