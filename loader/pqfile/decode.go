package pqfile

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math"
	"unicode/utf8"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding"
	"github.com/parquet-go/parquet-go/format"

	"github.com/gpusql/gpusql/engine"
)

// Decoding one column chunk: each page's values, dense (the non-NULL
// ones, or a dictionary's), are first converted to the table column's
// storage type in a scratch buffer the decoder reuses; a second loop then
// places them at their rows, following the page's definition levels
// (NULLs) and dictionary indexes. Nothing is allocated per row.

// Range limits of the stored kinds, as PostgreSQL's (gpusql reads no
// dates or timestamps before year 1, which it cannot show).
var (
	minDate = engine.DaysFromCivil(1, 1, 1)
	maxDate = engine.DaysFromCivil(5874897, 12, 31)
	minTS   = int64(minDate) * usPerDay
)

const usPerDay = 86400 * 1000000

// decoder decodes column chunks; one per goroutine, its scratch buffers
// reused from chunk to chunk.
type decoder struct {
	file     string
	rowGroup int
	o        *Options
	i64      []int64
	i32      []int32
	i16      []int16
	f32      []float32
	f64      []float64
	b        []uint8
	dec      []engine.Dec
	// the converted dictionary of the chunk being read, and its source
	dict     parquet.Dictionary
	dictVals any
	kept     []parquet.Page
}

// chunk decodes the n rows of one column chunk. A fixed-width column's
// values go into rows off.. of into, the table's column, and the result
// is a view of those rows with its own validity bitmap (the bitmap's
// words at the range's ends are shared with other row groups, so NULLs
// are marked in into later, by one goroutine). A string column is
// decoded into a new column of its own.
func (d *decoder) chunk(ctx context.Context, cc parquet.ColumnChunk, cv *conv, n int, into *engine.Column, off int) (col *engine.Column, err error) {
	d.dict, d.dictVals = nil, nil
	pages := cc.Pages()
	defer pages.Close()
	defer func() {
		for _, p := range d.kept {
			parquet.Release(p)
		}
		d.kept = d.kept[:0]
		d.dict, d.dictVals = nil, nil
	}()
	str := cv.dst.IsString()
	if !str {
		col = view(into, off, n, cv.src.optional)
	}
	at := 0
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		p, err := pages.ReadPage()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, d.corrupt(cv, err)
		}
		rows := int(p.NumRows())
		if at+rows > n {
			parquet.Release(p)
			return nil, d.corrupt(cv, errors.New("a page holds more rows than its row group"))
		}
		if str {
			d.kept = append(d.kept, p)
		} else {
			err = d.fixed(p, col, at, cv)
			parquet.Release(p)
			if err != nil {
				return nil, err
			}
		}
		at += rows
	}
	if at != n {
		return nil, d.corrupt(cv, errors.New("the pages hold fewer rows than the row group"))
	}
	if str {
		return d.strings(cv, n)
	}
	return col, nil
}

// view is rows off..off+n of c's values, with a validity bitmap of its
// own (every row valid) if nullable.
func view(c *engine.Column, off, n int, nullable bool) *engine.Column {
	v := &engine.Column{Type: c.Type, Len: n}
	switch {
	case c.B != nil:
		v.B = c.B[off : off+n : off+n]
	case c.I16 != nil:
		v.I16 = c.I16[off : off+n : off+n]
	case c.I32 != nil:
		v.I32 = c.I32[off : off+n : off+n]
	case c.I64 != nil:
		v.I64 = c.I64[off : off+n : off+n]
	case c.F32 != nil:
		v.F32 = c.F32[off : off+n : off+n]
	case c.F64 != nil:
		v.F64 = c.F64[off : off+n : off+n]
	case c.D != nil:
		v.D = c.D[off : off+n : off+n]
	}
	if nullable {
		v.Valid = make([]uint64, (n+63)/64)
		for i := range v.Valid {
			v.Valid[i] = ^uint64(0)
		}
	}
	return v
}

func (d *decoder) corrupt(cv *conv, err any) error {
	return errCorrupt(d.file, d.rowGroup, cv.src.name, err)
}

// pageShape checks a page's definition levels and returns its values
// (a dictionary's if it has one), its dictionary indexes and how many
// values it holds.
func (d *decoder) pageShape(p parquet.Page, cv *conv) (defs []byte, vals encoding.Values, idx []int32, dict parquet.Dictionary, err error) {
	rows := int(p.NumRows())
	defs = p.DefinitionLevels()
	nonNull := rows
	if cv.src.optional {
		if len(defs) != rows {
			return nil, vals, nil, nil, d.corrupt(cv, errors.New("definition levels do not match the page's rows"))
		}
		nonNull = rows - bytes.Count(defs, []byte{0})
	} else {
		defs = nil
	}
	vals = p.Data()
	if dict = p.Dictionary(); dict != nil {
		idx = vals.Int32()
		if len(idx) < nonNull {
			return nil, vals, nil, nil, d.corrupt(cv, errors.New("a page holds fewer dictionary indexes than values"))
		}
		vals = dict.Page().Data()
	} else if count(vals, cv.src.phys) < nonNull {
		return nil, vals, nil, nil, d.corrupt(cv, errors.New("a page holds fewer values than its definition levels say"))
	}
	return defs, vals, idx, dict, nil
}

// count is how many values vals holds.
func count(vals encoding.Values, phys format.Type) int {
	data, offs := vals.Data()
	switch phys {
	case format.Boolean:
		return len(data) * 8
	case format.Int32, format.Float:
		return len(data) / 4
	case format.Int64, format.Double:
		return len(data) / 8
	case format.ByteArray:
		return max(len(offs)-1, 0)
	case format.FixedLenByteArray:
		_, size := vals.FixedLenByteArray()
		if size == 0 {
			return 0
		}
		return len(data) / size
	}
	return 0
}

// fixed decodes one page of a fixed-width column.
func (d *decoder) fixed(p parquet.Page, col *engine.Column, at int, cv *conv) error {
	defs, vals, idx, dict, err := d.pageShape(p, cv)
	if err != nil {
		return err
	}
	cached := dict != nil && dict == d.dict
	rows := int(p.NumRows())
	if col.D != nil { // numeric(p,s), p > 18
		src := d.dec
		if cached {
			src = d.dictVals.([]engine.Dec)
		} else if src, err = d.decs(vals, cv); err != nil {
			return err
		}
		d.keepDict(dict, cached, src)
		return d.place(scatter(col.D, src, idx, defs, col, at, rows), cv)
	}
	switch col.Type.Kind {
	case engine.KindBool:
		var src []uint8
		if cached {
			src = d.dictVals.([]uint8)
		} else {
			bits := vals.Boolean()
			d.b = grow(d.b, len(bits)*8)
			for i := range d.b {
				d.b[i] = bits[i>>3] >> (i & 7) & 1
			}
			src = d.b
		}
		d.keepDict(dict, cached, src)
		return d.place(scatter(col.B, src, idx, defs, col, at, rows), cv)
	case engine.KindInt16:
		src := d.i16
		if cached {
			src = d.dictVals.([]int16)
		} else {
			in := vals.Int32()
			d.i16 = grow(d.i16, len(in))
			src = d.i16
			for i, v := range in {
				if v < math.MinInt16 || v > math.MaxInt16 {
					return d.outOfRange(cv, "smallint out of range")
				}
				src[i] = int16(v)
			}
		}
		d.keepDict(dict, cached, src)
		return d.place(scatter(col.I16, src, idx, defs, col, at, rows), cv)
	case engine.KindInt32, engine.KindDate:
		src := d.i32
		if cached {
			src = d.dictVals.([]int32)
		} else {
			in := vals.Int32()
			d.i32 = grow(d.i32, len(in))
			src = d.i32
			for i, v := range in {
				if cv.src.unsigned && v < 0 {
					return d.outOfRange(cv, "integer out of range")
				}
				if col.Type.Kind == engine.KindDate && (v < minDate || v > maxDate) {
					return d.outOfRange(cv, "date out of range")
				}
				src[i] = v
			}
		}
		d.keepDict(dict, cached, src)
		return d.place(scatter(col.I32, src, idx, defs, col, at, rows), cv)
	case engine.KindFloat32:
		src := vals.Float()
		return d.place(scatter(col.F32, src, idx, defs, col, at, rows), cv)
	case engine.KindFloat64:
		var src []float64
		switch {
		case cached:
			src = d.dictVals.([]float64)
		case cv.src.phys == format.Float:
			in := vals.Float()
			d.f64 = grow(d.f64, len(in))
			for i, v := range in {
				d.f64[i] = float64(v)
			}
			src = d.f64
		default:
			src = vals.Double()
		}
		d.keepDict(dict, cached, src)
		return d.place(scatter(col.F64, src, idx, defs, col, at, rows), cv)
	default: // bigint, numeric, timestamps, time: int64 storage
		src := d.i64
		if cached {
			src = d.dictVals.([]int64)
		} else {
			if src, err = d.int64s(vals, cv); err != nil {
				return err
			}
		}
		d.keepDict(dict, cached, src)
		return d.place(scatter(col.I64, src, idx, defs, col, at, rows), cv)
	}
}

// keepDict remembers the converted values of a dictionary, so that the
// chunk's later pages reuse them. The values live in a scratch buffer
// that later pages would overwrite, so they are copied once.
func (d *decoder) keepDict(dict parquet.Dictionary, cached bool, vals any) {
	if dict == nil || cached {
		return
	}
	d.dict = dict
	switch v := vals.(type) {
	case []uint8:
		d.dictVals = append([]uint8(nil), v...)
	case []int16:
		d.dictVals = append([]int16(nil), v...)
	case []int32:
		d.dictVals = append([]int32(nil), v...)
	case []int64:
		d.dictVals = append([]int64(nil), v...)
	case []float64:
		d.dictVals = append([]float64(nil), v...)
	case []engine.Dec:
		d.dictVals = append([]engine.Dec(nil), v...)
	default:
		d.dict = nil
	}
}

var errBadIndex = errors.New("a dictionary index is out of range")

func (d *decoder) place(err error, cv *conv) error {
	if err != nil {
		return d.corrupt(cv, err)
	}
	return nil
}

// scatter places the dense values src at rows at.. of dst: NULL rows
// (definition level 0) are marked in col, the others take the next
// value, or the value its dictionary index names.
func scatter[T any](dst, src []T, idx []int32, defs []byte, col *engine.Column, at, rows int) error {
	if defs == nil && idx == nil {
		if len(src) < rows {
			return errors.New("a page holds fewer values than rows")
		}
		copy(dst[at:at+rows], src[:rows])
		return nil
	}
	k := 0
	for r := 0; r < rows; r++ {
		if defs != nil && defs[r] == 0 {
			col.SetNull(at + r)
			continue
		}
		j := k
		if idx != nil {
			j = int(idx[k])
		}
		if uint(j) >= uint(len(src)) {
			return errBadIndex
		}
		dst[at+r] = src[j]
		k++
	}
	return nil
}

func grow[T any](b []T, n int) []T {
	if cap(b) < n {
		return make([]T, n)
	}
	return b[:n]
}

func (d *decoder) outOfRange(cv *conv, msg string) error {
	code := engine.CodeNumericValueOutOfRange
	switch cv.dst.Kind {
	case engine.KindDate, engine.KindTimestamp, engine.KindTimestampTZ, engine.KindTime:
		code = engine.CodeDatetimeFieldOverflow
	}
	return engine.Errorf(code, "%s", msg).WithDetail("In %s.", where(d.file, d.rowGroup, cv.src.name))
}

// int64s converts vals to int64 storage of the table column's type:
// bigint, numeric (scaled), timestamps (µs since 1970) or time (µs since
// midnight).
func (d *decoder) int64s(vals encoding.Values, cv *conv) ([]int64, error) {
	var out []int64
	switch cv.src.phys {
	case format.Int32:
		in := vals.Int32()
		d.i64 = grow(d.i64, len(in))
		out = d.i64
		for i, v := range in {
			if cv.src.unsigned {
				out[i] = int64(uint32(v))
			} else {
				out[i] = int64(v)
			}
		}
	case format.Int64:
		in := vals.Int64()
		if cv.src.unsigned {
			for _, v := range in {
				if v < 0 {
					return nil, d.outOfRange(cv, "bigint out of range")
				}
			}
		}
		if cv.mul == 1 && !cv.nanos && cv.dst.Kind == engine.KindInt64 {
			return in, nil // the page's own values, read only
		}
		d.i64 = grow(d.i64, len(in))
		out = d.i64
		copy(out, in)
	case format.ByteArray:
		data, offs := vals.ByteArray()
		n := max(len(offs)-1, 0)
		d.i64 = grow(d.i64, n)
		out = d.i64
		for i := 0; i < n; i++ {
			v, ok := bigEndian(data[offs[i]:offs[i+1]])
			if !ok {
				return nil, d.outOfRange(cv, "numeric field overflow")
			}
			out[i] = v
		}
	case format.FixedLenByteArray:
		data, size := vals.FixedLenByteArray()
		if size == 0 {
			return nil, d.corrupt(cv, errors.New("a zero-length decimal"))
		}
		n := len(data) / size
		d.i64 = grow(d.i64, n)
		out = d.i64
		for i := 0; i < n; i++ {
			v, ok := bigEndian(data[i*size : (i+1)*size])
			if !ok {
				return nil, d.outOfRange(cv, "numeric field overflow")
			}
			out[i] = v
		}
	default:
		return nil, d.corrupt(cv, errors.New("unexpected physical type "+cv.src.phys.String()))
	}
	switch cv.dst.Kind {
	case engine.KindNumeric:
		// A value must fit the file's precision, and so the table's.
		limit := pow10[cv.src.typ.Prec]
		for i, v := range out {
			if v >= limit || v <= -limit {
				return nil, d.outOfRange(cv, "numeric field overflow")
			}
			out[i] = v * cv.mul
		}
	case engine.KindTimestamp, engine.KindTimestampTZ, engine.KindTime:
		for i, v := range out {
			us, ok := micros(v, cv)
			if !ok || (cv.dst.Kind == engine.KindTime && (us < 0 || us > usPerDay)) {
				if cv.dst.Kind == engine.KindTime {
					return nil, d.outOfRange(cv, "time out of range")
				}
				return nil, d.outOfRange(cv, "timestamp out of range")
			}
			out[i] = engine.RoundTimePrec(cv.dst, us)
		}
	}
	return out, nil
}

// micros converts a time value in the source's unit to microseconds.
// Nanoseconds round as PostgreSQL rounds a fraction of more than six
// digits in text input: the fraction of the second, as a double, times
// 10^6, rounded half to even.
func micros(v int64, cv *conv) (int64, bool) {
	switch {
	case cv.nanos:
		sec := v / 1e9
		frac := v % 1e9
		if frac < 0 {
			sec, frac = sec-1, frac+1e9
		}
		v = sec*1e6 + int64(math.RoundToEven(float64(frac)/1e9*1e6))
	case cv.mul != 1:
		if v > math.MaxInt64/cv.mul || v < math.MinInt64/cv.mul {
			return 0, false
		}
		v *= cv.mul
	}
	if cv.dst.Kind != engine.KindTime && v < minTS {
		return 0, false
	}
	return v, true
}

// decs converts a page's decimals into a numeric(p,s) column of more
// than 18 digits: each value must fit the file's precision, and is
// brought to the table's scale.
func (d *decoder) decs(vals encoding.Values, cv *conv) ([]engine.Dec, error) {
	var n int
	var at func(i int) (engine.Dec, bool)
	switch cv.src.phys {
	case format.Int32:
		in := vals.Int32()
		n, at = len(in), func(i int) (engine.Dec, bool) { return engine.DecFromInt(int64(in[i])), true }
	case format.Int64:
		in := vals.Int64()
		n, at = len(in), func(i int) (engine.Dec, bool) { return engine.DecFromInt(in[i]), true }
	case format.ByteArray:
		data, offs := vals.ByteArray()
		n = max(len(offs)-1, 0)
		at = func(i int) (engine.Dec, bool) { return bigEndian128(data[offs[i]:offs[i+1]]) }
	case format.FixedLenByteArray:
		data, size := vals.FixedLenByteArray()
		if size == 0 {
			return nil, d.corrupt(cv, errors.New("a zero-length decimal"))
		}
		n = len(data) / size
		at = func(i int) (engine.Dec, bool) { return bigEndian128(data[i*size : (i+1)*size]) }
	default:
		return nil, d.corrupt(cv, errors.New("unexpected physical type "+cv.src.phys.String()))
	}
	d.dec = grow(d.dec, n)
	limit, _ := engine.DecFromInt(1).Rescale(int32(cv.src.typ.Prec))
	limit.Scale = 0 // the mantissa 10^p, p <= 38
	neg, _ := limit.Neg()
	for i := 0; i < n; i++ {
		v, ok := at(i)
		if !ok || engine.DecCmp(v, limit) >= 0 || engine.DecCmp(v, neg) <= 0 {
			return nil, d.outOfRange(cv, "numeric field overflow")
		}
		v.Scale = int32(cv.src.typ.Scale)
		if v, ok = v.Rescale(int32(cv.dst.Scale)); !ok {
			return nil, d.outOfRange(cv, "numeric field overflow")
		}
		d.dec[i] = v
	}
	return d.dec, nil
}

// bigEndian128 reads a big-endian two's-complement integer of at most
// 128 bits' worth of value, false if it is empty or does not fit.
func bigEndian128(b []byte) (engine.Dec, bool) {
	if len(b) == 0 {
		return engine.Dec{}, false
	}
	var ext byte
	if b[0]&0x80 != 0 {
		ext = 0xff
	}
	for len(b) > 16 {
		if b[0] != ext {
			return engine.Dec{}, false
		}
		b = b[1:]
	}
	if (b[0]&0x80 != 0) != (ext == 0xff) {
		return engine.Dec{}, false
	}
	var hi, lo uint64
	if ext == 0xff {
		hi, lo = ^uint64(0), ^uint64(0)
	}
	for _, x := range b {
		hi = hi<<8 | lo>>56
		lo = lo<<8 | uint64(x)
	}
	return engine.Dec{Hi: int64(hi), Lo: lo}, true
}

// bigEndian reads a big-endian two's-complement integer of any length,
// false if it does not fit in an int64 or is empty.
func bigEndian(b []byte) (int64, bool) {
	if len(b) == 0 {
		return 0, false
	}
	var ext byte
	if b[0]&0x80 != 0 {
		ext = 0xff
	}
	for len(b) > 8 {
		if b[0] != ext {
			return 0, false
		}
		b = b[1:]
	}
	if (b[0]&0x80 != 0) != (ext == 0xff) {
		return 0, false // the sign changed where the extension stopped
	}
	v := int64(0)
	if ext == 0xff {
		v = -1
	}
	for _, x := range b {
		v = v<<8 | int64(x)
	}
	return v, true
}

// strings builds a string column from the kept pages of a chunk: the
// widest value referenced sizes the column, each value is checked for
// valid UTF-8 without NUL (what PostgreSQL text holds) and, for
// varchar(n), its length.
func (d *decoder) strings(cv *conv, n int) (*engine.Column, error) {
	width := 0
	checked := map[parquet.Dictionary]bool{}
	for _, p := range d.kept {
		defs, vals, idx, dict, err := d.pageShape(p, cv)
		if err != nil {
			return nil, err
		}
		data, offs := vals.ByteArray()
		nv := max(len(offs)-1, 0)
		if dict == nil || !checked[dict] {
			for i := 0; i < nv; i++ {
				if err := d.checkText(data[offs[i]:offs[i+1]], cv); err != nil {
					return nil, err
				}
			}
			if dict != nil {
				checked[dict] = true
			}
		}
		if dict == nil {
			for i := 0; i < nv; i++ {
				width = max(width, int(offs[i+1]-offs[i]))
			}
			continue
		}
		k := 0
		for r := 0; r < int(p.NumRows()); r++ {
			if defs != nil && defs[r] == 0 {
				continue
			}
			j := int(idx[k])
			k++
			if uint(j) >= uint(nv) {
				return nil, d.corrupt(cv, errBadIndex)
			}
			width = max(width, int(offs[j+1]-offs[j]))
		}
	}
	if m := d.o.MaxTextWidth; m > 0 && width > m {
		return nil, engine.Errorf(engine.CodeProgramLimitExceeded, "value of %d bytes exceeds the maximum text width of %d bytes", width, m).
			WithDetail("In %s.", where(d.file, d.rowGroup, cv.src.name)).
			WithHint("The server's --max-text-width option sets the limit.")
	}
	col := engine.NewColumn(cv.dst, n, width, cv.src.optional)
	w := col.Width
	at := 0
	for _, p := range d.kept {
		defs, vals, idx, _, _ := d.pageShape(p, cv)
		data, offs := vals.ByteArray()
		rows := int(p.NumRows())
		k := 0
		for r := 0; r < rows; r++ {
			if defs != nil && defs[r] == 0 {
				col.SetNull(at + r)
				continue
			}
			j := k
			if idx != nil {
				j = int(idx[k])
			}
			k++
			if j+1 >= len(offs) {
				return nil, d.corrupt(cv, errors.New("a page holds fewer values than rows"))
			}
			copy(col.Str[(at+r)*w:], data[offs[j]:offs[j+1]])
		}
		at += rows
	}
	return col, nil
}

// checkText refuses a value PostgreSQL text cannot hold (22021) or one
// too long for varchar(n) (22001).
func (d *decoder) checkText(v []byte, cv *conv) error {
	if !utf8.Valid(v) || bytes.IndexByte(v, 0) >= 0 {
		return engine.Errorf(engine.CodeCharacterNotInRepertoir, "invalid byte sequence for encoding \"UTF8\"").
			WithDetail("In %s.", where(d.file, d.rowGroup, cv.src.name))
	}
	if cv.maxChars > 0 && utf8.RuneCount(v) > cv.maxChars {
		return engine.Errorf(engine.CodeStringDataRightTrunc, "value too long for type character varying(%d)", cv.maxChars).
			WithDetail("In %s.", where(d.file, d.rowGroup, cv.src.name))
	}
	return nil
}
