package persist

// The table file format (.gtab): one file holds one table version's
// columns, exactly as engine.Column keeps them in memory, so that reading
// one is a read of the file, a checksum and slicing, with no decoding.
//
//	header      magic "GSQLTAB1" (8 bytes)
//	            version u32 (1), columns u32, rows u64
//	            per column, 24 bytes: kind u8, flags u8, 0 u16,
//	            prec i32, scale i32, len i32, width u32, 0 u32
//	sections    per column, in order: its values, then (flag 1) its
//	            validity bitmap; each padded with zeros to 8 bytes
//	trailer     CRC-32C (Castagnoli) of everything before it, u32;
//	            magic "GEND" (4 bytes)
//
// Integers are little-endian, and so are the values (the byte order of
// every host gpusql runs on). A column's values are rows × the width of
// its kind: bool 1 byte, smallint 2, integer and date 4, bigint,
// numeric, timestamp, timestamptz and time 8, real 4, double 8, and
// strings width bytes each, zero-padded UTF-8 (engine.Column). Flag 2
// marks a numeric column of wide values, each with its own scale: 24
// bytes a row (hi i64, lo u64, scale i64). The validity bitmap is
// (rows+63)/64 u64 words, bit i set when row i is not NULL. The file's
// size follows from its header, which is checked too.

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"unsafe"

	"github.com/gpusql/gpusql/engine"
)

const (
	tableMagic   = "GSQLTAB1"
	trailerMagic = "GEND"
	fileVersion  = 1
	headerFixed  = 24
	columnDesc   = 24
	trailerSize  = 8

	flagValid = 1
	flagDec   = 2
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

func pad8(n int64) int64 { return (n + 7) &^ 7 }

// valuesBytes is the size of a column's values section.
func valuesBytes(kind engine.Kind, flags uint8, width int, rows int64) (int64, error) {
	switch {
	case flags&flagDec != 0:
		if kind != engine.KindNumeric {
			return 0, fmt.Errorf("wide values in a column of kind %d", kind)
		}
		return 24 * rows, nil
	case kind == engine.KindChar || kind == engine.KindVarchar || kind == engine.KindText:
		if width < 0 || width%4 != 0 {
			return 0, fmt.Errorf("string width %d", width)
		}
		return int64(width) * rows, nil
	}
	w := engine.Type{Kind: kind}.StorageWidth()
	if w == 0 {
		return 0, fmt.Errorf("a column of kind %d cannot be stored", kind)
	}
	return int64(w) * rows, nil
}

// bytesOf views a slice's elements as bytes (no copy).
func bytesOf[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	var z T
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(z)))
}

// sliceOf views b as n elements of T (no copy); b must hold them and be
// aligned for T.
func sliceOf[T any](b []byte, n int64) []T {
	if n == 0 {
		return []T{}
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), n)
}

// values is column c's values as bytes, exactly rows of them.
func values(c *engine.Column, rows int64) ([]byte, error) {
	var b []byte
	switch c.Type.Kind {
	case engine.KindBool:
		b = bytesOf(c.B)
	case engine.KindInt16:
		b = bytesOf(c.I16)
	case engine.KindInt32, engine.KindDate:
		b = bytesOf(c.I32)
	case engine.KindInt64, engine.KindNumeric, engine.KindTimestamp, engine.KindTimestampTZ, engine.KindTime:
		b = bytesOf(c.I64)
	case engine.KindFloat32:
		b = bytesOf(c.F32)
	case engine.KindFloat64:
		b = bytesOf(c.F64)
	case engine.KindChar, engine.KindVarchar, engine.KindText:
		b = c.Str
	}
	want, err := valuesBytes(c.Type.Kind, 0, c.Width, rows)
	if err != nil {
		return nil, err
	}
	if int64(len(b)) < want {
		return nil, fmt.Errorf("column of %d rows holds %d bytes, want %d", rows, len(b), want)
	}
	return b[:want], nil
}

// errCorrupt marks a file whose contents are not a table file.
var errCorrupt = errors.New("corrupt table file")

// errNewer marks a file of a format this gpusql does not read.
var errNewer = errors.New("written by a newer gpusql")

func corrupt(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errCorrupt, fmt.Sprintf(format, args...))
}

// readTable decodes a table file held in b. The columns alias b.
func readTable(b []byte) (*engine.HostTable, error) { return readTableSum(b, nil) }

// readTableSum is readTable with the checksum of b's body (all of b but
// its trailer) already computed (nil: compute it).
func readTableSum(b []byte, sum *uint32) (*engine.HostTable, error) {
	if len(b) > 0 && uintptr(unsafe.Pointer(&b[0]))%8 != 0 {
		// The sections are 8-byte aligned within the file: make the
		// buffer so too.
		w := make([]uint64, (len(b)+7)/8)
		b = bytesOf(w)[:copy(bytesOf(w), b)]
	}
	end := int64(len(b)) - trailerSize
	if len(b) < headerFixed+trailerSize || string(b[:8]) != tableMagic {
		return nil, corrupt("no table file header")
	}
	// The checksum first: it covers the whole file but its trailer,
	// whatever the layout, so a damaged file is never taken for a
	// newer one.
	if string(b[end+4:]) != trailerMagic {
		return nil, corrupt("no trailer (truncated?)")
	}
	if sum == nil {
		s := checksum(b[:end])
		sum = &s
	}
	if err := checkSum(b, *sum); err != nil {
		return nil, err
	}
	return decodeTable(b)
}

// checkSum compares sum, the checksum of table file b's body, with the
// one its trailer records.
func checkSum(b []byte, sum uint32) error {
	end := int64(len(b)) - trailerSize
	if got, want := sum, binary.LittleEndian.Uint32(b[end:]); got != want {
		return corrupt("checksum %08x, the file records %08x", got, want)
	}
	return nil
}

// decodeTable decodes table file b (8-byte aligned, its header and
// trailer magic checked) without its checksum: every section it slices
// lies within b, so a damaged file is safe to decode, but only a
// checked one may be kept.
func decodeTable(b []byte) (*engine.HostTable, error) {
	if v := binary.LittleEndian.Uint32(b[8:]); v != fileVersion {
		// A later gpusql's file (or a damaged one): the start stops
		// rather than move it aside.
		return nil, fmt.Errorf("%w: table file format %d, this gpusql reads %d", errNewer, v, fileVersion)
	}
	ncols := int64(binary.LittleEndian.Uint32(b[12:]))
	rows := int64(binary.LittleEndian.Uint64(b[16:]))
	if rows < 0 || rows > 1<<48 || ncols > 1<<16 {
		return nil, corrupt("%d rows of %d columns", rows, ncols)
	}
	hdrEnd := headerFixed + columnDesc*ncols
	if int64(len(b)) < hdrEnd+trailerSize {
		return nil, corrupt("truncated in its header")
	}
	// The size the header implies, before reading anything else.
	type desc struct {
		t             engine.Type
		flags         uint8
		width         int
		values, valid int64 // section sizes
		valuesAt, vAt int64
	}
	ds := make([]desc, ncols)
	off := hdrEnd
	for k := range ds {
		d := b[headerFixed+columnDesc*k:]
		x := desc{
			t: engine.Type{Kind: engine.Kind(d[0]), Prec: int(int32(binary.LittleEndian.Uint32(d[4:]))),
				Scale: int(int32(binary.LittleEndian.Uint32(d[8:]))), Len: int(int32(binary.LittleEndian.Uint32(d[12:])))},
			flags: d[1],
			width: int(binary.LittleEndian.Uint32(d[16:])),
		}
		if x.flags&^(flagValid|flagDec) != 0 {
			return nil, corrupt("column %d has unknown flags %#x", k+1, x.flags)
		}
		n, err := valuesBytes(x.t.Kind, x.flags, x.width, rows)
		if err != nil {
			return nil, corrupt("column %d: %v", k+1, err)
		}
		x.values, x.valuesAt = n, off
		off = pad8(off + n)
		if x.flags&flagValid != 0 {
			x.valid, x.vAt = 8*((rows+63)/64), off
			off += x.valid
		}
		ds[k] = x
	}
	if want := off + trailerSize; int64(len(b)) != want {
		return nil, corrupt("%d bytes, its header describes %d", len(b), want)
	}
	cols := make([]*engine.Column, ncols)
	for k, x := range ds {
		c := &engine.Column{Type: x.t, Len: int(rows), Width: x.width}
		v := b[x.valuesAt : x.valuesAt+x.values]
		switch {
		case x.flags&flagDec != 0:
			c.D = make([]engine.Dec, rows)
			for i := range c.D {
				e := v[24*i:]
				c.D[i] = engine.Dec{Hi: int64(binary.LittleEndian.Uint64(e)), Lo: binary.LittleEndian.Uint64(e[8:]),
					Scale: int32(int64(binary.LittleEndian.Uint64(e[16:])))}
			}
		default:
			switch x.t.Kind {
			case engine.KindBool:
				c.B = sliceOf[uint8](v, rows)
			case engine.KindInt16:
				c.I16 = sliceOf[int16](v, rows)
			case engine.KindInt32, engine.KindDate:
				c.I32 = sliceOf[int32](v, rows)
			case engine.KindInt64, engine.KindNumeric, engine.KindTimestamp, engine.KindTimestampTZ, engine.KindTime:
				c.I64 = sliceOf[int64](v, rows)
			case engine.KindFloat32:
				c.F32 = sliceOf[float32](v, rows)
			case engine.KindFloat64:
				c.F64 = sliceOf[float64](v, rows)
			default:
				c.Str = v
			}
		}
		if x.flags&flagValid != 0 {
			c.Valid = sliceOf[uint64](b[x.vAt:x.vAt+x.valid], x.valid/8)
		}
		cols[k] = c
	}
	return engine.NewHostTable(cols, rows), nil
}
