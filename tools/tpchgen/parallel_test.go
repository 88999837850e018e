package main

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestMain lets the test binary run as a tpchgen worker: generateParallel
// runs os.Executable() with workerArg.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == workerArg {
		os.Exit(workerMain(os.Args[2:]))
	}
	os.Exit(m.Run())
}

// TestParallel generates SF 0.01 and SF 0.1 in this process and with
// worker processes (numbers that split some tables unevenly) and compares
// the files' SHA-256 and the counts.
func TestParallel(t *testing.T) {
	for _, c := range []struct {
		sf      float64
		workers int
	}{{0.01, 7}, {0.1, 3}} {
		one, oneSums := generateSums(t, Options{SF: c.sf, Dir: t.TempDir(), Workers: 1})
		par, parSums := generateSums(t, Options{SF: c.sf, Dir: t.TempDir(), Workers: c.workers})
		for _, tb := range Tables {
			if parSums[tb] != oneSums[tb] {
				t.Errorf("SF %g, %d workers: %s: sha256 %s, one process %s", c.sf, c.workers, tb, parSums[tb], oneSums[tb])
			}
			if par.Rows[tb] != one.Rows[tb] || par.Bytes[tb] != one.Bytes[tb] {
				t.Errorf("SF %g, %d workers: %s: %d rows, %d bytes; one process %d, %d", c.sf, c.workers, tb,
					par.Rows[tb], par.Bytes[tb], one.Rows[tb], one.Bytes[tb])
			}
		}
	}
}

// generateSums runs generate and returns its stats and each file's SHA-256,
// checking that the directory holds nothing but the tables' files.
func generateSums(t *testing.T, opt Options) (*Stats, map[string]string) {
	t.Helper()
	st, err := generate(opt)
	if err != nil {
		t.Fatalf("SF %g, %d workers: %v", opt.SF, opt.Workers, err)
	}
	sums := map[string]string{}
	var want []string
	for _, tb := range Tables {
		data, err := os.ReadFile(filepath.Join(opt.Dir, tb+".csv"))
		if err != nil {
			t.Fatal(err)
		}
		if int64(len(data)) != st.Bytes[tb] {
			t.Errorf("SF %g, %d workers: %s: %d bytes in the file, %d counted", opt.SF, opt.Workers, tb, len(data), st.Bytes[tb])
		}
		sum := sha256.Sum256(data)
		sums[tb] = hex.EncodeToString(sum[:])
		want = append(want, tb+".csv")
	}
	ents, err := os.ReadDir(opt.Dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("SF %g, %d workers: directory holds %v", opt.SF, opt.Workers, got)
	}
	return st, sums
}

// TestParallelSF001 checks TestSF001's sums with workers.
func TestParallelSF001(t *testing.T) {
	dir := t.TempDir()
	if _, err := generate(Options{SF: 0.01, Dir: dir, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	for _, w := range sf001 {
		data, err := os.ReadFile(filepath.Join(dir, w.table+".csv"))
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		if got := hex.EncodeToString(sum[:]); got != w.sha256 {
			t.Errorf("%s: sha256 %s, want %s", w.table, got, w.sha256)
		}
	}
}

func TestParallelBadScale(t *testing.T) {
	dir := t.TempDir()
	if _, err := generate(Options{SF: 1.5, Dir: dir, Workers: 2}); err == nil {
		t.Error("scale factor 1.5 accepted")
	}
}
