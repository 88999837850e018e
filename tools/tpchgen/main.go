// Command tpchgen writes the eight TPC-H tables as '|'-separated CSV files
// (no header, no trailing delimiter) at a given scale factor, with go-tpc's
// port of TPC-H dbgen 2.4.0. The output is the same for the same scale
// factor on every run. See tools/README.md.
//
//	tpchgen -sf 0.01 -dir /tmp/tpch-sf0.01
package main

import (
	"flag"
	"fmt"
	"os"
	"time"
)

func main() {
	var opt Options
	flag.Float64Var(&opt.SF, "sf", 1, "scale factor: a whole number, or a multiple of 0.001 below 1")
	flag.StringVar(&opt.Dir, "dir", ".", "output directory; <table>.csv files there are replaced")
	quiet := flag.Bool("q", false, "print nothing but errors")
	flag.Parse()
	if flag.NArg() != 0 {
		fmt.Fprintf(os.Stderr, "tpchgen: unexpected argument %q\n", flag.Arg(0))
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
