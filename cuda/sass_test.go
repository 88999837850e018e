package cuda

import (
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSASSMatchesSources checks that every cuda/X.cu has a committed
// cuda/X.sass.gz (the machine code `make ptx` builds) whose gzip comment
// records the SHA-256 of the source as it is now, and that it holds a
// fatbin: a kernel edited without `make ptx` fails here, with no nvcc.
func TestSASSMatchesSources(t *testing.T) {
	srcs, err := filepath.Glob("*.cu")
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range srcs {
		t.Run(src, func(t *testing.T) {
			cu, err := os.ReadFile(src)
			if err != nil {
				t.Fatal(err)
			}
			want := sha256.Sum256(cu)
			name := strings.TrimSuffix(src, ".cu") + ".sass.gz"
			f, err := os.Open(name)
			if err != nil {
				t.Fatalf("%s has no machine code: run `make ptx` and commit %s (%v)", src, name, err)
			}
			defer f.Close()
			zr, err := gzip.NewReader(f)
			if err != nil {
				t.Fatal(err)
			}
			got, ok := strings.CutPrefix(zr.Comment, "gpusql-source-sha256: ")
			if !ok || got != hex.EncodeToString(want[:]) {
				t.Fatalf("%s was built from another version of %s (recorded %q, source is %x): run `make ptx` and commit both",
					name, src, zr.Comment, want)
			}
			bin, err := SASS(strings.TrimSuffix(src, ".cu"))
			if err != nil {
				t.Fatal(err)
			}
			// a fatbin starts with its magic number 0xBA55ED50
			if len(bin) < 8 || bin[0] != 0x50 || bin[1] != 0xED || bin[2] != 0x55 || bin[3] != 0xBA {
				t.Fatalf("%s does not hold a fatbin (starts % x)", name, bin[:min(8, len(bin))])
			}
		})
	}
}

// TestLoadKernels loads every embedded module on the device twice: from
// its shipped machine code, which a GPU of SASS_ARCHS takes without a
// compile, and from its PTX (JITOnly), and logs the times: run with
// CUDA_CACHE_DISABLE=1 they are the cold start's. A module whose
// machine code holds the GPU's architecture must load it.
func TestLoadKernels(t *testing.T) {
	device(t) // skips without a GPU
	names, err := filepath.Glob("*.cu")
	if err != nil {
		t.Fatal(err)
	}
	for _, jitOnly := range []bool{false, true} {
		d, err := OpenWith(0, Options{JITOnly: jitOnly})
		if err != nil {
			t.Fatal(err)
		}
		p := d.Props()
		for _, src := range names {
			name := strings.TrimSuffix(src, ".cu")
			start := time.Now()
			m, jit, err := d.LoadKernels(name)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if m == nil || jit != jitOnly && shipsArch(p.Major*10+p.Minor) {
				t.Errorf("%s: jit %v with JITOnly %v on sm_%d%d", name, jit, jitOnly, p.Major, p.Minor)
			}
			t.Logf("%s on sm_%d%d: %v (jit %v)", name, p.Major, p.Minor, time.Since(start).Round(time.Millisecond), jit)
		}
		d.Close()
	}
}

// shipsArch reports whether make ptx's SASS_ARCHS include sm_<arch>.
func shipsArch(arch int) bool {
	switch arch {
	case 80, 86, 89, 90:
		return true
	}
	return false
}
