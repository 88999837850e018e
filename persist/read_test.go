package persist

import (
	"errors"
	"hash/crc32"
	"math/rand"
	"os"
	"path/filepath"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/cpu"
	"github.com/gpusql/gpusql/engine/multi"
	"github.com/gpusql/gpusql/loader"
)

// TestChecksumChunks: the CRC-32C computed as chunks and combined equals
// the one computed in one pass, at and around the chunk boundaries.
func TestChecksumChunks(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	b := make([]byte, 3*crcChunk+100)
	rng.Read(b)
	for _, n := range []int{0, 1, 7, crcChunk - 1, crcChunk, crcChunk + 1, 2*crcChunk + 5, 3 * crcChunk, len(b)} {
		if got, want := checksum(b[:n]), crc32.Checksum(b[:n], castagnoli); got != want {
			t.Errorf("%d bytes: %08x, want %08x", n, got, want)
		}
	}
	for range 50 {
		a, c := rng.Intn(1<<16), rng.Intn(1<<16)
		x, y := b[:a], b[a:a+c]
		if got, want := crcCombine(crc32.Checksum(x, castagnoli), crc32.Checksum(y, castagnoli), int64(len(y))),
			crc32.Checksum(b[:a+c], castagnoli); got != want {
			t.Fatalf("combine %d + %d bytes: %08x, want %08x", a, c, got, want)
		}
	}
}

// copyStore stores mapped rows by copying them into the CPU backend
// (an engine.MappedStorer as the GPU backend is one, without a GPU).
type copyStore struct {
	*cpu.Backend
	calls int
}

func (s *copyStore) StoreMapped(h *engine.HostTable, mapped []byte, o engine.StoreOptions) (engine.TableData, error) {
	s.calls++
	idx := make([]int32, h.N)
	for i := range idx {
		idx[i] = int32(i)
	}
	cols := make([]*engine.Column, len(h.Cols))
	for k, c := range h.Cols {
		cols[k] = c.Gather(idx)
	}
	return s.Store(engine.NewHostTable(cols, h.N), o)
}

// TestLoadReadAndMapped: a table file of several checksum chunks comes
// back whole through both reload paths, read (the CPU backend) and
// mapped (a MappedStorer, whose copy overlaps the checksum; also the
// multi-part backend over host parts), after which the mapping is gone;
// a file with one flipped byte is left out by each.
func TestLoadReadAndMapped(t *testing.T) {
	h := allKinds(100_000, rand.New(rand.NewSource(4)))
	dir := t.TempDir()
	d, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	var defs []engine.ColumnDef
	for k, c := range h.Cols {
		defs = append(defs, engine.ColumnDef{Name: string(rune('a' + k)), Type: c.Type})
	}
	var tables []engine.DurableTable
	for k, name := range []string{"good", "bad"} {
		f, err := d.Save(name, h)
		if err != nil {
			t.Fatal(err)
		}
		tables = append(tables, engine.DurableTable{Name: name, OID: 16384 + uint32(k), Columns: defs, File: f, Rows: h.N})
	}
	if err := d.Commit(&engine.DurableState{NextOID: 16390, Tables: tables}); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	good, bad := filepath.Join(dir, SubDir, tables[0].File), filepath.Join(dir, SubDir, tables[1].File)
	if st, _ := os.Stat(good); st.Size() < 2*crcChunk {
		t.Fatalf("the file is %d bytes, want several checksum chunks", st.Size())
	}
	raw, err := os.ReadFile(bad)
	if err != nil {
		t.Fatal(err)
	}
	raw[len(raw)/2] ^= 0x10
	if err := os.WriteFile(bad, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	b, sum, err := readFile(good)
	if err != nil {
		t.Fatal(err)
	}
	if want := crc32.Checksum(b[:len(b)-trailerSize], castagnoli); sum != want {
		t.Fatalf("readFile's checksum %08x, want %08x", sum, want)
	}

	for _, mode := range []string{"read", "mapped", "multi"} {
		mapped := mode != "read"
		cs := &copyStore{Backend: cpu.New(loader.NewCPU(loader.Config{}), 1)}
		var store engine.TableStore = cs.Backend
		switch mode {
		case "mapped":
			store = cs
		case "multi": // its StoreMapped copies for its host parts
			store = multi.New([]engine.Backend{cs.Backend, cs.Backend}, []string{"cpu.0", "cpu.1"}, cs.Backend, multi.Options{})
		}
		d, err := Open(dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, got, _, err := d.Load(store)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0].Name != "good" {
			t.Fatalf("mapped %v: %d tables, want only good", mapped, len(got))
		}
		// the damaged file is copied too, its checksum running
		// meanwhile, and then dropped
		if mode == "mapped" && cs.calls != 2 {
			t.Errorf("StoreMapped called %d times, want 2", cs.calls)
		}
		back, err := got[0].Data.(engine.Downloader).Download()
		if err != nil {
			t.Fatal(err)
		}
		sameTable(t, back, h)
		got[0].Data.Release()
		if err := d.Close(); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(bad + corruptExt); err != nil {
			t.Fatalf("mapped %v: the corrupt file was not moved aside: %v", mapped, err)
		}
		if err := os.Rename(bad+corruptExt, bad); err != nil { // for the next round
			t.Fatal(err)
		}
	}
	if _, err := readTableSum(b, new(uint32)); !errors.Is(err, errCorrupt) {
		t.Errorf("a wrong precomputed checksum: %v, want corruption", err)
	}
}

// TestDecodeMappedDamage: with the checksum running beside the decode,
// every truncation and every flipped bit still reads as corruption,
// from the decode or from verify, never as a table or a newer file.
func TestDecodeMappedDamage(t *testing.T) {
	b := encode(t, allKinds(40, rand.New(rand.NewSource(5))))
	check := func(d []byte, what string) {
		t.Helper()
		a := bytesOf(make([]uint64, (len(d)+7)/8))[:len(d)] // aligned, as a mapping is
		copy(a, d)
		_, verify, err := decodeMapped(a)
		if err == nil {
			err = verify()
		}
		if !errors.Is(err, errCorrupt) {
			t.Fatalf("%s: %v", what, err)
		}
	}
	for n := 0; n < len(b); n++ {
		check(b[:n], "cut")
	}
	d := append([]byte{}, b...)
	for i := range d {
		for bit := 0; bit < 8; bit++ {
			d[i] ^= 1 << bit
			check(d, "flipped")
			d[i] ^= 1 << bit
		}
	}
	a := bytesOf(make([]uint64, (len(b)+7)/8))[:len(b)]
	copy(a, b)
	h, verify, err := decodeMapped(a)
	if err != nil || verify() != nil || h.N != 40 {
		t.Fatalf("the whole file: %v", err)
	}
}
