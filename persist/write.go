package persist

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"runtime"
	"sort"
	"sync"

	"github.com/gpusql/gpusql/engine"
)

// Writing table files in parallel. The layout (format.go) puts each
// column's sections at an offset that follows from the columns before
// it, so a column's bytes can be written (pwrite) as soon as it is on
// the host, by several goroutines at once, each checksumming the chunk
// it writes; the header and the trailer, whose checksum combines the
// chunks' (crc.go), are written last. A table on the GPU
// (engine.ColumnDownloader) is copied to the host column by column,
// each column written while the next one is copied. Each chunk's
// writeback to disk starts as soon as it is written (startWriteback),
// and the file is synced once, by atomicfile, after everything is
// written: durable when the statement reports success, as before.

// columnSource yields a table's columns in order on the host.
type columnSource struct {
	rows   int64
	ncols  int
	column func(k int) (*engine.Column, error)
}

func sourceOf(data engine.TableData) (columnSource, error) {
	if cd, ok := data.(engine.ColumnDownloader); ok {
		return columnSource{rows: data.Rows(), ncols: cd.NumColumns(), column: cd.DownloadColumn}, nil
	}
	dl, ok := data.(engine.Downloader)
	if !ok {
		return columnSource{}, fmt.Errorf("table data of type %T cannot be copied to the host", data)
	}
	h, err := dl.Download()
	if err != nil {
		return columnSource{}, err
	}
	return columnSource{rows: h.N, ncols: len(h.Cols), column: func(k int) (*engine.Column, error) { return h.Cols[k], nil }}, nil
}

// piece is bytes to write at an offset, and their checksum once written.
type piece struct {
	off, n int64
	b      []byte
	crc    uint32
}

// putColumnDesc fills column c's 24-byte header entry.
func putColumnDesc(d []byte, c *engine.Column) {
	d[0] = uint8(c.Type.Kind)
	if c.Valid != nil {
		d[1] |= flagValid
	}
	if c.D != nil {
		d[1] |= flagDec
	}
	binary.LittleEndian.PutUint32(d[4:], uint32(int32(c.Type.Prec)))
	binary.LittleEndian.PutUint32(d[8:], uint32(int32(c.Type.Scale)))
	binary.LittleEndian.PutUint32(d[12:], uint32(int32(c.Type.Len)))
	binary.LittleEndian.PutUint32(d[16:], uint32(c.Width))
}

// columnPieces are column c's sections placed from off on, and the
// offset after them.
func columnPieces(c *engine.Column, rows, off int64) ([]piece, int64, error) {
	if int64(c.Len) != rows {
		return nil, 0, fmt.Errorf("a column has %d rows, the table %d", c.Len, rows)
	}
	var vals []byte
	if c.D != nil {
		if int64(len(c.D)) < rows {
			return nil, 0, fmt.Errorf("wide numeric column of %d rows holds %d values", rows, len(c.D))
		}
		vals = make([]byte, 24*rows)
		for i, v := range c.D[:rows] {
			e := vals[24*i:]
			binary.LittleEndian.PutUint64(e[0:], uint64(v.Hi))
			binary.LittleEndian.PutUint64(e[8:], v.Lo)
			binary.LittleEndian.PutUint64(e[16:], uint64(int64(v.Scale)))
		}
	} else {
		var err error
		if vals, err = values(c, rows); err != nil {
			return nil, 0, err
		}
	}
	var ps []piece
	ps = append(ps, piece{off: off, b: vals})
	off += int64(len(vals))
	if pad := pad8(off) - off; pad > 0 {
		ps = append(ps, piece{off: off, b: make([]byte, pad)})
		off += pad
	}
	if c.Valid != nil {
		words := (rows + 63) / 64
		if int64(len(c.Valid)) < words {
			return nil, 0, fmt.Errorf("validity bitmap of %d words, want %d", len(c.Valid), words)
		}
		b := bytesOf(c.Valid[:words])
		ps = append(ps, piece{off: off, b: b})
		off += int64(len(b))
	}
	return ps, off, nil
}

// writeTableAt writes the table of src to f in the table file format,
// with parallel pwrites; it does not sync f.
func writeTableAt(f *os.File, src columnSource) error {
	hdr := make([]byte, headerFixed+columnDesc*src.ncols)
	copy(hdr, tableMagic)
	binary.LittleEndian.PutUint32(hdr[8:], fileVersion)
	binary.LittleEndian.PutUint32(hdr[12:], uint32(src.ncols))
	binary.LittleEndian.PutUint64(hdr[16:], uint64(src.rows))

	// Writers take chunks of at most crcChunk bytes from work.
	work := make(chan *piece, 64)
	var (
		mu     sync.Mutex
		done   []*piece
		werr   error
		wg     sync.WaitGroup
		failed = func() bool { mu.Lock(); defer mu.Unlock(); return werr != nil }
	)
	fail := func(err error) {
		mu.Lock()
		if werr == nil {
			werr = err
		}
		mu.Unlock()
	}
	for range max(2, min(8, 2*runtime.GOMAXPROCS(0))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range work {
				if failed() {
					continue
				}
				if _, err := f.WriteAt(p.b, p.off); err != nil {
					fail(err)
					continue
				}
				startWriteback(f, p.off, p.n)
				p.crc = crc32.Checksum(p.b, castagnoli)
				p.b = nil // the column may go once written
				mu.Lock()
				done = append(done, p)
				mu.Unlock()
			}
		}()
	}
	send := func(p piece) {
		for lo := int64(0); lo < int64(len(p.b)); lo += crcChunk {
			hi := min(lo+crcChunk, int64(len(p.b)))
			work <- &piece{off: p.off + lo, n: hi - lo, b: p.b[lo:hi]}
		}
	}
	off := int64(len(hdr))
	var err error
	for k := 0; k < src.ncols && err == nil && !failed(); k++ {
		var c *engine.Column
		if c, err = src.column(k); err != nil {
			break
		}
		putColumnDesc(hdr[headerFixed+columnDesc*k:], c)
		var ps []piece
		if ps, off, err = columnPieces(c, src.rows, off); err != nil {
			err = fmt.Errorf("column %d: %w", k+1, err)
			break
		}
		for _, p := range ps {
			send(p)
		}
	}
	close(work)
	wg.Wait()
	if err == nil {
		err = werr
	}
	if err != nil {
		return err
	}
	if _, err := f.WriteAt(hdr, 0); err != nil {
		return err
	}
	// the chunks' checksums, combined in file order
	sort.Slice(done, func(i, j int) bool { return done[i].off < done[j].off })
	crc := crc32.Checksum(hdr, castagnoli)
	at := int64(len(hdr))
	for _, p := range done {
		if p.off != at {
			return fmt.Errorf("table file sections at %d, want %d", p.off, at)
		}
		crc = crcCombine(crc, p.crc, p.n)
		at += p.n
	}
	if at != off {
		return fmt.Errorf("table file sections end at %d, want %d", at, off)
	}
	var tr [trailerSize]byte
	binary.LittleEndian.PutUint32(tr[:], crc)
	copy(tr[4:], trailerMagic)
	_, err = f.WriteAt(tr[:], off)
	return err
}
