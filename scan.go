package gpusql

import (
	"bytes"
	"database/sql"
	"database/sql/driver"
	"math"
	"math/big"
	"reflect"
	"strconv"
	"time"
	"unsafe"

	"github.com/gpusql/gpusql/engine"
)

// class is how a result column's values convert to Go: by its type OID.
type class uint8

const (
	classString    class = iota // text, char(n), varchar(n), interval, unknown
	classBool                   // boolean
	classInt                    // smallint, integer, bigint
	classFloat                  // real, double precision
	classNumeric                // numeric
	classDate                   // date
	classTimestamp              // timestamp without time zone
)

func classOf(oid uint32) class {
	switch oid {
	case engine.OIDBool:
		return classBool
	case engine.OIDInt2, engine.OIDInt4, engine.OIDInt8:
		return classInt
	case engine.OIDFloat4, engine.OIDFloat8:
		return classFloat
	case engine.OIDNumeric:
		return classNumeric
	case engine.OIDDate:
		return classDate
	case engine.OIDTimestamp:
		return classTimestamp
	}
	return classString
}

// driverValue converts one value in PostgreSQL text format (nil: NULL)
// to the Go value database/sql works with: bool, int64, float64,
// time.Time (UTC) for dates and timestamps, and string for numeric, text
// and everything else.
func driverValue(col *engine.ResultColumn, v []byte) (driver.Value, error) {
	if v == nil {
		return nil, nil
	}
	switch classOf(col.TypeOID) {
	case classBool:
		return len(v) > 0 && v[0] == 't', nil
	case classInt:
		return parseInt(col, v, 64)
	case classFloat:
		return parseFloat(col, v, 64)
	case classDate, classTimestamp:
		return parseTime(col, v)
	}
	return string(v), nil
}

// text views v as a string without copying, for parsing numbers: strconv
// copies the text into the errors it returns, so nothing keeps the view.
func text(v []byte) string { return unsafe.String(unsafe.SliceData(v), len(v)) }

func parseInt(col *engine.ResultColumn, v []byte, bits int) (int64, error) {
	n, err := strconv.ParseInt(text(v), 10, bits)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 0, engine.Errorf(engine.CodeNumericValueOutOfRange, "gpusql: column %q: value %s is out of range for a %d-bit integer", col.Name, v, bits)
		}
		return 0, engine.Errorf(engine.CodeDatatypeMismatch, "gpusql: column %q: cannot scan %s value %s into an integer", col.Name, typeName(col), v)
	}
	return n, nil
}

func parseUint(col *engine.ResultColumn, v []byte, bits int) (uint64, error) {
	n, err := strconv.ParseUint(text(v), 10, bits)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange || len(v) > 0 && v[0] == '-' {
			return 0, engine.Errorf(engine.CodeNumericValueOutOfRange, "gpusql: column %q: value %s is out of range for a %d-bit unsigned integer", col.Name, v, bits)
		}
		return 0, engine.Errorf(engine.CodeDatatypeMismatch, "gpusql: column %q: cannot scan %s value %s into an unsigned integer", col.Name, typeName(col), v)
	}
	return n, nil
}

func parseFloat(col *engine.ResultColumn, v []byte, bits int) (float64, error) {
	f, err := strconv.ParseFloat(text(v), bits)
	if err != nil {
		// ParseFloat rounds out-of-range values to ±Inf and reports
		// ErrRange; a float4 destination of a large float8 is one.
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange && math.IsInf(f, 0) {
			return 0, engine.Errorf(engine.CodeNumericValueOutOfRange, "gpusql: column %q: value %s is out of range for a %d-bit float", col.Name, v, bits)
		}
		if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
			return 0, engine.Errorf(engine.CodeDatatypeMismatch, "gpusql: column %q: cannot scan %s value %s into a float", col.Name, typeName(col), v)
		}
	}
	return f, nil
}

// parseTime reads a date (YYYY-MM-DD) or timestamp
// (YYYY-MM-DD HH:MM:SS[.ffffff]) as engine.AppendDate and
// AppendTimestamp write them, including years past 9999 and " BC", as a
// time.Time in UTC.
func parseTime(col *engine.ResultColumn, v []byte) (time.Time, error) {
	bad := func() (time.Time, error) {
		return time.Time{}, engine.Errorf(engine.CodeInvalidDatetimeFormat, "gpusql: column %q: cannot read %s value %q as a time", col.Name, typeName(col), v)
	}
	s := v
	bc := bytes.HasSuffix(s, []byte(" BC"))
	if bc {
		s = s[:len(s)-3]
	}
	i := 0
	num := func(min, max int) (int, bool) {
		start, n := i, 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' && i-start < max {
			n = n*10 + int(s[i]-'0')
			i++
		}
		return n, i-start >= min
	}
	sep := func(c byte) bool {
		if i < len(s) && s[i] == c {
			i++
			return true
		}
		return false
	}
	year, ok1 := num(4, 9)
	mon, ok2 := 0, sep('-')
	if ok2 {
		mon, ok2 = num(2, 2)
	}
	day, ok3 := 0, sep('-')
	if ok3 {
		day, ok3 = num(2, 2)
	}
	if !ok1 || !ok2 || !ok3 {
		return bad()
	}
	var hour, min, sec, usec int
	if i < len(s) {
		if !sep(' ') {
			return bad()
		}
		var okh, okm, oks bool
		hour, okh = num(2, 2)
		okm = sep(':')
		if okm {
			min, okm = num(2, 2)
		}
		oks = sep(':')
		if oks {
			sec, oks = num(2, 2)
		}
		if !okh || !okm || !oks {
			return bad()
		}
		if sep('.') {
			start := i
			frac, ok := num(1, 6)
			if !ok {
				return bad()
			}
			for k := i - start; k < 6; k++ {
				frac *= 10
			}
			usec = frac
		}
		if i != len(s) {
			return bad()
		}
	}
	if bc {
		year = 1 - year // 1 BC is year 0
	}
	return time.Date(year, time.Month(mon), day, hour, min, sec, usec*1000, time.UTC), nil
}

// typeName is the SQL name of a result column's type, as
// ColumnTypeDatabaseTypeName reports it.
func typeName(col *engine.ResultColumn) string {
	switch col.TypeOID {
	case engine.OIDBool:
		return "BOOL"
	case engine.OIDInt2:
		return "INT2"
	case engine.OIDInt4:
		return "INT4"
	case engine.OIDInt8:
		return "INT8"
	case engine.OIDFloat4:
		return "FLOAT4"
	case engine.OIDFloat8:
		return "FLOAT8"
	case engine.OIDNumeric:
		return "NUMERIC"
	case engine.OIDDate:
		return "DATE"
	case engine.OIDTimestamp:
		return "TIMESTAMP"
	case engine.OIDInterval:
		return "INTERVAL"
	case engine.OIDBpchar:
		return "BPCHAR"
	case engine.OIDVarchar:
		return "VARCHAR"
	case engine.OIDUnknown:
		return "UNKNOWN"
	}
	return "TEXT"
}

// scanValue stores one value (PostgreSQL text format; nil for NULL) of
// column col in dest:
//
//	*string, *[]byte, *sql.RawBytes  any column, in its PostgreSQL text form
//	                                 (RawBytes valid until the next Next)
//	*int64, *int32, *int16, *int8,   integer columns, and numeric ones whose
//	*int, *uint64 ... *uint          value is whole ("5.00"), in range
//	*float64, *float32               integer, float and numeric columns
//	*big.Rat                         integer and numeric columns (exact)
//	*bool                            boolean columns
//	*time.Time                       date and timestamp columns, in UTC
//	*any                             the value driverValue gives
//	sql.Scanner (sql.NullInt64,      the value driverValue gives
//	sql.Null[T], ...)
//	**T for any T above              nil for NULL
//
// NULL into a destination that cannot hold it fails with 22004; a value
// out of the destination's range with 22003; other mismatches with 42804.
func scanValue(dest any, col *engine.ResultColumn, v []byte) error {
	if v == nil {
		return scanNull(dest, col)
	}
	cl := classOf(col.TypeOID)
	mismatch := func() error {
		return engine.Errorf(engine.CodeDatatypeMismatch, "gpusql: cannot scan column %q of type %s into %T", col.Name, typeName(col), dest)
	}
	intOK := cl == classInt || cl == classNumeric
	switch d := dest.(type) {
	case *string:
		*d = string(v)
	case *[]byte:
		*d = bytes.Clone(v)
	case *sql.RawBytes:
		*d = v
	case *any:
		val, err := driverValue(col, v)
		if err != nil {
			return err
		}
		*d = val
	case *bool:
		if cl != classBool {
			return mismatch()
		}
		*d = v[0] == 't'
	case *int64, *int32, *int16, *int8, *int:
		if !intOK {
			return mismatch()
		}
		return scanInt(d, col, wholeNumber(cl, v))
	case *uint64, *uint32, *uint16, *uint8, *uint:
		if !intOK {
			return mismatch()
		}
		return scanUint(d, col, wholeNumber(cl, v))
	case *float64:
		if cl != classInt && cl != classFloat && cl != classNumeric {
			return mismatch()
		}
		f, err := parseFloat(col, v, 64)
		if err != nil {
			return err
		}
		*d = f
	case *float32:
		if cl != classInt && cl != classFloat && cl != classNumeric {
			return mismatch()
		}
		f, err := parseFloat(col, v, 32)
		if err != nil {
			return err
		}
		*d = float32(f)
	case *big.Rat:
		if cl != classInt && cl != classNumeric {
			return mismatch()
		}
		if _, ok := d.SetString(string(v)); !ok {
			return engine.Errorf(engine.CodeDatatypeMismatch, "gpusql: column %q: cannot scan %s value %s into *big.Rat", col.Name, typeName(col), v)
		}
	case *time.Time:
		if cl != classDate && cl != classTimestamp {
			return mismatch()
		}
		t, err := parseTime(col, v)
		if err != nil {
			return err
		}
		*d = t
	case sql.Scanner:
		val, err := driverValue(col, v)
		if err != nil {
			return err
		}
		return d.Scan(val)
	case **string:
		// the usual nullable destinations without reflection (the
		// default case costs about 100 ns a value)
		s := string(v)
		*d = &s
	case **int64:
		x := new(int64)
		if err := scanValue(x, col, v); err != nil {
			return err
		}
		*d = x
	case **float64:
		x := new(float64)
		if err := scanValue(x, col, v); err != nil {
			return err
		}
		*d = x
	default:
		// **T: allocate a T and scan into it.
		rv := reflect.ValueOf(dest)
		if rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Elem().Kind() != reflect.Pointer {
			return mismatch()
		}
		p := reflect.New(rv.Elem().Type().Elem())
		if err := scanValue(p.Interface(), col, v); err != nil {
			return err
		}
		rv.Elem().Set(p)
	}
	return nil
}

func scanNull(dest any, col *engine.ResultColumn) error {
	switch d := dest.(type) {
	case *[]byte:
		*d = nil
		return nil
	case *sql.RawBytes:
		*d = nil
		return nil
	case *any:
		*d = nil
		return nil
	case sql.Scanner:
		return d.Scan(nil)
	case **string:
		*d = nil
		return nil
	case **int64:
		*d = nil
		return nil
	case **float64:
		*d = nil
		return nil
	}
	rv := reflect.ValueOf(dest)
	if rv.Kind() == reflect.Pointer && !rv.IsNil() && rv.Elem().Kind() == reflect.Pointer {
		rv.Elem().Set(reflect.Zero(rv.Elem().Type()))
		return nil
	}
	return engine.Errorf(engine.CodeNullValueNotAllowed, "gpusql: cannot scan NULL of column %q into %T (use a pointer or sql.Null type)", col.Name, dest)
}

// wholeNumber drops a fraction of zeros from a numeric value ("5.00" is
// 5); any other fraction is kept, for the integer parser to refuse.
func wholeNumber(cl class, v []byte) []byte {
	if cl != classNumeric {
		return v
	}
	dot := bytes.IndexByte(v, '.')
	if dot < 0 {
		return v
	}
	for _, c := range v[dot+1:] {
		if c != '0' {
			return v
		}
	}
	return v[:dot]
}

func scanInt(dest any, col *engine.ResultColumn, v []byte) error {
	switch d := dest.(type) {
	case *int64:
		n, err := parseInt(col, v, 64)
		if err != nil {
			return err
		}
		*d = n
	case *int32:
		n, err := parseInt(col, v, 32)
		if err != nil {
			return err
		}
		*d = int32(n)
	case *int16:
		n, err := parseInt(col, v, 16)
		if err != nil {
			return err
		}
		*d = int16(n)
	case *int8:
		n, err := parseInt(col, v, 8)
		if err != nil {
			return err
		}
		*d = int8(n)
	case *int:
		n, err := parseInt(col, v, strconv.IntSize)
		if err != nil {
			return err
		}
		*d = int(n)
	}
	return nil
}

func scanUint(dest any, col *engine.ResultColumn, v []byte) error {
	switch d := dest.(type) {
	case *uint64:
		n, err := parseUint(col, v, 64)
		if err != nil {
			return err
		}
		*d = n
	case *uint32:
		n, err := parseUint(col, v, 32)
		if err != nil {
			return err
		}
		*d = uint32(n)
	case *uint16:
		n, err := parseUint(col, v, 16)
		if err != nil {
			return err
		}
		*d = uint16(n)
	case *uint8:
		n, err := parseUint(col, v, 8)
		if err != nil {
			return err
		}
		*d = uint8(n)
	case *uint:
		n, err := parseUint(col, v, strconv.IntSize)
		if err != nil {
			return err
		}
		*d = uint(n)
	}
	return nil
}
