package cuda

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"unsafe"

	"github.com/gpusql/gpusql/engine"
)

// The device tests share one Device (opening the primary context costs about
// a third of a second); TestMain closes it.
var (
	sharedOnce sync.Once
	sharedDev  *Device
	sharedErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if sharedDev != nil {
		if err := sharedDev.Close(); err != nil {
			fmt.Fprintln(os.Stderr, "close:", err)
			code = 1
		}
	}
	os.Exit(code)
}

// device returns the shared device, skipping the test where there is no GPU.
func device(t testing.TB) *Device {
	t.Helper()
	sharedOnce.Do(func() { sharedDev, sharedErr = Open(0) })
	if errors.Is(sharedErr, ErrNoDriver) || errors.Is(sharedErr, ErrNoDevice) {
		t.Skipf("no GPU here: %v", sharedErr)
	}
	if sharedErr != nil {
		t.Fatalf("Open(0): %v", sharedErr)
	}
	return sharedDev
}

func smokeFunc(t testing.TB, d *Device, name string) *Function {
	t.Helper()
	ptx, err := PTX("smoke")
	if err != nil {
		t.Fatal(err)
	}
	m, err := d.LoadModule(ptx)
	if err != nil {
		t.Fatal(err)
	}
	f, err := m.Function(name)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func alloc(t testing.TB, d *Device, owner string, n int64) *Buffer {
	t.Helper()
	b, err := d.Alloc(owner, n)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Free() })
	return b
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func randBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// poison fills device memory with 0xAB so unwritten output shows.
func poison(t testing.TB, d *Device, b *Buffer) {
	t.Helper()
	must(t, d.Memset8(b.Ptr(), 0xAB, b.Size(), nil))
}

func TestDeviceProps(t *testing.T) {
	d := device(t)
	p := d.Props()
	t.Logf("%+v", p)
	if p.Name == "" || p.Major < 7 || p.SMs <= 0 || p.TotalMem <= 0 || p.MaxThreadsPerBlock < 1024 || p.SharedPerBlock <= 0 || p.L2Bytes <= 0 {
		t.Fatalf("implausible props %+v", p)
	}
	free, total, err := d.MemInfo()
	must(t, err)
	if total != p.TotalMem || free <= 0 || free > total {
		t.Fatalf("MemInfo free %d total %d, props total %d", free, total, p.TotalMem)
	}
}

func TestOpenBadOrdinal(t *testing.T) {
	device(t)
	_, err := Open(1 << 20)
	if !errors.Is(err, ErrNoDevice) {
		t.Fatalf("Open(huge) = %v, want ErrNoDevice", err)
	}
}

func TestAllocAccounting(t *testing.T) {
	d := device(t)
	before := d.Usage()
	a, err := d.Alloc("acct_t1", 1000)
	must(t, err)
	b, err := d.Alloc("acct_t1", 3<<20)
	must(t, err)
	c, err := d.Alloc("acct_t2", 5)
	must(t, err)
	z, err := d.Alloc("acct_t2", 0)
	must(t, err)
	if z.Ptr() != 0 || z.Size() != 0 {
		t.Fatalf("zero-size buffer %v %d", z.Ptr(), z.Size())
	}
	if a.Ptr() == 0 || a.Ptr()%256 != 0 || b.Ptr()%256 != 0 || a.Size() != 1000 || b.Size() != 3<<20 {
		t.Fatalf("buffers %x/%d %x/%d", a.Ptr(), a.Size(), b.Ptr(), b.Size())
	}
	u := d.Usage()
	if u["acct_t1"] != 1024+4<<20 || u["acct_t2"] != 256 {
		t.Fatalf("usage %v", u)
	}
	must(t, a.Free())
	must(t, b.Free())
	if err := b.Free(); err == nil {
		t.Fatal("double free succeeded")
	}
	if u := d.Usage(); u["acct_t1"] != 0 || u["acct_t2"] != 256 {
		t.Fatalf("usage after free %v", u)
	}
	if _, ok := d.Usage()["acct_t1"]; ok {
		t.Fatal("owner with nothing in use still listed")
	}
	must(t, c.Free())
	must(t, z.Free())
	// A freed block is reused for the same class.
	a2, err := d.Alloc("acct_t3", 900)
	must(t, err)
	if a2.Ptr() != a.Ptr() {
		t.Logf("block not reused (%x then %x); allowed, but the cache should make it so", a.Ptr(), a2.Ptr())
	}
	must(t, a2.Free())
	if u := d.Usage(); len(u) != len(before) {
		t.Fatalf("usage %v, before %v", u, before)
	}
}

func TestOutOfMemory(t *testing.T) {
	d := device(t)
	free, _, err := d.MemInfo()
	must(t, err)
	_, err = d.Alloc("huge_table", free+(1<<30))
	var ee *engine.Error
	if !errors.As(err, &ee) || ee.Code != engine.CodeOutOfMemory {
		t.Fatalf("Alloc beyond free memory: %v, want 53200", err)
	}
	t.Logf("OOM: %v", err)
	if !strings.Contains(err.Error(), `table "huge_table"`) || !strings.Contains(err.Error(), "GiB") {
		t.Errorf("message %q", err)
	}
	// The device still works after an OOM.
	b := alloc(t, d, "", 1<<20)
	must(t, d.Memset8(b.Ptr(), 1, b.Size(), nil))
}

func TestMemLimit(t *testing.T) {
	device(t)
	d, err := OpenWith(0, Options{MemLimit: 64 << 20})
	must(t, err)
	defer d.Close()
	a, err := d.Alloc("small", 40<<20)
	must(t, err)
	_, err = d.Alloc("big", 30<<20)
	if engine.Code(err) != engine.CodeOutOfMemory || !strings.Contains(err.Error(), "limit 64 MiB") {
		t.Fatalf("over the limit: %v", err)
	}
	must(t, a.Free())
	// The freed 40 MiB block is cached; the limit counts it, so the pool
	// must give it back to fit 60 MiB.
	b, err := d.Alloc("big", 60<<20)
	must(t, err)
	must(t, b.Free())
	if inUse, cached := d.PoolStats(); inUse != 0 || cached > 64<<20 {
		t.Fatalf("pool in use %d cached %d", inUse, cached)
	}
}

func TestCopyRoundTrip(t *testing.T) {
	d := device(t)
	r := rand.New(rand.NewPCG(1, 2))
	pinned, err := d.AllocHost(8 << 20)
	must(t, err)
	defer pinned.Free()
	back, err := d.AllocHost(8 << 20)
	must(t, err)
	defer back.Free()
	s, err := d.NewStream()
	must(t, err)
	defer s.Close()
	for _, n := range []int{1, 7, 4095, 1<<20 + 3, 8 << 20} {
		buf := alloc(t, d, "", int64(n))
		src := pinned.Bytes()[:n]
		copy(src, randBytes(r, n))
		dst := back.Bytes()[:n]
		for i := range dst {
			dst[i] = 0xAB
		}
		// pinned, asynchronous on a stream
		must(t, d.CopyHtoD(buf.Ptr(), src, s))
		must(t, d.CopyDtoH(dst, buf.Ptr(), s))
		must(t, s.Sync())
		if !bytes.Equal(src, dst) {
			t.Fatalf("pinned round trip of %d bytes differs", n)
		}
		// pageable, synchronous on the default stream, through a DtoD copy
		page := randBytes(r, n)
		buf2 := alloc(t, d, "", int64(n))
		poison(t, d, buf2)
		must(t, d.CopyHtoD(buf.Ptr(), page, nil))
		must(t, d.CopyDtoD(buf2.Ptr(), buf.Ptr(), int64(n), nil))
		got := bytes.Repeat([]byte{0xAB}, n)
		must(t, d.CopyDtoH(got, buf2.Ptr(), nil))
		if !bytes.Equal(page, got) {
			t.Fatalf("pageable round trip of %d bytes differs", n)
		}
	}
}

func TestMemset(t *testing.T) {
	d := device(t)
	b := alloc(t, d, "", 10000)
	poison(t, d, b)
	must(t, d.Memset8(b.Ptr()+100, 0x5A, 1000, nil))
	got := make([]byte, 10000)
	must(t, d.CopyDtoH(got, b.Ptr(), nil))
	for i, v := range got {
		want := byte(0xAB)
		if i >= 100 && i < 1100 {
			want = 0x5A
		}
		if v != want {
			t.Fatalf("byte %d = %#x, want %#x", i, v, want)
		}
	}
}

func i64Bytes(v []int64) []byte { return unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), len(v)*8) }

func TestLaunchAddI64(t *testing.T) {
	d := device(t)
	f := smokeFunc(t, d, "add_i64")
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 31, 1000003} {
		a, b := make([]int64, n), make([]int64, n)
		for i := range a {
			a[i], b[i] = int64(r.Uint64()), int64(r.Uint64())
		}
		da, db, dout := alloc(t, d, "", int64(n)*8), alloc(t, d, "", int64(n)*8), alloc(t, d, "", int64(n)*8+8)
		must(t, d.CopyHtoD(da.Ptr(), i64Bytes(a), nil))
		must(t, d.CopyHtoD(db.Ptr(), i64Bytes(b), nil))
		poison(t, d, dout)
		grid := uint32(min((n+255)/256, 4*d.Props().SMs))
		must(t, d.Launch(f, Dim3{grid, 1, 1}, Dim3{256, 1, 1}, 0, nil, da.Ptr(), db.Ptr(), dout.Ptr(), int64(n)))
		must(t, d.Sync())
		out := make([]int64, n+1)
		must(t, d.CopyDtoH(i64Bytes(out), dout.Ptr(), nil))
		for i := 0; i < n; i++ {
			if out[i] != a[i]+b[i] {
				t.Fatalf("n=%d: out[%d] = %d, want %d", n, i, out[i], a[i]+b[i])
			}
		}
		if uint64(out[n]) != 0xABABABABABABABAB {
			t.Fatalf("n=%d: kernel wrote past the end: %#x", n, out[n])
		}
	}
}

func TestLaunchCountByte(t *testing.T) {
	d := device(t)
	f := smokeFunc(t, d, "count_byte")
	r := rand.New(rand.NewPCG(5, 6))
	data := randBytes(r, 10<<20+17)
	want := uint64(bytes.Count(data, []byte{'\n'}))
	dd := alloc(t, d, "", int64(len(data)))
	cnt := alloc(t, d, "", 8)
	must(t, d.CopyHtoD(dd.Ptr(), data, nil))
	must(t, d.Memset8(cnt.Ptr(), 0, 8, nil))
	s, err := d.NewStream()
	must(t, err)
	defer s.Close()
	must(t, d.Launch(f, Dim3{uint32(2 * d.Props().SMs), 1, 1}, Dim3{512, 1, 1}, 0, s, dd.Ptr(), uint64(len(data)), uint32('\n'), cnt.Ptr()))
	must(t, s.Sync())
	var got [8]byte
	must(t, d.CopyDtoH(got[:], cnt.Ptr(), nil))
	if g := binary.LittleEndian.Uint64(got[:]); g != want {
		t.Fatalf("newlines %d, want %d", g, want)
	}
}

func TestLaunchFloats(t *testing.T) {
	d := device(t)
	const n = 1000
	r := rand.New(rand.NewPCG(7, 8))
	x32, x64 := make([]float32, n), make([]float64, n)
	for i := range x32 {
		x32[i], x64[i] = r.Float32()*100-50, r.Float64()*1e6-5e5
	}
	dx32, dy32 := alloc(t, d, "", 4*n), alloc(t, d, "", 4*n)
	dx64, dy64 := alloc(t, d, "", 8*n), alloc(t, d, "", 8*n)
	must(t, d.CopyHtoD(dx32.Ptr(), unsafe.Slice((*byte)(unsafe.Pointer(&x32[0])), 4*n), nil))
	must(t, d.CopyHtoD(dx64.Ptr(), unsafe.Slice((*byte)(unsafe.Pointer(&x64[0])), 8*n), nil))
	poison(t, d, dy32)
	poison(t, d, dy64)
	grid, block := Dim3{(n + 127) / 128, 1, 1}, Dim3{128, 1, 1}
	must(t, d.Launch(smokeFunc(t, d, "affine_f32"), grid, block, 0, nil, float32(1.5), dx32.Ptr(), float32(-2.25), dy32.Ptr(), uint32(n)))
	must(t, d.Launch(smokeFunc(t, d, "affine_f64"), grid, block, 0, nil, float64(-3.125), dx64.Ptr(), float64(1e-3), dy64.Ptr(), int32(n)))
	y32, y64 := make([]float32, n), make([]float64, n)
	must(t, d.CopyDtoH(unsafe.Slice((*byte)(unsafe.Pointer(&y32[0])), 4*n), dy32.Ptr(), nil))
	must(t, d.CopyDtoH(unsafe.Slice((*byte)(unsafe.Pointer(&y64[0])), 8*n), dy64.Ptr(), nil))
	for i := range y32 {
		// The device may fuse a*x+b into one FMA: allow one rounding.
		if w := float32(1.5)*x32[i] - 2.25; math.Abs(float64(y32[i]-w)) > 1e-5*math.Abs(float64(w))+1e-6 {
			t.Fatalf("f32[%d] = %v, want %v", i, y32[i], w)
		}
		if w := -3.125*x64[i] + 1e-3; math.Abs(y64[i]-w) > 1e-12*math.Abs(w)+1e-12 {
			t.Fatalf("f64[%d] = %v, want %v", i, y64[i], w)
		}
	}
}

// TestLaunchStructArg checks a struct passed by value arrives byte for byte
// (the Go and C layouts agree) and that the argument after it is aligned.
func TestLaunchStructArg(t *testing.T) {
	d := device(t)
	f := smokeFunc(t, d, "echo_params")
	in := smokeParams{Flag: 0xC3, N: -1234567890123, K: -77, Scale: 0.5, Bias: math.Pi, Small: [3]uint16{0x1234, 0xfffe, 7}, Ptr: 0xdeadbeefcafe}
	out := alloc(t, d, "", 64)
	poison(t, d, out)
	must(t, d.Launch(f, Dim3{1, 1, 1}, Dim3{32, 1, 1}, 0, nil, &in, out.Ptr(), uint32(0x01020304)))
	got := make([]byte, 64)
	must(t, d.CopyDtoH(got, out.Ptr(), nil))
	var back smokeParams
	copy(unsafe.Slice((*byte)(unsafe.Pointer(&back)), unsafe.Sizeof(back)), got)
	if back != in {
		t.Fatalf("kernel saw %+v, sent %+v", back, in)
	}
	if tail := binary.LittleEndian.Uint32(got[48:]); tail != 0x01020304 {
		t.Fatalf("argument after the struct: %#x", tail)
	}
	if !bytes.Equal(got[52:], bytes.Repeat([]byte{0xAB}, 12)) {
		t.Fatalf("kernel wrote past its output: % x", got[52:])
	}
}

func TestLaunchErrors(t *testing.T) {
	d := device(t)
	f := smokeFunc(t, d, "add_i64")
	var ce *Error
	err := d.Launch(f, Dim3{1, 1, 1}, Dim3{4096, 1, 1}, 0, nil, DevPtr(0), DevPtr(0), DevPtr(0), int64(0))
	if !errors.As(err, &ce) || ce.Op != "cuLaunchKernel" {
		t.Fatalf("block of 4096 threads: %v", err)
	}
	t.Logf("too big a block: %v", err)
	if err := d.Launch(f, Dim3{0, 1, 1}, Dim3{1, 1, 1}, 0, nil); err == nil {
		t.Fatal("empty grid launched")
	}
	ptx, _ := PTX("smoke")
	m, err := d.LoadModule(ptx)
	must(t, err)
	if _, err := m.Function("no_such_kernel"); !errors.As(err, &ce) || ce.Name != "CUDA_ERROR_NOT_FOUND" {
		t.Fatalf("missing kernel: %v", err)
	}
	bad := []byte(".version 7.8\n.target sm_80\n.address_size 64\n.visible .entry broken() { bogus.instruction; }\n")
	_, err = d.LoadModule(bad)
	if !errors.As(err, &ce) || ce.Op != "cuModuleLoadDataEx" || ce.Log == "" {
		t.Fatalf("bad PTX: %v", err)
	}
	t.Logf("bad PTX: %v", err)
	// The device is still usable.
	b := alloc(t, d, "", 8)
	must(t, d.Memset8(b.Ptr(), 0, 8, nil))
}

func TestModuleCache(t *testing.T) {
	d := device(t)
	ptx, _ := PTX("smoke")
	m1, err := d.LoadModule(ptx)
	must(t, err)
	m2, err := d.LoadModule(append([]byte(nil), ptx...))
	must(t, err)
	if m1 != m2 {
		t.Fatal("same PTX loaded twice")
	}
}

func TestEventsTiming(t *testing.T) {
	d := device(t)
	f := smokeFunc(t, d, "count_byte")
	const n = 256 << 20
	data := alloc(t, d, "", n)
	cnt := alloc(t, d, "", 8)
	must(t, d.Memset8(data.Ptr(), '\n', n, nil))
	must(t, d.Memset8(cnt.Ptr(), 0, 8, nil))
	start, err := d.NewEvent()
	must(t, err)
	defer start.Close()
	end, err := d.NewEvent()
	must(t, err)
	defer end.Close()
	s, err := d.NewStream()
	must(t, err)
	defer s.Close()
	// Do keeps the three calls together on the worker.
	must(t, d.Do(func() error {
		if err := start.Record(s); err != nil {
			return err
		}
		if err := d.Launch(f, Dim3{uint32(4 * d.Props().SMs), 1, 1}, Dim3{512, 1, 1}, 0, s, data.Ptr(), uint64(n), uint32('\n'), cnt.Ptr()); err != nil {
			return err
		}
		return end.Record(s)
	}))
	must(t, end.Sync())
	el, err := Elapsed(start, end)
	must(t, err)
	if el <= 0 {
		t.Fatalf("elapsed %v", el)
	}
	var got [8]byte
	must(t, d.CopyDtoH(got[:], cnt.Ptr(), nil))
	if binary.LittleEndian.Uint64(got[:]) != n {
		t.Fatalf("count %d", binary.LittleEndian.Uint64(got[:]))
	}
	t.Logf("count_byte over %d MiB: %v (%.0f GB/s)", n>>20, el, float64(n)/el.Seconds()/1e9)
}

// TestRegisterHostMmap registers a read-only mapping of a file and copies
// from it by DMA, the loader's path for page-cached files.
func TestRegisterHostMmap(t *testing.T) {
	d := device(t)
	r := rand.New(rand.NewPCG(9, 10))
	const n = 16<<20 + 4096*3
	want := randBytes(r, n)
	path := filepath.Join(t.TempDir(), "data.csv")
	must(t, os.WriteFile(path, want, 0o600))
	fh, err := os.Open(path)
	must(t, err)
	defer fh.Close()
	mem, err := syscall.Mmap(int(fh.Fd()), 0, n, syscall.PROT_READ, syscall.MAP_SHARED)
	must(t, err)
	defer syscall.Munmap(mem)
	unregister, err := d.RegisterHost(mem, true)
	must(t, err)
	buf := alloc(t, d, "", n)
	poison(t, d, buf)
	s, err := d.NewStream()
	must(t, err)
	defer s.Close()
	must(t, d.CopyHtoD(buf.Ptr(), mem, s))
	must(t, s.Sync())
	must(t, unregister())
	must(t, unregister()) // a second call does nothing
	got := make([]byte, n)
	must(t, d.CopyDtoH(got, buf.Ptr(), nil))
	if !bytes.Equal(got, want) {
		t.Fatal("copy from registered mmap differs")
	}
}

// TestConcurrent runs independent copy+launch+check pipelines from many
// goroutines, each on its own stream and owner.
func TestConcurrent(t *testing.T) {
	d := device(t)
	f := smokeFunc(t, d, "add_i64")
	inParallel(t, d, func(g int) error { return concurrentWork(d, f, g) })
}

// inParallel runs work(0) ... work(31) at once, then requires no error
// and no bytes left held by their owners.
func inParallel(t *testing.T, d *Device, work func(g int) error) {
	var wg sync.WaitGroup
	errs := make(chan error, 32)
	for g := 0; g < 32; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			errs <- work(g)
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	for o, n := range d.Usage() {
		if strings.HasPrefix(o, "conc_") {
			t.Errorf("owner %s still holds %d bytes", o, n)
		}
	}
}

func concurrentWork(d *Device, f *Function, g int) error {
	r := rand.New(rand.NewPCG(uint64(g), 11))
	owner := fmt.Sprintf("conc_%d", g)
	s, err := d.NewStream()
	if err != nil {
		return err
	}
	defer s.Close()
	for iter := 0; iter < 20; iter++ {
		n := 1 + r.IntN(50000)
		a, b := make([]int64, n), make([]int64, n)
		for i := range a {
			a[i], b[i] = r.Int64(), r.Int64()
		}
		bufs := make([]*Buffer, 3)
		for i := range bufs {
			if bufs[i], err = d.Alloc(owner, int64(n)*8); err != nil {
				return err
			}
		}
		steps := []func() error{
			func() error { return d.CopyHtoD(bufs[0].Ptr(), i64Bytes(a), s) },
			func() error { return d.CopyHtoD(bufs[1].Ptr(), i64Bytes(b), s) },
			func() error { return d.Memset8(bufs[2].Ptr(), 0xAB, int64(n)*8, s) },
			func() error {
				return d.Launch(f, Dim3{uint32((n + 255) / 256), 1, 1}, Dim3{256, 1, 1}, 0, s, bufs[0].Ptr(), bufs[1].Ptr(), bufs[2].Ptr(), int64(n))
			},
		}
		for _, st := range steps {
			if err := st(); err != nil {
				return err
			}
		}
		out := make([]int64, n)
		if err := d.CopyDtoH(i64Bytes(out), bufs[2].Ptr(), s); err != nil {
			return err
		}
		if err := s.Sync(); err != nil {
			return err
		}
		for i := range out {
			if out[i] != a[i]+b[i] {
				return fmt.Errorf("goroutine %d iter %d: out[%d] = %d, want %d", g, iter, i, out[i], a[i]+b[i])
			}
		}
		for _, b := range bufs {
			if err := b.Free(); err != nil {
				return err
			}
		}
	}
	return nil
}

func TestClose(t *testing.T) {
	device(t)
	d, err := Open(0)
	must(t, err)
	b, err := d.Alloc("x", 1<<20)
	must(t, err)
	must(t, d.Close())
	must(t, d.Close()) // idempotent
	if err := b.Free(); !errors.Is(err, ErrClosed) {
		t.Fatalf("Free after Close: %v", err)
	}
	if _, err := d.Alloc("x", 1); !errors.Is(err, ErrClosed) {
		t.Fatalf("Alloc after Close: %v", err)
	}
}

// A large scratch request takes a cached block up to a quarter larger
// instead of a new one from the driver; a table's does not.
func TestPoolReusesLargerScratchBlock(t *testing.T) {
	device(t)
	d, err := OpenWith(0, Options{}) // a pool of its own: nothing cached before
	must(t, err)
	defer d.Close()
	a, err := d.Alloc("", 100<<20)
	must(t, err)
	ptr := a.Ptr()
	must(t, a.Free())
	b, err := d.Alloc("", 90<<20) // a smaller class, within a quarter
	must(t, err)
	if b.Ptr() != ptr {
		t.Fatalf("a 90 MiB scratch request got a new block, not the cached 100 MiB one")
	}
	must(t, d.Memset8(b.Ptr(), 7, b.Size(), nil)) // usable over its size
	must(t, b.Free())
	c, err := d.Alloc("t", 90<<20)
	must(t, err)
	if c.Ptr() == ptr {
		t.Fatalf("a table's 90 MiB column took the cached 100 MiB block")
	}
	must(t, c.Free())
	e, err := d.Alloc("", 60<<20) // more than a quarter smaller: its own block
	must(t, err)
	if e.Ptr() == ptr {
		t.Fatalf("a 60 MiB request took the cached 100 MiB block")
	}
	must(t, e.Free())
	if inUse, _ := d.PoolStats(); inUse != 0 {
		t.Fatalf("pool in use %d after every free", inUse)
	}
}
