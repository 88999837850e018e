package cuda

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

func TestErrorString(t *testing.T) {
	var l *lib // no driver: names come from the fallback table
	for _, c := range []struct {
		op   string
		res  int32
		want string
	}{
		{"cuMemAlloc_v2", resOutOfMemory, "cuMemAlloc_v2: CUDA_ERROR_OUT_OF_MEMORY (2)"},
		{"cuInit", resNoDevice, "cuInit: CUDA_ERROR_NO_DEVICE (100)"},
		{"cuLaunchKernel", 9999, "cuLaunchKernel: CUDA_ERROR_9999 (9999)"},
	} {
		err := l.check(c.op, c.res)
		if err == nil || err.Error() != c.want {
			t.Errorf("check(%s, %d) = %v, want %s", c.op, c.res, err, c.want)
		}
	}
	if err := l.check("cuInit", resSuccess); err != nil {
		t.Errorf("success gave %v", err)
	}
	e := &Error{Op: "cuModuleLoadDataEx", Code: resInvalidPTX, Name: "CUDA_ERROR_INVALID_PTX", Log: "ptxas fatal"}
	if got := e.Error(); got != "cuModuleLoadDataEx: CUDA_ERROR_INVALID_PTX (218): ptxas fatal" {
		t.Errorf("with log: %s", got)
	}
}

func TestIsOutOfMemory(t *testing.T) {
	var l *lib
	oom := fmt.Errorf("loading: %w", l.check("cuMemAlloc_v2", resOutOfMemory))
	if !IsOutOfMemory(oom) {
		t.Error("wrapped OOM not recognised")
	}
	if IsOutOfMemory(l.check("cuMemAlloc_v2", resInvalidValue)) || IsOutOfMemory(errors.New("x")) || IsOutOfMemory(nil) {
		t.Error("non-OOM recognised as OOM")
	}
}

func TestBlockSize(t *testing.T) {
	for _, c := range []struct{ n, want int64 }{
		{1, 256}, {256, 256}, {257, 512}, {1000, 1024}, {1 << 20, 1 << 20},
		{1<<20 + 1, 2 << 20}, {2 << 20, 2 << 20}, {5 << 20, 6 << 20}, {1 << 30, 1 << 30},
	} {
		if got := blockSize(c.n); got != c.want {
			t.Errorf("blockSize(%d) = %d, want %d", c.n, got, c.want)
		}
	}
}

// TestOOMError checks the 53200 error's wording without a device: the pool
// only reads its counters to build it.
func TestOOMError(t *testing.T) {
	d := &Device{props: Props{Name: "Test GPU", TotalMem: 80 << 30}}
	p := newPool(d, Options{})
	p.used = 3<<30 + 512<<20
	p.inUse = map[string]int64{"lineitem": 3 << 30, "": 512 << 20}
	cause := (*lib)(nil).check("cuMemAlloc_v2", resOutOfMemory)
	err := p.oomError("orders", 5<<30, cause)
	if err.Code != engine.CodeOutOfMemory {
		t.Fatalf("code %s", err.Code)
	}
	msg := err.Error()
	for _, want := range []string{"5.0 GiB", `table "orders"`, `table "lineitem" 3.0 GiB`, "query scratch 512 MiB", "3.5 GiB in use", "of 80 GiB on Test GPU"} {
		if !strings.Contains(msg, want) {
			t.Errorf("%q lacks %q", msg, want)
		}
	}
	if !IsOutOfMemory(err) {
		t.Error("53200 error does not wrap the driver's OOM")
	}
	var ee *engine.Error
	if !errors.As(fmt.Errorf("x: %w", err), &ee) || ee.Code != "53200" {
		t.Error("not an *engine.Error through wrapping")
	}

	p.limit = 4 << 30
	if msg := p.oomError("", 1<<30, nil).Error(); !strings.Contains(msg, "limit 4.0 GiB") || !strings.Contains(msg, "for query scratch") {
		t.Errorf("limit message %q", msg)
	}
}
