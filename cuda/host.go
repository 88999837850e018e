package cuda

import (
	"errors"
	"fmt"
	"sync"
	"unsafe"
)

// HostBuffer is page-locked (pinned) host memory: copies from and to it run
// at full PCIe speed and can be asynchronous.
type HostBuffer struct {
	dev  *Device
	p    unsafe.Pointer
	size int
}

// AllocHost allocates size bytes of pinned host memory.
func (d *Device) AllocHost(size int) (*HostBuffer, error) {
	if size <= 0 {
		return nil, fmt.Errorf("cuda: AllocHost of size %d", size)
	}
	h := &HostBuffer{dev: d, size: size}
	err := d.do(func() error {
		return d.lib.check("cuMemAllocHost_v2", d.lib.cuMemAllocHost_v2(&h.p, uint64(size)))
	})
	if err != nil {
		return nil, err
	}
	return h, nil
}

// Bytes returns the buffer's memory; it is valid until Free.
func (h *HostBuffer) Bytes() []byte {
	if h.p == nil {
		return nil
	}
	return unsafe.Slice((*byte)(h.p), h.size)
}

// Free releases the buffer. Freeing it twice is an error.
func (h *HostBuffer) Free() error {
	if h == nil {
		return nil
	}
	return h.dev.do(func() error {
		if h.p == nil {
			return errors.New("cuda: host buffer freed twice")
		}
		err := h.dev.lib.check("cuMemFreeHost", h.dev.lib.cuMemFreeHost(h.p))
		h.p = nil
		return err
	})
}

// RegisterHost page-locks existing host memory (cuMemHostRegister), e.g. an
// mmap'd file, so the device can copy from it by DMA. readOnly tells the
// driver the device will only read it (needed for read-only mappings). The
// memory must stay mapped, and b must stay reachable, until unregister is
// called; calling unregister again does nothing.
func (d *Device) RegisterHost(b []byte, readOnly bool) (unregister func() error, err error) {
	if len(b) == 0 {
		return nil, errors.New("cuda: RegisterHost of an empty range")
	}
	var flags uint32
	if readOnly {
		flags = hostRegisterReadOnly
	}
	p := unsafe.Pointer(&b[0])
	err = d.do(func() error {
		return d.lib.check("cuMemHostRegister_v2", d.lib.cuMemHostRegister_v2(p, uint64(len(b)), flags))
	})
	if err != nil {
		return nil, err
	}
	var once sync.Once
	return func() error {
		var err error
		once.Do(func() {
			err = d.do(func() error {
				return d.lib.check("cuMemHostUnregister", d.lib.cuMemHostUnregister(p))
			})
		})
		return err
	}, nil
}
