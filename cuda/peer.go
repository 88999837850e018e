package cuda

import "fmt"

// Copies between the memory of two devices (the parts of a table spread
// over several GPUs). With peer access enabled they go over NVLink or
// PCIe peer-to-peer; without it the driver stages them through the host.

// EnablePeer lets kernels and copies of d's context reach from's memory
// directly, where the hardware allows it. It reports whether direct
// access is on; false is not an error (copies still work, staged).
func (d *Device) EnablePeer(from *Device) (bool, error) {
	if from == d || from.dev == d.dev {
		return true, nil
	}
	var can int32
	if err := d.lib.check("cuDeviceCanAccessPeer", d.lib.cuDeviceCanAccessPeer(&can, d.dev, from.dev)); err != nil {
		return false, err
	}
	if can == 0 {
		return false, nil
	}
	err := d.do(func() error {
		if res := d.lib.cuCtxEnablePeerAccess(from.ctx, 0); res != resSuccess && res != resPeerEnabled {
			return d.lib.check("cuCtxEnablePeerAccess", res)
		}
		return nil
	})
	return err == nil, err
}

// CopyFromPeer copies n bytes at src in from's memory to dst in d's, and
// waits for the copy.
func (d *Device) CopyFromPeer(dst DevPtr, from *Device, src DevPtr, n int64) error {
	if n < 0 {
		return fmt.Errorf("cuda: CopyFromPeer of negative size %d", n)
	}
	if n == 0 {
		return nil
	}
	if from == d {
		return d.CopyDtoD(dst, src, n, nil)
	}
	return d.do(func() error {
		if err := d.lib.check("cuMemcpyPeerAsync", d.lib.cuMemcpyPeerAsync(uint64(dst), d.ctx, uint64(src), from.ctx, uint64(n), 0)); err != nil {
			return err
		}
		return d.waitDefault(nil)
	})
}

// SameDevice reports whether d and o are the same GPU.
func (d *Device) SameDevice(o *Device) bool { return d == o || d.dev == o.dev }

// Count is the number of CUDA devices present; the error wraps
// ErrNoDriver where there is no driver.
func Count() (int, error) {
	l, err := load()
	if err != nil {
		return 0, err
	}
	if res := l.cuInit(0); res != resSuccess {
		if res == resNoDevice {
			return 0, nil
		}
		return 0, l.check("cuInit", res)
	}
	var n int32
	if err := l.check("cuDeviceGetCount", l.cuDeviceGetCount(&n)); err != nil {
		return 0, err
	}
	return int(n), nil
}

// DriverPresent reports whether libcuda can be loaded; it does not start
// the driver (cuInit), so settings read from the environment at start
// can still be made.
func DriverPresent() bool {
	_, err := load()
	return err == nil
}
