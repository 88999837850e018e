package gpu

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// These tests run without a GPU: the plan rewrite of host steps (which
// functions step, under which guard, in which order, with what in their
// place) and the host half of a step (distinct tuples, batches, errors).

var (
	stepCols = []*Column{{Type: engine.Int32}, {Type: engine.Text, Width: 8}, {Type: engine.Bool}}
	cO       = &engine.ColRef{Idx: 0, Name: "o", T: engine.Int32}
	cR       = &engine.ColRef{Idx: 1, Name: "r", T: engine.Text}
	cB       = &engine.ColRef{Idx: 2, Name: "b", T: engine.Bool}
)

// hf is a host function without a kernel twin: it doubles its integer
// argument, failing on 13.
func hf(name string, args ...engine.Expr) *engine.HostFunc {
	return &engine.HostFunc{Name: name, Args: args, T: engine.Int32, Fn: func(a []*engine.Vec, n int) (*engine.Vec, error) {
		out := engine.NewVec(engine.Int32, n)
		for i := 0; i < n; i++ {
			switch {
			case a[0].IsNull(i):
				out.SetNull(i)
			case a[0].I[i] == 13:
				return nil, engine.Errorf(engine.CodeUndefinedObject, "unlucky %d", a[0].I[i])
			default:
				out.I[i] = 2 * a[0].I[i]
			}
		}
		return out, nil
	}}
}

func stepCall(op engine.Op, t engine.Type, args ...engine.Expr) *engine.Call {
	return &engine.Call{Op: op, Args: args, T: t}
}

func i32(v int64) *engine.Const { return &engine.Const{T: engine.Int32, I: v} }

// recordSteps rewrites p with a stepper that records each step as
// "name[rows: guard]" and puts a column reference in its place.
func recordSteps(t *testing.T, p *engine.Plan) ([]string, *engine.Plan) {
	t.Helper()
	var got []string
	s := &stepper{cols: stepCols}
	s.step = func(h *engine.HostFunc, guard engine.Expr) (engine.Expr, error) {
		g := "all"
		if guard != nil {
			g = guard.String()
		}
		rows := "every row"
		if s.filter != nil {
			rows = s.filter.String()
		}
		if s.limit >= 0 {
			rows += fmt.Sprintf(" limit %d", s.limit)
		}
		got = append(got, fmt.Sprintf("%s[%s: %s]", h, rows, g))
		ref := &engine.ColRef{Idx: len(s.cols), Name: h.Name, T: h.T}
		s.cols = append(s.cols[:len(s.cols):len(s.cols)], &Column{Type: h.T})
		return ref, nil
	}
	q, err := s.rewrite(p)
	if err != nil {
		t.Fatal(err)
	}
	return got, q
}

func TestHostStepRewrite(t *testing.T) {
	gt := stepCall(engine.OpGt, engine.Bool, cO, i32(0))
	eqF := stepCall(engine.OpEq, engine.Bool, hf("f", cO), i32(4))
	cases := []struct {
		name  string
		plan  *engine.Plan
		steps []string
		after string // the rewritten plan's device expressions
	}{{
		name:  "select list and WHERE",
		plan:  &engine.Plan{Filter: eqF, Project: []engine.Expr{hf("g", cO)}, Limit: -1},
		steps: []string{"f(#0(o))[every row: all]", "g(#0(o))[eq(#3(f), '4'::integer): all]"},
		after: "eq(#3(f), '4'::integer) #4(g)",
	}, {
		name: "CASE branches and conditions",
		plan: &engine.Plan{Project: []engine.Expr{&engine.Case{
			Conds: []engine.Expr{gt, eqF}, Results: []engine.Expr{hf("g", cO), hf("h", cO)}, Else: hf("k", cO), T: engine.Int32}}, Limit: -1},
		steps: []string{
			"g(#0(o))[every row: is_true(gt(#0(o), '0'::integer))]",
			"f(#0(o))[every row: not(is_true(gt(#0(o), '0'::integer)))]",
			"h(#0(o))[every row: and(not(is_true(gt(#0(o), '0'::integer))), is_true(eq(#4(f), '4'::integer)))]",
			"k(#0(o))[every row: and(not(is_true(gt(#0(o), '0'::integer))), not(is_true(eq(#4(f), '4'::integer))))]",
		},
	}, {
		name:  "AND and OR guard their right sides",
		plan:  &engine.Plan{Filter: stepCall(engine.OpAnd, engine.Bool, cB, stepCall(engine.OpOr, engine.Bool, gt, eqF)), Project: []engine.Expr{cO}, Limit: -1},
		steps: []string{"f(#0(o))[every row: and(not(is_false(#2(b))), not(is_true(gt(#0(o), '0'::integer))))]"},
	}, {
		name:  "nested: inner first, outer over its column; twins stay",
		plan:  &engine.Plan{Project: []engine.Expr{hf("g", hf("f", cO)), &engine.HostFunc{Name: "quote_ident", Args: []engine.Expr{cR}, T: engine.Text}}, Limit: -1},
		steps: []string{"f(#0(o))[every row: all]", "g(#3(f))[every row: all]"},
		after: "#4(g) quote_ident(#1(r))",
	}, {
		name:  "a twin that refuses its argument type steps",
		plan:  &engine.Plan{Project: []engine.Expr{&engine.HostFunc{Name: "btrim", Args: []engine.Expr{cO}, T: engine.Text}}, Limit: -1},
		steps: []string{"btrim(#0(o))[every row: all]"},
	}, {
		name:  "LIMIT without ORDER BY: the first rows passing WHERE",
		plan:  &engine.Plan{Filter: gt, Project: []engine.Expr{hf("f", cO)}, Limit: 5, Offset: 2},
		steps: []string{"f(#0(o))[gt(#0(o), '0'::integer) limit 7: all]"},
	}, {
		name: "aggregates: keys and arguments step, HAVING and the select list stay on the host",
		plan: &engine.Plan{Aggregate: true, Filter: gt, GroupBy: []engine.Expr{hf("f", cO)},
			Aggs:    []engine.AggCall{{Func: engine.AggSum, Arg: hf("g", cO), T: engine.Int64}, {Func: engine.AggCountStar, T: engine.Int64}},
			Having:  stepCall(engine.OpGt, engine.Bool, hf("h", cO), i32(1)),
			Project: []engine.Expr{hf("k", cO)}, Limit: -1},
		steps: []string{"f(#0(o))[gt(#0(o), '0'::integer): all]", "g(#0(o))[gt(#0(o), '0'::integer): all]"},
		after: "gt(#0(o), '0'::integer) #3(f) #4(g)",
	}, {
		name: "no host functions: the plan as it is",
		plan: &engine.Plan{Project: []engine.Expr{cO}, Limit: -1},
	}}
	for _, c := range cases {
		steps, q := recordSteps(t, c.plan)
		if strings.Join(steps, "\n") != strings.Join(c.steps, "\n") {
			t.Errorf("%s:\n got  %q\n want %q", c.name, steps, c.steps)
		}
		if c.steps == nil && q != c.plan {
			t.Errorf("%s: the plan was copied", c.name)
		}
		if c.after != "" {
			var es []string
			for _, e := range deviceExprs(q) {
				es = append(es, e.String())
			}
			if got := strings.Join(es, " "); got != c.after {
				t.Errorf("%s: rewritten to %s, want %s", c.name, got, c.after)
			}
		}
		if c.plan.Aggregate && (q.Having != c.plan.Having || q.Project[0] != c.plan.Project[0]) {
			t.Errorf("%s: HAVING or the select list changed", c.name)
		}
	}
}

func TestStepRows(t *testing.T) {
	f := stepCall(engine.OpGt, engine.Bool, cO, i32(0))
	for _, c := range []struct {
		filter, guard engine.Expr
		want          string
	}{
		{nil, nil, "<nil>"},
		{f, nil, "is_true(gt(#0(o), '0'::integer))"},
		{nil, cB, "#2(b)"},
		{f, cB, "and(is_true(gt(#0(o), '0'::integer)), #2(b))"},
	} {
		if got := fmt.Sprint(stepRows(c.filter, c.guard)); got != c.want {
			t.Errorf("stepRows(%v, %v) = %s, want %s", c.filter, c.guard, got, c.want)
		}
	}
}

func TestHostStepExplain(t *testing.T) {
	p := &engine.Plan{Data: &Table{Cols: stepCols}, Project: []engine.Expr{
		&engine.Case{Conds: []engine.Expr{cB}, Results: []engine.Expr{hf("f", cO)}, Else: i32(0), T: engine.Int32}}, Limit: -1}
	got := (&Backend{}).Explain(p)
	want := []string{"Host Step: f(#0(o)) where is_true(#2(b))"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestRunDistinct: Fn sees each distinct tuple once (NULLs and values of
// several arguments), stepBatch at a time, in the order of their first
// rows, and the first failing row's error is returned.
func TestRunDistinct(t *testing.T) {
	n := 3*stepBatch + 100
	a := engine.NewVec(engine.Int32, n)
	s := engine.NewVec(engine.Text, n)
	for i := 0; i < n; i++ {
		a.I[i] = int64(i % (2*stepBatch + 7))
		s.S[i] = [][]byte{[]byte("x"), {}, []byte("é")}[i%3]
		if i%11 == 0 {
			a.SetNull(i)
		}
	}
	var calls []int
	h := hf("f", cO, cR)
	fn := h.Fn
	h.Fn = func(args []*engine.Vec, m int) (*engine.Vec, error) {
		calls = append(calls, m)
		return fn(args, m)
	}
	args := &engine.Batch{N: n, Cols: []*engine.Vec{a, s}}
	res, which, err := runDistinct(context.Background(), h, args)
	if err == nil || err.Error() != "unlucky 13" {
		t.Fatalf("error %v, want unlucky 13", err)
	}
	a.SetNull(13)
	for i := range a.I {
		if a.I[i] == 13 {
			a.SetNull(i)
		}
	}
	calls = nil
	res, which, err = runDistinct(context.Background(), h, args)
	if err != nil {
		t.Fatal(err)
	}
	distinct := map[string]bool{}
	for i := 0; i < n; i++ {
		distinct[string(appendKey(appendKey(nil, a, i), s, i))] = true
		d := int(which[i])
		if a.IsNull(i) != res.IsNull(d) || !a.IsNull(i) && res.I[d] != 2*a.I[i] {
			t.Fatalf("row %d: got %v", i, res.I[d])
		}
	}
	if res.N != len(distinct) {
		t.Errorf("%d results for %d distinct tuples", res.N, len(distinct))
	}
	sum := 0
	for _, c := range calls {
		if c > stepBatch {
			t.Errorf("a batch of %d", c)
		}
		sum += c
	}
	if sum != len(distinct) || len(calls) != (len(distinct)+stepBatch-1)/stepBatch {
		t.Errorf("calls %v for %d distinct tuples", calls, len(distinct))
	}
}

// TestPutValue: results land in the device columns' layout.
func TestPutValue(t *testing.T) {
	for _, c := range []struct {
		t engine.Type
		v func(*engine.Vec)
		b string
	}{
		{engine.Bool, func(v *engine.Vec) { v.I[0] = 1 }, "[1 0]"},
		{engine.Int16, func(v *engine.Vec) { v.I[0] = -2 }, "[254 255 0 0]"},
		{engine.Int64, func(v *engine.Vec) { v.I[0] = 258 }, "[2 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0]"},
		{engine.Text, func(v *engine.Vec) { v.S[0] = []byte("ab") }, "[97 98 0 0 0 0 0 0]"},
	} {
		v := engine.NewVec(c.t, 1)
		c.v(v)
		col := engine.NewColumn(c.t, 2, 2, true)
		col.Valid[0] = 0
		putValue(col, 0, v, 0)
		if got := fmt.Sprint(hostBytes(col)); got != c.b || col.IsNull(0) || !col.IsNull(1) {
			t.Errorf("%s: %s, want %s", c.t, got, c.b)
		}
	}
}
