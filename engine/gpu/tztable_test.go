package gpu

import (
	"encoding/binary"
	"math/rand"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// tzTwin is OP_TZLOCAL and OP_TZUTC (query.cu) over a zone table, in Go.
func tzTwin(tab []byte, x int64, toUTC bool) (int64, bool) {
	ld := func(o int) int64 { return int64(binary.LittleEndian.Uint64(tab[o:])) }
	n, limit := int(ld(0)), ld(8)
	t := x / 1_000_000
	if x%1_000_000 != 0 && x < 0 {
		t--
	}
	if t+86400 > limit {
		return 0, false
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
		return x + ld(16+16*find(t)+8)*1_000_000, true
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
	return x - off*1_000_000, true
}

// TestTzTableMatchesZone checks the zone tables the GPU searches against
// engine.Zone: every instant's offset and every wall-clock time's
// resolution (DST gaps and overlaps included), from 1850 to 2099, in
// zones with DST, half-hour DST and LMT; past 2100 the kernel refuses.
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
		for _, x := range xs {
			got, ok := tzTwin([]byte(tab), x, false)
			if want := z.ToLocal(x); !ok || got != want {
				t.Fatalf("%s: local of %d: %d, want %d (ok %v)", name, x, got, want, ok)
			}
			got, ok = tzTwin([]byte(tab), x, true)
			if want := z.FromLocal(x); !ok || got != want {
				t.Fatalf("%s: UTC of local %d: %d, want %d (ok %v)", name, x, got, want, ok)
			}
		}
	}
	if _, ok := tzTwin([]byte(mustTable(t, "Europe/Berlin")), 4_200_000_000*1_000_000, false); ok {
		t.Error("an instant past the table's end was not refused")
	}
}

func mustTable(t *testing.T, name string) string {
	z, err := engine.LookupZone(name)
	if err != nil {
		t.Fatal(err)
	}
	tab, ok := tzTable(z)
	if !ok {
		t.Fatalf("%s: no table", name)
	}
	return tab
}
