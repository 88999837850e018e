package gpu

import (
	"math/big"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/eval"
)

// TestIntervalSumOf checks that the device's 192-bit field sums become
// the CPU backend's state (eval.IntervalSum) exactly, and that sums no
// state holds are "interval out of range".
func TestIntervalSumOf(t *testing.T) {
	b := func(s string) *big.Int {
		x, ok := new(big.Int).SetString(s, 0)
		if !ok {
			t.Fatal(s)
		}
		return x
	}
	var huge eval.IntervalSum // twice the largest microseconds: past 64 bits
	for i := 0; i < 2; i++ {
		huge.Add(engine.IntervalVal{Micros: 1<<63 - 1})
	}
	cases := []struct {
		m, d, us string
		want     eval.IntervalSum
		err      bool
	}{
		{"0", "0", "0", eval.IntervalSum{}, false},
		{"-5", "7", "-1", eval.IntervalSum{Months: -5, Days: 7, Lo: ^uint64(0), Hi: -1}, false},
		{"0x7fffffffffffffff", "-0x8000000000000000", "0x7fffffffffffffff", eval.IntervalSum{Months: 1<<63 - 1, Days: -1 << 63, Lo: 1<<63 - 1}, false},
		{"0", "0", "0xfffffffffffffffe", huge, false},
		{"0", "0", "-0x80000000000000000000000000000000", eval.IntervalSum{Hi: -1 << 63}, false},
		{"0x8000000000000000", "0", "0", eval.IntervalSum{}, true},
		{"0", "-0x8000000000000001", "0", eval.IntervalSum{}, true},
		{"0", "0", "0x80000000000000000000000000000000", eval.IntervalSum{}, true},
		{"0", "0", "-0x80000000000000000000000000000001", eval.IntervalSum{}, true},
	}
	for _, c := range cases {
		got, err := intervalSumOf(b(c.m), b(c.d), b(c.us))
		if c.err {
			if engine.Code(err) != engine.CodeDatetimeFieldOverflow {
				t.Errorf("%s %s %s: %v, want 22008", c.m, c.d, c.us, err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%s %s %s: %+v %v, want %+v", c.m, c.d, c.us, got, err, c.want)
		}
	}
}
