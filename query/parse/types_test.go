package parse_test

import (
	"errors"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/query/parse"
)

func TestParseType(t *testing.T) {
	char := func(n int) engine.Type { return engine.Type{Kind: engine.KindChar, Len: n} }
	varchar := func(n int) engine.Type { return engine.Type{Kind: engine.KindVarchar, Len: n} }
	tests := []struct {
		in   string
		want engine.Type
	}{
		{"int", engine.Int32}, {"INTEGER", engine.Int32}, {"int4", engine.Int32},
		{"smallint", engine.Int16}, {"int2", engine.Int16},
		{"bigint", engine.Int64}, {"int8", engine.Int64},
		{"real", engine.Float32}, {"float4", engine.Float32}, {"float(24)", engine.Float32},
		{"double precision", engine.Float64}, {"DOUBLE  PRECISION", engine.Float64}, {"float8", engine.Float64},
		{"float", engine.Float64}, {"float(25)", engine.Float64},
		{"numeric", engine.Numeric}, {"decimal", engine.Numeric},
		{"numeric(10,2)", engine.NumericType(10, 2)}, {"numeric(10, 2)", engine.NumericType(10, 2)},
		{"decimal(18)", engine.NumericType(18, 0)}, {"numeric(1,1)", engine.NumericType(1, 1)},
		{"boolean", engine.Bool}, {"bool", engine.Bool},
		{"date", engine.Date},
		{"timestamp", engine.Timestamp}, {"timestamp without time zone", engine.Timestamp},
		{"timestamp(6)", engine.Timestamp}, {"timestamp(6) without time zone", engine.Timestamp},
		{"char(5)", char(5)}, {"character(5)", char(5)}, {"char", char(1)}, {"character", char(1)},
		{"bpchar(3)", char(3)},
		{"varchar(10)", varchar(10)}, {"character varying(10)", varchar(10)}, {"varchar", varchar(0)},
		{"character varying", varchar(0)},
		{"text", engine.Text}, {"TEXT", engine.Text},
		{"interval", engine.Interval},
		{"pg_catalog.int4", engine.Int32},
		{"timestamptz", engine.TimestampTZ}, {"timestamp with time zone", engine.TimestampTZ},
		{"timestamp(3)", engine.Timestamp.WithTimePrec(3)}, {"timestamp(0) with time zone", engine.TimestampTZ.WithTimePrec(0)},
		{"timestamptz(9)", engine.TimestampTZ},
		{"time", engine.Time}, {"time without time zone", engine.Time}, {"time(2)", engine.Time.WithTimePrec(2)},
		{"interval(3)", engine.Interval.WithTimePrec(3)},
		{"interval year to month", engine.Type{Kind: engine.KindInterval, Len: engine.IntervalYear | engine.IntervalMonth}},
		{"interval second(2)", engine.Type{Kind: engine.KindInterval, Len: engine.IntervalSecond, Prec: 3}},
	}
	for _, tt := range tests {
		got, err := parse.ParseType(tt.in)
		if err != nil {
			t.Errorf("ParseType(%q): %v", tt.in, err)
			continue
		}
		if got != tt.want {
			t.Errorf("ParseType(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
		// the canonical spelling parses back to the same type
		back, err := parse.ParseType(got.String())
		if err != nil || back != got {
			t.Errorf("ParseType(%q) = %+v, %v; want %+v", got.String(), back, err, got)
		}
	}
}

func TestParseTypeErrors(t *testing.T) {
	tests := []struct{ in, code, msg string }{
		{"foo", "42704", `type "foo" does not exist`},
		{"int int", "42704", `type "int int" does not exist`},
		{"numeric(39,2)", "0A000", "numeric precision 39 exceeds gpusql's maximum of 38"},
		{"numeric(1001)", "22023", "NUMERIC precision 1001 must be between 1 and 1000"},
		{"numeric(100)", "0A000", "numeric precision 100 exceeds gpusql's maximum of 38"},
		{"numeric(0)", "22023", "NUMERIC precision 0 must be between 1 and 1000"},
		{"numeric(5,6)", "22023", "NUMERIC scale 6 must be between 0 and precision 5"},
		{"numeric(5,-1)", "22023", "NUMERIC scale -1 must be between 0 and precision 5"},
		{"numeric(1,2,3)", "22023", "invalid NUMERIC type modifier"},
		{"varchar(0)", "22023", "length for type varchar must be at least 1"},
		{"char(10485761)", "22023", "length for type char cannot exceed 10485760"},
		{"float(54)", "22023", "precision for type float must be less than 54 bits"},
		{"float(0)", "22023", "precision for type float must be at least 1 bit"},
		{"int(5)", "42601", `type modifier is not allowed for type "integer"`},
		{"text(5)", "42601", `type modifier is not allowed for type "text"`},
		{"json", "0A000", "type json is not supported by gpusql"},
		{"timetz", "0A000", "type timetz is not supported by gpusql"},
		{"timestamp(-1)", "22023", "TIMESTAMP(-1) precision must not be negative"},
		{"int[]", "0A000", "array types are not supported by gpusql"},
	}
	for _, tt := range tests {
		_, err := parse.ParseType(tt.in)
		var e *engine.Error
		if !errors.As(err, &e) {
			t.Errorf("ParseType(%q): error %v, want *engine.Error", tt.in, err)
			continue
		}
		if e.Code != tt.code || e.Message != tt.msg || e.Position != 0 {
			t.Errorf("ParseType(%q) = %s %q at %d, want %s %q", tt.in, e.Code, e.Message, e.Position, tt.code, tt.msg)
		}
	}
}
