package hits

import (
	"io"
	"sync"
)

// ChunkRows is how many rows a worker makes at a time: about 5 MB of
// output.
const ChunkRows = 8192

// Write writes every row to w, made by workers goroutines (at least one)
// in chunks of ChunkRows and written in row order, and returns their
// statistics. The bytes do not depend on workers. At most 4·workers
// chunks are made ahead of the writer.
func (g *Generator) Write(w io.Writer, workers int) (Stats, error) {
	workers = max(workers, 1)
	type result struct {
		buf   []byte
		stats Stats
	}
	type job struct {
		k   int64
		out chan result // buffered: a worker never waits on it
	}
	// The feeder queues each chunk's result channel in order before
	// handing the chunk out; the queue's capacity bounds the chunks in
	// flight, and the writer reads the queue in order.
	queue := make(chan chan result, 4*workers)
	jobs := make(chan job)
	stop := make(chan struct{})
	free := make(chan []byte, 4*workers) // written buffers, for reuse
	go func() {
		defer close(queue)
		defer close(jobs)
		for k := int64(0); k*ChunkRows < g.rows; k++ {
			out := make(chan result, 1)
			select {
			case queue <- out:
			case <-stop:
				return
			}
			jobs <- job{k, out}
		}
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				var buf []byte
				select {
				case buf = <-free:
				default:
				}
				var st Stats
				from := j.k * ChunkRows
				buf = g.AppendRows(buf[:0], from, min(from+ChunkRows, g.rows), &st)
				j.out <- result{buf, st}
			}
		}()
	}
	var total Stats
	var err error
	for out := range queue {
		res := <-out
		if err != nil {
			continue // draining after a failed write
		}
		if _, err = w.Write(res.buf); err != nil {
			close(stop)
			continue
		}
		total.Merge(&res.stats)
		select {
		case free <- res.buf:
		default:
		}
	}
	wg.Wait()
	return total, err
}
