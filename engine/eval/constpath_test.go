package eval

import (
	"context"
	"math/rand"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// TestLikeConstMatchesGeneral: LIKE and ILIKE with a constant pattern and
// escape (evalLikeConst, the pattern read once, a char(n) value padded
// into scratch) give evalLike's values, NULLs and errors over the
// broadcast pattern and escape and the pad_char vector: patterns of every
// shape and of none, `_`, escapes (the default, another character, none,
// one at the end of the pattern), values with NULLs, empty values,
// multi-byte characters and the empty batch. A NULL or invalid constant
// escape, or a NULL pattern, is left to evalLike.
func TestLikeConstMatchesGeneral(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	alpha := []string{"a", "A", "b", "B", " ", "é", "É", "ab", "%", "_", "\\", "#"}
	word := func(k int) string {
		var b strings.Builder
		for i := 0; i < k; i++ {
			b.WriteString(alpha[rng.Intn(len(alpha))])
		}
		return b.String()
	}
	ctx := context.Background()
	const width = 6
	for _, n := range []int{0, 1, 257} {
		sv := engine.NewVec(char(width), n)
		for i := range sv.S {
			if i%9 == 4 {
				sv.SetNull(i)
				continue
			}
			sv.S[i] = []byte(word(rng.Intn(width + 1)))
		}
		in := batch(sv)
		if n == 0 {
			in = &engine.Batch{N: 0, Cols: []*engine.Vec{sv}}
		}
		padCall := call(engine.OpPadChar, engine.Text, col(0, char(width)))
		padded, err := evalString(padCall, []*engine.Vec{sv}, n)
		if err != nil {
			t.Fatal(err)
		}
		fast := 0
		for k := 0; k < 300; k++ {
			lit := word(1 + rng.Intn(3))
			pat := []string{"%" + lit + "%", lit + "%", "%" + lit, lit, "%%" + lit + "%%", lit + "_%", "_" + lit, "%" + lit + "\\", "ab  %", "a%b%"}[rng.Intn(10)]
			escs := []string{"\\", "#", "", "ab", "NULL"}
			esc := escs[rng.Intn(len(escs))]
			for _, op := range []engine.Op{engine.OpLike, engine.OpILike} {
				for _, pad := range []bool{false, true} {
					arg, argv := engine.Expr(col(0, char(width))), sv
					if pad {
						arg, argv = padCall, padded
					}
					escConst := ctext(esc)
					if esc == "NULL" {
						escConst = cnull(engine.Text)
					}
					e := call(op, engine.Bool, arg, ctext(pat), escConst)
					_, ok, _ := evalLikeConst(ctx, e, in)
					if ok != (esc == "\\" || esc == "#" || esc == "") {
						t.Fatalf("%v %q escape %q: fast path %v", op, pat, esc, ok)
					}
					if ok {
						fast++
					}
					got, gerr := Eval(ctx, e, in)
					want, werr := evalLike(e, []*engine.Vec{argv, Broadcast(ctext(pat), n), Broadcast(escConst, n)}, n)
					if (gerr != nil) != (werr != nil) || gerr != nil && errText(gerr) != errText(werr) {
						t.Fatalf("%v %q escape %q pad %v: error %v, general %v", op, pat, esc, pad, gerr, werr)
					}
					if gerr != nil {
						continue
					}
					for i := 0; i < n; i++ {
						if cell(got, i) != cell(want, i) {
							t.Fatalf("%v %q escape %q pad %v, value %q: %s, general %s", op, pat, esc, pad, sv.S[i], cell(got, i), cell(want, i))
						}
					}
				}
			}
		}
		if fast == 0 {
			t.Fatal("no case took the constant-pattern path")
		}
	}
	// a NULL pattern is the general path's (all NULL)
	e := call(engine.OpLike, engine.Bool, col(0, engine.Text), cnull(engine.Text), ctext("\\"))
	if _, ok, _ := evalLikeConst(ctx, e, batch(engine.NewVec(engine.Text, 3))); ok {
		t.Fatal("NULL pattern took the constant path")
	}
	if got := evalRows(e, batch(engine.NewVec(engine.Text, 3))); got != "NULL,NULL,NULL" {
		t.Fatalf("NULL pattern: %s", got)
	}
}

// TestCaseMatchesRowByRow: CASE over a batch (branches that are constants
// or columns copied to their rows, others evaluated on the gathered
// columns they read) gives, row by row, the value of the first branch
// whose condition holds, computed on that row alone: integer, numeric and
// text results, NULL results and conditions, negative numbers, a guarded
// division by zero that must not fail, no row taking a branch, and the
// empty batch; and EvalCaseInto, batch after batch into the same storage,
// gives the same.
func TestCaseMatchesRowByRow(t *testing.T) {
	rng := rand.New(rand.NewSource(12))
	i4, num, tx := engine.Int32, engine.NumericType(15, 2), engine.Text
	mk := func(n int) *engine.Batch {
		a, d, s, z := engine.NewVec(i4, n), engine.NewVec(num, n), engine.NewVec(tx, n), engine.NewVec(i4, n)
		for i := 0; i < n; i++ {
			a.I[i] = rng.Int63n(21) - 10
			d.D[i] = engine.DecFromScaled(rng.Int63n(2_000_001)-1_000_000, 2)
			s.S[i] = []byte([]string{"R", "A", "N", "", "é"}[rng.Intn(5)])
			z.I[i] = rng.Int63n(3) - 1
			if rng.Intn(7) == 0 {
				a.SetNull(i)
			}
			if rng.Intn(9) == 0 {
				d.SetNull(i)
			}
			if rng.Intn(11) == 0 {
				s.SetNull(i)
			}
		}
		return batch(a, d, s, z)
	}
	A, D, S, Z := col(0, i4), col(1, num), col(2, tx), col(3, i4)
	gt := func(x, y engine.Expr) engine.Expr { return call(engine.OpGt, engine.Bool, x, y) }
	ne := func(x, y engine.Expr) engine.Expr { return call(engine.OpNe, engine.Bool, x, y) }
	eq := func(x, y engine.Expr) engine.Expr { return call(engine.OpEq, engine.Bool, x, y) }
	cases := []*engine.Case{
		{T: engine.Numeric, Conds: []engine.Expr{gt(D, cnum("0.05"))}, Results: []engine.Expr{cast(D, engine.Numeric)}, Else: cnum("0")},
		{T: engine.Numeric, Conds: []engine.Expr{gt(D, cnum("-0.05"))}, Results: []engine.Expr{cnum("7.25")}, Else: cnum("-1.50")},
		{T: i4, Conds: []engine.Expr{eq(S, ctext("R"))}, Results: []engine.Expr{ci4(1)}, Else: ci4(0)},
		{T: i4, Conds: []engine.Expr{eq(S, ctext("A"))}, Results: []engine.Expr{ci4(-3)}, Else: ci4(5)},
		{T: i4, Conds: []engine.Expr{gt(A, ci4(3)), gt(A, ci4(-3))}, Results: []engine.Expr{A, Z}, Else: cnull(i4)},
		{T: i4, Conds: []engine.Expr{ne(Z, ci4(0))}, Results: []engine.Expr{call(engine.OpDiv, i4, A, Z)}, Else: ci4(-1)},
		{T: tx, Conds: []engine.Expr{gt(A, ci4(0))}, Results: []engine.Expr{S}, Else: ctext("none")},
		{T: tx, Conds: []engine.Expr{gt(A, ci4(-8)), ne(S, ctext("R"))}, Results: []engine.Expr{call(engine.OpUpper, tx, S), call(engine.OpLower, tx, S)}, Else: call(engine.OpUpper, tx, ctext("x"))},
		{T: i4, Conds: []engine.Expr{gt(Z, ci4(-1)), gt(call(engine.OpDiv, i4, A, Z), ci4(2))}, Results: []engine.Expr{call(engine.OpAdd, i4, A, ci4(100)), A}, Else: call(engine.OpNeg, i4, A)},
		{T: tx, Conds: []engine.Expr{gt(A, ci4(100))}, Results: []engine.Expr{ctext("never")}, Else: S},
		{T: engine.Numeric, Conds: []engine.Expr{gt(A, ci4(0)), eq(S, ctext("A"))}, Results: []engine.Expr{cnull(engine.Numeric), D}, Else: call(engine.OpMul, engine.Numeric, D, cnum("-2"))},
	}
	ctx := context.Background()
	bufs := make([]CaseBuf, len(cases))
	for _, n := range []int{0, 1, 300, 17, 300} {
		in := mk(n)
		for ci, e := range cases {
			got, err := Eval(ctx, e, in)
			if err != nil {
				t.Fatalf("case %d: %v", ci, err)
			}
			// the same into storage reused from the batch before, which
			// is poisoned after each use
			reused, err := EvalCaseInto(ctx, e, in, &bufs[ci])
			if err != nil {
				t.Fatalf("case %d: %v", ci, err)
			}
			for i := 0; i < n; i++ {
				if cell(reused, i) != cell(got, i) || reused.N != n || len(reused.Null) != len(got.Null) {
					t.Fatalf("case %d row %d: reused %s, fresh %s", ci, i, cell(reused, i), cell(got, i))
				}
			}
			for i := range reused.Null {
				reused.Null[i] = i%2 == 0
			}
			for i := range reused.I {
				reused.I[i] = 999
			}
			for i := range reused.D {
				reused.D[i] = engine.DecFromInt(999)
			}
			for i := range bufs[ci].rest {
				bufs[ci].rest[i] = -5
			}
			for i := 0; i < n; i++ {
				row := gatherBatch(in, []int32{int32(i)})
				r := e.Else
				for w, c := range e.Conds {
					cv, err := Eval(ctx, c, row)
					if err != nil {
						t.Fatal(err)
					}
					if !cv.IsNull(0) && cv.I[0] != 0 {
						r = e.Results[w]
						break
					}
				}
				want, err := Eval(ctx, r, row)
				if err != nil {
					t.Fatalf("case %d row %d: %v", ci, i, err)
				}
				if cell(got, i) != cell(want, 0) {
					t.Fatalf("case %d row %d: %s, want %s", ci, i, cell(got, i), cell(want, 0))
				}
			}
		}
	}
}

// TestCastToUnconstrainedNumeric: a cast from numeric to numeric without
// a precision shares the values, and gives convertSlot's values and
// NULLs; one with a precision still rounds and checks the range.
func TestCastToUnconstrainedNumeric(t *testing.T) {
	n := 50
	v := engine.NewVec(engine.NumericType(15, 2), n)
	for i := range v.D {
		v.D[i] = engine.DecFromScaled(int64(i*i*37-20000), 2)
		if i%6 == 0 {
			v.SetNull(i)
		}
	}
	got, err := Cast(v, engine.Numeric)
	if err != nil {
		t.Fatal(err)
	}
	want := engine.NewVec(engine.Numeric, n)
	want.Null = copyNulls(v.Null)
	for i := 0; i < n; i++ {
		if !v.IsNull(i) {
			if err := convertSlot(want, i, v, i, engine.UTCZone); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i := 0; i < n; i++ {
		if cell(got, i) != cell(want, i) {
			t.Fatalf("row %d: %s, want %s", i, cell(got, i), cell(want, i))
		}
	}
	if got.T != engine.Numeric {
		t.Fatalf("type %v", got.T)
	}
	if got := evalRows(cast(col(0, engine.NumericType(15, 2)), engine.NumericType(3, 1)), batch(v)); !strings.HasPrefix(got, "ERROR 22003") {
		t.Fatalf("numeric(3,1): %s", got)
	}
	if CanFail(cast(col(0, engine.NumericType(15, 2)), engine.Numeric)) {
		t.Fatal("the cast to unconstrained numeric can fail")
	}
	if !CanFail(cast(col(0, engine.NumericType(15, 2)), engine.NumericType(3, 1))) || !CanFail(cast(col(0, engine.Float64), engine.Numeric)) {
		t.Fatal("a cast that can fail cannot")
	}
}

// TestExtractDateIntoReusesStorage: ExtractDateInto writing into one
// vector batch after batch (a batch with NULLs, then a shorter one
// without, then one too long for it) gives evalExtractTime's values each
// time, with no NULL or value left over from the batch before.
func TestExtractDateIntoReusesStorage(t *testing.T) {
	rng := rand.New(rand.NewSource(13))
	for _, rt := range []engine.Type{engine.Numeric, engine.Float64} {
		for _, field := range []string{"year", "month", "day", "quarter"} {
			fc := ctext(field)
			e := &engine.Call{Op: engine.OpExtract, T: rt, Args: []engine.Expr{fc, col(0, engine.Date)}}
			var buf *engine.Vec
			for bi, n := range []int{700, 300, 0, 900} {
				src := engine.NewVec(engine.Date, n)
				for i := range src.I {
					src.I[i] = rng.Int63n(2_000_000) - 1_000_000
					if bi == 0 && i%5 == 0 {
						src.SetNull(i)
					}
				}
				got, ok := ExtractDateInto(buf, e, src, n)
				if !ok {
					t.Fatal("not computed")
				}
				want, err := evalExtractTime(e, []*engine.Vec{Broadcast(fc, n), src}, n)
				if err != nil {
					t.Fatal(err)
				}
				if got.N != n {
					t.Fatalf("%d rows, want %d", got.N, n)
				}
				for i := 0; i < n; i++ {
					if cell(got, i) != cell(want, i) {
						t.Fatalf("%s batch %d row %d: %s, want %s", field, bi, i, cell(got, i), cell(want, i))
					}
				}
				if bi == 1 && got != buf {
					t.Fatal("storage not reused")
				}
				buf = got
			}
		}
	}
	// a date whose general path wraps is not computed here
	src := engine.NewVec(engine.Date, 2)
	src.I[1] = 2145042905
	e := &engine.Call{Op: engine.OpExtract, T: engine.Numeric, Args: []engine.Expr{ctext("year"), col(0, engine.Date)}}
	if _, ok := ExtractDateInto(nil, e, src, 2); ok {
		t.Fatal("wrapping date computed")
	}
}

// TestCompareConstStringsMatchCompare: a text column compared with a
// constant (equality by bytes.Equal, the other operators by
// bytes.Compare) gives compare's answer against the broadcast constant,
// over empty strings, prefixes, longer and shorter values and NULLs.
func TestCompareConstStringsMatchCompare(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	words := []string{"", "R", "RR", "A", "R ", "r", "RA", "AR", "\xff", "R\x00"}
	n := 500
	a := engine.NewVec(engine.Text, n)
	for i := range a.S {
		a.S[i] = []byte(words[rng.Intn(len(words))])
		if rng.Intn(6) == 0 {
			a.SetNull(i)
		}
	}
	for _, w := range words {
		c := &engine.Const{T: engine.Text, S: w}
		for _, op := range []engine.Op{engine.OpEq, engine.OpNe, engine.OpLt, engine.OpLe, engine.OpGt, engine.OpGe} {
			got := compareConst(op, a, c, n)
			want := compare(op, a, Broadcast(c, n), n)
			for i := 0; i < n; i++ {
				if got.IsNull(i) != want.IsNull(i) || !want.IsNull(i) && got.I[i] != want.I[i] {
					t.Fatalf("%q %v %q: %v (null %v), compare's %v (null %v)", a.S[i], op, w, got.I[i], got.IsNull(i), want.I[i], want.IsNull(i))
				}
			}
		}
	}
}
