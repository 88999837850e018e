package gpu

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/eval"
)

// The intv2 section of cuda/query.cu (justify_*, date_trunc of an
// interval, age, numeric to float, random()) is plain C: these tests
// compile it with the host's C compiler and compare it with engine/eval
// on random and edge values, so CI checks it without a GPU;
// TestIntv2MatchesCPU runs the kernels on the device.

// intv2Harness compiles the dates and intv2 sections with a main that
// reads one case a line: "J kind m d us" (justify), "T unit m d us"
// (date_trunc), "A la lb flip" (age) print "ok m d us"; "F hi lo s prec"
// prints the float's bits; "R seed pc row" prints random()'s bits.
func intv2Harness(t *testing.T) string {
	cc, err := exec.LookPath("gcc")
	if err != nil {
		if cc, err = exec.LookPath("cc"); err != nil {
			t.Skip("no C compiler here: ", err)
		}
	}
	dir := t.TempDir()
	harness := `#include <stdio.h>
#include <stdbool.h>
typedef long long i64; typedef unsigned long long u64;
typedef __int128 i128; typedef unsigned __int128 u128;
#define __device__ static
#define __forceinline__ inline
` + querySection(t, "dates begin", "dates end") + querySection(t, "intv2 begin", "intv2 end") + `
int main(void) {
    char kind[4];
    while (scanf("%3s", kind) == 1) {
        int m = 0, d = 0, ok = 1;
        i64 us = 0;
        if (kind[0] == 'J' || kind[0] == 'T') {
            int k;
            if (scanf("%d %d %d %lld", &k, &m, &d, &us) != 4) return 2;
            if (kind[0] == 'J') ok = ivJustify(k, &m, &d, &us);
            else ivTrunc(k, &m, &d, &us);
        } else if (kind[0] == 'A') {
            i64 a, b; int flip;
            if (scanf("%lld %lld %d", &a, &b, &flip) != 3) return 2;
            ok = tsAge(a, b, flip, &m, &d, &us);
        } else if (kind[0] == 'F') {
            u64 hi, lo; int s, prec;
            if (scanf("%llu %llu %d %d", &hi, &lo, &s, &prec) != 4) return 2;
            double f = decToFloat(((u128)hi << 64) | lo, s, prec);
            printf("%llu\n", *(u64 *)&f);
            continue;
        } else {
            u64 seed, pc, row;
            if (scanf("%llu %llu %llu", &seed, &pc, &row) != 3) return 2;
            double f = rndUnit(seed, pc, row);
            printf("%llu\n", *(u64 *)&f);
            continue;
        }
        printf("%d %d %d %lld\n", ok, m, d, us);
    }
    return 0;
}
`
	if err := os.WriteFile(filepath.Join(dir, "h.c"), []byte(harness), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "h")
	if out, err := exec.Command(cc, "-O2", "-Wall", "-Wno-unused-function", "-fno-strict-aliasing", "-o", bin, filepath.Join(dir, "h.c")).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", cc, err, out)
	}
	return bin
}

func runLines(t *testing.T, bin string, in []string) []string {
	cmd := exec.Command(bin)
	cmd.Stdin = strings.NewReader(strings.Join(in, "\n") + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != len(in) {
		t.Fatalf("%d outputs for %d inputs", len(lines), len(in))
	}
	return lines
}

// nastyIntervals are random intervals and the edges: the int32 and int64
// limits, signs that disagree, whole days and months.
func nastyIntervals(rng *rand.Rand, n int) []engine.IntervalVal {
	const day = 86_400_000_000
	edges32 := []int32{0, 1, -1, 29, 30, 31, -29, -30, -31, 59, 60, math.MaxInt32, math.MinInt32, math.MaxInt32 - 1, math.MinInt32 + 1}
	edges64 := []int64{0, 1, -1, day, -day, day - 1, -day + 1, 50 * 3_600_000_000, -50 * 3_600_000_000, math.MaxInt64, math.MinInt64,
		math.MaxInt64 - 1, math.MinInt64 + 1, 36 * day, 1234567890123}
	var out []engine.IntervalVal
	for _, m := range edges32 {
		for _, d := range edges32 {
			for _, us := range edges64 {
				out = append(out, engine.IntervalVal{Months: m, Days: d, Micros: us})
			}
		}
	}
	for i := 0; i < n; i++ {
		out = append(out, engine.IntervalVal{Months: int32(rng.IntN(4001) - 2000), Days: int32(rng.IntN(2001) - 1000),
			Micros: rng.Int64N(400*day) - 200*day})
	}
	return out
}

func TestIntv2JustifyTruncC(t *testing.T) {
	bin := intv2Harness(t)
	rng := rand.New(rand.NewPCG(1, 2))
	ivs := nastyIntervals(rng, 3000)
	units := []string{"microseconds", "milliseconds", "second", "minute", "hour", "day", "month", "quarter", "year", "decade", "century", "millennium"}
	var in, want []string
	for _, iv := range ivs {
		for k, f := range []func(engine.IntervalVal) (engine.IntervalVal, bool){eval.JustifyDays, eval.JustifyHours, eval.JustifyInterval} {
			in = append(in, fmt.Sprintf("J %d %d %d %d", k, iv.Months, iv.Days, iv.Micros))
			r, ok := f(iv)
			if !ok {
				want = append(want, "0")
			} else {
				want = append(want, fmt.Sprintf("1 %d %d %d", r.Months, r.Days, r.Micros))
			}
		}
	}
	// date_trunc through the CPU evaluator
	src := engine.NewVec(engine.Interval, len(ivs))
	copy(src.V, ivs)
	for _, u := range units {
		call := &engine.Call{Op: engine.OpDateTrunc, T: engine.Interval,
			Args: []engine.Expr{&engine.Const{T: engine.Text, S: u}, &engine.ColRef{Idx: 0, T: engine.Interval}}}
		res, err := eval.Eval(context.Background(), call, &engine.Batch{N: len(ivs), Cols: []*engine.Vec{src}})
		if err != nil {
			t.Fatal(err)
		}
		for i, iv := range ivs {
			in = append(in, fmt.Sprintf("T %d %d %d %d", dateTruncUnits[u], iv.Months, iv.Days, iv.Micros))
			r := res.V[i]
			want = append(want, fmt.Sprintf("1 %d %d %d", r.Months, r.Days, r.Micros))
		}
	}
	got := runLines(t, bin, in)
	bad := 0
	for i := range in {
		g := got[i]
		if strings.HasPrefix(g, "0 ") {
			g = "0"
		}
		if g != want[i] && bad < 20 {
			bad++
			t.Errorf("%s: got %s, want %s", in[i], g, want[i])
		}
	}
}

// nastyStamps are timestamps (microseconds from 2000-01-01 as engine's,
// here from 1970: engine's Timestamp) at month ends, leap days, the
// range's ends and random instants.
func nastyStamps(rng *rand.Rand, n int) []int64 {
	const day = 86_400_000_000
	var out []int64
	for _, ymd := range [][3]int{{2000, 2, 29}, {2000, 3, 1}, {2000, 2, 28}, {1999, 12, 31}, {2024, 1, 31}, {2024, 3, 31}, {1900, 2, 28},
		{-4713, 11, 24}, {294276, 12, 31}, {1, 1, 1}, {0, 12, 31}, {-1, 2, 29}, {2023, 2, 28}, {2024, 10, 27}} {
		d := int64(engine.DaysFromCivil(ymd[0], ymd[1], ymd[2])) * day
		out = append(out, d, d+day-1, d+12*3_600_000_000, d+1)
	}
	for i := 0; i < n; i++ {
		out = append(out, rng.Int64N(200*365*day)-100*365*day)
	}
	return out
}

func TestIntv2AgeC(t *testing.T) {
	bin := intv2Harness(t)
	rng := rand.New(rand.NewPCG(3, 4))
	ts := nastyStamps(rng, 300)
	n := len(ts) * len(ts)
	a, b := engine.NewVec(engine.Timestamp, n), engine.NewVec(engine.Timestamp, n)
	var in []string
	for i, x := range ts {
		for j, y := range ts {
			k := i*len(ts) + j
			a.I[k], b.I[k] = x, y
			in = append(in, fmt.Sprintf("A %d %d %d", x, y, boolInt(x < y)))
		}
	}
	call := &engine.Call{Op: engine.OpAge, T: engine.Interval,
		Args: []engine.Expr{&engine.ColRef{Idx: 0, T: engine.Timestamp}, &engine.ColRef{Idx: 1, T: engine.Timestamp}}}
	res, err := eval.Eval(context.Background(), call, &engine.Batch{N: n, Cols: []*engine.Vec{a, b}})
	if err != nil {
		t.Fatal(err) // no pair of these leaves the interval range
	}
	got := runLines(t, bin, in)
	bad := 0
	for k := range in {
		r := res.V[k]
		if w := fmt.Sprintf("1 %d %d %d", r.Months, r.Days, r.Micros); got[k] != w && bad < 20 {
			bad++
			t.Errorf("%s: got %s, want %s", in[k], got[k], w)
		}
	}
}

func TestIntv2DecToFloatC(t *testing.T) {
	bin := intv2Harness(t)
	rng := rand.New(rand.NewPCG(5, 6))
	type c struct {
		hi, lo uint64
		s      int
	}
	var cs []c
	for _, m := range []uint64{1 << 53, 1<<53 + 1, 1<<54 + 1, 1<<54 + 2, 1<<54 + 3, 123456780123456789, 999999999999999999, 1<<63 - 1, 1<<64 - 1, 9007199254740993} {
		for s := 0; s <= 22; s++ {
			cs = append(cs, c{0, m, s})
		}
	}
	for i := 0; i < 20000; i++ {
		var x c
		x.s = rng.IntN(23)
		switch rng.IntN(3) {
		case 0:
			x.lo = rng.Uint64N(1_000_000_000_000_000_000)
		case 1:
			x.lo = rng.Uint64() >> rng.UintN(40)
		default:
			x.hi, x.lo = rng.Uint64N(1<<40), rng.Uint64()
		}
		cs = append(cs, x)
	}
	var in, want []string
	for _, x := range cs {
		d := engine.Dec{Hi: int64(x.hi), Lo: x.lo, Scale: int32(x.s)}
		for _, prec := range []int{53, 24} {
			in = append(in, fmt.Sprintf("F %d %d %d %d", x.hi, x.lo, x.s, prec))
			bits := 64
			if prec == 24 {
				bits = 32
			}
			f, err := strconv.ParseFloat(d.String(), bits)
			if err != nil {
				t.Fatal(err)
			}
			want = append(want, fmt.Sprint(math.Float64bits(f)))
		}
	}
	got := runLines(t, bin, in)
	bad := 0
	for k := range in {
		if got[k] != want[k] && bad < 20 {
			bad++
			g, _ := strconv.ParseUint(got[k], 10, 64)
			w, _ := strconv.ParseUint(want[k], 10, 64)
			t.Errorf("%s: got %v, want %v", in[k], math.Float64frombits(g), math.Float64frombits(w))
		}
	}
}

func TestIntv2RandomC(t *testing.T) {
	bin := intv2Harness(t)
	var in []string
	for row := 0; row < 20000; row++ {
		in = append(in, fmt.Sprintf("R 12345 %d %d", row%3, row))
	}
	got := runLines(t, bin, in)
	seen := map[string]bool{}
	for k, g := range got {
		b, _ := strconv.ParseUint(g, 10, 64)
		f := math.Float64frombits(b)
		if !(f >= 0 && f < 1) {
			t.Fatalf("%s: %v, not in [0, 1)", in[k], f)
		}
		seen[g] = true
	}
	if len(seen) < len(got)-2 {
		t.Errorf("%d distinct values of %d", len(seen), len(got))
	}
}
