package pqfile

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/encoding"

	"github.com/gpusql/gpusql/engine"
)

// Writing (COPY ... TO ... WITH (FORMAT parquet)): a Writer turns the
// batches of a query's result into a flat Parquet file, one optional
// column per result column, in the result's order. The values of each
// batch are handed to parquet-go's column writers as one reused slice of
// parquet.Value per column, a goroutine per column, so nothing is
// allocated per row; parquet-go encodes and compresses the pages (Snappy)
// and writes the footer on Close. Every type written maps back to the same SQL type when the file
// is read (docs/parquet.md).

// WriteColumn is one column of the file to write.
type WriteColumn struct {
	Name string
	Type engine.Type
}

// WriteOptions tune a Writer.
type WriteOptions struct {
	// RowsPerGroup is the number of rows in each row group but the last;
	// 0 means 1,048,576.
	RowsPerGroup int64
	// Codec compresses the pages; nil means Snappy.
	Codec compress.Codec
	// Version is gpusql's, for the footer's created_by.
	Version string
}

// CodecNamed is the codec of a COPY ... (COMPRESSION name) option:
// snappy, zstd, gzip or uncompressed; nil (the Writer's default, Snappy)
// for any other name, which the parser has refused already.
func CodecNamed(name string) compress.Codec {
	switch name {
	case "zstd":
		return &parquet.Zstd
	case "gzip":
		return &parquet.Gzip
	case "uncompressed":
		return &parquet.Uncompressed
	}
	return nil
}

// createdBy sets the footer's created_by in the form readers parse
// ("app version v (build b)"); parquet-go's CreatedBy leaves out a space.
type createdBy string

func (c createdBy) ConfigureWriter(cfg *parquet.WriterConfig) { cfg.CreatedBy = string(c) }

// Writer writes a Parquet file batch by batch.
type Writer struct {
	w     *parquet.GenericWriter[any]
	cols  []WriteColumn
	bufs  []colBuf
	errs  []error
	perRG int64
	inRG  int64
	rows  int64
}

// colBuf is one column's scratch, reused from batch to batch.
type colBuf struct {
	vals  []parquet.Value
	arena []byte // char(n) values padded with blanks
	offs  []int
}

// CanWrite reports, as a 0A000 error naming the column, a type that has
// no Parquet form gpusql writes.
func CanWrite(name string, t engine.Type) error {
	_, err := writeNode(name, t)
	return err
}

// writeNode is the Parquet node (an optional leaf) of a SQL type.
func writeNode(name string, t engine.Type) (parquet.Node, error) {
	var n parquet.Node
	switch t.Kind {
	case engine.KindBool:
		n = parquet.Leaf(parquet.BooleanType)
	case engine.KindInt16:
		n = parquet.Int(16)
	case engine.KindInt32:
		n = parquet.Int(32)
	case engine.KindInt64:
		n = parquet.Int(64)
	case engine.KindFloat32:
		n = parquet.Leaf(parquet.FloatType)
	case engine.KindFloat64:
		n = parquet.Leaf(parquet.DoubleType)
	case engine.KindNumeric:
		switch {
		case t.Prec == 0:
			return nil, engine.Errorf(engine.CodeFeatureNotSupported,
				"cannot write column %q of type numeric without a precision to Parquet", name).
				WithDetail("A Parquet DECIMAL column has one precision and scale for all its values.").
				WithHint("Cast the column to numeric(p,s), for example numeric(18,2).")
		case t.Prec <= 9:
			n = parquet.Decimal(t.Scale, t.Prec, parquet.Int32Type)
		case t.Prec <= engine.NarrowNumericPrec:
			n = parquet.Decimal(t.Scale, t.Prec, parquet.Int64Type)
		default:
			// at most 38 digits (query/parse): 16 bytes, as Spark writes
			n = parquet.Decimal(t.Scale, t.Prec, parquet.FixedLenByteArrayType(16))
		}
	case engine.KindDate:
		n = parquet.Date()
	case engine.KindTimestamp:
		n = parquet.TimestampAdjusted(parquet.Microsecond, false)
	case engine.KindTimestampTZ:
		n = parquet.TimestampAdjusted(parquet.Microsecond, true)
	case engine.KindTime:
		n = parquet.TimeAdjusted(parquet.Microsecond, false)
	case engine.KindChar, engine.KindVarchar, engine.KindText, engine.KindUnknown:
		n = parquet.String()
	default:
		return nil, engine.Errorf(engine.CodeFeatureNotSupported,
			"cannot write column %q of type %s to Parquet", name, t).
			WithHint("gpusql writes booleans, integers, real, double precision, numeric(p,s), date, timestamp, timestamptz, time and strings; cast the column to one of them (for example to text).")
	}
	return parquet.Optional(n), nil
}

// NewWriter starts a Parquet file on out with cols. A column whose type
// has no Parquet form (CanWrite) fails with 0A000 before anything is
// written.
func NewWriter(out io.Writer, cols []WriteColumn, o WriteOptions) (*Writer, error) {
	g := make(group, len(cols))
	seen := make(map[string]bool, len(cols))
	for i, c := range cols {
		n, err := writeNode(c.Name, c.Type)
		if err != nil {
			return nil, err
		}
		// Parquet readers find columns by name: two result columns of one
		// name (SELECT a, a) get suffixes, as DuckDB gives them.
		name := c.Name
		for k := 1; seen[name]; k++ {
			name = fmt.Sprintf("%s_%d", c.Name, k)
		}
		seen[name] = true
		g[i] = &field{Node: n, name: name}
	}
	if len(cols) == 0 {
		return nil, engine.Errorf(engine.CodeFeatureNotSupported, "cannot write a Parquet file without columns")
	}
	codec := o.Codec
	if codec == nil {
		codec = &parquet.Snappy
	}
	per := o.RowsPerGroup
	if per <= 0 {
		per = 1 << 20
	}
	w := parquet.NewGenericWriter[any](out, parquet.NewSchema("schema", g), parquet.Compression(codec),
		createdBy("gpusql version "+cmp.Or(o.Version, "unknown")+" (build unknown)"))
	return &Writer{w: w, cols: cols, bufs: make([]colBuf, len(cols)), errs: make([]error, len(cols)), perRG: per}, nil
}

// Rows is the number of rows written.
func (w *Writer) Rows() int64 { return w.rows }

// Write appends a batch whose columns are the Writer's, in order. A row
// group ends after exactly RowsPerGroup rows, so a batch that crosses
// that count is written in two parts, the first ending the row group.
// Each column is handed to its column writer by a goroutine of its own:
// parquet-go's column writers are independent, and each encodes and
// compresses its pages as they fill, so a wide result is written on as
// many cores as it has columns.
func (w *Writer) Write(b *engine.Batch) error {
	if len(b.Cols) != len(w.cols) {
		return engine.Errorf(engine.CodeInternalError, "parquet writer: a batch of %d columns for %d", len(b.Cols), len(w.cols))
	}
	for lo := 0; lo < b.N; {
		hi := lo + int(min(int64(b.N-lo), w.perRG-w.inRG))
		if err := w.writeRows(b, lo, hi); err != nil {
			return err
		}
		lo = hi
		if w.inRG == w.perRG {
			w.inRG = 0
			if err := w.w.Flush(); err != nil {
				return err
			}
		}
	}
	return nil
}

// writeRows writes rows [lo, hi) of b, all in the current row group.
func (w *Writer) writeRows(b *engine.Batch, lo, hi int) error {
	writers := w.w.ColumnWriters()
	var wg sync.WaitGroup
	for c, v := range b.Cols {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.errs[c] = w.writeColumn(writers[c], c, v, lo, hi)
		}()
	}
	wg.Wait()
	for _, err := range w.errs {
		if err != nil {
			return err
		}
	}
	w.rows += int64(hi - lo)
	w.inRG += int64(hi - lo)
	return nil
}

// writeColumn writes rows [lo, hi) of column c of a batch.
func (w *Writer) writeColumn(cw *parquet.ColumnWriter, c int, v *engine.Vec, lo, hi int) error {
	buf := &w.bufs[c]
	vals, err := w.values(buf, buf.vals[:0], c, v, lo, hi)
	buf.vals = vals
	if err == nil {
		if _, err = cw.WriteRowValues(vals); err != nil {
			err = fmt.Errorf("parquet: column %q: %w", w.cols[c].Name, err)
		}
	}
	// The values may point into the batch's strings: drop them now.
	clear(vals)
	return err
}

// values appends the Parquet values of v's rows [lo, hi) (column c) to
// dst.
func (w *Writer) values(buf *colBuf, dst []parquet.Value, c int, v *engine.Vec, lo, hi int) ([]parquet.Value, error) {
	t := w.cols[c].Type
	if v.T.Kind == engine.KindChar && t.Len > 0 {
		// char(n) is written as it reads, padded with blanks to n
		// characters; the padded values go to the column's arena, and
		// the values point into it once it is complete.
		buf.arena, buf.offs = buf.arena[:0], buf.offs[:0]
		for i := lo; i < hi; i++ {
			buf.offs = append(buf.offs, len(buf.arena))
			if v.IsNull(i) {
				continue
			}
			buf.arena = append(buf.arena, v.S[i]...)
			for k := utf8.RuneCount(v.S[i]); k < t.Len; k++ {
				buf.arena = append(buf.arena, ' ')
			}
		}
		buf.offs = append(buf.offs, len(buf.arena))
	}
	if t.WideNumeric() {
		// the 16-byte big-endian mantissas go to the arena, as char(n)'s
		// padded values do
		buf.arena = slices.Grow(buf.arena[:0], 16*(hi-lo))[:16*(hi-lo)]
	}
	for i := lo; i < hi; i++ {
		if v.IsNull(i) {
			dst = append(dst, parquet.NullValue().Level(0, 0, c))
			continue
		}
		var p parquet.Value
		switch t.Kind {
		case engine.KindBool:
			p = parquet.BooleanValue(v.I[i] != 0)
		case engine.KindInt16, engine.KindInt32, engine.KindDate:
			p = parquet.Int32Value(int32(v.I[i]))
		case engine.KindInt64, engine.KindTimestamp, engine.KindTimestampTZ, engine.KindTime:
			p = parquet.Int64Value(v.I[i])
		case engine.KindFloat32:
			p = parquet.FloatValue(float32(v.F[i]))
		case engine.KindFloat64:
			p = parquet.DoubleValue(v.F[i])
		case engine.KindNumeric:
			if t.WideNumeric() {
				m, err := mantissa128(v.D[i], t)
				if err != nil {
					return dst, err
				}
				b := buf.arena[16*(i-lo) : 16*(i-lo+1)]
				binary.BigEndian.PutUint64(b[:8], uint64(m.Hi))
				binary.BigEndian.PutUint64(b[8:], m.Lo)
				p = parquet.FixedLenByteArrayValue(b)
				break
			}
			m, err := mantissa(v.D[i], t)
			if err != nil {
				return dst, err
			}
			if t.Prec <= 9 {
				p = parquet.Int32Value(int32(m))
			} else {
				p = parquet.Int64Value(m)
			}
		case engine.KindChar:
			if t.Len > 0 {
				p = parquet.ByteArrayValue(buf.arena[buf.offs[i-lo]:buf.offs[i-lo+1]])
				break
			}
			p = parquet.ByteArrayValue(v.S[i])
		default:
			p = parquet.ByteArrayValue(v.S[i])
		}
		dst = append(dst, p.Level(0, 1, c))
	}
	return dst, nil
}

// mantissa is d as the unscaled integer of numeric(p,s) t: d at scale s,
// which must have at most p digits.
func mantissa(d engine.Dec, t engine.Type) (int64, error) {
	s := int32(t.Scale)
	if d.Scale < s {
		r, ok := d.Rescale(s)
		if !ok {
			return 0, overflow(d, t)
		}
		d = r
	} else if d.Scale > s {
		d = d.Round(s)
	}
	m, ok := d.Int64()
	if !ok || m >= engine.Pow10(t.Prec) || m <= -engine.Pow10(t.Prec) {
		return 0, overflow(d, t)
	}
	return m, nil
}

// mantissa128 is mantissa for numeric(p,s) with p > 18: d at scale s,
// its 128-bit mantissa below 10^p in magnitude.
func mantissa128(d engine.Dec, t engine.Type) (engine.Dec, error) {
	s := int32(t.Scale)
	if d.Scale < s {
		r, ok := d.Rescale(s)
		if !ok {
			return d, overflow(d, t)
		}
		d = r
	} else if d.Scale > s {
		d = d.Round(s)
	}
	limit, _ := engine.DecFromInt(1).Rescale(int32(t.Prec))
	limit.Scale = s // 10^p at scale s: |d| must stay below it
	a := d
	if a.Sign() < 0 {
		a, _ = a.Neg()
	}
	if engine.DecCmp(a, limit) >= 0 {
		return d, overflow(d, t)
	}
	return d, nil
}

func overflow(d engine.Dec, t engine.Type) error {
	return engine.Errorf(engine.CodeNumericValueOutOfRange, "numeric field overflow").
		WithDetail("The value %s does not fit the Parquet column's %s.", d, t)
}

// Close ends the last row group and writes the footer. A file without
// rows still has its schema.
func (w *Writer) Close() error {
	return w.w.Close()
}

// group is a Parquet group whose fields keep their order: parquet.Group
// is a map and orders its fields by name, but a result's columns are
// written in the result's order.
type group []*field

type field struct {
	parquet.Node
	name string
}

func (f *field) Name() string { return f.name }

// Value is parquet-go's way to find the field in a Go value; the Writer
// hands values to the column writers itself and never calls it.
func (f *field) Value(reflect.Value) reflect.Value { return reflect.Value{} }

func (g group) ID() int            { return 0 }
func (g group) Type() parquet.Type { return parquet.Group{}.Type() }
func (g group) Optional() bool     { return false }
func (g group) Repeated() bool     { return false }
func (g group) Required() bool     { return true }
func (g group) Leaf() bool         { return false }
func (g group) Encoding() encoding.Encoding {
	return nil
}
func (g group) Compression() compress.Codec { return nil }
func (g group) GoType() reflect.Type        { return reflect.TypeFor[map[string]any]() }

func (g group) Fields() []parquet.Field {
	out := make([]parquet.Field, len(g))
	for i, f := range g {
		out[i] = f
	}
	return out
}

func (g group) String() string {
	var b strings.Builder
	b.WriteString("group {")
	for i, f := range g {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(f.name + " " + f.Node.String())
	}
	b.WriteString("}")
	return b.String()
}
