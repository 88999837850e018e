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

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/internal/pgbinary"
)

// Signature is the first 11 bytes of every binary COPY stream.
const Signature = "PGCOPY\n\xff\r\n\x00"

// textReader is the io.Reader that NewTextReader returns.
type textReader struct {
	src    *bufio.Reader
	table  string
	cols   []engine.ColumnDef
	out    []byte // text not yet returned
	off    int
	field  []byte // the current field's bytes, reused
	text   []byte // a string field's text before escaping, reused
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

// appendField appends the text of one field, in c's binary form, to dst:
// the value as pgbinary decodes it, a string escaped for the text
// format. The decoder's errors are PostgreSQL's for COPY: a field too
// short for its type is 08P01 (the receive function ran out of data),
// one too long 22P03.
func (r *textReader) appendField(dst []byte, c engine.ColumnDef, v []byte) ([]byte, error) {
	var err error
	if c.Type.IsString() {
		if r.text, err = pgbinary.AppendText(r.text[:0], c.Type.OID(), v); err == nil {
			return appendEscaped(dst, r.text), nil
		}
	} else {
		mark := len(dst)
		if dst, err = pgbinary.AppendText(dst, c.Type.OID(), v); err == nil {
			return dst, nil
		}
		dst = dst[:mark]
	}
	var pe *pgbinary.Error
	if !errors.As(err, &pe) {
		return dst, err
	}
	code := engine.CodeInvalidBinaryRepresent
	switch pe.Kind {
	case pgbinary.NoData, pgbinary.Short:
		code = engine.CodeProtocolViolation
	case pgbinary.Range:
		code = engine.CodeDatetimeFieldOverflow
	case pgbinary.Encoding:
		code = engine.CodeCharacterNotInRepertoir
	case pgbinary.Unsupported, pgbinary.Mismatch:
		return dst, r.copyErr(engine.CodeFeatureNotSupported, c.Name, "binary COPY of type %s is not supported by gpusql", c.Type)
	}
	return dst, r.copyErr(code, c.Name, "%s", pe.Msg)
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
