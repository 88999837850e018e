package loader

import (
	"bytes"
	"os"
	"sync"
)

// WriteLineitemFile writes rows lines of lineitem CSV to path, generated in
// chunks of one million rows by workers goroutines (chunk i uses seed+i)
// and written in order. It exists for the GPU loader's tests and
// benchmark, which need files of many gigabytes quickly.
func WriteLineitemFile(path string, rows int, seed int64, workers int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	const per = 1_000_000
	nchunks := (rows + per - 1) / per
	workers = max(1, workers)
	results := make([]chan []byte, nchunks)
	for i := range results {
		results[i] = make(chan []byte, 1)
	}
	sem := make(chan struct{}, workers)
	var wg sync.WaitGroup
	go func() {
		for i := 0; i < nchunks; i++ {
			sem <- struct{}{}
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				var b bytes.Buffer
				_ = WriteLineitem(&b, min(per, rows-i*per), seed+int64(i))
				results[i] <- b.Bytes()
			}(i)
		}
	}()
	var werr error
	for i := 0; i < nchunks; i++ {
		b := <-results[i]
		<-sem
		if werr == nil {
			_, werr = f.Write(b)
		}
	}
	wg.Wait()
	if err := f.Close(); werr == nil {
		werr = err
	}
	return werr
}
