package gpu

import (
	"encoding/binary"
	"math/rand"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// tzTwin is OP_TZLOCAL and OP_TZUTC (query.cu) over a zone table, in Go.
func tzTwin(tab []byte, x int64, toUTC bool) int64 {
	ld := func(o int) int64 { return int64(binary.LittleEndian.Uint64(tab[o:])) }
	n, limit := int(ld(0)), ld(8)
	t := x / 1_000_000
	if x%1_000_000 != 0 && x < 0 {
		t--
	}
	if t+86400 > limit {
		t -= ((t+86400-limit)/engine.TzPeriod + 1) * engine.TzPeriod
	}
	find := func(t int64) int {
		lo, hi := 0, n-1
		for lo < hi {
			mid := (lo + hi + 1) / 2
			if ld(16+16*mid) <= t {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		return lo
	}
	if !toUTC {
		return x + ld(16+16*find(t)+8)*1_000_000
	}
	j := find(t - 86400)
	before := ld(16 + 16*j + 8)
	off := before
	if j+1 < n {
		boundary, after := ld(16+16*(j+1)), ld(16+16*(j+1)+8)
		bt, at := t-before, t-after
		switch {
		case bt < boundary && at < boundary:
			off = before
		case bt >= boundary && at >= boundary:
			off = after
		case bt > at:
			off = before
		default:
			off = after
		}
	}
	return x - off*1_000_000
}

// TestTzTableMatchesZone checks the zone tables the GPU searches against
// engine.Zone: every instant's offset and every wall-clock time's
// resolution (DST gaps and overlaps included), from 1850 to 2099, in
// zones with DST, half-hour DST and LMT, and past the table's end (2440
// and later) through the 400-year period, up to PostgreSQL's last
// timestamp (294276).
func TestTzTableMatchesZone(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	for _, name := range []string{"Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "America/Sao_Paulo", "Pacific/Apia"} {
		z, err := engine.LookupZone(name)
		if err != nil {
			t.Fatal(err)
		}
		tab, ok := tzTable(z)
		if !ok {
			t.Fatalf("%s: no table", name)
		}
		starts, _, _, _ := z.Transitions()
		var xs []int64
		for _, s := range starts[1:] {
			for _, d := range []int64{-7200, -3601, -3600, -1, 0, 1, 1800, 3599, 3600, 7200} {
				xs = append(xs, (s+d)*1_000_000)
			}
		}
		for k := 0; k < 20000; k++ {
			xs = append(xs, rng.Int63n(7_889_184_000_000_000)-3_786_825_600_000_000+rng.Int63n(1_000_000)) // 1850..2099
		}
		// past the table: 2100..12000 at random, every quarter hour of
		// two days each side of the table's end and of the ends of the
		// years 9999 and 294276 (PostgreSQL's last timestamp)
		_, _, limit, _ := z.Transitions()
		for k := 0; k < 20000; k++ {
			xs = append(xs, 4_102_444_800_000_000+rng.Int63n(316_000_000_000_000_000))
		}
		for _, edge := range []int64{limit, 253_402_300_799, 9_224_318_015_999} { // 9999-12-31 23:59:59, 294276-12-31 23:59:59
			for d := int64(-2 * 86400); d <= 2*86400; d += 900 {
				xs = append(xs, (edge+d)*1_000_000)
			}
		}
		xs = append(xs, 9_224_318_016_000_000-1, 9_224_318_016_000_000-86400_000_000)
		for _, x := range xs {
			if got, want := tzTwin([]byte(tab), x, false), z.ToLocal(x); got != want {
				t.Fatalf("%s: local of %d: %d, want %d", name, x, got, want)
			}
			if got, want := tzTwin([]byte(tab), x, true), z.FromLocal(x); got != want {
				t.Fatalf("%s: UTC of local %d: %d, want %d", name, x, got, want)
			}
		}
	}
}
