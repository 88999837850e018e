package cuda

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"reflect"
	"runtime"
	"sync"
	"unsafe"
)

// The kernels: cuda/X.ptx and cuda/X.sass.gz are built from cuda/X.cu by
// `make ptx` and committed; the PTX's first line and the fatbin's gzip
// comment record the source's SHA-256 (see ptx_test.go, sass_test.go).
//
//go:embed *.ptx *.sass.gz
var ptxFS embed.FS

// PTX returns the embedded cuda/<name>.ptx, e.g. PTX("csv").
func PTX(name string) ([]byte, error) {
	b, err := fs.ReadFile(ptxFS, name+".ptx")
	if err != nil {
		return nil, fmt.Errorf("cuda: no embedded PTX %q: %w", name, err)
	}
	return b, nil
}

// SASS returns the embedded cuda/<name>.sass.gz uncompressed: a fatbin of
// machine code for the GPU architectures `make ptx` builds (SASS_ARCHS).
func SASS(name string) ([]byte, error) {
	f, err := ptxFS.Open(name + ".sass.gz")
	if err != nil {
		return nil, fmt.Errorf("cuda: no embedded machine code %q: %w", name, err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("cuda: %s.sass.gz: %w", name, err)
	}
	return io.ReadAll(zr)
}

// LoadKernels loads the embedded kernel module name (cuda/<name>.cu):
// from its shipped machine code when the fatbin holds this GPU's
// architecture, which needs no compiling, else from its PTX, which the
// driver JIT-compiles (and caches on disk, where its cache is on). jit
// reports which it was.
func (d *Device) LoadKernels(name string) (m *Module, jit bool, err error) {
	d.kernelsMu.Lock()
	defer d.kernelsMu.Unlock()
	if l, ok := d.kernels[name]; ok {
		return l.m, l.jit, nil
	}
	m, jit, err = d.loadKernels(name)
	if err != nil {
		return nil, jit, err
	}
	if d.kernels == nil {
		d.kernels = map[string]loaded{}
	}
	d.kernels[name] = loaded{m: m, jit: jit}
	return m, jit, nil
}

func (d *Device) loadKernels(name string) (m *Module, jit bool, err error) {
	if !d.opts.JITOnly {
		if bin, err := SASS(name); err == nil {
			m, err := d.LoadModule(bin)
			if err == nil {
				return m, false, nil
			}
			var e *Error
			if !errors.As(err, &e) || e.Code != resNoBinaryForGPU && e.Code != resInvalidImage {
				return nil, false, err
			}
		}
	}
	ptx, err := PTX(name)
	if err != nil {
		return nil, true, err
	}
	m, err = d.LoadModule(ptx)
	return m, true, err
}

// Module is a loaded (JIT-compiled) PTX module.
type Module struct {
	dev   *Device
	h     uintptr
	funcs map[string]*Function // by the holder of Device.call only
}

// Function is a kernel of a module.
type Function struct {
	mod  *Module
	h    uintptr
	name string
}

// Name returns the kernel's name.
func (f *Function) Name() string { return f.name }

// LoadModule JIT-compiles PTX for the device (cuModuleLoadDataEx), or
// loads a fatbin or cubin image as it is. Modules are cached per device
// by content, so loading the same image again is cheap;
// they live until the device is closed. A compile failure is an *Error whose
// Log holds the compiler's message.
func (d *Device) LoadModule(ptx []byte) (*Module, error) {
	key := sha256.Sum256(ptx)
	image := make([]byte, len(ptx)+1) // NUL-terminated for the driver
	copy(image, ptx)
	var m *Module
	err := d.do(func() error {
		if c, ok := d.modules[key]; ok {
			m = c
			return nil
		}
		h, err := d.loadData(image)
		if err != nil {
			return err
		}
		m = &Module{dev: d, h: h, funcs: map[string]*Function{}}
		d.modules[key] = m
		return nil
	})
	return m, err
}

// loadData calls cuModuleLoadDataEx with error and info log buffers, so a
// JIT failure reports what the compiler said.
func (d *Device) loadData(image []byte) (uintptr, error) {
	errLog := make([]byte, jitLogBytes)
	infoLog := make([]byte, jitLogBytes)
	opts := []int32{jitErrorLogBuffer, jitErrorLogBufferSize, jitInfoLogBuffer, jitInfoLogBufferSize}
	// Option values are void*; sizes are passed as the pointer's value.
	vals := []uintptr{
		uintptr(unsafe.Pointer(&errLog[0])), uintptr(len(errLog)),
		uintptr(unsafe.Pointer(&infoLog[0])), uintptr(len(infoLog)),
	}
	var h uintptr
	res := d.lib.cuModuleLoadDataEx(&h, unsafe.Pointer(&image[0]), uint32(len(opts)), &opts[0], &vals[0])
	runtime.KeepAlive(errLog)
	runtime.KeepAlive(infoLog)
	runtime.KeepAlive(image)
	if err := d.lib.check("cuModuleLoadDataEx", res); err != nil {
		e := err.(*Error)
		e.Log = string(bytes.TrimRight(errLog[:clen(errLog)], "\n"))
		return 0, e
	}
	return h, nil
}

// clen is the length of a NUL-terminated string in b.
func clen(b []byte) int {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		return i
	}
	return len(b)
}

// Function looks up an extern "C" __global__ function of the module.
func (m *Module) Function(name string) (*Function, error) {
	var f *Function
	err := m.dev.do(func() error {
		if c, ok := m.funcs[name]; ok {
			f = c
			return nil
		}
		cname := append([]byte(name), 0)
		var h uintptr
		if err := m.dev.lib.check("cuModuleGetFunction", m.dev.lib.cuModuleGetFunction(&h, m.h, &cname[0])); err != nil {
			return fmt.Errorf("kernel %q: %w", name, err)
		}
		f = &Function{mod: m, h: h, name: name}
		m.funcs[name] = f
		return nil
	})
	return f, err
}

// Dim3 is a grid or block shape.
type Dim3 struct{ X, Y, Z uint32 }

// Launch runs f on stream s (nil: the default stream) with the given grid,
// block and dynamic shared memory. args may be DevPtr, int32, uint32, int64,
// uint64, float32, float64, or a pointer to a plain struct (fixed-size
// numbers, bools, arrays and structs of them; no Go pointers), which the
// kernel receives by value: its Go layout must match the C struct. The
// launch's own result is checked; a kernel's execution error shows at the
// next sync. Launch does not wait for the kernel.
func (d *Device) Launch(f *Function, grid, block Dim3, sharedBytes uint32, s *Stream, args ...any) error {
	if f == nil {
		return fmt.Errorf("cuda: Launch of a nil function")
	}
	if f.mod.dev != d {
		return fmt.Errorf("cuda: Launch of %s on a device it was not loaded on", f.name)
	}
	for _, g := range [...]Dim3{grid, block} {
		if g.X == 0 || g.Y == 0 || g.Z == 0 {
			return fmt.Errorf("cuda: Launch of %s with an empty grid or block %v %v (every dimension must be at least 1)", f.name, grid, block)
		}
	}
	params, err := packArgs(args)
	if err != nil {
		return fmt.Errorf("cuda: Launch of %s: %w", f.name, err)
	}
	return d.do(func() error {
		var pp *unsafe.Pointer
		if len(params.ptrs) > 0 {
			pp = &params.ptrs[0]
		}
		res := d.lib.cuLaunchKernel(f.h, grid.X, grid.Y, grid.Z, block.X, block.Y, block.Z, sharedBytes, s.handle(), pp, nil)
		runtime.KeepAlive(params)
		if err := d.lib.check("cuLaunchKernel", res); err != nil {
			return fmt.Errorf("kernel %s: %w", f.name, err)
		}
		return nil
	})
}

// kernelParams is cuLaunchKernel's parameter array: ptrs[i] points to a copy
// of argument i, in slab (8-byte aligned) or, for a struct, in its own
// 8-byte aligned block. Both stay reachable through this value until the
// launch returns.
type kernelParams struct {
	ptrs []unsafe.Pointer
	slab []uint64
	big  [][]uint64
}

func packArgs(args []any) (*kernelParams, error) {
	p := &kernelParams{ptrs: make([]unsafe.Pointer, len(args)), slab: make([]uint64, len(args))}
	for i, a := range args {
		slot := unsafe.Pointer(&p.slab[i])
		switch v := a.(type) {
		case DevPtr:
			*(*uint64)(slot) = uint64(v)
		case int32:
			*(*int32)(slot) = v
		case uint32:
			*(*uint32)(slot) = v
		case int64:
			*(*int64)(slot) = v
		case uint64:
			*(*uint64)(slot) = v
		case float32:
			*(*float32)(slot) = v
		case float64:
			*(*float64)(slot) = v
		default:
			rv := reflect.ValueOf(a)
			if rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Elem().Kind() != reflect.Struct {
				return nil, fmt.Errorf("argument %d: %T is not a kernel argument type (DevPtr, int32, uint32, int64, uint64, float32, float64, or a pointer to a plain struct)", i, a)
			}
			t := rv.Elem().Type()
			if err := plainStruct(t); err != nil {
				return nil, fmt.Errorf("argument %d: %w", i, err)
			}
			n := int(t.Size())
			blk := make([]uint64, (n+7)/8+1)
			copy(unsafe.Slice((*byte)(unsafe.Pointer(&blk[0])), n), unsafe.Slice((*byte)(rv.UnsafePointer()), n))
			p.big = append(p.big, blk)
			slot = unsafe.Pointer(&blk[0])
		}
		p.ptrs[i] = slot
	}
	return p, nil
}

var plainTypes sync.Map // reflect.Type → error (nil when plain)

// plainStruct checks that t holds only fixed-size numbers and bools (in
// arrays and nested structs too), so its bytes mean the same to the kernel.
func plainStruct(t reflect.Type) error {
	if v, ok := plainTypes.Load(t); ok {
		if v == nil {
			return nil
		}
		return v.(error)
	}
	err := checkPlain(t, t.String())
	if err == nil {
		plainTypes.Store(t, nil)
	} else {
		plainTypes.Store(t, err)
	}
	return err
}

func checkPlain(t reflect.Type, path string) error {
	switch t.Kind() {
	case reflect.Bool, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return nil
	case reflect.Array:
		return checkPlain(t.Elem(), path+"[]")
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			fd := t.Field(i)
			if err := checkPlain(fd.Type, path+"."+fd.Name); err != nil {
				return err
			}
		}
		return nil
	default:
		return fmt.Errorf("%s is %s: a kernel struct holds only fixed-size numbers, bools, arrays and structs of them", path, t)
	}
}
