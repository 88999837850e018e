package engine

import (
	"fmt"
	"math"
)

// Interval field restrictions, as PostgreSQL's INTERVAL_MASK bits: a
// type such as interval day to second keeps the mask of its fields in
// Type.Len (0: no restriction). Casting to the type zeroes the fields
// below its last one (AdjustIntervalForTypmod).
const (
	IntervalMonth  = 1 << 1
	IntervalYear   = 1 << 2
	IntervalDay    = 1 << 3
	IntervalHour   = 1 << 10
	IntervalMinute = 1 << 11
	IntervalSecond = 1 << 12
)

// intervalRanges are the field restrictions PostgreSQL accepts, with
// their names.
var intervalRanges = []struct {
	mask int
	name string
}{
	{IntervalYear, "year"},
	{IntervalMonth, "month"},
	{IntervalDay, "day"},
	{IntervalHour, "hour"},
	{IntervalMinute, "minute"},
	{IntervalSecond, "second"},
	{IntervalYear | IntervalMonth, "year to month"},
	{IntervalDay | IntervalHour, "day to hour"},
	{IntervalDay | IntervalHour | IntervalMinute, "day to minute"},
	{IntervalDay | IntervalHour | IntervalMinute | IntervalSecond, "day to second"},
	{IntervalHour | IntervalMinute, "hour to minute"},
	{IntervalHour | IntervalMinute | IntervalSecond, "hour to second"},
	{IntervalMinute | IntervalSecond, "minute to second"},
}

// IntervalRange returns the field mask of a range spelled as in SQL
// ("day to second"), or false.
func IntervalRange(name string) (int, bool) {
	for _, r := range intervalRanges {
		if r.name == name {
			return r.mask, true
		}
	}
	return 0, false
}

func intervalRangeName(mask int) string {
	for _, r := range intervalRanges {
		if r.mask == mask {
			return r.name
		}
	}
	return ""
}

// intervalTypeString is format_type's spelling of an interval type.
func intervalTypeString(t Type) string {
	s := "interval"
	if name := intervalRangeName(t.Len); name != "" {
		s += " " + name
	}
	if p, ok := t.TimePrec(); ok {
		s += fmt.Sprintf("(%d)", p)
	}
	return s
}

// intervalTypmod is PostgreSQL's INTERVAL_TYPMOD(precision, range).
func intervalTypmod(t Type) int32 {
	p, ok := t.TimePrec()
	if !ok && t.Len == 0 {
		return -1
	}
	if !ok {
		p = 0xFFFF
	}
	r := t.Len
	if r == 0 {
		r = 0x7FFF
	}
	return int32(r<<16 | p)
}

// pgEpochMicros is PostgreSQL's timestamp epoch, 2000-01-01, in
// microseconds since 1970: precisions round half away from it.
const pgEpochMicros = 10957 * usPerDay

// RoundTimePrec rounds a timestamp, timestamptz or time value to t's
// fractional-second precision, as PostgreSQL's AdjustTimestampForTypmod
// (half away from 2000-01-01) and AdjustTimeForTypmod (half up) do.
func RoundTimePrec(t Type, x int64) int64 {
	p, ok := t.TimePrec()
	if !ok || p >= 6 {
		return x
	}
	scale := int64(math.Pow10(6 - p))
	switch t.Kind {
	case KindTimestamp, KindTimestampTZ:
		rel := x - pgEpochMicros
		if rel >= 0 {
			rel = (rel + scale/2) / scale * scale
		} else {
			rel = -((-rel + scale/2) / scale * scale)
		}
		return rel + pgEpochMicros
	case KindTime:
		return (x + scale/2) / scale * scale
	}
	return x
}
