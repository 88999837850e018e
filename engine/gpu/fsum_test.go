package gpu_test

import (
	"fmt"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/cuda"
	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/cpu"
	"github.com/gpusql/gpusql/engine/gpu"
	"github.com/gpusql/gpusql/loader"
)

// pgFloat writes x as PostgreSQL's float input reads it.
func pgFloat(x float64, bits int) string {
	switch {
	case math.IsNaN(x):
		return "NaN"
	case math.IsInf(x, 1):
		return "Infinity"
	case math.IsInf(x, -1):
		return "-Infinity"
	}
	return strconv.FormatFloat(x, 'g', -1, bits)
}

// writeNastyFloats writes rows of kinds k: 0 wide-ranging values, 1 huge
// values that cancel, 2 subnormals, 3 with +Infinity, 4 with NaN, 5 only
// -0, 6 +Infinity and -Infinity, 7 a sum past the double range; g spreads
// rows over many groups, z is a float key of -0 and 0 (and NaN), with
// NULLs everywhere but id and k.
func writeNastyFloats(t *testing.T, path string, n int, rng *rand.Rand) {
	var b strings.Builder
	for i := 0; i < n; i++ {
		k := rng.Intn(8)
		var d float64
		r := float32(rng.NormFloat64() * math.Pow(10, float64(rng.Intn(20)-10)))
		switch k {
		case 0:
			d = rng.NormFloat64() * math.Pow(10, float64(rng.Intn(40)-20))
		case 1:
			d = float64(rng.Intn(3)-1) * 1e300 * (1 + float64(rng.Intn(4))/8)
			r = float32(rng.Intn(3)-1) * 1e33
		case 2:
			d = math.Float64frombits(rng.Uint64()&(1<<52-1)) * float64(rng.Intn(3)-1)
			r = math.Float32frombits(rng.Uint32()&(1<<23-1)) * float32(rng.Intn(3)-1)
		case 3:
			d, r = rng.NormFloat64(), float32(rng.NormFloat64())
			if rng.Intn(50) == 0 {
				d, r = math.Inf(1), float32(math.Inf(1))
			}
		case 4:
			d = rng.NormFloat64()
			if rng.Intn(50) == 0 {
				d, r = math.NaN(), float32(math.NaN())
			}
		case 5:
			d, r = math.Copysign(0, -1), float32(math.Copysign(0, -1))
		case 6:
			d, r = math.Inf(1-2*rng.Intn(2)), float32(math.Inf(1-2*rng.Intn(2)))
		case 7:
			d, r = math.MaxFloat64/2, math.MaxFloat32/2
		}
		z := [...]float64{0, math.Copysign(0, -1), 1, math.NaN()}[rng.Intn(4)]
		null := func(s string) string {
			if rng.Intn(15) == 0 {
				return ""
			}
			return s
		}
		fmt.Fprintf(&b, "%d,%d,%s,%s,%s,%s\n", i, k, null(fmt.Sprint(rng.Intn(5000))), null(pgFloat(d, 64)),
			null(pgFloat(float64(r), 32)), null(pgFloat(z, 64)))
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

var floatSumQueries = []string{
	`SELECT k, sum(d), avg(d), sum(r), avg(r), count(d), count(r) FROM f WHERE k <> 7 GROUP BY k ORDER BY k`,
	`SELECT sum(d), avg(d), sum(r), avg(r) FROM f WHERE k IN (0, 1, 2)`,
	`SELECT sum(d), avg(d), sum(r), avg(r) FROM f WHERE k = 0`,
	`SELECT sum(d), avg(r) FROM f WHERE k = 1`,
	`SELECT sum(d), sum(r), avg(d) FROM f WHERE k = 5`,
	`SELECT sum(d) FROM f WHERE k = 7`,
	`SELECT sum(r) FROM f WHERE k = 7`,
	`SELECT avg(r), count(*) FROM f WHERE k = 7`,
	`SELECT g, sum(d), avg(r), count(*) FROM f WHERE k < 3 GROUP BY g ORDER BY g`,
	`SELECT g % 7, sum(d * 2), sum(-d), avg(d / 3) FROM f WHERE k = 0 GROUP BY 1 ORDER BY 1`,
	`SELECT sum(d), avg(d) FROM f WHERE id < 0`,
	`SELECT k, sum(d) FROM f WHERE id < 0 GROUP BY k`,
	`SELECT z, count(*), sum(d) FROM f WHERE k = 0 GROUP BY z ORDER BY 2, 1`,
	`SELECT z, k, count(*) FROM f WHERE id % 5 = 1 GROUP BY z, k ORDER BY 2, 1`,
	`SELECT sum(d), 1 FROM f WHERE false`,
	`SELECT k, sum(d) FROM f WHERE k <> 7 GROUP BY k HAVING sum(d) > 0 ORDER BY k`,
	`SELECT k, sum(d) FROM f GROUP BY k ORDER BY k`,
}

// TestFloatSumsMatch runs sum/avg over nasty float data (every magnitude,
// cancellation, subnormals, infinities, NaN, -0, NULLs, overflow) on the
// CPU backend with one worker and with many, and, where a GPU is usable,
// on the CUDA backend: every result must be the same bits, since all
// three sum exactly and round once. Float GROUP BY keys must show their
// first row's -0 or 0 on every backend.
func TestFloatSumsMatch(t *testing.T) {
	dir := t.TempDir()
	n := 300_000
	if testing.Short() {
		n = 40_000
	}
	writeNastyFloats(t, filepath.Join(dir, "f.csv"), n, rand.New(rand.NewSource(11)))
	host := loader.NewCPU(loader.Config{})
	mk := func(b engine.Backend) engine.Session {
		return newSession(t, dir, b, `CREATE TABLE f (id bigint, k integer, g integer, d double precision, r real, z double precision) FROM CSV 'f.csv'`)
	}
	ref := mk(cpu.New(host, 1))
	others := map[string]engine.Session{"cpu, 16 workers": mk(cpu.New(host, 16))}
	if dev, err := cuda.Open(0); err != nil {
		t.Logf("no usable GPU (%v): comparing CPU worker counts only", err)
	} else {
		t.Cleanup(func() { dev.Close() })
		others["cuda"] = mk(gpu.New(dev, gpu.HostLoader{Dev: dev, Host: host}))
	}
	for _, q := range floatSumQueries {
		want, werr := runSQL(t, ref, q)
		for name, s := range others {
			got, gerr := runSQL(t, s, q)
			if engine.Code(werr) != engine.Code(gerr) {
				t.Errorf("%s: %s\n 1 worker: %v\n %s: %v", name, q, werr, name, gerr)
				continue
			}
			if strings.Join(want, "\n") != strings.Join(got, "\n") {
				t.Errorf("%s: %s\n 1 worker %q\n %s %q", name, q, head(want), name, head(got))
			}
		}
		if werr != nil {
			t.Logf("%s: %v", q, werr)
		} else {
			t.Logf("%s: %q", q, head(want))
		}
	}
}

func head(rows []string) []string {
	if len(rows) > 6 {
		return rows[:6]
	}
	return rows
}
