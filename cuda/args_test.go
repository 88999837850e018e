package cuda

import (
	"encoding/binary"
	"math"
	"strings"
	"testing"
	"unsafe"
)

// smokeParams mirrors struct SmokeParams in smoke.cu, whose offsets are
// static_asserted there with the same numbers as here.
type smokeParams struct {
	Flag  uint8
	N     int64
	K     int32
	Scale float32
	Bias  float64
	Small [3]uint16
	Ptr   DevPtr
}

func TestSmokeParamsLayout(t *testing.T) {
	var p smokeParams
	for _, c := range []struct {
		name      string
		got, want uintptr
	}{
		{"Flag", unsafe.Offsetof(p.Flag), 0},
		{"N", unsafe.Offsetof(p.N), 8},
		{"K", unsafe.Offsetof(p.K), 16},
		{"Scale", unsafe.Offsetof(p.Scale), 20},
		{"Bias", unsafe.Offsetof(p.Bias), 24},
		{"Small", unsafe.Offsetof(p.Small), 32},
		{"Ptr", unsafe.Offsetof(p.Ptr), 40},
		{"sizeof", unsafe.Sizeof(p), 48},
	} {
		if c.got != c.want {
			t.Errorf("%s at %d, C has %d", c.name, c.got, c.want)
		}
	}
}

// slotBytes reads n bytes at params.ptrs[i].
func slotBytes(p *kernelParams, i, n int) []byte {
	return append([]byte(nil), unsafe.Slice((*byte)(p.ptrs[i]), n)...)
}

func TestPackArgsScalars(t *testing.T) {
	le := binary.LittleEndian
	cases := []struct {
		arg  any
		want []byte
	}{
		{DevPtr(0x1122334455667788), le.AppendUint64(nil, 0x1122334455667788)},
		{int32(-2), le.AppendUint32(nil, 0xfffffffe)},
		{uint32(0xdeadbeef), le.AppendUint32(nil, 0xdeadbeef)},
		{int64(-3), le.AppendUint64(nil, 0xfffffffffffffffd)},
		{uint64(1 << 63), le.AppendUint64(nil, 1<<63)},
		{float32(1.5), le.AppendUint32(nil, math.Float32bits(1.5))},
		{float64(-0.25), le.AppendUint64(nil, math.Float64bits(-0.25))},
	}
	args := make([]any, len(cases))
	for i, c := range cases {
		args[i] = c.arg
	}
	p, err := packArgs(args)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.ptrs) != len(cases) {
		t.Fatalf("%d pointers for %d args", len(p.ptrs), len(cases))
	}
	for i, c := range cases {
		if got := slotBytes(p, i, len(c.want)); string(got) != string(c.want) {
			t.Errorf("arg %d (%T): % x, want % x", i, c.arg, got, c.want)
		}
		if uintptr(p.ptrs[i])%8 != 0 {
			t.Errorf("arg %d not 8-byte aligned", i)
		}
	}
}

func TestPackArgsStruct(t *testing.T) {
	in := smokeParams{Flag: 1, N: -7, K: 42, Scale: 2.5, Bias: -1e300, Small: [3]uint16{1, 0xffff, 3}, Ptr: 0xabcdef}
	p, err := packArgs([]any{&in, uint32(9)})
	if err != nil {
		t.Fatal(err)
	}
	want := unsafe.Slice((*byte)(unsafe.Pointer(&in)), unsafe.Sizeof(in))
	if got := slotBytes(p, 0, len(want)); string(got) != string(want) {
		t.Fatalf("struct bytes % x, want % x", got, want)
	}
	in.K = 0 // the copy must not follow later changes
	if got := slotBytes(p, 0, len(want)); got[16] != 42 {
		t.Fatal("packed struct aliases the caller's value")
	}
	if got := slotBytes(p, 1, 4); binary.LittleEndian.Uint32(got) != 9 {
		t.Fatalf("arg after struct: % x", got)
	}
}

func TestPackArgsRejects(t *testing.T) {
	type withSlice struct{ A []byte }
	type withPtr struct {
		N int32
		P *int32
	}
	type withInt struct{ N int }
	var nilStruct *smokeParams
	for _, c := range []struct {
		arg  any
		want string
	}{
		{int(1), "int is not a kernel argument type"},
		{"s", "string is not"},
		{smokeParams{}, "not a kernel argument type"}, // by value: ambiguous, use a pointer
		{nilStruct, "not a kernel argument type"},
		{&withSlice{}, "A is []uint8"},
		{&withPtr{}, "P is *int32"},
		{&withInt{}, "N is int"},
		{[]byte{1}, "not a kernel argument type"},
	} {
		_, err := packArgs([]any{uint32(0), c.arg})
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "argument 1") {
			t.Errorf("%T: error %v, want one containing %q", c.arg, err, c.want)
		}
	}
}

func TestPackArgsNoAllocGrowth(t *testing.T) {
	// The parameter array never references the caller's memory.
	x := int64(5)
	p, err := packArgs([]any{x})
	if err != nil {
		t.Fatal(err)
	}
	x = 6
	if got := *(*int64)(p.ptrs[0]); got != 5 {
		t.Fatalf("got %d", got)
	}
}
