// Package copybin reads and writes PostgreSQL's binary COPY format.
//
// The format: an 11-byte signature, a 32-bit flags word, a 32-bit header
// extension length and that many bytes; then one tuple per row, a 16-bit
// field count followed by each field as a 32-bit length (-1 for NULL) and
// that many bytes in the type's binary send format; then a 16-bit -1.
// Every integer is big-endian.
//
// Reading does not build columns itself: NewTextReader turns the binary
// stream into PostgreSQL's text COPY format, one line per row, which the
// backends' loaders parse. So a binary load goes through the same loader,
// the same checks (character limits, numeric precision, date ranges, NOT
// NULL) and the same storage as a text load, on either backend. The
// transcoder checks only what the binary form itself can get wrong, with
// PostgreSQL's messages for it.
package copybin

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gpusql/gpusql/engine"
)

// Signature is the first 11 bytes of every binary COPY stream.
const Signature = "PGCOPY\n\xff\r\n\x00"

// PostgreSQL's binary dates and timestamps count from 2000-01-01;
// gpusql's from 1970-01-01.
const (
	epochDays   = 10957
	epochMicros = epochDays * 86_400_000_000
)

// textReader is the io.Reader that NewTextReader returns.
type textReader struct {
	src    *bufio.Reader
	table  string
	cols   []engine.ColumnDef
	out    []byte // text not yet returned
	off    int
	field  []byte // the current field's bytes, reused
	row    int64  // rows read so far (PostgreSQL's "line")
	header bool   // the header has been read
	err    error  // set once: io.EOF at the end, or the first error
}

// NewTextReader returns a reader of src, a binary COPY stream of rows with
// the columns cols, that yields the same rows in PostgreSQL's text COPY
// format (tab-delimited, \N for NULL, backslash escapes; no header). Bad
// binary input is reported as PostgreSQL reports it, with the CONTEXT
// "COPY table, line N, column c" where N counts rows; the text of every
// row before the bad one is returned first.
func NewTextReader(src io.Reader, table string, cols []engine.ColumnDef) io.Reader {
	return &textReader{src: bufio.NewReaderSize(src, 64<<10), table: table, cols: cols}
}

func (r *textReader) Read(p []byte) (int, error) {
	for r.off == len(r.out) {
		if r.err != nil {
			return 0, r.err
		}
		r.out, r.off = r.out[:0], 0
		if !r.header {
			if r.err = r.readHeader(); r.err != nil {
				continue
			}
			r.header = true
		}
		for len(r.out) < 64<<10 && r.err == nil {
			start := len(r.out)
			if r.err = r.readRow(); r.err != nil {
				r.out = r.out[:start] // no part of a bad row
			}
		}
	}
	n := copy(p, r.out[r.off:])
	r.off += n
	return n, nil
}

// copyErr is an error about the stream, with PostgreSQL's CONTEXT (none
// for the file header).
func (r *textReader) copyErr(code, col, format string, args ...any) error {
	e := engine.Errorf(code, format, args...)
	if !r.header {
		return e
	}
	e.Where = fmt.Sprintf("COPY %s, line %d", r.table, r.row)
	if col != "" {
		e.Where += ", column " + col
	}
	return e
}

// readErr turns a failed read of the source into the error to report:
// the source's own SQL error, or eofMsg when the input just ended.
func (r *textReader) readErr(err error, col, eofMsg string) error {
	var pe *engine.Error
	if errors.As(err, &pe) {
		return pe
	}
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return r.copyErr(engine.CodeBadCopyFileFormat, col, "%s", eofMsg)
	}
	return &engine.Error{Code: engine.CodeIOError, Message: "could not read COPY data: " + err.Error(), Err: err}
}

func (r *textReader) readHeader() error {
	var b [19]byte
	if n, err := io.ReadFull(r.src, b[:11]); n < 11 || string(b[:11]) != Signature {
		if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
			return r.readErr(err, "", "")
		}
		return r.copyErr(engine.CodeBadCopyFileFormat, "", "COPY file signature not recognized")
	}
	if _, err := io.ReadFull(r.src, b[11:15]); err != nil {
		return r.readErr(err, "", "invalid COPY file header (missing flags)")
	}
	flags := binary.BigEndian.Uint32(b[11:15])
	if flags&(1<<16) != 0 {
		return r.copyErr(engine.CodeBadCopyFileFormat, "", "invalid COPY file header (WITH OIDS)")
	}
	if flags>>17 != 0 {
		return r.copyErr(engine.CodeBadCopyFileFormat, "", "unrecognized critical flags in COPY file header")
	}
	if _, err := io.ReadFull(r.src, b[15:19]); err != nil {
		return r.readErr(err, "", "invalid COPY file header (missing length)")
	}
	ext := int32(binary.BigEndian.Uint32(b[15:19]))
	if ext < 0 {
		return r.copyErr(engine.CodeBadCopyFileFormat, "", "invalid COPY file header (missing length)")
	}
	if n, err := io.CopyN(io.Discard, r.src, int64(ext)); n < int64(ext) {
		return r.readErr(err, "", "invalid COPY file header (wrong length)")
	}
	return nil
}

// readRow reads one tuple and appends its text line to r.out. It returns
// io.EOF at the end of the data: the trailer, or the input ending where a
// tuple would start (PostgreSQL accepts a stream without its trailer, and
// even a stray single byte there).
func (r *textReader) readRow() error {
	var b [4]byte
	if n, err := io.ReadFull(r.src, b[:2]); n < 2 {
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return io.EOF
		}
		return r.readErr(err, "", "")
	}
	r.row++
	count := int16(binary.BigEndian.Uint16(b[:2]))
	if count == -1 {
		// The trailer: nothing may follow it.
		if _, err := r.src.ReadByte(); err == nil {
			return r.copyErr(engine.CodeBadCopyFileFormat, "", "received copy data after EOF marker")
		} else if err != io.EOF {
			return r.readErr(err, "", "")
		}
		return io.EOF
	}
	if int(count) != len(r.cols) {
		return r.copyErr(engine.CodeBadCopyFileFormat, "", "row field count is %d, expected %d", count, len(r.cols))
	}
	for i, c := range r.cols {
		if i > 0 {
			r.out = append(r.out, '\t')
		}
		if _, err := io.ReadFull(r.src, b[:4]); err != nil {
			return r.readErr(err, c.Name, "unexpected EOF in COPY data")
		}
		size := int32(binary.BigEndian.Uint32(b[:4]))
		if size == -1 {
			r.out = append(r.out, `\N`...)
			continue
		}
		if size < 0 {
			return r.copyErr(engine.CodeBadCopyFileFormat, c.Name, "invalid field size")
		}
		// The buffer grows with the data that actually arrives, so a
		// claimed size alone allocates nothing.
		r.field = r.field[:0]
		w := sliceWriter{&r.field}
		if n, err := io.CopyN(w, r.src, int64(size)); n < int64(size) {
			return r.readErr(err, c.Name, "unexpected EOF in COPY data")
		}
		var err error
		if r.out, err = r.appendField(r.out, c, r.field); err != nil {
			return err
		}
	}
	r.out = append(r.out, '\n')
	return nil
}

type sliceWriter struct{ b *[]byte }

func (w sliceWriter) Write(p []byte) (int, error) {
	*w.b = append(*w.b, p...)
	return len(p), nil
}

// appendField appends the text of one field, in c's binary form, to dst.

func (r *textReader) appendField(dst []byte, c engine.ColumnDef, v []byte) ([]byte, error) {
	// need checks the field holds n bytes exactly, as PostgreSQL's receive
	// functions and the check after them do.
	need := func(n int) error {
		switch {
		case len(v) < n:
			return r.copyErr(engine.CodeProtocolViolation, c.Name, "insufficient data left in message")
		case len(v) > n:
			return r.copyErr(engine.CodeInvalidBinaryRepresent, c.Name, "incorrect binary data format")
		}
		return nil
	}
	switch c.Type.Kind {
	case engine.KindBool:
		if len(v) == 0 {
			return dst, r.copyErr(engine.CodeProtocolViolation, c.Name, "no data left in message")
		}
		if err := need(1); err != nil {
			return dst, err
		}
		if v[0] != 0 {
			return append(dst, 't'), nil
		}
		return append(dst, 'f'), nil
	case engine.KindInt16:
		if err := need(2); err != nil {
			return dst, err
		}
		return strconv.AppendInt(dst, int64(int16(binary.BigEndian.Uint16(v))), 10), nil
	case engine.KindInt32:
		if err := need(4); err != nil {
			return dst, err
		}
		return strconv.AppendInt(dst, int64(int32(binary.BigEndian.Uint32(v))), 10), nil
	case engine.KindInt64:
		if err := need(8); err != nil {
			return dst, err
		}
		return strconv.AppendInt(dst, int64(binary.BigEndian.Uint64(v)), 10), nil
	case engine.KindFloat32:
		if err := need(4); err != nil {
			return dst, err
		}
		return engine.AppendFloat(dst, float64(math.Float32frombits(binary.BigEndian.Uint32(v))), 32), nil
	case engine.KindFloat64:
		if err := need(8); err != nil {
			return dst, err
		}
		return engine.AppendFloat(dst, math.Float64frombits(binary.BigEndian.Uint64(v)), 64), nil
	case engine.KindNumeric:
		return r.appendNumeric(dst, c, v)
	case engine.KindDate:
		if err := need(4); err != nil {
			return dst, err
		}
		d := int32(binary.BigEndian.Uint32(v))
		switch {
		case d == math.MaxInt32:
			return append(dst, "infinity"...), nil
		case d == math.MinInt32:
			return append(dst, "-infinity"...), nil
		case d < -2451545 || d >= 2147483494-2451545:
			return dst, r.copyErr(engine.CodeDatetimeFieldOverflow, c.Name, "date out of range")
		}
		return engine.AppendDate(dst, d+epochDays), nil
	case engine.KindTimestamp, engine.KindTimestampTZ:
		if err := need(8); err != nil {
			return dst, err
		}
		t := int64(binary.BigEndian.Uint64(v))
		switch {
		case t == math.MaxInt64:
			return append(dst, "infinity"...), nil
		case t == math.MinInt64:
			return append(dst, "-infinity"...), nil
		case t < -211813488000000000 || t >= 9223371331200000000:
			return dst, r.copyErr(engine.CodeDatetimeFieldOverflow, c.Name, "timestamp out of range")
		}
		if c.Type.Kind == engine.KindTimestamp {
			return engine.AppendTimestamp(dst, t+epochMicros), nil
		}
		return engine.AppendTimestampTZ(dst, t+epochMicros, engine.UTCZone), nil
	case engine.KindTime:
		if err := need(8); err != nil {
			return dst, err
		}
		t := int64(binary.BigEndian.Uint64(v))
		if t < 0 || t > 86_400_000_000 {
			return dst, r.copyErr(engine.CodeDatetimeFieldOverflow, c.Name, "time out of range")
		}
		return engine.AppendTime(dst, t), nil
	case engine.KindChar, engine.KindVarchar, engine.KindText:
		if i := invalidUTF8(v); i >= 0 {
			return dst, r.copyErr(engine.CodeCharacterNotInRepertoir, c.Name, "invalid byte sequence for encoding \"UTF8\": %s", badBytes(v, i))
		}
		return appendEscaped(dst, v), nil
	}
	return dst, r.copyErr(engine.CodeFeatureNotSupported, c.Name, "binary COPY of type %s is not supported by gpusql", c.Type)
}

// Numeric signs in the binary format.
const (
	numericPos  = 0x0000
	numericNeg  = 0x4000
	numericNaN  = 0xC000
	numericPInf = 0xD000
	numericNInf = 0xF000
)

// appendNumeric reads numeric_send's form: digit count, weight, sign and
// display scale, then base-10000 digits, the first worth 10000^weight.
// The value is written with exactly dscale fraction digits: digits the
// display scale hides are cut off, as PostgreSQL's numeric_recv does,
// before the column's own scale rounds the rest.
func (r *textReader) appendNumeric(dst []byte, c engine.ColumnDef, v []byte) ([]byte, error) {
	short := func() error {
		return r.copyErr(engine.CodeProtocolViolation, c.Name, "insufficient data left in message")
	}
	if len(v) < 8 {
		return dst, short()
	}
	ndigits := int(binary.BigEndian.Uint16(v[0:]))
	weight := int(int16(binary.BigEndian.Uint16(v[2:])))
	sign := binary.BigEndian.Uint16(v[4:])
	dscale := int(binary.BigEndian.Uint16(v[6:]))
	switch sign {
	case numericPos, numericNeg, numericNaN, numericPInf, numericNInf:
	default:
		return dst, r.copyErr(engine.CodeInvalidBinaryRepresent, c.Name, "invalid sign in external \"numeric\" value")
	}
	if dscale&0x3FFF != dscale {
		return dst, r.copyErr(engine.CodeInvalidBinaryRepresent, c.Name, "invalid scale in external \"numeric\" value")
	}
	if len(v) < 8+2*ndigits {
		return dst, short()
	}
	digits := v[8 : 8+2*ndigits]
	for k := 0; k < ndigits; k++ {
		if d := int16(binary.BigEndian.Uint16(digits[2*k:])); d < 0 || d >= 10000 {
			return dst, r.copyErr(engine.CodeInvalidBinaryRepresent, c.Name, "invalid digit in external \"numeric\" value")
		}
	}
	if len(v) > 8+2*ndigits {
		return dst, r.copyErr(engine.CodeInvalidBinaryRepresent, c.Name, "incorrect binary data format")
	}
	switch sign {
	case numericNaN:
		return append(dst, "NaN"...), nil
	case numericPInf:
		return append(dst, "Infinity"...), nil
	case numericNInf:
		return append(dst, "-Infinity"...), nil
	}
	// digit returns decimal digit k of the value, k = 0 the units digit,
	// k > 0 to the left of the point, k < 0 to the right.
	digit := func(k int) byte {
		// Base-10000 digit j is worth 10000^(weight-j); decimal digit k
		// lies in base digit weight - floor(k/4).
		q := k >> 2 // floor division for negative k too
		j := weight - q
		if j < 0 || j >= ndigits {
			return '0'
		}
		d := int(binary.BigEndian.Uint16(digits[2*j:]))
		for m := k - q*4; m > 0; m-- {
			d /= 10
		}
		return byte('0' + d%10)
	}
	// The highest nonzero decimal digit sets where the integer part
	// starts; a value below 1 writes a single 0 there.
	top := 0
	if ndigits > 0 && weight >= 0 {
		top = 4*weight + 3
		for top > 0 && digit(top) == '0' {
			top--
		}
	}
	neg := sign == numericNeg
	mark := len(dst)
	if neg {
		dst = append(dst, '-')
	}
	nonzero := false
	for k := top; k >= -dscale; k-- {
		if k == -1 {
			dst = append(dst, '.')
		}
		d := digit(k)
		nonzero = nonzero || d != '0'
		dst = append(dst, d)
	}
	if neg && !nonzero {
		// -0 after the cut is 0.
		dst = append(dst[:mark], dst[mark+1:]...)
	}
	return dst, nil
}

// invalidUTF8 returns the index of the first byte of v that PostgreSQL's
// UTF8 check rejects (NUL included), or -1.
func invalidUTF8(v []byte) int {
	for i := 0; i < len(v); {
		c := v[i]
		if c < utf8.RuneSelf {
			if c == 0 {
				return i
			}
			i++
			continue
		}
		rr, n := utf8.DecodeRune(v[i:])
		if rr == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return -1
}

// badBytes shows the invalid sequence at v[i:] as PostgreSQL does: as many
// bytes as its lead byte announces, in hex.
func badBytes(v []byte, i int) string {
	n := 1
	switch c := v[i]; {
	case c&0xe0 == 0xc0:
		n = 2
	case c&0xf0 == 0xe0:
		n = 3
	case c&0xf8 == 0xf0:
		n = 4
	}
	n = min(n, len(v)-i)
	parts := make([]string, n)
	for k := range parts {
		parts[k] = fmt.Sprintf("0x%02x", v[i+k])
	}
	return strings.Join(parts, " ")
}

// appendEscaped writes a string in the text format: backslash, tab,
// newline and carriage return escaped.
func appendEscaped(dst, v []byte) []byte {
	for _, c := range v {
		switch c {
		case '\\':
			dst = append(dst, '\\', '\\')
		case '\t':
			dst = append(dst, '\\', 't')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		default:
			dst = append(dst, c)
		}
	}
	return dst
}
