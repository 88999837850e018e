package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Parallel generation, as C dbgen's -C n -S k: worker process k of n makes
// rows [R*k/n+1, R*(k+1)/n] of each table of R rows (region and nation, 5
// and 25 rows, all in worker 0), then the parent concatenates the parts in
// order. dbgen keeps its state in package variables, so the workers are
// processes: the tpchgen binary run again with workerArg first.
//
// A worker gets the same rows as one process would because every dbgen row
// draws a fixed count of numbers from each random stream of its table: at
// the end of a row, rand.go rowStop moves each stream on to its per-row
// boundary. So before its first row s, a worker moves its tables' streams
// on by s-1 rows with go-tpc's seed functions (sdOrder and sdLineItem for
// orders and lineitem, sdPart and sdPsupp, sdSupp, sdCust), as C dbgen's
// set_state does. The text pool is the same in every process (stream 5,
// before any table). TestParallel compares both ways byte for byte.

// workerArg, as the first argument, runs the binary as a worker.
const workerArg = "-tpchgen-worker"

// partSuffix names worker k's part of a table: DIR/<table>.csv.part-k.
func partSuffix(k int) string { return ".part-" + strconv.Itoa(k) }

func partPath(dir, table string, k int) string {
	return filepath.Join(dir, table+".csv"+partSuffix(k))
}

// workerMain runs a worker: workerArg -sf SF -dir DIR -part K -parts N
// [-q]. It writes DIR/<table>.csv.part-K for every table, then one line
// "table rows bytes" per table on stdout.
func workerMain(args []string) int {
	fs := flag.NewFlagSet("tpchgen worker", flag.ContinueOnError)
	sf := fs.Float64("sf", 1, "")
	dir := fs.String("dir", ".", "")
	part := fs.Int("part", 0, "")
	parts := fs.Int("parts", 1, "")
	quiet := fs.Bool("q", false, "")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if os.Getenv("GOGC") == "" {
		// The 300 MB text pool is most of the live heap; collecting at
		// 25% over it rather than 100% keeps a worker at about 400 MB
		// rather than 650 MB, for next to no more time.
		debug.SetGCPercent(25)
	}
	start := time.Now()
	st, err := generatePart(*sf, *dir, *part, *parts)
	if err != nil {
		fmt.Fprintf(os.Stderr, "tpchgen worker %d/%d: %v\n", *part, *parts, err)
		return 1
	}
	for _, t := range Tables {
		fmt.Printf("%s %d %d\n", t, st.Rows[t], st.Bytes[t])
	}
	if !*quiet {
		fmt.Fprintf(os.Stderr, "worker %d/%d done, %.1fs\n", *part, *parts, time.Since(start).Seconds())
	}
	return 0
}

// generatePart writes worker k of n's part of every table.
func generatePart(sf float64, dir string, k, n int) (*Stats, error) {
	if err := initScale(sf); err != nil {
		return nil, err
	}
	return makeTables(dir, partSuffix(k), k, n, nil)
}

// generateParallel is generate with opt.Workers worker processes.
func generateParallel(opt Options) (*Stats, error) {
	if err := checkScale(opt.SF); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(opt.Dir, 0o755); err != nil {
		return nil, err
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	n := opt.Workers
	defer func() {
		for _, t := range Tables {
			for k := 0; k < n; k++ {
				p := partPath(opt.Dir, t, k)
				os.Remove(p)
				os.Remove(p + ".tmp")
			}
		}
	}()
	progress := func(format string, a ...any) {
		if opt.Progress != nil {
			fmt.Fprintf(opt.Progress, format, a...)
		}
	}
	start := time.Now()
	progress("generating SF %g with %d worker processes\n", opt.SF, n)

	// Run the workers; the first to fail stops the others.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	outs := make([]bytes.Buffer, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for k := 0; k < n; k++ {
		args := []string{workerArg, "-sf", strconv.FormatFloat(opt.SF, 'g', -1, 64),
			"-dir", opt.Dir, "-part", strconv.Itoa(k), "-parts", strconv.Itoa(n)}
		if opt.Progress == nil {
			args = append(args, "-q")
		}
		cmd := exec.CommandContext(ctx, exe, args...)
		cmd.Stdout = &outs[k]
		cmd.Stderr = os.Stderr
		if opt.Progress != nil {
			cmd.Stderr = opt.Progress
		}
		if err := cmd.Start(); err != nil {
			cancel()
			wg.Wait()
			return nil, err
		}
		wg.Add(1)
		go func(k int) {
			defer wg.Done()
			if err := cmd.Wait(); err != nil {
				errs[k] = fmt.Errorf("worker %d: %v", k, err)
				cancel()
			}
		}(k)
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		for _, e := range errs {
			if e != nil {
				return nil, e
			}
		}
		return nil, err
	}

	// Each worker's row and byte counts, and so where its part goes.
	st := &Stats{Rows: map[string]int64{}, Bytes: map[string]int64{}}
	partBytes := map[string][]int64{}
	for k := range outs {
		sc := bufio.NewScanner(&outs[k])
		seen := 0
		for sc.Scan() {
			f := strings.Fields(sc.Text())
			if len(f) != 3 {
				return nil, fmt.Errorf("worker %d: unexpected output %q", k, sc.Text())
			}
			rows, err1 := strconv.ParseInt(f[1], 10, 64)
			size, err2 := strconv.ParseInt(f[2], 10, 64)
			if err := errors.Join(err1, err2); err != nil {
				return nil, fmt.Errorf("worker %d: %v", k, err)
			}
			st.Rows[f[0]] += rows
			st.Bytes[f[0]] += size
			partBytes[f[0]] = append(partBytes[f[0]], size)
			seen++
		}
		if seen != len(Tables) {
			return nil, fmt.Errorf("worker %d: %d tables in its output, want %d", k, seen, len(Tables))
		}
	}
	progress("workers done, %.1fs; concatenating\n", time.Since(start).Seconds())

	// Concatenate: copy every part to its offset in DIR/<table>.csv.tmp, n
	// at a time (io.Copy between files is copy_file_range on Linux), then
	// rename.
	type job struct {
		table string
		k     int
		off   int64
	}
	var jobs []job
	for _, t := range Tables {
		if len(partBytes[t]) != n {
			return nil, fmt.Errorf("%s: %d parts, want %d", t, len(partBytes[t]), n)
		}
		f, err := os.Create(filepath.Join(opt.Dir, t+".csv.tmp"))
		if err != nil {
			return nil, err
		}
		defer os.Remove(f.Name()) // after the rename, nothing to remove
		err = f.Truncate(st.Bytes[t])
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return nil, err
		}
		off := int64(0)
		for k, size := range partBytes[t] {
			if size > 0 {
				jobs = append(jobs, job{t, k, off})
			}
			off += size
		}
	}
	jobc := make(chan job)
	cerrs := make([]error, n)
	for w := 0; w < n; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for j := range jobc {
				if cerrs[w] == nil {
					cerrs[w] = copyPart(filepath.Join(opt.Dir, j.table+".csv.tmp"), j.off, partPath(opt.Dir, j.table, j.k))
				}
			}
		}(w)
	}
	for _, j := range jobs {
		jobc <- j
	}
	close(jobc)
	wg.Wait()
	if err := errors.Join(cerrs...); err != nil {
		return nil, err
	}
	for _, t := range Tables {
		if err := os.Rename(filepath.Join(opt.Dir, t+".csv.tmp"), filepath.Join(opt.Dir, t+".csv")); err != nil {
			return nil, err
		}
	}
	progress("concatenated, %.1fs\n", time.Since(start).Seconds())
	return st, nil
}

// copyPart copies the file src into dst at offset off, and removes src.
func copyPart(dst string, off int64, src string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	if _, err := out.Seek(off, io.SeekStart); err != nil {
		out.Close()
		return err
	}
	written, err := io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err == nil && written != fi.Size() {
		err = fmt.Errorf("%s: copied %d of %d bytes", src, written, fi.Size())
	}
	if err != nil {
		return err
	}
	return os.Remove(src)
}
