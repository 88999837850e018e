package pgbinary

import (
	"errors"
	"math/rand"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// AppendNumeric's output decodes back to the canonical text of its input
// (no sign on a zero, no leading zeros, the input's fraction digits), the
// special values included; malformed text is an Invalid *Error and
// leaves dst as it was.
func TestAppendNumericRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	cases := map[string]string{
		"0": "0", "-0.00": "0.00", "+7": "7", ".5": "0.5", "007.10": "7.10", "-0.0001": "-0.0001",
		"10000": "10000", "100000000.5": "100000000.5", "NaN": "NaN", "Infinity": "Infinity", "-Infinity": "-Infinity",
	}
	for k := 0; k < 3000; k++ {
		var b strings.Builder
		neg := rng.Intn(2) == 0
		ip := strings.Repeat("0", rng.Intn(3))
		for n := rng.Intn(25); n > 0; n-- {
			ip += string(rune('0' + rng.Intn(10)))
		}
		fp := ""
		for n := rng.Intn(12); n > 0; n-- {
			fp += string(rune('0' + rng.Intn(10)))
		}
		if ip == "" && fp == "" {
			ip = "0"
		}
		if neg {
			b.WriteByte('-')
		}
		b.WriteString(ip)
		if fp != "" {
			b.WriteString("." + fp)
		}
		want := strings.TrimLeft(ip, "0")
		if want == "" {
			want = "0"
		}
		if fp != "" {
			want += "." + fp
		}
		if neg && strings.Trim(want, "0.") != "" {
			want = "-" + want
		}
		cases[b.String()] = want
	}
	for in, want := range cases {
		bin, err := AppendNumeric([]byte("x"), []byte(in))
		if err != nil || bin[0] != 'x' {
			t.Fatalf("%q: %v", in, err)
		}
		got, err := AppendText(nil, engine.OIDNumeric, bin[1:])
		if err != nil || string(got) != want {
			t.Errorf("%q: decoded as %q (%v), want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "-", "+", ".", "1e5", "1.2.3", "abc", "--1", "+-1", " 1", "1 ", "0." + strings.Repeat("1", 0x4000)} {
		dst, err := AppendNumeric([]byte("x"), []byte(in))
		var pe *Error
		if !errors.As(err, &pe) || pe.Kind != Invalid || string(dst) != "x" {
			t.Errorf("%.20q: %q, %v; want an Invalid error and dst unchanged", in, dst, err)
		}
	}
}
