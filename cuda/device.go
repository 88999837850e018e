package cuda

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
)

// ErrClosed is returned by calls on a Device after Close.
var ErrClosed = errors.New("cuda: device is closed")

// Props describes a device, read once when it is opened.
type Props struct {
	Name               string
	Major, Minor       int // compute capability
	SMs                int // multiprocessors
	TotalMem           int64
	MemClockKHz        int // 0 where the driver no longer reports it
	BusWidthBits       int
	L2Bytes            int
	MaxThreadsPerBlock int
	SharedPerBlock     int
}

// Options configure a Device; the zero value is the default.
type Options struct {
	// MemLimit caps the device memory the pool holds (in use plus cached);
	// 0 means only the device's own size limits it.
	MemLimit int64
	// CacheBytes caps the freed blocks the pool keeps for reuse; 0 means
	// an eighth of the device's memory and at least DefaultCacheBytes, a
	// negative value disables caching.
	CacheBytes int64
	// JITOnly loads the embedded kernels from their PTX always, never from
	// the shipped machine code (for measuring the JIT, and tests).
	JITOnly bool
}

// DefaultCacheBytes is the least the pool's cache of freed blocks holds
// when Options leave it 0.
const DefaultCacheBytes = 1 << 30

// Device is one GPU with its primary context. Driver calls run one at a
// time: on a worker goroutine locked to its OS thread, which made the
// context current once, or, inside Run, on the caller's own locked thread.
// Methods are safe for concurrent use.
type Device struct {
	ordinal int
	lib     *lib
	dev     int32
	ctx     uintptr
	props   Props
	opts    Options

	mu     sync.RWMutex // guards closed against sends on jobs
	closed bool
	jobs   chan job
	done   chan struct{} // closed when the worker has exited
	tid    atomic.Int64  // OS thread of the worker while it runs, else 0

	// call is held by the thread running a driver call (or a Do's f): the
	// worker for each job, a Run caller for each of its calls. holder is
	// that thread, so calls nested in f run directly.
	call   sync.Mutex
	holder atomic.Int64
	// runners are the OS threads inside Run with the context current.
	runnersMu sync.Mutex
	runners   map[int64]int

	// Owned by whichever thread holds call.
	pool    *pool
	modules map[[32]byte]*Module

	kernelsMu sync.Mutex
	kernels   map[string]loaded // LoadKernels' modules by name
}

// loaded is an embedded kernel module once loaded.
type loaded struct {
	m   *Module
	jit bool
}

type job struct {
	f   func() error
	res chan error
}

// Open opens device ordinal with default Options.
func Open(ordinal int) (*Device, error) { return OpenWith(ordinal, Options{}) }

// OpenWith opens device ordinal: it loads the driver, retains the device's
// primary context and starts the worker goroutine. The error wraps
// ErrNoDriver or ErrNoDevice where there is no GPU to use.
func OpenWith(ordinal int, opts Options) (*Device, error) {
	if opts.MemLimit < 0 {
		return nil, fmt.Errorf("cuda: negative MemLimit %d", opts.MemLimit)
	}
	l, err := load()
	if err != nil {
		return nil, err
	}
	d := &Device{
		ordinal: ordinal,
		opts:    opts,
		lib:     l,
		jobs:    make(chan job),
		done:    make(chan struct{}),
		modules: make(map[[32]byte]*Module),
	}
	d.pool = newPool(d, opts)
	started := make(chan error, 1)
	go d.worker(started)
	if err := <-started; err != nil {
		return nil, err
	}
	return d, nil
}

// worker owns the OS thread on which the context is current.
func (d *Device) worker(started chan<- error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	// Forget the thread before unlocking it: other goroutines may run on it
	// afterwards, and onWorker must not take them for the worker.
	defer d.tid.Store(0)
	defer close(d.done)
	if err := d.init(); err != nil {
		started <- err
		return
	}
	d.tid.Store(int64(gettid()))
	started <- nil
	// The worker parks between jobs. Polling the channel for 30 µs before
	// parking was tried and doubled the round trip on an H200 host (11 to
	// 22 µs, BenchmarkDo): the caller woken by the result lands on the
	// worker's P, which the polling worker keeps busy.
	tid := int64(gettid())
	for j := range d.jobs {
		d.call.Lock()
		d.holder.Store(tid)
		err := d.run(j.f)
		d.holder.Store(0)
		d.call.Unlock()
		j.res <- err
	}
	d.shutdown()
}

// run calls f, turning a panic into an error so the worker survives it.
func (d *Device) run(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("cuda: panic on the device worker: %v", r)
		}
	}()
	return f()
}

func (d *Device) init() error {
	l := d.lib
	if res := l.cuInit(0); res != resSuccess {
		if res == resNoDevice {
			return fmt.Errorf("%w: %v", ErrNoDevice, l.check("cuInit", res))
		}
		return l.check("cuInit", res)
	}
	var n int32
	if err := l.check("cuDeviceGetCount", l.cuDeviceGetCount(&n)); err != nil {
		return err
	}
	if d.ordinal < 0 || d.ordinal >= int(n) {
		return fmt.Errorf("%w: ordinal %d, %d device(s) present", ErrNoDevice, d.ordinal, n)
	}
	if err := l.check("cuDeviceGet", l.cuDeviceGet(&d.dev, int32(d.ordinal))); err != nil {
		return err
	}
	if err := l.check("cuDevicePrimaryCtxRetain", l.cuDevicePrimaryCtxRetain(&d.ctx, d.dev)); err != nil {
		return err
	}
	if err := l.check("cuCtxSetCurrent", l.cuCtxSetCurrent(d.ctx)); err != nil {
		l.cuDevicePrimaryCtxRelease(d.dev)
		return err
	}
	if err := d.readProps(); err != nil {
		l.cuDevicePrimaryCtxRelease(d.dev)
		return err
	}
	return nil
}

func (d *Device) readProps() error {
	l := d.lib
	var name [256]byte
	if err := l.check("cuDeviceGetName", l.cuDeviceGetName(&name[0], int32(len(name)), d.dev)); err != nil {
		return err
	}
	p := Props{Name: cString(&name[0])}
	var total uint64
	if err := l.check("cuDeviceTotalMem_v2", l.cuDeviceTotalMem_v2(&total, d.dev)); err != nil {
		return err
	}
	p.TotalMem = int64(total)
	attrs := []struct {
		attr     int32
		dst      *int
		optional bool
	}{
		{attrMajor, &p.Major, false},
		{attrMinor, &p.Minor, false},
		{attrSMs, &p.SMs, false},
		{attrMaxThreadsPerBlock, &p.MaxThreadsPerBlock, false},
		{attrSharedPerBlock, &p.SharedPerBlock, false},
		{attrL2Bytes, &p.L2Bytes, false},
		{attrBusWidthBits, &p.BusWidthBits, true},
		{attrMemClockKHz, &p.MemClockKHz, true},
	}
	for _, a := range attrs {
		var v int32
		if err := l.check("cuDeviceGetAttribute", l.cuDeviceGetAttribute(&v, a.attr, d.dev)); err != nil {
			if a.optional {
				continue
			}
			return err
		}
		*a.dst = int(v)
	}
	d.props = p
	return nil
}

// shutdown runs on the worker after the job channel is closed.
func (d *Device) shutdown() {
	for _, m := range d.modules {
		d.lib.cuModuleUnload(m.h)
	}
	d.modules = nil
	d.pool.releaseAll()
	d.lib.cuCtxSynchronize()
	d.lib.cuDevicePrimaryCtxRelease(d.dev)
}

// Close waits for the calls in flight, unloads modules, frees every device
// block of the pool (buffers not yet freed become invalid) and releases the
// primary context. It must not be called from inside Do.
func (d *Device) Close() error {
	if d.onWorker() {
		return errors.New("cuda: Device.Close called from the device worker")
	}
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return nil
	}
	d.closed = true
	close(d.jobs)
	d.mu.Unlock()
	<-d.done
	return nil
}

// Props returns the device's properties.
func (d *Device) Props() Props { return d.props }

// Ordinal returns the device's ordinal as given to Open.
func (d *Device) Ordinal() int { return d.ordinal }

// Do runs f on the device's worker goroutine, where the context is current,
// and returns its error. Device methods called inside f run directly (the
// worker does not wait for itself), so f can issue several calls in a row
// with nothing from other goroutines between them, e.g. for timing.
func (d *Device) Do(f func() error) error { return d.do(f) }

func (d *Device) do(f func() error) error {
	tid := int64(gettid())
	if tid > 0 && (tid == d.tid.Load() || tid == d.holder.Load()) {
		return f() // on the worker, or nested in a call this thread runs
	}
	if d.isRunner(tid) {
		d.mu.RLock()
		defer d.mu.RUnlock()
		if d.closed {
			return ErrClosed
		}
		d.call.Lock()
		d.holder.Store(tid)
		defer func() {
			d.holder.Store(0)
			d.call.Unlock()
		}()
		return d.run(f)
	}
	d.mu.RLock()
	if d.closed {
		d.mu.RUnlock()
		return ErrClosed
	}
	j := job{f: f, res: make(chan error, 1)}
	d.jobs <- j
	d.mu.RUnlock()
	return <-j.res
}

// Run calls f on the calling goroutine with its OS thread locked and the
// context current on it, so that the device calls f makes run on this
// thread instead of being handed to the worker goroutine, a round trip of
// 11 to 18 µs each (BenchmarkDo). A query issues hundreds of small calls;
// run this way, their round trips no longer add up to milliseconds.
// Calls still run one at a time with every other call on the Device, as
// on the worker, and a Do inside f keeps its calls together.
//
// Where the thread cannot take the context (it serves another Device's
// Run, or the system has no thread ids) f runs as it is and its calls go
// through the worker.
func (d *Device) Run(f func() error) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	tid := int64(gettid())
	if tid <= 0 || d.onWorker() || d.isRunner(tid) {
		return f()
	}
	var cur uintptr
	if err := d.lib.check("cuCtxGetCurrent", d.lib.cuCtxGetCurrent(&cur)); err != nil {
		return err
	}
	if cur != 0 && cur != d.ctx {
		return f()
	}
	if cur == 0 {
		if err := d.lib.check("cuCtxSetCurrent", d.lib.cuCtxSetCurrent(d.ctx)); err != nil {
			return err
		}
		defer d.lib.cuCtxSetCurrent(0)
	}
	d.runnersMu.Lock()
	if d.runners == nil {
		d.runners = make(map[int64]int)
	}
	d.runners[tid]++
	d.runnersMu.Unlock()
	defer func() {
		d.runnersMu.Lock()
		if d.runners[tid]--; d.runners[tid] == 0 {
			delete(d.runners, tid)
		}
		d.runnersMu.Unlock()
	}()
	return f()
}

// isRunner reports whether thread tid is inside Run.
func (d *Device) isRunner(tid int64) bool {
	if tid <= 0 {
		return false
	}
	d.runnersMu.Lock()
	defer d.runnersMu.Unlock()
	return d.runners[tid] > 0
}

// onWorker reports whether the caller is the worker goroutine: the worker is
// locked to its thread, so no other goroutine runs on that thread.
func (d *Device) onWorker() bool {
	tid := d.tid.Load()
	return tid > 0 && int64(gettid()) == tid
}
