package engine

import (
	"math/big"
	"math/rand"
	"strings"
	"testing"
)

// wideRef is ParseNumericWide by big.Rat: the value times 10^scale,
// rounded half away from zero, below 10^prec in magnitude.
func wideRef(s string, prec, scale int) (*big.Int, ParseStatus) {
	r, ok := new(big.Rat).SetString(strings.TrimSpace(s))
	if !ok {
		return nil, ParseInvalid
	}
	r.Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil)))
	neg := r.Sign() < 0
	r.Abs(r)
	q, m := new(big.Int).QuoRem(r.Num(), r.Denom(), new(big.Int))
	if new(big.Int).Mul(m, big.NewInt(2)).Cmp(r.Denom()) >= 0 {
		q.Add(q, big.NewInt(1))
	}
	if q.Cmp(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(prec)), nil)) >= 0 {
		return nil, ParseOutOfRange
	}
	if neg {
		q.Neg(q)
	}
	return q, ParseOK
}

func TestParseNumericWide(t *testing.T) {
	nines := strings.Repeat("9", 38)
	cases := []struct {
		in          string
		prec, scale int
	}{
		{nines, 38, 0}, {"-" + nines, 38, 0}, {"1" + nines, 38, 0}, {nines + ".4", 38, 0}, {nines + ".5", 38, 0},
		{nines[:36] + ".99", 38, 2}, {"-" + nines[:36] + ".995", 38, 2}, {nines[:36] + ".994", 38, 2},
		{"0." + nines, 38, 38}, {"1", 38, 38}, {"-0.5e-38", 38, 38}, {"1e37", 38, 0}, {"1e38", 38, 0},
		{"  12.5  ", 19, 1}, {"0.005", 38, 2}, {"-0.005", 38, 2}, {"0000000000000000000000000000000000000000001", 38, 0},
		{".5", 20, 0}, {"5.", 20, 0}, {"1e-100", 38, 10}, {"1e100", 38, 10}, {"9999999999999999999", 19, 0}, {"10000000000000000000", 19, 0},
	}
	rng := rand.New(rand.NewSource(7))
	for k := 0; k < 3000; k++ {
		p := 19 + rng.Intn(20)
		s := rng.Intn(p + 1)
		var b strings.Builder
		if rng.Intn(2) == 0 {
			b.WriteByte('-')
		}
		for n := 1 + rng.Intn(42); n > 0; n-- {
			b.WriteByte(byte('0' + rng.Intn(10)))
		}
		if rng.Intn(3) > 0 {
			b.WriteByte('.')
			for n := rng.Intn(42); n > 0; n-- {
				b.WriteByte(byte('0' + rng.Intn(10)))
			}
		}
		if rng.Intn(5) == 0 {
			b.WriteString("e")
			b.WriteString(strings.TrimPrefix(big.NewInt(int64(rng.Intn(80)-40)).String(), "+"))
		}
		cases = append(cases, struct {
			in          string
			prec, scale int
		}{b.String(), p, s})
	}
	for _, c := range cases {
		want, wst := wideRef(c.in, c.prec, c.scale)
		got, st := ParseNumericWide([]byte(c.in), c.prec, c.scale)
		if st != wst {
			t.Fatalf("ParseNumericWide(%q, %d, %d): status %v, want %v", c.in, c.prec, c.scale, st, wst)
		}
		if st != ParseOK {
			continue
		}
		if got.Scale != int32(c.scale) || got.Big().Cmp(want) != 0 {
			t.Fatalf("ParseNumericWide(%q, %d, %d) = %s (scale %d), want mantissa %s", c.in, c.prec, c.scale, got, got.Scale, want)
		}
	}
	for _, bad := range []string{"", "abc", "1.2.3", "--1", "1e", "NaN"} {
		if _, st := ParseNumericWide([]byte(bad), 38, 2); st != ParseInvalid {
			t.Errorf("ParseNumericWide(%q): status %v, want ParseInvalid", bad, st)
		}
	}
	if _, st := ParseNumericWide([]byte("-Infinity"), 38, 2); st != ParseOutOfRange {
		t.Errorf("ParseNumericWide(-Infinity): status %v, want ParseOutOfRange", st)
	}
}
