package eval

import (
	"context"
	"math/rand"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// selectByEval is the general path Select must agree with: the predicate
// evaluated as one expression, then its true rows.
func selectByEval(pred engine.Expr, in *engine.Batch) ([]int32, error) {
	v, err := Eval(context.Background(), pred, in)
	if err != nil {
		return nil, err
	}
	var sel []int32
	for i := 0; i < in.N; i++ {
		if !v.IsNull(i) && v.I[i] != 0 {
			sel = append(sel, int32(i))
		}
	}
	return sel, nil
}

// TestSelectMatchesEval compares Select's conjunct-at-a-time evaluation
// with evaluating the whole predicate, on random int columns with NULLs
// and conjunctions whose later conjuncts can fail (division by zero) on
// rows that earlier ones do or do not rule out: the rows and the errors
// must be the same.
func TestSelectMatchesEval(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	a, b, c := col(0, engine.Int32), col(1, engine.Int32), col(2, engine.Int32)
	lt := func(x, y engine.Expr) engine.Expr { return call(engine.OpLt, engine.Bool, x, y) }
	gt := func(x, y engine.Expr) engine.Expr { return call(engine.OpGt, engine.Bool, x, y) }
	and := func(x, y engine.Expr) engine.Expr { return call(engine.OpAnd, engine.Bool, x, y) }
	or := func(x, y engine.Expr) engine.Expr { return call(engine.OpOr, engine.Bool, x, y) }
	div := func(x, y engine.Expr) engine.Expr { return call(engine.OpDiv, engine.Int32, x, y) }
	preds := []engine.Expr{
		lt(a, ci4(50)),
		and(lt(a, ci4(10)), gt(b, ci4(-20))),
		and(and(lt(a, ci4(90)), gt(b, ci4(0))), lt(c, ci4(3))),
		// b = 0 only where a >= 5: the division runs only where a < 5
		and(lt(a, ci4(5)), gt(div(ci4(100), b), ci4(1))),
		// the left may be NULL where b = 0: then the division must fail
		and(lt(c, ci4(50)), gt(div(ci4(100), b), ci4(1))),
		and(or(lt(a, ci4(3)), gt(b, ci4(90))), and(gt(c, ci4(-50)), lt(div(a, ci4(7)), ci4(12)))),
		and(cnull(engine.Bool), lt(a, ci4(10))),
		and(and(gt(a, ci4(-1000)), gt(b, ci4(-1000))), gt(c, ci4(-1000))),
	}
	errs := 0
	for trial := 0; trial < 200; trial++ {
		n := 1 + rng.Intn(300)
		nullRate := []int{0, 5, 50}[trial%3]
		in := &engine.Batch{N: n}
		for k := 0; k < 3; k++ {
			v := engine.NewVec(engine.Int32, n)
			for i := range v.I {
				v.I[i] = int64(rng.Intn(200) - 100)
				if nullRate > 0 && rng.Intn(100) < nullRate {
					v.SetNull(i)
					v.I[i] = 0
				}
			}
			in.Cols = append(in.Cols, v)
		}
		// b is zero only on rows where a >= 5, or (in odd trials) also
		// where c is NULL
		for i := 0; i < n; i++ {
			if in.Cols[1].I[i] == 0 && !in.Cols[1].IsNull(i) {
				in.Cols[1].I[i] = 1
			}
			if in.Cols[0].I[i] >= 5 && rng.Intn(4) == 0 {
				in.Cols[1].I[i] = 0
			}
			if trial%2 == 1 && in.Cols[2].IsNull(i) && rng.Intn(2) == 0 {
				in.Cols[1].I[i] = 0
				if in.Cols[1].Null != nil {
					in.Cols[1].Null[i] = false
				}
			}
		}
		for p, pred := range preds {
			want, werr := selectByEval(pred, in)
			got, gerr := Select(context.Background(), pred, in)
			if (werr != nil) != (gerr != nil) || werr != nil && engine.Code(werr) != engine.Code(gerr) {
				t.Fatalf("trial %d pred %d (%s): error %v, want %v", trial, p, pred, gerr, werr)
			}
			if werr != nil {
				errs++
				continue
			}
			if len(got) != len(want) {
				t.Fatalf("trial %d pred %d (%s): %d rows, want %d", trial, p, pred, len(got), len(want))
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("trial %d pred %d (%s): row %d is %d, want %d", trial, p, pred, i, got[i], want[i])
				}
			}
		}
	}
	if errs == 0 {
		t.Fatal("no predicate raised an error: the failing paths went untested")
	}
}

// TestCanFailDateToTimestamp: the date to timestamp cast raises no error
// (Cast multiplies by a day's microseconds), so AND may run it on every
// row and Select need not gather before it; other casts can fail.
func TestCanFailDateToTimestamp(t *testing.T) {
	d := col(0, engine.Date)
	if CanFail(cast(d, engine.Timestamp)) {
		t.Error("date to timestamp cast reported as able to fail")
	}
	if !CanFail(cast(col(0, engine.Timestamp), engine.Date)) {
		t.Error("timestamp to date cast reported as unable to fail")
	}
	if !CanFail(cast(col(0, engine.Int64), engine.Int32)) {
		t.Error("bigint to integer cast reported as unable to fail")
	}
}
