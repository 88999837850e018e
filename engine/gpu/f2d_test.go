package gpu

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// The float to numeric conversion of cuda/query.cu (f2dDecimal, between
// the "f2d begin" and "f2d end" lines) is plain C: this test compiles it
// with the host's C compiler and compares it with engine.DecFromFloat,
// so CI checks it without a GPU; TestFloatToNumericMatchesCPU
// (cmd/gpusql... engine/gpu's device tests) runs it on the device.
func f2dSection(t *testing.T) string { return querySection(t, "f2d begin", "f2d end") }

// wantF2D is what the C harness prints for one pattern, from the CPU
// backend's conversion: "nan", "inf", "-inf", "overflow", or the
// mantissa and scale.
func wantF2D(w, b uint64) string {
	f := math.Float64frombits(b)
	digits := 15
	if w == 32 {
		f = float64(math.Float32frombits(uint32(b)))
		digits = 6
	}
	switch {
	case f != f:
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	d, ok := engine.DecFromFloat(f, digits)
	if !ok {
		return "overflow"
	}
	return d.Big().String() + " " + strconv.Itoa(int(d.Scale))
}

// TestFloatToNumericCMatchesCPU runs query.cu's f2dDecimal, compiled by
// the host's C compiler, over the float patterns of the float text tests
// (GPUSQL_FTOA_N random ones of each width, 300,000 by default).
func TestFloatToNumericCMatchesCPU(t *testing.T) {
	cc, err := exec.LookPath("gcc")
	if err != nil {
		if cc, err = exec.LookPath("cc"); err != nil {
			t.Skip("no C compiler here: ", err)
		}
	}
	n := 300000
	if s := os.Getenv("GPUSQL_FTOA_N"); s != "" {
		if n, err = strconv.Atoi(s); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	harness := `#include <stdio.h>
#include <stdbool.h>
typedef long long i64; typedef unsigned long long u64; typedef __int128 i128;
#define __device__
#define __forceinline__ static inline
` + f2dSection(t) + `
int main(void) {
    static char ib[1 << 20], ob[1 << 20];
    setvbuf(stdin, ib, _IOFBF, sizeof ib);
    setvbuf(stdout, ob, _IOFBF, sizeof ob);
    unsigned w; u64 b;
    while (scanf("%u %llx", &w, &b) == 2) {
        if (w == 32) { // widen the real as the kernels' registers hold it
            union { unsigned u; float f; } x; x.u = (unsigned)b;
            union { double d; u64 u; } y; y.d = (double)x.f;
            b = y.u;
        }
        i128 m; int s;
        switch (f2dDecimal(b, w == 32, &m, &s)) {
        case 1: puts("nan"); continue;
        case 2: puts("inf"); continue;
        case 3: puts("-inf"); continue;
        case 4: puts("overflow"); continue;
        }
        unsigned __int128 a = m < 0 ? -(unsigned __int128)m : (unsigned __int128)m;
        printf("%s%llx %llx %d\n", m < 0 ? "-" : "", (u64)(a >> 64), (u64)a, s);
    }
    return 0;
}
`
	if err := os.WriteFile(filepath.Join(dir, "h.c"), []byte(harness), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "h")
	if out, err := exec.Command(cc, "-O2", "-Wall", "-Werror", "-o", bin, filepath.Join(dir, "h.c")).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", cc, err, out)
	}
	pats := append(floatPatterns(n, 3), f2dPatterns()...)
	var in bytes.Buffer
	for _, p := range pats {
		fmt.Fprintf(&in, "%d %x\n", p[0], p[1])
	}
	cmd := exec.Command(bin)
	cmd.Stdin = &in
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	bad := 0
	for i, p := range pats {
		if !sc.Scan() {
			t.Fatalf("%d outputs for %d patterns", i, len(pats))
		}
		got := sc.Text()
		if f := strings.Fields(got); len(f) == 3 { // hi lo scale, hex: to decimal
			neg := strings.HasPrefix(f[0], "-")
			hi, _ := strconv.ParseUint(strings.TrimPrefix(f[0], "-"), 16, 64)
			lo, _ := strconv.ParseUint(f[1], 16, 64)
			v := new(big.Int).Lsh(new(big.Int).SetUint64(hi), 64)
			v.Or(v, new(big.Int).SetUint64(lo))
			if neg {
				v.Neg(v)
			}
			got = v.String() + " " + f[2]
		}
		if want := wantF2D(p[0], p[1]); got != want {
			if bad++; bad <= 10 {
				t.Errorf("float%d %#x: C %q, CPU %q", p[0], p[1], got, want)
			}
		}
	}
	if bad > 0 {
		t.Fatalf("%d of %d differ", bad, len(pats))
	}
	t.Logf("%d bit patterns identical", len(pats))
}

// f2dPatterns adds the values whose 15 or 6 digit rounding is hard:
// exact ties (integers and binary fractions with a 5 in the 16th or 7th
// significant digit) and their neighbours, values near 2^127 and near
// every power of ten's rounding boundary.
func f2dPatterns() [][2]uint64 {
	var out [][2]uint64
	add64 := func(f float64) {
		out = append(out, [2]uint64{64, math.Float64bits(f)}, [2]uint64{64, math.Float64bits(-f)},
			[2]uint64{64, math.Float64bits(math.Nextafter(f, 0))}, [2]uint64{64, math.Float64bits(math.Nextafter(f, math.Inf(1)))})
	}
	add32 := func(f float32) {
		out = append(out, [2]uint64{32, uint64(math.Float32bits(f))}, [2]uint64{32, uint64(math.Float32bits(-f))},
			[2]uint64{32, uint64(math.Float32bits(math.Nextafter32(f, 0)))}, [2]uint64{32, uint64(math.Float32bits(math.Nextafter32(f, float32(math.Inf(1)))))})
	}
	for i := int64(0); i < 2000; i++ {
		add64(float64(1000000000000000 + 10*i + 5)) // 16 digits, exact ties
		add64(float64(9999999999999000 + 10*i + 5)) // ties that carry into 10^16
		add64(float64(100000000000000+i) + 0.5)     // 15 digits and a half
		add64(float64(1234567890123+i) * 0.0078125) // binary fractions
		add32(float32(1000000 + 10*i + 5))          // 7 digits, exact ties for a real
		add32(float32(100000+i) + 0.5)
		add64(math.Ldexp(float64(i+1), 127-11)) // near 2^127
		add64(math.Ldexp(1, int(i%2100)-1074))  // every power of two
		add64(9.999999999999995 * math.Pow(10, float64(i%600-300)))
	}
	return out
}

// F2DPatterns is f2dPatterns for the device tests (package gpu_test).
var F2DPatterns = f2dPatterns
