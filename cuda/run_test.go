package cuda

import (
	"errors"
	"testing"
)

// Inside Run, driver calls run on the caller's thread, not on the worker,
// and a Do inside Run holds the device for its whole f there.
func TestRunCallsOnCaller(t *testing.T) {
	d := device(t)
	must(t, d.Run(func() error {
		tid := int64(gettid())
		if tid == d.tid.Load() {
			t.Fatal("Run's goroutine is on the worker's thread")
		}
		return d.Do(func() error {
			if h := d.holder.Load(); h != tid {
				t.Errorf("Do inside Run: the device is held by thread %d, want the caller's %d (worker %d)", h, tid, d.tid.Load())
			}
			return nil
		})
	}))
	// outside Run the worker holds the device for a Do
	must(t, d.Do(func() error {
		if h := d.holder.Load(); h != d.tid.Load() {
			t.Errorf("Do outside Run: the device is held by thread %d, want the worker's %d", h, d.tid.Load())
		}
		return nil
	}))
	// the thread gives the context back: a call from it afterwards, outside
	// Run, goes through the worker again
	var cur uintptr
	must(t, d.Run(func() error { return nil }))
	must(t, d.Do(func() error {
		return d.lib.check("cuCtxGetCurrent", d.lib.cuCtxGetCurrent(&cur))
	}))
	if cur != d.ctx {
		t.Errorf("the worker's context is %#x, want %#x", cur, d.ctx)
	}
}

// Goroutines inside Run and goroutines going through the worker share the
// device at once, and every result is right (run it with -race too).
func TestConcurrentRun(t *testing.T) {
	d := device(t)
	f := smokeFunc(t, d, "add_i64")
	inParallel(t, d, func(g int) error {
		if g%2 == 0 {
			return concurrentWork(d, f, g)
		}
		return d.Run(func() error {
			// a nested Run is the same as none
			return d.Run(func() error { return concurrentWork(d, f, g) })
		})
	})
	d.runnersMu.Lock()
	defer d.runnersMu.Unlock()
	if len(d.runners) != 0 {
		t.Errorf("threads still registered inside Run: %v", d.runners)
	}
}

// A Run in progress when the device closes gets ErrClosed from its later
// calls, and Close does not wait for Run to end.
func TestRunAfterClose(t *testing.T) {
	device(t)
	d, err := Open(0)
	must(t, err)
	allocated, closed := make(chan struct{}), make(chan struct{})
	done := make(chan error)
	go func() {
		done <- d.Run(func() error {
			b, err := d.Alloc("x", 1<<20)
			close(allocated)
			if err != nil {
				return err
			}
			<-closed
			if err := b.Free(); !errors.Is(err, ErrClosed) {
				t.Errorf("Free inside Run after Close: %v", err)
			}
			_, err = d.Alloc("x", 1)
			return err
		})
	}()
	<-allocated
	must(t, d.Close())
	close(closed)
	if err := <-done; !errors.Is(err, ErrClosed) {
		t.Fatalf("Alloc inside Run after Close: %v", err)
	}
}
