package main

import (
	"math"
	"math/big"
	"testing"
	"time"

	"github.com/duckdb/duckdb-go/v2"
)

func TestAppendValue(t *testing.T) {
	dec := func(v int64, scale uint8) duckdb.Decimal {
		return duckdb.Decimal{Width: 18, Scale: scale, Value: big.NewInt(v)}
	}
	day := time.Date(1995, 3, 5, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		v    any
		typ  string
		want string
	}{
		{nil, "INTEGER", ""},
		{"BUILDING", "VARCHAR", "BUILDING"},
		{true, "BOOLEAN", "t"},
		{int32(-7), "INTEGER", "-7"},
		{int64(1478493), "BIGINT", "1478493"},
		{dec(38045600, 2), "DECIMAL", "380456.00"},
		{dec(-5, 2), "DECIMAL", "-0.05"},
		{dec(5, 4), "DECIMAL", "0.0005"},
		{dec(0, 2), "DECIMAL", "0.00"},
		{dec(1995, 0), "DECIMAL", "1995"},
		{25.522005853257337, "DOUBLE", "25.522005853257337"},
		{0.0001, "DOUBLE", "0.0001"},
		{0.00001, "DOUBLE", "1e-05"},
		{1e15, "DOUBLE", "1e+15"},
		{123456789012345.0, "DOUBLE", "123456789012345"},
		{1234567.0, "DOUBLE", "1234567"},
		{math.Inf(-1), "DOUBLE", "-Infinity"},
		{math.NaN(), "DOUBLE", "NaN"},
		{float32(1234567), "FLOAT", "1.234567e+06"},
		{day, "DATE", "1995-03-05"},
		{day.Add(90 * time.Minute), "TIMESTAMP", "1995-03-05 01:30:00"},
	} {
		if got := string(appendValue(nil, c.v, c.typ)); got != c.want {
			t.Errorf("appendValue(%v, %s) = %q, want %q", c.v, c.typ, got, c.want)
		}
	}
}

func TestFormatRow(t *testing.T) {
	got := string(formatRow(nil, []any{"A", nil, int64(3)}, []string{"VARCHAR", "INTEGER", "BIGINT"}))
	if want := "A||3\n"; got != want {
		t.Errorf("formatRow = %q, want %q", got, want)
	}
}
