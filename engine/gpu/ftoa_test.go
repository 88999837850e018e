package gpu

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// The float output of cuda/query.cu (putFloat, between the "ftoa begin"
// and "ftoa end" lines) is plain C: these tests compile it with the
// host's C compiler and compare it with engine.AppendFloat, so CI checks
// it without a GPU; TestFloatTextMatchesCPU runs the same code on the
// device.

func ftoaSection(t *testing.T) string { return querySection(t, "ftoa begin", "ftoa end") }

// TestFloatTextTable recomputes the table of 126-bit powers of ten.
func TestFloatTextTable(t *testing.T) {
	sec := ftoaSection(t)
	body := sec[strings.Index(sec, "ftG[("):]
	body = body[strings.Index(body, "{")+1 : strings.Index(body, "}")]
	words := regexp.MustCompile(`0x[0-9a-f]{16}`).FindAllString(body, -1)
	if len(words) != 2*(292+324+1) {
		t.Fatalf("ftG has %d words", len(words))
	}
	one := big.NewInt(1)
	lo, hi := new(big.Int).Lsh(one, 125), new(big.Int).Lsh(one, 126)
	for k := -324; k <= 292; k++ {
		num, den := big.NewInt(1), big.NewInt(1)
		if k <= 0 {
			num.Exp(big.NewInt(10), big.NewInt(int64(-k)), nil)
		} else {
			den.Exp(big.NewInt(10), big.NewInt(int64(k)), nil)
		}
		// scale 10^-k by 2^r into [2^125, 2^126)
		r := 125 - (num.BitLen() - den.BitLen())
		var g *big.Int
		for d := -2; d <= 2; d++ {
			a, b := new(big.Int).Set(num), new(big.Int).Set(den)
			if s := r + d; s >= 0 {
				a.Lsh(a, uint(s))
			} else {
				b.Lsh(b, uint(-s))
			}
			q := new(big.Int).Quo(a, b)
			if q.Cmp(lo) >= 0 && q.Cmp(hi) < 0 {
				g = q.Add(q, one)
			}
		}
		i := 2 * (k + 324)
		g1, _ := strconv.ParseUint(words[i][2:], 16, 64)
		g0, _ := strconv.ParseUint(words[i+1][2:], 16, 64)
		want1 := new(big.Int).Rsh(g, 63).Uint64()
		want0 := new(big.Int).And(g, new(big.Int).Sub(new(big.Int).Lsh(one, 63), one)).Uint64()
		if g1 != want1 || g0 != want0 {
			t.Fatalf("ftG for k=%d: %#x %#x, want %#x %#x", k, g1, g0, want1, want0)
		}
	}
}

// floatPatterns returns n random bit patterns of each width and the
// nasty ones: zeros, subnormals, powers of two (whose interval is
// lopsided), integers, neighbours of powers of ten, extremes, NaN and
// infinities. Each item is (32 or 64, bits).
func floatPatterns(n int, seed uint64) [][2]uint64 {
	rng := rand.New(rand.NewPCG(seed, 7))
	var out [][2]uint64
	add64 := func(f float64) { out = append(out, [2]uint64{64, math.Float64bits(f)}) }
	add32 := func(f float32) { out = append(out, [2]uint64{32, uint64(math.Float32bits(f))}) }
	for i := 0; i < n; i++ {
		out = append(out, [2]uint64{64, rng.Uint64()}, [2]uint64{32, uint64(rng.Uint32())})
		// doubles holding short decimals, and reals from random doubles
		add64(float64(rng.IntN(2000000)-1000000) * math.Pow(10, float64(rng.IntN(60)-30)))
		add32(float32(rng.NormFloat64() * math.Pow(10, float64(rng.IntN(20)-10))))
	}
	for b := uint64(0); b < 3000; b++ {
		out = append(out, [2]uint64{64, b}, [2]uint64{64, b | 1<<63}, [2]uint64{32, b}, [2]uint64{32, b | 1<<31})
		out = append(out, [2]uint64{64, 0x7fefffffffffffff - b}, [2]uint64{32, 0x7f7fffff - b})
	}
	for e := uint64(0); e < 2047; e++ {
		for _, m := range []uint64{0, 1, 2, 1<<52 - 1, 1<<52 - 2} {
			out = append(out, [2]uint64{64, e<<52 | m})
		}
	}
	for e := uint64(0); e < 255; e++ {
		for _, m := range []uint64{0, 1, 2, 1<<23 - 1, 1<<23 - 2} {
			out = append(out, [2]uint64{32, e<<23 | m})
		}
	}
	for k := -330; k <= 310; k++ {
		f, _ := strconv.ParseFloat(fmt.Sprintf("1e%d", k), 64)
		for _, g := range []float64{f, math.Nextafter(f, 0), math.Nextafter(f, math.Inf(1)), 5 * f, 9.5 * f} {
			add64(g)
			add64(-g)
		}
		if k > -50 && k < 40 {
			f32, _ := strconv.ParseFloat(fmt.Sprintf("1e%d", k), 32)
			g := float32(f32)
			add32(g)
			add32(math.Nextafter32(g, 0))
			add32(math.Nextafter32(g, float32(math.Inf(1))))
		}
	}
	for i := int64(-2000); i < 2000; i++ {
		add64(float64(i))
		add32(float32(i))
		add64(float64(i) * 1e15)
		add64(float64(i) / 8)
	}
	for _, f := range []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 1 << 53, 1<<53 + 2, 1 << 63, 1e15, 1e16, 123456789012345678, 0.0001, 0.00001, 1e21, 1e22, 1e23, 5e-324, math.MaxFloat64, 1.5e-07} {
		add64(f)
		add32(float32(f))
	}
	out = append(out, [2]uint64{32, 0x7fc00000}, [2]uint64{32, 0xffc00001}, [2]uint64{64, 0xfff8000000000001})
	return out
}

func appendFloatBits(dst []byte, w, b uint64) []byte {
	if w == 32 {
		return engine.AppendFloat(dst, float64(math.Float32frombits(uint32(b))), 32)
	}
	return engine.AppendFloat(dst, math.Float64frombits(b), 64)
}

// TestFloatTextCMatchesCPU runs query.cu's putFloat, compiled by the
// host's C compiler, over random and edge bit patterns of both widths
// (GPUSQL_FTOA_N random ones each, 300,000 by default).
func TestFloatTextCMatchesCPU(t *testing.T) {
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
typedef long long i64; typedef unsigned long long u64; typedef unsigned __int128 u128;
#define __device__
#define __forceinline__ static inline
` + ftoaSection(t) + `
int main(void) {
    static char ib[1 << 20], ob[1 << 20];
    setvbuf(stdin, ib, _IOFBF, sizeof ib);
    setvbuf(stdout, ob, _IOFBF, sizeof ob);
    unsigned w; u64 b; unsigned char buf[64];
    while (scanf("%u %llx", &w, &b) == 2) {
        int n = putFloat(buf, b, w == 32);
        fwrite(buf, 1, n, stdout);
        putchar('\n');
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
	pats := floatPatterns(n, 1)
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
	var want []byte
	for i, p := range pats {
		if !sc.Scan() {
			t.Fatalf("%d outputs for %d patterns", i, len(pats))
		}
		want = appendFloatBits(want[:0], p[0], p[1])
		if got := sc.Text(); got != string(want) {
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

// FloatPatterns is floatPatterns for the device tests (package gpu_test).
var FloatPatterns = floatPatterns
