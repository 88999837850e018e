package persist

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// allKinds builds a table of n rows with a column of every storable kind,
// NULLs in every nullable one, and a column of wide numerics.
func allKinds(n int, rng *rand.Rand) *engine.HostTable {
	types := []engine.Type{
		engine.Bool, {Kind: engine.KindInt16}, {Kind: engine.KindInt32}, {Kind: engine.KindInt64},
		{Kind: engine.KindFloat32}, {Kind: engine.KindFloat64}, {Kind: engine.KindNumeric, Prec: 12, Scale: 3},
		{Kind: engine.KindDate}, {Kind: engine.KindTimestamp}, {Kind: engine.KindTimestampTZ}, {Kind: engine.KindTime},
		{Kind: engine.KindChar, Len: 5}, {Kind: engine.KindVarchar, Len: 9}, {Kind: engine.KindText},
	}
	var cols []*engine.Column
	for k, ty := range types {
		width := 0
		if ty.IsString() {
			width = 4 * k
		}
		c := engine.NewColumn(ty, n, width, k%2 == 0)
		for i := 0; i < n; i++ {
			v := rng.Int63() - rng.Int63()
			switch {
			case c.B != nil:
				c.B[i] = uint8(v & 1)
			case c.I16 != nil:
				c.I16[i] = int16(v)
			case c.I32 != nil:
				c.I32[i] = int32(v)
			case c.I64 != nil:
				c.I64[i] = v
			case c.F32 != nil:
				c.F32[i] = float32(v) / 3
			case c.F64 != nil:
				c.F64[i] = []float64{math.Inf(-1), math.NaN(), -0.0, float64(v) / 7}[i%4]
			default:
				for j := 0; j < rng.Intn(c.Width+1); j++ {
					c.Str[i*c.Width+j] = byte('a' + rng.Intn(26))
				}
			}
			if c.Valid != nil && rng.Intn(3) == 0 {
				c.SetNull(i)
			}
		}
		cols = append(cols, c)
	}
	wide := &engine.Column{Type: engine.Type{Kind: engine.KindNumeric}, Len: n, D: make([]engine.Dec, n)}
	for i := range wide.D {
		wide.D[i] = engine.Dec{Hi: rng.Int63() - rng.Int63(), Lo: rng.Uint64(), Scale: int32(rng.Intn(30))}
	}
	wide.SetNull(0)
	return engine.NewHostTable(append(cols, wide), int64(n))
}

func encode(t *testing.T, h *engine.HostTable) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := writeTable(&b, h); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// sameTable compares the columns value by value (NaN bits included).
func sameTable(t *testing.T, got, want *engine.HostTable) {
	t.Helper()
	if got.N != want.N || len(got.Cols) != len(want.Cols) {
		t.Fatalf("%d rows of %d columns, want %d of %d", got.N, len(got.Cols), want.N, len(want.Cols))
	}
	for k, w := range want.Cols {
		g := got.Cols[k]
		if g.Type != w.Type || g.Width != w.Width || g.Len != w.Len {
			t.Fatalf("column %d: %v width %d, want %v width %d", k, g.Type, g.Width, w.Type, w.Width)
		}
		for i := 0; i < w.Len; i++ {
			if g.IsNull(i) != w.IsNull(i) {
				t.Fatalf("column %d row %d: NULL %v, want %v", k, i, g.IsNull(i), w.IsNull(i))
			}
		}
		eq := func(a, b any) bool { return reflect.DeepEqual(a, b) }
		ok := true
		switch {
		case w.D != nil:
			ok = eq(g.D, w.D)
		case w.B != nil:
			ok = eq(g.B, w.B)
		case w.I16 != nil:
			ok = eq(g.I16, w.I16)
		case w.I32 != nil:
			ok = eq(g.I32, w.I32)
		case w.I64 != nil:
			ok = eq(g.I64, w.I64)
		case w.F32 != nil:
			ok = bytes.Equal(bytesOf(g.F32), bytesOf(w.F32))
		case w.F64 != nil:
			ok = bytes.Equal(bytesOf(g.F64), bytesOf(w.F64))
		default:
			ok = bytes.Equal(g.Str, w.Str)
		}
		if !ok {
			t.Fatalf("column %d (%v): values differ", k, w.Type)
		}
	}
}

func TestTableFileRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, n := range []int{1, 2, 63, 64, 65, 1000} {
		h := allKinds(n, rng)
		b := encode(t, h)
		got, err := readTable(b)
		if err != nil {
			t.Fatalf("%d rows: %v", n, err)
		}
		sameTable(t, got, h)
		// A buffer that is not 8-byte aligned reads the same.
		odd := make([]byte, len(b)+1)[1:]
		copy(odd, b)
		if got, err = readTable(odd); err != nil {
			t.Fatal(err)
		}
		sameTable(t, got, h)
	}
	// No rows, and a string column whose values are all empty (width 0).
	h := engine.NewHostTable([]*engine.Column{engine.NewColumn(engine.Type{Kind: engine.KindText}, 0, 0, true),
		engine.NewColumn(engine.Type{Kind: engine.KindInt32}, 0, 0, false)}, 0)
	got, err := readTable(encode(t, h))
	if err != nil {
		t.Fatal(err)
	}
	sameTable(t, got, h)
	e := engine.NewHostTable([]*engine.Column{engine.NewColumn(engine.Type{Kind: engine.KindText}, 3, 0, true)}, 3)
	e.Cols[0].SetNull(1)
	if got, err = readTable(encode(t, e)); err != nil {
		t.Fatal(err)
	}
	sameTable(t, got, e)
}

// TestTableFileDamage: every truncation and every single flipped bit of
// a file is reported as corruption, never read as a table.
func TestTableFileDamage(t *testing.T) {
	b := encode(t, allKinds(70, rand.New(rand.NewSource(2))))
	for n := 0; n < len(b); n++ {
		if _, err := readTable(b[:n]); !errors.Is(err, errCorrupt) {
			t.Fatalf("cut to %d of %d bytes: %v", n, len(b), err)
		}
	}
	if _, err := readTable(append(append([]byte{}, b...), 0)); !errors.Is(err, errCorrupt) {
		t.Fatalf("a byte too many: %v", err)
	}
	d := append([]byte{}, b...)
	for i := range d {
		for bit := 0; bit < 8; bit++ {
			d[i] ^= 1 << bit
			_, err := readTable(d)
			d[i] ^= 1 << bit
			if !errors.Is(err, errCorrupt) {
				t.Fatalf("bit %d of byte %d flipped: %v", bit, i, err)
			}
		}
	}
}

func TestManifestChecksum(t *testing.T) {
	s := &engine.DurableState{NextOID: 20000, Tables: []engine.DurableTable{{Name: "t", OID: 16384,
		Columns: []engine.ColumnDef{{Name: "a", Type: engine.Type{Kind: engine.KindNumeric, Prec: 10, Scale: 2}, NotNull: true}},
		File:    "000000000001.gtab", Rows: 3}},
		Views: []*engine.View{{Name: "v", OID: 16385, SQL: "SELECT a FROM t", Columns: []engine.ColumnDef{{Name: "a", Type: engine.Int64}},
			Deps: []engine.ViewDep{{Name: "t", Rel: engine.RelRef{Name: "t"}}}}}}
	dir := t.TempDir()
	d, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Commit(s); err != nil {
		t.Fatal(err)
	}
	m, gc, err := d.readManifest()
	if err != nil || !gc {
		t.Fatal(err, gc)
	}
	cols, err := m.Tables[0].columnDefs()
	if err != nil || !reflect.DeepEqual(cols, s.Tables[0].Columns) || m.NextOID != 20000 {
		t.Fatalf("%+v %v", cols, err)
	}
	v, err := m.Views[0].view()
	if err != nil || !reflect.DeepEqual(v, s.Views[0]) {
		t.Fatalf("%+v %v", v, err)
	}
}

// TestTableFileNewer: a whole file of a later format version is not taken
// for a damaged one (the start stops instead of moving it aside).
func TestTableFileNewer(t *testing.T) {
	b := encode(t, allKinds(10, rand.New(rand.NewSource(3))))
	b[8] = fileVersion + 1
	end := len(b) - trailerSize
	binary.LittleEndian.PutUint32(b[end:], crc32.Checksum(b[:end], castagnoli))
	if _, err := readTable(b); !errors.Is(err, errNewer) {
		t.Fatalf("%v, want errNewer", err)
	}
}

// TestDirLock: one server at a time on a data directory.
func TestDirLock(t *testing.T) {
	dir := t.TempDir()
	d, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir, nil); err == nil || !strings.Contains(err.Error(), "in use by another gpusql server") {
		t.Fatalf("a second Open: %v", err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	d, err = Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
}
