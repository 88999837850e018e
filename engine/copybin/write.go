package copybin

import (
	"encoding/binary"
	"math"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/internal/pgbinary"
)

// Writer appends rows of result batches in the binary COPY format. Each
// value is written from its typed slot, never through its text. A Writer
// keeps scratch space between calls and is not safe for concurrent use.
type Writer struct {
	scratch []byte
}

// AppendHeader appends the signature, flags (none) and an empty header
// extension.
func AppendHeader(dst []byte) []byte {
	dst = append(dst, Signature...)
	dst = binary.BigEndian.AppendUint32(dst, 0)
	return binary.BigEndian.AppendUint32(dst, 0)
}

// AppendTrailer appends the end-of-data tuple.
func AppendTrailer(dst []byte) []byte { return binary.BigEndian.AppendUint16(dst, 0xFFFF) }

// CanWrite reports whether Writer can send values of type t, or returns
// the error that names what it cannot.
func CanWrite(t engine.Type) error {
	switch t.Kind {
	case engine.KindBool, engine.KindInt16, engine.KindInt32, engine.KindInt64, engine.KindFloat32, engine.KindFloat64,
		engine.KindNumeric, engine.KindDate, engine.KindTimestamp, engine.KindTimestampTZ, engine.KindTime,
		engine.KindInterval, engine.KindChar, engine.KindVarchar, engine.KindText, engine.KindUnknown:
		return nil
	}
	return engine.Errorf(engine.CodeFeatureNotSupported, "binary COPY of type %s is not supported by gpusql", t)
}

// AppendRow appends row i of cols as one tuple. Every column's type must
// pass CanWrite. The only error is a numeric whose text AppendNumeric
// refuses (none that engine.Dec writes).
func (w *Writer) AppendRow(dst []byte, cols []*engine.Vec, i int) ([]byte, error) {
	dst = binary.BigEndian.AppendUint16(dst, uint16(len(cols)))
	for _, v := range cols {
		if v.IsNull(i) {
			dst = binary.BigEndian.AppendUint32(dst, 0xFFFFFFFF)
			continue
		}
		switch v.T.Kind {
		case engine.KindBool:
			dst = binary.BigEndian.AppendUint32(dst, 1)
			b := byte(0)
			if v.I[i] != 0 {
				b = 1
			}
			dst = append(dst, b)
		case engine.KindInt16:
			dst = binary.BigEndian.AppendUint32(dst, 2)
			dst = binary.BigEndian.AppendUint16(dst, uint16(v.I[i]))
		case engine.KindInt32:
			dst = binary.BigEndian.AppendUint32(dst, 4)
			dst = binary.BigEndian.AppendUint32(dst, uint32(v.I[i]))
		case engine.KindInt64:
			dst = binary.BigEndian.AppendUint32(dst, 8)
			dst = binary.BigEndian.AppendUint64(dst, uint64(v.I[i]))
		case engine.KindFloat32:
			dst = binary.BigEndian.AppendUint32(dst, 4)
			dst = binary.BigEndian.AppendUint32(dst, math.Float32bits(float32(v.F[i])))
		case engine.KindFloat64:
			dst = binary.BigEndian.AppendUint32(dst, 8)
			dst = binary.BigEndian.AppendUint64(dst, math.Float64bits(v.F[i]))
		case engine.KindDate:
			dst = binary.BigEndian.AppendUint32(dst, 4)
			dst = binary.BigEndian.AppendUint32(dst, uint32(int32(v.I[i]-pgbinary.EpochDays)))
		case engine.KindTimestamp, engine.KindTimestampTZ:
			dst = binary.BigEndian.AppendUint32(dst, 8)
			dst = binary.BigEndian.AppendUint64(dst, uint64(v.I[i]-pgbinary.EpochMicros))
		case engine.KindTime:
			dst = binary.BigEndian.AppendUint32(dst, 8)
			dst = binary.BigEndian.AppendUint64(dst, uint64(v.I[i]))
		case engine.KindInterval:
			iv := v.V[i]
			dst = binary.BigEndian.AppendUint32(dst, 16)
			dst = binary.BigEndian.AppendUint64(dst, uint64(iv.Micros))
			dst = binary.BigEndian.AppendUint32(dst, uint32(iv.Days))
			dst = binary.BigEndian.AppendUint32(dst, uint32(iv.Months))
		case engine.KindNumeric:
			w.scratch = v.D[i].AppendText(w.scratch[:0])
			at := len(dst)
			var err error
			if dst, err = pgbinary.AppendNumeric(append(dst, 0, 0, 0, 0), w.scratch); err != nil {
				return dst[:at], engine.Errorf(engine.CodeInternalError, "binary COPY: %v", err)
			}
			binary.BigEndian.PutUint32(dst[at:], uint32(len(dst)-at-4))
		default:
			// Strings: char(n) with its blank padding, as bpcharsend
			// sends it.
			w.scratch = engine.AppendText(w.scratch[:0], v, i)
			dst = binary.BigEndian.AppendUint32(dst, uint32(len(w.scratch)))
			dst = append(dst, w.scratch...)
		}
	}
	return dst, nil
}
