package engine

import (
	"math"
	"testing"
)

// pointOne and pointTwo are variables so that 0.1+0.2 is computed in
// float64 at run time (a constant expression would be exact 0.3).
var pointOne, pointTwo = 0.1, 0.2

// Expected strings come from PostgreSQL 15.20 (psql -At, default
// extra_float_digits = 1, DateStyle ISO, IntervalStyle postgres).

func TestAppendFloat64(t *testing.T) {
	cases := []struct {
		f    float64
		want string
	}{
		{pointOne + pointTwo, "0.30000000000000004"},
		{1e15, "1e+15"},
		{1e14, "100000000000000"},
		{123456789012345678, "1.2345678901234568e+17"},
		{1.5e-5, "1.5e-05"},
		{0.0001, "0.0001"},
		{1e-5, "1e-05"},
		{math.Copysign(0, -1), "-0"},
		{0, "0"},
		{math.NaN(), "NaN"},
		{math.Inf(1), "Infinity"},
		{math.Inf(-1), "-Infinity"},
		{999999999999999, "999999999999999"},
		{1e16, "1e+16"},
		{123456789012345.6, "123456789012345.6"},
		{1e100, "1e+100"},
		{1e-100, "1e-100"},
		{5e-324, "5e-324"},
		{math.MaxFloat64, "1.7976931348623157e+308"},
		{0.00012345, "0.00012345"},
		{-1234.5, "-1234.5"},
		{100, "100"},
		{1.0 / 3, "0.3333333333333333"},
		{float64(float32(1.1)), "1.100000023841858"},
		{9007199254740992, "9.007199254740992e+15"},
	}
	for _, c := range cases {
		if got := string(AppendFloat([]byte("x"), c.f, 64)); got != "x"+c.want {
			t.Errorf("AppendFloat(%v, 64) = %q, want %q", c.f, got[1:], c.want)
		}
	}
}

func TestAppendFloat32(t *testing.T) {
	f32 := func(x float32) float64 { return float64(x) }
	cases := []struct {
		f    float64
		want string
	}{
		{f32(1.1), "1.1"},
		{f32(1234567), "1.234567e+06"},
		{f32(0.000123), "0.000123"},
		{f32(123456), "123456"},
		{f32(100000), "100000"},
		{f32(1e6), "1e+06"},
		{f32(0.0001), "0.0001"},
		{f32(0.00001), "1e-05"},
		{f32(3.4028235e38), "3.4028235e+38"},
		{math.Copysign(0, -1), "-0"},
		{f32(16777217), "1.6777216e+07"},
		{f32(1) / f32(3), "0.33333334"},
		{math.NaN(), "NaN"},
		{math.Inf(1), "Infinity"},
		{math.Inf(-1), "-Infinity"},
	}
	for _, c := range cases {
		if got := string(AppendFloat(nil, c.f, 32)); got != c.want {
			t.Errorf("AppendFloat(%v, 32) = %q, want %q", c.f, got, c.want)
		}
	}
}

func TestAppendDate(t *testing.T) {
	// days = select d - '1970-01-01'::date
	cases := []struct {
		days int32
		want string
	}{
		{0, "1970-01-01"},
		{-1, "1969-12-31"},
		{-25509, "1900-02-28"},
		{11016, "2000-02-29"},
		{-719162, "0001-01-01"},
		{-719163, "0001-12-31 BC"},
		{-735160, "0044-03-15 BC"},
		{2932896, "9999-12-31"},
		{-2440222, "4713-11-24 BC"},
		{-2440588, "4714-11-24 BC"},
	}
	for _, c := range cases {
		if got := string(AppendDate([]byte("x"), c.days)); got != "x"+c.want {
			t.Errorf("AppendDate(%d) = %q, want %q", c.days, got[1:], c.want)
		}
	}
}

func TestAppendTimestamp(t *testing.T) {
	// us = select (extract(epoch from ts) * 1000000)::bigint
	cases := []struct {
		us   int64
		want string
	}{
		{-500000, "1969-12-31 23:59:59.5"},
		{-301233599999999, "1960-06-15 12:00:00.000001"},
		{1577836800120000, "2020-01-01 00:00:00.12"},
		{0, "1970-01-01 00:00:00"},
		{-62167219200000000, "0001-01-01 00:00:00 BC"},
		{-2208988800000001, "1899-12-31 23:59:59.999999"},
		{1709212455000100, "2024-02-29 13:14:15.0001"},
		{-1, "1969-12-31 23:59:59.999999"},
		{86399999999, "1970-01-01 23:59:59.999999"},
	}
	for _, c := range cases {
		if got := string(AppendTimestamp([]byte("x"), c.us)); got != "x"+c.want {
			t.Errorf("AppendTimestamp(%d) = %q, want %q", c.us, got[1:], c.want)
		}
	}
}

func TestAppendInterval(t *testing.T) {
	const h = 3_600_000_000
	cases := []struct {
		iv   IntervalVal
		want string
	}{
		{IntervalVal{Days: 90}, "90 days"},
		{IntervalVal{Months: 14}, "1 year 2 mons"},
		{IntervalVal{Days: -1}, "-1 days"},
		{IntervalVal{Days: 1, Micros: 2*h + 3*60_000_000 + 4_500_000}, "1 day 02:03:04.5"},
		{IntervalVal{}, "00:00:00"},
		{IntervalVal{Days: 1, Micros: -2 * h}, "1 day -02:00:00"},
		{IntervalVal{Months: -10}, "-10 mons"},
		{IntervalVal{Months: -14}, "-1 years -2 mons"},
		{IntervalVal{Months: 1}, "1 mon"},
		{IntervalVal{Days: 1}, "1 day"},
		{IntervalVal{Micros: -1_500_000}, "-00:00:01.5"},
		{IntervalVal{Micros: 100 * h}, "100:00:00"},
		{IntervalVal{Months: 12}, "1 year"},
		{IntervalVal{Months: -14, Days: -3, Micros: -(4*h + 5*60_000_000 + 6_000_000)}, "-1 years -2 mons -3 days -04:05:06"},
		{IntervalVal{Months: 12, Days: -1}, "1 year -1 days"},
		{IntervalVal{Micros: 1}, "00:00:00.000001"},
		{IntervalVal{Months: 1, Days: -3}, "1 mon -3 days"},
		{IntervalVal{Months: -1, Days: -3}, "-1 mons -3 days"},
		{IntervalVal{Days: 59, Micros: 23*h + 59*60_000_000 + 59_500_000}, "59 days 23:59:59.5"},
		{IntervalVal{Micros: -23 * h}, "-23:00:00"},
	}
	for _, c := range cases {
		if got := string(AppendInterval([]byte("x"), c.iv)); got != "x"+c.want {
			t.Errorf("AppendInterval(%+v) = %q, want %q", c.iv, got[1:], c.want)
		}
	}
}

// TestAppendIntervalMixedSigns: in the postgres style a positive field that
// follows a negative one carries an explicit "+".
func TestAppendIntervalMixedSigns(t *testing.T) {
	skipBug(t, "BUG: AppendInterval omits the '+' PostgreSQL writes before a positive field that follows a negative one: "+
		"interval '-1 day 02:00:00' is '-1 days +02:00:00', interval '-1 mon 3 days' is '-1 mons +3 days'")
	const h = 3_600_000_000
	cases := []struct {
		iv   IntervalVal
		want string
	}{
		{IntervalVal{Days: -1, Micros: 2 * h}, "-1 days +02:00:00"},
		{IntervalVal{Months: -1, Days: 3}, "-1 mons +3 days"},
		{IntervalVal{Months: -1, Days: -3, Micros: 4 * h}, "-1 mons -3 days +04:00:00"},
		{IntervalVal{Months: -12, Days: 2}, "-1 years +2 days"},
	}
	for _, c := range cases {
		if got := string(AppendInterval(nil, c.iv)); got != c.want {
			t.Errorf("AppendInterval(%+v) = %q, want %q", c.iv, got, c.want)
		}
	}
}

func TestAppendTextKinds(t *testing.T) {
	mk := func(tp Type) *Vec { return NewVec(tp, 1) }
	b := mk(Bool)
	b.I[0] = 1
	i2 := mk(Int16)
	i2.I[0] = -32768
	f4 := mk(Float32)
	f4.F[0] = float64(float32(1234567))
	num := mk(Numeric)
	num.D[0] = DecFromScaled(-5, 2)
	ch := mk(Type{Kind: KindChar, Len: 5})
	ch.S[0] = []byte("hé")
	vc := mk(Type{Kind: KindVarchar, Len: 5})
	vc.S[0] = []byte("ab ")
	dt := mk(Date)
	dt.I[0] = -1
	ts := mk(Timestamp)
	ts.I[0] = -500000
	iv := mk(Interval)
	iv.V[0] = IntervalVal{Months: 14, Days: 3}
	cases := []struct {
		v    *Vec
		want string
	}{
		{b, "t"},
		{i2, "-32768"},
		{f4, "1.234567e+06"},
		{num, "-0.05"},
		{ch, "hé   "}, // padded to 5 characters, not bytes
		{vc, "ab "},
		{dt, "1969-12-31"},
		{ts, "1969-12-31 23:59:59.5"},
		{iv, "1 year 2 mons 3 days"},
	}
	for _, c := range cases {
		if got := string(AppendText(nil, c.v, 0)); got != c.want {
			t.Errorf("AppendText(%s) = %q, want %q", c.v.T, got, c.want)
		}
	}
}
