package copybin

import (
	"bytes"
	"encoding/binary"
	"io"
	"math/rand"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/internal/pgbinary"
)

// A numeric written by the Writer's encoder reads back as the same text,
// at its display scale, through the reader.
func TestNumericRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	cases := []string{"0", "0.000", "-0.001", "1", "10000", "12345678.9", "0.0001", "0.00001", "99999999999999999999.123456",
		"-123.4500", "100000000", "0.10000"}
	for k := 0; k < 2000; k++ {
		var b strings.Builder
		if rng.Intn(2) == 0 {
			b.WriteByte('-')
		}
		b.WriteString(strings.Repeat("0", rng.Intn(3))) // leading zeros
		for n := rng.Intn(12) + 1; n > 0; n-- {
			b.WriteByte(byte('0' + rng.Intn(10)))
		}
		if s := rng.Intn(8); s > 0 {
			b.WriteByte('.')
			for ; s > 0; s-- {
				b.WriteByte(byte('0' + rng.Intn(10)))
			}
		}
		cases = append(cases, b.String())
	}
	r := &textReader{table: "t", header: true}
	col := engine.ColumnDef{Name: "n", Type: engine.Type{Kind: engine.KindNumeric}}
	for _, s := range cases {
		bin, err := pgbinary.AppendNumeric(nil, []byte(s))
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		got, err := r.appendField(nil, col, bin)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		// The reader writes the canonical form: no leading zeros, no
		// negative zero.
		want := s
		neg := strings.HasPrefix(want, "-")
		want = strings.TrimLeft(strings.TrimPrefix(want, "-"), "0")
		if want == "" || want[0] == '.' {
			want = "0" + want
		}
		if neg && strings.Trim(want, "0.") != "" {
			want = "-" + want
		}
		if string(got) != want {
			t.Errorf("%s: read back as %s, want %s", s, got, want)
		}
	}
}

// A stream cut anywhere fails or ends as PostgreSQL's reader does, and
// never returns a partial row.
func TestTruncatedStream(t *testing.T) {
	cols := []engine.ColumnDef{{Name: "a", Type: engine.Type{Kind: engine.KindInt32}}, {Name: "b", Type: engine.Type{Kind: engine.KindText}}}
	var full []byte
	full = AppendHeader(full)
	for i := 0; i < 3; i++ {
		full = binary.BigEndian.AppendUint16(full, 2)
		full = binary.BigEndian.AppendUint32(full, 4)
		full = binary.BigEndian.AppendUint32(full, uint32(i))
		full = binary.BigEndian.AppendUint32(full, 3)
		full = append(full, "x\ty"...)
	}
	full = AppendTrailer(full)
	for cut := 0; cut <= len(full); cut++ {
		out, err := io.ReadAll(NewTextReader(bytes.NewReader(full[:cut]), "t", cols))
		if bytes.Count(out, []byte("\n")) != len(bytes.Split(out, []byte("\n")))-1 || (len(out) > 0 && out[len(out)-1] != '\n') {
			t.Fatalf("cut %d: partial row %q", cut, out)
		}
		if cut == len(full) && (err != nil || string(out) != "0\tx\\ty\n1\tx\\ty\n2\tx\\ty\n") {
			t.Fatalf("whole stream: %q, %v", out, err)
		}
		if err != nil {
			if _, ok := err.(*engine.Error); !ok {
				t.Fatalf("cut %d: %T %v", cut, err, err)
			}
		}
	}
}
