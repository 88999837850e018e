package pqfile

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/gpusql/gpusql/engine"
)

func TestBigEndian(t *testing.T) {
	cases := []struct {
		b  []byte
		v  int64
		ok bool
	}{
		{[]byte{0x01}, 1, true},
		{[]byte{0xff}, -1, true},
		{[]byte{0x00, 0x80}, 128, true},
		{[]byte{0xff, 0x7f}, -129, true},
		{[]byte{0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, math.MaxInt64, true},
		{[]byte{0x80, 0, 0, 0, 0, 0, 0, 0}, math.MinInt64, true},
		// 16 bytes, sign-extended: fits.
		{[]byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x30, 0x39}, 12345, true},
		{[]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xcf, 0xc7}, -12345, true},
		// Beyond int64: the extension bytes or the sign disagree.
		{[]byte{0x01, 0, 0, 0, 0, 0, 0, 0, 0}, 0, false},
		{[]byte{0x00, 0x80, 0, 0, 0, 0, 0, 0, 0}, 0, false},
		{[]byte{0xff, 0x7f, 0, 0, 0, 0, 0, 0, 0}, 0, false},
		{nil, 0, false},
	}
	for _, c := range cases {
		v, ok := bigEndian(c.b)
		if ok != c.ok || (ok && v != c.v) {
			t.Errorf("bigEndian(% x) = %d, %v; want %d, %v", c.b, v, ok, c.v, c.ok)
		}
	}
}

// TestNanosRoundLikeText: a nanosecond timestamp reads as the microseconds
// that PostgreSQL (and gpusql's CSV reader) read from its text with nine
// fractional digits, halves included, either side of 1970.
func TestNanosRoundLikeText(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	cv := &conv{dst: engine.Timestamp, nanos: true, mul: 1}
	vals := []int64{0, 500, 1500, 2500, -500, -1500, -1, 1, 999999500, -999999500, math.MaxInt64, math.MinInt64}
	for i := 0; i < 20000; i++ {
		v := rng.Int64()
		if i%2 == 0 {
			v = v/1000*1000 + 500 // a half
		}
		vals = append(vals, v)
	}
	for _, v := range vals {
		tm := time.Unix(0, v).UTC()
		text := tm.Format("2006-01-02 15:04:05.000000000")
		want, st := engine.ParseTimestamp([]byte(text))
		got, ok := micros(v, cv)
		if !ok || st != engine.ParseOK || got != want {
			t.Fatalf("%d (%s): got %d %v, text reads as %d (%v)", v, text, got, ok, want, st)
		}
	}
}

func TestMicrosRange(t *testing.T) {
	ms := &conv{dst: engine.Timestamp, mul: 1000}
	if _, ok := micros(math.MaxInt64/10, ms); ok {
		t.Error("milliseconds beyond int64 microseconds read")
	}
	if v, ok := micros(-62135596800000, ms); !ok || v != minTS {
		t.Errorf("0001-01-01 in ms: %d %v", v, ok)
	}
	if _, ok := micros(-62135596800001, ms); ok {
		t.Error("a timestamp before year 1 read")
	}
	if v, ok := micros(86400e6, &conv{dst: engine.Time, mul: 1}); !ok || v != 86400e6 {
		t.Error(fmt.Sprint("24:00:00: ", v, ok))
	}
}
