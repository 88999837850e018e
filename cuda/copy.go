package cuda

import (
	"fmt"
	"unsafe"
)

// Copies and memsets are issued on stream s. With a nil s they go on the
// default stream and the call waits for them to finish. With a stream they
// are asynchronous: the host memory (pinned or registered for the overlap to
// happen) must stay untouched and reachable until the stream is synced.
// Pageable host memory also works; the driver then stages it, so the call
// returns only once the host side has been read (HtoD) or written (DtoH).

// CopyHtoD copies len(src) bytes from host to device.
func (d *Device) CopyHtoD(dst DevPtr, src []byte, s *Stream) error {
	if len(src) == 0 {
		return nil
	}
	p := unsafe.Pointer(&src[0])
	return d.do(func() error {
		h := s.handle()
		if err := d.lib.check("cuMemcpyHtoDAsync_v2", d.lib.cuMemcpyHtoDAsync_v2(uint64(dst), p, uint64(len(src)), h)); err != nil {
			return err
		}
		return d.waitDefault(s)
	})
}

// CopyDtoH copies len(dst) bytes from device to host.
func (d *Device) CopyDtoH(dst []byte, src DevPtr, s *Stream) error {
	if len(dst) == 0 {
		return nil
	}
	p := unsafe.Pointer(&dst[0])
	return d.do(func() error {
		h := s.handle()
		if err := d.lib.check("cuMemcpyDtoHAsync_v2", d.lib.cuMemcpyDtoHAsync_v2(p, uint64(src), uint64(len(dst)), h)); err != nil {
			return err
		}
		return d.waitDefault(s)
	})
}

// CopyDtoD copies n bytes between device addresses.
func (d *Device) CopyDtoD(dst, src DevPtr, n int64, s *Stream) error {
	if n < 0 {
		return fmt.Errorf("cuda: CopyDtoD of negative size %d", n)
	}
	if n == 0 {
		return nil
	}
	return d.do(func() error {
		if err := d.lib.check("cuMemcpyDtoDAsync_v2", d.lib.cuMemcpyDtoDAsync_v2(uint64(dst), uint64(src), uint64(n), s.handle())); err != nil {
			return err
		}
		return d.waitDefault(s)
	})
}

// Memset8 sets n bytes at dst to v.
func (d *Device) Memset8(dst DevPtr, v byte, n int64, s *Stream) error {
	if n < 0 {
		return fmt.Errorf("cuda: Memset8 of negative size %d", n)
	}
	if n == 0 {
		return nil
	}
	return d.do(func() error {
		if err := d.lib.check("cuMemsetD8Async", d.lib.cuMemsetD8Async(uint64(dst), v, uint64(n), s.handle())); err != nil {
			return err
		}
		return d.waitDefault(s)
	})
}

// Sync waits for all work on the device (cuCtxSynchronize); a kernel's
// execution error shows here or at the next stream sync.
func (d *Device) Sync() error {
	return d.do(func() error { return d.lib.check("cuCtxSynchronize", d.lib.cuCtxSynchronize()) })
}

// waitDefault syncs the default stream when s is nil (the synchronous form).
func (d *Device) waitDefault(s *Stream) error {
	if s != nil {
		return nil
	}
	return d.lib.check("cuStreamSynchronize", d.lib.cuStreamSynchronize(0))
}
