package pgbinary

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"math/big"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gpusql/gpusql/engine"
)

// numericBytes builds numeric_send's form.
func numericBytes(weight int16, sign, dscale uint16, digits ...uint16) []byte {
	b := binary.BigEndian.AppendUint16(nil, uint16(len(digits)))
	b = binary.BigEndian.AppendUint16(b, uint16(weight))
	b = binary.BigEndian.AppendUint16(b, sign)
	b = binary.BigEndian.AppendUint16(b, dscale)
	for _, d := range digits {
		b = binary.BigEndian.AppendUint16(b, d)
	}
	return b
}

func be32(x uint32) []byte { return binary.BigEndian.AppendUint32(nil, x) }
func be64(x uint64) []byte { return binary.BigEndian.AppendUint64(nil, x) }

func TestAppendText(t *testing.T) {
	int4Array := append(be32(1), be32(1)...) // one dimension, has nulls
	int4Array = append(int4Array, be32(engine.OIDInt4)...)
	int4Array = append(int4Array, append(be32(3), be32(1)...)...)
	int4Array = append(int4Array, append(be32(4), be32(7)...)...)
	int4Array = append(int4Array, be32(math.MaxUint32)...) // NULL
	int4Array = append(int4Array, append(be32(4), be32(uint32(0xFFFFFFFE))...)...)
	for _, tc := range []struct {
		oid  uint32
		v    []byte
		want string
		kind Kind
	}{
		{engine.OIDText, []byte("tab\there"), "tab\there", 0},
		{engine.OIDText, []byte("a\x00b"), "", Encoding},
		{engine.OIDVarchar, []byte{0xe2, 0x82}, "", Encoding},
		{engine.OIDBool, []byte{1}, "t", 0},
		{engine.OIDBool, nil, "", NoData},
		{engine.OIDBool, []byte{0, 0}, "", Trailing},
		{engine.OIDInt2, []byte{0xff, 0xfe}, "-2", 0},
		{engine.OIDInt4, []byte{0, 0, 1}, "", Short},
		{engine.OIDInt8, be64(1 << 40), "1099511627776", 0},
		{engine.OIDFloat8, be64(math.Float64bits(0.1)), "0.1", 0},
		{engine.OIDFloat4, be32(math.Float32bits(float32(math.Inf(-1)))), "-Infinity", 0},
		{engine.OIDNumeric, numericBytes(1, numericNeg, 3, 12, 3456, 7800), "-123456.780", 0},
		{engine.OIDNumeric, numericBytes(-1, numericPos, 5, 12), "0.00120", 0},
		{engine.OIDNumeric, numericBytes(-1, numericNeg, 2, 1), "0.00", 0}, // -0.0001 cut to scale 2
		{engine.OIDNumeric, numericBytes(0, numericNaN, 0), "NaN", 0},
		{engine.OIDNumeric, numericBytes(0, 0x1234, 0), "", Invalid},
		{engine.OIDNumeric, numericBytes(0, numericPos, 0, 10000), "", Invalid},
		{engine.OIDNumeric, numericBytes(0, numericPos, 0, 1)[:9], "", Short},
		{engine.OIDNumeric, append(numericBytes(0, numericPos, 0, 1), 0), "", Trailing},
		{engine.OIDDate, be32(0), "2000-01-01", 0},
		{engine.OIDDate, be32(math.MaxInt32), "infinity", 0},
		{engine.OIDDate, be32(uint32(0x80000001)), "", Range},
		{engine.OIDTimestamp, be64(86_400_000_000 + 1500), "2000-01-02 00:00:00.0015", 0},
		{engine.OIDTimestampTZ, be64(0), "2000-01-01 00:00:00+00", 0},
		{engine.OIDTime, be64(86_400_000_001), "", Range},
		{engine.OIDInterval, append(be64(5), append(be32(2), be32(1)...)...), "1 mons 2 days 5 microseconds", 0},
		{1007 /* int4[] */, int4Array, "{7,NULL,-2}", 0},
		{1009 /* text[] */, append(append(be32(0), be32(0)...), be32(engine.OIDInt4)...), "", Mismatch},
		{99999, []byte{1}, "", Unsupported},
	} {
		got, err := AppendText([]byte("x"), tc.oid, tc.v)
		if tc.kind != 0 {
			var pe *Error
			if !errors.As(err, &pe) || pe.Kind != tc.kind {
				t.Errorf("oid %d %x: error %v, want kind %d", tc.oid, tc.v, err, tc.kind)
			}
			continue
		}
		if err != nil || string(got) != "x"+tc.want {
			t.Errorf("oid %d %x: %q, %v; want %q", tc.oid, tc.v, got, err, tc.want)
		}
	}
}

var fuzzOIDs = []uint32{engine.OIDText, engine.OIDBool, engine.OIDInt2, engine.OIDInt4, engine.OIDInt8,
	engine.OIDFloat4, engine.OIDFloat8, engine.OIDNumeric, engine.OIDDate, engine.OIDTimestamp,
	engine.OIDTimestampTZ, engine.OIDTime, engine.OIDInterval, 1007, 1009, 1231, 99999}

// numericOracle is the text numeric_recv's value v has at its display
// scale, computed with big integers; ok is false for values too large to
// compute quickly here.
func numericOracle(v []byte) (string, bool) {
	n := int(binary.BigEndian.Uint16(v[0:]))
	weight := int(int16(binary.BigEndian.Uint16(v[2:])))
	dscale := int(binary.BigEndian.Uint16(v[6:]))
	if weight > 64 || weight < -64 || dscale > 256 || n > 64 {
		return "", false
	}
	// value · 10^dscale, as num / 10^den, truncated
	num := new(big.Int)
	ten := big.NewInt(10)
	den := 0
	for j := 0; j < n; j++ {
		den = max(den, -(4*(weight-j) + dscale))
	}
	for j := 0; j < n; j++ {
		d := big.NewInt(int64(binary.BigEndian.Uint16(v[8+2*j:])))
		e := 4*(weight-j) + dscale + den
		num.Add(num, d.Mul(d, new(big.Int).Exp(ten, big.NewInt(int64(e)), nil)))
	}
	num.Quo(num, new(big.Int).Exp(ten, big.NewInt(int64(den)), nil))
	s := num.String()
	if len(s) <= dscale {
		s = strings.Repeat("0", dscale-len(s)+1) + s
	}
	if dscale > 0 {
		s = s[:len(s)-dscale] + "." + s[len(s)-dscale:]
	}
	if binary.BigEndian.Uint16(v[4:]) == numericNeg && num.Sign() != 0 {
		s = "-" + s
	}
	return s, true
}

// FuzzAppendText: any bytes as a value of any type decode without a
// panic, into the text that the value's fields give (checked against an
// independent reading for the integers, floats and numerics), or fail
// with an *Error of a kind; what was in dst before stays.
func FuzzAppendText(f *testing.F) {
	f.Add(uint8(7), numericBytes(1, numericNeg, 3, 12, 3456, 7800))
	f.Add(uint8(7), numericBytes(-3, numericPos, 20, 9999, 1))
	f.Add(uint8(3), []byte{0, 0, 0, 5})
	f.Add(uint8(6), be64(math.Float64bits(6.02e23)))
	f.Add(uint8(0), []byte("héllo\xff"))
	f.Add(uint8(13), []byte{0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 23, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0, 9})
	f.Add(uint8(9), be64(1<<62))
	f.Fuzz(func(t *testing.T, sel uint8, v []byte) {
		oid := fuzzOIDs[int(sel)%len(fuzzOIDs)]
		prefix := []byte("keep")
		out, err := AppendText(append([]byte(nil), prefix...), oid, v)
		if !bytes.HasPrefix(out, prefix) {
			t.Fatalf("dst's bytes changed: %q", out)
		}
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) || pe.Kind < NoData || pe.Kind > Unsupported || pe.Msg == "" {
				t.Fatalf("error %#v is not a classified *Error", err)
			}
			return
		}
		text := string(out[len(prefix):])
		if !utf8.ValidString(text) {
			t.Fatalf("text %q is not UTF-8", text)
		}
		switch oid {
		case engine.OIDText:
			if text != string(v) || strings.IndexByte(text, 0) >= 0 {
				t.Fatalf("text %q from %q", text, v)
			}
		case engine.OIDInt2, engine.OIDInt4, engine.OIDInt8:
			x, perr := strconv.ParseInt(text, 10, 64)
			var want int64
			switch len(v) {
			case 2:
				want = int64(int16(binary.BigEndian.Uint16(v)))
			case 4:
				want = int64(int32(binary.BigEndian.Uint32(v)))
			case 8:
				want = int64(binary.BigEndian.Uint64(v))
			}
			if perr != nil || x != want {
				t.Fatalf("%x read as %q", v, text)
			}
		case engine.OIDFloat8:
			want := math.Float64frombits(binary.BigEndian.Uint64(v))
			x, perr := strconv.ParseFloat(strings.Replace(text, "Infinity", "Inf", 1), 64)
			if perr != nil || x != want && !(math.IsNaN(x) && math.IsNaN(want)) {
				t.Fatalf("%x read as %q", v, text)
			}
		case engine.OIDNumeric:
			if sign := binary.BigEndian.Uint16(v[4:]); sign != numericPos && sign != numericNeg {
				return
			}
			if want, ok := numericOracle(v); ok && text != want {
				t.Fatalf("%x read as %q, want %q", v, text, want)
			}
		}
	})
}
