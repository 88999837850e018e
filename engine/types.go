// Package engine holds what every layer of gpusql agrees on: SQL types,
// column storage, tables and the catalog, the error catalog, the bound plan
// that the query layer hands down, and the Backend interface that runs it.
package engine

import "fmt"

// Kind is a SQL type family.
type Kind uint8

const (
	KindInvalid   Kind = iota
	KindBool           // boolean: 1 byte
	KindInt16          // smallint
	KindInt32          // integer
	KindInt64          // bigint
	KindFloat32        // real
	KindFloat64        // double precision
	KindNumeric        // numeric(p,s): scaled int64 in storage (p ≤ 18), else 128-bit; exact
	KindDate           // int32 days since 1970-01-01
	KindTimestamp      // int64 microseconds since 1970-01-01 00:00:00
	KindInterval       // months, days, microseconds (computed values only)
	KindChar           // char(n): blank-padded
	KindVarchar        // varchar(n)
	KindText           // text
	KindUnknown        // an untyped string literal, resolved by context
	// KindTimestampTZ is timestamp with time zone: int64 microseconds
	// since 1970-01-01 00:00:00 UTC, shown and read in the session's
	// TimeZone (engine.Zone).
	KindTimestampTZ
	// KindTime is time without time zone: int64 microseconds since
	// midnight, 0 to 24:00:00.
	KindTime
)

// Type is a SQL type with its modifiers.
type Type struct {
	Kind Kind
	// Prec and Scale are numeric's modifiers. Prec 0 means unconstrained
	// (a computed numeric, such as sum() or a division result).
	Prec, Scale int
	// Len is char(n)/varchar(n)'s limit in characters; 0 means none.
	// For interval it is the field restriction (IntervalFields).
	Len int
}

// The time kinds (timestamp, timestamptz, time, interval) keep their
// fractional-second precision p in Prec as p+1: 0 means none (6 digits).
// TimePrec reads it.

// TimePrec returns the fractional-second precision of a time kind, and
// whether the type has one.
func (t Type) TimePrec() (int, bool) {
	if t.Prec <= 0 || !t.IsTimeKind() {
		return 6, false
	}
	return t.Prec - 1, true
}

// WithTimePrec returns t with fractional-second precision p (0..6).
func (t Type) WithTimePrec(p int) Type {
	t.Prec = p + 1
	return t
}

// IsTimeKind reports whether t is timestamp, timestamptz, time or
// interval: the kinds with a seconds precision.
func (t Type) IsTimeKind() bool {
	switch t.Kind {
	case KindTimestamp, KindTimestampTZ, KindTime, KindInterval:
		return true
	}
	return false
}

// IsTimestamp reports whether t is timestamp or timestamptz: int64
// microseconds since 1970.
func (t Type) IsTimestamp() bool { return t.Kind == KindTimestamp || t.Kind == KindTimestampTZ }

// Convenience values.
var (
	Bool      = Type{Kind: KindBool}
	Int16     = Type{Kind: KindInt16}
	Int32     = Type{Kind: KindInt32}
	Int64     = Type{Kind: KindInt64}
	Float32   = Type{Kind: KindFloat32}
	Float64   = Type{Kind: KindFloat64}
	Date      = Type{Kind: KindDate}
	Timestamp = Type{Kind: KindTimestamp}
	Interval  = Type{Kind: KindInterval}
	Text      = Type{Kind: KindText}
	Unknown   = Type{Kind: KindUnknown}
	// Numeric is an unconstrained numeric.
	Numeric = Type{Kind: KindNumeric}
	// TimestampTZ is timestamp with time zone.
	TimestampTZ = Type{Kind: KindTimestampTZ}
	// Time is time without time zone.
	Time = Type{Kind: KindTime}
)

// NarrowNumericPrec is the largest numeric precision stored as a scaled
// int64. MaxNumericPrec is the largest precision a column may declare:
// numeric(p,s) with p past NarrowNumericPrec is stored as 128-bit Dec
// values, all at the column's scale (Column.D).
const (
	NarrowNumericPrec = 18
	MaxNumericPrec    = 38
)

// WideNumeric reports whether t is numeric(p,s) with p > 18: a column of
// it is stored as Dec values at scale s, not as scaled int64s.
func (t Type) WideNumeric() bool { return t.Kind == KindNumeric && t.Prec > NarrowNumericPrec }

// NumericType returns numeric(p,s).
func NumericType(p, s int) Type { return Type{Kind: KindNumeric, Prec: p, Scale: s} }

// IsString reports whether t is char, varchar, text or an unknown literal.
func (t Type) IsString() bool {
	return t.Kind == KindChar || t.Kind == KindVarchar || t.Kind == KindText || t.Kind == KindUnknown
}

// IsInteger reports whether t is smallint, integer or bigint.
func (t Type) IsInteger() bool {
	return t.Kind == KindInt16 || t.Kind == KindInt32 || t.Kind == KindInt64
}

// IsFloat reports whether t is real or double precision.
func (t Type) IsFloat() bool { return t.Kind == KindFloat32 || t.Kind == KindFloat64 }

// IsNumber reports whether t is an integer, float or numeric type.
func (t Type) IsNumber() bool { return t.IsInteger() || t.IsFloat() || t.Kind == KindNumeric }

// StorageWidth is the byte width of one stored value, for fixed-width
// kinds. Strings return 0: their width is chosen at load time. Numeric
// is 8 bytes, its scaled int64; a wide numeric column (WideNumeric) holds
// Dec values instead (Column.D), as do computed numerics on the host.
func (t Type) StorageWidth() int {
	switch t.Kind {
	case KindBool:
		return 1
	case KindInt16:
		return 2
	case KindInt32, KindFloat32, KindDate:
		return 4
	case KindInt64, KindFloat64, KindNumeric, KindTimestamp, KindTimestampTZ, KindTime:
		return 8
	}
	return 0
}

// String renders the type as PostgreSQL's format_type does.
func (t Type) String() string {
	switch t.Kind {
	case KindBool:
		return "boolean"
	case KindInt16:
		return "smallint"
	case KindInt32:
		return "integer"
	case KindInt64:
		return "bigint"
	case KindFloat32:
		return "real"
	case KindFloat64:
		return "double precision"
	case KindNumeric:
		if t.Prec > 0 {
			return fmt.Sprintf("numeric(%d,%d)", t.Prec, t.Scale)
		}
		return "numeric"
	case KindDate:
		return "date"
	case KindTimestamp:
		if p, ok := t.TimePrec(); ok {
			return fmt.Sprintf("timestamp(%d) without time zone", p)
		}
		return "timestamp without time zone"
	case KindTimestampTZ:
		if p, ok := t.TimePrec(); ok {
			return fmt.Sprintf("timestamp(%d) with time zone", p)
		}
		return "timestamp with time zone"
	case KindTime:
		if p, ok := t.TimePrec(); ok {
			return fmt.Sprintf("time(%d) without time zone", p)
		}
		return "time without time zone"
	case KindInterval:
		return intervalTypeString(t)
	case KindChar:
		return fmt.Sprintf("character(%d)", t.Len)
	case KindVarchar:
		if t.Len > 0 {
			return fmt.Sprintf("character varying(%d)", t.Len)
		}
		return "character varying"
	case KindText:
		return "text"
	case KindUnknown:
		return "unknown"
	}
	return "invalid"
}

// PostgreSQL type OIDs, as clients expect them in RowDescription.
const (
	OIDBool      = 16
	OIDInt8      = 20
	OIDInt2      = 21
	OIDInt4      = 23
	OIDText      = 25
	OIDFloat4    = 700
	OIDFloat8    = 701
	OIDUnknown   = 705
	OIDBpchar    = 1042
	OIDVarchar   = 1043
	OIDDate      = 1082
	OIDTimestamp = 1114
	OIDInterval  = 1186
	OIDNumeric   = 1700
)

// OIDs of the time types beside timestamp.
const (
	OIDTimestampTZ = 1184
	OIDTime        = 1083
)

// arrayOIDs maps an element type OID to its array type's OID, for the
// element types a parameter may have.
var arrayOIDs = map[uint32]uint32{
	OIDBool: 1000, OIDInt2: 1005, OIDInt4: 1007, OIDInt8: 1016, OIDText: 1009, OIDFloat4: 1021,
	OIDFloat8: 1022, OIDBpchar: 1014, OIDVarchar: 1015, OIDDate: 1182, OIDTimestamp: 1115,
	OIDTimestampTZ: 1185, OIDTime: 1183, OIDInterval: 1187, OIDNumeric: 1231,
}

var elemOIDs = func() map[uint32]uint32 {
	m := map[uint32]uint32{}
	for e, a := range arrayOIDs {
		m[a] = e
	}
	return m
}()

// ArrayOID is the OID of the array type of element type elem; 0 if gpusql
// knows none.
func ArrayOID(elem uint32) uint32 { return arrayOIDs[elem] }

// ElemOID is the element type OID of array type OID oid; 0 if oid is not
// an array type gpusql knows.
func ElemOID(oid uint32) uint32 { return elemOIDs[oid] }

// OID is the PostgreSQL type OID of t.
func (t Type) OID() uint32 {
	switch t.Kind {
	case KindBool:
		return OIDBool
	case KindInt16:
		return OIDInt2
	case KindInt32:
		return OIDInt4
	case KindInt64:
		return OIDInt8
	case KindFloat32:
		return OIDFloat4
	case KindFloat64:
		return OIDFloat8
	case KindNumeric:
		return OIDNumeric
	case KindDate:
		return OIDDate
	case KindTimestamp:
		return OIDTimestamp
	case KindTimestampTZ:
		return OIDTimestampTZ
	case KindTime:
		return OIDTime
	case KindInterval:
		return OIDInterval
	case KindChar:
		return OIDBpchar
	case KindVarchar:
		return OIDVarchar
	case KindUnknown:
		return OIDText
	}
	return OIDText
}

// Typmod is the PostgreSQL type modifier sent in RowDescription (-1: none).
func (t Type) Typmod() int32 {
	switch t.Kind {
	case KindNumeric:
		if t.Prec > 0 {
			return int32((t.Prec<<16)|t.Scale) + 4
		}
	case KindChar, KindVarchar:
		if t.Len > 0 {
			return int32(t.Len) + 4
		}
	case KindTimestamp, KindTimestampTZ, KindTime:
		if p, ok := t.TimePrec(); ok {
			return int32(p)
		}
	case KindInterval:
		return intervalTypmod(t)
	}
	return -1
}

// TypLen is the PostgreSQL typlen sent in RowDescription.
func (t Type) TypLen() int16 {
	switch t.Kind {
	case KindBool:
		return 1
	case KindInt16:
		return 2
	case KindInt32, KindFloat32, KindDate:
		return 4
	case KindInt64, KindFloat64, KindTimestamp, KindTimestampTZ, KindTime:
		return 8
	case KindInterval:
		return 16
	}
	return -1
}
