// Command gpusql-bench measures the GPU CSV reader on a TPC-H-like
// lineitem file: the end-to-end load from the page cache (pread into
// pinned buffers, and mmap + cuMemHostRegister) and the on-GPU parse rate
// without transfers. It generates the file if it is missing.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"sort"
	"time"

	"github.com/gpusql/gpusql/cuda"
	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/gpu"
	"github.com/gpusql/gpusql/loader"
)

// Reference limits (docs/performance.md): pinned PCIe host-to-device
// copies and device memory bandwidth.
const (
	pcieGBs = 55.5
	hbmGBs  = 4000.0
)

func main() {
	path := flag.String("file", "/tmp/gpusql-lineitem-60m.csv", "lineitem CSV (generated if missing)")
	rows := flag.Int("rows", 60_000_000, "rows to generate")
	runs := flag.Int("runs", 3, "timed runs of each measurement")
	batch := flag.Int("batch", 0, "batch size in bytes (0: the loader's default)")
	endToEnd := flag.Bool("e2e", true, "measure the end-to-end loads")
	resident := flag.Int64("resident", -1, "bytes of the file parsed resident on the device (-1: all, 0: skip)")
	flag.Parse()
	if err := run(*path, *rows, *runs, *batch, *endToEnd, *resident); err != nil {
		fmt.Fprintln(os.Stderr, "gpusql-bench:", err)
		os.Exit(1)
	}
}

func run(path string, rows, runs, batch int, endToEnd bool, resident int64) error {
	if _, err := os.Stat(path); err != nil {
		t0 := time.Now()
		if err := loader.WriteLineitemFile(path, rows, 1, runtime.NumCPU()); err != nil {
			return err
		}
		fmt.Printf("generated %s in %v\n", path, time.Since(t0).Round(time.Millisecond))
	}
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	size := st.Size()
	// Warm the page cache.
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	t0 := time.Now()
	_, _ = io.Copy(io.Discard, f)
	f.Close()
	fmt.Printf("file %.2f GB, page-cache read pass %v\n", float64(size)/1e9, time.Since(t0).Round(time.Millisecond))
	dev, err := cuda.Open(0)
	if err != nil {
		return err
	}
	defer dev.Close()
	p := dev.Props()
	fmt.Printf("device %s, %d SMs, %.0f GiB; %s\n", p.Name, p.SMs, float64(p.TotalMem)/(1<<30), time.Now().Format("2006-01-02"))
	cols := loader.LineitemColumns()
	o := engine.DefaultCSVOptions()
	modes := []struct {
		name string
		m    loader.ReadMode
	}{{"pread+pinned", loader.ReadPread}, {"mmap+register", loader.ReadMmap}}
	if !endToEnd {
		modes = nil
	}
	for _, mode := range modes {
		var times []time.Duration
		var n int64
		for r := 0; r < runs; r++ {
			f, err := os.Open(path)
			if err != nil {
				return err
			}
			g := loader.NewGPU(dev, loader.GPUConfig{BatchSize: batch, Read: mode.m})
			t0 := time.Now()
			res, err := g.Load(context.Background(), &engine.LoadRequest{Table: "lineitem", Columns: cols, Options: o, Source: f, Size: size})
			el := time.Since(t0)
			f.Close()
			if err != nil {
				return err
			}
			n = res.Rows
			res.Data.(*gpu.Table).Release()
			times = append(times, el)
		}
		sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
		med := times[len(times)/2]
		gbs := float64(size) / med.Seconds() / 1e9
		fmt.Printf("end-to-end %-14s rows %d  median %v (runs %v)  %.2f GB/s = %.0f%% of PCIe %.1f GB/s\n",
			mode.name, n, med.Round(time.Millisecond), times, gbs, 100*gbs/pcieGBs, pcieGBs)
	}
	if resident == 0 {
		return nil
	}
	// On-GPU parse rate: the first resident bytes of the file (all of it
	// by default), copied to the device once and parsed in place.
	f, err = os.Open(path)
	if err != nil {
		return err
	}
	if resident < 0 || resident > size {
		resident = size
	}
	buf := make([]byte, resident)
	k, err := io.ReadFull(f, buf)
	f.Close()
	if err != nil {
		return err
	}
	g := loader.NewGPU(dev, loader.GPUConfig{BatchSize: batch})
	r, err := g.ParseResident(buf[:k], cols, o, max(runs, 5))
	if err != nil {
		return err
	}
	rate := func(d time.Duration) float64 { return float64(r.Bytes) / d.Seconds() / 1e9 }
	best, med := r.Times[0], r.Times[len(r.Times)/2]
	fmt.Printf("on-GPU parse (resident %.2f GB, %d rows, %d batches): best %v %.1f GB/s, median %v %.1f GB/s = %.1f%% of HBM %.0f GB/s (runs %v)\n",
		float64(r.Bytes)/1e9, r.Rows, r.Batches, best.Round(time.Microsecond), rate(best), med.Round(time.Microsecond), rate(med),
		100*rate(med)/hbmGBs, hbmGBs, r.Times)
	var total time.Duration
	for _, st := range r.Stages {
		total += st.Time
	}
	fmt.Printf("stages of the last run (device time, batches summed; total %v):\n", total.Round(time.Microsecond))
	for _, st := range r.Stages {
		fmt.Printf("  %-14s %10v %5.1f%%\n", st.Name, st.Time.Round(time.Microsecond), 100*st.Time.Seconds()/total.Seconds())
	}
	return nil
}
