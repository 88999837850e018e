// Command tpchgen writes the eight TPC-H tables as '|'-separated CSV files
// (no header, no trailing delimiter) at a given scale factor, with go-tpc's
// port of TPC-H dbgen 2.4.0. The output is the same for the same scale
// factor on every run. See tools/README.md.
//
//	tpchgen -sf 0.01 -dir /tmp/tpch-sf0.01
//	tpchgen -sf 10 -dir /data/tpch-sf10 -workers 16
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"time"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == workerArg {
		os.Exit(workerMain(os.Args[2:]))
	}
	var opt Options
	flag.Float64Var(&opt.SF, "sf", 1, "scale factor: a whole number, or a multiple of 0.001 below 1")
	flag.StringVar(&opt.Dir, "dir", ".", "output directory; <table>.csv files there are replaced")
	flag.IntVar(&opt.Workers, "workers", runtime.NumCPU(), "worker processes, each making a share of every large table; 1 makes all in this process")
	quiet := flag.Bool("q", false, "print nothing but errors")
	flag.Parse()
	if flag.NArg() != 0 {
		fmt.Fprintf(os.Stderr, "tpchgen: unexpected argument %q\n", flag.Arg(0))
		os.Exit(2)
	}
	if opt.Workers < 1 {
		fmt.Fprintf(os.Stderr, "tpchgen: -workers %d: want at least 1\n", opt.Workers)
		os.Exit(2)
	}
	if !*quiet {
		opt.Progress = os.Stderr
	}
	start := time.Now()
	st, err := generate(opt)
	if err != nil {
		fmt.Fprintf(os.Stderr, "tpchgen: %v\n", err)
		os.Exit(1)
	}
	if !*quiet {
		fmt.Fprintf(os.Stderr, "%sSF %g in %s, %.1fs\n", st.summary(), opt.SF, opt.Dir, time.Since(start).Seconds())
	}
}
