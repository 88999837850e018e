package loader

import (
	"io"
	"os"
	"sync"
	"syscall"

	"github.com/gpusql/gpusql/cuda"
	"github.com/gpusql/gpusql/engine"
)

// Host side of the GPU reader's streaming: raw blocks of the input are read
// into pinned buffers by a reader goroutine while the device parses the
// previous batch (ReadPread), or the whole file is mapped and registered
// with the driver so that blocks are copied straight from the page cache
// (ReadMmap).

// ReadMode is how the GPU loader reads a file.
type ReadMode uint8

const (
	// ReadPread reads blocks with parallel pread into pinned buffers
	// (any io.Reader works, read sequentially when it is not a file).
	ReadPread ReadMode = iota
	// ReadMmap maps the file and registers it with cuMemHostRegister; the
	// device copies from the mapping. Falls back to ReadPread when the
	// source is not a regular file.
	ReadMmap
)

// hostBlock is a pinned buffer holding one raw block at buf[pre:pre+n],
// with room before it for the previous batch's orphan.
type hostBlock struct {
	hb  *cuda.HostBuffer
	pre int
	n   int
	eof bool
	err error
}

func (b *hostBlock) bytes() []byte { return b.hb.Bytes() }

// blockReader fills hostBlocks from the source on its own goroutine.
type blockReader struct {
	src     io.Reader
	file    *os.File // set for parallel pread
	size    int64
	off     int64
	readers int
	block   int
	free    chan *hostBlock
	ready   chan *hostBlock
	wg      sync.WaitGroup
}

func newBlockReader(req *engine.LoadRequest, block, readers int) *blockReader {
	r := &blockReader{src: req.Source, size: req.Size, block: block, readers: readers,
		free: make(chan *hostBlock, 2), ready: make(chan *hostBlock, 2)}
	if s, ok := req.Source.(*engine.FileSection); ok && req.Size == s.N {
		r.file, r.off, r.size = s.File, s.Off, s.Off+s.N
	} else if f, ok := req.Source.(*os.File); ok && req.Size >= 0 {
		if off, err := f.Seek(0, io.SeekCurrent); err == nil {
			r.file, r.off = f, off
			r.size = off + req.Size
		}
	}
	r.wg.Add(1)
	go r.run()
	return r
}

func (r *blockReader) run() {
	defer r.wg.Done()
	for b := range r.free {
		buf := b.bytes()[b.pre : b.pre+r.block]
		if r.file != nil {
			b.n, b.eof, b.err = r.pread(buf)
		} else {
			b.n, b.eof, b.err = readFull(r.src, buf)
		}
		r.ready <- b
		if b.eof || b.err != nil {
			return
		}
	}
}

// pread fills buf from the file at r.off with up to r.readers goroutines.
func (r *blockReader) pread(buf []byte) (int, bool, error) {
	want := int64(len(buf))
	if left := r.size - r.off; left < want {
		want = max(left, 0)
	}
	const piece = 8 << 20
	parts := int(min(int64(r.readers), (want+piece-1)/piece))
	var firstErr error
	var mu sync.Mutex
	if parts > 0 {
		per := (want + int64(parts) - 1) / int64(parts)
		var wg sync.WaitGroup
		for p := 0; p < parts; p++ {
			s, e := int64(p)*per, min(int64(p+1)*per, want)
			if s >= e {
				continue
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := r.file.ReadAt(buf[s:e], r.off+s); err != nil && err != io.EOF {
					mu.Lock()
					firstErr = err
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
	}
	if firstErr != nil {
		return 0, false, &engine.Error{Code: engine.CodeIOError, Message: "could not read CSV input: " + firstErr.Error(), Err: firstErr}
	}
	r.off += want
	if r.off >= r.size {
		// Seek the file past what was read, as a sequential read would.
		_, _ = r.file.Seek(r.off, io.SeekStart)
		return int(want), true, nil
	}
	return int(want), false, nil
}

// stop ends the reader goroutine and waits for it.
func (r *blockReader) stop() {
	close(r.free)
	r.wg.Wait()
}

// mapping is a file mapped read-only and registered with the driver.
type mapping struct {
	data       []byte
	unregister func() error
}

// mapFile maps f's size bytes from its current offset (0 only) and
// registers them; ok is false when the file cannot be mapped.
func mapFile(dev *cuda.Device, f *os.File, size int64) (*mapping, bool) {
	if size <= 0 {
		return nil, false
	}
	if off, err := f.Seek(0, io.SeekCurrent); err != nil || off != 0 {
		return nil, false
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, false
	}
	unreg, err := dev.RegisterHost(data, true)
	if err != nil {
		_ = syscall.Munmap(data)
		return nil, false
	}
	return &mapping{data: data, unregister: unreg}, true
}

func (m *mapping) close() {
	_ = m.unregister()
	_ = syscall.Munmap(m.data)
}
