package eval_test

import (
	"math"
	"math/big"
	"math/rand"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/eval"
)

// TestSplitPartsExact checks that the parts of x*x and x*y are exact:
// their exact sum is the exact product, over random doubles of every
// magnitude whose products stay in the normal range.
func TestSplitPartsExact(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	rnd := func() float64 {
		return math.Ldexp(rng.Float64()*2-1, rng.Intn(800)-400) * float64(1+rng.Intn(1<<20))
	}
	for i := 0; i < 20000; i++ {
		x, y := rnd(), rnd()
		want := new(big.Float).SetPrec(2200).Mul(new(big.Float).SetFloat64(x), new(big.Float).SetFloat64(x))
		got := new(big.Float).SetPrec(2200)
		for _, p := range eval.SquareParts(x) {
			got.Add(got, new(big.Float).SetFloat64(p))
		}
		if got.Cmp(want) != 0 {
			t.Fatalf("x*x parts of %g: %s, want %s", x, got.Text('g', 40), want.Text('g', 40))
		}
		want.Mul(new(big.Float).SetFloat64(x), new(big.Float).SetFloat64(y))
		got.SetFloat64(0)
		for _, p := range eval.ProductParts(x, y) {
			got.Add(got, new(big.Float).SetFloat64(p))
		}
		if got.Cmp(want) != 0 {
			t.Fatalf("x*y parts of %g, %g: %s, want %s", x, y, got.Text('g', 40), want.Text('g', 40))
		}
	}
}

func dec(t *testing.T, s string) engine.Dec {
	d, ok := engine.ParseDecLiteral(s)
	if !ok {
		t.Fatalf("bad literal %s", s)
	}
	return d
}

// TestStatNumericDigits checks var/stddev over numerics against
// PostgreSQL 15's output (numeric_stddev_internal's scales and rounding).
func TestStatNumericDigits(t *testing.T) {
	tests := []struct {
		vals []string
		fn   engine.AggFunc
		want string // "" for NULL
	}{
		{[]string{"1", "2", "3", "4"}, engine.AggVarSamp, "1.6666666666666667"},
		{[]string{"1", "2", "3", "4"}, engine.AggVarPop, "1.2500000000000000"},
		{[]string{"1", "2", "3", "4"}, engine.AggStddevSamp, "1.2909944487358056"},
		{[]string{"1", "2", "3", "4"}, engine.AggStddevPop, "1.1180339887498948"},
		{[]string{"2.50", "2.50"}, engine.AggVarSamp, "0"},
		{[]string{"7"}, engine.AggVarSamp, ""},
		{[]string{"7"}, engine.AggVarPop, "0"},
		{[]string{"1.5", "2.25"}, engine.AggVarSamp, "0.28125000000000000000"},
		{[]string{"1000000", "3000000"}, engine.AggStddevSamp, "1414213.5624"},
		{[]string{"-0.001", "0.002", "0.0035"}, engine.AggVarPop, "0.000003500000000000000000"},
		{nil, engine.AggVarPop, ""},
	}
	for _, tt := range tests {
		var a, b eval.StatAcc
		for i, v := range tt.vals {
			acc := &a
			if i%2 == 1 {
				acc = &b // and merged: the order does not matter
			}
			if err := acc.AddDec(dec(t, v)); err != nil {
				t.Fatal(err)
			}
		}
		a.Merge(&b)
		out := engine.NewVec(engine.Numeric, 1)
		if err := a.Put(tt.fn, engine.Numeric, out, 0); err != nil {
			t.Fatal(err)
		}
		got := ""
		if !out.IsNull(0) {
			got = out.D[0].String()
		}
		if got != tt.want {
			t.Errorf("%s%v = %q, want %q", tt.fn, tt.vals, got, tt.want)
		}
	}
}

// TestStatFloatSpecials checks PostgreSQL's NaN, infinity and NULL rules
// for the float statistics.
func TestStatFloatSpecials(t *testing.T) {
	put := func(fn engine.AggFunc, pairs ...[2]float64) (string, error) {
		var a eval.StatAcc
		for _, p := range pairs {
			a.AddPair(p[0], p[1])
		}
		out := engine.NewVec(engine.Float64, 1)
		err := a.Put(fn, engine.Float64, out, 0)
		if out.IsNull(0) {
			return "NULL", err
		}
		return string(engine.AppendText(nil, out, 0)), err
	}
	inf := math.Inf(1)
	tests := []struct {
		fn    engine.AggFunc
		pairs [][2]float64
		want  string
	}{
		{engine.AggCorr, [][2]float64{{1, 1}, {2, 2}, {3, 3}}, "1"},
		{engine.AggCorr, [][2]float64{{1, 5}, {2, 5}}, "NULL"},
		{engine.AggRegrR2, [][2]float64{{5, 1}, {5, 2}}, "1"},
		{engine.AggRegrSlope, [][2]float64{{1, 5}, {2, 5}}, "NULL"},
		{engine.AggCovarSamp, [][2]float64{{1, 5}}, "NULL"},
		{engine.AggCovarPop, [][2]float64{{1, 5}}, "0"},
		{engine.AggRegrSXX, [][2]float64{{1, inf}, {2, 3}}, "NaN"},
		{engine.AggRegrSYY, [][2]float64{{1, inf}, {2, 3}}, "0.5"},
		{engine.AggRegrSXY, [][2]float64{{math.NaN(), 1}, {2, 3}}, "NaN"},
		{engine.AggCovarPop, nil, "NULL"},
	}
	for _, tt := range tests {
		got, err := put(tt.fn, tt.pairs...)
		if err != nil || got != tt.want {
			t.Errorf("%s%v = %s, %v; want %s", tt.fn, tt.pairs, got, err, tt.want)
		}
	}
	if _, err := put(engine.AggRegrSXX, [2]float64{1, 1e300}, [2]float64{1, -1e300}); engine.Code(err) != engine.CodeNumericValueOutOfRange {
		t.Errorf("overflow: %v, want 22003", err)
	}
}
