package gpu_test

import (
	"fmt"
	"math/rand"
	"os"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine/gpu"
)

// writeGroupingCSV writes ga's columns: id, a small integer key k with
// NULLs, a numeric(12,2), doubles that are multiples of 1/8 and others
// that are not, reals, booleans and a text group, all with NULLs, plus
// extremes (smallint's and bigint's ends for the bit aggregates).
func writeGroupingCSV(t *testing.T, path string, n int, rng *rand.Rand) {
	maybe := func(s string) string {
		if rng.Intn(9) == 0 {
			return ""
		}
		return s
	}
	groups := []string{"a", "b", "c", "", "dd"}
	var b strings.Builder
	for i := 0; i < n; i++ {
		d := fmt.Sprint(float64(rng.Intn(20000)-10000) / 8)
		if rng.Intn(4) == 0 {
			d = fmt.Sprint(rng.NormFloat64() * 1e3)
		}
		big := fmt.Sprint(rng.Int63n(1<<40) - 1<<39)
		if rng.Intn(100) == 0 {
			big = []string{"9223372036854775807", "-9223372036854775808"}[rng.Intn(2)]
		}
		s := fmt.Sprint(rng.Intn(65536) - 32768)
		fmt.Fprintf(&b, "%s,%s,%s,%s,%s,%s,%s,%s\n", big, maybe(fmt.Sprint(rng.Intn(7)-2)),
			maybe(fmt.Sprintf("%d.%02d", rng.Intn(200000)-100000, rng.Intn(100))), maybe(d),
			maybe(fmt.Sprint(float32(rng.Intn(4000)-2000)/4)), maybe([]string{"t", "f"}[rng.Intn(2)]),
			maybe(groups[rng.Intn(len(groups))]), maybe(s))
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestGroupingAggsMatchCPU compares GroupingQueries on the device with
// the CPU backend at 1, 5,000 and 70,000 rows, the device's pool
// poisoned before each query. The CPU backend is checked with 1 and 8
// workers first, so the statistics' order independence is tested where
// no GPU exists too.
func TestGroupingAggsMatchCPU(t *testing.T) {
	skipCPUHalfUnderRace(t)
	sizedTwins{
		sizes:       []int{1, 5000, 70000},
		write:       csvWriter("ga.csv", 41, writeGroupingCSV),
		ddl:         `CREATE TABLE ga (id bigint, k integer, n numeric(12,2), d double precision, r real, b boolean, g text, s smallint) FROM CSV 'ga.csv'`,
		queries:     gpu.GroupingQueries,
		sortWorkers: true,
		opts:        twinOpts{sameMessage: true, ordered: ordered},
	}.run(t)
}
