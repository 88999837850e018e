// Command sasspack stores a fatbin that nvcc built from cuda/X.cu as
// cuda/X.sass.gz: gzip-compressed, with the source's SHA-256 in the gzip
// header's comment ("gpusql-source-sha256: <hex>"), which
// cuda/sass_test.go checks as ptx_test.go checks the PTX's first line.
// `make ptx` runs it; see docs/gpu.md.
//
//	go run ./cuda/sasspack -src cuda/query.cu -fatbin /tmp/query.fatbin -out cuda/query.sass.gz
package main

import (
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
)

func main() {
	src := flag.String("src", "", "the .cu source the fatbin was built from")
	fatbin := flag.String("fatbin", "", "nvcc's -fatbin output")
	out := flag.String("out", "", "the .sass.gz to write")
	flag.Parse()
	if err := run(*src, *fatbin, *out); err != nil {
		fmt.Fprintln(os.Stderr, "sasspack:", err)
		os.Exit(1)
	}
}

func run(src, fatbin, out string) error {
	cu, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	bin, err := os.ReadFile(fatbin)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(cu)
	f, err := os.Create(out + ".tmp")
	if err != nil {
		return err
	}
	zw, err := gzip.NewWriterLevel(f, gzip.BestCompression)
	if err != nil {
		f.Close()
		return err
	}
	zw.Comment = "gpusql-source-sha256: " + hex.EncodeToString(sum[:])
	if _, err := zw.Write(bin); err != nil {
		f.Close()
		return err
	}
	if err := zw.Close(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(out+".tmp", out)
}
