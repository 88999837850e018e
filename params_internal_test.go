package gpusql

import (
	"math"
	"math/big"
	"testing"
	"time"

	"github.com/gpusql/gpusql/engine"
)

func TestBindArgs(t *testing.T) {
	for _, tc := range []struct {
		name string
		sql  string
		args []any
		want string
		code string // SQLSTATE of the expected error
	}{
		{"none", "select $1", nil, "select $1", ""},
		{"int", "select $1, $2", []any{int32(7), uint8(255)}, "select 7, 255", ""},
		{"negative after minus", "select 10-$1", []any{-5}, "select 10-(-5)", ""},
		{"min int64", "select $1", []any{int64(math.MinInt64)}, "select (-9223372036854775808)::bigint", ""},
		{"reused", "select $1 + $1", []any{2}, "select 2 + 2", ""},
		{"float shortest", "select $1, $2", []any{0.1, 1e300}, "select 0.1, 1e+300", ""},
		{"float negative zero", "select $1", []any{math.Copysign(0, -1)}, "select (-0)", ""},
		{"float special", "select $1, $2", []any{math.NaN(), math.Inf(-1)}, "select 'NaN'::double precision, '-Infinity'::double precision", ""},
		{"float32 exact", "select $1", []any{float32(0.1)}, "select 0.10000000149011612", ""},
		{"string quoted", "select $1", []any{"it's -- not a comment"}, "select 'it''s -- not a comment'", ""},
		{"backslash is literal", "select $1", []any{`a\'b`}, `select 'a\''b'`, ""},
		{"bytes", "select $1", []any{[]byte("xy")}, "select 'xy'", ""},
		{"bool and null", "select $1, $2", []any{true, nil}, "select true, NULL", ""},
		{"nil pointer", "select $1", []any{(*int)(nil)}, "select NULL", ""},
		{"time", "select $1", []any{time.Date(2024, 2, 29, 13, 14, 15, 123456789, time.FixedZone("x", 3600))},
			"select '2024-02-29 13:14:15.123457'::timestamp", ""},
		{"time BC and whole second", "select $1", []any{time.Date(-43, 3, 15, 0, 0, 0, 0, time.UTC)},
			"select '0044-03-15 00:00:00 BC'::timestamp", ""},
		{"rat", "select $1, $2", []any{big.NewRat(-1, 8), *big.NewRat(123456, 1000)}, "select (-0.125), 123.456", ""},
		{"rat without decimal form", "select $1", []any{big.NewRat(1, 3)}, "", engine.CodeInvalidParameterValue},
		{"skips strings and comments", `select '$1', "a$1", E'\'$1', $$ $1 $$, $q$ $1 $q$, a$1, /* $1 /* $1 */ */ $1 -- $1`, []any{9},
			`select '$1', "a$1", E'\'$1', $$ $1 $$, $q$ $1 $q$, a$1, /* $1 /* $1 */ */ 9 -- $1`, ""},
		{"too few", "select $1, $2", []any{1}, "", engine.CodeProtocolViolation},
		{"too many", "select $1", []any{1, 2}, "", engine.CodeProtocolViolation},
		{"zero", "select $0", []any{1}, "", engine.CodeProtocolViolation},
		{"NUL", "select $1", []any{"a\x00"}, "", engine.CodeInvalidParameterValue},
		{"bad UTF-8", "select $1", []any{"\xff"}, "", engine.CodeInvalidParameterValue},
		{"unsupported", "select $1", []any{struct{}{}}, "", engine.CodeInvalidParameterValue},
		{"unterminated", "select '$1", []any{1}, "", engine.CodeSyntaxError},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := bindArgs(tc.sql, tc.args)
			if tc.code != "" {
				if engine.Code(err) != tc.code {
					t.Fatalf("error %v (%s), want SQLSTATE %s", err, engine.Code(err), tc.code)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %q, %v\nwant %q", got, err, tc.want)
			}
		})
	}
}

func TestCountParams(t *testing.T) {
	for sql, want := range map[string]int{
		"select 1":                   0,
		"select $2, $1":              2,
		"select '$3', $1":            1,
		"select $1 from t where $12": 12,
		"select 'open":               -1,
	} {
		if got := countParams(sql); got != want {
			t.Errorf("countParams(%q) = %d, want %d", sql, got, want)
		}
	}
}

func TestParseTime(t *testing.T) {
	date := &engine.ResultColumn{Name: "d", TypeOID: engine.OIDDate}
	ts := &engine.ResultColumn{Name: "ts", TypeOID: engine.OIDTimestamp}
	for _, tc := range []struct {
		col  *engine.ResultColumn
		in   string
		want time.Time
		bad  bool
	}{
		{date, "2024-02-29", time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC), false},
		{date, "0044-03-15 BC", time.Date(-43, 3, 15, 0, 0, 0, 0, time.UTC), false},
		{date, "10000-01-01", time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), false},
		{ts, "1999-12-31 23:59:59", time.Date(1999, 12, 31, 23, 59, 59, 0, time.UTC), false},
		{ts, "2024-02-29 13:14:15.5", time.Date(2024, 2, 29, 13, 14, 15, 500000000, time.UTC), false},
		{ts, "2024-02-28 13:14:15.000001 BC", time.Date(-2023, 2, 28, 13, 14, 15, 1000, time.UTC), false},
		{ts, "2024-02-29 13:14", time.Time{}, true},
		{ts, "infinity", time.Time{}, true},
		{date, "2024-2-29", time.Time{}, true},
	} {
		got, err := parseTime(tc.col, []byte(tc.in))
		if tc.bad {
			if engine.Code(err) != engine.CodeInvalidDatetimeFormat {
				t.Errorf("%q: got %v, %v; want 22007", tc.in, got, err)
			}
			continue
		}
		if err != nil || !got.Equal(tc.want) {
			t.Errorf("%q: got %v, %v; want %v", tc.in, got, err, tc.want)
		}
		// What the engine writes reads back the same.
		var back []byte
		if tc.col == date {
			back = engine.AppendDate(nil, int32(got.Unix()/86400))
		} else {
			back = engine.AppendTimestamp(nil, got.UnixMicro())
		}
		if string(back) != tc.in {
			t.Errorf("%q: engine writes %v back as %q", tc.in, got, back)
		}
	}
}
