package gpu

import (
	"math"
	"sync"

	"github.com/gpusql/gpusql/cuda"
)

// colStats is the range of a column's non-NULL values as int64 (booleans
// 0/1, dates in days, numerics as their scaled mantissa). The fused
// kernels (fused.go) use it to prove that arithmetic cannot overflow 64
// bits, so that they may skip the 128-bit registers and error checks of
// the interpreter.
type colStats struct {
	lo, hi int64
	count  int64 // non-NULL values; 0: lo and hi mean nothing
}

// statsCache holds a column's stats once computed. Columns are immutable
// once loaded (a load or COPY builds new columns), so the stats never go
// stale; the data address and row count are kept anyway as a guard.
type statsCache struct {
	mu   sync.Mutex
	ok   bool
	data cuda.DevPtr
	n    int64
	s    colStats
}

// statable says whether q_minmax can read columns of class cls.
func statable(cls int32) bool { return cls == clsBool || isInt(cls) || cls == clsDec }

// stats returns column k's value range, running q_minmax the first time.
func (r *run) stats(k int) (colStats, error) {
	c := r.t.Cols[k]
	var data, valid cuda.DevPtr
	if c.Data != nil {
		data = c.Data.Ptr()
	}
	if c.Valid != nil {
		valid = c.Valid.Ptr()
	}
	sc := &c.caches().stats
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if sc.ok && sc.data == data && sc.n == r.t.N {
		return sc.s, nil
	}
	cls, err := clsOf(c.Type)
	if err != nil {
		return colStats{}, err
	}
	var s colStats
	if r.t.N > 0 && data != 0 {
		buf, err := r.s.alloc(24)
		if err != nil {
			return colStats{}, err
		}
		init := [3]int64{math.MaxInt64, math.MinInt64, 0}
		out := make([]int64, 3)
		err = r.b.dev.Do(func() error {
			if err := r.b.dev.CopyHtoD(buf.Ptr(), sliceBytes(init[:]), nil); err != nil {
				return err
			}
			g := uint32(min((r.t.N+255)/256, int64(r.b.dev.Props().SMs)*8))
			if err := r.b.dev.Launch(r.b.fns["q_minmax"], cuda.Dim3{X: g, Y: 1, Z: 1}, cuda.Dim3{X: 256, Y: 1, Z: 1}, 0, nil,
				data, valid, r.t.N, cls, buf.Ptr()); err != nil {
				return err
			}
			return r.b.dev.CopyDtoH(sliceBytes(out), buf.Ptr(), nil)
		})
		if err != nil {
			return colStats{}, err
		}
		s = colStats{lo: out[0], hi: out[1], count: out[2]}
	}
	sc.ok, sc.data, sc.n, sc.s = true, data, r.t.N, s
	return s, nil
}
