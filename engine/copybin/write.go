package copybin

import (
	"encoding/binary"
	"math"

	"github.com/gpusql/gpusql/engine"
)

// Numeric signs in the binary format.
const (
	numericPos = 0x0000
	numericNeg = 0x4000
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
// pass CanWrite.
func (w *Writer) AppendRow(dst []byte, cols []*engine.Vec, i int) []byte {
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
			dst = binary.BigEndian.AppendUint32(dst, uint32(int32(v.I[i]-epochDays)))
		case engine.KindTimestamp, engine.KindTimestampTZ:
			dst = binary.BigEndian.AppendUint32(dst, 8)
			dst = binary.BigEndian.AppendUint64(dst, uint64(v.I[i]-epochMicros))
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
			dst = appendNumericText(append(dst, 0, 0, 0, 0), w.scratch)
			binary.BigEndian.PutUint32(dst[at:], uint32(len(dst)-at-4))
		default:
			// Strings: char(n) with its blank padding, as bpcharsend
			// sends it.
			w.scratch = engine.AppendText(w.scratch[:0], v, i)
			dst = binary.BigEndian.AppendUint32(dst, uint32(len(w.scratch)))
			dst = append(dst, w.scratch...)
		}
	}
	return dst
}

// appendNumericText appends numeric_send's form of a plain decimal
// ("-12.3400", exactly its display scale of fraction digits).
func appendNumericText(dst, s []byte) []byte {
	sign := uint16(numericPos)
	if len(s) > 0 && s[0] == '-' {
		sign, s = numericNeg, s[1:]
	}
	ip, fp := s, s[:0]
	for k, c := range s {
		if c == '.' {
			ip, fp = s[:k], s[k+1:]
			break
		}
	}
	for len(ip) > 0 && ip[0] == '0' {
		ip = ip[1:]
	}
	dscale := len(fp)
	// Base-10000 digit j covers decimal digits [4j-lead, 4j-lead+4) of
	// ip+fp, where lead pads ip on the left to whole groups.
	lead := (4 - len(ip)%4) % 4
	total := lead + len(ip) + len(fp)
	ngroups := (total + 3) / 4
	weight := (lead+len(ip))/4 - 1
	at := func(k int) int { // decimal digit k of the padded ip+fp
		k -= lead
		switch {
		case k < 0:
			return 0
		case k < len(ip):
			return int(ip[k] - '0')
		case k-len(ip) < len(fp):
			return int(fp[k-len(ip)] - '0')
		}
		return 0
	}
	group := func(j int) uint16 {
		return uint16(at(4*j)*1000 + at(4*j+1)*100 + at(4*j+2)*10 + at(4*j+3))
	}
	first, last := 0, ngroups-1
	for first <= last && group(first) == 0 {
		first++
	}
	for last >= first && group(last) == 0 {
		last--
	}
	if first > last {
		dst = binary.BigEndian.AppendUint16(dst, 0)
		dst = binary.BigEndian.AppendUint16(dst, 0)
		dst = binary.BigEndian.AppendUint16(dst, numericPos)
		return binary.BigEndian.AppendUint16(dst, uint16(dscale))
	}
	dst = binary.BigEndian.AppendUint16(dst, uint16(last-first+1))
	dst = binary.BigEndian.AppendUint16(dst, uint16(int16(weight-first)))
	dst = binary.BigEndian.AppendUint16(dst, sign)
	dst = binary.BigEndian.AppendUint16(dst, uint16(dscale))
	for j := first; j <= last; j++ {
		dst = binary.BigEndian.AppendUint16(dst, group(j))
	}
	return dst
}
