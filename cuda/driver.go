// Package cuda binds the CUDA driver API without cgo: libcuda.so.1 is opened
// at run time through purego, so the same gpusql binary builds everywhere and
// runs with or without a GPU. Kernels are PTX (cuda/*.ptx, built from
// cuda/*.cu by `make ptx`) embedded in the binary and JIT-compiled by the
// driver when a module is loaded.
//
// A CUDA context is current per OS thread, so every driver call of a Device
// runs on one goroutine locked to its thread (see Device.Do).
package cuda

import (
	"errors"
	"fmt"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
)

// ErrNoDriver is returned (wrapped with the loader's message) by Open when
// libcuda.so.1 cannot be loaded or lacks a function this binding needs.
var ErrNoDriver = errors.New("cuda: no CUDA driver")

// ErrNoDevice is returned (wrapped) by Open when the driver is loaded but
// there is no device of the asked ordinal.
var ErrNoDevice = errors.New("cuda: no CUDA device")

// Error is a failed driver call: Op is the driver function, Code the
// CUresult, Name its name (CUDA_ERROR_...). Log holds the JIT compiler's
// error log when a module failed to load.
type Error struct {
	Op   string
	Code int
	Name string
	Log  string
}

func (e *Error) Error() string {
	s := fmt.Sprintf("%s: %s (%d)", e.Op, e.Name, e.Code)
	if e.Log != "" {
		s += ": " + e.Log
	}
	return s
}

// CUresult values this package looks at, and the names used when the driver
// cannot be asked (cuGetErrorName needs a loaded driver).
const (
	resSuccess           = 0
	resInvalidValue      = 1
	resOutOfMemory       = 2
	resNotInitialized    = 3
	resNoDevice          = 100
	resInvalidDevice     = 101
	resInvalidPTX        = 218
	resNoBinaryForGPU    = 209
	resInvalidImage      = 200
	resNotFound          = 500
	resNotReady          = 600
	resIllegalAddress    = 700
	resLaunchOutOfRes    = 701
	resLaunchFailed      = 719
	resHostMemRegistered = 712
	resPeerEnabled       = 704 // CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED
)

var fallbackNames = map[int]string{
	resSuccess:           "CUDA_SUCCESS",
	resInvalidValue:      "CUDA_ERROR_INVALID_VALUE",
	resOutOfMemory:       "CUDA_ERROR_OUT_OF_MEMORY",
	resNotInitialized:    "CUDA_ERROR_NOT_INITIALIZED",
	resNoDevice:          "CUDA_ERROR_NO_DEVICE",
	resInvalidDevice:     "CUDA_ERROR_INVALID_DEVICE",
	resInvalidPTX:        "CUDA_ERROR_INVALID_PTX",
	resNotFound:          "CUDA_ERROR_NOT_FOUND",
	resNotReady:          "CUDA_ERROR_NOT_READY",
	resIllegalAddress:    "CUDA_ERROR_ILLEGAL_ADDRESS",
	resLaunchOutOfRes:    "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES",
	resHostMemRegistered: "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED",
	resLaunchFailed:      "CUDA_ERROR_LAUNCH_FAILED",
}

// Device attributes (CUdevice_attribute) read into Props.
const (
	attrMaxThreadsPerBlock = 1
	attrSharedPerBlock     = 8
	attrSMs                = 16
	attrMemClockKHz        = 36
	attrBusWidthBits       = 37
	attrL2Bytes            = 38
	attrMajor              = 75
	attrMinor              = 76
)

// JIT options (CUjit_option) for cuModuleLoadDataEx.
const (
	jitInfoLogBuffer      = 3
	jitInfoLogBufferSize  = 4
	jitErrorLogBuffer     = 5
	jitErrorLogBufferSize = 6
	jitLogVerbose         = 12
	jitLogBytes           = 16 << 10
)

// Flags.
const (
	hostRegisterReadOnly = 0x08 // CU_MEMHOSTREGISTER_READ_ONLY
	streamNonBlocking    = 0x1  // CU_STREAM_NON_BLOCKING
)

// lib is the table of driver functions. Pointers to C memory are
// unsafe.Pointer, device pointers uint64 (CUdeviceptr), handles uintptr.
type lib struct {
	cuInit                    func(flags uint32) int32
	cuDeviceGetCount          func(n *int32) int32
	cuDeviceGet               func(dev *int32, ordinal int32) int32
	cuDeviceGetName           func(name *byte, n int32, dev int32) int32
	cuDeviceGetAttribute      func(v *int32, attr int32, dev int32) int32
	cuDeviceTotalMem_v2       func(bytes *uint64, dev int32) int32
	cuDevicePrimaryCtxRetain  func(ctx *uintptr, dev int32) int32
	cuDevicePrimaryCtxRelease func(dev int32) int32
	cuCtxSetCurrent           func(ctx uintptr) int32
	cuCtxGetCurrent           func(ctx *uintptr) int32
	cuCtxSynchronize          func() int32
	cuMemAlloc_v2             func(p *uint64, n uint64) int32
	cuMemFree_v2              func(p uint64) int32
	cuMemGetInfo_v2           func(free, total *uint64) int32
	cuMemAllocHost_v2         func(p *unsafe.Pointer, n uint64) int32
	cuMemFreeHost             func(p unsafe.Pointer) int32
	cuMemHostRegister_v2      func(p unsafe.Pointer, n uint64, flags uint32) int32
	cuMemHostUnregister       func(p unsafe.Pointer) int32
	cuMemcpyHtoDAsync_v2      func(dst uint64, src unsafe.Pointer, n uint64, s uintptr) int32
	cuMemcpyDtoHAsync_v2      func(dst unsafe.Pointer, src uint64, n uint64, s uintptr) int32
	cuMemcpyDtoDAsync_v2      func(dst, src uint64, n uint64, s uintptr) int32
	cuMemsetD8Async           func(dst uint64, v uint8, n uint64, s uintptr) int32
	cuMemcpyPeerAsync         func(dst uint64, dstCtx uintptr, src uint64, srcCtx uintptr, n uint64, s uintptr) int32
	cuDeviceCanAccessPeer     func(can *int32, dev, peer int32) int32
	cuCtxEnablePeerAccess     func(peer uintptr, flags uint32) int32
	cuStreamCreate            func(s *uintptr, flags uint32) int32
	cuStreamSynchronize       func(s uintptr) int32
	cuStreamDestroy_v2        func(s uintptr) int32
	cuEventCreate             func(e *uintptr, flags uint32) int32
	cuEventRecord             func(e, s uintptr) int32
	cuEventSynchronize        func(e uintptr) int32
	cuEventElapsedTime        func(ms *float32, start, end uintptr) int32
	cuEventDestroy_v2         func(e uintptr) int32
	cuModuleLoadDataEx        func(m *uintptr, image unsafe.Pointer, nopts uint32, opts *int32, vals *uintptr) int32
	cuModuleUnload            func(m uintptr) int32
	cuModuleGetFunction       func(f *uintptr, m uintptr, name *byte) int32
	cuLaunchKernel            func(f uintptr, gx, gy, gz, bx, by, bz, shared uint32, s uintptr, params *unsafe.Pointer, extra *unsafe.Pointer) int32
	cuGetErrorName            func(res int32, name **byte) int32
}

var (
	driverOnce sync.Once
	driver     *lib
	driverErr  error
)

// load opens libcuda.so.1 once per process and resolves every function.
func load() (*lib, error) {
	driverOnce.Do(func() {
		h, err := purego.Dlopen("libcuda.so.1", purego.RTLD_NOW|purego.RTLD_GLOBAL)
		if err != nil {
			driverErr = fmt.Errorf("%w: %v", ErrNoDriver, err)
			return
		}
		l := &lib{}
		syms := []struct {
			fn   any
			name string
		}{
			{&l.cuInit, "cuInit"},
			{&l.cuDeviceGetCount, "cuDeviceGetCount"},
			{&l.cuDeviceGet, "cuDeviceGet"},
			{&l.cuDeviceGetName, "cuDeviceGetName"},
			{&l.cuDeviceGetAttribute, "cuDeviceGetAttribute"},
			{&l.cuDeviceTotalMem_v2, "cuDeviceTotalMem_v2"},
			{&l.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain"},
			{&l.cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2"},
			{&l.cuCtxSetCurrent, "cuCtxSetCurrent"},
			{&l.cuCtxGetCurrent, "cuCtxGetCurrent"},
			{&l.cuCtxSynchronize, "cuCtxSynchronize"},
			{&l.cuMemAlloc_v2, "cuMemAlloc_v2"},
			{&l.cuMemFree_v2, "cuMemFree_v2"},
			{&l.cuMemGetInfo_v2, "cuMemGetInfo_v2"},
			{&l.cuMemAllocHost_v2, "cuMemAllocHost_v2"},
			{&l.cuMemFreeHost, "cuMemFreeHost"},
			{&l.cuMemHostRegister_v2, "cuMemHostRegister_v2"},
			{&l.cuMemHostUnregister, "cuMemHostUnregister"},
			{&l.cuMemcpyHtoDAsync_v2, "cuMemcpyHtoDAsync_v2"},
			{&l.cuMemcpyDtoHAsync_v2, "cuMemcpyDtoHAsync_v2"},
			{&l.cuMemcpyDtoDAsync_v2, "cuMemcpyDtoDAsync_v2"},
			{&l.cuMemsetD8Async, "cuMemsetD8Async"},
			{&l.cuMemcpyPeerAsync, "cuMemcpyPeerAsync"},
			{&l.cuDeviceCanAccessPeer, "cuDeviceCanAccessPeer"},
			{&l.cuCtxEnablePeerAccess, "cuCtxEnablePeerAccess"},
			{&l.cuStreamCreate, "cuStreamCreate"},
			{&l.cuStreamSynchronize, "cuStreamSynchronize"},
			{&l.cuStreamDestroy_v2, "cuStreamDestroy_v2"},
			{&l.cuEventCreate, "cuEventCreate"},
			{&l.cuEventRecord, "cuEventRecord"},
			{&l.cuEventSynchronize, "cuEventSynchronize"},
			{&l.cuEventElapsedTime, "cuEventElapsedTime"},
			{&l.cuEventDestroy_v2, "cuEventDestroy_v2"},
			{&l.cuModuleLoadDataEx, "cuModuleLoadDataEx"},
			{&l.cuModuleUnload, "cuModuleUnload"},
			{&l.cuModuleGetFunction, "cuModuleGetFunction"},
			{&l.cuLaunchKernel, "cuLaunchKernel"},
			{&l.cuGetErrorName, "cuGetErrorName"},
		}
		for _, s := range syms {
			// RegisterLibFunc panics on a missing symbol; look it up first
			// so an old driver is reported as an error.
			if _, err := purego.Dlsym(h, s.name); err != nil {
				driverErr = fmt.Errorf("%w: libcuda.so.1 lacks %s: %v", ErrNoDriver, s.name, err)
				return
			}
			purego.RegisterLibFunc(s.fn, h, s.name)
		}
		driver = l
	})
	return driver, driverErr
}

// check turns a CUresult into nil or an *Error.
func (l *lib) check(op string, res int32) error {
	if res == resSuccess {
		return nil
	}
	return &Error{Op: op, Code: int(res), Name: l.errorName(res)}
}

// errorName asks the driver for a CUresult's name, falling back to a small
// table (and to CUDA_ERROR_<code>) when it cannot.
func (l *lib) errorName(res int32) string {
	if l != nil && l.cuGetErrorName != nil {
		var p *byte
		if l.cuGetErrorName(res, &p) == resSuccess && p != nil {
			return cString(p)
		}
	}
	if n, ok := fallbackNames[int(res)]; ok {
		return n
	}
	return fmt.Sprintf("CUDA_ERROR_%d", res)
}

// cString copies a NUL-terminated C string.
func cString(p *byte) string {
	n := 0
	for *(*byte)(unsafe.Add(unsafe.Pointer(p), n)) != 0 {
		n++
	}
	return string(unsafe.Slice(p, n))
}

// IsOutOfMemory reports whether err is a driver CUDA_ERROR_OUT_OF_MEMORY.
func IsOutOfMemory(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == resOutOfMemory
}
