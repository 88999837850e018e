package loader

import (
	"sync"
	"sync/atomic"
)

// parallelFor runs fn(worker, task) for task in [0, n) on up to workers
// goroutines, handing out tasks in order through an atomic counter.
func parallelFor(workers, n int, fn func(worker, task int)) {
	if n <= 0 {
		return
	}
	if workers > n {
		workers = n
	}
	if workers <= 1 {
		for t := 0; t < n; t++ {
			fn(0, t)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	wg.Add(workers)
	for w := 0; w < workers; w++ {
		go func(w int) {
			defer wg.Done()
			for {
				t := int(next.Add(1)) - 1
				if t >= n {
					return
				}
				fn(w, t)
			}
		}(w)
	}
	wg.Wait()
}
