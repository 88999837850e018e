package engine

import (
	"math"
	"math/big"
	"math/rand"
	"testing"
)

// ratSum is the reference: the exact rational sum of finite values.
func ratSum(xs []float64) *big.Rat {
	s := new(big.Rat)
	for _, x := range xs {
		if x != 0 && !math.IsInf(x, 0) && !math.IsNaN(x) {
			s.Add(s, new(big.Rat).SetFloat64(x))
		}
	}
	return s
}

func sumOf(xs []float64) FloatSum {
	var s FloatSum
	for _, x := range xs {
		s.Add(x)
	}
	return s
}

func sameFloat(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || (math.IsNaN(a) && math.IsNaN(b))
}

func TestFloatSumCases(t *testing.T) {
	negZero := math.Copysign(0, -1)
	inf := math.Inf(1)
	cases := []struct {
		name string
		xs   []float64
		want float64
		over bool
	}{
		{"one", []float64{1.5}, 1.5, false},
		{"tenths", []float64{0.1, 0.2, 0.3}, 0.6, false}, // exact 0.60000000000000000555; left to right gives 0.6000000000000001
		{"cancel", []float64{1e308, -1e308, 1e-300}, 1e-300, false},
		{"cancel big first", []float64{1e16, 1, -1e16}, 1, false},
		{"huge and tiny", []float64{math.MaxFloat64, math.SmallestNonzeroFloat64, -math.MaxFloat64}, math.SmallestNonzeroFloat64, false},
		{"intermediate overflow", []float64{1e308, 1e308, -1e308}, 1e308, false},
		{"overflow", []float64{1e308, 1e308}, inf, true},
		{"negative overflow", []float64{-math.MaxFloat64, -math.MaxFloat64}, math.Inf(-1), true},
		{"max", []float64{math.MaxFloat64, 0}, math.MaxFloat64, false},
		{"subnormals", []float64{math.SmallestNonzeroFloat64, math.SmallestNonzeroFloat64}, 2 * math.SmallestNonzeroFloat64, false},
		{"neg zero only", []float64{negZero, negZero}, negZero, false},
		{"neg and pos zero", []float64{negZero, 0}, 0, false},
		{"zero by cancellation", []float64{-1, 1}, 0, false},
		{"neg zero and cancellation", []float64{negZero, -2.5, 2.5}, 0, false},
		{"inf", []float64{1, inf, 1e308, 1e308}, inf, false},
		{"-inf", []float64{1, math.Inf(-1)}, math.Inf(-1), false},
		{"inf minus inf", []float64{inf, 1, math.Inf(-1)}, math.NaN(), false},
		{"nan", []float64{1, math.NaN(), inf}, math.NaN(), false},
		{"ties to even", []float64{1, 0x1p-53}, 1, false},
		{"ties up", []float64{1, 0x1p-53, 0x1p-105}, 1 + 0x1p-52, false},
		{"empty", nil, negZero, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for rep := 0; rep < 20; rep++ {
				xs := append([]float64(nil), c.xs...)
				rng := rand.New(rand.NewSource(int64(rep)))
				rng.Shuffle(len(xs), func(i, j int) { xs[i], xs[j] = xs[j], xs[i] })
				s := sumOf(xs)
				got, over := s.Float64()
				if !sameFloat(got, c.want) || over != c.over {
					t.Fatalf("order %v: got %v (overflow %v), want %v (overflow %v)", xs, got, over, c.want, c.over)
				}
			}
		})
	}
}

// nastyFloat draws from magnitudes across the whole double range, with
// subnormals, zeros of both signs and values that cancel.
func nastyFloat(rng *rand.Rand, pool []float64) float64 {
	switch rng.Intn(10) {
	case 0:
		return math.Float64frombits(rng.Uint64() & (1<<52 - 1)) // subnormal (or +0)
	case 1:
		return math.Copysign(0, -1)
	case 2:
		if len(pool) > 0 {
			return -pool[rng.Intn(len(pool))]
		}
	case 3:
		return float64(float32(rng.NormFloat64()))
	}
	x := math.Float64frombits(rng.Uint64())
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return 1
	}
	if rng.Intn(2) == 0 {
		return x
	}
	return math.Ldexp(rng.Float64(), rng.Intn(200)-100)
}

func TestFloatSumRandomOrders(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for trial := 0; trial < 300; trial++ {
		n := 1 + rng.Intn(200)
		xs := make([]float64, 0, n)
		for len(xs) < n {
			xs = append(xs, nastyFloat(rng, xs))
		}
		ref := ratSum(xs)
		want, _ := ref.Float64()
		s := sumOf(xs)
		got, over := s.Float64()
		if !over && !sameFloat(got, want) && !(want == 0 && got == 0) {
			t.Fatalf("trial %d: got %v, want %v", trial, got, want)
		}
		if over != math.IsInf(want, 0) {
			t.Fatalf("trial %d: overflow %v, reference %v", trial, over, want)
		}
		want32, _ := ref.Float32()
		got32, over32 := s.Float32()
		if !over32 && got32 != want32 && !(want32 == 0 && got32 == 0) {
			t.Fatalf("trial %d: float32 got %v, want %v", trial, got32, want32)
		}
		// any split into parts, merged in any order, gives the same bits
		rng.Shuffle(len(xs), func(i, j int) { xs[i], xs[j] = xs[j], xs[i] })
		var parts []FloatSum
		for i := 0; i < len(xs); {
			j := min(len(xs), i+1+rng.Intn(20))
			parts = append(parts, sumOf(xs[i:j]))
			i = j
		}
		var m FloatSum
		for _, k := range rng.Perm(len(parts)) {
			m.Merge(&parts[k])
		}
		mg, mover := m.Float64()
		if !sameFloat(mg, got) || mover != over {
			t.Fatalf("trial %d: merged %v, sequential %v", trial, mg, got)
		}
	}
}

func TestFloatSumNormalizes(t *testing.T) {
	// many additions to the same limbs pass through normalization
	var s FloatSum
	s.adds = floatSumNormEvery - 5
	for i := 0; i < 10; i++ {
		s.Add(math.MaxFloat64 / 8)
		s.Add(-math.MaxFloat64 / 16)
	}
	got, over := s.Float64()
	if want := 10 * (math.MaxFloat64 / 16); got != want || over {
		t.Fatalf("got %v, want %v", got, want)
	}
	// limbs as the device leaves them: not normalized, any signs
	l := NewFloatSumLimbs(33, []int64{-1 << 40, 1 << 8, 0}, false, false, false, false)
	got, _ = l.Float64()
	if want := math.Ldexp(-1, 40+32*33-1074) + math.Ldexp(1, 8+32*34-1074); got != want {
		t.Fatalf("limbs: got %v, want %v", got, want)
	}
	z := NewFloatSumLimbs(0, nil, false, false, false, true)
	if got, _ := z.Float64(); math.Float64bits(got) != 1<<63 {
		t.Fatalf("all -0: got %v", got)
	}
}

func TestFloatSumFloat32(t *testing.T) {
	// float32 values summed exactly and rounded once: a float32 running
	// sum would stop growing at 2^24
	var s FloatSum
	for i := 0; i < 1<<25; i += 1 << 10 {
		s.Add(float64(float32(1)))
	}
	f, _ := s.Float32()
	if f != float32(1<<15) {
		t.Fatalf("got %v", f)
	}
	var big32 FloatSum
	big32.Add(math.MaxFloat32)
	big32.Add(math.MaxFloat32)
	if _, over := big32.Float32(); !over {
		t.Fatal("float32 overflow not reported")
	}
}
