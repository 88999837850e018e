package wire

// Parameter values of Bind. The engine reads parameters in PostgreSQL's
// text format, so binary ones are converted here to the text that
// PostgreSQL itself would print for them; the conversions are exact
// (floats print with the fewest digits that read back to the same value).

import (
	"errors"
	"strconv"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/internal/pgbinary"
	"github.com/jackc/pgx/v5/pgproto3"
)

// bindParams converts a Bind's parameter values for a statement with
// parameter types oids. The values are copied: the message's buffer is
// reused by the next Receive.
func bindParams(m *pgproto3.Bind, oids []uint32) ([]engine.Param, error) {
	if len(m.Parameters) != len(oids) {
		return nil, engine.Errorf(engine.CodeProtocolViolation,
			"bind message supplies %d parameters, but prepared statement %q requires %d", len(m.Parameters), m.PreparedStatement, len(oids))
	}
	nf := len(m.ParameterFormatCodes)
	if nf > 1 && nf != len(oids) {
		return nil, engine.Errorf(engine.CodeProtocolViolation,
			"bind message has %d parameter formats but %d parameters", nf, len(oids))
	}
	params := make([]engine.Param, len(oids))
	var buf []byte
	ends := make([]int, len(oids))
	for i, v := range m.Parameters {
		if v == nil {
			params[i].Null = true
			continue
		}
		f := int16(pgproto3.TextFormat)
		if nf == 1 {
			f = m.ParameterFormatCodes[0]
		} else if nf > 1 {
			f = m.ParameterFormatCodes[i]
		}
		var err error
		switch f {
		case pgproto3.TextFormat:
			buf = append(buf, v...)
		case pgproto3.BinaryFormat:
			if buf, err = appendBinaryParam(buf, oids[i], v); err != nil {
				if e, ok := err.(*engine.Error); ok && e.Code == engine.CodeInvalidBinaryRepresent {
					e.Message = "incorrect binary data format in bind parameter " + strconv.Itoa(i+1)
				}
				return nil, err
			}
		default:
			return nil, engine.Errorf(engine.CodeProtocolViolation, "unsupported format code: %d", f)
		}
		ends[i] = len(buf)
	}
	start := 0
	for i := range params {
		if params[i].Null {
			continue
		}
		params[i].Value = buf[start:ends[i]:ends[i]]
		start = ends[i]
	}
	return params, nil
}

// appendBinaryParam appends the text form of the binary value v of type
// oid to dst: pgbinary's decoding, its errors mapped to Bind's SQLSTATEs
// (bindParams names the parameter in the 22P03 message).
func appendBinaryParam(dst []byte, oid uint32, v []byte) ([]byte, error) {
	mark := len(dst)
	dst, err := pgbinary.AppendText(dst, oid, v)
	if err == nil {
		return dst, nil
	}
	dst = dst[:mark]
	var pe *pgbinary.Error
	if !errors.As(err, &pe) {
		return dst, err
	}
	switch pe.Kind {
	case pgbinary.Encoding:
		return dst, engine.Errorf(engine.CodeCharacterNotInRepertoir, "%s", pe.Msg)
	case pgbinary.Range:
		return dst, engine.Errorf(engine.CodeDatetimeFieldOverflow, "%s", pe.Msg)
	case pgbinary.Mismatch:
		return dst, engine.Errorf(engine.CodeDatatypeMismatch, "%s", pe.Msg)
	case pgbinary.Unsupported:
		return dst, engine.Errorf(engine.CodeFeatureNotSupported, "binary format is not supported for parameters of type OID %d", oid)
	}
	return dst, engine.Errorf(engine.CodeInvalidBinaryRepresent, "incorrect binary data format")
}
