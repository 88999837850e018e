package cuda

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const ptxHashPrefix = "// gpusql-source-sha256: "

// TestPTXMatchesSources checks that every cuda/X.cu has a committed
// cuda/X.ptx whose first line records the SHA-256 of the source as it is
// now: a kernel edited without `make ptx` fails here, with no nvcc needed.
func TestPTXMatchesSources(t *testing.T) {
	srcs, err := filepath.Glob("*.cu")
	if err != nil {
		t.Fatal(err)
	}
	if len(srcs) == 0 {
		t.Fatal("no cuda/*.cu found")
	}
	for _, src := range srcs {
		t.Run(src, func(t *testing.T) {
			cu, err := os.ReadFile(src)
			if err != nil {
				t.Fatal(err)
			}
			want := sha256.Sum256(cu)
			ptxName := strings.TrimSuffix(src, ".cu") + ".ptx"
			ptx, err := os.ReadFile(ptxName)
			if err != nil {
				t.Fatalf("%s has no PTX: run `make ptx` and commit %s (%v)", src, ptxName, err)
			}
			first, _, _ := bytes.Cut(ptx, []byte("\n"))
			got, ok := strings.CutPrefix(string(first), ptxHashPrefix)
			if !ok {
				t.Fatalf("%s does not start with %q: build it with `make ptx`", ptxName, ptxHashPrefix)
			}
			if got != hex.EncodeToString(want[:]) {
				t.Fatalf("%s was built from another version of %s (recorded %s, source is %x): run `make ptx` and commit both",
					ptxName, src, got, want)
			}
			emb, err := PTX(strings.TrimSuffix(src, ".cu"))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(emb, ptx) {
				t.Fatalf("embedded %s differs from the file", ptxName)
			}
		})
	}
}

// TestPTXTarget checks every PTX file targets sm_80 (make ptx builds
// -arch=compute_80; docs/gpu.md says why), so a local nvcc default cannot
// slip in an architecture the deployed GPUs' drivers would refuse.
func TestPTXTarget(t *testing.T) {
	files, _ := filepath.Glob("*.ptx")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if line := strings.TrimSpace(sc.Text()); strings.HasPrefix(line, ".target ") {
				found = true
				if line != ".target sm_80" {
					t.Errorf("%s: %q, want .target sm_80", f, line)
				}
				break
			}
		}
		if !found {
			t.Errorf("%s has no .target line", f)
		}
	}
}

func TestPTXUnknown(t *testing.T) {
	if _, err := PTX("no-such-module"); err == nil {
		t.Fatal("PTX of a missing module succeeded")
	}
}
