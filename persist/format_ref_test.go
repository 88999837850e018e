package persist

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"

	"github.com/gpusql/gpusql/engine"
)

// The table file format written the plain way, one section after the
// other through one checksum: the reference that the parallel writer
// (writeTableAt) must match byte for byte.

// writeTable writes h in the table file format to w, sequentially.
func writeTable(w io.Writer, h *engine.HostTable) error {
	crc := crc32.New(castagnoli)
	bw := bufio.NewWriterSize(io.MultiWriter(w, crc), 1<<20)
	var off int64
	put := func(b []byte) error {
		n, err := bw.Write(b)
		off += int64(n)
		return err
	}
	padTo8 := func() error {
		var z [8]byte
		return put(z[:pad8(off)-off])
	}
	rows := h.N
	hdr := make([]byte, headerFixed+columnDesc*len(h.Cols))
	copy(hdr, tableMagic)
	binary.LittleEndian.PutUint32(hdr[8:], fileVersion)
	binary.LittleEndian.PutUint32(hdr[12:], uint32(len(h.Cols)))
	binary.LittleEndian.PutUint64(hdr[16:], uint64(rows))
	for k, c := range h.Cols {
		if int64(c.Len) != rows {
			return fmt.Errorf("column %d has %d rows, the table %d", k+1, c.Len, rows)
		}
		d := hdr[headerFixed+columnDesc*k:]
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
	if err := put(hdr); err != nil {
		return err
	}
	for _, c := range h.Cols {
		if c.D != nil {
			if int64(len(c.D)) < rows {
				return fmt.Errorf("wide numeric column of %d rows holds %d values", rows, len(c.D))
			}
			var b [24]byte
			for _, v := range c.D[:rows] {
				binary.LittleEndian.PutUint64(b[0:], uint64(v.Hi))
				binary.LittleEndian.PutUint64(b[8:], v.Lo)
				binary.LittleEndian.PutUint64(b[16:], uint64(int64(v.Scale)))
				if err := put(b[:]); err != nil {
					return err
				}
			}
		} else {
			b, err := values(c, rows)
			if err != nil {
				return err
			}
			if err := put(b); err != nil {
				return err
			}
		}
		if err := padTo8(); err != nil {
			return err
		}
		if c.Valid != nil {
			words := (rows + 63) / 64
			if int64(len(c.Valid)) < words {
				return fmt.Errorf("validity bitmap of %d words, want %d", len(c.Valid), words)
			}
			if err := put(bytesOf(c.Valid[:words])); err != nil {
				return err
			}
		}
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	var tr [trailerSize]byte
	binary.LittleEndian.PutUint32(tr[:], crc.Sum32())
	copy(tr[4:], trailerMagic)
	_, err := w.Write(tr[:])
	return err
}
