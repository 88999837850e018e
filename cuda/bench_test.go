package cuda

import (
	"testing"
	"time"
)

// Copy bandwidth of the device machine, 1 GiB per copy; the figures are in
// docs/gpu.md. Each copy is timed with device events (so the worker
// round trip stays out) and reported as GB/s: bytes moved over PCIe for
// host copies, bytes read plus written for DtoD (comparable with HBM
// bandwidth). The ns/op column includes the host round trip.

const benchBytes = 1 << 30

func benchDevBuf(b *testing.B, d *Device) *Buffer {
	buf := alloc(b, d, "bench", benchBytes)
	must(b, d.Memset8(buf.Ptr(), 0x5A, benchBytes, nil))
	return buf
}

// benchCopy times copy() between two events on the default stream, b.N
// times, and reports the median's rate for bytes per copy.
func benchCopy(b *testing.B, d *Device, bytes int64, copy func() error) {
	start, err := d.NewEvent()
	must(b, err)
	defer start.Close()
	end, err := d.NewEvent()
	must(b, err)
	defer end.Close()
	must(b, copy()) // warm-up
	var times []time.Duration
	b.ResetTimer()
	for b.Loop() {
		must(b, d.Do(func() error {
			if err := start.Record(nil); err != nil {
				return err
			}
			if err := copy(); err != nil {
				return err
			}
			return end.Record(nil)
		}))
		must(b, end.Sync())
		el, err := Elapsed(start, end)
		must(b, err)
		times = append(times, el)
	}
	b.StopTimer()
	med := median(times)
	b.ReportMetric(float64(bytes)/med.Seconds()/1e9, "GB/s")
	b.ReportMetric(float64(med.Microseconds()), "µs/copy")
}

func median(ts []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ts...)
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	return s[len(s)/2]
}

func BenchmarkHtoDPinned(b *testing.B) {
	d := device(b)
	h, err := d.AllocHost(benchBytes)
	must(b, err)
	defer h.Free()
	src := h.Bytes()
	for i := range src {
		src[i] = byte(i)
	}
	dst := benchDevBuf(b, d)
	benchCopy(b, d, benchBytes, func() error { return d.CopyHtoD(dst.Ptr(), src, nil) })
}

func BenchmarkDtoHPinned(b *testing.B) {
	d := device(b)
	h, err := d.AllocHost(benchBytes)
	must(b, err)
	defer h.Free()
	src := benchDevBuf(b, d)
	benchCopy(b, d, benchBytes, func() error { return d.CopyDtoH(h.Bytes(), src.Ptr(), nil) })
}

func BenchmarkHtoDPageable(b *testing.B) {
	d := device(b)
	src := make([]byte, benchBytes)
	for i := range src {
		src[i] = byte(i)
	}
	dst := benchDevBuf(b, d)
	benchCopy(b, d, benchBytes, func() error { return d.CopyHtoD(dst.Ptr(), src, nil) })
}

func BenchmarkDtoD(b *testing.B) {
	d := device(b)
	src, dst := benchDevBuf(b, d), benchDevBuf(b, d)
	benchCopy(b, d, 2*benchBytes, func() error { return d.CopyDtoD(dst.Ptr(), src.Ptr(), benchBytes, nil) })
}

// BenchmarkDo is the round trip to the worker goroutine with no driver call.
func BenchmarkDo(b *testing.B) {
	d := device(b)
	for b.Loop() {
		must(b, d.Do(func() error { return nil }))
	}
}

// BenchmarkLaunchSync is one tiny launch plus a context sync, each its own
// round trip to the worker.
func BenchmarkLaunchSync(b *testing.B) {
	d := device(b)
	f := smokeFunc(b, d, "add_i64")
	for b.Loop() {
		must(b, d.Launch(f, Dim3{1, 1, 1}, Dim3{32, 1, 1}, 0, nil, DevPtr(0), DevPtr(0), DevPtr(0), int64(0)))
		must(b, d.Sync())
	}
}

// BenchmarkLaunchSyncInDo is the same inside one Do: the driver's own cost.
func BenchmarkLaunchSyncInDo(b *testing.B) {
	d := device(b)
	f := smokeFunc(b, d, "add_i64")
	for b.Loop() {
		must(b, d.Do(func() error {
			if err := d.Launch(f, Dim3{1, 1, 1}, Dim3{32, 1, 1}, 0, nil, DevPtr(0), DevPtr(0), DevPtr(0), int64(0)); err != nil {
				return err
			}
			return d.Sync()
		}))
	}
}

// BenchmarkLaunchSyncInRun is BenchmarkLaunchSync's two calls made inside
// Run, on the caller's thread.
func BenchmarkLaunchSyncInRun(b *testing.B) {
	d := device(b)
	f := smokeFunc(b, d, "add_i64")
	must(b, d.Run(func() error {
		for b.Loop() {
			must(b, d.Launch(f, Dim3{1, 1, 1}, Dim3{32, 1, 1}, 0, nil, DevPtr(0), DevPtr(0), DevPtr(0), int64(0)))
			must(b, d.Sync())
		}
		return nil
	}))
}
