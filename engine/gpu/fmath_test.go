package gpu

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/eval"
)

// The fmath section of cuda/query.cu (OP_FMATH: exp, ln, log10, cbrt and
// pow of doubles) is plain C under its macros: TestFMathCMatchesCPU
// compiles it with the host's C compiler and compares it, bits and
// errors, with eval.FloatMath (engine.FExp and the others), so CI checks
// it without a GPU; TestCallStepsMatchCPU runs it on the device.

func fmathSection(t *testing.T) string { return querySection(t, "fmath begin", "fmath end") }

var fmathOps = []engine.Op{engine.OpExp, engine.OpLn, engine.OpLog10, engine.OpCbrt, engine.OpPower}

// fmathErr is fmMath's error number for eval.FloatMath's error.
func fmathErr(err error) int {
	if err == nil {
		return 0
	}
	for k, m := range []string{"overflow", "underflow", "logarithm of zero", "logarithm of a negative", "zero raised", "complex"} {
		if strings.Contains(err.Error(), m) {
			return k + 1
		}
	}
	return -1
}

// fmathInputs are (op, x, y) triples: random bits, each function's
// ranges and edges, integers, powers of two and ten and their
// neighbours, subnormals, zeros, infinities and NaN.
func fmathInputs(n int) [][3]uint64 {
	rng := rand.New(rand.NewPCG(7, 11))
	specials := []float64{0, math.Copysign(0, -1), 1, -1, 2, 0.5, 10, 0.1, math.Inf(1), math.Inf(-1), math.NaN(),
		math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, 2.2250738585072014e-308, math.MaxFloat64, -math.MaxFloat64,
		709.78, 709.79, 709.8, 709.81, -745.13, -745.14, -745.2, -745.21, -708.4, 1e-300, 1e300, 3, 27, -8, 1e15, 1e-15}
	var out [][3]uint64
	add := func(op int, x, y float64) {
		out = append(out, [3]uint64{uint64(op), math.Float64bits(x), math.Float64bits(y)})
	}
	for op := range fmathOps {
		for _, x := range specials {
			for _, y := range specials {
				add(op, x, y)
			}
		}
		for e := -1074; e <= 1023; e++ {
			p := math.Ldexp(1, e)
			add(op, p, 2)
			add(op, math.Nextafter(p, 0), 0.5)
			add(op, math.Nextafter(p, math.Inf(1)), -3)
		}
		for k := -300; k <= 300; k++ {
			p := math.Pow(10, float64(k))
			add(op, p, float64(k))
			add(op, math.Nextafter(p, 0), 1/3.0)
		}
		for i := 0; i < n; i++ {
			var x, y float64
			switch rng.IntN(6) {
			case 0:
				x, y = math.Float64frombits(rng.Uint64()), math.Float64frombits(rng.Uint64())
			case 1:
				x, y = (rng.Float64()*2-1)*750, (rng.Float64()*2-1)*20
			case 2:
				x, y = 1+(rng.Float64()*2-1)*math.Ldexp(1, -rng.IntN(52)), float64(rng.IntN(41)-20)
			case 3:
				x, y = float64(rng.IntN(2001)-1000), float64(rng.IntN(81)-40)/2
			case 4:
				x, y = math.Ldexp(rng.Float64(), rng.IntN(2100)-1074), (rng.Float64()*2-1)*3
			default:
				x, y = (rng.Float64()*2-1)*10, rng.NormFloat64()*50
			}
			add(op, x, y)
		}
	}
	return out
}

// TestFMathCMatchesCPU runs the fmath section, compiled by the host's C
// compiler (no fused multiply-adds, as on the device), over
// fmathInputs (GPUSQL_FMATH_N random ones per function, 100,000 by
// default) and compares each result's bits, or its error, with
// eval.FloatMath.
func TestFMathCMatchesCPU(t *testing.T) {
	cc, err := exec.LookPath("gcc")
	if err != nil {
		if cc, err = exec.LookPath("cc"); err != nil {
			t.Skip("no C compiler here: ", err)
		}
	}
	n := 100000
	if s := os.Getenv("GPUSQL_FMATH_N"); s != "" {
		fmt.Sscan(s, &n)
	}
	dir := t.TempDir()
	harness := `#include <stdio.h>
#include <stdbool.h>
#include <math.h>
typedef long long i64; typedef unsigned long long u64;
#define __device__
#define __forceinline__ static inline
` + fmathSection(t) + `
int main(void) {
    static char ib[1 << 20], ob[1 << 20];
    setvbuf(stdin, ib, _IOFBF, sizeof ib);
    setvbuf(stdout, ob, _IOFBF, sizeof ob);
    unsigned op; u64 x, y;
    while (scanf("%u %llx %llx", &op, &x, &y) == 3) {
        int err;
        double r = fmMath((int)op, fmFromH(x), fmFromH(y), &err);
        printf("%d %llx\n", err, err ? 0ULL : fmBitsH(r));
    }
    return 0;
}
`
	if err := os.WriteFile(filepath.Join(dir, "h.c"), []byte(harness), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "h")
	if out, err := exec.Command(cc, "-O2", "-Wall", "-Werror", "-ffp-contract=off", "-o", bin, filepath.Join(dir, "h.c"), "-lm").CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", cc, err, out)
	}
	ins := fmathInputs(n)
	var in bytes.Buffer
	for _, x := range ins {
		fmt.Fprintf(&in, "%d %x %x\n", x[0], x[1], x[2])
	}
	cmd := exec.Command(bin)
	cmd.Stdin = &in
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	bad := 0
	for i, x := range ins {
		if !sc.Scan() {
			t.Fatalf("%d outputs for %d inputs", i, len(ins))
		}
		var gotErr int
		var gotBits uint64
		fmt.Sscanf(sc.Text(), "%d %x", &gotErr, &gotBits)
		op := fmathOps[x[0]]
		xf, yf := math.Float64frombits(x[1]), math.Float64frombits(x[2])
		r, werr := eval.FloatMath(op, xf, yf)
		wantErr := fmathErr(werr)
		got := math.Float64frombits(gotBits)
		same := gotErr == wantErr && (wantErr != 0 || gotBits == math.Float64bits(r) || math.IsNaN(r) && math.IsNaN(got))
		if !same {
			if bad++; bad <= 10 {
				t.Errorf("%s(%v, %v): C %v (error %d), CPU %v (%v)", op, xf, yf, got, gotErr, r, werr)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d differ", bad, len(ins))
	}
	t.Logf("%d inputs", len(ins))
}
