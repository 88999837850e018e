package pgz_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/klauspost/compress/gzip"

	"github.com/gpusql/gpusql/loader/pgz"
)

// member gzips b as one member at level.
func member(t testing.TB, b []byte, level int) []byte {
	var out bytes.Buffer
	w, err := gzip.NewWriterLevel(&out, level)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(b)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// sequential is what klauspost/compress's multistream reader gives.
func sequential(file []byte) ([]byte, error) {
	z, err := gzip.NewReader(bytes.NewReader(file))
	if err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return io.ReadAll(z)
}

// parallel reads file through a pgz.Reader with small reads of varying
// sizes.
func parallel(file []byte, o pgz.Options, rng *rand.Rand) ([]byte, error) {
	out, _, err := parallelTaken(file, o, rng)
	return out, err
}

// parallelTaken is parallel, and says how many members came from the
// workers.
func parallelTaken(file []byte, o pgz.Options, rng *rand.Rand) (out []byte, taken int, err error) {
	r, err := pgz.NewReader(bytes.NewReader(file), int64(len(file)), o)
	if err != nil {
		return nil, 0, err
	}
	defer r.Close()
	defer func() { taken = pgz.Taken(r) }()
	buf := make([]byte, 1<<16)
	for {
		n, err := r.Read(buf[:1+rng.IntN(len(buf))])
		out = append(out, buf[:n]...)
		if err == io.EOF {
			return out, taken, nil
		}
		if err != nil {
			return out, taken, err
		}
	}
}

// text is compressible data that holds the gzip magic bytes now and then,
// so that candidates fall inside members too.
func text(rng *rand.Rand, n int) []byte {
	b := make([]byte, 0, n)
	for len(b) < n {
		switch rng.IntN(20) {
		case 0:
			b = append(b, 0x1f, 0x8b, 8)
		case 1:
			b = append(b, byte(rng.Uint32()))
		default:
			b = fmt.Appendf(b, "%d,row %d,%x\n", len(b), rng.IntN(1000), rng.Uint32())
		}
	}
	return b[:n]
}

// TestMembers: files of many members (BGZF-like small ones, empty ones,
// stored ones holding whole gzip files, members past the speculation
// limit, one member) read as the sequential reader reads them, with 1 to
// 8 workers.
func TestMembers(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	inner := member(t, text(rng, 5000), 6)
	for _, c := range []struct {
		name  string
		sizes []int // content size of each member; -1: a stored member holding a gzip file
	}{
		{"one small", []int{1000}},
		{"one large", []int{3 << 20}},
		{"many small", repeat(64<<10, 200)},
		{"empty members", []int{0, 10, 0, 0, 5000, 0}},
		{"stored gzip inside", []int{100, -1, 2000, -1, -1, 30}},
		{"large among small", []int{500, 3 << 20, 700, 800, 2 << 20, 100}},
		{"large first", []int{3 << 20, 100, 200}},
		{"random", randomSizes(rng, 300)},
	} {
		var file, want []byte
		for _, n := range c.sizes {
			var content []byte
			level := []int{gzip.BestSpeed, gzip.DefaultCompression, gzip.HuffmanOnly}[rng.IntN(3)]
			if n < 0 {
				content, level = append(append([]byte("x"), inner...), 'y'), gzip.NoCompression
			} else {
				content = text(rng, n)
			}
			file = append(file, member(t, content, level)...)
			want = append(want, content...)
		}
		if seq, err := sequential(file); err != nil || !bytes.Equal(seq, want) {
			t.Fatalf("%s: the sequential reader: %v", c.name, err)
		}
		for _, w := range []int{1, 2, 3, 8} {
			got, taken, err := parallelTaken(file, pgz.Options{Workers: w, Limit: 1 << 20}, rng)
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s, %d workers: %d bytes, %v; want %d bytes", c.name, w, len(got), err, len(want))
			}
			// Past a small first member, the small members come from
			// the workers.
			if w > 1 && c.sizes[0] <= 1<<20 && len(c.sizes) > 2 && taken == 0 {
				t.Errorf("%s, %d workers: no member inflated in parallel", c.name, w)
			}
		}
	}
}

func repeat(n, k int) []int {
	out := make([]int, k)
	for i := range out {
		out[i] = n
	}
	return out
}

func randomSizes(rng *rand.Rand, k int) []int {
	out := make([]int, k)
	for i := range out {
		out[i] = rng.IntN(1 << rng.IntN(18))
	}
	return out
}

// TestDamage: an empty file, garbage, a truncated member, a bad checksum
// in any member and data after the last member fail as the sequential
// reader fails, after the same content.
func TestDamage(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var good []byte
	var ends []int
	for range 40 {
		good = append(good, member(t, text(rng, rng.IntN(30000)), gzip.BestSpeed)...)
		ends = append(ends, len(good))
	}
	cases := map[string][]byte{
		"empty":       {},
		"garbage":     []byte("not gzip at all, not at all"),
		"short":       {0x1f, 0x8b},
		"trailing":    append(append([]byte{}, good...), "junk after"...),
		"trailing 1f": append(append([]byte{}, good...), 0x1f, 0x8b, 8, 0),
		"zeros after": append(append([]byte{}, good...), 0, 0, 0, 0),
	}
	for _, at := range []int{0, 1, 17, 39} {
		b := append([]byte{}, good...)
		b[ends[at]-5] ^= 0x40 // in the CRC or size of member at
		cases[fmt.Sprintf("checksum of member %d", at)] = b
		cases[fmt.Sprintf("cut in member %d", at)] = append([]byte{}, good[:ends[at]-3]...)
		b = append([]byte{}, good...)
		start := 0
		if at > 0 {
			start = ends[at-1]
		}
		b[start+3] = 0xe0 // reserved header flags
		cases[fmt.Sprintf("header of member %d", at)] = b
	}
	for name, file := range cases {
		want, werr := sequential(file)
		if werr == nil {
			t.Fatalf("%s: the sequential reader finds no error", name)
		}
		for _, w := range []int{1, 4} {
			got, err := parallel(file, pgz.Options{Workers: w, Limit: 8 << 10}, rng)
			if !errors.Is(err, werr) || !bytes.Equal(got, want) {
				t.Errorf("%s, %d workers: %d bytes, %v; want %d bytes, %v", name, w, len(got), err, len(want), werr)
			}
		}
	}
}

// TestCloseEarly: closing a Reader mid-file stops its goroutines (Close
// waits for them).
func TestCloseEarly(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var file []byte
	for range 500 {
		file = append(file, member(t, text(rng, 20000), gzip.BestSpeed)...)
	}
	for _, stop := range []int{0, 1, 1000, 200000} {
		r, err := pgz.NewReader(bytes.NewReader(file), int64(len(file)), pgz.Options{Workers: 4, Window: 3})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.CopyN(io.Discard, r, int64(stop)); err != nil {
			t.Fatal(err)
		}
		r.Close()
	}
}

// BenchmarkMembers inflates a file of 64 KiB members (as bgzip writes)
// with one worker and with the machine's cores.
func BenchmarkMembers(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	var file []byte
	var size int64
	for range 1000 {
		c := text(rng, 64<<10)
		file = append(file, member(b, c, gzip.DefaultCompression)...)
		size += int64(len(c))
	}
	for _, w := range []int{1, 0} {
		name := "sequential"
		if w == 0 {
			name = "parallel"
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(size)
			for b.Loop() {
				o := pgz.Options{Workers: w}
				if w == 0 {
					o.Workers = runtimeProcs()
				}
				r, err := pgz.NewReader(bytes.NewReader(file), int64(len(file)), o)
				if err != nil {
					b.Fatal(err)
				}
				if n, err := io.Copy(io.Discard, r); err != nil || n != size {
					b.Fatal(n, err)
				}
				r.Close()
			}
		})
	}
}

func runtimeProcs() int { return runtime.GOMAXPROCS(0) }

// FuzzReader: any bytes read as the sequential reader reads them: the
// same content, and an error exactly where it fails.
func FuzzReader(f *testing.F) {
	rng := rand.New(rand.NewPCG(9, 10))
	var file []byte
	for range 6 {
		file = append(file, member(f, text(rng, rng.IntN(3000)), gzip.BestSpeed)...)
	}
	f.Add(file)
	f.Add(file[:len(file)-7])
	f.Add(append(append([]byte{}, file...), 0x1f, 0x8b, 8, 0, 0))
	f.Add(member(f, nil, gzip.NoCompression))
	f.Fuzz(func(t *testing.T, b []byte) {
		want, werr := sequential(b)
		got, err := parallel(b, pgz.Options{Workers: 3, Limit: 1000, Window: 2}, rand.New(rand.NewPCG(1, uint64(len(b)))))
		if (werr == nil) != (err == nil) || werr != nil && !errors.Is(err, werr) || !bytes.Equal(got, want) {
			t.Fatalf("got %d bytes, %v; want %d bytes, %v", len(got), err, len(want), werr)
		}
	})
}

// TestMutations: files of small members with random damage (bytes
// changed, cuts, gzip magic bytes inserted anywhere) read as the
// sequential reader reads them; FuzzReader's checks over a fixed set.
func TestMutations(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	var file []byte
	for range 8 {
		file = append(file, member(t, text(rng, rng.IntN(4000)), []int{gzip.BestSpeed, gzip.NoCompression}[rng.IntN(2)])...)
	}
	for i := range 2000 {
		b := append([]byte{}, file...)
		for range 1 + rng.IntN(4) {
			if len(b) == 0 {
				break
			}
			switch rng.IntN(3) {
			case 0:
				b[rng.IntN(len(b))] = byte(rng.Uint32())
			case 1:
				b = b[:rng.IntN(len(b)+1)]
			case 2:
				p := rng.IntN(len(b) + 1)
				b = append(b[:p:p], append([]byte{0x1f, 0x8b, 8}, b[p:]...)...)
			}
		}
		want, werr := sequential(b)
		got, err := parallel(b, pgz.Options{Workers: 1 + i%4, Limit: 1 << (8 + i%6), Window: 1 + i%3}, rng)
		if (werr == nil) != (err == nil) || werr != nil && !errors.Is(err, werr) || !bytes.Equal(got, want) {
			t.Fatalf("mutation %d: got %d bytes, %v; want %d bytes, %v", i, len(got), err, len(want), werr)
		}
	}
}
