package pqfile

import (
	"fmt"
	"strings"

	"github.com/parquet-go/parquet-go/format"

	"github.com/gpusql/gpusql/engine"
)

// conv is how one file column becomes one table column: the file's
// values, read as the column's own SQL type, are converted to the table
// column's type, which must hold every value of the file's type.
type conv struct {
	src *column
	dst engine.Type
	// mul scales an integer source: a decimal's rescale to the table's
	// scale, or milliseconds to microseconds.
	mul int64
	// nanos: the source counts nanoseconds, rounded to microseconds.
	nanos bool
	// maxChars is varchar(n)'s limit, 0 for none.
	maxChars int
}

var pow10 = [...]int64{1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18}

// plan maps the file's columns, by position, onto the table columns
// cols. The file must have as many columns as cols (22P04 if not), each
// of a type the table column holds without loss (42804 if not, naming
// both). A column gpusql cannot read is 0A000.
func (f *File) plan(cols []engine.ColumnDef) ([]conv, error) {
	if len(f.cols) != len(cols) {
		return nil, engine.Errorf(engine.CodeBadCopyFileFormat, "Parquet file %q has %d columns, but %d are expected", f.Name, len(f.cols), len(cols)).
			WithHint("COPY ... WITH (FORMAT parquet) maps the file's columns to the table's (or the column list's) by position.")
	}
	out := make([]conv, len(cols))
	for i := range cols {
		c := &f.cols[i]
		if c.typ.Kind == engine.KindInvalid {
			return nil, f.refusal(c)
		}
		cv, ok := convFor(c, cols[i].Type)
		if !ok {
			return nil, engine.Errorf(engine.CodeDatatypeMismatch, "column %q is of type %s but column %d (%q) of Parquet file %q is %s, read as %s",
				cols[i].Name, cols[i].Type, i+1, c.name, f.Name, c.desc, c.typ).
				WithHint("A Parquet column loads into a column of its own type or of a wider one (docs/parquet.md).")
		}
		out[i] = cv
	}
	if err := f.checkDeltaInt32(out); err != nil {
		return nil, err
	}
	return out, nil
}

// checkDeltaInt32 refuses INT32 columns that DuckDB wrote with the
// DELTA_BINARY_PACKED encoding. DuckDB computes their deltas in 64 bits,
// so a delta beyond the 32-bit range takes a 33-bit miniblock, which the
// Parquet format does not allow for INT32 (Arrow rejects such pages) and
// which parquet-go decodes without an error into wrong values. Refusing
// every such column is coarse, but a load must not read wrong numbers.
func (f *File) checkDeltaInt32(plan []conv) error {
	md := f.pf.Metadata()
	if !strings.Contains(strings.ToLower(md.CreatedBy), "duckdb") {
		return nil
	}
	for _, cv := range plan {
		if cv.src.phys != format.Int32 {
			continue
		}
		for _, rg := range md.RowGroups {
			for _, e := range rg.Columns[cv.src.leaf].MetaData.Encoding {
				if e == format.DeltaBinaryPacked {
					return engine.Errorf(engine.CodeFeatureNotSupported, "column %q of Parquet file %q is an INT32 column that DuckDB wrote with DELTA_BINARY_PACKED, which gpusql cannot read reliably", cv.src.name, f.Name).
						WithHint("Write the file with DuckDB's default PARQUET_VERSION V1, or make the column BIGINT (docs/parquet.md).")
				}
			}
		}
	}
	return nil
}

// intWidth is an integer kind's width in bytes, 0 for other kinds.
func intWidth(k engine.Kind) int {
	switch k {
	case engine.KindInt16:
		return 2
	case engine.KindInt32:
		return 4
	case engine.KindInt64:
		return 8
	}
	return 0
}

// convFor is the conversion of column c into a table column of type dst,
// or false if dst cannot hold c's values.
func convFor(c *column, dst engine.Type) (conv, bool) {
	cv := conv{src: c, dst: dst, mul: 1}
	src := c.typ
	switch dst.Kind {
	case engine.KindBool, engine.KindDate, engine.KindFloat32:
		return cv, src.Kind == dst.Kind
	case engine.KindFloat64:
		return cv, src.Kind == engine.KindFloat64 || src.Kind == engine.KindFloat32
	case engine.KindInt16, engine.KindInt32, engine.KindInt64:
		w := intWidth(src.Kind)
		return cv, w > 0 && w <= intWidth(dst.Kind)
	case engine.KindNumeric:
		if src.Kind != engine.KindNumeric || dst.Prec < 1 || dst.Prec > maxDecimalDigits ||
			dst.Scale < src.Scale || dst.Prec-dst.Scale < src.Prec-src.Scale {
			return cv, false
		}
		if !dst.WideNumeric() { // a wide one is rescaled as Dec values (decs)
			cv.mul = pow10[dst.Scale-src.Scale]
		}
		return cv, true
	case engine.KindTimestamp, engine.KindTimestampTZ, engine.KindTime:
		if src.Kind != dst.Kind {
			return cv, false
		}
		switch c.unit {
		case unitMillis:
			cv.mul = 1000
		case unitNanos:
			cv.nanos = true
		}
		return cv, true
	case engine.KindText, engine.KindVarchar:
		cv.maxChars = dst.Len
		return cv, src.Kind == engine.KindText
	}
	return cv, false
}

// where names a value's place for an error message.
func where(file string, rowGroup int, col string) string {
	return fmt.Sprintf("Parquet file %q, row group %d, column %q", file, rowGroup, col)
}
