package wire

import (
	"github.com/gpusql/gpusql/engine"
	"github.com/jackc/pgx/v5/pgproto3"
)

// rowCodec turns engine rows (text values) into DataRow messages in the
// formats a client asked for.
type rowCodec struct {
	enc     []binaryEncoder // per column; nil entry: send the text as is
	anyBin  bool
	dr      pgproto3.DataRow
	vals    [][]byte
	scratch []byte
}

// setup prepares the codec for cols. formats are a Bind's result format
// codes: none (all text), one (for every column) or one per column.
func (rc *rowCodec) setup(cols []engine.ResultColumn, formats []int16) error {
	if len(formats) > 1 && len(formats) != len(cols) {
		return engine.Errorf(engine.CodeProtocolViolation,
			"bind message has %d result formats but query has %d columns", len(formats), len(cols))
	}
	rc.enc = rc.enc[:0]
	rc.anyBin = false
	for i, col := range cols {
		f := int16(0)
		if len(formats) == 1 {
			f = formats[0]
		} else if len(formats) > 1 {
			f = formats[i]
		}
		switch f {
		case pgproto3.TextFormat:
			rc.enc = append(rc.enc, nil)
		case pgproto3.BinaryFormat:
			e, err := binaryEncoderFor(col.TypeOID)
			if err != nil {
				return err
			}
			rc.enc = append(rc.enc, e)
			rc.anyBin = true
		default:
			return engine.Errorf(engine.CodeProtocolViolation, "unsupported format code: %d", f)
		}
	}
	return nil
}

// format is the format code of column i.
func (rc *rowCodec) format(i int) int16 {
	if i < len(rc.enc) && rc.enc[i] != nil {
		return pgproto3.BinaryFormat
	}
	return pgproto3.TextFormat
}

// appendRow appends a DataRow for values to dst. On error dst is returned
// unchanged in length.
func (rc *rowCodec) appendRow(dst []byte, values [][]byte) ([]byte, error) {
	rc.dr.Values = values
	if rc.anyBin {
		if len(values) != len(rc.enc) {
			return dst, engine.Errorf(engine.CodeInternalError, "row has %d values, description has %d columns", len(values), len(rc.enc))
		}
		// Convert into scratch first, then point vals into it: scratch
		// may move while it grows.
		rc.scratch = rc.scratch[:0]
		var ends [64]int
		offs := ends[:0]
		for i, v := range values {
			if rc.enc[i] != nil && v != nil {
				var err error
				if rc.scratch, err = rc.enc[i](rc.scratch, v); err != nil {
					return dst, err
				}
			}
			offs = append(offs, len(rc.scratch))
		}
		rc.vals = rc.vals[:0]
		start := 0
		for i, v := range values {
			if rc.enc[i] != nil && v != nil {
				v = rc.scratch[start:offs[i]]
			}
			start = offs[i]
			rc.vals = append(rc.vals, v)
		}
		rc.dr.Values = rc.vals
	}
	out, err := rc.dr.Encode(dst)
	rc.dr.Values = nil
	if err != nil {
		return dst, engine.Errorf(engine.CodeProgramLimitExceeded, "row too large to send: %v", err)
	}
	return out, nil
}

func rowDescription(cols []engine.ResultColumn, rc *rowCodec) *pgproto3.RowDescription {
	fields := make([]pgproto3.FieldDescription, len(cols))
	for i, col := range cols {
		fields[i] = pgproto3.FieldDescription{
			Name:                 []byte(col.Name),
			TableOID:             col.TableOID,
			TableAttributeNumber: uint16(col.ColNum),
			DataTypeOID:          col.TypeOID,
			DataTypeSize:         col.TypLen,
			TypeModifier:         col.Typmod,
		}
		if rc != nil {
			fields[i].Format = rc.format(i)
		}
	}
	return &pgproto3.RowDescription{Fields: fields}
}

func noticeResponse(n engine.Notice) *pgproto3.NoticeResponse {
	sev := n.Severity
	if sev == "" {
		sev = "NOTICE"
	}
	code := n.Code
	if code == "" {
		code = engine.CodeSuccessfulCompletion
	}
	return &pgproto3.NoticeResponse{Severity: sev, SeverityUnlocalized: sev, Code: code, Message: n.Message, Detail: n.Detail}
}

// streamWriter writes results straight to the connection: the simple
// query protocol, and Execute of a portal without a row limit. Rows are
// encoded into the connection's buffer, which is written whenever it
// passes flushThreshold, so a result of any size streams in bounded
// memory. A write error is returned from Row so the engine stops.
type streamWriter struct {
	c *conn
	// describe sends RowDescription on Describe, and NoData before the
	// completion of a statement that returns no rows (when noData).
	describe, noData bool
	formats          []int16
	described        bool
	lastTag          string
	codec            rowCodec
	copyIn           *copyIn // COPY FROM STDIN in progress (copy.go)
	copyOut          bool    // COPY TO STDOUT in progress
}

var _ engine.ResultWriter = (*streamWriter)(nil)

func (w *streamWriter) Describe(cols []engine.ResultColumn) error {
	if err := w.codec.setup(cols, w.formats); err != nil {
		return err
	}
	w.described = true
	if w.describe {
		if err := w.c.send(rowDescription(cols, &w.codec)); err != nil {
			return err
		}
	}
	return w.c.maybeFlush()
}

func (w *streamWriter) Row(values [][]byte) error {
	out, err := w.codec.appendRow(w.c.out, values)
	if err != nil {
		return err
	}
	w.c.out = out
	return w.c.maybeFlush()
}

func (w *streamWriter) Complete(tag string) error {
	if err := w.endCopy(); err != nil {
		return err
	}
	if w.noData && !w.described {
		w.c.send(&pgproto3.NoData{})
	}
	w.described = false
	w.lastTag = tag
	w.c.send(&pgproto3.CommandComplete{CommandTag: []byte(tag)})
	return w.c.maybeFlush()
}

func (w *streamWriter) Notice(n engine.Notice) error {
	w.c.send(noticeResponse(n))
	return w.c.flush()
}

func (w *streamWriter) EmptyQuery() error {
	if w.noData && !w.described {
		w.c.send(&pgproto3.NoData{})
	}
	w.c.send(&pgproto3.EmptyQueryResponse{})
	return w.c.maybeFlush()
}

// bufferWriter keeps a portal's whole result, encoded as DataRow messages,
// for a Describe that must be answered before Execute, or an Execute with
// a row limit. It holds at most limit bytes of rows.
type bufferWriter struct {
	c     *conn
	p     *portal
	limit int
	codec rowCodec
}

var _ engine.ResultWriter = (*bufferWriter)(nil)

func (w *bufferWriter) Describe(cols []engine.ResultColumn) error {
	if err := w.codec.setup(cols, w.p.formats); err != nil {
		return err
	}
	w.p.cols = cols
	w.p.desc = rowDescription(cols, &w.codec)
	return nil
}

func (w *bufferWriter) Row(values [][]byte) error {
	out, err := w.codec.appendRow(w.p.rows, values)
	if err != nil {
		return err
	}
	if len(out) > w.limit {
		return engine.Errorf(engine.CodeProgramLimitExceeded,
			"portal result exceeds the %d-byte buffer limit", w.limit).WithDetail(
			"%s", "gpusql buffers a portal's rows when it must describe them before Execute or when Execute has a row limit; run the query with the simple query protocol, or Execute without a row limit, to stream it")
	}
	w.p.rows = out
	w.p.rowEnds = append(w.p.rowEnds, len(out))
	return nil
}

func (w *bufferWriter) Complete(tag string) error {
	w.p.tag = tag
	return nil
}

func (w *bufferWriter) Notice(n engine.Notice) error {
	w.c.send(noticeResponse(n))
	return w.c.flush()
}

func (w *bufferWriter) EmptyQuery() error {
	w.p.empty = true
	return nil
}
