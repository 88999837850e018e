package engine

import (
	"math"
	"testing"
)

// TestAppendFloatPostgres checks outputs as PostgreSQL 12+ prints them
// (extra_float_digits = 1, Ryu): shortest round-trip digits, ties to an
// even last digit.
func TestAppendFloatPostgres(t *testing.T) {
	cases := []struct {
		f    float64
		bits int
		want string
	}{
		{0x1p-12, 32, "0.00024414062"}, // an exact tie: Go's strconv says ...063
		{-0x1p-12, 32, "-0.00024414062"},
		{0x1p-12, 64, "0.000244140625"},
		{0x1p-25, 64, "2.9802322387695312e-08"},
		{1e20, 64, "1e+20"},
		{1.5e-7, 64, "1.5e-07"},
		{math.Copysign(0, -1), 64, "-0"},
		{math.Inf(-1), 32, "-Infinity"},
		{math.NaN(), 64, "NaN"},
		{float64(float32(0.1)), 32, "0.1"},
		{123456, 32, "123456"},
		{1234567, 32, "1.234567e+06"},
		{5e-324, 64, "5e-324"},
	}
	for _, c := range cases {
		if got := string(AppendFloat(nil, c.f, c.bits)); got != c.want {
			t.Errorf("AppendFloat(%g, %d) = %q, want %q", c.f, c.bits, got, c.want)
		}
	}
}
