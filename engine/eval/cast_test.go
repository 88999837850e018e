package eval

import (
	"math"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

func TestCastTextToNumbers(t *testing.T) {
	i2, i4, i8 := engine.Int16, engine.Int32, engine.Int64
	runCases(t, []exprCase{
		{"'  42  '::int4", cast(ctext("  42  "), i4), "42"},
		{"'+42'::int4", cast(ctext("+42"), i4), "42"},
		{"'-0'::int4", cast(ctext("-0"), i4), "0"},
		{"'  -7  '::int8", cast(ctext("  -7  "), i8), "-7"},
		{"'1.5'::int4", cast(ctext("1.5"), i4), `ERROR 22P02: invalid input syntax for type integer: "1.5"`},
		{"''::int4", cast(ctext(""), i4), `ERROR 22P02: invalid input syntax for type integer: ""`},
		{"'abc'::int4", cast(ctext("abc"), i4), `ERROR 22P02: invalid input syntax for type integer: "abc"`},
		{"' 12 3'::int4", cast(ctext(" 12 3"), i4), `ERROR 22P02: invalid input syntax for type integer: " 12 3"`},
		{"'1e3'::int4", cast(ctext("1e3"), i4), `ERROR 22P02: invalid input syntax for type integer: "1e3"`},
		{"'0x1F'::int4", cast(ctext("0x1F"), i4), `ERROR 22P02: invalid input syntax for type integer: "0x1F"`},
		{"'2147483648'::int4", cast(ctext("2147483648"), i4), `ERROR 22003: value "2147483648" is out of range for type integer`},
		{"'99999'::int2", cast(ctext("99999"), i2), `ERROR 22003: value "99999" is out of range for type smallint`},
		{"'9223372036854775808'::int8", cast(ctext("9223372036854775808"), i8), `ERROR 22003: value "9223372036854775808" is out of range for type bigint`},
		{"'NaN'::float8", cast(ctext("NaN"), engine.Float64), "NaN"},
		{"' -Infinity'::float8", cast(ctext(" -Infinity"), engine.Float64), "-Infinity"},
		{"'1e400'::float8", cast(ctext("1e400"), engine.Float64), `ERROR 22003: "1e400" is out of range for type double precision`},
		{"'1e-400'::float8", cast(ctext("1e-400"), engine.Float64), `ERROR 22003: "1e-400" is out of range for type double precision`},
		{"'3.7'::float8::int4", cast(cast(ctext("3.7"), engine.Float64), i4), "4"},
		{"'123.456'::numeric(5,2)", cast(ctext("123.456"), engine.NumericType(5, 2)), "123.46"},
		{"'1000'::numeric(5,2)", cast(ctext("1000"), engine.NumericType(5, 2)),
			"ERROR 22003: numeric field overflow DETAIL: A field with precision 5, scale 2 must round to an absolute value less than 10^3."},
		{"' 1.50 '::numeric", cast(ctext(" 1.50 "), engine.Numeric), "1.50"},
		{"'t'::bool", cast(ctext("t"), engine.Bool), "t"},
		{"' yes '::bool", cast(ctext(" yes "), engine.Bool), "t"},
		{"'maybe'::bool", cast(ctext("maybe"), engine.Bool), `ERROR 22P02: invalid input syntax for type boolean: "maybe"`},
		{"NULL::text::int4", cast(cnull(engine.Text), i4), "NULL"},
	})
}

func TestCastNumbers(t *testing.T) {
	i2, i4 := engine.Int16, engine.Int32
	runCases(t, []exprCase{
		{"2.5::numeric::int4", cast(cnum("2.5"), i4), "3"},
		{"(-2.5)::numeric::int4", cast(cnum("-2.5"), i4), "-3"},
		{"3.5::numeric::int4", cast(cnum("3.5"), i4), "4"},
		{"32767.5::numeric::int2", cast(cnum("32767.5"), i2), "ERROR 22003: smallint out of range"},
		{"2.5::float8::int4", cast(cf8(2.5), i4), "2"},
		{"3.5::float8::int4", cast(cf8(3.5), i4), "4"},
		{"(-2.5)::float8::int4", cast(cf8(-2.5), i4), "-2"},
		{"2.5::real::int4", cast(cf4(2.5), i4), "2"},
		{"2147483647.5::float8::int4", cast(cf8(2147483647.5), i4), "ERROR 22003: integer out of range"},
		{"2147483647.4::float8::int4", cast(cf8(2147483647.4), i4), "2147483647"},
		{"(-2147483648.5)::float8::int4", cast(cf8(-2147483648.5), i4), "-2147483648"},
		{"(-2147483648.6)::float8::int4", cast(cf8(-2147483648.6), i4), "ERROR 22003: integer out of range"},
		{"'NaN'::float8::int4", cast(cf8(math.NaN()), i4), "ERROR 22003: integer out of range"},
		{"123.456::numeric(5,2)", cast(cnum("123.456"), engine.NumericType(5, 2)), "123.46"},
		{"999.994::numeric(5,2)", cast(cnum("999.994"), engine.NumericType(5, 2)), "999.99"},
		{"999.995::numeric(5,2)", cast(cnum("999.995"), engine.NumericType(5, 2)),
			"ERROR 22003: numeric field overflow DETAIL: A field with precision 5, scale 2 must round to an absolute value less than 10^3."},
		{"-999.995::numeric(5,2)", cast(cnum("-999.995"), engine.NumericType(5, 2)),
			"ERROR 22003: numeric field overflow DETAIL: A field with precision 5, scale 2 must round to an absolute value less than 10^3."},
		{"0.5::numeric(2,2)", cast(cnum("0.5"), engine.NumericType(2, 2)), "0.50"},
		{"1::numeric(2,2)", cast(cnum("1"), engine.NumericType(2, 2)),
			"ERROR 22003: numeric field overflow DETAIL: A field with precision 2, scale 2 must round to an absolute value less than 1."},
		{"12345::numeric(3,0)", cast(ci4(12345), engine.NumericType(3, 0)),
			"ERROR 22003: numeric field overflow DETAIL: A field with precision 3, scale 0 must round to an absolute value less than 10^3."},
		{"1.5::float8::numeric", cast(cf8(1.5), engine.Numeric), "1.5"},
		{"0.1::float8::numeric", cast(cf8(0.1), engine.Numeric), "0.1"},
		{"(0.1::float8+0.2::float8)::numeric", cast(call(engine.OpAdd, engine.Float64, cf8(0.1), cf8(0.2)), engine.Numeric), "0.3"},
		{"1.1::real::numeric", cast(cf4(1.1), engine.Numeric), "1.1"},
		{"1234567::real::numeric", cast(cf4(1234567), engine.Numeric), "1234570"},
		{"1e20::float8::numeric", cast(cf8(1e20), engine.Numeric), "100000000000000000000"},
		{"1::int4::float8", cast(ci4(1), engine.Float64), "1"},
		{"9007199254740993::int8::float8", cast(ci8(9007199254740993), engine.Float64), "9.007199254740992e+15"},
		{"16777217::int4::real", cast(ci4(16777217), engine.Float32), "1.6777216e+07"},
		{"12.345::numeric::float8", cast(cnum("12.345"), engine.Float64), "12.345"},
		{"1.1::real::float8", cast(cf4(1.1), engine.Float64), "1.100000023841858"},
		{"1e50::float8::real", cast(cf8(1e50), engine.Float32), "ERROR 22003: value out of range: overflow"},
		{"1::int4::bool", cast(ci4(1), engine.Bool), "t"},
		{"0::int4::bool", cast(ci4(0), engine.Bool), "f"},
		{"true::int4", cast(cbool(true), i4), "1"},
		{"70000::int4::int2", cast(ci4(70000), i2), "ERROR 22003: smallint out of range"},
		{"(-2147483649)::int8::int4", cast(ci8(-2147483649), i4), "ERROR 22003: integer out of range"},
	})
}

func TestCastFloatUnderflow(t *testing.T) {
	runCases(t, []exprCase{
		{"1e-50::float8::real", cast(cf8(1e-50), engine.Float32), "ERROR 22003: value out of range: underflow"},
	})
}

func TestCastToString(t *testing.T) {
	tx := engine.Text
	runCases(t, []exprCase{
		{"'hello'::varchar(3)", cast(ctext("hello"), varchar(3)), "hel"},
		{"'héllo'::varchar(2)", cast(ctext("héllo"), varchar(2)), "hé"},
		{"'日本語'::varchar(2)", cast(ctext("日本語"), varchar(2)), "日本"},
		{"'hi'::varchar(5)", cast(ctext("hi"), varchar(5)), "hi"},
		{"'hello'::char(3)", cast(ctext("hello"), char(3)), "hel"},
		{"'ab'::char(4)::text", cast(cast(ctext("ab"), char(4)), tx), "ab"},
		{"'ab  '::char(4)::text", cast(cast(ctext("ab  "), char(4)), tx), "ab"},
		{"'ab'::char(4) (output padded)", cast(ctext("ab"), char(4)), "ab  "},
		{"true::text", cast(cbool(true), tx), "true"},
		{"false::text", cast(cbool(false), tx), "false"},
		{"'true'::bool::text", cast(cast(ctext("true"), engine.Bool), tx), "true"},
		{"123.456::numeric::text", cast(cnum("123.456"), tx), "123.456"},
		{"-0.05::numeric::text", cast(cnum("-0.05"), tx), "-0.05"},
		{"1.5::float8::text", cast(cf8(1.5), tx), "1.5"},
		{"1e20::float8::text", cast(cf8(1e20), tx), "1e+20"},
		{"12345::int4::varchar(3)", cast(ci4(12345), varchar(3)), "123"},
		{"date '1969-12-31'::text", cast(cdate(-1), tx), "1969-12-31"},
		{"interval '1 day 02:00'::text", cast(civ(0, 1, 2*3_600_000_000), tx), "1 day 02:00:00"},
	})
}

func TestCastDatetime(t *testing.T) {
	const day = 86_400_000_000
	runCases(t, []exprCase{
		{"'1969-12-31 23:59:59'::timestamp::date", cast(cts(-1_000_000), engine.Date), "1969-12-31"},
		{"'1969-12-31 00:00:00'::timestamp::date", cast(cts(-day), engine.Date), "1969-12-31"},
		{"'1969-12-30 23:59:59.999999'::timestamp::date", cast(cts(-day-1), engine.Date), "1969-12-30"},
		{"'1900-01-01 12:00'::timestamp::date", cast(cts(-2208945600000000), engine.Date), "1900-01-01"},
		{"'2020-02-29'::date::timestamp", cast(cdate(18321), engine.Timestamp), "2020-02-29 00:00:00"},
		{"'1969-12-31'::date::timestamp", cast(cdate(-1), engine.Timestamp), "1969-12-31 00:00:00"},
		{"'2020-02-29'::date", cast(ctext("2020-02-29"), engine.Date), "2020-02-29"},
		{"'1969-12-31 23:59:59.5'::timestamp", cast(ctext("1969-12-31 23:59:59.5"), engine.Timestamp), "1969-12-31 23:59:59.5"},
		{"'1 day 2 hours'::interval", cast(ctext("1 day 2 hours"), engine.Interval), "1 day 02:00:00"},
		{"'1.5 months'::interval", cast(ctext("1.5 months"), engine.Interval), "1 mon 15 days"},
		{"'2 weeks'::interval", cast(ctext("2 weeks"), engine.Interval), "14 days"},
		{"'1 year 2 mons ago'::interval", cast(ctext("1 year 2 mons ago"), engine.Interval), "-1 years -2 mons"},
		{"'90 days'::interval", cast(ctext("90 days"), engine.Interval), "90 days"},
		{"'-1 day'::interval", cast(ctext("-1 day"), engine.Interval), "-1 days"},
		{"'1 day 02:03:04.5'::interval", cast(ctext("1 day 02:03:04.5"), engine.Interval), "1 day 02:03:04.5"},
		{"'00:00:00'::interval", cast(ctext("00:00:00"), engine.Interval), "00:00:00"},
		{"'100 hours'::interval", cast(ctext("100 hours"), engine.Interval), "100:00:00"},
		{"'xyz'::interval", cast(ctext("xyz"), engine.Interval), `ERROR 22007: invalid input syntax for type interval: "xyz"`},
	})
}

// TestCastToRealSingleRounding: PostgreSQL converts numeric and bigint to
// real with one rounding (float4in of the text; C's (float4) int64). Going
// through float64 first rounds twice, which differs just above a midpoint
// between two float4 values.
func TestCastToRealSingleRounding(t *testing.T) {
	runCases(t, []exprCase{
		{"'1.0000000596046447753906251'::numeric::real", cast(cnum("1.0000000596046447753906251"), engine.Float32), "1.0000001"},
		{"1152921573326323713::int8::real", cast(ci8(1152921573326323713), engine.Float32), "1.1529216e+18"},
	})
}

func TestCastToReal(t *testing.T) {
	runCases(t, []exprCase{
		{"'1.0000000596046447753906251'::text::real", cast(ctext("1.0000000596046447753906251"), engine.Float32), "1.0000001"},
		{"1152921573326323712::int8::real", cast(ci8(1152921573326323712), engine.Float32), "1.1529215e+18"},
		{"'1.0000000596046447753906251'::numeric::float8", cast(cnum("1.0000000596046447753906251"), engine.Float64), "1.0000000596046448"},
	})
}

func TestParseIntervalInput(t *testing.T) {
	iv := engine.Interval
	cases := []struct{ in, want string }{
		{"1 day -02:00:00", "1 day -02:00:00"},
		{"1:30", "01:30:00"},
		{"1.5 hours", "01:30:00"},
		{"@ 1 day ago", "-1 days"},
		{"1 day ago", "-1 days"},
		{"1 mon 2 days", "1 mon 2 days"},
		{"-1:30", "-01:30:00"},
		{"+1 day", "1 day"},
		{"1 week 2 days", "9 days"},
		{"0.5 days", "12:00:00"},
		{"1.5 years", "1 year 6 mons"},
		{"2 hours 30 minutes", "02:30:00"},
		{"1 millisecond", "00:00:00.001"},
		{"100 microseconds", "00:00:00.0001"},
		{"3 days 4 hours 5 minutes 6 seconds", "3 days 04:05:06"},
		{"1 hour ago", "-01:00:00"},
		{"5", "00:00:05"},
		{"1.5", "00:00:01.5"},
		{"-1.5 days", "-1 days -12:00:00"},
		{"1 day 1", "1 day 00:00:01"},
		{"1 min", "00:01:00"},
		{" 1 day ", "1 day"},
		{"1 DAY", "1 day"},
		{"1 Days", "1 day"},
		{"1:2:3.456789", "01:02:03.456789"},
		{"1 day, 2 hours", "1 day 02:00:00"},
		{"1 mons", "1 mon"},
		{"7 mins", "00:07:00"},
		{"2 secs", "00:00:02"},
		{"0.3 months", "9 days"},
		{"1.7 days", "1 day 16:48:00"},
		{"2.5 weeks", "17 days 12:00:00"},
		{"1 year -1 mons", "11 mons"},
		{"-1 year 2 mons", "-10 mons"},
		{"1.1 seconds", "00:00:01.1"},
		{"0.000001 sec", "00:00:00.000001"},
		{"1,5 days", `ERROR 22007: invalid input syntax for type interval: "1,5 days"`},
	}
	for _, c := range cases {
		if got := eval1(cast(ctext(c.in), iv)); got != c.want {
			t.Errorf("'%s'::interval: got %q, want %q", c.in, got, c.want)
		}
	}
}

func TestParseIntervalInvalidAccepted(t *testing.T) {
	iv := engine.Interval
	cases := []struct{ in, want string }{
		{"1 year 1 year", `ERROR 22007: invalid input syntax for type interval: "1 year 1 year"`},
		{"2147483648 days", `ERROR 22015: interval field value out of range: "2147483648 days"`},
		{"00:00:00.0000005", "00:00:00"},
	}
	for _, c := range cases {
		if got := eval1(cast(ctext(c.in), iv)); got != c.want {
			t.Errorf("'%s'::interval: got %q, want %q", c.in, got, c.want)
		}
	}
}

func TestParseIntervalUnsupportedSyntax(t *testing.T) {
	iv := engine.Interval
	cases := []struct{ in, want string }{
		{"10d", "10 days"},
		{"1h", "01:00:00"},
		{"P1D", "1 day"},
		{"1 decade", "10 years"},
		{"1 century", "100 years"},
	}
	for _, c := range cases {
		if got := eval1(cast(ctext(c.in), iv)); got != c.want {
			t.Errorf("'%s'::interval: got %q, want %q", c.in, got, c.want)
		}
	}
}
