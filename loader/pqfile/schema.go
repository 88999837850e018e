// Package pqfile reads Apache Parquet files into host columns
// (engine.Column), for CREATE TABLE ... FROM PARQUET and COPY ... WITH
// (FORMAT parquet). It decodes the file's pages itself, page by page, into
// the engine's column layout: no value is boxed and nothing is allocated
// per row. The caller hands the resulting host table to a backend's Store,
// as for any other host-built rows (the GPU backend uploads it).
//
// Only flat files are read: every top-level field must be a primitive
// column, required or optional. The types a column may have, and the SQL
// type each one reads as, are in docs/parquet.md; anything else is refused
// with 0A000 naming the column.
package pqfile

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/format"

	"github.com/gpusql/gpusql/engine"
)

// maxDecimalDigits is the widest decimal read and written: gpusql's
// numeric(p,s) holds 38 digits (engine.MaxNumericPrec), as a scaled
// int64 up to 18 and a 128-bit mantissa beyond.
const maxDecimalDigits = engine.MaxNumericPrec

// File is an open Parquet file whose footer has been read.
type File struct {
	// Name is the file as the statement named it, for messages.
	Name   string
	pf     *parquet.File
	cols   []column
	leaves int // primitive columns in the schema
	closer io.Closer
}

// Close closes what Open was given to close.
func (f *File) Close() error {
	if f.closer == nil {
		return nil
	}
	return f.closer.Close()
}

// unit is a time column's unit, in what one stored step is worth.
type unit uint8

const (
	unitNone unit = iota
	unitMillis
	unitMicros
	unitNanos
)

// column is one top-level column of a file: where its values are and
// what they mean.
type column struct {
	name     string
	leaf     int         // index of its column chunk in a row group
	phys     format.Type // physical type
	optional bool
	// typ is the SQL type the column reads as; Kind 0 when unsupported,
	// with why saying what the column is.
	typ  engine.Type
	why  string
	desc string // the Parquet type, for messages: "INT32", "DECIMAL(9,2)"
	// unsigned: an INT32/INT64 with an unsigned integer annotation.
	unsigned bool
	scale    int  // decimal scale
	unit     unit // time and timestamp columns
}

// Open reads the footer of the Parquet file r (size bytes), named name in
// messages; File.Close closes closer (nil: nothing). A file that is not
// Parquet, or whose footer is cut short or damaged, is 22P04; Open does
// not close closer then.
func Open(r io.ReaderAt, size int64, name string, closer io.Closer) (f *File, err error) {
	bad := func(why any) error {
		return engine.Errorf(engine.CodeBadCopyFileFormat, "could not read Parquet file %q: %v", name, why).
			WithHint("The file is not a Parquet file, or its footer is damaged or cut short.")
	}
	defer func() {
		// parquet-go panics on some malformed schemas; such a file is
		// as bad as one it rejects with an error.
		if p := recover(); p != nil {
			f, err = nil, bad(p)
		}
	}()
	if size < 12 {
		return nil, bad(fmt.Sprintf("%d bytes is too short for a Parquet file", size))
	}
	// The footer's length, before the closing magic, must fit in the
	// file: parquet-go would allocate whatever it says before reading.
	var tail [8]byte
	if _, err := r.ReadAt(tail[:], size-8); err != nil {
		return nil, bad(err)
	}
	if string(tail[4:]) != "PAR1" {
		return nil, bad("the file does not end with the Parquet magic PAR1")
	}
	if n := int64(binary.LittleEndian.Uint32(tail[:4])); n > size-12 {
		return nil, bad(fmt.Sprintf("the footer's length, %d bytes, exceeds the file", n))
	}
	pf, err := parquet.OpenFile(r, size, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return nil, bad(err)
	}
	f = &File{Name: name, pf: pf, closer: closer}
	if err := f.describe(); err != nil {
		return nil, err
	}
	// The row groups' row counts size the columns before any page is
	// read: they must add up to the file's.
	var rows int64
	for _, rg := range pf.Metadata().RowGroups {
		if rg.NumRows < 0 || rg.NumRows > math.MaxInt32 || len(rg.Columns) < f.leaves {
			return nil, bad(fmt.Sprintf("a row group of %d rows and %d columns", rg.NumRows, len(rg.Columns)))
		}
		rows += rg.NumRows
	}
	if rows != pf.Metadata().NumRows {
		return nil, bad(fmt.Sprintf("the row groups hold %d rows, the footer says %d", rows, pf.Metadata().NumRows))
	}
	return f, nil
}

// MaxRowGroupRows is the most rows any row group of the file claims.
func (f *File) MaxRowGroupRows() int64 {
	var m int64
	for _, rg := range f.pf.Metadata().RowGroups {
		m = max(m, rg.NumRows)
	}
	return m
}

// describe reads the file's schema into f.cols.
func (f *File) describe() error {
	schema := f.pf.Metadata().Schema
	if len(schema) == 0 {
		return engine.Errorf(engine.CodeBadCopyFileFormat, "Parquet file %q has no schema", f.Name)
	}
	root := schema[0]
	n := int(root.NumChildren.V)
	leaf := 0
	for i := 1; i < len(schema); i++ {
		el := &schema[i]
		c := column{name: el.Name, leaf: leaf, phys: el.Type.V}
		if el.NumChildren.Valid && el.NumChildren.V > 0 {
			// A group (struct, list or map): refused, and its leaves
			// skipped so the columns after it keep their chunk index.
			c.why, c.desc = "a nested group", "group"
			i, leaf = skipGroup(schema, i, leaf)
			f.cols = append(f.cols, c)
			continue
		}
		leaf++
		switch el.RepetitionType.V {
		case format.Repeated:
			c.why, c.desc = "a repeated field", "repeated "+el.Type.V.String()
		case format.Optional:
			c.optional = true
			c.classify(el)
		default:
			c.classify(el)
		}
		f.cols = append(f.cols, c)
	}
	if len(f.cols) != n {
		return engine.Errorf(engine.CodeBadCopyFileFormat, "Parquet file %q has a malformed schema: the root has %d children, the schema lists %d", f.Name, n, len(f.cols))
	}
	if len(f.cols) == 0 {
		return engine.Errorf(engine.CodeBadCopyFileFormat, "Parquet file %q has no columns", f.Name)
	}
	f.leaves = leaf
	return nil
}

// skipGroup steps over the group at schema[i] and everything under it,
// returning the index of its last element and the next leaf index.
func skipGroup(schema []format.SchemaElement, i, leaf int) (int, int) {
	pending := 1
	for pending > 0 && i < len(schema) {
		el := &schema[i]
		pending--
		if el.NumChildren.Valid && el.NumChildren.V > 0 {
			pending += int(el.NumChildren.V)
		} else {
			leaf++
		}
		i++
	}
	return i - 1, leaf
}

// classify sets c's SQL type from a primitive schema element's physical,
// logical and (for older writers) converted types.
func (c *column) classify(el *format.SchemaElement) {
	phys := el.Type.V
	c.desc = phys.String()
	unsupported := func(desc, why string) { c.desc, c.why = desc, why }
	switch lt := el.LogicalType.Value.(type) {
	case nil:
	case *format.StringType, *format.EnumType:
		c.desc = phys.String() + " " + lt.String()
		if phys == format.ByteArray {
			c.typ = engine.Text
		} else {
			c.why = "a string that is not a BYTE_ARRAY"
		}
		return
	case *format.IntType:
		c.desc = lt.String()
		c.intType(int(lt.BitWidth), lt.IsSigned)
		return
	case *format.DecimalType:
		c.decimal(int(lt.Precision), int(lt.Scale))
		return
	case *format.DateType:
		c.desc = "DATE"
		if phys == format.Int32 {
			c.typ = engine.Date
		} else {
			c.why = "a DATE that is not INT32"
		}
		return
	case *format.TimestampType:
		c.desc = lt.String()
		c.unit = unitOf(&lt.Unit)
		switch {
		case phys != format.Int64 || c.unit == unitNone:
			c.why = "a TIMESTAMP that is not INT64 millis, micros or nanos"
		case lt.IsAdjustedToUTC:
			c.typ = engine.TimestampTZ
		default:
			c.typ = engine.Timestamp
		}
		return
	case *format.TimeType:
		c.desc = lt.String()
		c.unit = unitOf(&lt.Unit)
		switch {
		case c.unit == unitMillis && phys == format.Int32,
			(c.unit == unitMicros || c.unit == unitNanos) && phys == format.Int64:
			c.typ = engine.Time
		default:
			c.why = "a TIME of an unknown unit or physical type"
		}
		return
	default:
		unsupported(phys.String()+" "+lt.String(), "a type gpusql does not read")
		return
	}
	if el.ConvertedType.Valid {
		switch ct := el.ConvertedType.V; ct {
		case deprecated.UTF8, deprecated.Enum:
			c.desc = phys.String() + " " + convertedName(ct)
			if phys == format.ByteArray {
				c.typ = engine.Text
			} else {
				c.why = "a string that is not a BYTE_ARRAY"
			}
		case deprecated.Int8, deprecated.Int16, deprecated.Int32, deprecated.Int64:
			c.desc = convertedName(ct)
			c.intType(map[deprecated.ConvertedType]int{deprecated.Int8: 8, deprecated.Int16: 16, deprecated.Int32: 32, deprecated.Int64: 64}[ct], true)
		case deprecated.Uint8, deprecated.Uint16, deprecated.Uint32, deprecated.Uint64:
			c.desc = convertedName(ct)
			c.intType(map[deprecated.ConvertedType]int{deprecated.Uint8: 8, deprecated.Uint16: 16, deprecated.Uint32: 32, deprecated.Uint64: 64}[ct], false)
		case deprecated.Decimal:
			c.decimal(int(el.Precision.V), int(el.Scale.V))
		case deprecated.Date:
			c.desc = "DATE"
			if phys == format.Int32 {
				c.typ = engine.Date
			} else {
				c.why = "a DATE that is not INT32"
			}
		case deprecated.TimestampMillis, deprecated.TimestampMicros:
			// The legacy annotations mean instants (adjusted to UTC).
			c.desc = convertedName(ct)
			c.unit = unitMillis
			if ct == deprecated.TimestampMicros {
				c.unit = unitMicros
			}
			if phys == format.Int64 {
				c.typ = engine.TimestampTZ
			} else {
				c.why = "a timestamp that is not INT64"
			}
		case deprecated.TimeMillis, deprecated.TimeMicros:
			c.desc = convertedName(ct)
			if ct == deprecated.TimeMillis && phys == format.Int32 {
				c.typ, c.unit = engine.Time, unitMillis
			} else if ct == deprecated.TimeMicros && phys == format.Int64 {
				c.typ, c.unit = engine.Time, unitMicros
			} else {
				c.why = "a TIME of an unknown physical type"
			}
		default:
			unsupported(phys.String()+" "+convertedName(ct), "a type gpusql does not read")
		}
		return
	}
	switch phys {
	case format.Boolean:
		c.typ = engine.Bool
	case format.Int32:
		c.typ = engine.Int32
	case format.Int64:
		c.typ = engine.Int64
	case format.Float:
		c.typ = engine.Float32
	case format.Double:
		c.typ = engine.Float64
	case format.Int96:
		c.why = "a legacy INT96 timestamp; write the file with INT64 timestamps"
	case format.ByteArray:
		c.why = "binary data without a string annotation"
	case format.FixedLenByteArray:
		c.desc = fmt.Sprintf("FIXED_LEN_BYTE_ARRAY(%d)", el.TypeLength.V)
		c.why = "binary data without a decimal annotation"
	default:
		c.why = "an unknown physical type"
	}
}

func unitOf(u *format.TimeUnit) unit {
	switch u.Value.(type) {
	case *format.MilliSeconds:
		return unitMillis
	case *format.MicroSeconds:
		return unitMicros
	case *format.NanoSeconds:
		return unitNanos
	}
	return unitNone
}

// intType types an integer annotation: signed integers as the smallest
// SQL integer that holds them (PostgreSQL has no 8-bit one), unsigned
// ones as the next wider signed type; a UINT64 fits none.
func (c *column) intType(bits int, signed bool) {
	want := format.Int32
	if bits == 64 {
		want = format.Int64
	}
	if c.phys != want {
		c.why = "an integer annotation on the wrong physical type"
		return
	}
	c.unsigned = !signed
	switch {
	case signed && bits <= 16, !signed && bits == 8:
		c.typ = engine.Int16
	case signed && bits == 32, !signed && bits == 16:
		c.typ = engine.Int32
	case signed && bits == 64, !signed && bits == 32:
		c.typ = engine.Int64
	default:
		c.why = "an unsigned 64-bit integer, which no SQL integer type holds"
	}
}

func (c *column) decimal(p, s int) {
	c.desc = fmt.Sprintf("DECIMAL(%d,%d)", p, s)
	switch {
	case p > maxDecimalDigits:
		c.why = fmt.Sprintf("a decimal of more than %d digits", maxDecimalDigits)
	case p < 1 || s < 0 || s > p:
		c.why = "a decimal with an invalid precision or scale"
	case c.phys != format.Int32 && c.phys != format.Int64 && c.phys != format.ByteArray && c.phys != format.FixedLenByteArray:
		c.why = "a decimal of an invalid physical type"
	default:
		c.typ, c.scale = engine.NumericType(p, s), s
	}
}

// refusal is the 0A000 error for a column of a type gpusql does not read.
func (f *File) refusal(c *column) error {
	return engine.Errorf(engine.CodeFeatureNotSupported, "column %q of Parquet file %q has type %s, which gpusql cannot read: %s", c.name, f.Name, c.desc, c.why).
		WithHint("See docs/parquet.md for the Parquet types gpusql reads.")
}

// Columns are the file's columns as a table's: each column's SQL type,
// from its Parquet type (docs/parquet.md). A column of a type gpusql
// cannot read is 0A000, naming it.
func (f *File) Columns() ([]engine.ColumnDef, error) {
	defs := make([]engine.ColumnDef, len(f.cols))
	seen := map[string]bool{}
	for i := range f.cols {
		c := &f.cols[i]
		if c.typ.Kind == engine.KindInvalid {
			return nil, f.refusal(c)
		}
		if seen[c.name] {
			return nil, engine.Errorf(engine.CodeDuplicateColumn, "column %q specified more than once (Parquet file %q has two columns of that name)", c.name, f.Name)
		}
		seen[c.name] = true
		defs[i] = engine.ColumnDef{Name: c.name, Type: c.typ}
	}
	return defs, nil
}

// Rows is the file's row count, from its footer.
func (f *File) Rows() int64 { return f.pf.NumRows() }

// errCorrupt is the XX001 error for damaged data inside a file whose
// footer read well.
func errCorrupt(file string, rowGroup int, col string, err any) error {
	e := engine.Errorf(engine.CodeDataCorrupted, "could not decode Parquet file %q, row group %d, column %q: %v", file, rowGroup, col, err)
	if er, ok := err.(error); ok {
		e.Err = er
	}
	return e
}

// convertedName names a legacy converted type as the format spells it.
func convertedName(ct deprecated.ConvertedType) string {
	names := [...]string{"UTF8", "MAP", "MAP_KEY_VALUE", "LIST", "ENUM", "DECIMAL", "DATE", "TIME_MILLIS", "TIME_MICROS",
		"TIMESTAMP_MILLIS", "TIMESTAMP_MICROS", "UINT_8", "UINT_16", "UINT_32", "UINT_64", "INT_8", "INT_16", "INT_32", "INT_64",
		"JSON", "BSON", "INTERVAL"}
	if int(ct) >= 0 && int(ct) < len(names) {
		return names[ct]
	}
	return fmt.Sprintf("converted type %d", int(ct))
}

// RowGroups is how many row groups the file has.
func (f *File) RowGroups() int { return len(f.pf.RowGroups()) }
