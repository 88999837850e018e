package gpu

import (
	"bytes"
	"encoding/binary"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine/eval"
)

// The regexvm section of cuda/query.cu (OP_REGEXREP's Pike VM) is plain
// C under its macros: TestVMReplaceCMatchesCPU compiles it with the
// host's C compiler, with the kernel's own runeW and the regex section's
// rune decoding, and compares its results with the CPU backend's
// regexp_replace, so CI checks the kernel's code without a GPU.

// runeWSource is query.cu's runeW function.
func runeWSource(t *testing.T) string {
	s := queryCU(t)
	i := strings.Index(s, "__device__ int runeW(")
	j := strings.Index(s[i:], "\n}\n")
	if i < 0 || j < 0 {
		t.Fatal("query.cu has no runeW")
	}
	return s[i : i+j+3]
}

func TestVMReplaceCMatchesCPU(t *testing.T) {
	cc, err := exec.LookPath("gcc")
	if err != nil {
		if cc, err = exec.LookPath("cc"); err != nil {
			t.Skip("no C compiler here: ", err)
		}
	}
	dir := t.TempDir()
	harness := `#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>
typedef long long i64; typedef unsigned long long u64;
#define __device__ static
#define __forceinline__ inline
` + runeWSource(t) + querySection(t, "regex begin", "regex end") + `
static unsigned rd(void) {
    unsigned v;
    if (fread(&v, 4, 1, stdin) != 1) exit(0);
    return v;
}
int main(void) {
    for (;;) {
        unsigned nb = rd(), nw = rd();
        unsigned char *blob = malloc(nb + 4);
        if (fread(blob, 1, nb, stdin) != nb) return 2;
        const unsigned outw = ((const unsigned *)blob)[VH_OUTW];
        // the scratch: the result, then the state on a 4-byte boundary,
        // all poisoned
        unsigned char *scr = malloc(outw + 8 + 4 * (size_t)nw);
        unsigned ns = rd();
        for (unsigned i = 0; i < ns; i++) {
            unsigned n = rd();
            unsigned char *s = malloc(n + 1);
            if (fread(s, 1, n, stdin) != n) return 2;
            memset(scr, 0xA5, outw + 8 + 4 * (size_t)nw);
            unsigned *st = (unsigned *)(((u64)(scr + outw) + 3) & ~(u64)3);
            int k = vmReplace(blob, s, (int)n, scr, st);
            fwrite(&k, 4, 1, stdout);
            fwrite(scr, 1, k, stdout);
            free(s);
        }
        free(scr);
        free(blob);
    }
}
`
	if err := os.WriteFile(filepath.Join(dir, "h.c"), []byte(harness), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "h")
	if out, err := exec.Command(cc, "-O2", "-Wall", "-Wno-unused-function", "-Werror", "-fsanitize=address,undefined", "-o", bin, filepath.Join(dir, "h.c")).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", cc, err, out)
	}
	cases, strs := clickBenchVMCases()
	n := 600
	if raceEnabled {
		n = 100
	}
	rc, rstrs := randomVMCases(33, n)
	type job struct {
		c    vmCase
		strs []string
		want [][]byte
	}
	var jobs []job
	var in bytes.Buffer
	u32 := func(v int) { in.Write(binary.LittleEndian.AppendUint32(nil, uint32(v))) }
	for k, c := range append(cases, rc...) {
		ss := strs
		if k >= len(cases) {
			ss = rstrs
		}
		opts, err := eval.ParseRegexOpts(c.flags)
		if err != nil {
			t.Fatal(err)
		}
		re, err := eval.CompilePGRegex(c.pat, opts.Fold)
		if err != nil {
			continue
		}
		nth := c.nth
		if nth < 0 {
			nth = 1
			if opts.Global {
				nth = 0
			}
		}
		ws := 0
		for _, s := range ss {
			ws = max(ws, len(s))
		}
		vm, err := compileRegexVM(c.pat, c.rep, opts.Fold, c.start-1, nth, ws)
		if err != nil {
			continue
		}
		j := job{c: c, strs: ss}
		for _, s := range ss {
			from := 0
			for k := c.start - 1; k > 0 && from < len(s); k-- {
				from += dfaRuneW([]byte(s[from:]))
			}
			w, _ := re.Replace(nil, []byte(s), []byte(c.rep), from, nth, nil)
			j.want = append(j.want, w)
		}
		jobs = append(jobs, j)
		u32(len(vm.blob))
		u32(vmStateWords(int(binary.LittleEndian.Uint32(vm.blob[4*vhInst:])), int(binary.LittleEndian.Uint32(vm.blob[4*vhCap:]))))
		in.Write(vm.blob)
		u32(len(ss))
		for _, s := range ss {
			u32(len(s))
			in.WriteString(s)
		}
	}
	cmd := exec.Command(bin)
	cmd.Stdin = &in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	r := bytes.NewReader(out)
	bad := 0
	for _, j := range jobs {
		for i, s := range j.strs {
			var n uint32
			if err := binary.Read(r, binary.LittleEndian, &n); err != nil {
				t.Fatalf("short output: %v", err)
			}
			got := make([]byte, n)
			if _, err := io.ReadFull(r, got); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, j.want[i]) {
				if bad++; bad <= 10 {
					t.Errorf("regexp_replace(%q, %q, %q, start %d, n %d, %q)\n C   %q\n CPU %q", s, j.c.pat, j.c.rep, j.c.start, j.c.nth, j.c.flags, got, j.want[i])
				}
			}
		}
	}
	t.Logf("%d patterns compared", len(jobs))
}
