package loader

import (
	"sync"
	"syscall"
	"unsafe"

	"github.com/gpusql/gpusql/cuda"
)

// Page-locked host memory for the GPU reader's blocks. Pinning runs at
// about 2 GB/s with cuMemAllocHost on an H200 host: slower than the loads
// it feeds, so that the two 320 MB buffers a load pinned took a third of
// a 23 GB load's time on one GPU and half of it on two (docs/performance.md).
// Two things cut it: buffers are kept from load to load (hostPool), and
// they are pinned on transparent huge pages, 512 times fewer pages to
// fault in and lock, unless GPUConfig.DriverPinned asks for the driver's
// cuMemAllocHost (or the kernel gives no huge pages: then the pinning
// costs what the driver's does).

// fullBlock is the pinned buffer of a block of size bytes: room for the
// previous batch's orphan (a longer one grows the buffer), then the block.
func fullBlock(block int) int { return max(block/64, 4096) + block }

// pinnedBuf is page-locked host memory the device copies from.
type pinnedBuf struct {
	b    []byte
	free func() error
}

// hostPool keeps pinned buffers of full-size blocks from load to load, at
// most max of them; buffers of other sizes (small files, long records) are
// pinned and freed by their load. What the pool keeps stays pinned for the
// life of the process.
type hostPool struct {
	size, max int
	huge      bool
	mu        sync.Mutex
	free      []*pinnedBuf
}

// get returns a pinned buffer of n bytes.
func (p *hostPool) get(dev *cuda.Device, n int) (*pinnedBuf, error) {
	if n == p.size {
		p.mu.Lock()
		if k := len(p.free); k > 0 {
			hb := p.free[k-1]
			p.free = p.free[:k-1]
			p.mu.Unlock()
			return hb, nil
		}
		p.mu.Unlock()
	}
	if p.huge && n >= hugePage { // a small file's buffer: the driver's
		if hb, err := pinHuge(dev, n); err == nil {
			return hb, nil
		}
		// no huge pages to be had: the driver's own allocation
	}
	return pinDriver(dev, n)
}

// put gives hb back: kept for the next load if it has the pool's size and
// the pool has room, freed otherwise.
func (p *hostPool) put(hb *pinnedBuf) {
	if len(hb.b) == p.size {
		p.mu.Lock()
		if len(p.free) < p.max {
			p.free = append(p.free, hb)
			p.mu.Unlock()
			return
		}
		p.mu.Unlock()
	}
	_ = hb.free()
}

// pinDriver allocates n pinned bytes with cuMemAllocHost.
func pinDriver(dev *cuda.Device, n int) (*pinnedBuf, error) {
	hb, err := dev.AllocHost(n)
	if err != nil {
		return nil, err
	}
	return &pinnedBuf{b: hb.Bytes(), free: hb.Free}, nil
}

const hugePage = 2 << 20

// pinHuge maps n bytes of anonymous memory aligned to 2 MiB, asks for
// transparent huge pages (madvise; the kernel may still give small ones),
// faults them in and registers them with the driver.
func pinHuge(dev *cuda.Device, n int) (*pinnedBuf, error) {
	size := (n + hugePage - 1) / hugePage * hugePage
	m, err := syscall.Mmap(-1, 0, size+hugePage, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return nil, err
	}
	off := 0
	if a := int(uintptrOf(m) % hugePage); a != 0 {
		off = hugePage - a
	}
	b := m[off : off+size]
	_ = syscall.Madvise(b, 14) // MADV_HUGEPAGE
	for i := 0; i < len(b); i += 4096 {
		b[i] = 0 // fault in (one fault a huge page where the kernel gave one)
	}
	unreg, err := dev.RegisterHost(b, false)
	if err != nil {
		_ = syscall.Munmap(m)
		return nil, err
	}
	return &pinnedBuf{b: b[:n], free: func() error {
		err := unreg()
		if e := syscall.Munmap(m); err == nil {
			err = e
		}
		return err
	}}, nil
}

func uintptrOf(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }
