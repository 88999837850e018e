package persist

import (
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"sync"
	"syscall"

	"github.com/gpusql/gpusql/engine"
)

// Reading table files back. A file is read by large preads at once, one
// goroutine per chunk (crcChunk bytes), each checksumming the chunk it
// has just read while it is still in cache; the chunks' CRCs combine
// into the file's (crc.go). The buffer is 8-byte aligned, so that the
// columns can alias it with no copy.

// readFile reads the file at path whole and returns its bytes with the
// CRC-32C of all of them but the trailer.
func readFile(path string) (b []byte, sum uint32, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	size := st.Size()
	if size == 0 {
		return nil, 0, nil
	}
	b = bytesOf(make([]uint64, (size+7)/8))[:size]
	end := max(size-trailerSize, 0) // what the checksum covers
	chunks := int((size + crcChunk - 1) / crcChunk)
	crcs, sizes := make([]uint32, chunks), make([]int64, chunks)
	err = parallelChunks(size, func(i int, lo, hi int64) error {
		for off := lo; off < hi; {
			n, err := f.ReadAt(b[off:hi], off)
			off += int64(n)
			if err == io.EOF && off < hi {
				return fmt.Errorf("%s: the file shrank while it was read", path)
			}
			if err != nil && err != io.EOF {
				return err
			}
		}
		if lo < end {
			crcs[i], sizes[i] = crc32.Checksum(b[lo:min(hi, end)], castagnoli), min(hi, end)-lo
		}
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	return b, chunkCRCs(crcs, sizes), nil
}

// mapFile maps the file at path read-only; unmap releases the mapping,
// after which nothing may read b.
func mapFile(path string) (b []byte, unmap func(), err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if st.Size() == 0 {
		return nil, func() {}, nil
	}
	b, err = syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ, mapFlags)
	if err != nil {
		return nil, nil, err
	}
	return b, func() { _ = syscall.Munmap(b) }, nil
}

// decodeMapped decodes a mapped table file while its checksum runs on
// other goroutines: the GPU copies the columns meanwhile, and verify,
// which waits for the checksum, says whether the copy may be kept. It
// must be called before the mapping goes. A file that does not decode
// is checked first, so that a damaged one reads as corrupt, never as
// newer.
func decodeMapped(b []byte) (h *engine.HostTable, verify func() error, err error) {
	if len(b) < headerFixed+trailerSize || string(b[:8]) != tableMagic {
		return nil, nil, corrupt("no table file header")
	}
	end := len(b) - trailerSize
	if string(b[end+4:]) != trailerMagic {
		return nil, nil, corrupt("no trailer (truncated?)")
	}
	sums := make(chan uint32, 1)
	go func() { sums <- checksum(b[:end]) }()
	verify = sync.OnceValue(func() error { return checkSum(b, <-sums) })
	if h, err = decodeTable(b); err != nil {
		if cerr := verify(); cerr != nil {
			return nil, nil, cerr
		}
		return nil, nil, err
	}
	return h, verify, nil
}
