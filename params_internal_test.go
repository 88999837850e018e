package gpusql

import (
	"math"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/gpusql/gpusql/engine"
)

func TestEncodeParams(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []any
		oids []uint32
		want []string // "NULL" for a NULL parameter
		code string   // SQLSTATE of the expected error
	}{
		{"ints", []any{int32(7), uint8(255), int64(math.MinInt64), -5}, nil, []string{"7", "255", "-9223372036854775808", "-5"}, ""},
		{"floats shortest exact", []any{0.1, 1e300, math.Copysign(0, -1), float32(0.1)}, nil, []string{"0.1", "1e+300", "-0", "0.10000000149011612"}, ""},
		{"float specials", []any{math.NaN(), math.Inf(1), math.Inf(-1)}, nil, []string{"NaN", "Infinity", "-Infinity"}, ""},
		{"text as is", []any{"it's -- $1", []byte(`a\b`)}, nil, []string{"it's -- $1", `a\b`}, ""},
		{"bool and nulls", []any{true, nil, (*int)(nil), (*big.Rat)(nil)}, nil, []string{"true", "NULL", "NULL", "NULL"}, ""},
		{"timestamp", []any{time.Date(2024, 2, 29, 13, 14, 15, 123456789, time.FixedZone("x", 3600))}, nil,
			[]string{"2024-02-29 13:14:15.123457"}, ""},
		{"date parameter", []any{time.Date(2024, 2, 29, 13, 14, 15, 0, time.UTC)}, []uint32{engine.OIDDate}, []string{"2024-02-29"}, ""},
		{"BC", []any{time.Date(-43, 3, 15, 0, 0, 0, 0, time.UTC)}, nil, []string{"0044-03-15 00:00:00 BC"}, ""},
		{"rat", []any{big.NewRat(-1, 8), *big.NewRat(123456, 1000), big.NewRat(5, 1)}, nil, []string{"-0.125", "123.456", "5"}, ""},
		{"rat without decimal form", []any{big.NewRat(1, 3)}, nil, nil, engine.CodeInvalidParameterValue},
		{"NUL", []any{"a\x00"}, nil, nil, engine.CodeCharacterNotInRepertoir},
		{"bad UTF-8", []any{"\xff"}, nil, nil, engine.CodeCharacterNotInRepertoir},
		{"unsupported", []any{struct{}{}}, nil, nil, engine.CodeInvalidParameterValue},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := encodeParams(tc.args, tc.oids)
			if tc.code != "" {
				if engine.Code(err) != tc.code || !strings.Contains(err.Error(), "parameter $1") {
					t.Fatalf("error %v (%s), want SQLSTATE %s naming $1", err, engine.Code(err), tc.code)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var s []string
			for _, p := range got {
				if p.Null {
					s = append(s, "NULL")
				} else {
					s = append(s, string(p.Value))
				}
			}
			if strings.Join(s, "|") != strings.Join(tc.want, "|") {
				t.Errorf("got %q, want %q", s, tc.want)
			}
		})
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
