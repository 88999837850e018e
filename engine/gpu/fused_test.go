package gpu

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/cuda"
	"github.com/gpusql/gpusql/engine"
)

// lineitem-like columns for generator tests (no device: data pointers
// stay nil; a non-nil Valid marks a nullable column).
func genCols(nullable bool) []*Column {
	n152 := engine.NumericType(15, 2)
	var valid *cuda.Buffer
	if nullable {
		valid = &cuda.Buffer{}
	}
	return []*Column{
		{Type: n152, Valid: valid}, // 0 quantity
		{Type: n152},               // 1 price
		{Type: n152, Valid: valid}, // 2 discount
		{Type: n152},               // 3 tax
		{Type: engine.Type{Kind: engine.KindChar, Len: 1}, Width: 4}, // 4 flag
		{Type: engine.Type{Kind: engine.KindChar, Len: 1}, Width: 4}, // 5 status
		{Type: engine.Date, Valid: valid},                            // 6 ship
		{Type: engine.Int32},                                         // 7 id
	}
}

func genStats(k int) (colStats, error) {
	return [...]colStats{{1, 5000, 10}, {0, 10_000_000, 10}, {0, 10, 10}, {0, 8, 10}, {}, {}, {8000, 11000, 10}, {-5, 1 << 30, 10}}[k], nil
}

func col(cs []*Column, k int) *engine.ColRef { return &engine.ColRef{Idx: k, T: cs[k].Type} }
func numc(v int64, scale int32) *engine.Const {
	return &engine.Const{T: engine.NumericType(15, 2), D: engine.DecFromScaled(v, int(scale))}
}
func call(op engine.Op, t engine.Type, args ...engine.Expr) *engine.Call {
	return &engine.Call{Op: op, T: t, Args: args}
}

func genPlans(cs []*Column) map[string]*engine.Plan {
	n := engine.Type{Kind: engine.KindNumeric}
	b := engine.Bool
	dateC := &engine.Const{T: engine.Date, I: 8766}
	q6 := &engine.Plan{
		Filter: call(engine.OpAnd, b,
			call(engine.OpAnd, b, call(engine.OpGe, b, col(cs, 6), dateC), call(engine.OpLt, b, col(cs, 6), &engine.Const{T: engine.Date, I: 9131})),
			call(engine.OpAnd, b, call(engine.OpGe, b, col(cs, 2), numc(5, 2)), call(engine.OpLt, b, col(cs, 0), numc(24, 0)))),
		Aggregate: true,
		Aggs:      []engine.AggCall{{Func: engine.AggSum, Arg: call(engine.OpMul, n, col(cs, 1), col(cs, 2)), T: n}},
	}
	one := numc(1, 0)
	disc := call(engine.OpMul, n, col(cs, 1), call(engine.OpSub, n, one, col(cs, 2)))
	q1 := &engine.Plan{
		Filter:    call(engine.OpLe, b, col(cs, 6), dateC),
		Aggregate: true,
		GroupBy:   []engine.Expr{col(cs, 4), col(cs, 5)},
		Aggs: []engine.AggCall{
			{Func: engine.AggSum, Arg: col(cs, 0), T: n},
			{Func: engine.AggSum, Arg: disc, T: n},
			{Func: engine.AggSum, Arg: call(engine.OpMul, n, disc, call(engine.OpAdd, n, one, col(cs, 3))), T: n},
			{Func: engine.AggAvg, Arg: col(cs, 2), T: n},
			{Func: engine.AggMin, Arg: col(cs, 6), T: engine.Date},
			{Func: engine.AggMax, Arg: col(cs, 7), T: engine.Int32},
			{Func: engine.AggCount, Arg: col(cs, 2), T: engine.Int64},
			{Func: engine.AggCountStar, T: engine.Int64},
		},
	}
	byInt := &engine.Plan{
		Aggregate: true,
		GroupBy:   []engine.Expr{call(engine.OpMod, engine.Int32, col(cs, 7), &engine.Const{T: engine.Int32, I: 7}), col(cs, 6)},
		Aggs:      []engine.AggCall{{Func: engine.AggSum, Arg: col(cs, 7), T: engine.Int64}},
	}
	return map[string]*engine.Plan{"q6": q6, "q1": q1, "byint": byInt}
}

// TestFusedGenerates checks that the generator accepts Q1/Q6-shaped plans
// (NOT NULL and nullable columns) and that ptxas, where installed,
// assembles what it writes for sm_80 and sm_90.
func TestFusedGenerates(t *testing.T) {
	ptxas, _ := exec.LookPath("ptxas")
	for _, nullable := range []bool{false, true} {
		cs := genCols(nullable)
		for name, p := range genPlans(cs) {
			assembleFused(t, fmt.Sprintf("%s nullable=%v", name, nullable), p, cs, ptxas)
		}
	}
}

// TestFusedPrecomputed checks that the generator accepts every kind of
// precomputed value (precomp.go) over NOT NULL and nullable columns, and
// that ptxas, where installed, assembles the result: a LIKE bitmap, a
// lookup by 1-byte codes with NULL entries, a group key of 2-byte codes,
// a numeric table over a date column's values, and a string-valued key
// numbered over a dictionary.
func TestFusedPrecomputed(t *testing.T) {
	ptxas, _ := exec.LookPath("ptxas")
	small := &colDict{cw: 1, vals: &engine.Vec{N: 3}}
	wide := &colDict{cw: 2, vals: &engine.Vec{N: 300}}
	for _, nullable := range []bool{false, true} {
		cs := genCols(nullable)
		cs[5].Valid = cs[0].Valid
		bits := &preExpr{p: &pre{kind: preBits, col: 5, lo: 0, hi: 1}, t: engine.Bool, name: "bits"}
		look := &preExpr{p: &pre{kind: preLookup, col: 4, dict: small, lo: 0, hi: 1, nulls: true}, t: engine.Int32, name: "look"}
		code := &preExpr{p: &pre{kind: preCode, col: 5, dict: wide, hi: 300}, t: cs[5].Type, name: "code"}
		label := &preExpr{p: &pre{kind: preLookup, col: 4, dict: small, lo: 0, hi: 2, keyVals: &engine.Vec{N: 3}}, t: engine.Text, name: "label"}
		year := &preExpr{p: &pre{kind: preRange, col: 6, base: 8000, span: 3001, lo: 1991, hi: 2000, nulls: nullable},
			t: engine.NumericType(15, 0), name: "year"}
		n := engine.Type{Kind: engine.KindNumeric}
		p := &engine.Plan{
			Filter:    call(engine.OpOr, engine.Bool, bits, call(engine.OpGt, engine.Bool, col(cs, 7), &engine.Const{T: engine.Int32, I: 5})),
			Aggregate: true,
			GroupBy:   []engine.Expr{code, year, label},
			Aggs: []engine.AggCall{
				{Func: engine.AggSum, Arg: look, T: engine.Int64},
				{Func: engine.AggSum, Arg: col(cs, 1), T: n},
				{Func: engine.AggCountStar, T: engine.Int64},
			},
		}
		assembleFused(t, fmt.Sprintf("precomputed nullable=%v", nullable), p, cs, ptxas)
	}
}

// TestFusedScaledSums checks that the generator takes sums over numerics
// whose scale varies by row (a CASE of a price and 0), extending each to
// the largest scale, and that ptxas assembles the kernel.
func TestFusedScaledSums(t *testing.T) {
	ptxas, _ := exec.LookPath("ptxas")
	n := engine.Type{Kind: engine.KindNumeric}
	cs := genCols(true)
	kase := &engine.Case{
		Conds:   []engine.Expr{call(engine.OpGe, engine.Bool, col(cs, 2), numc(5, 2)), call(engine.OpGt, engine.Bool, col(cs, 7), &engine.Const{T: engine.Int32, I: 7})},
		Results: []engine.Expr{call(engine.OpCast, n, col(cs, 1)), &engine.Const{T: n, D: engine.DecFromScaled(15, 1)}},
		Else:    &engine.Const{T: n, D: engine.DecFromScaled(0, 0)},
		T:       n,
	}
	p := &engine.Plan{
		Aggregate: true,
		GroupBy:   []engine.Expr{col(cs, 4)},
		Aggs:      []engine.AggCall{{Func: engine.AggSum, Arg: kase, T: n}, {Func: engine.AggAvg, Arg: kase, T: n}},
	}
	fk := assembleFused(t, "scaled sums", p, cs, ptxas)
	if fk.fitScale[0] != 2 || fk.fitScale[1] != 2 {
		t.Errorf("sums extended to scales %v, want 2 and 2", fk.fitScale)
	}
}

// assembleFused compiles plan p over cs, generates its fused kernel and
// assembles it with ptxas (when installed) for sm_80 and sm_90.
func assembleFused(t *testing.T, name string, p *engine.Plan, cs []*Column, ptxas string) *fusedKernel {
	t.Helper()
	prog := newProgram()
	c := &compiler{p: prog, cols: cs, fitMax: true}
	filter, mask := int32(-1), int32(0)
	if p.Filter != nil {
		f, err := c.compile(p.Filter, 0)
		if err != nil {
			t.Fatal(err)
		}
		filter = f.reg
		mask, _ = prog.emit(opIsTrue, f.reg, 0, 0, 0, 0)
	}
	var keys []val
	for _, e := range p.GroupBy {
		v, err := c.compile(e, mask)
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, v)
	}
	qa, _, err := compileAggs(c, p, mask)
	if err != nil {
		t.Fatal(err)
	}
	argKeys := make([]string, len(qa))
	for k, ag := range p.Aggs {
		if ag.Arg != nil {
			argKeys[k] = ag.Arg.String()
		}
	}
	for k := len(p.Aggs); k < len(qa); k++ {
		argKeys[k] = fmt.Sprintf("hidden %d", k)
	}
	fk, err := genFused(prog, filter, keys, qa, argKeys, 1000, cs, genStats)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if ptxas == "" {
		return fk
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "k.ptx")
	if err := os.WriteFile(src, []byte(fk.ptx), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, arch := range []string{"sm_80", "sm_90"} {
		out, err := exec.Command(ptxas, "-arch="+arch, "-v", "-o", filepath.Join(dir, "k.cubin"), src).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: ptxas %s: %v\n%s", name, arch, err, out)
		}
		if os.Getenv("FUSED_DUMP") != "" {
			t.Logf("%s %s:\n%s", name, arch, out)
		}
	}
	if os.Getenv("FUSED_DUMP") == name {
		t.Logf("%s", fk.ptx)
	}
	return fk
}

// TestFusedRefuses: ranges that may overflow 64 bits or a type's range,
// and divisions by ranges holding zero, go to the interpreter.
func TestFusedRefuses(t *testing.T) {
	cs := genCols(false)
	wide := func(k int) (colStats, error) {
		s, _ := genStats(k)
		if k == 1 {
			s.hi = 1 << 62
		}
		return s, nil
	}
	n := engine.Type{Kind: engine.KindNumeric}
	cases := map[string]struct {
		e     engine.Expr
		stats func(int) (colStats, error)
	}{
		"product beyond 64 bits": {call(engine.OpMul, n, col(cs, 1), col(cs, 1)), wide},
		"int32 overflow":         {call(engine.OpAdd, engine.Int32, col(cs, 7), col(cs, 7)), genStats},
		"division by zero range": {call(engine.OpDiv, engine.Int32, col(cs, 7), col(cs, 7)), genStats},
	}
	for name, tc := range cases {
		prog := newProgram()
		c := &compiler{p: prog, cols: cs}
		p := &engine.Plan{Aggregate: true, Aggs: []engine.AggCall{{Func: engine.AggSum, Arg: tc.e, T: n}}}
		qa, _, err := compileAggs(c, p, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := genFused(prog, -1, nil, qa, []string{"x"}, 1000, cs, tc.stats); !errors.Is(err, errNotFused) {
			t.Errorf("%s: generated (err %v)", name, err)
		}
	}
}

// TestFilterKernelAssembles generates the bitmap kernel of each plan's
// filter (the generated filters of filter.go), NOT NULL and nullable, and
// has ptxas, where installed, assemble it for sm_80 and sm_90.
func TestFilterKernelAssembles(t *testing.T) {
	ptxas, _ := exec.LookPath("ptxas")
	for _, nullable := range []bool{false, true} {
		cs := genCols(nullable)
		for name, p := range genPlans(cs) {
			if p.Filter == nil {
				continue
			}
			prog := newProgram()
			c := &compiler{p: prog, cols: cs, fitMax: true}
			f, err := c.compile(p.Filter, 0)
			if err != nil {
				t.Fatal(err)
			}
			fk, err := genFilterKernel(prog, f.reg, cs, genStats)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for _, want := range []string{"vote.sync.ballot.b32", "red.global.add.u32"} {
				if !strings.Contains(fk.ptx, want) {
					t.Errorf("%s: no %s in the kernel", name, want)
				}
			}
			if ptxas == "" {
				continue
			}
			src := filepath.Join(t.TempDir(), "f.ptx")
			if err := os.WriteFile(src, []byte(fk.ptx), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, arch := range []string{"sm_80", "sm_90"} {
				if out, err := exec.Command(ptxas, "-arch="+arch, "-o", src+".cubin", src).CombinedOutput(); err != nil {
					t.Fatalf("%s nullable=%v: ptxas %s: %v\n%s", name, nullable, arch, err, out)
				}
			}
		}
	}
}
