package loader

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sync"
	"syscall"

	"github.com/gpusql/gpusql/cuda"
	"github.com/gpusql/gpusql/engine"
)

// Host side of the GPU reader's streaming: raw blocks of the input are read
// into pinned buffers by a reader goroutine while the device parses the
// previous batch (ReadPread), or the file (or one part's range of it) is
// mapped and registered with the driver so that blocks are copied
// straight from the page cache (ReadMmap). Mapping saves the host a copy
// of every byte, but registering pins every page of the file first: on
// an H100 host that ran at 4.5-9 GB/s where pread fed 16-23 GB/s
// (docs/performance.md), so pread is the default.
//
// A mapped file that shrinks while it is read faults the reads of the
// host's own code past its new end (SIGBUS); the load turns that fault
// into an error (guardFaults). The device's copies read the pages the
// registration pinned, which stay valid.

// ReadMode is how the GPU loader reads a file.
type ReadMode uint8

const (
	// ReadPread reads blocks with parallel pread into pinned buffers
	// (any io.Reader works, read sequentially when it is not a file).
	ReadPread ReadMode = iota
	// ReadMmap maps the file and registers it with cuMemHostRegister; the
	// device copies from the mapping. Falls back to ReadPread when the
	// source is not a regular file or cannot be mapped.
	ReadMmap
)

// hostBlock is a pinned buffer holding one raw block at buf[pre:pre+n],
// with room before it for the previous batch's orphan.
type hostBlock struct {
	hb  *pinnedBuf
	pre int
	n   int
	eof bool
	err error
}

func (b *hostBlock) bytes() []byte { return b.hb.b }

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

// newBlockReader starts reading blocks of req's source into the nbuf
// buffers given to its free channel.
func newBlockReader(req *engine.LoadRequest, block, readers, nbuf int) *blockReader {
	r := &blockReader{src: req.Source, size: req.Size, block: block, readers: readers,
		free: make(chan *hostBlock, nbuf), ready: make(chan *hostBlock, nbuf)}
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
	data       []byte // the bytes to load
	whole      []byte // the mapping, from a page boundary
	unregister func() error
}

// mapSource maps and registers the bytes req.Source would read: a
// FileSection's range, or a regular file's size bytes from its current
// offset. ok is false when the source is neither or cannot be mapped, or
// when its bytes are more than a quarter of the host's memory:
// registering pins them all at once, where pread streams.
func mapSource(dev *cuda.Device, req *engine.LoadRequest) (*mapping, bool) {
	var f *os.File
	var off, n int64
	switch s := req.Source.(type) {
	case *engine.FileSection:
		if req.Size != s.N {
			return nil, false
		}
		f, off, n = s.File, s.Off, s.N
	case *os.File:
		cur, err := s.Seek(0, io.SeekCurrent)
		if err != nil {
			return nil, false
		}
		f, off, n = s, cur, req.Size
	default:
		return nil, false
	}
	if n <= 0 {
		return nil, false
	}
	var si syscall.Sysinfo_t
	if err := syscall.Sysinfo(&si); err != nil || n > int64(si.Totalram)*int64(si.Unit)/4 {
		return nil, false
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() || st.Size() < off+n {
		return nil, false
	}
	page := int64(os.Getpagesize())
	start := off / page * page
	whole, err := syscall.Mmap(int(f.Fd()), start, int(off+n-start), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, false
	}
	unreg, err := dev.RegisterHost(whole, true)
	if err != nil {
		_ = syscall.Munmap(whole)
		return nil, false
	}
	if _, ok := req.Source.(*os.File); ok {
		// leave the file past what was read, as reading it would
		if _, err := f.Seek(off+n, io.SeekStart); err != nil {
			_ = unreg()
			_ = syscall.Munmap(whole)
			return nil, false
		}
	}
	return &mapping{data: whole[off-start:], whole: whole, unregister: unreg}, true
}

func (m *mapping) close() {
	_ = m.unregister()
	_ = syscall.Munmap(m.whole)
}

// guardFaults runs fn, turning a memory fault in it (a read of a mapped
// file past its end, after the file shrank) into an I/O error. Only the
// calling goroutine is guarded.
func guardFaults(fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(interface{ Addr() uintptr }); !ok {
				panic(r)
			}
			err = &engine.Error{Code: engine.CodeIOError, Message: fmt.Sprintf("could not read CSV input: a memory fault at %#x reading the mapped file", r.(interface{ Addr() uintptr }).Addr()),
				Hint: "The file may have shrunk while it was being loaded."}
		}
	}()
	return fn()
}
