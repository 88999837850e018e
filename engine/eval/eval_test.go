package eval

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// The expected values in this package's tests were produced by running the
// equivalent SQL on PostgreSQL 15.20 (C locale, UTF8), e.g.
// select (-7)::int4 / 2::int4, and copying psql -At's output. Errors are
// written "ERROR <SQLSTATE>: <message>", with " DETAIL: <detail>" where
// PostgreSQL gives one.

// ---- expression builders ----

func ci2(v int64) *engine.Const { return &engine.Const{T: engine.Int16, I: v} }
func ci4(v int64) *engine.Const { return &engine.Const{T: engine.Int32, I: v} }
func ci8(v int64) *engine.Const { return &engine.Const{T: engine.Int64, I: v} }
func cf8(f float64) *engine.Const {
	return &engine.Const{T: engine.Float64, F: f}
}
func cf4(f float32) *engine.Const {
	return &engine.Const{T: engine.Float32, F: float64(f)}
}
func cnum(s string) *engine.Const {
	d, ok := engine.ParseDecLiteral(s)
	if !ok {
		panic("bad numeric literal " + s)
	}
	return &engine.Const{T: engine.Numeric, D: d}
}
func ctext(s string) *engine.Const { return &engine.Const{T: engine.Text, S: s} }
func cbool(b bool) *engine.Const {
	c := &engine.Const{T: engine.Bool}
	if b {
		c.I = 1
	}
	return c
}
func cnull(t engine.Type) *engine.Const { return &engine.Const{T: t, Null: true} }
func cdate(days int64) *engine.Const    { return &engine.Const{T: engine.Date, I: days} }
func cts(us int64) *engine.Const        { return &engine.Const{T: engine.Timestamp, I: us} }
func civ(months, days int32, us int64) *engine.Const {
	return &engine.Const{T: engine.Interval, V: engine.IntervalVal{Months: months, Days: days, Micros: us}}
}

func call(op engine.Op, t engine.Type, args ...engine.Expr) *engine.Call {
	return &engine.Call{Op: op, Args: args, T: t}
}
func cast(x engine.Expr, t engine.Type) *engine.Call { return call(engine.OpCast, t, x) }
func col(i int, t engine.Type) *engine.ColRef {
	return &engine.ColRef{Idx: i, Name: "c", T: t}
}

func varchar(n int) engine.Type { return engine.Type{Kind: engine.KindVarchar, Len: n} }
func char(n int) engine.Type    { return engine.Type{Kind: engine.KindChar, Len: n} }

// ---- rendering ----

func errText(err error) string {
	e := engine.AsError(err)
	s := "ERROR " + e.Code + ": " + e.Message
	if e.Detail != "" {
		s += " DETAIL: " + e.Detail
	}
	return s
}

// cell renders row i of v as psql -At would, with NULL spelled NULL.
func cell(v *engine.Vec, i int) string {
	if v.IsNull(i) {
		return "NULL"
	}
	if v.T.Kind == engine.KindBool {
		if v.I[i] != 0 {
			return "t"
		}
		return "f"
	}
	return string(engine.AppendText(nil, v, i))
}

// eval1 evaluates e over a one-row batch without columns.
func eval1(e engine.Expr) string {
	v, err := Eval(context.Background(), e, &engine.Batch{N: 1})
	if err != nil {
		return errText(err)
	}
	if v.N != 1 {
		return "bad row count"
	}
	return cell(v, 0)
}

// evalRows evaluates e over batch in and renders every row.
func evalRows(e engine.Expr, in *engine.Batch) string {
	v, err := Eval(context.Background(), e, in)
	if err != nil {
		return errText(err)
	}
	if v.N != in.N {
		return "bad row count"
	}
	out := make([]string, v.N)
	for i := range out {
		out[i] = cell(v, i)
	}
	return strings.Join(out, ",")
}

type exprCase struct {
	sql  string // the PostgreSQL query that produced want
	e    engine.Expr
	want string
}

func runCases(t *testing.T, cases []exprCase) {
	t.Helper()
	for _, c := range cases {
		if got := eval1(c.e); got != c.want {
			t.Errorf("%s: got %q, want %q", c.sql, got, c.want)
		}
	}
}

// ---- column vectors with poisoned NULL slots ----
//
// NULL rows carry non-zero garbage in their data slots, so that code which
// reads a NULL row's slot without checking the mask gives itself away.

func ivec(t engine.Type, vals ...any) *engine.Vec {
	v := engine.NewVec(t, len(vals))
	for i, x := range vals {
		if x == nil {
			v.SetNull(i)
			v.I[i] = 1 // poison: true for booleans, non-zero for integers
			continue
		}
		switch x := x.(type) {
		case int:
			v.I[i] = int64(x)
		case bool:
			if x {
				v.I[i] = 1
			}
		}
	}
	return v
}

func svec(vals ...any) *engine.Vec {
	v := engine.NewVec(engine.Text, len(vals))
	for i, x := range vals {
		if x == nil {
			v.SetNull(i)
			v.S[i] = []byte("POISON")
			continue
		}
		v.S[i] = []byte(x.(string))
	}
	return v
}

func batch(cols ...*engine.Vec) *engine.Batch {
	return &engine.Batch{N: cols[0].N, Cols: cols}
}

// ---- arithmetic ----

func TestIntegerArithmetic(t *testing.T) {
	i4, i2, i8 := engine.Int32, engine.Int16, engine.Int64
	runCases(t, []exprCase{
		{"2147483647::int4 + 1::int4", call(engine.OpAdd, i4, ci4(2147483647), ci4(1)), "ERROR 22003: integer out of range"},
		{"(-2147483648)::int4 - 1::int4", call(engine.OpSub, i4, ci4(-2147483648), ci4(1)), "ERROR 22003: integer out of range"},
		{"32767::int2 + 1::int2", call(engine.OpAdd, i2, ci2(32767), ci2(1)), "ERROR 22003: smallint out of range"},
		{"(-32768)::int2 * (-1)::int2", call(engine.OpMul, i2, ci2(-32768), ci2(-1)), "ERROR 22003: smallint out of range"},
		{"(-32768)::int2 / (-1)::int2", call(engine.OpDiv, i2, ci2(-32768), ci2(-1)), "ERROR 22003: smallint out of range"},
		{"(-32768)::int2 - 1::int2", call(engine.OpSub, i2, ci2(-32768), ci2(1)), "ERROR 22003: smallint out of range"},
		{"9223372036854775807::int8 + 1::int8", call(engine.OpAdd, i8, ci8(math.MaxInt64), ci8(1)), "ERROR 22003: bigint out of range"},
		{"(-9223372036854775808)::int8 - 1::int8", call(engine.OpSub, i8, ci8(math.MinInt64), ci8(1)), "ERROR 22003: bigint out of range"},
		{"(-9223372036854775808)::int8 / (-1)::int8", call(engine.OpDiv, i8, ci8(math.MinInt64), ci8(-1)), "ERROR 22003: bigint out of range"},
		{"(-9223372036854775808)::int8 % (-1)::int8", call(engine.OpMod, i8, ci8(math.MinInt64), ci8(-1)), "0"},
		{"(-9223372036854775808)::int8 * (-1)::int8", call(engine.OpMul, i8, ci8(math.MinInt64), ci8(-1)), "ERROR 22003: bigint out of range"},
		{"(-9223372036854775808)::int8 * 1::int8", call(engine.OpMul, i8, ci8(math.MinInt64), ci8(1)), "-9223372036854775808"},
		{"(-2147483648)::int4 / (-1)::int4", call(engine.OpDiv, i4, ci4(-2147483648), ci4(-1)), "ERROR 22003: integer out of range"},
		{"(-2147483648)::int4 % (-1)::int4", call(engine.OpMod, i4, ci4(-2147483648), ci4(-1)), "0"},
		{"-((-2147483648)::int4)", call(engine.OpNeg, i4, ci4(-2147483648)), "ERROR 22003: integer out of range"},
		{"-((-32768)::int2)", call(engine.OpNeg, i2, ci2(-32768)), "ERROR 22003: smallint out of range"},
		{"abs((-2147483648)::int4)", call(engine.OpAbs, i4, ci4(-2147483648)), "ERROR 22003: integer out of range"},
		{"abs((-7)::int4)", call(engine.OpAbs, i4, ci4(-7)), "7"},
		{"65536::int4 * 32768::int4", call(engine.OpMul, i4, ci4(65536), ci4(32768)), "ERROR 22003: integer out of range"},
		{"65536::int4 * (-32768)::int4", call(engine.OpMul, i4, ci4(65536), ci4(-32768)), "-2147483648"},
		{"3037000500::int8 * 3037000500::int8", call(engine.OpMul, i8, ci8(3037000500), ci8(3037000500)), "ERROR 22003: bigint out of range"},
		{"(-3037000499)::int8 * 3037000499::int8", call(engine.OpMul, i8, ci8(-3037000499), ci8(3037000499)), "-9223372030926249001"},
		{"4294967296::int8 * 4294967296::int8", call(engine.OpMul, i8, ci8(4294967296), ci8(4294967296)), "ERROR 22003: bigint out of range"},
		{"1::int4 / 0::int4", call(engine.OpDiv, i4, ci4(1), ci4(0)), "ERROR 22012: division by zero"},
		{"1::int4 % 0::int4", call(engine.OpMod, i4, ci4(1), ci4(0)), "ERROR 22012: division by zero"},
		{"1::int8 / 0::int8", call(engine.OpDiv, i8, ci8(1), ci8(0)), "ERROR 22012: division by zero"},
		{"0::int2 / 0::int2", call(engine.OpDiv, i2, ci2(0), ci2(0)), "ERROR 22012: division by zero"},
		{"7 / 2", call(engine.OpDiv, i4, ci4(7), ci4(2)), "3"},
		{"-7 / 2", call(engine.OpDiv, i4, ci4(-7), ci4(2)), "-3"},
		{"7 / -2", call(engine.OpDiv, i4, ci4(7), ci4(-2)), "-3"},
		{"-7 / -2", call(engine.OpDiv, i4, ci4(-7), ci4(-2)), "3"},
		{"7 % 3", call(engine.OpMod, i4, ci4(7), ci4(3)), "1"},
		{"-7 % 3", call(engine.OpMod, i4, ci4(-7), ci4(3)), "-1"},
		{"7 % -3", call(engine.OpMod, i4, ci4(7), ci4(-3)), "1"},
		{"-7 % -3", call(engine.OpMod, i4, ci4(-7), ci4(-3)), "-1"},
		{"1 + NULL::int4", call(engine.OpAdd, i4, ci4(1), cnull(i4)), "NULL"},
		{"NULL::int4 / 0", call(engine.OpDiv, i4, cnull(i4), ci4(0)), "NULL"},
	})
}

func TestNumericArithmetic(t *testing.T) {
	n := engine.Numeric
	runCases(t, []exprCase{
		{"1.0 / 0::numeric", call(engine.OpDiv, n, cnum("1.0"), cnum("0")), "ERROR 22012: division by zero"},
		{"1.5 % 0::numeric", call(engine.OpMod, n, cnum("1.5"), cnum("0")), "ERROR 22012: division by zero"},
		{"1 / 0.000", call(engine.OpDiv, n, cnum("1"), cnum("0.000")), "ERROR 22012: division by zero"},
		{"2 / 7.0", call(engine.OpDiv, n, cnum("2"), cnum("7.0")), "0.28571428571428571429"},
		{"1 / 3::numeric", call(engine.OpDiv, n, cnum("1"), cnum("3")), "0.33333333333333333333"},
		{"-0.05 * 3", call(engine.OpMul, n, cnum("-0.05"), cnum("3")), "-0.15"},
		{"1.5 + 2.25", call(engine.OpAdd, n, cnum("1.5"), cnum("2.25")), "3.75"},
		{"-7.5 % 2", call(engine.OpMod, n, cnum("-7.5"), cnum("2")), "-1.5"},
		{"-(0.05)", call(engine.OpNeg, n, cnum("0.05")), "-0.05"},
		{"abs(-2.50)", call(engine.OpAbs, n, cnum("-2.50")), "2.50"},
		{"round(-2.5)", call(engine.OpRound, n, cnum("-2.5")), "-3"},
		{"round(2.5)", call(engine.OpRound, n, cnum("2.5")), "3"},
		{"round(1234.5678, 2)", call(engine.OpRound, n, cnum("1234.5678"), ci4(2)), "1234.57"},
		{"round(2.5, 3)", call(engine.OpRound, n, cnum("2.5"), ci4(3)), "2.500"},
		{"round(-0.05, 1)", call(engine.OpRound, n, cnum("-0.05"), ci4(1)), "-0.1"},
		{"1 / NULL::numeric", call(engine.OpDiv, n, cnum("1"), cnull(n)), "NULL"},
	})
}

func TestRoundNegativeDigits(t *testing.T) {
	n := engine.Numeric
	runCases(t, []exprCase{
		{"round(1234.5, -2)", call(engine.OpRound, n, cnum("1234.5"), ci4(-2)), "1200"},
		{"round(-1250, -2)", call(engine.OpRound, n, cnum("-1250"), ci4(-2)), "-1300"},
		{"round(4.9, -1)", call(engine.OpRound, n, cnum("4.9"), ci4(-1)), "0"},
	})
}

func TestRoundManyDigits(t *testing.T) {
	n := engine.Numeric
	runCases(t, []exprCase{
		{"round(0.499999999999999999995)", call(engine.OpRound, n, cnum("0.499999999999999999995")), "0"},
		{"0.499999999999999999995::numeric(30,0)", cast(cnum("0.499999999999999999995"), engine.NumericType(30, 0)), "0"},
		{"'0.499999999999999999995'::numeric(30,0)", cast(ctext("0.499999999999999999995"), engine.NumericType(30, 0)), "0"},
		{"0.499999999999999999995::int4", cast(cnum("0.499999999999999999995"), engine.Int32), "0"},
	})
}

func TestFloatArithmetic(t *testing.T) {
	f8, f4 := engine.Float64, engine.Float32
	runCases(t, []exprCase{
		{"1::float8 / 0::float8", call(engine.OpDiv, f8, cf8(1), cf8(0)), "ERROR 22012: division by zero"},
		{"0::float8 / 0::float8", call(engine.OpDiv, f8, cf8(0), cf8(0)), "ERROR 22012: division by zero"},
		{"1::real / 0::real", call(engine.OpDiv, f4, cf4(1), cf4(0)), "ERROR 22012: division by zero"},
		{"1e308::float8 * 10::float8", call(engine.OpMul, f8, cf8(1e308), cf8(10)), "ERROR 22003: value out of range: overflow"},
		{"1e-308::float8 * 1e-10::float8", call(engine.OpMul, f8, cf8(1e-308), cf8(1e-10)), "1e-318"},
		{"1e-320::float8 / 1e10::float8", call(engine.OpDiv, f8, cf8(1e-320), cf8(1e10)), "ERROR 22003: value out of range: underflow"},
		{"'Infinity'::float8 + 1::float8", call(engine.OpAdd, f8, cf8(math.Inf(1)), cf8(1)), "Infinity"},
		{"'Infinity'::float8 - 'Infinity'::float8", call(engine.OpSub, f8, cf8(math.Inf(1)), cf8(math.Inf(1))), "NaN"},
		{"3.4e38::real * 10::real", call(engine.OpMul, f4, cf4(3.4e38), cf4(10)), "ERROR 22003: value out of range: overflow"},
		{"0.1::float8 + 0.2::float8", call(engine.OpAdd, f8, cf8(0.1), cf8(0.2)), "0.30000000000000004"},
		{"1::float8 / 3::float8", call(engine.OpDiv, f8, cf8(1), cf8(3)), "0.3333333333333333"},
		{"1::real / 3::real", call(engine.OpDiv, f4, cf4(1), cf4(3)), "0.33333334"},
		{"-(0::float8)", call(engine.OpNeg, f8, cf8(0)), "-0"},
		{"round(2.5::float8)", call(engine.OpRound, f8, cf8(2.5)), "2"},
		{"round(-0.5::float8)", call(engine.OpRound, f8, cf8(-0.5)), "-0"},
		{"abs(-0.0::float8)", call(engine.OpAbs, f8, cf8(math.Copysign(0, -1))), "0"},
	})
}

func TestComparisons(t *testing.T) {
	b := engine.Bool
	nan := math.NaN()
	runCases(t, []exprCase{
		{"'NaN'::float8 = 'NaN'::float8", call(engine.OpEq, b, cf8(nan), cf8(nan)), "t"},
		{"'NaN'::float8 > 'Infinity'::float8", call(engine.OpGt, b, cf8(nan), cf8(math.Inf(1))), "t"},
		{"'-0'::float8 = 0::float8", call(engine.OpEq, b, cf8(math.Copysign(0, -1)), cf8(0)), "t"},
		{"'a' < 'B' (C collation)", call(engine.OpLt, b, ctext("a"), ctext("B")), "f"},
		{"'é' > 'z'", call(engine.OpGt, b, ctext("é"), ctext("z")), "t"},
		{"'abc' < 'abcd'", call(engine.OpLt, b, ctext("abc"), ctext("abcd")), "t"},
		{"1.50 = 1.5", call(engine.OpEq, b, cnum("1.50"), cnum("1.5")), "t"},
		{"-0.05 < -0.005", call(engine.OpLt, b, cnum("-0.05"), cnum("-0.005")), "t"},
		{"interval '1 mon' = interval '30 days'", call(engine.OpEq, b, civ(1, 0, 0), civ(0, 30, 0)), "t"},
		{"interval '1 day' = interval '24 hours'", call(engine.OpEq, b, civ(0, 1, 0), civ(0, 0, 24*3_600_000_000)), "t"},
		{"interval '1 mon' < interval '31 days'", call(engine.OpLt, b, civ(1, 0, 0), civ(0, 31, 0)), "t"},
		{"1 = NULL", call(engine.OpEq, b, ci4(1), cnull(engine.Int32)), "NULL"},
		{"1 IS DISTINCT FROM NULL", call(engine.OpIsDistinct, b, ci4(1), cnull(engine.Int32)), "t"},
		{"NULL IS DISTINCT FROM NULL", call(engine.OpIsDistinct, b, cnull(engine.Int32), cnull(engine.Int32)), "f"},
		{"2 IS DISTINCT FROM 2", call(engine.OpIsDistinct, b, ci4(2), ci4(2)), "f"},
		{"nullif(1, 1)", call(engine.OpNullIf, engine.Int32, ci4(1), ci4(1)), "NULL"},
		{"nullif(1, 2)", call(engine.OpNullIf, engine.Int32, ci4(1), ci4(2)), "1"},
		{"coalesce(NULL, 2, 3)", call(engine.OpCoalesce, engine.Int32, cnull(engine.Int32), ci4(2), ci4(3)), "2"},
	})
}

// ---- three-valued logic ----

func TestThreeValuedLogic(t *testing.T) {
	// a and b walk every combination of true, false and NULL.
	a := ivec(engine.Bool, true, true, true, false, false, false, nil, nil, nil)
	b := ivec(engine.Bool, true, false, nil, true, false, nil, true, false, nil)
	in := batch(a, b)
	A, B := col(0, engine.Bool), col(1, engine.Bool)
	bo := engine.Bool
	cases := []struct {
		name string
		e    engine.Expr
		want string
	}{
		// select a AND b, a OR b, NOT a from (values ...) v(a, b)
		{"a AND b", call(engine.OpAnd, bo, A, B), "t,f,NULL,f,f,f,NULL,f,NULL"},
		{"a OR b", call(engine.OpOr, bo, A, B), "t,t,t,t,f,NULL,t,NULL,NULL"},
		{"NOT a", call(engine.OpNot, bo, A), "f,f,f,t,t,t,NULL,NULL,NULL"},
		{"a IS TRUE", call(engine.OpIsTrue, bo, A), "t,t,t,f,f,f,f,f,f"},
		{"b IS FALSE", call(engine.OpIsFalse, bo, B), "f,t,f,f,t,f,f,t,f"},
		{"a IS NULL", call(engine.OpIsNull, bo, A), "f,f,f,f,f,f,t,t,t"},
		{"b IS NOT NULL", call(engine.OpIsNotNull, bo, B), "t,t,f,t,t,f,t,t,f"},
		{"NOT (a AND b)", call(engine.OpNot, bo, call(engine.OpAnd, bo, A, B)), "f,t,NULL,t,t,t,NULL,t,NULL"},
		{"a IS DISTINCT FROM b", call(engine.OpIsDistinct, bo, A, B), "f,t,t,t,f,t,t,t,f"},
	}
	for _, c := range cases {
		if got := evalRows(c.e, in); got != c.want {
			t.Errorf("%s: got %s, want %s", c.name, got, c.want)
		}
	}
}

// TestLogicShortCircuit: PostgreSQL evaluates AND/OR left to right and
// stops at the first operand that decides the row, so a guard on the left
// protects the right operand.
//
//	create table t(x int); insert into t values (0),(5),(20),(null);
//	select x <> 0 and 10/x > 1, x = 0 or 10/x > 1 from t;  → f|t, t|t, f|f, NULL|NULL
func TestLogicShortCircuit(t *testing.T) {
	x := ivec(engine.Int32, 0, 5, 20, nil)
	in := batch(x)
	X := col(0, engine.Int32)
	i4, bo := engine.Int32, engine.Bool
	tenOverX := call(engine.OpGt, bo, call(engine.OpDiv, i4, ci4(10), X), ci4(1))
	and := call(engine.OpAnd, bo, call(engine.OpNe, bo, X, ci4(0)), tenOverX)
	or := call(engine.OpOr, bo, call(engine.OpEq, bo, X, ci4(0)), tenOverX)
	if got := evalRows(and, in); got != "f,t,f,NULL" {
		t.Errorf("x <> 0 AND 10/x > 1: got %s, want f,t,f,NULL", got)
	}
	if got := evalRows(or, in); got != "t,t,f,NULL" {
		t.Errorf("x = 0 OR 10/x > 1: got %s, want t,t,f,NULL", got)
	}
}

func TestCaseLazy(t *testing.T) {
	x := ivec(engine.Int32, 0, 5, 20, nil, -3)
	in := batch(x)
	X := col(0, engine.Int32)
	i4, bo := engine.Int32, engine.Bool
	// select case when x <> 0 then 10/x else -1 end from t  → -1,2,0,-1,-3
	ce := &engine.Case{
		Conds:   []engine.Expr{call(engine.OpNe, bo, X, ci4(0))},
		Results: []engine.Expr{call(engine.OpDiv, i4, ci4(10), X)},
		Else:    ci4(-1),
		T:       i4,
	}
	if got := evalRows(ce, in); got != "-1,2,0,-1,-3" {
		t.Errorf("CASE WHEN x <> 0 THEN 10/x ELSE -1: got %s", got)
	}
	// A division by zero in the ELSE branch, which no row reaches.
	ce2 := &engine.Case{
		Conds:   []engine.Expr{call(engine.OpIsNotNull, bo, X), cbool(true)},
		Results: []engine.Expr{call(engine.OpMul, i4, X, ci4(2)), ci4(7)},
		Else:    call(engine.OpDiv, i4, ci4(1), ci4(0)),
		T:       i4,
	}
	if got := evalRows(ce2, in); got != "0,10,40,7,-6" {
		t.Errorf("CASE with an unreachable ELSE 1/0: got %s", got)
	}
	// select case when 0 = 0 then 1 else 1/0 end → 1
	if got := eval1(&engine.Case{
		Conds:   []engine.Expr{call(engine.OpEq, bo, ci4(0), ci4(0))},
		Results: []engine.Expr{ci4(1)},
		Else:    call(engine.OpDiv, i4, ci4(1), ci4(0)),
		T:       i4,
	}); got != "1" {
		t.Errorf("case when 0 = 0 then 1 else 1/0 end: got %s", got)
	}
	// A NULL condition is not true: the row falls through.
	// select case when x > 1 then 'big' when x < 1 then 'small' end → small,big,big,NULL,small
	ce3 := &engine.Case{
		Conds:   []engine.Expr{call(engine.OpGt, bo, X, ci4(1)), call(engine.OpLt, bo, X, ci4(1))},
		Results: []engine.Expr{ctext("big"), ctext("small")},
		Else:    cnull(engine.Text),
		T:       engine.Text,
	}
	if got := evalRows(ce3, in); got != "small,big,big,NULL,small" {
		t.Errorf("CASE with text results: got %s", got)
	}
	// A taken branch that errors does raise.
	ce4 := &engine.Case{
		Conds:   []engine.Expr{call(engine.OpEq, bo, X, ci4(0))},
		Results: []engine.Expr{call(engine.OpDiv, i4, ci4(1), X)},
		Else:    ci4(0),
		T:       i4,
	}
	if got := evalRows(ce4, in); got != "ERROR 22012: division by zero" {
		t.Errorf("CASE WHEN x = 0 THEN 1/x: got %s", got)
	}
}

// TestNullSlotsIgnored: NULL rows hold garbage (here a zero divisor or
// poison) and must not raise errors.
func TestNullSlotsIgnored(t *testing.T) {
	x := ivec(engine.Int32, 10, 20, 30)
	y := ivec(engine.Int32, 2, nil, -3)
	y.I[1] = 0 // a NULL row whose slot would divide by zero
	in := batch(x, y)
	i4 := engine.Int32
	X, Y := col(0, i4), col(1, i4)
	if got := evalRows(call(engine.OpDiv, i4, X, Y), in); got != "5,NULL,-10" {
		t.Errorf("x / y: got %s", got)
	}
	if got := evalRows(call(engine.OpMod, i4, X, Y), in); got != "0,NULL,0" {
		t.Errorf("x %% y: got %s", got)
	}
	big := ivec(engine.Int32, 1, nil, 2)
	big.I[1] = math.MaxInt32 // NULL slot that would overflow
	if got := evalRows(call(engine.OpAdd, i4, col(0, i4), ci4(1)), batch(big)); got != "2,NULL,3" {
		t.Errorf("x + 1: got %s", got)
	}
	min := ivec(engine.Int32, 1, nil)
	min.I[1] = math.MinInt32
	if got := evalRows(call(engine.OpNeg, i4, col(0, i4)), batch(min)); got != "-1,NULL" {
		t.Errorf("-x: got %s", got)
	}
	if got := evalRows(call(engine.OpAbs, i4, col(0, i4)), batch(min)); got != "1,NULL" {
		t.Errorf("abs(x): got %s", got)
	}
	s := svec("abc", nil, "hello")
	if got := evalRows(cast(col(0, engine.Text), engine.Int32), batch(s)); !strings.HasPrefix(got, "ERROR 22P02") {
		t.Errorf("'abc'::int4 over a column: got %s", got)
	}
	s2 := svec("12", nil, " -3 ")
	if got := evalRows(cast(col(0, engine.Text), engine.Int32), batch(s2)); got != "12,NULL,-3" {
		t.Errorf("text column ::int4: got %s", got)
	}
	if got := evalRows(call(engine.OpLength, i4, col(0, engine.Text)), batch(s2)); got != "2,NULL,4" {
		t.Errorf("length(column): got %s", got)
	}
	if got := evalRows(call(engine.OpConcat, engine.Text, col(0, engine.Text), ctext("!")), batch(s2)); got != "12!,NULL, -3 !" {
		t.Errorf("column || '!': got %s", got)
	}
}

func TestIn(t *testing.T) {
	bo, i4 := engine.Bool, engine.Int32
	runCases(t, []exprCase{
		{"1 in (2, null)", call(engine.OpIn, bo, ci4(1), ci4(2), cnull(i4)), "NULL"},
		{"1 in (1, null)", call(engine.OpIn, bo, ci4(1), ci4(1), cnull(i4)), "t"},
		{"1 in (null, 1)", call(engine.OpIn, bo, ci4(1), cnull(i4), ci4(1)), "t"},
		{"null::int in (1, 2)", call(engine.OpIn, bo, cnull(i4), ci4(1), ci4(2)), "NULL"},
		{"1 in (2, 3)", call(engine.OpIn, bo, ci4(1), ci4(2), ci4(3)), "f"},
		{"not (1 in (2, null))", call(engine.OpNot, bo, call(engine.OpIn, bo, ci4(1), ci4(2), cnull(i4))), "NULL"},
		{"not (1 in (2, 3))", call(engine.OpNot, bo, call(engine.OpIn, bo, ci4(1), ci4(2), ci4(3))), "t"},
		{"'b' in ('a', 'b')", call(engine.OpIn, bo, ctext("b"), ctext("a"), ctext("b")), "t"},
		{"1.50 in (1.5)", call(engine.OpIn, bo, cnum("1.50"), cnum("1.5")), "t"},
		{"'NaN'::float8 in ('NaN')", call(engine.OpIn, bo, cf8(math.NaN()), cf8(math.NaN())), "t"},
	})
	// Over a column: select x in (1, y) from (values (1,null),(2,null),(null,1),(3,3)) v(x,y)
	x := ivec(i4, 1, 2, nil, 3)
	y := ivec(i4, nil, nil, 1, 3)
	if got := evalRows(call(engine.OpIn, bo, col(0, i4), ci4(1), col(1, i4)), batch(x, y)); got != "t,NULL,NULL,t" {
		t.Errorf("x in (1, y): got %s", got)
	}
}

// TestCaseLaterConditionsLazy: a row taken by an earlier WHEN never
// evaluates later conditions.
//
//	select case when x = 0 then 0 when 10/x > 1 then 1 else 2 end from (values (0),(5),(20),(null)) v(x)
//	→ 0, 1, 2, 2
func TestCaseLaterConditionsLazy(t *testing.T) {
	x := ivec(engine.Int32, 0, 5, 20, nil)
	X := col(0, engine.Int32)
	i4, bo := engine.Int32, engine.Bool
	ce := &engine.Case{
		Conds:   []engine.Expr{call(engine.OpEq, bo, X, ci4(0)), call(engine.OpGt, bo, call(engine.OpDiv, i4, ci4(10), X), ci4(1))},
		Results: []engine.Expr{ci4(0), ci4(1)},
		Else:    ci4(2),
		T:       i4,
	}
	if got := evalRows(ce, batch(x)); got != "0,1,2,2" {
		t.Errorf("got %s, want 0,1,2,2", got)
	}
}
